"""The client against a hostile or broken server (a small websockets server in the test): it
never hangs (every wait has a timeout, a closed socket raises), a message over max_size closes
the connection with 1009, malformed messages are ProtocolErrors, floods are bounded, and the
subprotocol negotiation offers v2 then v1 and accepts either."""
import asyncio
import base64
import hashlib
import json
import os
import re
import time

import pytest
import websockets

from transition_sandbox import ConnectionClosed, ProtocolError, SUBPROTOCOLS, Timeout, connect
from transition_sandbox.client import ssl_context

WELCOME = {"type": "welcome", "session": "s", "protocol": 2, "config": {"transition": "pop"}, "container": [390, 844]}
FRAME = {"type": "frame", "n": 1, "phase": "idle", "progress": 0, "ack": None, "received": None, "sent": 1.5,
         "velocity": [0, 0], "layers": [{"id": "from", "z": 0}]}


def run(handler, client, **serve_options):
    """Serves `handler` on a free port and runs `client(url)` against it."""
    async def main():
        async with websockets.serve(handler, "127.0.0.1", 0, subprotocols=list(SUBPROTOCOLS),
                                    **serve_options) as server:
            port = server.sockets[0].getsockname()[1]
            return await asyncio.wait_for(client(f"ws://127.0.0.1:{port}/"), 20)
    return asyncio.run(main())


async def greet(ws, welcome=WELCOME):
    await ws.send(json.dumps(welcome))
    await ws.send(json.dumps(FRAME))


async def linger(ws):
    try:
        await ws.wait_closed()
    except Exception:
        pass


def test_v2_then_v1_are_offered_and_the_servers_choice_is_taken():
    offered = []

    async def handler(ws):
        offered.append(ws.request.headers["Sec-WebSocket-Protocol"])
        await greet(ws)
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            return c.subprotocol, c.protocol, c.frame

    assert run(handler, client) == ("transition-sandbox.v2", 2, FRAME)
    assert offered == ["transition-sandbox.v2, transition-sandbox.v1"]


def test_protocol_1_whole_frames_with_t_are_read_as_they_come():
    whole = {**FRAME, "n": 2, "t": 1.5}

    async def handler(ws):
        await greet(ws, {**WELCOME, "protocol": 1})
        await ws.send(json.dumps(whole))
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            return c.protocol, await c.recv()

    assert run(handler, client, select_subprotocol=lambda ws, offered: "transition-sandbox.v1") == (1, whole)


def test_a_protocol_the_client_does_not_know_is_refused():
    async def handler(ws):
        await greet(ws, {**WELCOME, "protocol": 3})
        await linger(ws)

    async def client(url):
        with pytest.raises(ProtocolError, match="protocol 3"):
            await connect(url)

    run(handler, client)


def test_a_message_over_max_size_closes_with_1009():
    async def handler(ws):
        await greet(ws)
        await ws.send(json.dumps({"type": "frame", "pad": "x" * (2 << 20)}))
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            with pytest.raises(ConnectionClosed) as closed:
                await c.recv()
            return closed.value.code

    assert run(handler, client) == 1009


@pytest.mark.parametrize("text", ['{"type":"frame","progress":NaN}', "[" * 200000 + "]" * 200000, "hello",
                                  '{"type":"frame","n":' + "9" * 5000 + "}"],
                         ids=["NaN", "nested 200000 deep", "not JSON", "a 5000-digit integer"])
def test_a_malformed_message_is_a_protocol_error(text):
    async def handler(ws):
        await greet(ws)
        await ws.send(text)
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            with pytest.raises(ProtocolError):
                await c.recv()

    run(handler, client)


def test_a_server_that_never_greets_times_out():
    async def handler(ws):
        await linger(ws)

    async def client(url):
        start = time.monotonic()
        with pytest.raises(Timeout):
            await connect(url, timeout=0.5)
        return time.monotonic() - start

    assert run(handler, client) < 5


