"""Hostile review of delta frames: frames a client is sent that it cannot apply.
docs/PROTOCOL.md, "Delta frames": the first frame a connection receives after `join` is whole."""
import json
import socket
import time

import rawws
from sandbox_env import loosened


def _msg(s, obj):
    s.sendall(rawws.frame(json.dumps(obj)))


def _read(s, timeout=5.0):
    s.settimeout(timeout)
    opcode, payload = rawws.read_frame(s)
    assert opcode == 1, (opcode, payload[:80])
    return json.loads(payload)


def _drain(s, quiet):
    out = []
    while True:
        try:
            out.append(_read(s, quiet))
        except (socket.timeout, TimeoutError):
            return out


def test_the_first_frame_after_rejoining_a_session_is_whole(server):
    """A viewer of A that holds A's frame X leaves for B and comes back to A (two `join`s in one
    write) while A moves on to Y (base X), before the viewer's WRITEABLE: it is sent `joined` B,
    `joined` A, then Y as a delta against X — Connection.lastFrame survives the joins. A client
    that resets at `joined` (every assembler: the page's, the tools', the tests') drops it, and
    every delta after it, until the next 2-s full frame."""
    host = server.host
    driver = rawws.websocket(host, server.port)
    a = _read(driver)["session"]
    _read(driver)
    other = rawws.websocket(host, server.port)
    b = _read(other)["session"]
    _read(other)
    viewer = rawws.websocket(host, server.port)
    _read(viewer)
    _read(viewer)
    _msg(viewer, {"type": "join", "session": a})
    while _read(viewer)["type"] != "frame":
        pass
    bad = []
    for seq in range(1, 41):
        phase = "down" if seq == 1 else "move"
        driver.sendall(rawws.frame(json.dumps(
            {"type": "pointer", "phase": phase, "x": 100 + seq * 3, "y": 400, "t": 1000 + seq * 16, "seq": seq})))
        viewer.sendall(rawws.frame(json.dumps({"type": "join", "session": b}))
                       + rawws.frame(json.dumps({"type": "join", "session": a})))
        after_join = None
        for message in _drain(viewer, 0.05):
            if message["type"] == "joined":
                after_join = message["session"]
            elif message["type"] == "frame":
                if after_join is not None and "base" in message:
                    bad.append((after_join == a and "A" or "B", message["n"], message["base"]))
                after_join = None
        _drain(driver, 0.001)
    assert not bad, f"{len(bad)} of 40 rejoins: the first frame after `joined` was a delta (session, n, base): {bad[:3]}"


def test_frames_held_by_a_two_second_link_cost_what_they_are_charged(make_server):
    """The network lab charges a held frame `FrameEncoding.bytes` (its snapshot's payload + 64),
    but the object keeps the snapshot's buffer (capacity), its Property/Layer arrays, the base
    snapshot, and once any connection of the session asked, the full and delta encodings too.
    20 connections, each `delayMs` 2000 and a burst of pointer moves: before delta frames (4a7d475)
    the server grew ~563 KiB per connection while holding; on main ~1,228 KiB."""
    server = make_server("--max-connections", "1000")
    sockets = []
    for _ in range(20):
        s = rawws.websocket(server.host, server.port)
        _read(s)
        _read(s)
        _msg(s, {"type": "configure", "network": {"delayMs": 2000}})
        sockets.append(s)
    time.sleep(2.5)
    before = rawws.rss_kib(server.process.pid)
    for s in sockets:
        data = [rawws.frame(json.dumps({"type": "pointer", "phase": "down", "x": 100, "y": 400, "t": 0, "seq": 1}))]
        for i in range(2, 1500):
            data.append(rawws.frame(json.dumps(
                {"type": "pointer", "phase": "move", "x": 100 + (i * 37) % 250, "y": 400 + (i * 13) % 200, "t": i, "seq": i})))
        s.setblocking(False)
        try:
            s.send(b"".join(data))
        except BlockingIOError:
            pass
    time.sleep(3.3)
    grown = (rawws.rss_kib(server.process.pid) - before) / len(sockets)
    for s in sockets:
        s.close()
    # A sanitizer's allocator keeps more (TSan measured 994 KiB; ASan 1,601, its 16 MB
    # quarantine of freed memory alone being 800 KiB for each of the 20 connections).
    bound = loosened(800, address=3200, thread=1600)
    assert grown < bound, f"{grown:.0f} KiB per connection while its link holds frames (pre-issue-15: ~563)"
