"""The network lab over real sockets: simulated delay and jitter per connection (docs/PROTOCOL.md
`configure` `network`, docs/PERFORMANCE.md "Network lab"). Timing is checked the benchmark way:
the figures are printed, and only generous bounds are asserted (a shared 2-core CI machine)."""
import asyncio
import json
import time

from client import Client
from test_process_bounds import drag
from sandbox_env import ROOT
from sandbox_env import run_sandbox
import rawws

EXAMPLES = sorted((ROOT / "examples" / "scripts").glob("*.json"))
# A grab lands on a running completion where it is when the touch reaches the server, and the
# completion runs on the server's clock: through 150 ms it lands later (here: after the
# completion ended, so the script's expectations cannot hold). Not a decision the network may
# leave alone, by its nature (UIKit's presentation layer is read when the touch arrives, too).
TIMING_DEPENDENT = {"grab-during-completion.json", "property-animator-pause-and-continue.json"}


def test_pan_scripts_decide_the_same_through_150_ms_as_in_process(server):
    scripts = [p for p in EXAMPLES if p.name not in TIMING_DEPENDENT]
    assert len(scripts) >= 20
    result = run_sandbox("pan", *scripts, "--local", "--url", server.url, "--network", "150±60", "--json", timeout=600)
    # 1: a script missed an expectation (checked below, report by report); more: no reports.
    assert result.returncode in (0, 1), result.stdout + result.stderr
    reports = json.loads(result.stdout)
    assert len(reports) == 2 * len(scripts)
    for local, remote in zip(reports[::2], reports[1::2]):
        assert local["mode"] == "local" and remote["mode"] == server.url
        # A frame count is the link's, not a decision: through 150 ± 60 ms frames overtake one
        # another and the newest wins, so a script's `frames` range can miss by a few (kind-pop:
        # 37–42 of 40…70 over six runs on the 2-core VM). Everything the script decides must hold.
        decided = [f for f in remote["failures"] if not f.startswith("frames:")]
        assert local["passed"] and not decided, (local["name"], local["failures"], remote["failures"])
        assert local["outcome"] == remote["outcome"] and local["progress"] == remote["progress"]
        assert local["lifecycle"] == remote["lifecycle"]
        if remote["latencyMs"]:
            # Through the simulator: at least the two 90 ms floors of 150 ± 60 each way.
            assert remote["latencyMs"]["p50"] >= 180, remote["latencyMs"]


