"""Shared by the integration and browser tests: starts the real `sandbox serve` (port 0 unless
told otherwise) and hands tests its port; always stops it."""
import re
import signal
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BINARY = ROOT / ".build" / "debug" / "sandbox"
PROTOCOL = "transition-sandbox.v1"


class Server:
    def __init__(self, *extra, port=0):
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(port), "--web-root", str(ROOT / "web"), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = self.process.stdout.readline()
        match = re.search(r"http://([\d.]+):(\d+)/", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"server did not start: {line!r} {self.process.stderr.read()}")
        self.host, self.port = match.group(1), int(match.group(2))
        self.url = f"ws://{self.host}:{self.port}/"
        self.page = f"http://{self.host}:{self.port}/"

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.stop()


@pytest.fixture
def make_server():
    started = []

    def start(*extra, port=0):
        s = Server(*extra, port=port)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()
