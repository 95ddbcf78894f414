"""UIKit's own gestures in a scene over a real WebSocket: the edge-swipe pop and the sheet's
swipe-down decide by UIKit's rules (EdgePopRelease, SheetSwipeRelease: the decompile of iOS
26.1's UIKitCore, github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore); the app's
release settings keep deciding its own interactive transitions. And iOS 16's orientation
messages, refused before 16."""
import asyncio

from client import Client


def run(coro):
    return asyncio.run(coro)


async def flick(c, x, y, dx, dy, ms=60.0, moves=4):
    """Down at (x, y), `moves` moves over `ms` to (x+dx, y+dy), up at once (released moving)."""
    await c.pointer("down", x, y, dt=0)
    for i in range(1, moves + 1):
        await c.pointer("move", x + dx * i / moves, y + dy * i / moves, dt=ms / moves)
    return await c.pointer("up", x + dx, y + dy, dt=0)


async def nav_with_detail(c, **scene):
    await c.send({"type": "scene", **scene,
                  "root": {"id": "nav", "kind": "navigation", "stack": [{"id": "list"}]}})
    await c.expect("scene-state")
    await c.send({"type": "push", "controller": {"id": "detail"}, "animated": False})
    await c.expect("scene-state")


def test_an_edge_flick_pops_whatever_the_sessions_release_settings(server):
    async def go():
        c = await Client.connect(server.url)
        # The app's settings: a high threshold and no projection would cancel this flick.
        await c.send({"type": "configure", "threshold": 0.9, "releaseRule": "threshold"})
        await c.expect("configured")
        await nav_with_detail(c)
        await flick(c, 6, 400, 90, 0)
        event, _ = await c.rest()
        released = next(e for e in c.events if e["event"] == "released")
        assert released["decision"] == "finish" and released["reason"] == "projection", released
        assert released["progress"] < 0.3 and released["projected"] > 1
        assert event["event"] == "finished"
        await c.send({"type": "attempt-rotation"})  # answered by the scene's state as it is now
        state = await c.until(lambda m: m["type"] == "scene-state" and m["inFlight"] is None)
        assert state["navigationStacks"] == [{"navigation": "nav", "stack": ["list"]}], state
        await c.close()
    run(go())


async def sheet_flick(server, dy, ms, moves):
    c = await Client.connect(server.url)
    await c.send({"type": "scene", "ios": "13", "root": {"id": "home"}})
    await c.expect("scene-state")
    await c.send({"type": "present", "controller": {"id": "sheet", "presentationStyle": "pageSheet"},
                  "animated": False})
    await c.expect("scene-state")
    await flick(c, 195, 300, 0, dy, ms=ms, moves=moves)
    event, _ = await c.rest()
    released = next(e for e in c.events if e["event"] == "released")
    await c.close()
    return event, released


def test_a_sheet_flick_down_dismisses_from_ios_13(server):
    # The sheet projects v·0.099 s ahead (deceleration rate 0.99, `_UISheetInteraction`'s init in
    # the decompile): 200 pt in 60 ms (≈ 3,300 pt/s) reaches past half the 787 pt card.
    event, released = run(sheet_flick(server, 200, 60.0, 4))
    assert released["reason"] == "projection" and released["decision"] == "finish", released
    assert event["event"] == "finished"


def test_a_moderate_sheet_flick_dismisses_and_a_slow_one_snaps_back(server):
    # 40 pt in 32 ms (≈ 1,250 pt/s) projects only ≈ 164 pt of the 787 pt card, but a flick of
    # SheetSpeedThreshold (1000 pt/s, the decompile's `_UISheetInteraction draggingEndedInSource:`
    # block) or more leaving the presented detent steps on to the dismissal.
    event, released = run(sheet_flick(server, 40, 32.0, 2))
    assert released["reason"] == "fling" and released["decision"] == "finish", released
    assert released["projected"] * 787 < 200, released
    assert event["event"] == "finished"
    # The same 40 pt over 64 ms (≈ 625 pt/s) is no flick: the projection keeps the sheet.
    event, released = run(sheet_flick(server, 40, 64.0, 4))
    assert released["reason"] == "projection" and released["decision"] == "cancel", released
    assert event["event"] == "cancelled"