def test_input_to_frame_follows_the_configured_delay(server):
    result = run_sandbox("latency", "--url", server.url, "--network", "60±20", "--samples", "300", "--rate", "100",
                         "--no-progress", "--json", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    print(f"\n60±20 each way: input→frame {report['inputToFrameMs']}, simulated {report['simulatedMs']}, "
          f"rest {report['restMs']}, ping {report['pingMs']}")
    assert report["network"] == {"delayMs": 60, "jitterMs": 20, "seed": 1}
    simulated, total, rest = report["simulatedMs"], report["inputToFrameMs"], report["restMs"]
    # Each way 40…80 ms: the simulated part of a round trip is within 80…160 ms (exactly, by
    # construction; the timer fires a little late, never early).
    assert 80 <= simulated["p50"] <= 160 and simulated["max"] <= 161 + 50
    assert 80 <= total["p50"] <= 160 + 50
    assert rest["p50"] < 25, rest
    assert 80 <= report["pingMs"]["p50"] <= 160 + 50


def test_a_viewer_watches_through_its_own_link(server):
    async def run():
        driver = await Client.connect(server.url)
        session = driver.welcome["session"]
        viewer, _ = await Client.viewer(server.url, session)
        await viewer.send({"type": "configure", "network": {"delayMs": 200}})
        link = await viewer.expect("link")
        assert link["network"] == {"delayMs": 200, "jitterMs": 0, "seed": 1}
        await driver.pointer("down", 100, dt=0)
        seq = await driver.pointer("move", 160)
        mine = await driver.until(lambda m: m["type"] == "frame" and m.get("ack") == seq)
        theirs = await viewer.until(lambda m: m["type"] == "frame" and m.get("ack") == seq)
        # The driver's own link is loopback: no stamps. The viewer's frame left the server when
        # the driver's did and was held 200 ms on the way.
        assert "delivered" not in mine and "arrived" not in mine
        assert theirs["sent"] == mine["sent"] and 199.5 <= theirs["delivered"] - theirs["sent"] <= 260
        await driver.close()
        await viewer.close()
    asyncio.run(run())


def test_a_drag_that_outgrows_what_the_link_holds_still_arrives_while_it_lasts(server):
    """A move every 4 ms through 1.5 s each way: the frames on their way back outgrow the room a
    link has (256 KiB with the reply queue), so they are thinned as they leave, evenly, while
    those on the path arrive at their due time: frames keep coming, 1.5 s late, for as long as
    the drag goes on (`NetworkLinkTests.framesFasterThanTheRoomArriveThinnedEvenly`). When the
    oldest held frame gave way, each was dropped before its due time and the client saw nothing
    until the drag stopped."""
    async def run():
        client = await Client.connect(server.url, max_queue=None)
        await client.send({"type": "configure", "network": {"delayMs": 1500}})
        await client.expect("link")
        stop = asyncio.Event()
        dragging = asyncio.create_task(drag(client, stop))
        started = time.monotonic()
        arrivals = []
        while (elapsed := time.monotonic() - started) < 6:
            message = await client.recv()
            if message["type"] == "frame":
                arrivals.append(elapsed)
        moves = client.seq
        stop.set()
        await dragging
        await client.close()
        # The first moves reach the session after 1.5 s, their frames the client after 3 s.
        late = [t for t in arrivals if t >= 3.2]
        gaps = [b - a for a, b in zip(late, late[1:])]
        print(f"\n{moves} moves in 6 s through 1.5 s each way: {len(late)} frames from 3.2 s on, "
              f"longest gap {max(gaps, default=0):.3f} s")
        # Thinned evenly: ~50 ms apart on the 2-core VM; a room full before its first frame was due
        # left half the delay (0.5 s) without one.
        assert len(late) >= 40 and max(gaps) < 0.25 and late[-1] > 5.5, late
    asyncio.run(run())


def test_serve_network_is_every_new_connections_default(make_server):
    server = make_server("--network", "100±0")

    async def run():
        started = time.monotonic()
        client = await Client.connect(server.url)  # the welcome crossed the simulated network
        assert time.monotonic() - started >= 0.095
        link = await client.expect("link") if not client.frames else None
        assert link is None or link["network"]["delayMs"] == 100
        started = time.monotonic()
        await client.send({"type": "ping", "seq": 1, "t": 5})
        await client.expect("pong")
        assert 0.195 <= time.monotonic() - started < 0.6
        await client.close()
    asyncio.run(run())


def test_a_flood_through_two_seconds_of_delay_stays_bounded(server):
    """Held messages count against the connection's bounds: the held input pauses reading (TCP's
    back-pressure), held output sheds old frames; memory stays flat and the server answers."""
    s = rawws.websocket(server.host, server.port)
    rawws.read_frame(s)  # welcome
    rawws.read_frame(s)  # first frame
    s.sendall(rawws.frame(json.dumps({"type": "configure", "network": {"delayMs": 2000}})))
    before = rawws.rss_kib(server.process.pid)
    # Pointer moves (each answered by a ~1 KB frame, held on the way back) and 30 KB messages
    # (each answered by a short error), as fast as the socket takes them.
    moves = [rawws.frame(json.dumps({"type": "pointer", "phase": "down" if i == 0 else "move", "x": 100 + i % 200,
                                     "y": 400, "t": 1000 + i, "seq": i + 1})) for i in range(20_000)]
    big = rawws.frame('{"type":"ping","seq":1,"t":1,"' + "x" * 30_000 + '":0}', check=False)
    s.setblocking(False)
    sent = 0
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and sent < len(moves):
        try:
            s.sendall(moves[sent] if sent % 4 else big)
            sent += 1
        except BlockingIOError:
            time.sleep(0.01)  # the server stopped reading: back-pressure, as it should
    grown = rawws.rss_kib(server.process.pid) - before
    print(f"\nflood through 2 s of delay: {sent} messages sent in 3 s, RSS grew {grown} KiB")
    assert grown < 10 * 1024, f"RSS grew {grown} KiB"
    s.close()
    # The server and another connection carry on.
    async def other():
        client = await Client.connect(server.url)
        await client.send({"type": "ping", "seq": 1, "t": 5})
        await client.expect("pong")
        await client.close()
    asyncio.run(other())
