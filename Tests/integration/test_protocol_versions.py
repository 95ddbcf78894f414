"""Protocol versions negotiated by subprotocol, over real sockets (docs/PROTOCOL.md, "Versions"):
which version each offer gets, and the same conversations seen in both versions at once — a
driver of one version, viewers of both: protocol 1 frames are whole with `t` equal to `sent`, and
every protocol 2 frame, assembled by the tests' reference assembler, equals the protocol 1 frame
of the same state (`n`) without `t`."""
import asyncio
import json

import pytest

import rawws
from client import Client

V1, V2 = "transition-sandbox.v1", "transition-sandbox.v2"


def handshake(server, offered):
    """(the 101's subprotocol, the welcome) for an upgrade offering `offered` (None: no header)."""
    s = rawws.websocket(server.host, server.port, protocol=offered)
    try:
        opcode, payload = rawws.read_frame(s)
        assert opcode == 1
        return rawws.VERSION_OF[s], json.loads(payload)
    finally:
        s.close()


@pytest.mark.parametrize("offered, version", [
    (V2, 2), (V1, 1), (None, 1),
    # Both: protocol 2 whatever the order (libwebsockets alone would bind the first it knows).
    (f"{V1}, {V2}", 2), (f"{V2}, {V1}", 2), (f"chat, {V1}, superchat, {V2}", 2),
    (f"chat, {V1}", 1),
])
def test_each_offer_gets_its_version(server, offered, version):
    negotiated, welcome = handshake(server, offered)
    assert negotiated == version
    assert welcome["type"] == "welcome" and welcome["protocol"] == version


def test_the_answer_names_the_version_chosen(server):
    for offered, named in [(f"{V1}, {V2}", V2), (V1, V1), (None, None)]:
        s = rawws.connect(server.host, server.port)
        try:
            s.sendall(rawws.upgrade_request(server.host, server.port, protocol=offered).encode())
            head = rawws.read_head(s)
            assert rawws.status(head) == 101 and rawws.subprotocol(head) == named, (offered, head)
        finally:
            s.close()


def test_preferring_v2_leaves_v1_to_the_next_client(server):
    """Protocol 1's name is hidden from libwebsockets for one upgrade only."""
    for _ in range(3):
        assert handshake(server, f"{V1}, {V2}")[0] == 2
        assert handshake(server, V1)[0] == 1
        assert handshake(server, None)[0] == 1


@pytest.mark.parametrize("offered", ["chat", "transition-sandbox.v3", "x" * 70 + ", " + V2, f"{V2},,{V1}",
                                     f'{V1}, "odd", {V2}', f"{V1}, o;d, {V2}"])
def test_only_unknown_names_are_refused_with_the_names_to_offer(server, offered):
    s = rawws.connect(server.host, server.port)
    try:
        s.sendall(rawws.upgrade_request(server.host, server.port, protocol=offered).encode())
        response = rawws.read_head(s) + s.recv(4096)
    finally:
        s.close()
    assert rawws.status(response) == 400, response[:200]
    assert V2.encode() in response and V1.encode() in response
    # The server carries on.
    assert handshake(server, V2)[0] == 2


async def frames_by_number(client, until_phase):
    """Reads `client` until a frame at rest in `until_phase`; its wire and assembled frames by `n`."""
    wire, whole = {}, {}
    while True:
        message = await client.recv()
        if message["type"] != "frame":
            continue
        wire[message["n"]] = client.last_wire_frame
        whole[message["n"]] = message
        if message["phase"] in until_phase:
            return wire, whole


def agree(v1_wire, v2_whole):
    """Every state both saw: the v1 frame is whole with t == sent, and equals the assembled v2 one."""
    common = sorted(set(v1_wire) & set(v2_whole))
    assert len(common) >= 5, (sorted(v1_wire), sorted(v2_whole))
    for n in common:
        frame = dict(v1_wire[n])
        assert "base" not in frame and frame.pop("t") == frame["sent"], frame
        assert frame == v2_whole[n], n
    return common


async def conversation(server, driver_protocol, gesture):
    driver = await Client.connect(server.url, subprotocols=[driver_protocol])
    session = driver.welcome["session"]
    v1, _ = await Client.viewer(server.url, session, subprotocols=[V1])
    v2, _ = await Client.viewer(server.url, session, subprotocols=[V2])
    assert (driver.welcome["protocol"], v1.welcome["protocol"], v2.welcome["protocol"]) == (
        2 if driver_protocol == V2 else 1, 1, 2)
    try:
        await gesture(driver)
        rest = ("finished", "cancelled")
        (v1_wire, _), (v2_wire, v2_whole), (d_wire, d_whole) = await asyncio.gather(
            frames_by_number(v1, rest), frames_by_number(v2, rest), frames_by_number(driver, rest))
        agree(v1_wire, v2_whole)
        # The v2 viewer was sent deltas (the comparison assembled something).
        assert any("base" in f for f in v2_wire.values())
        if driver_protocol == V2:
            agree(v1_wire, d_whole)
        else:
            agree(d_wire, v2_whole)
    finally:
        for c in (driver, v1, v2):
            await c.close()


async def pan_pop(driver):
    await driver.send({"type": "configure", "transition": "pop"})
    await driver.expect("configured")
    await driver.pan(150, steps=20)


async def dismiss_sheet(driver):
    await driver.send({"type": "scene", "root": {"id": "nav", "kind": "navigation", "stack": [{"id": "list"}]}})
    await driver.expect("scene-state")
    await driver.send({"type": "present", "controller": {"id": "sheet", "presentationStyle": "pageSheet"},
                       "animated": False})
    await driver.expect("scene-state")
    await driver.pointer("down", 195, y=300, dt=0)
    for i in range(1, 16):
        await driver.pointer("move", 195, y=300 + 25 * i)
    last = await driver.pointer("up", 195, y=300 + 25 * 15, dt=40)
    await driver.until(lambda m: m["type"] == "frame" and m["ack"] == last)


def test_a_v2_driver_with_v1_and_v2_viewers(server):
    asyncio.run(conversation(server, V2, pan_pop))


def test_a_v1_driver_of_a_scene_with_v1_and_v2_viewers(server):
    asyncio.run(conversation(server, V1, dismiss_sheet))
