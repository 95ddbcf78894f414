"""iOS 26's content swipe over a real WebSocket: a rightward, mostly horizontal pan anywhere in a
navigation controller's content pops, released by the edge swipe's rule (the decompile of iOS
26.1's UIKitCore, github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore: the content swipe
shares `handleNavigationTransition:`); it yields to a horizontal scroll view away from its
leading edge; before iOS 26, or with `contentPop: false`, only the edge swipe pops. Its wire
fields are refused when malformed, and the connection carries on."""
import asyncio

from client import Client


def run(coro):
    return asyncio.run(coro)


async def drag(c, x, y, dx, dy=0.0, moves=12, hold=80.0):
    """Down at (x, y), `moves` moves 16 ms apart to (x+dx, y+dy), still `hold` ms, up; waits
    for the frame acknowledging the up."""
    await c.pointer("down", x, y, dt=0)
    for i in range(1, moves + 1):
        await c.pointer("move", x + dx * i / moves, y + dy * i / moves)
    last = await c.pointer("up", x + dx, y + dy, dt=hold)
    await c.until(lambda m: m["type"] == "frame" and m["ack"] == last)


async def nav_with_detail(c, views=None, **scene):
    await c.send({"type": "scene", **scene,
                  "root": {"id": "nav", "kind": "navigation", "stack": [{"id": "list"}]}})
    await c.expect("scene-state")
    detail = {"id": "detail"} if views is None else {"id": "detail", "views": views}
    await c.send({"type": "push", "controller": detail, "animated": False})
    return await c.expect("scene-state")


async def stack(c):
    await c.send({"type": "attempt-rotation"})  # answered by the scene's state as it is now
    state = await c.until(lambda m: m["type"] == "scene-state" and m["inFlight"] is None)
    return state["navigationStacks"][0]["stack"]


def test_a_mid_screen_pan_pops_on_ios_26_only(server):
    async def go():
        c = await Client.connect(server.url)
        await nav_with_detail(c, ios="18")
        await drag(c, 120, 500, 260)  # iOS 18: mid-screen moves nothing
        assert c.events == [] and await stack(c) == ["list", "detail"]
        await nav_with_detail(c, ios="26")
        await drag(c, 120, 500, 260)
        event, frame = await c.rest()
        assert event["event"] == "finished" and frame["progress"] == 1
        released = next(e for e in c.events if e["event"] == "released")
        assert released["reason"] == "projection" and released["decision"] == "finish", released
        assert await stack(c) == ["list"]
        await c.close()
    run(go())


def test_leftward_or_vertical_pans_and_a_disabled_swipe_do_not_pop(server):
    async def go():
        c = await Client.connect(server.url)
        await nav_with_detail(c, ios="26")
        await drag(c, 300, 500, -260)
        await drag(c, 200, 300, 0, 300)
        state = await nav_with_detail(c, ios="26", contentPop=False)
        assert state["contentPop"] is False, state  # echoed only when off
        await drag(c, 120, 500, 260)
        assert c.events == [] and await stack(c) == ["list", "detail"]
        await c.close()
    run(go())


def test_a_horizontal_scroll_away_from_its_leading_edge_keeps_the_drag(server):
    async def go():
        c = await Client.connect(server.url)
        strip = {"id": "strip", "kind": "horizontal-scroll", "atLeadingEdge": False,
                 "frame": {"x": 0, "y": 100, "width": 390, "height": 200}}
        state = await nav_with_detail(c, ios="26", views=[strip])
        assert "contentPop" not in state, state
        detail = state["root"]["stack"][-1]
        assert detail["views"] == [strip], detail  # echoed as given
        await drag(c, 120, 91 + 200, 260)
        assert c.events == [] and await stack(c) == ["list", "detail"]
        await drag(c, 120, 91 + 500, 260)  # below the strip: the swipe pops
        event, _ = await c.rest()
        assert event["event"] == "finished" and await stack(c) == ["list"]
        await c.close()
    run(go())


def test_malformed_fields_are_refused_and_the_connection_carries_on(server):
    async def go():
        c = await Client.connect(server.url)
        bad = [
            ({"type": "scene", "contentPop": "no", "root": {"id": "r"}}, "contentPop"),
            ({"type": "scene", "contentPop": None, "root": {"id": "r"}}, "contentPop"),
            ({"type": "scene", "root": {"id": "r", "views": [
                {"id": "t", "kind": "vertical-scroll", "atLeadingEdge": True,
                 "frame": {"x": 0, "y": 0, "width": 1, "height": 1}}]}}, "root.views[0].atLeadingEdge"),
            ({"type": "scene", "root": {"id": "r", "views": [
                {"id": "t", "kind": "horizontal-scroll", "atLeadingEdge": 1e308,
                 "frame": {"x": 0, "y": 0, "width": 1, "height": 1}}]}}, "root.views[0].atLeadingEdge"),
        ]
        for message, field in bad:
            await c.send(message, check=False)
            error = await c.expect("error")
            assert error["code"] == "invalid-field" and error.get("field") == field, error
        await nav_with_detail(c, ios="26")
        assert await stack(c) == ["list", "detail"]
        await c.close()
    run(go())
