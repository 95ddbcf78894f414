"""Ticks nobody can read: sessions whose sockets are full are not ticked, so never-readers at
240 fps cost the server little and another session's play keeps its frames. CPU from /proc;
frames counted by their numbers (`n`: the frames the server made, however fast this client
reads); thresholds generous for a loaded 2-core VM."""
import asyncio
import json
import re
import subprocess
import time

import rawws
from client import Client
from sandbox_env import loosened

NEVER_READERS = 50


def never_reader(server):
    """A connection that plays a 60 s completion at 240 fps and never reads a byte."""
    s = rawws.websocket(server.host, server.port, rcvbuf=4096)
    s.sendall(rawws.frame(json.dumps({"type": "configure", "fps": 240, "duration": 60}))
              + rawws.frame(json.dumps({"type": "play"})))
    return s


def send_queues(port):
    """The kernel send queue of each of the server's connections on `port` (`ss -tn`)."""
    out = subprocess.run(["ss", "-tnH", f"sport = :{port}"], capture_output=True, text=True, check=True).stdout
    return sorted(int(line.split()[2]) for line in out.splitlines() if re.match(r"ESTAB", line))


def wait_until_full(port, count, timeout=150.0):
    """Until the server writes nothing more to `count` connections: their send queues stand
    still for a second (the socket is full: the server's room check holds what is left). With
    a fixed kernel send buffer (64 KiB) a second or two; with one the kernel grows to ~4 MiB,
    about a minute."""
    deadline = time.monotonic() + timeout
    previous = None
    while time.monotonic() < deadline:
        queues = send_queues(port)
        if len(queues) >= count and queues == previous and min(queues) > 0:
            return
        assert previous is None or len(queues) >= count, f"connections went: {len(queues)} of {count}"
        previous = queues
        time.sleep(1.0)
    raise AssertionError(f"the never-readers' sockets did not fill: {previous}")


async def frames_made(url, fps=60, duration=1.0):
    """How many frames the server made for a reading client's `play` of `duration` s at `fps`
    (the span of frame numbers from `played` to the frame at rest)."""
    c = await Client.connect(url)
    await c.send({"type": "configure", "fps": fps, "duration": duration})
    await c.expect("configured")
    await c.send({"type": "play"})
    await c.expect("transition", event="played")
    first = await c.until(lambda m: m["type"] == "frame")
    _, last = await c.rest()
    await c.close()
    return last["n"] - first["n"] + 1


def test_never_readers_at_240_fps_cost_little_and_another_play_keeps_its_frames(make_server):
    server = make_server("--threads", "1")
    pid = server.process.pid
    sockets = [never_reader(server) for _ in range(NEVER_READERS)]
    try:
        wait_until_full(server.port, NEVER_READERS)
        before = rawws.cpu_seconds(pid)
        started = time.monotonic()
        frames = asyncio.run(asyncio.wait_for(frames_made(server.url), 30))
        time.sleep(max(0.0, 3.0 - (time.monotonic() - started)))
        share = (rawws.cpu_seconds(pid) - before) / (time.monotonic() - started)
        # Ticked, 50 sessions at 240 fps are 12,000 ticks a second; skipped, the display link's
        # wake-ups and the write retries are left.
        assert share < loosened(0.25, address=0.5, thread=0.6), f"server at {share:.0%} of a core"
        assert frames >= 0.9 * 60, f"the reading session was made {frames} of 60 frames"
    finally:
        for s in sockets:
            s.close()
