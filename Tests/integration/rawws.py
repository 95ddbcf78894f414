"""Raw sockets for hostile-client tests: what `websockets` would hide (never reading, half-closing,
odd HTTP requests) done by hand. Loopback only; every call is bounded by a timeout."""
import base64
import json
import os
import socket
import struct
import sys
import time
import weakref
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from wire_schema import VERSIONS, check_received, check_sent  # noqa: E402

PROTOCOL = "transition-sandbox.v2"
# The version each socket of `websocket()` negotiated (read_frame checks by it).
VERSION_OF = weakref.WeakKeyDictionary()


def connect(host, port, timeout=5.0, rcvbuf=None, sndbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    if sndbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
    s.settimeout(timeout)
    s.connect((host, port))
    return s


def request(host, port, text, timeout=5.0):
    """Sends a raw HTTP request; returns the first response bytes (or b'' if the server closed)."""
    s = connect(host, port, timeout)
    try:
        s.sendall(text.encode("latin-1"))
        return read_head(s)
    finally:
        s.close()


def read_head(s, limit=65536):
    """Reads an HTTP response head exactly (what follows it, e.g. WebSocket frames, stays unread)."""
    data = b""
    try:
        while b"\r\n\r\n" not in data and len(data) < limit:
            peek = s.recv(4096, socket.MSG_PEEK)
            if not peek:
                break
            end = (data + peek).find(b"\r\n\r\n")
            take = len(peek) if end < 0 else end + 4 - len(data)
            data += s.recv(take)
    except (ConnectionResetError, socket.timeout):
        pass
    return data


def status(response):
    parts = response.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def upgrade_request(host, port, host_header=None, origin=None, upgrade="websocket", extra="", protocol=PROTOCOL):
    """`protocol`: the Sec-WebSocket-Protocol value (None: no such header)."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        "GET / HTTP/1.1",
        f"Host: {host_header if host_header is not None else f'{host}:{port}'}",
        f"Upgrade: {upgrade}",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    if protocol is not None:
        lines.append(f"Sec-WebSocket-Protocol: {protocol}")
    if origin:
        lines.append(f"Origin: {origin}")
    return "\r\n".join(lines) + "\r\n" + extra + "\r\n"


def websocket(host, port, rcvbuf=None, sndbuf=None, **headers):
    """An upgraded raw socket (the 101 read, nothing else)."""
    s = connect(host, port, rcvbuf=rcvbuf, sndbuf=sndbuf)
    s.sendall(upgrade_request(host, port, **headers).encode())
    head = read_head(s)
    assert status(head) == 101, head[:200]
    VERSION_OF[s] = VERSIONS[subprotocol(head)]
    return s


def subprotocol(head):
    """The `Sec-WebSocket-Protocol` of a response head (None if absent)."""
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"sec-websocket-protocol":
            return value.strip().decode()
    return None


def frame(payload, opcode=1, check=True):
    """A masked client frame. A text frame is checked against schema/ (Tests/wire_schema.py)
    unless `check=False`: the payload breaks the protocol on purpose."""
    if isinstance(payload, str):
        payload = payload.encode()
    if check and opcode == 1:
        check_sent(json.loads(payload))
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


def send_all_nonblocking(s, data, deadline):
    """Sends what the kernel takes until `deadline`; returns the bytes sent (a peer that does
    not read stops taking)."""
    s.setblocking(False)
    sent = 0
    while sent < len(data) and time.monotonic() < deadline:
        try:
            sent += s.send(data[sent:])
        except BlockingIOError:
            time.sleep(0.01)
    s.settimeout(5.0)
    return sent


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_share(pid, seconds=1.0):
    """The process's CPU use over `seconds`, as a fraction of one core."""
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return (cpu_seconds(pid) - before) / seconds


def rss_kib(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def descriptors(pid):
    """The process's open descriptors, less the two pipes a sanitizer runtime keeps to the
    llvm-symbolizer it starts on its first report (TSan symbolizes even the reports it then
    suppresses, see Tests/tsan.supp): they are the runtime's, not the server's."""
    fds = os.listdir(f"/proc/{pid}/fd")
    return len(fds) - len(symbolizer_pipes(pid, fds))


def symbolizer_pipes(pid, fds):
    pipes = set()
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("pipe:"):
            pipes.add(target)
    if not pipes:
        return set()
    held = set()
    for proc in Path("/proc").iterdir():
        try:
            if not proc.name.isdigit() or b"symbolizer" not in (proc / "cmdline").read_bytes().split(b"\0")[0]:
                continue
            for fd in (proc / "fd").iterdir():
                target = os.readlink(fd)
                if target in pipes:
                    held.add(target)
        except OSError:
            continue
    return held


def read_exact(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def read_frame(s):
    """One server frame (unmasked): (opcode, payload). A text frame is checked against schema/
    (the version `websocket()` negotiated; either, on a socket upgraded by the test itself)."""
    b0, b1 = read_exact(s, 2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", read_exact(s, 2))[0]
    elif n == 127:
        n = struct.unpack("!Q", read_exact(s, 8))[0]
    opcode, payload = b0 & 0x0F, read_exact(s, n)
    if opcode == 1 and b0 & 0x80:
        check_received(json.loads(payload), VERSION_OF.get(s))
    return opcode, payload


def close_code(payload):
    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
