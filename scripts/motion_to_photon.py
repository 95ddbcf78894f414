#!/usr/bin/env python3
"""Motion-to-photon per simulated link × smoothing mode, measured by the page itself in headless
Chromium against a running server (docs/PERFORMANCE.md, "Network lab").

For each link preset and each smoothing mode the page is set to that link (waiting for the
server's `link` echo) and that mode, one warm-up drag lets the interpolation buffer and the
clock settle, the page's figures are cleared, and then DRAGS drags are made: synthetic mouse
drags through the DevTools protocol (`Input.dispatchMouseEvent`), one move every 1/60 s at a
steady speed along x, released past the threshold so the transition finishes (and, the page
reversing the operation after a finish, the next drag goes back). Between drags the script waits
until the page has *drawn* the final frame in the selected mode. The figures are the page's own
(`window.sandbox.lab`, docs/PAGE.md, "The network lab"): motion-to-photon p50/p99 over every
pointer event, its split, and the step spread of the displayed progress. Motion-to-photon is a
lower bound (the rAF + one vsync, or the next vsync for a frame the page drew as it arrived on
its low-latency canvas; headless Chromium presents nothing), hence "≥" in the table.

    sandbox serve --port 8090 --web-root web &
    python3 scripts/motion_to_photon.py --url http://127.0.0.1:8090/            # the Markdown table
    python3 scripts/motion_to_photon.py --url http://127.0.0.1:8090/ --json     # one object per link × mode

`--json` writes one JSON object: `run` (browser, commit, drags, moves, rate) and `cells`, one per
link × mode, each with `link`, `mode`, `events`, `p50` and `p99` of the total, `parts` (network,
simulated, real, server, page, input, draw: each `{p50, p99}`, ms), `spread`, `B`, `ping` and
`path` (the page's draw path: low-latency canvas, frames drawn as they arrived, raw input; null
for a page without it).

Needs Debian's chromium and chromium-driver and the selenium package (as Tests/browser).
"""
import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
from browser import Page, make_driver, quit_driver  # noqa: E402

PRESETS = ["loopback", "wifi", "4g", "poor", "satellite"]
MODES = ["latest", "interpolation", "hybrid", "predicted"]
DELAYS = {"loopback": 0, "wifi": 15, "4g": 60, "poor": 150, "satellite": 300}
PARTS = ["network", "simulated", "real", "server", "page", "input", "draw"]
TIMEOUT = 60


def choose(page, preset, mode):
    page.js("const s = document.getElementById('network').elements.preset;"
            "s.value = arguments[0]; s.dispatchEvent(new Event('change', {bubbles: true}));", preset)
    page.wait(f"window.sandbox.lab.link && window.sandbox.lab.link.delayMs === {DELAYS[preset]}"
              " && window.sandbox.pendingRequests === 0", timeout=TIMEOUT)
    page.js("const s = document.getElementById('smoothing'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('change', {bubbles: true}));", mode)
    page.wait(f"window.sandbox.lab.mode === '{mode}'")


def drag(page, x0, x1, y, moves, rate):
    """One drag through the DevTools protocol: press, `moves` moves at `rate` Hz, release."""
    def mouse(kind, x, y, buttons):
        cx, cy = page.js("return window.sandbox.containerToClient(arguments[0], arguments[1])", x, y)
        page.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": kind, "x": cx, "y": cy, "button": "left", "buttons": buttons, "clickCount": 1,
            "pointerType": "mouse"})

    outcomes = len(page.get("outcomes"))
    mouse("mousePressed", x0, y, 1)
    start = time.perf_counter()
    for i in range(1, moves + 1):
        due = start + i / rate
        while (wait := due - time.perf_counter()) > 0:
            time.sleep(wait)
        mouse("mouseMoved", x0 + (x1 - x0) * i / moves, y, 1)
    mouse("mouseReleased", x1, y, 0)
    page.wait(f"window.sandbox.outcomes.length > {outcomes}", timeout=TIMEOUT)
    # The follow-up configure (the next drag goes back) answered, and the selected mode has drawn
    # the last frame (the interpolation buffer shows it B later).
    page.wait("['idle', 'finished', 'cancelled'].includes(window.sandbox.phase)"
              " && window.sandbox.pendingRequests === 0"
              " && window.sandbox.shownPhase === window.sandbox.phase"
              " && window.sandbox.shownProgress === window.sandbox.progress", timeout=TIMEOUT)
    page.paint()


