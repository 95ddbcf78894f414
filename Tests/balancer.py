"""Debian's HAProxy running deploy/haproxy.cfg itself, its three addresses swapped for free
loopback ports (the integration and browser tests share it)."""
import shutil
import socket
import subprocess
import time

import pytest

from sandbox_env import ROOT

CONFIG = ROOT / "deploy" / "haproxy.cfg"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Balancer:
    def __init__(self, tmp_path, nodes):
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not shutil.which(haproxy):
            pytest.fail("haproxy is not installed: scripts/install-deps.sh test installs it", pytrace=False)
        self.port = free_port()
        text = CONFIG.read_text()
        for old, new in [("127.0.0.1:8080", f"127.0.0.1:{self.port}"),
                         ("127.0.0.1:8081", f"127.0.0.1:{nodes[0].port}"),
                         ("127.0.0.1:8082", f"127.0.0.1:{nodes[1].port}")]:
            assert old in text, f"deploy/haproxy.cfg no longer binds or names {old}"
            text = text.replace(old, new)
        config = tmp_path / "haproxy.cfg"
        config.write_text(text)
        self.log = open(tmp_path / "haproxy.log", "w+")
        self.process = subprocess.Popen([haproxy, "-db", "-f", str(config)], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 5
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                break
            except OSError:
                assert self.process.poll() is None, self.output()
                assert time.monotonic() < deadline, "haproxy did not start: " + self.output()
                time.sleep(0.05)
        self.url = f"ws://127.0.0.1:{self.port}/"

    def output(self):
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