def test_a_server_that_closes_raises_with_its_code():
    async def handler(ws):
        await ws.close(1011, "gone")

    async def client(url):
        with pytest.raises(ConnectionClosed) as closed:
            await connect(url)
        return closed.value.code, closed.value.reason

    assert run(handler, client) == (1011, "gone")


def test_a_server_that_goes_silent_after_a_request_times_out():
    async def handler(ws):
        await greet(ws)
        await linger(ws)

    async def client(url):
        async with connect(url, timeout=0.3) as c:
            with pytest.raises(Timeout):
                await c.ping()
            with pytest.raises(Timeout):
                await c.next_event("finished", timeout=0.2)

    run(handler, client)


def test_a_delta_that_does_not_apply_is_dropped_and_the_next_full_frame_read():
    async def handler(ws):
        await greet(ws)
        await ws.send(json.dumps({**FRAME, "n": 3, "base": 2, "layers": ["from"]}))
        await ws.send(json.dumps({**FRAME, "n": 4}))
        await ws.send(json.dumps({**FRAME, "n": 5, "base": 4, "layers": [{"id": "from", "z": 1}]}))
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            first, second = await c.recv(), await c.recv()
            return first["n"], second["layers"], c.assembler.dropped

    assert run(handler, client) == (4, [{"id": "from", "z": 1}], 1)


def test_a_flood_while_a_reply_is_awaited_is_bounded():
    async def handler(ws):
        await greet(ws)
        await ws.recv()
        for i in range(60):
            await ws.send(json.dumps({"type": "transition", "event": "began", "progress": i}))
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            assert c.max_buffered == 4096
            c.max_buffered = 50
            with pytest.raises(ProtocolError, match="over 50 messages"):
                await c.ping()

    run(handler, client)


def test_frames_flooding_while_a_reply_is_awaited_give_way_to_newer_ones():
    async def handler(ws):
        await greet(ws)
        request = json.loads(await ws.recv())
        for n in range(2, 102):
            await ws.send(json.dumps({**FRAME, "n": n}))
        await ws.send(json.dumps({"type": "pong", "id": request["id"], "seq": 1, "t": 0, "serverTime": 1}))
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            c.max_buffered = 50
            await c.ping()
            kept = [await c.recv() for _ in range(50)]
            return kept[0]["n"], kept[-1]["n"]

    assert run(handler, client) == (101 - 49, 101)


def test_iteration_ends_on_a_clean_close_and_raises_on_another():
    async def clean(ws):
        await greet(ws)
        await ws.send(json.dumps({"type": "session-ended", "session": "s"}))
        await ws.close(1001, "shutting down")

    async def client(url):
        async with connect(url) as c:
            return [m["type"] async for m in c]

    assert run(clean, client) == ["session-ended"]

    async def abrupt(ws):
        await greet(ws)
        await ws.close(1008, "input rate limit")

    async def client_abrupt(url):
        async with connect(url) as c:
            with pytest.raises(ConnectionClosed, match="1008"):
                async for _ in c:
                    pass

    run(abrupt, client_abrupt)


def raw_frame(payload, opcode=1):
    """One unmasked server frame (payloads under 64 KiB)."""
    return (bytes([0x80 | opcode, len(payload)]) if len(payload) < 126 else
            bytes([0x80 | opcode, 126]) + len(payload).to_bytes(2, "big")) + payload


async def raw_handshake(reader, writer, greet=True):
    """The server's side of the handshake by hand, then the welcome and first frame."""
    request = await reader.readuntil(b"\r\n\r\n")
    key = re.search(rb"Sec-WebSocket-Key: *(\S+)", request, re.I).group(1)
    accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Protocol: transition-sandbox.v2\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
    if greet:
        for message in (WELCOME, FRAME):
            writer.write(raw_frame(json.dumps(message).encode()))
    await writer.drain()


