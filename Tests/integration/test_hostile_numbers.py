"""Numbers that used to wedge a session, and error replies that echoed input unbounded
(docs/PROTOCOL.md `pointer`; docs/ENGINE.md "Input ranges and finite outputs")."""
import asyncio
import json
import math

from client import Client


def run(coro):
    return asyncio.run(coro)


def numbers_are_finite(value, key=""):
    """Every number present and finite. The server writes a non-finite number as null, so a
    null anywhere but `ack`/`received` (null before the first input) is a lost number."""
    if value is None:
        return key in ("ack", "received")
    if isinstance(value, bool) or isinstance(value, str):
        return True
    if isinstance(value, (int, float)):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(numbers_are_finite(v, key) for v in value)
    return all(numbers_are_finite(v, k) for k, v in value.items())


async def raw_pointer(c, phase, x, t, y=400):
    """A pointer message with the next seq, sent as given (no client-side clock, no schema check)."""
    c.seq += 1
    await c.send({"type": "pointer", "phase": phase, "x": x, "y": y, "t": t, "seq": c.seq}, check=False)
    return c.seq


def test_x_1e308_is_refused_and_every_later_frame_is_finite(server):
    async def go():
        c = await Client.connect(server.url)
        await c.pointer("down", 100)
        refused = await raw_pointer(c, "move", 1e308, c.t + 16)
        error = await c.expect("error")
        assert (error["code"], error["field"], error["seq"]) == ("invalid-field", "x", refused), error
        assert "[-1000000.0, 1000000.0]" in error["message"]
        # Refused, so nothing moved, the connection's last seq included: the same seq is taken.
        c.seq -= 1
        again = await c.pointer("move", 105)
        assert again == refused
        frame = await c.until(lambda m: m["type"] == "frame" and m["ack"] == refused)
        assert frame["phase"] == "idle" and frame["progress"] == 0  # still inside the slop
        for i in range(2, 16):
            await c.pointer("move", 100 + 10 * i)
        await c.pointer("move", -1_000_000)  # the edge of the range is accepted
        last = await c.pointer("up", -1_000_000, dt=0)
        await c.until(lambda m: m["type"] == "frame" and m["ack"] == last)
        await c.rest()
        assert c.frames and all(numbers_are_finite(f) for f in c.frames)
        assert all(numbers_are_finite(e) for e in c.events)
        await c.close()
    run(go())


def test_an_up_at_t_1e300_is_refused_and_the_session_still_completes_and_configures(server):
    async def go():
        c = await Client.connect(server.url)
        await c.pointer("down", 100)
        for i in range(1, 11):
            await c.pointer("move", 100 + 15 * i)
        # Out of t's range: refused, nothing changes.
        seq = await raw_pointer(c, "up", 250, 1e300)
        error = await c.expect("error")
        assert (error["code"], error["field"], error["seq"]) == ("invalid-field", "t", seq), error
        assert "[-10000000000000.0, 10000000000000.0]" in error["message"], error
        c.seq -= 1
        # Still tracking with the pointer down: a configure waits for the real release.
        await c.send({"type": "configure", "fps": 30})
        assert (await c.expect("error"))["code"] == "busy"
        # (A time in range but far ahead is clamped to 10 s ahead: SessionHub/InputRangeTests.)
        last = await c.pointer("up", 250, dt=40)
        await c.until(lambda m: m["type"] == "frame" and m["ack"] == last)
        event, frame = await c.rest()
        assert (event["event"], frame["phase"]) == ("finished", "finished")
        await c.send({"type": "configure", "fps": 30, "duration": 0.2})
        assert (await c.expect("configured"))["config"]["fps"] == 30
        await c.send({"type": "play"})
        event, frame = await c.rest()
        assert (event["event"], frame["progress"]) == ("finished", 1)
        assert all(numbers_are_finite(f) for f in c.frames)
        await c.close()
    run(go())


def test_epoch_millisecond_clocks_still_work(server):
    async def go():
        c = await Client.connect(server.url)
        c.t = 1.7e12  # Date.now() rather than performance.now()
        await c.pan(150, steps=10, hold=0)
        event, frame = await c.rest()
        assert event["event"] == "finished" and frame["progress"] == 1
        await c.close()
    run(go())


def test_a_key_of_32700_tabs_gets_an_error_reply_under_400_bytes(server):
    async def go():
        c = await Client.connect(server.url)
        await c.ws.send('{"type":"ping","seq":1,"t":0,"' + "\\t" * 32700 + '":1}')
        text = await asyncio.wait_for(c.ws.recv(), 10)
        assert len(text.encode()) < 400, len(text.encode())
        error = json.loads(text)
        assert error["code"] == "unknown-field"
        assert error["field"] == "\t" * 10 + "…"
        assert error["message"] == "unknown field '" + "U+0009" * 10 + "U+00…'"
        # and a configure name the server echoes (the transition kind) is capped too
        await c.send({"type": "configure", "transition": "\t" * 30000}, check=False)
        text = await asyncio.wait_for(c.ws.recv(), 10)
        assert len(text.encode()) < 450 and json.loads(text)["code"] == "invalid-field"
        await c.close()
    run(go())
