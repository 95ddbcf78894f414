"""The frame-cost comparison in one command (`make bench-compare`): the sandbox against the C floors
(tools/floor: `ws-floor stream`, `ws-floor echo`), alternating, on the machine it runs on.

1. `sandbox bench --repeat R --floor ws-floor`: CPU µs per frame at SESSIONS sessions × 60 fps on one
   service thread, against the streamer at the same mean frame size; the ratio run by run.
2. `sandbox bench --ramp --floor ws-floor`: the most sessions one service thread holds at the bar
   (≥ 99 % of frames on time, p99 jitter ≤ 2 ms), the sandbox's and the streamer's.
3. `sandbox latency --compare --repeat R` at 1 and at 10 connections, against a server and an echo
   floor it starts: input → frame p50 / p99 ÷ the echo floor, and the server's time per input.

Prints one table (medians, lowest–highest) with the machine, the load and the commands. Meant for
a quiet machine: on a shared one the figures move more than most changes (docs/PERFORMANCE.md).
Only the standard library.
"""

import argparse
import json
import os
import platform
import re
import shlex
import socket
import subprocess
import sys
from contextlib import contextmanager


def run_json(command, note):
    """The JSON objects a `--json` command printed (one array, or one object per line)."""
    print(f"$ {shlex.join(command)}", file=sys.stderr)
    result = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise SystemExit(f"bench-compare: {note} exited {result.returncode}")
    return parsed_json(result.stdout)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def started(command, ready):
    """A server, until the block ends; `ready`: a pattern its first line of output matches."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline()
        if not re.search(ready, line):
            raise SystemExit(f"bench-compare: {shlex.join(command)} did not start: {line.strip()!r}")
        yield process
    finally:
        process.terminate()
        process.wait(timeout=10)


def summed(values):
    """{"median","min","max"} of the runs' values (None when no run gave one)."""
    values = sorted(value for value in values if value is not None)
    if not values:
        return None
    middle = len(values) // 2
    median = values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2
    return {"median": median, "min": values[0], "max": values[-1]}


def bench_summary(items):
    """CPU µs per frame of each target and the ratio run by run, from the runs themselves (a
    `--repeat 1` run prints no summary)."""
    runs = {target: [item["result"]["serverMicrosecondsPerFrame"] for item in items
                     if item.get("target") == target and "result" in item] for target in ("sandbox", "streamer")}
    ratios = [a / b for a, b in zip(runs["sandbox"], runs["streamer"]) if b]
    return {"sandbox": summed(runs["sandbox"]), "streamer": summed(runs["streamer"]), "ratio": summed(ratios)}


def latency_summary(items):
    """p50 and p99 of input → frame, the floor, the ratio and the server's time, over the runs."""
    runs = [item for item in items if "inputToFrameMs" in item and item.get("target") != "summary"]

    def at(item, path):
        for key in path:
            item = item.get(key) if isinstance(item, dict) else None
        return item

    paths = {"inputToFrameMs": ("inputToFrameMs",), "floorMs": ("floor", "roundTripMs"), "ratio": ("ratio",),
             "serverMs": ("serverMs",)}
    return {name: {p: summed(at(item, path + (p,)) for item in runs) for p in ("p50", "p99")}
            for name, path in paths.items()}


def spread(entry, scale=1.0, digits=2):
    """`median (lowest–highest)` of a {"median","min","max"} object."""
    if not entry:
        return "—"
    median, low, high = (entry[key] * scale for key in ("median", "min", "max"))
    return f"{median:.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"


def parsed_json(text):
    """One array, or one object per line, as a list."""
    text = text.strip()
    value = json.loads(text if text.startswith("[") else "[" + ",".join(text.splitlines()) + "]")
    return value if isinstance(value, list) else [value]


