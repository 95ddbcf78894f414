"""Logs (swift-log: --log-level, --log-format text|json) and metrics (GET /metrics, Prometheus'
text format) of `sandbox serve`: one line per connection opened and closed, per
refused request, per error sent (debug); the metrics count what happened, stay on the Host
allow-list, fold client-chosen labels, and go away with --no-metrics."""
import asyncio
import json
import re
import signal
import socket
import time

import rawws
from sandbox_env import loosened
from client import Client


def http_get(server, path, host_header=None, method="GET", timeout=5.0):
    """(status, headers, body) of one HTTP/1.1 request on its own connection."""
    host = host_header if host_header is not None else f"{server.host}:{server.port}"
    s = rawws.connect(server.host, server.port, timeout)
    try:
        s.sendall(f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            match = re.search(rb"content-length: *(\d+)", head, re.I)
            if match and len(body) >= int(match.group(1)):
                break
    finally:
        s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return rawws.status(head), head.decode("latin-1").lower(), body.decode()


def scrape(server):
    status, _, body = http_get(server, "/metrics")
    assert status == 200, (status, body[:200])
    return body


def value(body, name, **labels):
    """One sample's value; 0 when the series is absent."""
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    series = f"{name}{{{wanted}}}" if labels else name
    for line in body.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return 0.0


def json_lines(server):
    lines = [line for line in server.stderr_text().splitlines() if line.strip()]
    return [json.loads(line) for line in lines]


def wait_for(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(0.05)
    return predicate()


async def drive_and_watch(url, close_code=1000):
    driver = await Client.connect(url)
    session = driver.welcome["session"]
    viewer, _ = await Client.viewer(url, session)
    await driver.send({"type": "ping", "seq": 1, "t": 0})
    await driver.expect("pong")
    await driver.send({"type": "no-such-type"}, check=False)
    await driver.expect("error")
    await driver.send({"type": "pointer", "phase": "down", "x": 100, "y": 300, "t": 1000, "seq": 1})
    await driver.send({"type": "pointer", "phase": "move", "x": 100, "y": 350, "t": 1016, "seq": 2})
    await driver.expect("frame")
    await viewer.expect("frame")
    await viewer.ws.close(code=close_code)
    await driver.ws.close()
    return session


def test_json_logs_one_line_per_connection_and_refusal_and_error(make_server):
    server = make_server("--log-format", "json", "--log-level", "debug")
    session = asyncio.run(drive_and_watch(server.url, close_code=4321))
    assert rawws.status(rawws.request(server.host, server.port,
                                      rawws.upgrade_request(server.host, server.port, host_header="evil.example"))) == 403
    assert rawws.status(rawws.request(server.host, server.port, rawws.upgrade_request(
        server.host, server.port, origin="http://evil.example\x01" + "x" * 300))) == 403

    def closed_lines():
        lines = [line for line in json_lines(server) if line["message"] == "connection closed"]
        return lines if len(lines) >= 2 else None

    closed = wait_for(closed_lines)
    assert closed, server.stderr_text()
    lines = json_lines(server)  # every line parses as JSON (json.loads above would raise)
    for line in lines:
        assert {"ts", "level", "label", "message"} <= line.keys()
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["ts"])

    opened = [line for line in lines if line["message"] == "connection opened"]
    assert len(opened) == 2
    assert all(line["peer"] == "127.0.0.1" and line["role"] == "driver" for line in opened)
    driver = next(line for line in closed if line["session"] == session and line["role"] == "driver")
    viewer = next(line for line in closed if line["role"] == "viewer")
    assert viewer["session"] == session and viewer["close_code"] == 4321 and viewer["closed_by"] == "client"
    assert driver["close_code"] == 1000 and driver["bytes_in"] > 100 and driver["bytes_out"] > 500
    assert driver["frames_out"] >= 2 and isinstance(driver["duration_s"], float) and driver["duration_s"] >= 0

    errors = [line for line in lines if line["message"] == "error sent"]
    assert [e["code"] for e in errors] == ["unknown-type"] and errors[0]["level"] == "debug"

    refused = [line for line in lines if line["message"] == "request refused"]
    assert [(r["why"], r["status"]) for r in refused] == [("host", 403), ("origin", 403)]
    assert refused[0]["host"] == "evil.example"
    # A client's text is made visible (control characters as U+XXXX), cut (64 bytes and "…") and
    # escaped: the line stays one JSON object.
    assert refused[1]["origin"].startswith("http://evil.exampleU+0001xxx") and refused[1]["origin"].endswith("…")
    assert len(refused[1]["origin"].encode()) <= 64 + 3


def test_text_logs_and_levels(make_server):
    server = make_server("--log-level", "warning")
    asyncio.run(drive_and_watch(server.url))
    server.stop()
    text = server.stderr_text()
    assert "connection opened" not in text and "listening" not in text  # info is below warning

    server = make_server()  # text at info: no debug line
    asyncio.run(drive_and_watch(server.url))
    wait_for(lambda: server.stderr_text().count("connection closed") == 2)
    text = server.stderr_text()
    assert text.count("connection opened") == 2 and text.count("connection closed") == 2
    assert "close_code=1000" in text and "error sent" not in text
    assert not text.lstrip().startswith("{")


def test_stdout_holds_only_the_ready_line(make_server):
    server = make_server("--log-format", "json")
    asyncio.run(drive_and_watch(server.url))
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=10) == 0
    # The fixture read the ready line; everything else went to stderr.
    assert server.process.stdout.read() == ""
    assert any(line["message"] == "stopped" for line in json_lines(server))


