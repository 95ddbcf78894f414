"""Heap allocations per frame and per pointer message of a running sandbox server.

`make alloc-count` runs this. It starts `sandbox serve` under the counting allocator
(alloc-count.c, LD_PRELOAD) once per run, drives it, reads the server's own counts from
GET /metrics (frames sent, pointer messages received), stops it and reads the allocation total
it wrote at exit. Each workload runs twice, short and long; the difference in allocations divided
by the difference in frames (or pointer messages) is the steady state's cost: starting,
connecting, the scrape and stopping are the same in both runs and cancel out.

- frames: `sandbox bench --url` streams SESSIONS sessions at 60 fps for two durations.
- pointer messages: one connection pans (a `down`, then `move`s inside the pan's distance, so
  it tracks throughout), each move sent when the frame acknowledging the one before has come:
  every message is parsed, reacted to and answered with its frame.

Prints "allocations per frame: X" and "allocations per pointer message: Y" and exits 1 when one
is above --max. With --instructions, the pointer workload runs under valgrind's callgrind instead
and it prints the server's instructions per pointer message (exact where wall-clock time is not).
Only the standard library and `websockets` (Tests/requirements.txt).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

READY = re.compile(r"listening on http://([^:/]+):(\d+)/")
SUBPROTOCOL = "transition-sandbox.v2"


class Server:
    """`sandbox serve` under the counting allocator (or, with `callgrind`, under valgrind's
    callgrind); `stop()` returns its allocation (or instruction) total."""

    def __init__(self, binary, shim, folder, callgrind=False):
        self.count_file = Path(folder) / f"count-{time.monotonic_ns()}.txt"
        self.callgrind = callgrind
        arguments = ["serve", "--port", "0", "--log-level", "warning", "--web-root", str(Path("web").resolve())]
        command = [binary] + arguments
        if callgrind:
            # valgrind 3.19 cannot read the DWARF 5 Swift writes: a copy without it (the same code).
            stripped = Path(folder) / "sandbox"
            if not stripped.exists():
                subprocess.run(["strip", "--strip-debug", "-o", str(stripped), binary], check=True)
            environment = dict(os.environ)
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.count_file}", str(stripped)]
            command += arguments
        else:
            environment = dict(os.environ, LD_PRELOAD=str(shim), ALLOC_COUNT_FILE=str(self.count_file))
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment)
        line = self.process.stdout.readline()
        match = READY.search(line)
        if not match:
            self.process.kill()
            raise SystemExit(f"alloc-count: the server did not start: {line.strip()!r}")
        self.port = int(match.group(2))

    def metrics(self):
        """frames sent and pointer messages received, from GET /metrics."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=10) as response:
            text = response.read().decode()
        def counter(pattern):
            found = re.search(pattern + r"\s+([0-9.e+]+)$", text, re.MULTILINE)
            return float(found.group(1)) if found else 0.0
        return {"frames": counter(r"^sandbox_frames_sent_total"),
                "pointer": counter(r'^sandbox_messages_received_total\{type="pointer"\}')}

    def stop(self):
        self.process.terminate()
        if self.process.wait(timeout=20) != 0:
            raise SystemExit(f"alloc-count: the server exited {self.process.returncode}")
        text = self.count_file.read_text()
        if self.callgrind:  # "totals: Ir" (or "summary:"), the instructions of every thread
            return int(re.search(r"^(?:totals|summary): (\d+)", text, re.MULTILINE).group(1))
        return int(text.split()[1])


def stream(binary, server, sessions, seconds):
    subprocess.run(
        [binary, "bench", "--url", f"ws://127.0.0.1:{server.port}/", "--sessions", str(sessions),
         "--seconds", str(seconds), "--no-progress", "--json"],
        check=True, stdout=subprocess.DEVNULL)


def pan(server, moves):
    with connect(f"ws://127.0.0.1:{server.port}/", subprotocols=[SUBPROTOCOL], max_size=None) as socket:
        for _ in range(2):  # welcome, the first frame
            socket.recv(timeout=10)
        for seq in range(1, moves + 2):
            # x sweeps 120…280 pt, inside the default 200 pt distance: the pan tracks throughout.
            message = {"type": "pointer", "phase": "down" if seq == 1 else "move",
                       "x": 120 + seq % 160, "y": 400, "t": seq * 5, "seq": seq}
            socket.send(json.dumps(message, separators=(",", ":")))
            while True:
                reply = json.loads(socket.recv(timeout=10))
                if reply.get("type") == "error":
                    raise SystemExit(f"alloc-count: the server refused a pointer message: {reply}")
                if reply.get("type") == "frame" and reply.get("ack", 0) >= seq:
                    break


def measure(binary, shim, folder, workload, sizes, key, callgrind=False):
    """(allocations, count) for each size: one fresh server per run."""
    runs = []
    for size in sizes:
        server = Server(binary, shim, folder, callgrind)
        try:
            workload(server, size)
            counts = server.metrics()
        finally:
            allocations = server.stop()
        runs.append((allocations, counts[key], counts["frames"]))
    (a0, n0, _), (a1, n1, _) = runs
    if n1 <= n0:
        raise SystemExit(f"alloc-count: the longer run counted no more {key} ({n0:.0f}, then {n1:.0f})")
    return (a1 - a0) / (n1 - n0), runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/release/sandbox")
    parser.add_argument("--shim", default=".build/alloc-count.so")
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, nargs=2, default=[2, 6], help="the two streaming runs' lengths")
    parser.add_argument("--moves", type=int, nargs=2, default=[1000, 4000], help="the two pans' pointer messages")
    parser.add_argument("--max", type=float, default=None, help="exit 1 when either figure is above this")
    parser.add_argument(
        "--instructions", action="store_true",
        help="instead: the server's instructions per pointer message, under valgrind's callgrind (exact, slow)")
    options = parser.parse_args()

    if options.instructions:
        with tempfile.TemporaryDirectory() as folder:
            per_pointer, runs = measure(
                options.binary, options.shim, folder, pan, options.moves, "pointer", callgrind=True)
        detail = "; ".join(f"{a} instructions, {n:.0f} pointer messages" for a, n, _ in runs)
        print(f"  pointer messages runs: {detail}")
        print(f"instructions per pointer message: {per_pointer:.0f}")
        return 0

    with tempfile.TemporaryDirectory() as folder:
        per_frame, frame_runs = measure(
            options.binary, options.shim, folder,
            lambda server, seconds: stream(options.binary, server, options.sessions, seconds),
            options.seconds, "frames")
        per_pointer, pointer_runs = measure(
            options.binary, options.shim, folder, pan, options.moves, "pointer")

    for name, runs in (("frames", frame_runs), ("pointer messages", pointer_runs)):
        detail = "; ".join(f"{a} allocations, {n:.0f} {name}" for a, n, _ in runs)
        print(f"  {name} runs: {detail}")
    (_, p0, f0), (_, p1, f1) = pointer_runs
    print(f"allocations per frame: {per_frame:.3f}")
    # Each pointer message is answered with its frame: this figure includes that frame's cost.
    frames = (f1 - f0) / (p1 - p0)
    print(f"allocations per pointer message: {per_pointer:.3f} (each message's own frame included: "
          f"{frames:.2f} frames a message)")
    if options.max is not None and max(per_frame, per_pointer) > options.max:
        print(f"alloc-count: above ALLOC_MAX={options.max}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
