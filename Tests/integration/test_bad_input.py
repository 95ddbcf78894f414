"""Every bad input gets its error (or close code) and changes nothing."""
import asyncio
import json

import pytest
import websockets

from client import PROTOCOL, Client


def run(coro):
    return asyncio.run(coro)


BAD_MESSAGES = [
    ("{not json", "invalid-json"),
    ('{"type": "ping", "seq": 1, "seq": 2, "t": 0}', "invalid-json"),  # a repeated name is ambiguous
    ("[" * 100 + "]" * 100, "invalid-json"),  # nesting deeper than 64
    ("[1, 2]", "not-an-object"),
    ('{"type": "teleport"}', "unknown-type"),
    ('{"x": 1}', "missing-field"),
    ('{"type": "pointer", "phase": "move", "x": "1", "y": 1, "t": 1, "seq": 1}', "invalid-field"),
    ('{"type": "pointer", "phase": "hover", "x": 1, "y": 1, "t": 1, "seq": 1}', "invalid-field"),
    ('{"type": "pointer", "phase": "move", "x": 1e999, "y": 1, "t": 1, "seq": 1}', "invalid-json"),
    ('{"type": "pointer", "phase": "move", "x": NaN, "y": 1, "t": 1, "seq": 1}', "invalid-json"),
    ('{"type": "pointer", "phase": "move", "x": true, "y": 1, "t": 1, "seq": 1}', "invalid-field"),
    ('{"type": "pointer", "phase": "up", "x": 1, "y": 1, "t": 1, "seq": 1}', "pointer-not-down"),
    ('{"type": "configure", "duration": -1}', "invalid-config"),
    ('{"type": "configure", "completionSpeed": 0}', "invalid-config"),
    ('{"type": "configure", "clamp": [0.9, 0.1]}', "invalid-config"),
    ('{"type": "configure", "fps": 500}', "invalid-config"),
    ('{"type": "configure", "transition": "wobble"}', "invalid-field"),
    ('{"type": "configure", "durtion": 1}', "unknown-field"),
    ('{"type": "configure", "completionCurve": [2, 0, 1, 1]}', "invalid-config"),
    ('{"type": "join", "session": "nope"}', "unknown-session"),
    ('{"type": "ping", "seq": 1.5, "t": 0}', "invalid-field"),
]


@pytest.mark.parametrize("text,code", BAD_MESSAGES)
def test_bad_message_gets_its_error_and_changes_nothing(server, text, code):
    async def go():
        c = await Client.connect(server.url)
        before = c.frames[-1]
        await c.ws.send(text)
        error = await c.expect("error")
        assert error["code"] == code, error
        # nothing changed: same configuration, and the connection still works
        await c.send({"type": "ping", "seq": 7, "t": 1.5})
        pong = await c.expect("pong", seq=7)
        assert pong["t"] == 1.5
        await c.send({"type": "configure"})
        configured = await c.expect("configured")
        assert configured["config"] == c.welcome["config"]
        frame = await c.expect("frame")
        assert frame["layers"] == before["layers"] and frame["phase"] == "idle"
        await c.close()
    run(go())


FIELD_ERRORS = [
    ({"duration": "abc"}, "invalid-field", "duration"),
    ({"duration": 0}, "invalid-config", "duration"),
    ({"spring": {"damping": "x"}}, "invalid-field", "spring.damping"),
    ({"spring": {"damping": 99}}, "invalid-config", "spring.damping"),
    ({"spring": {"stiffness": 1}}, "unknown-field", "spring.stiffness"),
    ({"clamp": [0.5]}, "invalid-field", "clamp"),
    ({"transition": "wobble"}, "invalid-field", "transition"),
    ({"fps": 0}, "invalid-config", "fps"),
    ({"durtion": 1}, "unknown-field", "durtion"),
]


