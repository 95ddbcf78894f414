"""Shared by the integration and browser tests: starts the real `sandbox serve` (port 0 unless
told otherwise) and hands tests its port; always stops it. Which binary and which extra serve
arguments: Tests/sandbox_env.py (SANDBOX_BINARY, SANDBOX_SERVE_ARGS). A server's stderr goes to
a temporary file (a sanitizer report is never lost nor blocks a pipe); a test whose server wrote
a sanitizer report fails at teardown."""
import os
import re
import signal
import subprocess
import tempfile

import pytest

from sandbox_env import BINARY, ROOT, SERVE_ARGS, sanitizer_report, wait_for_signal_sources  # noqa: F401 (BINARY, ROOT: re-exported)

PROTOCOL = "transition-sandbox.v2"


class Server:
    def __init__(self, *extra, port=0):
        self.stderr_file = tempfile.TemporaryFile(prefix="sandbox-stderr-")
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(port), "--web-root", str(ROOT / "web"), *SERVE_ARGS, *extra],
            stdout=subprocess.PIPE, stderr=self.stderr_file, text=True,
        )
        line = self.process.stdout.readline()
        match = re.search(r"(https?)://([\d.]+):(\d+)/", line)
        if not match:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"server did not start: {line!r} {self.stderr_text()}")
        scheme, self.host, self.port = match.group(1), match.group(2), int(match.group(3))
        wait_for_signal_sources(self.process.pid)
        # With --tls-cert the ready line says https: wss:// and https://.
        self.secure = scheme == "https"
        self.url = f"{'wss' if self.secure else 'ws'}://{self.host}:{self.port}/"
        self.page = f"{scheme}://{self.host}:{self.port}/"

    def stderr_text(self):
        """Everything the server wrote to stderr so far. Read with pread: the server shares the
        file's offset, so moving it would make the server overwrite its own output."""
        fd, chunks, offset = self.stderr_file.fileno(), [], 0
        while chunk := os.pread(fd, 1 << 20, offset):
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks).decode(errors="replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()


def stop_and_check(servers):
    """Stops every server; fails the test if one wrote a sanitizer report."""
    for s in servers:
        s.stop()
    reports = [r for r in (sanitizer_report(s.stderr_text()) for s in servers) if r]
    for s in servers:
        s.stderr_file.close()
    if reports:
        pytest.fail("sanitizer report in the server's stderr:\n" + "\n".join(reports), pytrace=False)


@pytest.fixture
def server():
    s = Server()
    yield s
    stop_and_check([s])


@pytest.fixture(scope="module")
def shared_server():
    """One server for a whole test module (a fixture, not an import: with Tests/browser
    collected too, `conftest` names the browser's module)."""
    s = Server()
    yield s
    stop_and_check([s])


@pytest.fixture
def make_server():
    started = []

    def start(*extra, port=0):
        s = Server(*extra, port=port)
        started.append(s)
        return s

    yield start
    stop_and_check(started)
