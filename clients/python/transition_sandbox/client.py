"""One connection to a sandbox server (docs/PROTOCOL.md): connect over ws:// or wss://, send the
client messages, read whole frames and events.

Invariants (tests/test_client_hostile.py and Tests/integration/test_python_client.py hold them):
- Every await but iteration gives up after `timeout` seconds with `Timeout`; iteration ends when
  the connection closes, and the WebSocket keepalive (a ping every 20 s, 20 s to answer) closes
  a dead one. A closed connection raises `ConnectionClosed`, never hangs.
- A message from the server is at most `max_size` bytes (1 MiB by default; the server's largest
  is 256 KiB) and is parsed strictly (wire.py); at most `MAX_BUFFERED` messages and
  `MAX_BUFFERED_BYTES` of their text wait while a request waits for its reply, the oldest frame
  giving way first.
- A violation websockets detects (a message over max_size: 1009, bad UTF-8: 1007) drops the
  socket at once and raises `ConnectionClosed` with that code, without waiting for a server that
  ignores the close; so does a ping flood whose pongs the server does not read
  (`MAX_WRITE_BUFFER`). `close()` takes at most `timeout` seconds.
- The `welcome` is checked: one only, a `protocol` matching the negotiated subprotocol, fields
  of the right types; binary messages are refused (ProtocolError).
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
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed as _Closed
from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

from .assembler import FrameAssembler
from .commands import Commands
from .errors import ConnectionClosed, ProtocolError, SandboxError, ServerError, Timeout
from .files import read_limited
from .wire import decode, encode

# Protocol 2 (delta frames) preferred, protocol 1 (whole frames with `t`) accepted: the server
# picks one and says which in `welcome.protocol`.
SUBPROTOCOLS = ("transition-sandbox.v2", "transition-sandbox.v1")
PROTOCOLS = (1, 2)
DEFAULT_TIMEOUT = 10.0
MAX_MESSAGE = 1 << 20
MAX_BUFFERED = 4096
MAX_BUFFERED_BYTES = 16 << 20  # of the buffered messages' text
MAX_WRITE_BUFFER = 4 << 20  # bytes the server has not taken (pongs to a ping flood) before the socket is dropped
MAX_CA_FILE = 16 << 20
PROTOCOL_OF = {"transition-sandbox.v1": 1, "transition-sandbox.v2": 2}
_VIOLATIONS = (1002, 1007, 1009)  # what websockets closes with for what the server sent


class _Connection(ClientConnection):
    """websockets' connection, with two limits it does not enforce. When it fails the connection
    for what the server sent (1002, 1007 bad UTF-8, 1009 over max_size or too many fragments),
    it sends its close and then waits up to close_timeout for the server's; a server that
    ignores it held recv() that long. Here the socket is dropped right after the close is
    written. And pongs to a ping flood that the server does not read cannot pile up past
    MAX_WRITE_BUFFER: the socket is dropped (`dropped_for` says why)."""

    dropped_for = None

    def __init__(self, protocol, *args, **kwargs):
        super().__init__(protocol, *args, **kwargs)
        fail = protocol.fail

        def failing(code, reason=""):
            fail(code, reason)
            if code in _VIOLATIONS:
                self.loop.call_soon(self.transport.abort)  # after the close frame is handed to the socket

        protocol.fail = failing

    def data_received(self, data):
        super().data_received(data)
        if self.transport.get_write_buffer_size() > MAX_WRITE_BUFFER and self.dropped_for is None:
            self.dropped_for = f"dropped: over {MAX_WRITE_BUFFER} bytes (pongs) the server did not read"
            self.transport.abort()


def ssl_context(ca=None, insecure=False):
    """The TLS context for wss://: the system's CAs, or only `ca` (a PEM file) when given;
    `insecure` checks no certificate at all (a lab's self-signed one, on a network you trust).
    Both at once is a ValueError (neither silently wins). `ca` must be a regular file of at most
    16 MiB (OSError otherwise)."""
    if ca and insecure:
        raise ValueError("ca= and insecure= contradict each other: give one")
    if insecure:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    if not ca:
        return ssl.create_default_context()
    data = read_limited(str(ca), MAX_CA_FILE, "the CA file")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise ssl.SSLError(f"{ca} is not a PEM file (not ASCII)") from None
    return ssl.create_default_context(cadata=text)


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
    max_buffered_bytes = MAX_BUFFERED_BYTES  # and their text, at most

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
        self._pending = set()  # request ids sent and not yet answered
        # Messages read while a request waited, in order: entries [message, size, kept]; frames
        # are also in `_frames` so that the oldest gives way in O(1) (its entry is un-kept and
        # skipped when reached).
        self._buffer = deque()
        self._frames = deque()
        self._buffered = 0  # kept entries
        self._buffered_bytes = 0
        self._size = 0  # the text size of the message _read returned last
        self._broken = False  # after a ProtocolError: the socket was dropped
        self._welcomed = False  # a welcome was read: another is a ProtocolError

    @classmethod
    async def open(cls, url, ca=None, insecure=False, timeout=DEFAULT_TIMEOUT, max_size=MAX_MESSAGE,
                   subprotocols=SUBPROTOCOLS):
        try:
            scheme = urlsplit(url).scheme if isinstance(url, str) else None
        except ValueError:  # an unbalanced [ in the host
            scheme = None
        if scheme not in ("ws", "wss"):
            raise ValueError(f"the URL must look like ws://HOST:PORT/ or wss://HOST:PORT/; got {url!r}")
        if (ca or insecure) and scheme != "wss":
            raise ValueError("ca= and insecure= are for wss:// URLs")
        if ca and insecure:
            raise ValueError("ca= and insecure= contradict each other: give one")
        if not (isinstance(timeout, (int, float)) and 0 < timeout < math.inf):
            raise ValueError(f"timeout must be a number of seconds > 0; got {timeout!r}")
        options = {}
        if scheme == "wss":
            try:
                options["ssl"] = ssl_context(ca, insecure)
            except (OSError, ssl.SSLError) as error:
                raise SandboxError(f"cannot use {ca} as the CA: {error.strerror or error}") from None
        try:
            ws = await websockets.connect(url, subprotocols=list(subprotocols), max_size=max_size,
                                          open_timeout=timeout, close_timeout=min(timeout, 5),
                                          create_connection=_Connection, **options)
        except InvalidStatus as error:
            body = error.response.body.decode(errors="replace").strip()[:200]
            raise SandboxError(f"{url} refused the WebSocket: HTTP {error.response.status_code} {body}") from None
        except TimeoutError:  # before OSError: TimeoutError is one
            raise Timeout(f"could not connect to {url} within {timeout} s") from None
        except (OSError, InvalidHandshake, InvalidURI) as error:
            raise SandboxError(f"could not connect to {url}: {error}") from None
        client = cls(ws, timeout)
        try:
            deadline = client._deadline(...)
            client.welcome = await client.until(lambda m: m["type"] == "welcome", deadline=deadline, keep_others=True)
            client._check_welcome(client.welcome)
            client.config = client.welcome.get("config")
            await client.until(lambda m: m["type"] == "frame", deadline=deadline, keep_others=True)
        except BaseException:
            client.abort()  # a close would wait up to close_timeout more for a server that failed already
            raise
        return client

    def _check_welcome(self, welcome):
        protocol = welcome.get("protocol", 1)
        if type(protocol) is not int or protocol not in PROTOCOLS:
            self.abort()
            raise ProtocolError(f"the server speaks protocol {protocol!r}; this client knows 1 and 2")
        negotiated = PROTOCOL_OF.get(self.ws.subprotocol, 1)  # none chosen: a v1 server's whole frames
        if negotiated != protocol:
            self.abort()
            raise ProtocolError(f"the welcome says protocol {protocol} on subprotocol {self.ws.subprotocol}")
        for key, kind in (("session", str), ("config", dict)):
            if key in welcome and not isinstance(welcome[key], kind):
                self.abort()
                raise ProtocolError(f"the welcome's {key} is not {'a string' if kind is str else 'an object'}")

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

    def _violation(self, text):
        self.abort()
        return ProtocolError(text)

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
            self._broken = True
            if getattr(self.ws, "dropped_for", None):
                raise ConnectionClosed(None, self.ws.dropped_for) from None
            raise _closed(error) from None
        if not isinstance(data, str):
            raise self._violation("the server sent a binary message; the protocol's are text")
        try:
            message = decode(data)
        except ProtocolError:
            self.abort()
            raise
        self._size = len(data)
        kind = message["type"]
        if kind == "frame":
            frame = self.assembler.apply(message)  # never raises: a malformed delta is dropped, counted
            if frame is not None:
                self.frame = frame
            return frame
        if kind == "welcome":
            if self._welcomed:
                raise self._violation("the server sent a second welcome")
            self._welcomed = True
        if kind in ("welcome", "joined"):
            self.assembler.reset()  # a new session: its first frame is whole
        if kind in ("welcome", "joined", "configured") and "config" in message:
            if not isinstance(message["config"], dict):
                raise self._violation(f"the server sent a {kind} whose config is not an object")
            replying = message.get("id")
            if kind == "welcome" or replying is None or replying in self._pending:
                self.config = message["config"]  # not a duplicate of a reply already read
        return message

    def _deadline(self, timeout):
        timeout = self.timeout if timeout is ... else timeout
        return None if timeout is None else time.monotonic() + timeout

    def _take(self):
        """The oldest buffered message, or None."""
        while self._buffer:
            entry = self._buffer.popleft()
            if entry[2]:
                entry[2] = False
                self._buffered -= 1
                self._buffered_bytes -= entry[1]
                if self._frames and self._frames[0] is entry:
                    self._frames.popleft()
                return entry[0]
        return None

    async def recv(self, timeout=...):
        """The next whole frame or other message (a dict). `timeout` seconds (the client's by
        default; None: until the connection closes)."""
        message = self._take()
        if message is not None:
            return message
        deadline = self._deadline(timeout)
        while True:
            message = await self._read(deadline)
            if message is not None:
                return message

    async def until(self, predicate, timeout=..., keep_others=False, deadline=...):
        """Reads until `predicate(message)` holds and returns that message; an `error` on the
        way raises `ServerError`. `keep_others`: the messages passed over, errors included, are
        read again by `recv` and iteration (otherwise they are consumed)."""
        deadline = self._deadline(timeout) if deadline is ... else deadline
        size = 0
        while True:
            message = self._take() if not keep_others else None
            if message is None:
                message = await self._read(deadline)
                if message is None:
                    continue
                size = self._size
            if predicate(message):
                return message
            if keep_others:
                self._keep(message, size)  # after what the buffer holds: the order is kept
            elif message["type"] == "error":
                raise ServerError(message)

    def _keep(self, message, size=0):
        """Buffers `message` (`size`: its text's length); past `max_buffered` messages or
        `max_buffered_bytes`, the oldest frames give way (latest state wins, as the server does
        for a slow reader); with no frame left to drop, the connection is dropped."""
        entry = [message, size, True]
        self._buffer.append(entry)
        self._buffered += 1
        self._buffered_bytes += size
        if message["type"] == "frame":
            self._frames.append(entry)
        while self._frames and (self._buffered > self.max_buffered or
                                self._buffered_bytes > self.max_buffered_bytes):
            oldest = self._frames.popleft()
            oldest[2] = False
            self._buffered -= 1
            self._buffered_bytes -= oldest[1]
        if self._buffered > self.max_buffered or self._buffered_bytes > self.max_buffered_bytes:
            raise self._violation(f"the server sent over {self.max_buffered} messages or "
                                  f"{self.max_buffered_bytes} bytes while a reply was awaited")
        if len(self._buffer) > 2 * self._buffered + 64:  # un-kept entries: compact, amortized O(1)
            self._buffer = deque(e for e in self._buffer if e[2])

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
        self._pending.add(request_id)
        try:
            await self.send({**message, "id": request_id})
            reply = await self.until(lambda m: m.get("id") == request_id and m["type"] in (*replies, "error"),
                                     timeout, keep_others=True)
        finally:
            self._pending.discard(request_id)
        if reply["type"] == "error":
            raise ServerError(reply)
        return reply

    def abort(self):
        """Drops the socket at once, without a closing handshake (recv then raises
        ConnectionClosed). Done after a ProtocolError: nothing more is read, and a close would
        wait behind what the server sent."""
        self._broken = True
        self.ws.transport.abort()

    async def close(self, timeout=...):
        """Closes the connection (1000), waiting at most `timeout` seconds (the client's by
        default) for the server's close; then the socket is dropped."""
        if self._broken:
            return
        timeout = self.timeout if timeout is ... else timeout
        try:
            await asyncio.wait_for(self.ws.close(), timeout)
        except TimeoutError:
            self.abort()