def measure(page, preset, mode, args):
    choose(page, preset, mode)
    drag(page, 60, 230, 400, args.moves, args.rate)  # warm-up: the buffer's estimates, the ping's offset
    page.js("window.sandbox.clearLab()")
    fast = page.js("return window.sandbox.drawPath ?? null")
    for _ in range(args.drags):
        drag(page, 60, 230, 400, args.moves, args.rate)
    lab = page.get("lab")
    figures = lab["motionToPhoton"][mode]
    path = page.js("return window.sandbox.drawPath ?? null")
    if path and fast:
        path["fastDraws"] -= fast["fastDraws"]  # this cell's drags only
    return {
        "preset": preset, "mode": mode, "events": figures["count"],
        "total": figures["total"], "network": figures["network"], "simulated": figures["simulated"],
        "real": figures["real"], "server": figures["server"], "page": figures["page"],
        "draw": figures["draw"], "input": figures["input"], "spread": lab["smoothing"]["spread"][mode],
        "B": lab["smoothing"]["buffers"].get(mode),
        "rtt": lab["clock"]["rtt"], "path": path,
        "prediction": lab["smoothing"].get("prediction") if mode == "predicted" else None,
    }


def cell(row):
    """One link × mode for --json: the total's p50 and p99 and every part's."""
    return {
        "link": row["preset"], "mode": row["mode"], "events": row["events"],
        "p50": row["total"]["p50"], "p99": row["total"]["p99"],
        "parts": {part: {"p50": row[part]["p50"], "p99": row[part]["p99"]} for part in PARTS},
        "spread": row["spread"], "B": row["B"], "ping": row["rtt"], "path": row["path"],
        "prediction": row["prediction"],
    }


def ms(value, digits=1):
    return "—" if value is None else f"{value:.{digits}f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the page, e.g. http://127.0.0.1:8090/")
    parser.add_argument("--drags", type=int, default=6, help="measured drags per cell (default 6)")
    parser.add_argument("--moves", type=int, default=57, help="moves per drag (default 57: 3 pt each)")
    parser.add_argument("--rate", type=float, default=60.0, help="moves per second (default 60)")
    parser.add_argument("--presets", nargs="+", default=PRESETS, choices=PRESETS)
    parser.add_argument("--modes", nargs="+", default=MODES, choices=MODES)
    parser.add_argument("--transition", default="fade",
                        help="the transition dragged (default fade; prediction errors are in points of moving layers)")
    parser.add_argument("--json", action="store_true", help="one JSON object (run, cells) instead of the table")
    args = parser.parse_args()

    driver = make_driver()
    try:
        version = driver.capabilities.get("browserVersion", "?")
        page = Page(driver, args.url).open()
        page.configure("transition", args.transition, f"window.sandbox.config.transition === '{args.transition}'")
        rows = []
        for preset in args.presets:
            for mode in args.modes:
                row = measure(page, preset, mode, args)
                rows.append(row)
                print(f"# {preset} {mode}: {row['events']} events, p50 {ms(row['total']['p50'])} ms", file=sys.stderr)
    finally:
        quit_driver(driver)

    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    if args.json:
        run = {"browser": f"Chromium {version} (headless)", "commit": commit, "drags": args.drags,
               "moves": args.moves, "rate": args.rate}
        print(json.dumps({"run": run, "cells": [cell(r) for r in rows]}, indent=1))
        return
    print(f"Chromium {version} (headless), commit {commit}, {args.drags} drags × {args.moves} moves at "
          f"{args.rate:g} Hz per cell; ms unless noted")
    print()
    print("| link | smoothing | events | motion-to-photon ≥ p50 / p99 | network p50 (simulated + real) "
          "| server p50 | page p50 (of which draw) | step spread | B | ping |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        spread = "—" if r["spread"] is None else f"{r['spread']:.2f}"
        print(f"| {r['preset']} | {r['mode']} | {r['events']} | {ms(r['total']['p50'])} / {ms(r['total']['p99'])} "
              f"| {ms(r['network']['p50'])} ({ms(r['simulated']['p50'])} + {ms(r['real']['p50'])}) "
              f"| {ms(r['server']['p50'], 2)} | {ms(r['page']['p50'])} ({ms(r['draw']['p50'])}) "
              f"| {spread} | {ms(r['B'])} | {ms(r['rtt'])} |")


if __name__ == "__main__":
    main()
