"""What protocol 1 costs a viewer, measured: one driver (protocol 2) pans each KIND once while a
protocol 1 viewer and a protocol 2 viewer watch; prints, per kind and version, the frames each
viewer received and their bytes (docs/PROTOCOL.md, "Versions", has the figures).

    python3 scripts/version_bytes.py [KIND …]      (default: pop reveal partial-curl)

Seconds; one server (SANDBOX_BINARY or .build/debug/sandbox), loopback. The viewers read only
after the gesture ends, so both skip the same states (latest frame wins) and a protocol 2
viewer's first frame after a skip is whole, as a slow reader's is."""
import asyncio
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "integration"))
sys.path.insert(0, str(ROOT / "Tests"))

from client import Client  # noqa: E402
from conftest import Server  # noqa: E402

VERSIONS = ("transition-sandbox.v1", "transition-sandbox.v2")


async def frame_bytes(viewer):
    """(frames, bytes) the viewer was sent until the transition rested."""
    frames = total = 0
    while True:
        raw = await asyncio.wait_for(viewer.ws.recv(), 10)
        message = json.loads(raw)
        if message["type"] == "frame":
            frames += 1
            total += len(raw)
            if message["phase"] in ("finished", "cancelled"):
                return frames, total


async def measure(url, kind):
    driver = await Client.connect(url)
    session = driver.welcome["session"]
    viewers = [(await Client.viewer(url, session, subprotocols=[name]))[0] for name in VERSIONS]
    await driver.send({"type": "configure", "transition": kind})
    await driver.expect("configured")
    await driver.pan(150, steps=40)
    await driver.rest()
    for name, viewer in zip(VERSIONS, viewers):
        frames, total = await frame_bytes(viewer)
        print(json.dumps({"kind": kind, "viewer": name, "frames": frames, "bytes": total,
                          "bytes_per_frame": round(total / frames)}))
    for client in [driver, *viewers]:
        await client.close()


def main():
    server = Server()
    try:
        for kind in sys.argv[1:] or ["pop", "reveal", "partial-curl"]:
            asyncio.run(measure(server.url, kind))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
