"""`sandbox pan --url` against a hostile server: one that answers 101 and then sends a message
that never ends (endless continuation fragments, or one frame whose header says 200 MB), or
floods pings and never sends a frame. The tool must give up within seconds with a clear line
on stderr, in bounded memory, and never abort (exit 134) when it tears its loop down."""
import asyncio
import base64
import hashlib
import ssl
import struct
import subprocess
import threading
import time

import pytest

from sandbox_env import BINARY, ROOT, loosened, sanitizer_report, self_signed_certificate

SCRIPT = ROOT / "examples" / "scripts" / "flick-finishes.json"
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
# The client's cap on one message is 1 MiB; the attacks send hundreds of MB if let.
PEAK_RSS_KB = loosened(100 * 1024, address=400 * 1024, thread=400 * 1024)


def frame(payload, opcode, final=True):
    n = len(payload)
    first = (0x80 if final else 0) | opcode
    if n < 126:
        return struct.pack("!BB", first, n) + payload
    if n < 65536:
        return struct.pack("!BBH", first, 126, n) + payload
    return struct.pack("!BBQ", first, 127, n) + payload


async def fragments(writer):
    """One text message, begun and then continued forever in 60 KB fragments."""
    writer.write(frame(b"{", 1, final=False))
    piece = frame(b" " * 60000, 0, final=False)
    while True:
        writer.write(piece)
        await writer.drain()


async def bigframe(writer):
    """One text frame whose header says 200 MB, sent at full speed."""
    writer.write(struct.pack("!BBQ", 0x81, 127, 200 << 20))
    chunk = b" " * 65536
    for _ in range(200 * 16):
        writer.write(chunk)
        await writer.drain()


async def pingflood(writer):
    """Pings, 125 bytes each, as fast as the client reads them; never a frame."""
    burst = frame(b"p" * 125, 9) * 100
    while True:
        writer.write(burst)
        await writer.drain()


class HostileServer:
    """A raw WebSocket server on its own thread: a proper 101 (echoing the offered
    subprotocol), then `attack` on every connection."""

    def __init__(self, attack, tls=None):
        self.attack, self.tls = attack, tls
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        assert ready.wait(10)

    def _run(self, ready):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._handle, "127.0.0.1", 0, ssl=self.tls))
        self.port = self.server.sockets[0].getsockname()[1]
        ready.set()
        self.loop.run_forever()
        pending = asyncio.all_tasks(self.loop)
        for task in pending:
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()

    async def _handle(self, reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            fields = {}
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                fields[name.strip().lower()] = value.strip()
            accept = base64.b64encode(hashlib.sha1(fields.get(b"sec-websocket-key", b"") + GUID).digest())
            reply = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            reply += b"Sec-WebSocket-Accept: " + accept + b"\r\n"
            offered = fields.get(b"sec-websocket-protocol")
            if offered:
                reply += b"Sec-WebSocket-Protocol: " + offered.split(b",")[0].strip() + b"\r\n"
            writer.write(reply + b"\r\n")
            await self.attack(writer)
            await asyncio.sleep(3600)
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError, OSError):
            pass
        finally:
            writer.close()

    def close(self):
        def stop():
            self.server.close()
            self.loop.stop()
        self.loop.call_soon_threadsafe(stop)
        self.thread.join(10)


def peak_rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def pan_against(url, *extra, limit=30.0):
    """Runs `sandbox pan` until it exits (killed after `limit` s): (exit code, seconds,
    stderr, peak RSS in kB, read from /proc while it runs)."""
    process = subprocess.Popen([str(BINARY), "pan", str(SCRIPT), "--url", url, *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    outputs = {}
    readers = [threading.Thread(target=lambda n=n, s=s: outputs.__setitem__(n, s.read()), daemon=True)
               for n, s in (("out", process.stdout), ("err", process.stderr))]
    for reader in readers:
        reader.start()
    start, peak = time.monotonic(), 0
    while process.poll() is None and time.monotonic() - start < limit:
        peak = max(peak, peak_rss_kb(process.pid))
        time.sleep(0.02)
    if process.poll() is None:
        process.kill()
    code = process.wait()
    elapsed = time.monotonic() - start
    for reader in readers:
        reader.join(10)
    err = outputs.get("err", "")
    report = sanitizer_report(err)
    if report:
        pytest.fail(f"sanitizer report from sandbox pan:\n{report}", pytrace=False)
    return code, elapsed, err, peak


@pytest.fixture(scope="module")
def tls_context(tmp_path_factory):
    cert, key = self_signed_certificate(tmp_path_factory.mktemp("hostile-tls"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert), str(key))
    return context


@pytest.mark.parametrize("attack", [fragments, bigframe], ids=["fragments", "bigframe"])
@pytest.mark.parametrize("secure", [False, True], ids=["ws", "wss"])
def test_a_message_that_never_ends_is_refused_in_bounded_memory(attack, secure, tls_context):
    server = HostileServer(attack, tls_context if secure else None)
    try:
        scheme = "wss" if secure else "ws"
        extra = ("--insecure",) if secure else ()
        code, elapsed, err, peak = pan_against(f"{scheme}://127.0.0.1:{server.port}/", *extra)
    finally:
        server.close()
    assert code not in (0, 134, -9, -6), (code, err)
    assert elapsed < 15, (elapsed, err)
    assert "the server sent a message over 1 MiB (connection cut)" in err, err
    assert peak < PEAK_RSS_KB, (peak, err)


@pytest.mark.parametrize("secure", [False, True], ids=["ws", "wss"])
def test_a_ping_flood_gives_up_without_aborting(secure, tls_context):
    server = HostileServer(pingflood, tls_context if secure else None)
    try:
        scheme = "wss" if secure else "ws"
        extra = ("--insecure",) if secure else ()
        code, elapsed, err, peak = pan_against(f"{scheme}://127.0.0.1:{server.port}/", *extra)
    finally:
        server.close()
    # The give-up path: no frame within the tool's 10 s connect timeout.
    assert code not in (0, 134, -9, -6), (code, err)
    assert "Attempted to read an unowned reference" not in err, err
    assert elapsed < 15, (elapsed, err)
    assert "could not connect" in err and "timed out" in err, err
    assert peak < PEAK_RSS_KB, (peak, err)
