"""Viewer fan-out, measured: one driver sends pointer moves as fast as it can for SECONDS while
VIEWERS connections join its session and read everything; prints the server's payload bytes in
and out over that time (from /metrics), how many viewers joined, and how the driver was closed.

    python3 scripts/fanout_bytes.py BINARY VIEWERS PAD SECONDS

PAD > 0 pads each move with whitespace to PAD bytes (valid JSON). docs/SECURITY.md, "Viewer
fan-out", has the figures. Small scale: a few seconds, one process; it reads /metrics."""
import asyncio
import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import websockets

BIN, N, PAD, SECONDS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
ROOT = Path(__file__).resolve().parents[1]

def metric(port, name):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    m = re.search(rf"^{name} (\S+)$", text, re.M)
    return float(m.group(1)) if m else 0.0

async def reader(ws):
    try:
        async for _ in ws:
            pass
    except websockets.ConnectionClosed:
        pass

async def main():
    proc = subprocess.Popen([BIN, "serve", "--port", "0", "--web-root", str(ROOT / "web")],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    port = int(re.search(r":(\d+)", line).group(1))
    url = f"ws://127.0.0.1:{port}/"
    proto = ["transition-sandbox.v2"]
    driver = await websockets.connect(url, subprotocols=proto, max_size=None)
    session = json.loads(await driver.recv())["session"]
    joined = 0
    viewers = []
    for _ in range(N):
        ws = await websockets.connect(url, subprotocols=proto, max_size=None)
        await ws.send(json.dumps({"type": "join", "session": session}))
        while True:
            m = json.loads(await ws.recv())
            if m["type"] in ("joined", "error"): break
        joined += m["type"] == "joined"
        viewers.append(ws)
    tasks = [asyncio.create_task(reader(ws)) for ws in viewers + [driver]]
    await asyncio.sleep(0.5)
    in0, out0 = metric(port, "sandbox_received_bytes_total"), metric(port, "sandbox_sent_bytes_total")
    seq, t, sent, start = 1, 1000.0, 0, time.monotonic()
    code = None
    try:
        await driver.send(json.dumps({"type": "pointer", "phase": "down", "x": 100, "y": 400, "t": t, "seq": seq}))
        while time.monotonic() - start < SECONDS:
            for _ in range(50):
                seq += 1
                t += 1
                move = {"type": "pointer", "phase": "move", "x": 100 + seq % 200, "y": 400, "t": t, "seq": seq}
                text = json.dumps(move)
                if PAD:
                    text = text[:-1] + " " * (PAD - len(text)) + "}"
                await driver.send(text)
                sent += 1
            await asyncio.sleep(0)
    except websockets.ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else None
    elapsed = time.monotonic() - start
    await asyncio.sleep(1.0)
    if driver.close_code:
        code = driver.close_code
    bytes_in = metric(port, "sandbox_received_bytes_total") - in0
    bytes_out = metric(port, "sandbox_sent_bytes_total") - out0
    print(json.dumps({
        "binary": BIN, "viewers_asked": N, "joined": joined, "pad": PAD, "driver_messages": sent,
        "seconds": round(elapsed, 2), "in_MB": round(bytes_in / 1e6, 2), "out_MB": round(bytes_out / 1e6, 2),
        "out_per_in": round(bytes_out / max(bytes_in, 1), 1), "driver_close": code,
    }))
    for ws in viewers + [driver]:
        await ws.close()
    proc.terminate()
    proc.wait()

asyncio.run(main())
