"""TLS: `sandbox serve --tls-cert FILE --tls-key FILE` serves https:// and wss://
through libwebsockets' own OpenSSL. The certificate is self-signed, made at test time by the
openssl CLI; the clients are Python's `ssl` with it as their only CA. Also: HTTP/2 is never
negotiated (the Host allow-list needs HTTP/1.1), the Host and Origin rules hold over TLS, the
livelock sequence stays harmless under TLS, and binding beyond loopback warns unless TLS or
--allow-host."""
import asyncio
import json
import socket
import ssl
import time

import pytest
import websockets

import rawws
from client import PROTOCOL
from sandbox_env import self_signed_certificate

TAB_PING = '{"type":"ping","' + "\t" * 32700 + '":0}'


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    return self_signed_certificate(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def tls_server(make_server, certificate):
    cert, key = certificate
    return make_server("--tls-cert", str(cert), "--tls-key", str(key))


def client_context(certificate, alpn=None):
    context = ssl.create_default_context(cafile=str(certificate[0]))
    if alpn:
        context.set_alpn_protocols(alpn)
    return context


def tls_socket(server, certificate, alpn=None, hostname="localhost"):
    raw = socket.create_connection((server.host, server.port), timeout=5)
    return client_context(certificate, alpn).wrap_socket(raw, server_hostname=hostname)


def tls_request(server, certificate, text):
    s = tls_socket(server, certificate)
    try:
        s.sendall(text.encode("latin-1"))
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        return data
    finally:
        s.close()


def page_status(server, certificate, host_header):
    return rawws.status(tls_request(server, certificate, f"GET / HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n"))


async def wss_session(server, certificate, origin=None):
    async with websockets.connect(server.url, ssl=client_context(certificate), subprotocols=[PROTOCOL],
                                  server_hostname="localhost", origin=origin, open_timeout=5) as ws:
        welcome = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "ping", "seq": 1, "t": 0}))
        while (message := json.loads(await ws.recv()))["type"] != "pong":
            pass
        return welcome, message


def test_https_page_and_wss_session(tls_server, certificate):
    assert tls_server.secure and tls_server.url.startswith("wss://") and tls_server.page.startswith("https://")
    p = tls_server.port
    assert page_status(tls_server, certificate, f"localhost:{p}") == 200
    assert page_status(tls_server, certificate, f"evil.example:{p}") == 403
    welcome, pong = asyncio.run(wss_session(tls_server, certificate, origin=f"https://127.0.0.1:{p}"))
    assert welcome["type"] == "welcome" and pong["seq"] == 1
    # The page's own origin is https:// now; the same name over http:// is another origin.
    def upgrade(**headers):
        return rawws.status(tls_request(tls_server, certificate, rawws.upgrade_request(tls_server.host, p, **headers)))

    assert upgrade(host_header=f"localhost:{p}", origin=f"http://localhost:{p}") == 403
    assert upgrade(host_header=f"evil.example:{p}", origin=f"https://evil.example:{p}") == 403
    assert upgrade(host_header=f"localhost:{p}", origin=f"https://localhost:{p}") == 101
    metrics = tls_request(tls_server, certificate, f"GET /metrics HTTP/1.1\r\nHost: localhost:{p}\r\nConnection: close\r\n\r\n")
    assert rawws.status(metrics) == 200


def test_http2_is_never_negotiated(tls_server, certificate):
    # Over h2 a request has `:authority`, no `Host`, and lws skips the HTTP filter: the Host
    # allow-list would be blind. ALPN offers only http/1.1.
    s = tls_socket(tls_server, certificate, alpn=["h2", "http/1.1"])
    assert s.selected_alpn_protocol() in ("http/1.1", None)
    s.close()


def test_plain_text_on_the_tls_port_is_not_served(tls_server, certificate):
    response = rawws.request(tls_server.host, tls_server.port, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", timeout=3)
    assert rawws.status(response) is None  # no HTTP answer in the clear
    assert page_status(tls_server, certificate, f"localhost:{tls_server.port}") == 200


def test_tls_with_service_threads(make_server, certificate):
    cert, key = certificate
    server = make_server("--tls-cert", str(cert), "--tls-key", str(key), "--threads", "2")
    sessions = set()
    for _ in range(4):  # dealt round robin: both threads serve TLS on the sockets handed to them
        welcome, _ = asyncio.run(wss_session(server, certificate))
        sessions.add(welcome["session"])
    assert len(sessions) == 4


def pointer_flood():
    messages = [rawws.frame(json.dumps({"type": "pointer", "phase": "down", "x": 10, "y": 400, "t": 0, "seq": 1}))]
    for i in range(2, 3000):
        messages.append(rawws.frame(json.dumps({"type": "pointer", "phase": "move", "x": 10 + (i % 300), "y": 400, "t": i, "seq": i})))
    return b"".join(messages)


@pytest.mark.parametrize("flood", ["tab-pings", "pointer-frames-into-a-full-window"])
def test_livelock_sequences_over_tls(tls_server, certificate, flood):
    """Never read, then a TCP half-close under TLS: unread replies, or frames filling a tiny
    receive window. OpenSSL must not leave lws holding part of a write, and the loop must not
    spin (docs/SECURITY.md, "TLS and the room check")."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if flood != "tab-pings":
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(5)
    raw.connect((tls_server.host, tls_server.port))
    s = client_context(certificate).wrap_socket(raw, server_hostname="localhost")
    s.sendall(rawws.upgrade_request(tls_server.host, tls_server.port, host_header=f"localhost:{tls_server.port}").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert rawws.status(head) == 101
    data = b"".join(rawws.frame(TAB_PING, check=False) for _ in range(40)) if flood == "tab-pings" else pointer_flood()
    s.setblocking(False)
    sent, deadline = 0, time.monotonic() + 5
    while sent < len(data) and time.monotonic() < deadline:
        try:
            sent += s.send(data[sent:sent + 16384])
        except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
            time.sleep(0.01)
    s.setblocking(True)
    # The TCP write side closes under the TLS session (no close_notify): what lws 4.1.6 spun on.
    raw = socket.socket(fileno=s.detach())
    raw.shutdown(socket.SHUT_WR)
    time.sleep(0.2)
    deadline = time.monotonic() + 3
    while (share := rawws.cpu_share(tls_server.process.pid, 0.5)) >= 0.2:
        assert time.monotonic() < deadline, f"server busy at {share:.0%} of a core"
    assert page_status(tls_server, certificate, f"localhost:{tls_server.port}") == 200
    asyncio.run(wss_session(tls_server, certificate))
    raw.close()
    tls_server.stop()
    assert tls_server.process.returncode == 0
    assert "partial" not in tls_server.stderr_text()


@pytest.mark.parametrize("extra, warns", [
    ([], True),
    (["--allow-host", "lab.example"], False),
    ("tls", False),
])
def test_binding_beyond_loopback_warns_unless_tls_or_allowed_hosts(make_server, certificate, extra, warns):
    if extra == "tls":
        extra = ["--tls-cert", str(certificate[0]), "--tls-key", str(certificate[1])]
    # Bound on every interface for a moment; only loopback is ever connected to.
    server = make_server("--host", "0.0.0.0", *extra)
    deadline = time.monotonic() + 2
    while "listening" not in server.stderr_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    text = server.stderr_text()
    assert ("warning" in text and "beyond loopback" in text) == warns, text
