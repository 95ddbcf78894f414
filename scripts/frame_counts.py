#!/usr/bin/env python3
"""Counts what one streamed frame costs the server, in units a shared machine cannot blur:
heap allocations (valgrind's DHAT) and user-space instructions (callgrind), per frame.

The release server runs under valgrind while `sandbox bench` (a separate process, not counted)
streams N sessions for a short and a long run; the difference between the two runs, divided
by the difference in frames written, cancels start-up, connecting and warm-up:
allocations per frame = Δallocations ÷ Δframes. Frames are the server's `lws_write` calls
(callgrind) or its `frames_sent` metric (DHAT). `--floor` counts the C streamer
(`ws-floor stream`, tools/floor) the same way, at the sandbox's mean frame size.

Instructions are not time: the kernel's send path (about half of a frame's CPU time on a
quiet machine, docs/PERFORMANCE.md "Frame cost") is not counted, nor cache misses.

    swift build -c release --product sandbox && make floor
    scripts/frame_counts.py dhat          # allocations per frame, and where
    scripts/frame_counts.py callgrind     # instructions per frame, the top functions
    scripts/frame_counts.py callgrind --floor
"""

import argparse
import collections
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, process, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server exited early ({process.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit("the server did not listen in time")


def stripped(binary, work):
    """valgrind 3.19 cannot read Swift's DWARF 5: a copy without debug info (symbols kept)."""
    out = os.path.join(work, os.path.basename(binary) + "-nodebug")
    subprocess.run(["strip", "--strip-debug", "-o", out, binary], check=True)
    return out


def bench(sandbox, url, sessions, seconds, compare=None):
    command = [sandbox, "bench", "--url" if compare is None else "--compare", compare or url,
               "--sessions", str(sessions), "--seconds", str(seconds), "--no-progress", "--json"]
    if compare is not None:
        command[2:2] = ["--url", url]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def run_once(tool, target, sessions, seconds, work, tag, sandbox, frame_bytes):
    out = os.path.join(work, f"{tag}.out")
    tool_args = ([f"--dhat-out-file={out}"] if tool == "dhat" else [f"--callgrind-out-file={out}"])
    port = free_port()
    if target == "sandbox":
        command = [sandbox, "serve", "--port", str(port), "--log-level", "warning",
                   "--web-root", os.path.join(ROOT, "web")]
    else:
        command = [os.path.join(ROOT, ".build", "ws-floor"), "stream", "--port", str(port),
                   "--bytes", str(frame_bytes)]
    server = subprocess.Popen(["valgrind", f"--tool={tool}", *tool_args, *command], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    wait_port(port, server)
    helper = None
    try:
        if target == "sandbox":
            result = bench(sandbox, f"ws://127.0.0.1:{port}/", sessions, seconds)
            frames_metric = metric(port, "frames_sent")
        else:
            # bench measures a plain streamer only beside a sandbox: a plain one, not counted.
            helper_port = free_port()
            helper = subprocess.Popen([sandbox, "serve", "--port", str(helper_port), "--log-level", "warning",
                                       "--web-root", os.path.join(ROOT, "web")], stdout=subprocess.DEVNULL)
            wait_port(helper_port, helper)
            result = bench(sandbox, f"ws://127.0.0.1:{helper_port}/", sessions, seconds,
                           compare=f"ws://127.0.0.1:{port}/")
            frames_metric = None
    finally:
        server.send_signal(signal.SIGINT)
        server.wait()
        if helper:
            helper.send_signal(signal.SIGINT)
            helper.wait()
    return out, frames_metric, result


def metric(port, name):
    import urllib.request
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    for line in text.splitlines():
        if re.match(rf"^(sandbox_)?{name}(_total)?\s", line):
            return float(line.split()[-1])
    sys.exit(f"no {name} in /metrics")


ALLOCATORS = ("malloc", "swift_slowAlloc", "swift_allocObject", "memalign", "realloc", "calloc",
              "posix_memalign")


def dhat_sites(path, depth=3):
    data = json.load(open(path))
    table = data["ftbl"]
    sites = collections.Counter()
    for point in data["pps"]:
        names = []
        for index in point["fs"]:
            frame = table[index]
            if any(a in frame for a in ALLOCATORS):
                continue
            names.append(re.sub(r" \(in .*\)$", "", frame.split(": ", 1)[-1]))
            if len(names) >= depth:
                break
        sites[" ← ".join(names)] += point["tbk"]
    return sites


def callgrind_functions(path):
    text = subprocess.run(["callgrind_annotate", "--threshold=100", path], capture_output=True,
                          text=True, check=True).stdout
    functions = collections.Counter()
    total = 0
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(.*)", line)
        if not m:
            continue
        count = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = count
            continue
        name = re.sub(r" \[.*\]$", "", m.group(2))
        functions[name.split(":", 1)[-1]] += count
    return total, functions


def callgrind_calls(path, callee):
    names, calls, current = {}, 0, None
    for line in open(path, errors="replace"):
        if line.startswith(("fn=", "cfn=")):
            m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.strip())
            if m and m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith("cfn=") and m:
                current = names.get(m.group(1))
        elif line.startswith("calls=") and current is not None:
            if current == callee:
                calls += int(line.split("=")[1].split()[0])
            current = None
    return calls


def demangle(names):
    if not shutil.which("swift"):
        return names
    text = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                          capture_output=True, text=True).stdout.splitlines()
    return text if len(text) == len(names) else names


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tool", choices=["dhat", "callgrind"])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "sandbox"))
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--short", type=float, default=2, help="seconds measured by the short run")
    parser.add_argument("--long", type=float, default=6, help="seconds measured by the long run")
    parser.add_argument("--floor", action="store_true", help="count ws-floor stream instead")
    parser.add_argument("--bytes", type=int, default=265, help="the streamer's frame size")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--keep", metavar="DIR", help="copy the valgrind outputs here (callgrind_annotate them)")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="frame-counts-")
    sandbox = stripped(args.binary, work)
    target = "floor" if args.floor else "sandbox"
    runs = [run_once(args.tool, target, args.sessions, seconds, work, f"{target}-{seconds}", sandbox, args.bytes)
            for seconds in (args.short, args.long)]
    if args.tool == "dhat":
        if args.floor:
            sys.exit("DHAT of the streamer: not counted (its frames are one buffer, allocated once)")
        frames = runs[1][1] - runs[0][1]
        short, long = dhat_sites(runs[0][0]), dhat_sites(runs[1][0])
        delta = {site: long[site] - short.get(site, 0) for site in long}
        print(f"{target}: {sum(delta.values()) / frames:.2f} allocations per frame "
              f"({sum(delta.values())} over {frames:.0f} frames)")
        top = sorted(delta.items(), key=lambda item: -item[1])[:args.top]
        for (site, count), name in zip(top, demangle([s for s, _ in top])):
            if count > 0:
                print(f"{count / frames:8.3f}  {name[:160]}")
    else:
        frames = callgrind_calls(runs[1][0], "lws_write") - callgrind_calls(runs[0][0], "lws_write")
        (short_total, short), (long_total, long) = callgrind_functions(runs[0][0]), callgrind_functions(runs[1][0])
        print(f"{target}: {(long_total - short_total) / frames:.0f} instructions per frame "
              f"(callgrind Ir, user space; {frames} frames)")
        delta = {name: long[name] - short.get(name, 0) for name in long}
        # Retains and releases touch each object's header: on a quiet machine at 1,000 sessions,
        # with the objects out of the caches, they cost far more than their instructions.
        counted = ("swift_retain", "swift_release", "swift_retain_n", "swift_release_n",
                   "swift_bridgeObjectRetain", "swift_bridgeObjectRelease", "swift_unownedRetainStrong",
                   "swift_isUniquelyReferenced_nonNull_native")
        calls = {name: (callgrind_calls(runs[1][0], name) - callgrind_calls(runs[0][0], name)) / frames
                 for name in counted}
        print("calls per frame: " + ", ".join(f"{name.removeprefix('swift_')} {count:.1f}"
                                               for name, count in calls.items() if count >= 0.05))
        top = sorted(delta.items(), key=lambda item: -item[1])[:args.top]
        for (name, count), pretty in zip(top, demangle([n for n, _ in top])):
            print(f"{count / frames:8.0f}  {100 * count / (long_total - short_total):5.1f} %  {pretty[:150]}")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for path, *_ in runs:
            shutil.copy(path, args.keep)
        print(f"valgrind outputs kept in {args.keep}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
