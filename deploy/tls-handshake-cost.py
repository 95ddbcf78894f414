"""What one full TLS handshake costs `sandbox serve`: N fresh handshakes (no resumption, TLS 1.3)
from one client, and the server's CPU (utime + stime from /proc/PID/stat) before and after.
docs/DEPLOY.md's table of RSA-2048 against ECDSA P-256 comes from it:

    python3 deploy/tls-handshake-cost.py .build/debug/sandbox CERT KEY 400

The server runs with `--handshakes-per-address` high enough that none is refused."""
import os
import re
import socket
import ssl
import subprocess
import sys
from pathlib import Path

binary, cert, key, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
web = Path(__file__).resolve().parents[1] / "web"
server = subprocess.Popen(
    [binary, "serve", "--port", "0", "--web-root", str(web), "--tls-cert", cert, "--tls-key", key,
     "--handshakes-per-address", "100000", "--log-level", "warning"],
    stdout=subprocess.PIPE, text=True)
port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))


def cpu_seconds():
    fields = open(f"/proc/{server.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
client.check_hostname = False
client.verify_mode = ssl.CERT_NONE
before, done = cpu_seconds(), 0
for _ in range(count):
    try:
        with client.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="localhost"):
            done += 1
    except (OSError, ssl.SSLError):
        pass
spent = cpu_seconds() - before
server.terminate()
server.wait()
print(f"{Path(cert).name}: {done}/{count} handshakes, server CPU {spent * 1000 / max(done, 1):.2f} ms each")
