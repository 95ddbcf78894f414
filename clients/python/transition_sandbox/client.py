"""One connection to a sandbox server (docs/PROTOCOL.md): connect over ws:// or wss://, send the
client messages, read whole frames and events.

Invariants (tests/test_client_hostile.py and Tests/integration/test_python_client.py hold them):
- Every await but iteration gives up after `timeout` seconds with `Timeout`; iteration ends when
  the connection closes, and the WebSocket keepalive (a ping every 20 s, 20 s to answer) closes
  a dead one. A closed connection raises `ConnectionClosed`, never hangs.
- A message from the server is at most `max_size` bytes (1 MiB by default; the server's largest
  is 256 KiB) and is parsed strictly (wire.py); at most `MAX_BUFFERED` messages wait while a
  request waits for its reply, the oldest frame giving way first.
- Frames come out whole: deltas are applied as they arrive (FrameAssembler).
"""
import asyncio
import itertools
import math
import ssl
import time
from collections import deque
from urllib.parse import urlsplit

import websockets
from websockets.exceptions import ConnectionClosed as _Closed
from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

from .assembler import FrameAssembler
from .commands import Commands
from .errors import ConnectionClosed, ProtocolError, SandboxError, ServerError, Timeout
from .wire import decode, encode

# Protocol 2 (delta frames) preferred, protocol 1 (whole frames with `t`) accepted: the server
# picks one and says which in `welcome.protocol`.
SUBPROTOCOLS = ("transition-sandbox.v2", "transition-sandbox.v1")
PROTOCOLS = (1, 2)
DEFAULT_TIMEOUT = 10.0
MAX_MESSAGE = 1 << 20
MAX_BUFFERED = 4096


def ssl_context(ca=None, insecure=False):
    """The TLS context for wss://: the system's CAs, or only `ca` (a PEM file) when given;
    `insecure` checks no certificate at all (a lab's self-signed one, on a network you trust)."""
    if insecure:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    return ssl.create_default_context(cafile=str(ca) if ca else None)


def connect(url, *, ca=None, insecure=False, timeout=DEFAULT_TIMEOUT, max_size=MAX_MESSAGE,
            subprotocols=SUBPROTOCOLS):
    """`await connect(url)` or `async with connect(url) as client`: a `Client` that has read its
    `welcome` and first frame. `subprotocols`: what to offer, v2 then v1 by default (offer only
    `transition-sandbox.v1` to ask for whole frames)."""
    return _Connecting(url, ca, insecure, timeout, max_size, subprotocols)


def _closed(error):
    """websockets' close → ours: the close frame received, else the one this side sent (1009 for
    a message over max_size)."""
    close = error.rcvd or error.sent
    return ConnectionClosed(close.code if close else None, close.reason if close else "")


class _Connecting:
    def __init__(self, *args):
        self.args = args
        self.client = None

    def __await__(self):
        return Client.open(*self.args).__await__()

    async def __aenter__(self):
        self.client = await Client.open(*self.args)
        return self.client

    async def __aexit__(self, *exc):
        await self.client.close()


