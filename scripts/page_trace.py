#!/usr/bin/env python3
"""A Chrome trace of drags on the page: where the renderer's main thread spends its time while the
finger drags (docs/PERFORMANCE.md, "Where the page's time went").

Opens the page in headless Chromium (as Tests/browser), sets a `fade` on the chosen link and
smoothing mode, makes one warm-up drag, then records a trace (CDP `Tracing.start` over the
browser's DevTools socket, `devtools.timeline` and the frame categories) of DRAGS drags made as
scripts/motion_to_photon.py makes them. Prints the page's own motion-to-photon p50 parts for
those drags, the main thread's time per trace event (the top 30), and the forced layouts
(`Blink.ForcedStyleAndLayout`) by the script location that caused them. `--out FILE` keeps the
raw events (chrome://tracing and Perfetto open them).

    sandbox serve --port 8090 --web-root web &
    python3 scripts/page_trace.py --url http://127.0.0.1:8090/

Needs Debian's chromium and chromium-driver, selenium and websockets (Tests/requirements.txt).
"""
import argparse
import collections
import json
import sys
import threading
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
sys.path.insert(0, str(ROOT / "scripts"))
from browser import Page, make_driver, quit_driver  # noqa: E402
from motion_to_photon import DELAYS, MODES, choose, drag  # noqa: E402

CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline.frame,blink,cc,viz"
TIMEOUT = 60


def record(page, args):
    """The trace events of `args.drags` drags, from the browser's DevTools socket."""
    address = page.driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    version = json.load(urllib.request.urlopen(f"http://{address}/json/version", timeout=TIMEOUT))
    events = []
    complete = threading.Event()
    with connect(version["webSocketDebuggerUrl"], max_size=None) as socket:
        def read():
            while not complete.is_set():
                message = json.loads(socket.recv())
                if message.get("method") == "Tracing.dataCollected":
                    events.extend(message["params"]["value"])
                elif message.get("method") == "Tracing.tracingComplete":
                    complete.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        socket.send(json.dumps({"id": 1, "method": "Tracing.start",
                                "params": {"categories": CATEGORIES, "transferMode": "ReportEvents"}}))
        for _ in range(args.drags):
            drag(page, 60, 230, 400, args.moves, args.rate)
        socket.send(json.dumps({"id": 2, "method": "Tracing.end"}))
        if not complete.wait(TIMEOUT):
            raise SystemExit("the trace did not complete")
    return events


def main_thread(events):
    """The renderer main thread's complete events, in order."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    main = {key for key, name in names.items() if name == "CrRendererMain"}
    spans = [e for e in events if (e["pid"], e["tid"]) in main and e.get("ph") == "X"]
    return sorted(spans, key=lambda e: (e["ts"], -e.get("dur", 0)))


def summarise(spans):
    """Time per event name, and forced layouts by the script location around them."""
    totals = collections.defaultdict(lambda: [0, 0.0])
    forced = collections.defaultdict(lambda: [0, 0.0])
    stack = []
    for event in spans:
        while stack and stack[-1]["ts"] + stack[-1].get("dur", 0) <= event["ts"]:
            stack.pop()
        name = event["name"]
        data = (event.get("args") or {}).get("data") or {}
        if name == "EventDispatch":
            name += f":{data.get('type', '?')}"
        totals[name][0] += 1
        totals[name][1] += event.get("dur", 0) / 1000
        if event["name"] == "Blink.ForcedStyleAndLayout.UpdateTime":
            calls = [s for s in stack if s["name"] == "FunctionCall"]
            where = (calls[-1].get("args") or {}).get("data") or {} if calls else {}
            key = f"{where.get('url', '').rsplit('/', 1)[-1] or '(no script)'}:{where.get('lineNumber', '')}"
            forced[key][0] += 1
            forced[key][1] += event.get("dur", 0) / 1000
        stack.append(event)
    return totals, forced


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the page, e.g. http://127.0.0.1:8090/")
    parser.add_argument("--preset", default="loopback", choices=list(DELAYS))
    parser.add_argument("--mode", default="latest", choices=MODES)
    parser.add_argument("--drags", type=int, default=3, help="traced drags (default 3)")
    parser.add_argument("--moves", type=int, default=57, help="moves per drag (default 57)")
    parser.add_argument("--rate", type=float, default=60.0, help="moves per second (default 60)")
    parser.add_argument("--out", type=Path, help="write the raw trace events here (JSON)")
    args = parser.parse_args()

    driver = make_driver()
    try:
        page = Page(driver, args.url).open()
        page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
        choose(page, args.preset, args.mode)
        drag(page, 60, 230, 400, args.moves, args.rate)  # warm-up
        page.js("window.sandbox.clearLab()")
        events = record(page, args)
        figures = page.get("lab")["motionToPhoton"][args.mode]
        path = page.js("return window.sandbox.drawPath ?? null")
    finally:
        quit_driver(driver)

    if args.out:
        args.out.write_text(json.dumps(events))
    spans = main_thread(events)
    seconds = (spans[-1]["ts"] - spans[0]["ts"]) / 1e6 if spans else 0
    parts = ", ".join(f"{part} {figures[part]['p50']:.1f}" for part in
                      ("total", "input", "draw", "network", "real", "server") if figures[part]["p50"] is not None)
    print(f"{args.drags} drags, {args.preset}, {args.mode}: {figures['count']} events; p50 ms: {parts}")
    print(f"draw path: {path}")
    totals, forced = summarise(spans)
    print(f"\nmain thread over {seconds:.2f} s: event, count, ms in all, ms each")
    for name, (count, ms) in sorted(totals.items(), key=lambda item: -item[1][1])[:30]:
        print(f"{name[:70]:70s} {count:6d} {ms:9.1f} {ms / count:7.3f}")
    print("\nforced layouts by script location: count, ms in all")
    for where, (count, ms) in sorted(forced.items(), key=lambda item: -item[1][0]):
        print(f"{where:40s} {count:6d} {ms:9.1f}")


if __name__ == "__main__":
    main()
