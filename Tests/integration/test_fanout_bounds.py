"""Viewer fan-out bounds: a session takes at most `--max-viewers` viewers (32 by default), from
every service thread; a join past it is refused with `too-many-viewers` and changes nothing; a
viewer cut with 1008 that comes back takes a place like any other; and what a driver's message
makes for its viewers is charged to the driver's input budget (docs/SECURITY.md "Viewer fan-out")."""
import asyncio
import json

import pytest
import websockets

from client import Client

# A message padded with whitespace (valid JSON) to just under the 64 KiB message bound.
PADDED = 60 * 1024


def padded(message):
    text = json.dumps(message)
    return text[:-1] + " " * (PADDED - len(text)) + "}"


async def join(client, session):
    await client.send({"type": "join", "session": session})
    return await client.until(lambda m: m["type"] in ("joined", "error"))


async def drain(client):
    """Reads until the connection closes; returns the close code."""
    try:
        while True:
            await client.recv()
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


async def flood_until_closed(client):
    """Sends padded pings (each answered) while reading, until the server closes: 1008."""
    reader = asyncio.create_task(drain(client))
    try:
        for seq in range(10_000):
            await client.ws.send(padded({"type": "ping", "seq": seq, "t": 0}))
    except websockets.ConnectionClosed:
        pass
    return await reader


async def join_when_a_place_frees(client, session, attempts=100):
    """A cut viewer's place frees when the server has closed its socket, which may come just
    after the client saw the close: the join is tried again until then (5 s at most)."""
    for _ in range(attempts):
        reply = await join(client, session)
        if reply["type"] == "joined" or reply["code"] != "too-many-viewers":
            return reply
        await asyncio.sleep(0.05)
    return reply


def test_the_33rd_viewer_is_refused_and_a_cut_viewer_cannot_rejoin_past_the_limit(make_server):
    server = make_server()

    async def scenario():
        driver = await Client.connect(server.url)
        session = driver.welcome["session"]
        viewers = [await Client.connect(server.url) for _ in range(33)]
        for viewer in viewers[:32]:
            assert (await join(viewer, session))["type"] == "joined"
        refused = viewers[32]
        reply = await join(refused, session)
        assert reply["type"] == "error" and reply["code"] == "too-many-viewers", reply
        assert "32 viewers" in reply["message"] and "nothing changed" in reply["message"]
        # Nothing changed: the refused connection still drives its own session.
        await refused.send({"type": "configure", "duration": 0.4})
        configured = await refused.expect("configured")
        assert configured["session"] == refused.welcome["session"] and configured["config"]["duration"] == 0.4
        # A viewer cut with 1008 (its input past the rate bound) frees its place, and whoever
        # takes it fills the session again: coming back makes it no larger.
        assert await flood_until_closed(viewers[0]) == 1008
        back = await Client.connect(server.url)
        assert (await join_when_a_place_frees(back, session))["type"] == "joined"
        assert (await join(refused, session))["code"] == "too-many-viewers"
        # The session goes on for the 32 it has.
        await driver.send({"type": "configure", "duration": 0.3})
        await driver.expect("configured")
        for viewer in viewers[1:32] + [back]:
            assert (await viewer.expect("configured"))["config"]["duration"] == 0.3

    asyncio.run(scenario())


def test_viewers_of_every_thread_count_against_the_limit(make_server):
    """`--threads 2`, dealt round robin: the driver and every other connection on thread 0, the
    rest on thread 1. A limit of 3: a thread-0 join past it (counting thread 1's viewers) and a
    thread-1 join past it (refused by the session's thread) both get `too-many-viewers`, and
    both connections go on driving their own sessions."""
    server = make_server("--threads", "2", "--max-viewers", "3")

    async def scenario():
        driver = await Client.connect(server.url)  # thread 0
        session = driver.welcome["session"]
        viewers = [await Client.connect(server.url) for _ in range(5)]  # threads 1, 0, 1, 0, 1
        for viewer in viewers[:3]:
            assert (await join(viewer, session))["type"] == "joined"
        for viewer in viewers[3:]:  # thread 0, then thread 1
            reply = await join(viewer, session)
            assert reply["type"] == "error" and reply["code"] == "too-many-viewers", reply
            # Nothing changed, on either thread: it still drives its own session.
            await viewer.send({"type": "configure", "duration": 0.4})
            configured = await viewer.expect("configured")
            assert configured["session"] == viewer.welcome["session"], configured
        # The three see the driver's messages; the two on thread 1 were posted one encoding.
        await driver.send({"type": "configure", "duration": 0.3})
        await driver.expect("configured")
        for viewer in viewers[:3]:
            assert (await viewer.expect("configured"))["config"]["duration"] == 0.3
        # A viewer of thread 1 leaving frees a place for a connection of thread 0.
        await viewers[0].close()
        assert (await join_when_a_place_frees(viewers[3], session))["type"] == "joined"

    asyncio.run(scenario())


@pytest.mark.parametrize("viewer_count, cut", [(0, False), (8, True)])
def test_a_driver_pays_for_what_its_viewers_are_sent(make_server, viewer_count, cut):
    """Twenty padded `configure`s (60 KiB each, 1.2 MB) are within the 8 MiB burst alone; with
    8 viewers each costs 17 copies (8 `configured`, 8 frames, its own), 20 MiB: the driver gets
    `rate-limited` and a 1008 close, and its viewers `session-ended`."""
    server = make_server()

    async def scenario():
        driver = await Client.connect(server.url)
        session = driver.welcome["session"]
        viewers = [await Client.connect(server.url) for _ in range(viewer_count)]
        for viewer in viewers:
            assert (await join(viewer, session))["type"] == "joined"
        try:
            for _ in range(20):
                await driver.ws.send(padded({"type": "configure", "duration": 0.5}))
        except websockets.ConnectionClosed:
            pass
        replies = []
        if cut:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    replies.append(await driver.recv())
            assert closed.value.rcvd.code == 1008
            errors = [m for m in replies if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["rate-limited"], errors
            assert 0 < sum(m["type"] == "configured" for m in replies) < 20
            for viewer in viewers:
                assert (await viewer.expect("session-ended"))["session"] == session
        else:
            for _ in range(20):
                await driver.expect("configured")
            await driver.send({"type": "ping", "seq": 1, "t": 0})
            assert (await driver.expect("pong"))["seq"] == 1

    asyncio.run(scenario())
