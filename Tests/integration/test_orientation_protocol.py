"""Orientation over a real WebSocket: a device turn streams the rotation."""
import asyncio

from client import Client


def run(coro):
    return asyncio.run(coro)


def test_a_device_turn_streams_a_quarter_turn_ending_exactly_with_swapped_bounds(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "root": {"id": "home", "supportedOrientations": ["all"]}})
        state = await c.expect("scene-state")
        assert state["orientation"]["interface"] == "portrait" and state["orientation"]["bounds"] == [0, 0, 390, 844]
        await c.send({"type": "device", "orientation": "landscapeLeft"})
        state = await c.expect("scene-state")
        assert state["orientation"]["device"] == "landscapeLeft"
        assert state["orientation"]["interface"] == "landscapeRight"  # UIKit: the device's left is the interface's right
        assert state["orientation"]["bounds"] == [0, 0, 844, 390]
        frames = []
        while True:
            frame = await c.expect("frame")
            frames.append(frame["scene"]["root"])
            if frame["scene"]["root"]["rotating"] is None:
                break
        turning = [f for f in frames if f["rotating"] is not None]
        assert len(turning) >= 8  # a phone: 0.3 s at 60 fps, frame by frame
        fractions = [f["rotating"]["fraction"] for f in turning]
        assert fractions == sorted(fractions) and fractions[0] < 0.2
        assert frames[-1]["transform"] == [0, 1, -1, 0, 0, 0] and frames[-1]["bounds"] == [844, 390]
        # Back to portrait: the inverse quarter turn, ending at the identity.
        await c.send({"type": "device", "orientation": "portrait"})
        while True:
            frame = await c.expect("frame")
            if frame["scene"]["root"]["rotating"] is None and frame["scene"]["root"]["interface"] == "portrait":
                break
        assert frame["scene"]["root"]["transform"] == [1, 0, 0, 1, 0, 0] and frame["scene"]["root"]["bounds"] == [390, 844]
        await c.close()
    run(go())


def test_no_common_orientation_is_refused_and_changes_nothing(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "root": {"id": "home", "supportedOrientations": ["landscape"]},
                      "appOrientations": ["portrait"]})
        reply = await c.until(lambda m: m["type"] in ("error", "scene-state"))
        assert reply["type"] == "error" and reply["code"] == "no-common-orientation", reply
        assert "uncaught exception 'UIApplicationInvalidInterfaceOrientation'" in reply["message"]
        await c.send({"type": "device", "orientation": "landscapeLeft"})
        assert (await c.expect("error"))["code"] == "no-scene"
        await c.close()
    run(go())