class Client(Commands):
    """A connected client; see `connect`. `welcome`, `session`, `protocol` (1 or 2), `config`
    (the effective configuration), `frame` (the latest whole frame)."""

    max_buffered = MAX_BUFFERED  # messages kept while a request waits for its reply

    def __init__(self, ws, timeout):
        self.ws = ws
        self.timeout = timeout
        self.welcome = None
        self.frame = None
        self.config = None
        self.assembler = FrameAssembler()
        self.seq = 0  # the last pointer seq sent
        self._pings = itertools.count(1)
        self._ids = itertools.count(1)
        self._buffer = deque()  # messages read while a request waited, in order
        self._broken = False  # after a ProtocolError: the socket was dropped

    @classmethod
    async def open(cls, url, ca=None, insecure=False, timeout=DEFAULT_TIMEOUT, max_size=MAX_MESSAGE,
                   subprotocols=SUBPROTOCOLS):
        scheme = urlsplit(url).scheme if isinstance(url, str) else None
        if scheme not in ("ws", "wss"):
            raise ValueError(f"the URL must look like ws://HOST:PORT/ or wss://HOST:PORT/; got {url!r}")
        if (ca or insecure) and scheme != "wss":
            raise ValueError("ca= and insecure= are for wss:// URLs")
        if not (isinstance(timeout, (int, float)) and 0 < timeout < math.inf):
            raise ValueError(f"timeout must be a number of seconds > 0; got {timeout!r}")
        options = {}
        if scheme == "wss":
            try:
                options["ssl"] = ssl_context(ca, insecure)
            except (OSError, ssl.SSLError) as error:
                raise SandboxError(f"cannot use {ca} as the CA: {error}") from None
        try:
            ws = await websockets.connect(url, subprotocols=list(subprotocols), max_size=max_size,
                                          open_timeout=timeout, close_timeout=min(timeout, 5), **options)
        except InvalidStatus as error:
            body = error.response.body.decode(errors="replace").strip()[:200]
            raise SandboxError(f"{url} refused the WebSocket: HTTP {error.response.status_code} {body}") from None
        except (OSError, InvalidHandshake, InvalidURI) as error:
            raise SandboxError(f"could not connect to {url}: {error}") from None
        except TimeoutError:
            raise Timeout(f"could not connect to {url} within {timeout} s") from None
        client = cls(ws, timeout)
        try:
            client.welcome = await client.until(lambda m: m["type"] == "welcome", keep_others=True)
            protocol = client.welcome.get("protocol", 1)
            if type(protocol) is not int or protocol not in PROTOCOLS:
                raise ProtocolError(f"the server speaks protocol {protocol!r}; this client knows 1 and 2")
            client.config = client.welcome.get("config")
            await client.until(lambda m: m["type"] == "frame", keep_others=True)
        except BaseException:
            await client.close()
            raise
        return client

    @property
    def session(self):
        return self.welcome.get("session")

    @property
    def protocol(self):
        """1: whole frames with `t`; 2: delta frames (docs/PROTOCOL.md "Delta frames")."""
        return self.welcome.get("protocol", 1)

    @property
    def subprotocol(self):
        return self.ws.subprotocol

    # Reading ---------------------------------------------------------------------------------

    async def _read(self, deadline):
        """The next message from the socket, frames made whole; None for a delta that did not
        apply (counted by the assembler)."""
        remaining = None if deadline is None else deadline - time.monotonic()
        try:
            if remaining is not None and remaining <= 0:
                raise TimeoutError
            data = await asyncio.wait_for(self.ws.recv(), remaining)
        except TimeoutError:
            raise Timeout("nothing came from the server in time") from None
        except _Closed as error:
            raise _closed(error) from None
        try:
            message = decode(data)
        except ProtocolError:
            self.abort()
            raise
        kind = message["type"]
        if kind == "frame":
            frame = self.assembler.apply(message)
            if frame is not None:
                self.frame = frame
            return frame
        if kind in ("welcome", "joined"):
            self.assembler.reset()  # a new session: its first frame is whole
        if kind in ("welcome", "joined", "configured"):
            self.config = message.get("config", self.config)
        return message

    def _deadline(self, timeout):
        timeout = self.timeout if timeout is ... else timeout
        return None if timeout is None else time.monotonic() + timeout

    async def recv(self, timeout=...):
        """The next whole frame or other message (a dict). `timeout` seconds (the client's by
        default; None: until the connection closes)."""
        if self._buffer:
            return self._buffer.popleft()
        deadline = self._deadline(timeout)
        while True:
            message = await self._read(deadline)
            if message is not None:
                return message

    async def until(self, predicate, timeout=..., keep_others=False):
        """Reads until `predicate(message)` holds and returns that message; an `error` on the
        way raises `ServerError`. `keep_others`: the messages passed over, errors included, are
        read again by `recv` and iteration (otherwise they are consumed)."""
        deadline = self._deadline(timeout)
        while True:
            message = self._buffer.popleft() if self._buffer and not keep_others else None
            if message is None:
                message = await self._read(deadline)
                if message is None:
                    continue
            if predicate(message):
                return message
            if keep_others:
                self._keep(message)  # after what the buffer holds: the order is kept
            elif message["type"] == "error":
                raise ServerError(message)

    def _keep(self, message):
        if len(self._buffer) >= self.max_buffered:
            frames = [m for m in self._buffer if m["type"] == "frame"]
            if not frames:
                self.abort()
                raise ProtocolError(f"the server sent over {self.max_buffered} messages while a reply was awaited")
            self._buffer.remove(frames[0])  # latest state wins, as the server does for a slow reader
        self._buffer.append(message)

    async def next_event(self, event, timeout=...):
        """The next `transition` event named `event` (`began`, `released`, `finished`, …)."""
        return await self.until(lambda m: m["type"] == "transition" and m.get("event") == event, timeout)

    async def acked(self, seq, timeout=...):
        """The first whole frame that acknowledges pointer `seq` (its `ack` ≥ seq); a refusal of
        that pointer message raises `ServerError`."""
        def acknowledges(m):
            if m["type"] == "error" and m.get("seq") == seq:
                raise ServerError(m)
            ack = m.get("ack")
            return m["type"] == "frame" and type(ack) in (int, float) and ack >= seq
        return await self.until(acknowledges, timeout)

    def __aiter__(self):
        return self.messages(timeout=None)

    async def messages(self, timeout=None):
        """Whole frames and every other message, in order, until the connection closes (a
        clean close, 1000 or 1001, ends it; another raises `ConnectionClosed`)."""
        while True:
            try:
                yield await self.recv(timeout)
            except ConnectionClosed as closed:
                if closed.code in (1000, 1001):
                    return
                raise

    # Writing ---------------------------------------------------------------------------------

    async def send(self, message, timeout=...):
        """Sends one message (a dict with `type`) as it is; a server that stops reading makes it
        raise `Timeout` once the socket's buffers are full and `timeout` has passed."""
        text = encode(message)
        deadline = self._deadline(timeout)
        try:
            await asyncio.wait_for(self.ws.send(text), None if deadline is None else deadline - time.monotonic())
        except TimeoutError:
            raise Timeout("the server did not read what was sent in time") from None
        except _Closed as error:
            raise _closed(error) from None

    async def request(self, message, *replies, timeout=...):
        """Sends `message` with a fresh request id and returns the first reply of a type in
        `replies` that carries it; the server's `error` for it raises `ServerError`. Other
        messages read meanwhile stay for `recv` and iteration."""
        request_id = f"py-{next(self._ids)}"
        await self.send({**message, "id": request_id})
        reply = await self.until(lambda m: m.get("id") == request_id and m["type"] in (*replies, "error"), timeout,
                                 keep_others=True)
        if reply["type"] == "error":
            raise ServerError(reply)
        return reply

    def abort(self):
        """Drops the socket at once, without a closing handshake (recv then raises
        ConnectionClosed). Done after a ProtocolError: nothing more is read, and a close would
        wait behind what the server sent."""
        self._broken = True
        self.ws.transport.abort()

    async def close(self):
        """Closes the connection (1000)."""
        if not self._broken:
            await self.ws.close()