def run_raw(handler, client, limit=20):
    """Serves `handler(reader, writer)` (raw asyncio: it answers no close, no ping) and runs
    `client(url)` against it."""
    async def main():
        server = await asyncio.start_server(handler, "127.0.0.1", 0)
        try:
            return await asyncio.wait_for(client(f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/"), limit)
        finally:
            server.close()
    return asyncio.run(main())


def test_sending_to_a_server_that_stops_reading_times_out():
    """A server (raw asyncio, the handshake by hand) that greets and then reads nothing more."""
    async def handler(reader, writer):
        await raw_handshake(reader, writer)
        await asyncio.sleep(30)  # and never reads again

    async def main():
        server = await asyncio.start_server(handler, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        c = await connect(f"ws://127.0.0.1:{port}/", timeout=1)
        start = time.monotonic()
        with pytest.raises(Timeout):
            for _ in range(10000):
                await c.send({"type": "ping", "pad": "x" * 60000})
        elapsed = time.monotonic() - start
        c.abort()  # a close would wait behind the unsent bytes
        server.close()
        return elapsed

    assert asyncio.run(asyncio.wait_for(main(), 20)) < 15


def test_close_to_a_server_that_stops_reading_takes_at_most_the_timeout():
    async def handler(reader, writer):
        await raw_handshake(reader, writer)
        await asyncio.sleep(30)

    async def client(url):
        c = await connect(url, timeout=1)
        with pytest.raises(Timeout):
            for _ in range(10000):
                await c.send({"type": "ping", "pad": "x" * 60000})
        start = time.monotonic()
        await c.close()
        return time.monotonic() - start

    assert run_raw(handler, client) < 2


@pytest.mark.parametrize("payload, code", [
    (bytes([0x81, 127]) + (100 << 20).to_bytes(8, "big"), 1009),  # a 100 MiB message announced
    (raw_frame(b'{"type":"\xff"}'), 1007),  # not UTF-8
], ids=["over max_size", "bad UTF-8"])
def test_a_violation_against_a_server_that_ignores_the_close_raises_its_code_at_once(payload, code):
    async def handler(reader, writer):
        await raw_handshake(reader, writer)
        writer.write(payload)
        await asyncio.sleep(30)  # reads nothing, answers no close

    async def client(url):
        c = await connect(url, timeout=10)
        start = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            await c.recv()
        await c.close()
        return closed.value.code, time.monotonic() - start < 2

    assert run_raw(handler, client) == (code, True)


def test_a_ping_flood_whose_pongs_are_not_read_drops_the_connection():
    async def handler(reader, writer):
        await raw_handshake(reader, writer)
        ping = raw_frame(b"p" * 125, opcode=9)
        try:
            for _ in range(1000):
                writer.write(ping * 400)  # 50 MB in all: the pongs would be as much, never read
                await writer.drain()
        except ConnectionError:
            pass
        await asyncio.sleep(30)

    async def client(url):
        c = await connect(url, timeout=10)
        with pytest.raises(ConnectionClosed, match="pongs"):
            await c.recv()

    run_raw(handler, client)


def test_a_handshake_that_never_completes_is_a_timeout_and_so_is_a_missing_welcome_within_it():
    async def silent(reader, writer):
        await asyncio.sleep(30)

    async def mute(reader, writer):
        await raw_handshake(reader, writer, greet=False)
        await asyncio.sleep(30)  # nor answers the close

    async def client(url):
        start = time.monotonic()
        with pytest.raises(Timeout):
            await connect(url, timeout=0.5)
        return time.monotonic() - start

    assert run_raw(silent, client) < 1.5
    assert run_raw(mute, client) < 1.5  # aborted, not closed: no second wait for the server's close


@pytest.mark.parametrize("first, match", [
    (raw_frame(json.dumps(WELCOME).encode(), opcode=2), "binary"),
    (raw_frame(json.dumps({**WELCOME, "protocol": 1}).encode()), "protocol 1 on subprotocol transition-sandbox.v2"),
    (raw_frame(json.dumps({**WELCOME, "session": [1]}).encode()), "session is not a string"),
    (raw_frame(json.dumps({**WELCOME, "config": "x"}).encode()), "config is not an object"),
    (raw_frame(json.dumps(WELCOME).encode()) * 2, "second welcome"),
], ids=["binary", "protocol 1 on v2", "session a list", "config a string", "two welcomes"])
def test_a_welcome_that_does_not_fit_is_a_protocol_error(first, match):
    async def handler(reader, writer):
        await raw_handshake(reader, writer, greet=False)
        writer.write(first + raw_frame(json.dumps(FRAME).encode()))
        await asyncio.sleep(30)

    async def client(url):
        with pytest.raises(ProtocolError, match=match):
            await connect(url, timeout=5)

    run_raw(handler, client)


def test_a_duplicated_reply_does_not_rewrite_the_config():
    async def handler(ws):
        await greet(ws)
        for answer in ("first", "second"):
            request = json.loads(await ws.recv())
            for copy in (answer, "duplicate"):
                await ws.send(json.dumps({"type": "configured", "id": request["id"], "config": {"transition": copy}}))
        request = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "pong", "id": request["id"], "seq": 1, "t": 0, "serverTime": 1}))
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            await c.configure(transition="first")
            await c.configure(transition="second")
            await c.ping()  # reads past the second duplicate
            return c.config

    assert run(handler, client) == {"transition": "second"}


