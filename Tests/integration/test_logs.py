"""The log against hostile clients: a reader of stderr that stops never stalls the server (one
writer thread, a bounded queue) nor holds up SIGTERM past the shutdown's one deadline; no client
can drive megabytes of log (lws' lines at debug after startup; a budget per peer address and one
for the process, `error sent` included), nor hide another address's refusals (the first line per
address and reason is kept; the summary names the top peers); a client's text reaches the log
escaped in both formats."""
import asyncio
import fcntl
import json
import os
import re
import signal
import socket
import subprocess
import termios
import time

import rawws
from client import Client
from sandbox_env import BINARY, ROOT, wait_for_signal_sources
from test_observability import http_get, scrape, value, wait_for


def flood(port, raw, count=None, seconds=None):
    """Connections that each send `raw` and read what comes back (or nothing)."""
    n, end = 0, time.monotonic() + (seconds or 1e9)
    while (count is None or n < count) and time.monotonic() < end:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        try:
            s.sendall(raw)
            s.recv(4096)
        except OSError:
            pass
        s.close()
        n += 1
    return n


async def errors(url, connections=3, messages=3000):
    """`messages` unknown-type messages on each of `connections` WebSockets, each answered by an
    error (a debug line each: "error sent", within the log budget)."""
    async def one():
        client = await Client.connect(url)
        for _ in range(messages // 20):
            for _ in range(20):
                await client.send({"type": "no-such-type"}, check=False)
            for _ in range(20):
                await client.expect("error")
        await client.ws.close()
    await asyncio.gather(*(one() for _ in range(connections)))


def flood_from(sources, port, raw, count):
    """`count` connections from each address in `sources`, each sending `raw`."""
    for source in sources:
        for _ in range(count):
            s = socket.socket()
            s.settimeout(2)
            try:
                s.bind((source, 0))
                s.connect(("127.0.0.1", port))
                s.sendall(raw)
                s.recv(4096)
            except OSError:
                pass
            s.close()


REBINDING = b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n"


def unread_stderr_server(*extra):
    """A server whose stderr is a 4 KiB pipe nobody reads (F_SETPIPE_SZ): its writer thread
    blocks after ~30 lines. Returns (process, port, the pipe's read end)."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ
    process = subprocess.Popen(
        [str(BINARY), "serve", "--port", "0", "--web-root", str(ROOT / "web"), *extra],
        stdout=subprocess.PIPE, stderr=write_end, text=True)
    os.close(write_end)
    port = int(re.search(r":(\d+)/", process.stdout.readline()).group(1))
    wait_for_signal_sources(process.pid)
    return process, port, read_end


def fill(read_end, port):
    """Refusals from 20 addresses (each one's burst gets through the log budget) until the pipe is full."""
    sources = [f"127.0.0.{n}" for n in range(2, 22)]
    flood_from(sources, port, REBINDING, count=3)
    queued = fcntl.ioctl(read_end, termios.FIONREAD, b"\0\0\0\0")
    # The pipe is full, the writer blocked (Linux fills a pipe page by page).
    assert int.from_bytes(queued, "little") >= 3_000


def test_a_stderr_reader_that_stops_never_stalls_the_server():
    process, port, read_end = unread_stderr_server("--log-level", "debug")
    try:
        fill(read_end, port)
        started = time.monotonic()
        status, _, _ = http_get(type("S", (), {"host": "127.0.0.1", "port": port}), "/", timeout=3)
        assert status == 200 and time.monotonic() - started < 2
        asyncio.run(asyncio.wait_for(errors(f"ws://127.0.0.1:{port}/", messages=600), 60))
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=5) == 0
        assert time.monotonic() - started < 2.5  # the shutdown's one deadline (1 s), then the teardown
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        os.close(read_end)


def test_sigterm_with_stderr_unread_and_peers_that_never_close_exits_within_the_deadline():
    # The drain (peers that never answer the 1001) and the log's flush (a reader that stopped)
    # used to wait one after the other: 2 s + 1 s = 3.0 s. They share one deadline now.
    process, port, read_end = unread_stderr_server()
    held = []
    try:
        fill(read_end, port)
        held = [rawws.websocket("127.0.0.1", port) for _ in range(3)]  # never read, never answer
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=5) == 0
        assert time.monotonic() - started < 1.8
    finally:
        for s in held:
            s.close()
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        os.close(read_end)


def test_one_address_flooding_refusals_cannot_hide_another(make_server):
    server = make_server()
    flood_from(["127.0.0.2"], server.port, REBINDING, count=400)  # the attacker: 400 refusals
    flood_from(["127.0.0.3"], server.port, REBINDING, count=1)  # then one rebinding attempt
    text = wait_for(lambda: "top_peers=" in server.stderr_text() and "peer=127.0.0.3" in server.stderr_text()
                    and server.stderr_text())
    assert text, server.stderr_text()[-2000:]
    lines = text.splitlines()
    assert sum("peer=127.0.0.2" in line and "request refused" in line for line in lines) <= 20 + 1 + 5
    assert any("request refused" in line and "peer=127.0.0.3" in line and "why=host" in line for line in lines)
    summary = next(line for line in lines if "log lines suppressed" in line)
    assert re.search(r"top_peers=127\.0\.0\.2:\d+", summary), summary


