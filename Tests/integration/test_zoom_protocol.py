"""The zoom transition over a real WebSocket (docs/PROTOCOL.md, "The zoom transition"): every
message checked against the schema and every delta applied (client.py); the source echoed in
scene-state, the named views as `view` layers, the source hidden and the covered side dimmed
while it zooms, the card following a two-dimensional drag, and bad sources refused."""
import asyncio

from client import Client

LIBRARY = {"id": "library", "views": [
    {"id": "thumb", "frame": {"x": 16, "y": 120, "width": 120, "height": 120}},
    {"id": "strip", "kind": "horizontal-scroll", "frame": {"x": 0, "y": 600, "width": 390, "height": 100}}]}


def run(coro):
    return asyncio.run(coro)


def views(frame):
    return {layer["view"]: layer for layer in frame["scene"]["layers"] if layer["role"] == "view"}


def card(frame):
    layer = next(l for l in frame["layers"] if l.get("controller") == "photo")
    (cx, cy), (w, h) = layer["center"], layer["bounds"]
    return cx, cy, w, h


def test_a_zoom_dismissal_follows_the_finger_in_two_dimensions(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "root": LIBRARY})
        await c.expect("scene-state")
        at_rest = await c.until(lambda m: m["type"] == "frame" and "scene" in m)
        assert views(at_rest)["thumb"]["frame"] == [16, 120, 120, 120] and "strip" in views(at_rest)

        await c.send({"type": "present", "controller": {"id": "photo"}, "transition": "zoom", "source": "thumb"})
        presented = await c.until(lambda m: m["type"] == "scene-state" and m["inFlight"] is None)
        assert presented["presentations"][0]["sourceView"] == {"controller": "library", "view": "thumb"}
        assert presented["presentations"][0]["style"] == "fullScreen"
        assert presented["armed"]["action"] == "dismiss" and presented["armed"]["default"] is True

        await c.pointer("down", 195, y=400, dt=0)
        for i in range(1, 21):
            last = await c.pointer("move", 195 - 2 * i, y=400 + 10 * i)
        frame = await c.until(lambda m: m["type"] == "frame" and m["ack"] == last)
        assert frame["phase"] == "tracking"
        cx, cy, w, h = card(frame)
        # The finger moved (-40, +200): the card's centre with it, and the card smaller.
        assert abs(cx - (195 - 40)) < 1e-6 and abs(cy - (422 + 200)) < 1e-6, (cx, cy)
        assert w < 390 and abs(w / h - 390 / 844) < 1e-3, (w, h)
        thumb = views(frame)["thumb"]
        assert thumb["opacity"] == 0  # the card stands in for it
        dimming = [l for l in frame["scene"]["layers"] if l["role"] == "dimming"]
        assert len(dimming) == 1 and 0 < dimming[0]["opacity"] < 0.2

        up = await c.pointer("up", 155, y=600, dt=16)
        await c.until(lambda m: m["type"] == "frame" and m["ack"] == up)
        event, final = await c.rest()
        assert event["event"] == "finished"
        assert views(final)["thumb"]["opacity"] == 1
        await c.close()
    run(go())


def test_bad_sources_are_refused_and_change_nothing(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "ios": "17", "root": LIBRARY})
        await c.expect("scene-state")
        await c.send({"type": "present", "controller": {"id": "photo"}, "transition": "zoom", "source": "thumb"})
        error = await c.expect("error")
        assert error["code"] == "unavailable-in-ios" and "iOS 18+" in error["message"]
        await c.send({"type": "scene", "root": LIBRARY})
        await c.expect("scene-state")
        for source, words in (("nope", "no view"), ("strip", "horizontal-scroll")):
            await c.send({"type": "present", "controller": {"id": "photo"}, "transition": "zoom", "source": source})
            error = await c.expect("error")
            assert error["code"] == "invalid-source" and words in error["message"], error
        await c.send({"type": "present", "controller": {"id": "photo"}, "source": "thumb",
                      "transition": "cover-vertical"})
        assert (await c.expect("error"))["code"] == "invalid-source"
        await c.send({"type": "present", "controller": {"id": "photo"}, "animated": False})
        state = await c.until(lambda m: m["type"] == "scene-state" and m["topMost"] == "photo")
        assert "sourceView" not in state["presentations"][0]
        await c.close()
    run(go())
