"""The one place the tests learn which `sandbox` binary to run and how (shared by the integration
and browser tests, and by scripts/soak.py):

- SANDBOX_BINARY      the executable (default .build/debug/sandbox; relative to the repository root)
- SANDBOX_FLOOR       the C floor `make floor` builds (default .build/ws-floor)
- SANDBOX_SERVE_ARGS  extra `serve` arguments for every server a test starts (e.g. "--threads 2");
                      a test's own arguments come after them, so they win
- SANDBOX_SANITIZER   "address" or "thread" when the binary is built with that sanitizer
                      (`make check-sanitizers` sets it): a threshold a sanitized debug build
                      cannot meet is loosened with `loosened(normal, address=…, thread=…)`, so
                      every exception is greppable
"""
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BINARY = Path(os.environ.get("SANDBOX_BINARY") or ".build/debug/sandbox")
if not BINARY.is_absolute():
    BINARY = ROOT / BINARY
# The C floors (`make floor`) that test_latency and test_bench compare with.
FLOOR = Path(os.environ.get("SANDBOX_FLOOR") or ".build/ws-floor")
if not FLOOR.is_absolute():
    FLOOR = ROOT / FLOOR
SERVE_ARGS = shlex.split(os.environ.get("SANDBOX_SERVE_ARGS", ""))
SANITIZER = os.environ.get("SANDBOX_SANITIZER", "")

# The first line of every report the sanitizers print (ASan, LSan, TSan).
REPORT_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer",
                  "ERROR: ThreadSanitizer")


def sanitizer_report(text):
    """The report in `text` (from its first line on, cut to 20 kB), or None."""
    starts = [text.find(m) for m in REPORT_MARKERS if m in text]
    if not starts:
        return None
    return text[min(starts):][:20000]


def loosened(normal, **by_sanitizer):
    """A threshold: `normal`, or its value for the sanitizer in use, e.g.
    `loosened(10 * 1024, address=64 * 1024)`."""
    return by_sanitizer.get(SANITIZER, normal)


def wait_for_signal_sources(pid, timeout=5.0):
    """Waits until `serve` has its SIGINT/SIGTERM sources: libdispatch opens their two signalfds
    asynchronously, possibly after the ready line, and tests that count the server's descriptors
    need a settled baseline. Returns quietly after `timeout` (e.g. another libdispatch)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            return
        count = 0
        for fd in fds:
            try:
                count += os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:[signalfd]"
            except OSError:
                pass
        if count >= 2:
            return
        time.sleep(0.01)


def self_signed_certificate(folder):
    """A certificate for localhost and 127.0.0.1 and its key, made by the openssl CLI in
    `folder`, valid for a day: (cert path, key path). For the TLS tests."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True)
    return cert, key


def run_sandbox(*args, **kwargs):
    """`sandbox ARGS…` (not serve: the fixtures start servers), output captured; fails the test if
    its stderr holds a sanitizer report (servers `sandbox bench` starts write there too)."""
    result = subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True, errors="replace",
                            **kwargs)
    report = sanitizer_report(result.stderr)
    if report:
        pytest.fail(f"sanitizer report from sandbox {' '.join(map(str, args))}:\n{report}", pytrace=False)
    return result


# The frame assembler is the Python client's (clients/python/transition_sandbox/assembler.py: the
# rules of the page's web/js/frameAssembler.js; test_frame_assembler.py holds both to the shared
# cases): one Python implementation, imported from the source tree so that the tests need the
# client installed no more than `pip install ./clients/python` would.
sys.path.insert(0, str(ROOT / "clients" / "python"))
from transition_sandbox.assembler import FrameAssembler, assemble  # noqa: E402,F401