def test_error_lines_are_budgeted_at_debug(make_server):
    server = make_server("--log-level", "debug")
    asyncio.run(asyncio.wait_for(errors(server.url, connections=4, messages=1000), 60))
    text = wait_for(lambda: "log lines suppressed" in server.stderr_text() and server.stderr_text())
    # 4,000 errors: a burst and the rate, not a line each (1.55 MB/s before).
    assert text.count("error sent") <= 100 + 4 + 20 * 30, text.count("error sent")
    assert len(text) < 150_000


def test_floods_of_client_caused_lines_write_little_log(make_server):
    server = make_server()  # text, info: the defaults
    # "\r\n\r\n": lws' "Missing URI in HTTP request" used to be a warning per connection
    # (2 MB/s of log for 35 KB/s in); after startup lws' lines are debug.
    n = flood(server.port, b"\r\n\r\n", seconds=2)
    assert n > 500
    size = len(server.stderr_text())
    assert size < 2_000, server.stderr_text()[-500:]
    # Refused requests: 20 lines a second past a burst of 100, and a summary once a second.
    refuse = f"GET / HTTP/1.1\r\nHost: {'h' * 64}\r\nOrigin: http://{'o' * 57}\r\n\r\n".encode()
    n = flood(server.port, refuse, seconds=3)
    assert n > 500
    text = wait_for(lambda: "log lines suppressed" in server.stderr_text() and server.stderr_text())
    assert len(text) < 60_000, len(text)
    assert text.count("request refused") <= 100 + 20 * 4 + 5
    suppressed = sum(int(m) for m in re.findall(r"log lines suppressed lines=(\d+)", text))
    assert suppressed > 0
    assert value(scrape(server), "sandbox_log_lines_suppressed_total") > 0
    assert http_get(server, "/")[0] == 200


INJECTIONS = {
    "esc_host": b"GET / HTTP/1.1\r\nHost: evil\x1b[2J\x1b[31mFAKE\x1b[0m\r\n\r\n",
    "cr_host": b"GET / HTTP/1.1\r\nHost: evil\rINJECTED 2026 info sandbox: fake\r\n\r\n",
    "nul_host": b"GET / HTTP/1.1\r\nHost: ev\x00il\r\n\r\n",
    "origin_esc": (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                   b"Sec-WebSocket-Protocol: transition-sandbox.v1\r\nOrigin: http://x\x1b]0;pwned\x07\x1b[8m hidden\r\n\r\n"),
    "host_bidi": "GET / HTTP/1.1\r\nHost: a\u202egnp.exe\r\n\r\n".encode(),
    "host_sep": "GET / HTTP/1.1\r\nHost: a\u2028b\u2029c\u0085\r\n\r\n".encode(),
    "host_quote": b'GET / HTTP/1.1\r\nHost: a" why=fake status=200 x="\r\n\r\n',
    "host_8bit": b"GET / HTTP/1.1\r\nHost: \xff\xfe\xc3\r\n\r\n",
}


def inject(server):
    for raw in INJECTIONS.values():
        s = socket.create_connection((server.host, server.port), timeout=3)
        s.sendall(raw)
        try:
            s.recv(300)
        except OSError:
            pass
        s.close()


def hidden(text):
    return [c for c in text if ord(c) < 0x20 and c != "\n" or 0x7F <= ord(c) <= 0x9F or c in "\u202e\u2028\u2029"]


def test_hostile_headers_come_out_escaped_in_text(make_server):
    server = make_server()
    inject(server)
    text = wait_for(lambda: server.stderr_text().count("request refused") >= len(INJECTIONS) and server.stderr_text())
    raw = server.stderr_text().encode()
    assert b"\x1b" not in raw and b"\x00" not in raw and b"\r" not in raw
    assert not hidden(text), hidden(text)
    refused = [line for line in text.splitlines() if "request refused" in line]
    assert len(refused) == len(INJECTIONS), text
    field = re.compile(r' ([a-z_]+)=("(?:[^"\\]|\\.)*"|[^ "=]+)')
    for line in refused:
        names = [m.group(1) for m in field.finditer(line)]
        assert names.count("why") == 1 and names.count("status") == 1, line  # nothing forged
    assert any('host="a\\" why=fake status=200 x=\\""' in line for line in refused)
    assert any("host=evilU+001B[2JU+001B[31mFAKEU+001B[0m" in line for line in refused)
    assert any("host=aU+202Egnp.exe" in line for line in refused)
    assert any("U+001B]0;pwnedU+0007" in line for line in refused)


def test_hostile_headers_come_out_escaped_in_json(make_server):
    server = make_server("--log-format", "json")
    inject(server)
    text = wait_for(lambda: server.stderr_text().count("request refused") >= len(INJECTIONS) and server.stderr_text())
    assert "\\u001b" not in text.lower() and "\\u0000" not in text and "\\r" not in text
    assert not hidden(text) and "\u202e" not in text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    hosts = [line.get("host", "") + line.get("origin", "") for line in lines if line["message"] == "request refused"]
    assert len(hosts) == len(INJECTIONS)
    for value_ in hosts:
        assert not hidden(value_) and "\u202e" not in value_, value_
    assert any(h == "aU+202Egnp.exe" for h in hosts) and any(h == "aU+2028bU+2029cU+0085" for h in hosts)