def test_messages_buffered_while_a_reply_waits_are_bounded_in_bytes_oldest_frames_first():
    async def handler(ws):
        await greet(ws)
        request = json.loads(await ws.recv())
        for n in range(2, 202):
            await ws.send(json.dumps({**FRAME, "n": n, "pad": "x" * 1000}))
        await ws.send(json.dumps({"type": "pong", "id": request["id"], "seq": 1, "t": 0, "serverTime": 1}))
        await linger(ws)

    async def client(url):
        async with connect(url) as c:
            c.max_buffered_bytes = 20_000
            await c.ping()
            kept = []
            while c._buffered:
                kept.append((await c.recv())["n"])
            return len(kept) <= 20 and kept[-1] == 201 and kept == sorted(kept)

    assert run(handler, client)


def test_buffering_many_frames_takes_linear_time():
    """30,000 frames while a reply waits, 20,000 kept: a scan of the buffer per message (as
    before) took minutes here."""
    frames = [json.dumps({**FRAME, "n": n}) for n in range(2, 30002)]

    async def handler(ws):
        await greet(ws)
        request = json.loads(await ws.recv())
        for text in frames:
            await ws.send(text)
        await ws.send(json.dumps({"type": "pong", "id": request["id"], "seq": 1, "t": 0, "serverTime": 1}))
        await linger(ws)

    async def client(url):
        async with connect(url, timeout=15) as c:
            c.max_buffered = 20_000
            start = time.monotonic()
            await c.ping()
            return c._buffered, (await c.recv())["n"], time.monotonic() - start

    kept, oldest, elapsed = run(handler, client, max_size=None)
    assert (kept, oldest) == (20_000, 30001 - 19_999) and elapsed < 12


def test_a_ca_that_is_not_a_regular_file_or_contradicts_insecure_is_refused(tmp_path):
    fifo = tmp_path / "ca.pem"
    os.mkfifo(fifo)  # reading it would block the event loop until a writer came
    with pytest.raises(OSError, match="not a regular file"):
        ssl_context(ca=fifo)
    with pytest.raises(ValueError, match="contradict"):
        ssl_context(ca=fifo, insecure=True)

    async def client(url):
        with pytest.raises(ValueError, match="contradict"):
            await connect(url.replace("ws:", "wss:"), ca=str(fifo), insecure=True)

    asyncio.run(client("ws://127.0.0.1:9/"))