def collect(options, save):
    """Runs the comparisons; writes each command's JSON into `save` (a folder) when given, under
    the names `--from` reads (the quiet machine's script, tools/bench-compare/device.sh, writes the
    same files without Python)."""
    sandbox, floor = options.binary, options.floor
    phases = ["--server-tick-phases", str(options.tick_phases)] if options.tick_phases else []
    common = ["--client-threads", str(options.client_threads), "--floor", floor, "--json", "--no-progress"] + phases
    load_before = os.getloadavg()[0]

    def kept(name, items):
        if save:
            with open(os.path.join(save, name), "w") as out:
                json.dump(items, out)
        return items

    bench = kept("bench.json", run_json(
        [sandbox, "bench", "--sessions", str(options.sessions), "--seconds", str(options.seconds),
         "--repeat", str(options.repeat)] + common, "bench --repeat"))
    # The server core's floor: the same sessions ticking, every frame a prebuilt message of the
    # bytes the sandbox sent (its mean), so only making frames is left out.
    mean = bench_summary_bytes(bench)
    prebuilt = kept("prebuilt.json", run_json(
        [sandbox, "bench", "--sessions", str(options.sessions), "--seconds", str(options.seconds),
         "--repeat", str(options.repeat), "--server-prebuilt-frames", str(mean)] + common,
        "bench --server-prebuilt-frames")) if mean else []
    ramp = kept("ramp.json", run_json(
        [sandbox, "bench", "--ramp", "--sessions", str(options.ramp_start), "--seconds", str(options.ramp_seconds),
         "--limit", str(options.ramp_limit)] + common, "bench --ramp"))
    latency = {}
    for connections in options.connections:
        serve_port, echo_port = free_port(), free_port()
        serve = [sandbox, "serve", "--port", str(serve_port), "--log-level", "warning"]
        if options.tick_phases:
            serve += ["--tick-phases", str(options.tick_phases)]
        with started(serve, r"listening on"), started([floor, "echo", "--port", str(echo_port)], r"listening on"):
            latency[connections] = kept(f"latency-{connections}.json", run_json(
                [sandbox, "latency", "--url", f"ws://127.0.0.1:{serve_port}/",
                 "--compare", f"ws://127.0.0.1:{echo_port}/", "--samples", str(options.samples),
                 "--warmup", str(options.warmup), "--rate", str(options.rate),
                 "--concurrency", str(connections), "--repeat", str(options.repeat), "--json", "--no-progress"],
                f"latency --concurrency {connections}"))
    machine = (f"{platform.node()}, {os.cpu_count()} CPUs, {cpu_model()}; "
               f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    if save:
        with open(os.path.join(save, "machine.txt"), "w") as out:
            out.write(machine + "\n")
    return bench, prebuilt, ramp, latency, machine


def bench_summary_bytes(items):
    """The sandbox's mean frame size in its first run (what `bench --floor` streams), or None."""
    for item in items:
        if item.get("target") == "sandbox" and item.get("result", {}).get("meanFrameBytes"):
            return max(25, round(item["result"]["meanFrameBytes"]))
    return None


def loaded(folder):
    """What `collect` saved (or the device script wrote) in `folder`."""
    def read(name):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            return []  # a step not run (device.sh STEPS): its rows say so
        with open(path) as source:
            text = source.read()
        # Runs are objects: a file cut off or garbled (a step killed mid-write) empties its rows,
        # said on stderr, and leaves the rest of the table (test_from_a_folder_with_an_unreadable_file).
        try:
            items = [item for item in parsed_json(text) if isinstance(item, dict)]
        except ValueError as error:
            print(f"{path}: not the runs' JSON ({error}): its rows are left empty", file=sys.stderr)
            return []
        if text.strip() and not items:
            print(f"{path}: no runs in it: its rows are left empty", file=sys.stderr)
        return items

    latency = {}
    for name in sorted(os.listdir(folder)):
        found = re.fullmatch(r"latency-(\d+)\.json", name)
        if found:
            latency[int(found.group(1))] = read(name)
    machine = "not recorded"
    if os.path.exists(os.path.join(folder, "machine.txt")):
        with open(os.path.join(folder, "machine.txt")) as source:
            machine = source.read().strip()
    return read("bench.json"), read("prebuilt.json"), read("ramp.json"), dict(sorted(latency.items())), machine


def table(bench, prebuilt, ramp, latency, machine):
    """The comparison's table, from the commands' JSON."""
    cpu, floor = bench_summary(bench), bench_summary(prebuilt)
    runs = len([item for item in bench if item.get("target") == "sandbox" and "result" in item])
    floor_runs = len([item for item in prebuilt if item.get("target") == "sandbox" and "result" in item])
    sessions = next((item["result"].get("sessions") for item in bench if "result" in item), None)
    best = {item["target"]: item.get("best") for item in ramp if "steps" in item}

    def ramp_best(target):
        found = best.get(target)
        return found.get("sessions") if isinstance(found, dict) else found  # the largest N at the bar, or null

    held = (ramp_best("sandbox"), ramp_best("streamer"))
    ran = "none" if ramp else "not run"
    rows = [
        (f"{f'{sessions:,}' if sessions else '?'} sessions × 60 fps, one service thread: CPU µs per frame (median of {runs})",
         spread(cpu["sandbox"]), spread(cpu["streamer"]),
         spread(cpu["ratio"]) + "×"),
        (f"same, every frame a prebuilt message of those bytes (`--server-prebuilt-frames`: the server core without making frames; median of {floor_runs})",
         spread(floor["sandbox"]) if prebuilt else "not run", spread(floor["streamer"]) if prebuilt else "not run",
         spread(floor["ratio"]) + "×" if prebuilt else "—"),
        ("most sessions one thread holds (≥ 99 % on time, p99 jitter ≤ 2 ms; `bench --ramp`)",
         str(held[0] or ran), str(held[1] or ran),
         f"{held[0] / held[1]:.2f}×" if all(held) else "—"),
    ]
    for connections, items in latency.items():
        summary = latency_summary(items)
        count = len([item for item in items if "inputToFrameMs" in item and item.get("target") != "summary"])
        plural = "s" if connections > 1 else ""

        def both(key, scale=1.0, digits=3):
            entry = summary.get(key) or {}
            return " / ".join(spread(entry.get(p), scale, digits) for p in ("p50", "p99"))
        rows.append((
            f"input → frame p50 / p99 (ms), {connections} connection{plural}, ÷ `ws-floor echo` (median of {count})",
            both("inputToFrameMs"), both("floorMs"), both("ratio", digits=2)))
        rows.append((f"server time per input p50 / p99 (µs), {connections} connection{plural}",
                     both("serverMs", 1000, 0), "", ""))
    lines = [f"machine: {machine}", "| measure | sandbox | C floor | ratio |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/release/sandbox")
    parser.add_argument("--floor", default=".build/ws-floor")
    parser.add_argument("--repeat", type=int, default=5, help="alternating runs of each comparison")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--client-threads", type=int, default=2)
    parser.add_argument("--tick-phases", type=int, default=None, help="serve --tick-phases (default: the server's)")
    parser.add_argument("--ramp-start", type=int, default=125, help="the ramp's first N (it doubles, then bisects)")
    parser.add_argument("--ramp-seconds", type=float, default=3)
    parser.add_argument("--ramp-limit", type=int, default=4000)
    parser.add_argument("--samples", type=int, default=3000, help="latency samples per run")
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--rate", type=float, default=200, help="latency samples per second per connection")
    parser.add_argument("--connections", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--save", metavar="DIR", help="also keep each command's JSON here")
    parser.add_argument("--from", dest="source", metavar="DIR",
                        help="print the table from JSON saved before (--save, or tools/bench-compare/device.sh)")
    options = parser.parse_args()
    if options.source:
        print(table(*loaded(options.source)))
        return 0
    if options.save:
        os.makedirs(options.save, exist_ok=True)
    print(table(*collect(options, options.save)))
    return 0


def cpu_model():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
