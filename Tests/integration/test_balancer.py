"""Many processes: two `sandbox serve --node n1|n2` behind Debian's HAProxy running
deploy/haproxy.cfg itself (its ports swapped for free ones), all on loopback. A session driven
through the balancer is joined through the balancer from a second client, which sees the
driver's frames; `sandbox bench --url` through it reports the balancer's cost per frame."""
import asyncio
import json
import re
import time

import pytest

import rawws
from balancer import Balancer
from client import Client
from sandbox_env import run_sandbox

@pytest.fixture
def layout(make_server, tmp_path):
    nodes = [make_server("--node", "n1"), make_server("--node", "n2")]
    balancer = Balancer(tmp_path, nodes)
    yield balancer, nodes
    balancer.stop()


def test_a_session_driven_through_the_balancer_is_joined_through_it(layout):
    balancer, _ = layout

    async def run():
        driver = await Client.connect(balancer.url)
        session = driver.welcome["session"]
        node = session.split("-")[0]
        assert node in ("n1", "n2") and re.fullmatch(r"n[12]-[0-9a-f]{32}", session)

        # A plain new connection is balanced to the other process (least connections), where
        # a join cannot find the session: what the routing below is for.
        other = await Client.connect(balancer.url)
        assert other.welcome["session"].split("-")[0] != node
        await other.send({"type": "join", "session": session})
        refused = await other.until(lambda m: m["type"] in ("joined", "error"))
        assert refused["type"] == "error" and refused["code"] == "unknown-session"

        # With ?session= the balancer sends the viewer to the session's process.
        viewer = await Client.connect(f"{balancer.url}?session={session}")
        assert viewer.welcome["session"].split("-")[0] == node
        await viewer.send({"type": "join", "session": session})
        joined = await viewer.until(lambda m: m["type"] in ("joined", "error"))
        assert joined["type"] == "joined" and joined["session"] == session, joined

        # The driver pans; the viewer sees the same frames.
        await driver.pan(150)
        last = driver.frames[-1]
        seen = await viewer.until(lambda m: m["type"] == "frame" and m["n"] >= last["n"])
        assert seen["n"] == last["n"] and seen["progress"] == last["progress"]
        assert any(f["progress"] > 0 for f in viewer.frames)
        for c in (viewer, other, driver):
            await c.close()

    asyncio.run(asyncio.wait_for(run(), 30))


def test_hostile_queries_through_the_balancer(layout):
    balancer, nodes = layout
    long_query = rawws.upgrade_request("127.0.0.1", balancer.port).replace("GET / ", "GET /?session=" + "n1-" + "a" * 10_000 + " ", 1)
    assert rawws.status(rawws.request("127.0.0.1", balancer.port, long_query)) == 414  # refused at the edge
    # A session named for no process is balanced like a new connection; its join just fails.
    async def run():
        c = await Client.connect(f"{balancer.url}?session=n9-{'0' * 32}")
        await c.send({"type": "join", "session": f"n9-{'0' * 32}"})
        reply = await c.until(lambda m: m["type"] in ("joined", "error"))
        assert reply["code"] == "unknown-session"
        await c.close()
    asyncio.run(asyncio.wait_for(run(), 10))
    for node in nodes:
        assert node.process.poll() is None


def test_bench_through_the_balancer_reports_its_cost_per_frame(layout):
    balancer, nodes = layout
    result = run_sandbox("bench", "--url", balancer.url, "--balancer-pid", balancer.process.pid, "--sessions", "20",
                         "--seconds", "1", "--json", timeout=60)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[0])
    measured = report["result"] if "result" in report else report
    text = json.dumps(report)
    assert "balancerMicrosecondsPerFrame" in text, text
    per_frame = re.search(r'"balancerMicrosecondsPerFrame":\s*([0-9.e+-]+)', text)
    # /proc counts CPU in 10 ms ticks: a short light run may read 0; never negative nor absurd.
    assert per_frame and 0 <= float(per_frame.group(1)) < 1000, text
    assert measured is not None and "balancer CPU" in run_sandbox(
        "bench", "--url", balancer.url, "--balancer-pid", balancer.process.pid, "--sessions", "5", "--seconds", "1",
        timeout=60).stdout
    # The usage errors: a pid without --url, a pid that is no process.
    assert run_sandbox("bench", "--balancer-pid", balancer.process.pid).returncode == 64
    assert run_sandbox("bench", "--url", balancer.url, "--balancer-pid", 999_999_999).returncode == 64


def test_node_names_prefix_session_ids(make_server):
    server = make_server("--node", "lab7")

    async def run():
        c = await Client.connect(server.url)
        assert re.fullmatch(r"lab7-[0-9a-f]{32}", c.welcome["session"])
        await c.close()
    asyncio.run(run())


# Paths that reach a node's /metrics once libwebsockets has decoded and normalised them, and
# more of the same kind; each must be refused at the balancer, never answered by a node.
METRICS_BYPASSES = [
    "/metrics", "/metrics/", "//metrics", "/%6detrics", "/%6Detrics", "/./metrics", "/x/../metrics", "/%2fmetrics",
    "/%2Fmetrics", "/%2e/metrics", "/x/%2e%2e/metrics", "/x/..%2fmetrics", "/.//./metrics", "///metrics?x=1",
    "/METRICS", "/%zz/../metrics", "/metrics%00", "/metrics;x",
]


def test_metrics_cannot_be_reached_through_the_balancer_by_any_spelling(layout):
    balancer, nodes = layout
    for node in nodes:  # the node itself answers, on its own port (the scraper's way)
        assert rawws.status(rawws.request("127.0.0.1", node.port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) == 200
    answered = {}
    for path in METRICS_BYPASSES + [f"http://127.0.0.1:{balancer.port}//metrics"]:
        head = rawws.request("127.0.0.1", balancer.port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answered[path] = rawws.status(head)
    assert all(status in (400, 404) for status in answered.values()), answered
    # The page itself still passes.
    assert rawws.status(rawws.request("127.0.0.1", balancer.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) == 200


def page_status(port):
    """GET / on a new connection: the status, or None when the connection was refused or cut."""
    try:
        return rawws.status(rawws.request("127.0.0.1", port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", timeout=3))
    except OSError:
        return None


def test_the_balancer_limits_connections_per_address(layout):
    balancer, _ = layout
    # 64 connections open from one address; the 65th is closed before a byte is read.
    held = [rawws.connect("127.0.0.1", balancer.port) for _ in range(64)]
    try:
        assert page_status(balancer.port) is None
        held.pop().close()
        assert wait_until(lambda: page_status(balancer.port) == 200)
    finally:
        for s in held:
            s.close()
    # New connections past 200 in 10 s (20 a second) are refused; the ones above count too.
    statuses = [page_status(balancer.port) for _ in range(260)]
    assert 100 <= statuses.count(200) <= 200 - 64, statuses
    assert statuses[-1] is None


def wait_until(predicate, seconds=5):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False
