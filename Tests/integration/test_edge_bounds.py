"""The per-address limits at the door, each attack at a small scale: one address holding every
connection slot (`--max-connections-per-address`: refused at accept, and at the upgrade for
sockets accepted together), and one address starting TLS handshakes as fast as it can
(`--handshakes-per-address`: refused before the handshake). The attacker is 127.0.0.2, the
victim 127.0.0.3: 127.0.0.1, the balancer's address, is exempt (docs/SECURITY.md)."""
import os
import socket
import ssl
import time

import rawws
from sandbox_env import ROOT
from test_observability import scrape, value, wait_for

ATTACKER, VICTIM = "127.0.0.2", "127.0.0.3"
ECDSA = (ROOT / "deploy" / "example-ecdsa-cert.pem", ROOT / "deploy" / "example-ecdsa-key.pem")


def connect_from(source, port, timeout=5.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def upgrade(s, port):
    """Sends the WebSocket upgrade on `s`; the status answered (None when the socket was closed)."""
    try:
        s.sendall(rawws.upgrade_request("127.0.0.1", port).encode())
        return rawws.status(rawws.read_head(s))
    except OSError:
        return None


def websocket_from(source, port):
    s = connect_from(source, port)
    return s, upgrade(s, port)


def test_one_address_cannot_take_every_connection(make_server):
    server = make_server("--max-connections-per-address", "4", "--log-format", "json")
    port = server.port
    held = []
    try:
        for _ in range(4):
            s, status = websocket_from(ATTACKER, port)
            held.append(s)
            assert status == 101
        # Counted once established, which the 101 can overtake on another thread (`--threads`).
        assert wait_for(lambda: server.stderr_text().count('"message":"connection opened"') == 4)
        # The fifth from the same address is closed at accept: no HTTP answer at all.
        s, status = websocket_from(ATTACKER, port)
        s.close()
        assert status is None
        # Another address, and the exempt 127.0.0.1, are served.
        for source in (VICTIM, "127.0.0.1"):
            s, status = websocket_from(source, port)
            held.append(s)
            assert status == 101, source
        assert wait_for(lambda: server.stderr_text().count('"message":"connection opened"') == 6)
        # Sockets accepted while the address held fewer: counted again at the upgrade (503).
        held.pop(0).close()
        assert wait_for(lambda: '"message":"connection closed"' in server.stderr_text())
        early = [connect_from(ATTACKER, port) for _ in range(3)]
        # The listening socket's queue is first come, first served: once a later request is
        # answered, the three were accepted.
        assert rawws.status(rawws.request("127.0.0.1", port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) == 200
        statuses = []
        for s in early:
            statuses.append(upgrade(s, port))
            if statuses[-1] == 101:
                assert wait_for(lambda: server.stderr_text().count('"message":"connection opened"') == 7)
        held += early
        assert sorted(statuses, key=str) == [101, 503, 503], statuses
        text = wait_for(lambda: '"why":"per-address"' in server.stderr_text() and server.stderr_text())
        assert '"message":"connection refused"' in text and f'"peer":"{ATTACKER}"' in text
        assert "--max-connections-per-address" in text
        body = scrape(server)
        assert value(body, "sandbox_refused_total", reason="per-address") >= 3
    finally:
        for s in held:
            s.close()


# One client context for every handshake (making one loads the system's CAs: ~0.1 s).
CLIENT = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
CLIENT.check_hostname = False
CLIENT.verify_mode = ssl.CERT_NONE


def tls_handshake_from(source, port):
    """A full TLS handshake from `source`: True when it completed."""
    try:
        with CLIENT.wrap_socket(connect_from(source, port, timeout=3), server_hostname="localhost"):
            return True
    except (OSError, ssl.SSLError):
        return False


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_one_address_cannot_spend_the_server_on_tls_handshakes(make_server):
    server = make_server("--tls-cert", str(ECDSA[0]), "--tls-key", str(ECDSA[1]), "--handshakes-per-address", "2")
    started, cpu = time.monotonic(), cpu_seconds(server.process.pid)
    done = sum(tls_handshake_from(ATTACKER, server.port) for _ in range(150))
    elapsed = time.monotonic() - started
    spent = cpu_seconds(server.process.pid) - cpu
    # A burst of 4, then 2 a second; the rest closed at accept, before any handshake work.
    assert 4 <= done <= 4 + 2 * elapsed + 2, (done, elapsed)
    assert tls_handshake_from(VICTIM, server.port)
    assert tls_handshake_from("127.0.0.1", server.port)  # exempt
    # 150 attempts cost the server about what the handshakes it did cost (~2 ms each, debug)
    # plus little per refusal (an accept, a getpeername, a close).
    assert spent < 0.003 * done + 0.001 * 150 + 0.3, (spent, done)
    text = wait_for(lambda: "why=handshake-rate" in server.stderr_text() and server.stderr_text())
    assert text and f"peer={ATTACKER}" in text and "--handshakes-per-address" in text, server.stderr_text()
    assert value(scrape_tls(server), "sandbox_refused_total", reason="handshake-rate") >= 150 - done


def scrape_tls(server):
    with CLIENT.wrap_socket(socket.create_connection(("127.0.0.1", server.port), timeout=5),
                            server_hostname="localhost") as s:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data.decode(errors="replace")


def test_per_address_options_are_checked(make_server):
    from sandbox_env import run_sandbox
    for args in (["--max-connections-per-address", "-1"], ["--handshakes-per-address", "0"],
                 ["--handshakes-per-address", "nan"]):
        result = run_sandbox("serve", "--port", "0", "--web-root", str(ROOT / "web"), *args, timeout=10)
        assert result.returncode == 64, (args, result.stderr)
