"""UIKit's presentation rules by version over a real WebSocket: the default style, which
presentations have a dismiss gesture, a sheet modal in presentation, UIKit's texts."""
import asyncio

from client import Client


def run(coro):
    return asyncio.run(coro)


def state(message):
    return message["type"] == "scene-state"


async def settled(client):
    return await client.until(lambda m: state(m) and m["inFlight"] is None)


def test_the_default_style_is_a_sheet_from_ios_13_and_full_screen_before(server):
    async def go():
        c = await Client.connect(server.url)
        for ios, style, armed in (("12", "fullScreen", None), ("13", "pageSheet", "dismiss")):
            await c.send({"type": "scene", "ios": ios, "root": {"id": "home"}})
            assert (await c.expect("scene-state"))["ios"] == ios
            await c.send({"type": "present", "controller": {"id": "b"}})
            done = await settled(c)
            assert done["presentations"][0]["style"] == style, done
            # Only an iOS 13+ sheet has a dismiss gesture of its own.
            assert (done["armed"] or {}).get("action") == armed, done
        await c.close()
    run(go())


def test_a_sheet_modal_in_presentation_resists_and_tells_its_delegate(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "root": {"id": "home"}})
        await c.expect("scene-state")
        await c.send({"type": "present", "controller": {"id": "draft", "isModalInPresentation": True}})
        presented = await settled(c)
        assert presented["armed"]["action"] == "dismiss"
        await c.pointer("down", 195, y=300, dt=0)
        for i in range(1, 21):
            await c.pointer("move", 195, y=300 + 20 * i)
        await c.pointer("up", 195, y=700, dt=100)
        attempt = await c.until(lambda m: m["type"] == "lifecycle")
        assert attempt["controller"] == "draft"
        assert attempt["callback"] == "presentationControllerDidAttemptToDismiss"
        await c.until(lambda m: m["type"] == "frame" and m["phase"] == "cancelled")
        # Nothing was dismissed, and the gesture is still there for the next try.
        await c.send({"type": "dismiss", "animated": False})
        after = await settled(c)
        assert after["presentations"] == []
        await c.close()
    run(go())


def test_uikits_texts_per_version_and_the_partial_curl(server):
    async def go():
        c = await Client.connect(server.url)
        for ios, text in (
            ("12", "Warning: Attempt to present c on home which is already presenting b"),
            ("26", "Attempt to present c on home (from home) which is already presenting b."),
        ):
            await c.send({"type": "scene", "ios": ios, "root": {"id": "home"}})
            await c.expect("scene-state")
            await c.send({"type": "present", "controller": {"id": "b"}, "animated": False})
            await settled(c)
            await c.send({"type": "present", "controller": {"id": "c"}, "from": "home"})
            reply = await c.until(lambda m: m["type"] == "error")
            assert reply["code"] == "already-presenting" and reply["message"] == text
        await c.send({"type": "present", "controller": {"id": "curl", "transitionStyle": "partial-curl"}, "from": "b"})
        reply = await c.until(lambda m: m["type"] == "error")
        assert reply["code"] == "uncaught-exception"
        assert "UIModalTransitionStylePartialCurl to or from non-fullscreen view controller" in reply["message"]
        for bad in ({"isModalInPresentation": 1}, {"presentationStyle": "sheet"}):
            await c.send({"type": "present", "controller": {"id": "x", **bad}}, check=False)
            assert (await c.until(lambda m: m["type"] == "error"))["code"] == "invalid-field"
        await c.close()
    run(go())


def test_a_sheet_swipe_tells_its_delegate_and_an_apps_dismiss_does_not(server):
    # Apple, presentationControllerWillDismiss(_:): "This method is not called if the presentation
    # is dismissed programmatically"; DidDismiss only once the swipe's dismissal finished.
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "root": {"id": "home"}})
        await c.expect("scene-state")
        await c.send({"type": "present", "controller": {"id": "sheet"}, "animated": False})
        await settled(c)
        await c.pointer("down", 195, y=300, dt=0)
        for i in range(1, 21):
            await c.pointer("move", 195, y=300 + 25 * i)
        await c.pointer("up", 195, y=800, dt=100)
        lines = []
        while not lines or lines[-1]["callback"] != "presentationControllerDidDismiss":
            lines.append(await c.until(lambda m: m["type"] == "lifecycle"))
        assert [m["callback"] for m in lines] == [
            "presentationControllerShouldDismiss", "presentationControllerWillDismiss", "viewWillDisappear",
            "completeTransition", "viewDidDisappear", "presentationControllerDidDismiss"], lines
        assert {m["controller"] for m in lines} == {"sheet"}
        await settled(c)
        await c.send({"type": "present", "controller": {"id": "again"}, "animated": False})
        await settled(c)
        await c.send({"type": "dismiss", "animated": False})
        lines = []
        while not lines or lines[-1]["callback"] != "viewDidDisappear":
            lines.append(await c.until(lambda m: m["type"] == "lifecycle"))
        assert not any(m["callback"].startswith("presentationController") for m in lines), lines
        await c.close()
    run(go())


def test_busy_present_and_a_curled_presenter(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "root": {"id": "home"}, "interruptible": False})
        await c.expect("scene-state")
        await c.send({"type": "present", "controller": {"id": "b", "presentationStyle": "fullScreen"}})
        await c.send({"type": "present", "controller": {"id": "c"}, "from": "home"})
        reply = await c.until(lambda m: m["type"] == "error")
        assert reply["code"] == "busy"
        assert reply["message"].startswith(
            "Attempt to present c on home (from home) while a presentation is in progress."), reply
        await settled(c)
        await c.send({"type": "dismiss", "animated": False})
        await settled(c)
        await c.send({"type": "present", "animated": False, "controller": {
            "id": "curl", "presentationStyle": "fullScreen", "transitionStyle": "partial-curl"}})
        await settled(c)
        await c.send({"type": "present", "controller": {"id": "d"}, "from": "curl"})
        reply = await c.until(lambda m: m["type"] == "error")
        assert reply["code"] == "curl-cannot-present", reply
        await c.close()
    run(go())
