"""Pans over a real WebSocket: finish, cancel, viewers, independent sessions, shutdown."""
import asyncio
import signal
import subprocess
import time

import pytest
import websockets

from client import Client
from sandbox_env import BINARY, ROOT


def run(coro):
    return asyncio.run(coro)


def test_binds_loopback_only(server):
    listening = subprocess.run(["ss", "-ltn"], capture_output=True, text=True, check=True).stdout
    lines = [l for l in listening.splitlines() if f":{server.port} " in l]
    assert lines, listening
    assert all("127.0.0.1:" in l for l in lines), lines


def test_pan_past_threshold_finishes(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "configure", "transition": "fade"})
        await c.expect("configured")
        await c.pan(150)  # 150 / 200 = 0.75
        event, final = await c.rest()
        assert event["event"] == "finished"
        progress = [f["progress"] for f in c.frames if f["phase"] in ("finishing", "finished")]
        assert progress == sorted(progress) and progress[-1] == 1
        assert [e["event"] for e in c.events][:2] == ["began", "released"]
        assert c.events[1]["decision"] == "finish" and c.events[1]["progress"] == 0.75
        await c.close()
    run(go())


def test_short_pan_cancels_back_to_the_first_frame(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "configure", "transition": "reveal", "fps": 60})
        configured = await c.expect("configured")
        assert configured["config"]["duration"] == 2.0
        first = await c.expect("frame")
        await c.pan(60)  # 0.3 → cancels over 0.3 × 2.0 s = 0.6 s
        event, final = await c.rest()
        assert event["event"] == "cancelled"
        cancelling = [f for f in c.frames if f["phase"] == "cancelling"]
        assert all(a["progress"] >= b["progress"] for a, b in zip(cancelling, cancelling[1:]))
        assert final["progress"] == 0 and final["layers"] == first["layers"]
        # The burst's release maps to the client's own (later) timestamp; the completion runs
        # from there: first moving frame to the final one ≈ 0.6 s less up to one tick.
        moving = [f for f in cancelling if f["progress"] < 0.3]
        elapsed = final["sent"] - moving[0]["sent"]
        assert 600 - 2 * 1000 / 60 - 20 <= elapsed <= 600 + 100, elapsed
        # at 60 fps: about 0.6 × 60 = 36 frames (a loaded machine may skip a few ticks)
        assert 25 <= len(cancelling) <= 40, len(cancelling)
        await c.close()
    run(go())


def test_a_viewer_sees_the_drivers_frames_and_is_told_when_it_ends(server):
    async def go():
        driver = await Client.connect(server.url)
        viewer, joined = await Client.viewer(server.url, driver.welcome["session"])
        assert joined["session"] == driver.welcome["session"]
        await driver.pan(150)
        await driver.rest()
        event, final = await viewer.rest()
        assert event["event"] == "finished"
        assert final["n"] == driver.frames[-1]["n"] and final["layers"] == driver.frames[-1]["layers"]
        viewer_ns = [f["n"] for f in viewer.frames]
        assert viewer_ns == sorted(viewer_ns)  # latest state wins: in order, maybe coalesced
        await viewer.send({"type": "pointer", "phase": "down", "x": 1, "y": 1, "t": 1, "seq": 1})
        assert (await viewer.expect("error"))["code"] == "not-driver"
        await driver.close()
        ended = await viewer.expect("session-ended")
        assert ended["session"] == driver.welcome["session"]
        await viewer.close()
    run(go())


def test_two_sessions_do_not_interfere(server):
    async def go():
        a = await Client.connect(server.url)
        b = await Client.connect(server.url)
        assert a.welcome["session"] != b.welcome["session"]
        await asyncio.gather(a.pan(160), b.pan(40))
        (ea, _), (eb, _) = await asyncio.gather(a.rest(), b.rest())
        assert ea["event"] == "finished" and eb["event"] == "cancelled"
        await a.close()
        await b.close()
    run(go())


def test_sigterm_closes_every_socket_with_1001_and_exits_0(make_server):
    s = make_server()

    async def go():
        c = await Client.connect(s.url)
        s.process.terminate()
        try:
            while True:
                await c.recv()
        except Exception:
            pass
        return c.ws.close_code

    assert run(go()) == 1001
    assert s.process.wait(timeout=10) == 0