@pytest.mark.parametrize("patch,code,field", FIELD_ERRORS)
def test_a_configure_error_names_the_field_to_blame(server, patch, code, field):
    """The page shows each error next to its field: every configure error names one."""
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "configure", **patch}, check=False)
        error = await c.expect("error")
        assert (error["code"], error.get("field")) == (code, field), error
        await c.close()
    run(go())


def test_seq_must_increase_and_a_refusal_changes_nothing(server):
    async def go():
        c = await Client.connect(server.url)
        await c.pointer("down", 100)
        await c.pointer("move", 150)
        await c.send({"type": "pointer", "phase": "move", "x": 300, "y": 400, "t": c.t + 16, "seq": c.seq})
        error = await c.expect("error")
        assert error["code"] == "bad-seq" and error["seq"] == c.seq
        await c.send({"type": "configure", "transition": "fade"})  # tracking: refused
        assert (await c.expect("error"))["code"] == "busy"
        seq = await c.pointer("move", 160)
        frame = await c.until(lambda m: m["type"] == "frame" and m["ack"] == seq)
        assert frame["progress"] == 0.3 and frame["phase"] == "tracking"
        await c.close()
    run(go())


def test_binary_frames_are_refused_with_an_error(server):
    async def go():
        c = await Client.connect(server.url)
        await c.ws.send(b"\x00\x01")
        assert (await c.expect("error"))["code"] == "binary-not-supported"
        await c.send({"type": "ping", "seq": 1, "t": 0})
        await c.expect("pong")
        await c.close()
    run(go())


def test_a_message_over_64_KiB_closes_with_1009_and_others_carry_on(server):
    async def go():
        other = await Client.connect(server.url)
        c = await Client.connect(server.url)
        await c.ws.send('{"type":"ping","seq":1,"t":0,"pad":"' + "x" * (64 * 1024) + '"}')
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await c.recv()
        assert c.ws.close_code == 1009
        await other.send({"type": "ping", "seq": 1, "t": 0})
        await other.expect("pong")
        await other.close()
    run(go())


def test_invalid_utf8_closes_with_1007(server):
    async def go():
        c = await Client.connect(server.url)
        # websockets refuses to send invalid text, so write the frame by hand: FIN + text,
        # masked, 2-byte payload 0xC3 0x28 (an invalid sequence).
        mask = b"\x01\x02\x03\x04"
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(b"\xc3\x28"))
        c.ws.transport.write(b"\x81\x82" + mask + payload)
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await c.recv()
        assert c.ws.close_code == 1007
    run(go())


def test_origins(make_server):
    s = make_server("--allow-origin", "http://allowed.example")

    async def go():
        for origin, accepted in [
            (None, True),
            ("http://allowed.example", True),
            (f"http://{s.host}:{s.port}", True),
            ("http://evil.example", False),
        ]:
            kwargs = {"origin": origin} if origin else {}
            if accepted:
                c = await Client.connect(s.url, **kwargs)
                await c.close()
            else:
                with pytest.raises(Exception):
                    await Client.connect(s.url, **kwargs)
        # a refused origin leaves the server serving
        c = await Client.connect(s.url)
        await c.close()
    run(go())


def test_a_client_offering_no_subprotocol_is_served(server):
    async def go():
        async with websockets.connect(server.url) as ws:
            assert json.loads(await ws.recv())["type"] == "welcome"
    run(go())


def test_configure_with_a_pointer_down_is_busy_and_the_pointer_keeps_working(server):
    async def go():
        c = await Client.connect(server.url)
        await c.pointer("down", 100)  # within the slop: the pan has not begun, the phase is idle
        await c.send({"type": "configure", "transition": "fade"})
        error = await c.expect("error")
        assert error["code"] == "busy" and "pointer down" in error["message"]
        seq = await c.pointer("move", 250)
        frame = await c.until(lambda m: m["type"] == "frame" and m["ack"] == seq)
        assert frame["phase"] == "tracking" and frame["progress"] == 0.75
        await c.close()
    run(go())
