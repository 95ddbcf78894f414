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


class FrameAssembler:
    """Delta frames (docs/PROTOCOL.md "Delta frames"), the same rules as the page's
    web/js/frameAssembler.js: `apply(frame message)` → the whole frame, or None when the message
    is a delta whose `base` is not the `n` of the frame held (counted in `dropped`, the reason of
    the last one in `last_drop`). A full frame (no `base`) always replaces the frame held;
    `reset()` forgets it (a `welcome`, a `joined`). The whole frame has the delta's own fields
    (n, t, phase, progress, ack, received, arrived, sent, velocity, delivered…), not `base`;
    `animator` and `scene` are the base's patched by the delta's. Unchanged layers are the
    base's own dicts (shared, not copied: do not mutate them)."""

    def __init__(self):
        self.frame = None
        self.dropped = 0
        self.last_drop = None

    def reset(self):
        self.frame = None

    def apply(self, message):
        if message.get("base") is None:
            self.frame = message
            return message
        frame = assemble(self.frame, message)
        if isinstance(frame, str):
            self.dropped += 1
            self.last_drop = {"base": message["base"], "n": message.get("n"),
                              "holding": None if self.frame is None else self.frame.get("n"), "reason": frame}
            return None
        self.frame = frame
        return frame


def assemble(base, delta):
    """The whole frame `delta` describes against the whole frame `base`, or why it cannot be
    applied (a str)."""
    if base is None or base.get("n") != delta["base"]:
        return "base"
    by_id = {layer["id"]: layer for layer in base.get("layers") or []}
    layers = []
    for entry in delta.get("layers") or []:
        if isinstance(entry, str):
            if entry not in by_id:
                return f"layer {entry}"
            layers.append(by_id[entry])
        elif isinstance(entry, dict):
            before = by_id.get(entry.get("id"))
            if before is None:
                layers.append(entry)  # new: written whole
                continue
            layer = dict(before)
            for key, value in entry.items():
                if value is None:
                    layer.pop(key, None)
                else:
                    layer[key] = value
            layers.append(layer)
        else:
            return "layer entry"
    frame = {k: v for k, v in delta.items() if k not in ("base", "layers", "animator", "scene")}
    frame["layers"] = layers
    # animator: absent, the base's; null, gone; an object, the fields that changed.
    if "animator" not in delta:
        if "animator" in base:
            frame["animator"] = base["animator"]
    elif delta["animator"] is not None:
        frame["animator"] = {**(base.get("animator") or {}), **delta["animator"]}
    # scene: absent, the base's (none if the base had none); null, gone; an object, what changed:
    # `root`, `transition` whole (absent: the base's), and `layers` (absent: the base's) of
    # integers (the base's scene.layers[i]), patches {base: i, …changed, null removing one} and
    # whole layers.
    if "scene" not in delta:
        if "scene" in base:
            frame["scene"] = base["scene"]
    elif delta["scene"] is not None:
        changes = delta["scene"]
        base_scene = base.get("scene") or {}
        scene = {**base_scene, **{k: v for k, v in changes.items() if k != "layers"}}
        if "layers" in changes:
            if not isinstance(changes["layers"], list):
                return "scene layers"
            before = base_scene.get("layers") or []

            def index_of(value):
                ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(before)
                return value if ok else None

            stills = []
            for entry in changes["layers"]:
                if isinstance(entry, dict) and "base" in entry:
                    index = index_of(entry["base"])
                    if index is None:
                        return f"scene layer {entry['base']}"
                    still = dict(before[index])
                    for key, value in entry.items():
                        if key == "base":
                            continue
                        if value is None:
                            still.pop(key, None)
                        else:
                            still[key] = value
                    stills.append(still)
                elif isinstance(entry, dict):
                    stills.append(entry)  # a view the base did not show: whole
                elif index_of(entry) is not None:
                    stills.append(before[entry])
                else:
                    return f"scene layer {entry}"
            scene["layers"] = stills
        frame["scene"] = scene
    # delta["scene"] is None: the base had a scene, this frame has none.
    return frame
