"""The covered side in a scene's frames over a real WebSocket (docs/PROTOCOL.md, frames of a scene
session; docs/SCENE.md, "The covered side"): a held edge-swipe pop carries the revealed child as
the animator's `to`, shifted left under a `shade`, and not in `scene.layers`; a full-screen
cross-dissolve draws the presenter as the animator's opaque `from` under the presented view
fading in; a sheet's presenter stays a still view. Every message is checked against the schema (Tests/wire_schema.py)."""
import asyncio

from client import Client


def run(coro):
    return asyncio.run(coro)


def layer(frame, layer_id):
    return next((entry for entry in frame["layers"] if entry["id"] == layer_id), None)


def still(frame):
    return [entry["controller"] for entry in frame["scene"]["layers"]]


async def held_pop(server):
    c = await Client.connect(server.url)
    await c.send({"type": "scene", "root": {"id": "nav", "kind": "navigation", "stack": [{"id": "list"}]}})
    await c.expect("scene-state")
    await c.send({"type": "push", "controller": {"id": "detail"}, "animated": False})
    await c.expect("scene-state")
    await c.pointer("down", 6, dt=0)
    last = None
    for i in range(1, 11):
        last = await c.pointer("move", 6 + 19.5 * i)
    frame = await c.until(lambda m: m["type"] == "frame" and m["ack"] == last)
    await c.close()
    return frame


def test_a_held_pop_shows_the_revealed_child_parallaxed_and_shaded(server):
    frame = run(held_pop(server))
    assert frame["phase"] == "tracking" and frame["scene"]["transition"]["action"] == "pop", frame
    revealed, shade, popped = layer(frame, "to"), layer(frame, "shade"), layer(frame, "from")
    assert revealed["controller"] == "list" and popped["controller"] == "detail", frame["layers"]
    width = frame["scene"]["transition"]["container"][2]
    popped_left = popped["center"][0] - popped["bounds"][0] / 2
    f = popped_left / width  # the pop's eased fraction: the popped view has moved that far
    assert 0.2 < f < 0.8, f
    left = revealed["center"][0] - revealed["bounds"][0] / 2
    assert abs(left + 0.3 * width * (1 - f)) < 1.0, (left, f)  # UIKit's parallax, 30 % of the width
    assert abs(shade["opacity"] - 0.1 * (1 - f)) < 0.002, (shade, f)  # black at 0.1, lifting
    assert shade["center"] == revealed["center"] and shade["bounds"] == revealed["bounds"]
    assert shade["z"] == revealed["z"] < popped["z"]
    assert "list" not in still(frame) and "nav" in still(frame)  # the bar stays a still view


async def played(server, style):
    c = await Client.connect(server.url)
    await c.send({"type": "scene", "root": {"id": "home"}})
    await c.expect("scene-state")
    await c.send({"type": "present", "controller": {
        "id": "next", "presentationStyle": style, "transitionStyle": "cross-dissolve"}})
    await c.rest()
    frames = [f for f in c.frames if f.get("scene") and f["scene"]["transition"]
              and f["scene"]["transition"]["action"] == "present" and f["phase"] == "finishing"]
    await c.close()
    return frames


def test_a_full_screen_cross_dissolve_cross_fades_the_presenter_out(server):
    frames = run(played(server, "fullScreen"))
    shares = []
    for frame in frames:
        presenter, presented = layer(frame, "from"), layer(frame, "to")
        if presenter is None:
            continue  # the last frame: the animator has dropped the presenter
        assert presenter["controller"] == "home" and "home" not in still(frame), frame
        assert presenter["opacity"] == 1 and presented["z"] > presenter["z"], frame["layers"]
        # The presenter's share of the picture: what the presented view above it lets through.
        shares.append(presenter["opacity"] * (1 - presented["opacity"]))
    assert len(shares) > 5 and shares[0] > 0.95 and min(shares) < 0.05, shares
    assert all(later <= earlier for earlier, later in zip(shares, shares[1:])), shares


def test_a_sheets_presenter_stays_a_still_view(server):
    frames = run(played(server, "pageSheet"))
    assert frames
    for frame in frames:
        assert layer(frame, "from") is None and "home" in still(frame), frame