def test_bad_log_options_are_usage_errors():
    from sandbox_env import run_sandbox
    for args in (["--log-level", "loud"], ["--log-format", "xml"], ["--node", "a-b"], ["--node", "x" * 17],
                 ["--tls-cert", "/nonexistent"], ["--tls-cert", "/etc/hostname", "--tls-key", "/nonexistent"]):
        result = run_sandbox("serve", "--port", "0", *args, timeout=10)
        assert result.returncode == 64, (args, result.stderr)
        assert result.stdout == ""


def test_metrics_count_what_happened(make_server):
    server = make_server()
    before = scrape(server)
    assert "# TYPE sandbox_frames_sent_total counter" in before
    assert "# TYPE sandbox_input_duration_seconds histogram" in before
    session = asyncio.run(drive_and_watch(server.url, close_code=4999))
    assert session

    def settled():
        body = scrape(server)
        return body if value(body, "sandbox_closes_total", code="4xxx") == 1 and value(body, "sandbox_closes_total", code="1000") == 1 else None

    body = wait_for(settled)
    assert body, scrape(server)
    assert value(body, "sandbox_messages_received_total", type="ping") == 1
    assert value(body, "sandbox_messages_received_total", type="pointer") == 2
    assert value(body, "sandbox_messages_received_total", type="join") == 1
    assert value(body, "sandbox_messages_received_total", type="invalid") == 1
    assert value(body, "sandbox_errors_total", code="unknown-type") == 1
    assert value(body, "sandbox_messages_sent_total", type="welcome") == 2
    assert value(body, "sandbox_messages_sent_total", type="pong") == 1
    assert value(body, "sandbox_frames_sent_total") >= 4
    assert value(body, "sandbox_sent_bytes_total") > 1000
    assert value(body, "sandbox_received_bytes_total") > 100
    assert value(body, "sandbox_input_duration_seconds_count") == 5
    # A client-chosen close code is folded: no series per code.
    assert 'code="4999"' not in body and 'code="4321"' not in body


def test_metrics_gauges_and_tick_lateness(make_server):
    server = make_server()

    async def run():
        driver = await Client.connect(server.url)
        viewer, _ = await Client.viewer(server.url, driver.welcome["session"])
        await driver.send({"type": "configure", "duration": 0.3})
        await driver.expect("configured")
        await driver.send({"type": "play"})
        await driver.until(lambda m: m["type"] == "transition" and m.get("event") in ("finished", "cancelled"))
        def watched():
            body = scrape(server)
            return body if value(body, "sandbox_connections", role="viewer") == 1 else None

        body = await asyncio.to_thread(wait_for, watched)
        await viewer.close()
        await driver.close()
        return body

    body = asyncio.run(run())
    assert body, scrape(server)
    assert value(body, "sandbox_connections", role="driver") == 1
    assert value(body, "sandbox_connections", role="viewer") == 1
    assert value(body, "sandbox_sessions") == 1
    # 18 ticks in 0.3 s at 60 fps; a sanitized server is slow enough to skip most (late ticks
    # are skipped, not burst).
    assert value(body, "sandbox_tick_lateness_seconds_count") >= loosened(5, thread=1, address=1)
    assert value(body, "sandbox_tick_lateness_seconds_bucket", le="0.1") >= 1


def test_metrics_are_on_the_host_allow_list_and_only_a_get(make_server):
    server = make_server("--allow-host", "lab.example")
    assert http_get(server, "/metrics", host_header="evil.example")[0] == 403
    assert http_get(server, "/metrics", host_header="")[0] == 403
    assert http_get(server, "/metrics", host_header="lab.example")[0] == 200
    assert http_get(server, "/metrics", method="POST")[0] in (405, 403, 400)
    assert http_get(server, "/metrics/anything")[0] == 404
    status, head, body = http_get(server, "/metrics")
    assert status == 200 and "content-type: text/plain; version=0.0.4" in head
    assert value(body, "sandbox_refused_total", reason="host") == 2
    # The page is still served beside it.
    assert http_get(server, "/")[0] == 200


def test_no_metrics(make_server):
    server = make_server("--no-metrics")
    assert http_get(server, "/metrics")[0] == 404
    assert http_get(server, "/")[0] == 200


def test_hostile_requests_leave_the_server_serving(make_server):
    server = make_server("--log-format", "json")
    # A 10 KB session query on the WebSocket URL and an over-long header: lws' header space is
    # 4 KiB, so it refuses (or hangs up) before any upgrade; nothing is logged beyond a line.
    long_query = rawws.upgrade_request(server.host, server.port).replace("GET / ", "GET /?session=" + "a" * 10_000 + " ", 1)
    assert rawws.status(rawws.request(server.host, server.port, long_query)) in (None, 400, 403, 414, 431)
    long_header = rawws.upgrade_request(server.host, server.port, extra="X-Filler: " + "b" * 20_000 + "\r\n")
    assert rawws.status(rawws.request(server.host, server.port, long_header)) in (None, 400, 431)
    assert http_get(server, "/metrics")[0] == 200
    asyncio.run(drive_and_watch(server.url))
    assert len(server.stderr_text()) < 20_000
