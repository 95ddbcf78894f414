"""A small protocol client for the tests: sends messages, waits for the replies it expects.
Frames are handed on whole: delta frames are applied as they arrive (`FrameAssembler`,
Tests/sandbox_env.py), so `frames`, `recv()`, `expect()` and `until()` never see a delta. A
delta that cannot be applied (the server promises never to send one) fails the test at once.
Every message sent and received is checked against schema/ (Tests/wire_schema.py); a test that
sends an invalid message on purpose says so (`send(..., check=False)`)."""
import asyncio
import json
import sys
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sandbox_env import FrameAssembler  # noqa: E402
from wire_schema import VERSIONS, check_received, check_sent  # noqa: E402

PROTOCOL = "transition-sandbox.v2"
TIMEOUT = 10


class Client:
    def __init__(self, ws):
        self.ws = ws
        self.seq = 0
        self.t = 1000.0
        self.frames = []
        self.events = []
        self.welcome = None
        self.assembler = FrameAssembler()
        self.last_wire_frame = None  # the last frame message as it came (a delta or whole)
        self.version = VERSIONS.get(ws.subprotocol, 1)  # what the handshake negotiated

    @classmethod
    async def connect(cls, url, **kwargs):
        """Offers protocol 2 unless `subprotocols` says otherwise."""
        kwargs.setdefault("subprotocols", [PROTOCOL])
        ws = await websockets.connect(url, max_size=None, **kwargs)
        client = cls(ws)
        client.welcome = await client.expect("welcome")
        await client.expect("frame")
        return client

    @classmethod
    async def viewer(cls, url, session, attempts=16, **kwargs):
        """A new connection that has joined `session`: (client, joined). A server started with
        `--threads N` (e.g. SANDBOX_SERVE_ARGS) deals connections round robin and a viewer can
        join only sessions of its own service thread, so a connection that landed elsewhere is
        closed and another one tried; with one thread the first one joins."""
        for _ in range(attempts):
            client = await cls.connect(url, **kwargs)
            await client.send({"type": "join", "session": session})
            reply = await client.until(lambda m: m["type"] in ("joined", "error"))
            if reply["type"] == "joined":
                return client, reply
            assert reply["code"] == "unknown-session" and "service thread" in reply["message"], reply
            await client.close()
        raise AssertionError(f"no connection landed on the service thread of session {session}")

    async def recv(self):
        message = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        check_received(message, self.version)
        if message["type"] == "frame":
            self.last_wire_frame = message
            frame = self.assembler.apply(message)
            if frame is None:
                raise AssertionError(f"a delta frame that does not apply: {self.assembler.last_drop}, "
                                     f"message {json.dumps(message)[:300]}")
            message = frame
            self.frames.append(message)
        elif message["type"] in ("welcome", "joined"):
            self.assembler.reset()  # a new session: its first frame is whole
        elif message["type"] == "transition":
            self.events.append(message)
        return message

    async def expect(self, type_, **match):
        while True:
            message = await self.recv()
            if message["type"] == type_ and all(message.get(k) == v for k, v in match.items()):
                return message

    async def send(self, message, check=True):
        """`check=False`: the message breaks the protocol on purpose (a hostile test)."""
        if check:
            check_sent(message)
        await self.ws.send(json.dumps(message))

    async def pointer(self, phase, x, y=400, dt=16.0, **extra):
        self.seq += 1
        self.t += dt
        await self.send({"type": "pointer", "phase": phase, "x": x, "y": y, "t": self.t, "seq": self.seq, **extra})
        return self.seq

    async def pan(self, dx, steps=15, hold=50.0, x0=100.0):
        """Down, `steps` moves to x0+dx, a still hold (no velocity), up; waits for the ack of up."""
        await self.pointer("down", x0, dt=0)
        for i in range(1, steps + 1):
            await self.pointer("move", x0 + dx * i / steps)
        last = await self.pointer("up", x0 + dx, dt=hold)
        await self.until(lambda m: m["type"] == "frame" and m["ack"] == last)
        return last

    async def until(self, predicate):
        while True:
            message = await self.recv()
            if predicate(message):
                return message

    async def rest(self):
        """Waits for the transition to finish or cancel, then for its final frame."""
        event = await self.until(lambda m: m["type"] == "transition" and m["event"] in ("finished", "cancelled"))
        frame = await self.until(lambda m: m["type"] == "frame" and m["phase"] in ("finished", "cancelled"))
        return event, frame

    async def close(self):
        await self.ws.close()