@pytest.mark.parametrize("delay", [0, 0.005, 0.02])
def test_sigterm_during_start_up_stops_a_server_started_with_the_signals_blocked(delay):
    # A parent may start the server with SIGINT/SIGTERM blocked (`sandbox bench` does; the mask
    # is inherited). A SIGTERM during start-up stayed pending until the server set SIG_IGN,
    # which discards a pending signal: it then ran on, unstoppable but by SIGKILL.
    signals = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        process = subprocess.Popen([str(BINARY), "serve", "--port", "0", "--log-level", "warning"], cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    time.sleep(delay)
    process.terminate()
    try:
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()


def test_play_runs_the_whole_transition_and_refuses_while_busy(server):
    async def scenario():
        c = await Client.connect(server.url)
        await c.send({"type": "configure", "transition": "fade", "duration": 0.2, "fps": 50})
        await c.expect("configured")
        await c.send({"type": "play"})
        played = await c.expect("transition", event="played")
        assert played["progress"] == 0
        await c.send({"type": "play"})  # still finishing: refused, nothing changes
        error = await c.expect("error")
        assert error["code"] == "busy"
        _, last = await c.rest()
        assert last["progress"] == 1
        frames = [f for f in c.frames if f["phase"] in ("finishing", "finished")]
        # 0.2 s at 50 fps: the first frame at once, then about ten ticks
        assert 9 <= len(frames) <= 13, len(frames)
        assert all(a["progress"] <= b["progress"] for a, b in zip(frames, frames[1:]))
        await c.send({"type": "play", "extra": 1}, check=False)
        assert (await c.expect("error"))["code"] == "unknown-field"
        await c.close()

    run(scenario())


def test_the_page_is_served_file_after_file_on_one_keep_alive_connection(server):
    """The browser fetches the page's modules over one connection: each arrives whole, typed."""
    import http.client
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "web"
    files = {"/": ("text/html", web / "index.html"), "/style.css": ("text/css", web / "style.css")}
    for module in sorted((web / "js").glob("*.js")):
        files[f"/js/{module.name}"] = ("text/javascript", module)
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
    for path, (kind, source) in files.items():
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, path
        assert response.getheader("content-type").startswith(kind), (path, response.getheader("content-type"))
        assert body == source.read_bytes(), path
    connection.close()


def test_service_threads_deal_connections_and_viewers_join_across_threads(make_server):
    """`serve --threads 3`: connections are dealt across three service threads; every session
    works; a viewer on any thread joins a session on any other and sees its events and frames
    (latest frame wins), hears `session-ended` when the driver leaves; SIGTERM closes every
    connection on every thread with 1001."""
    import http.client
    import signal

    server = make_server("--threads", "3")

    async def scenario():
        # Dealt round robin: clients[0] and [3] on the listening thread, [1] and [4] on the
        # second, [2] and [5] on the third.
        clients = [await Client.connect(server.url) for _ in range(6)]
        for c in clients:
            await c.send({"type": "configure", "transition": "fade", "duration": 0.2})
            await c.expect("configured")
        for c in clients:
            await c.pan(150)
        for c in clients:
            event, final = await c.rest()
            assert event["event"] == "finished" and final["progress"] == 1
        session = clients[0].welcome["session"]
        viewers = [clients[1], clients[2], clients[3]]  # two other threads and its own
        for viewer in viewers:
            await viewer.send({"type": "join", "session": session})
            joined = await viewer.expect("joined")
            assert joined["session"] == session and joined["config"]["transition"] == "fade"
        # The driver pans again: every viewer sees the events and the frames.
        await clients[0].send({"type": "configure", "duration": 0.3})
        await clients[0].expect("configured")
        for viewer in viewers:
            assert (await viewer.expect("configured"))["config"]["duration"] == 0.3
        await clients[0].pan(150)
        driver_event, driver_final = await clients[0].rest()
        for viewer in viewers:
            event = await viewer.expect("transition", event=driver_event["event"])
            final = await viewer.until(lambda m: m["type"] == "frame" and m["n"] == driver_final["n"])
            assert final["progress"] == driver_final["progress"]
        # A viewer cannot drive; the driver leaving ends the session for every viewer.
        await clients[1].send({"type": "play"})
        assert (await clients[1].expect("error"))["code"] == "not-driver"
        await clients[0].ws.close()
        for viewer in viewers:
            assert (await viewer.expect("session-ended"))["session"] == session
        await clients[4].send({"type": "join", "session": session})
        assert (await clients[4].expect("error"))["code"] == "unknown-session"
        connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
        for _ in range(3):  # page requests are dealt across threads too
            connection.request("GET", "/js/main.js")
            response = connection.getresponse()
            assert response.status == 200 and len(response.read()) > 1000
            connection.close()
        server.process.send_signal(signal.SIGTERM)
        for c in clients[1:]:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await c.recv()
            assert closed.value.rcvd.code == 1001
        assert server.process.wait(timeout=10) == 0

    run(scenario())