def test_a_still_edge_release_at_a_third_pops_on_an_ipad_only(server):
    # `popGesture:withRemainingDuration:shouldPopWithVelocity:` (the decompile): pop past
    # min(187.5 / width, 0.5) — 0.229 on an 820 pt iPad, 0.481 on a 390 pt phone.
    async def go(device, width):
        c = await Client.connect(server.url)
        await nav_with_detail(c, device=device)
        await c.pointer("down", 6, 500, dt=0)
        for i in range(1, 61):
            await c.pointer("move", 6 + 0.3 * width * i / 60, 500, dt=16)
        await c.pointer("up", 6 + 0.3 * width, 500, dt=200)
        event, _ = await c.rest()
        released = next(e for e in c.events if e["event"] == "released")
        await c.close()
        return event["event"], released["decision"]
    assert run(go("tablet", 820)) == ("finished", "finish")
    assert run(go("phone", 390)) == ("cancelled", "cancel")


def test_the_apps_own_interactive_pop_keeps_the_sessions_threshold(server):
    async def go():
        c = await Client.connect(server.url)
        await nav_with_detail(c)
        # An explicit interactive pop is the app's transition: the threshold decides (0.23 < 0.5).
        await c.send({"type": "pop", "interactive": True})
        await c.expect("scene-state")
        await flick(c, 6, 400, 90, 0)
        event, _ = await c.rest()
        released = next(e for e in c.events if e["event"] == "released")
        assert released["reason"] == "threshold" and released["decision"] == "cancel", released
        assert event["event"] == "cancelled"
        await c.close()
    run(go())


def test_ios_16_orientation_messages_and_their_refusals(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "ios": "15", "root": {"id": "home"}})
        await c.expect("scene-state")
        for message in ({"type": "update-supported-orientations"},
                        {"type": "request-geometry-update", "interfaceOrientations": ["landscape"]}):
            await c.send(message)
            error = await c.expect("error")
            assert error["code"] == "unavailable-in-ios" and "iOS 16+" in error["message"], error
        await c.send({"type": "scene", "ios": "16", "root": {"id": "home", "supportedOrientations": ["portrait"]}})
        await c.expect("scene-state")
        await c.send({"type": "request-geometry-update", "interfaceOrientations": ["landscapeLeft"]})
        error = await c.expect("error")
        assert error["code"] == "geometry-update-refused" and "UISceneErrorDomain Code=101" in error["message"]
        for bad in (0, [], ["diagonal"], 1e308, "landscape", None):
            await c.send({"type": "request-geometry-update", "interfaceOrientations": bad}, check=False)
            assert (await c.expect("error"))["code"] == "invalid-field", bad
        await c.send({"type": "update", "controller": "home", "supportedOrientations": ["landscape"]})
        await c.expect("scene-state")
        await c.send({"type": "request-geometry-update", "interfaceOrientations": ["landscape"]})
        state = await c.expect("scene-state")
        assert state["orientation"]["interface"] == "landscapeRight" and state["orientation"]["device"] == "portrait"
        await c.close()
    run(go())


def test_rotation_duration_is_validated_and_used(server):
    async def go():
        c = await Client.connect(server.url)
        for bad in (-0.1, 2.5, 1e308, "0.3", True):
            await c.send({"type": "scene", "root": {"id": "home"}, "rotationDuration": bad}, check=False)
            error = await c.expect("error")
            assert error["code"] == "invalid-field" and error.get("field") == "rotationDuration", (bad, error)
        await c.send({"type": "scene", "root": {"id": "home"}, "rotationDuration": 0})
        await c.expect("scene-state")
        await c.send({"type": "device", "orientation": "landscapeLeft"})
        state = await c.expect("scene-state")
        assert state["orientation"]["interface"] == "landscapeRight"
        frame = await c.expect("frame")
        assert frame["scene"]["root"]["rotating"] is None  # 0 s: no animation
        await c.close()
    run(go())
