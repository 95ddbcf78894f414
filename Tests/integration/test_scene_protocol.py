"""The scene over a real WebSocket: scene-state, lifecycle, the next pan, errors."""
import asyncio

from client import Client

NAV = {"id": "nav", "kind": "navigation", "stack": [{"id": "list", "title": "List"}]}


def run(coro):
    return asyncio.run(coro)


async def lifecycle_until(client, predicate):
    """Lifecycle callbacks as `controller.callback(arg)` until `predicate(message)` holds."""
    seen = []
    while True:
        message = await client.recv()
        if message["type"] == "lifecycle":
            arg = message.get("didComplete", message["animated"])
            seen.append(f'{message["controller"]}.{message["callback"]}({str(arg).lower()})')
        if predicate(message):
            return seen


def state(message):
    return message["type"] == "scene-state"


def test_a_sheet_presented_then_dragged_short_cancels_in_uikits_order(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "scene", "root": NAV})
        launched = await c.expect("scene-state")
        assert launched["topMost"] == "nav" and launched["armed"] is None and launched["size"] == [390, 844]
        await c.send({"type": "present", "controller": {"id": "sheet", "presentationStyle": "pageSheet"}})
        seen = await lifecycle_until(c, lambda m: state(m) and m["inFlight"] is None)
        assert seen == ["sheet.viewDidLoad(false)", "sheet.viewWillAppear(true)",
                        "sheet.completeTransition(true)", "sheet.viewDidAppear(true)"]
        presented = await c.until(lambda m: m["type"] == "frame" and m["phase"] == "finished")
        assert presented["scene"]["transition"] == {
            "action": "dismiss", "from": "sheet", "to": "nav", "container": [0, 57, 390, 787]}
        assert [l.get("controller") for l in presented["layers"]] == ["sheet"]
        # The next pan drives the dismissal (down, cover vertical): 60 pt is short of the threshold.
        await c.pointer("down", 195, y=300, dt=0)
        for i in range(1, 11):
            await c.pointer("move", 195, y=300 + 6 * i)
        await c.pointer("up", 195, y=360, dt=100)
        seen = await lifecycle_until(c, lambda m: state(m) and m["inFlight"] is None)
        # The sheet's delegate is asked and told first (no DidDismiss: the dismissal cancels).
        assert seen == ["sheet.presentationControllerShouldDismiss(true)",
                        "sheet.presentationControllerWillDismiss(true)",
                        "sheet.viewWillDisappear(true)", "sheet.completeTransition(false)",
                        "sheet.viewWillAppear(true)", "sheet.viewDidAppear(true)"]
        assert [e["event"] for e in c.events][-1] == "cancelled"
        await c.close()
    run(go())


def test_errors_name_the_problem_and_change_nothing(server):
    async def go():
        c = await Client.connect(server.url)
        await c.send({"type": "present", "controller": {"id": "x"}})
        assert (await c.expect("error"))["code"] == "no-scene"
        await c.send({"type": "scene", "root": {"id": "home"}})
        await c.expect("scene-state")
        await c.send({"type": "present", "controller": {"id": "a"}, "animated": False})
        before = await c.expect("scene-state")
        for message, code in [
            ({"type": "present", "controller": {"id": "b"}, "from": "home"}, "already-presenting"),
            ({"type": "present", "controller": "a"}, "already-presented"),
            ({"type": "pop"}, "not-in-navigation"),
            ({"type": "dismiss", "controller": "nobody"}, "unknown-controller"),
            ({"type": "present", "controller": {"id": "\t" * 40}}, "invalid-field"),
            ({"type": "scene", "root": {"id": "r", "kind": "navigation", "stack": [{"id": f"c{i}"} for i in range(70)]}}, "invalid-field"),
        ]:
            await c.send(message, check=code != "invalid-field")
            reply = await c.until(lambda m: m["type"] in ("error", "scene-state"))
            assert reply["type"] == "error" and reply["code"] == code, (message, reply)
            assert len(reply["message"]) <= 300
            if code == "already-presenting":
                assert reply["message"] == "Attempt to present b on home (from home) which is already presenting a."
        await c.send({"type": "dismiss", "animated": False})
        after = await c.expect("scene-state")
        assert before["presentations"][0]["presented"] == "a" and after["presentations"] == []
        await c.close()
    run(go())


def test_a_viewer_sees_the_scene_and_its_callbacks(server):
    async def go():
        driver = await Client.connect(server.url)
        await driver.send({"type": "scene", "root": NAV})
        await driver.expect("scene-state")
        viewer, _ = await Client.viewer(server.url, driver.welcome["session"])
        joined_state = await viewer.expect("scene-state")
        assert joined_state["topMost"] == "nav"
        await driver.send({"type": "push", "controller": {"id": "detail", "title": "Detail"}, "animated": False})
        seen = await lifecycle_until(viewer, state)
        assert seen == ["detail.viewDidLoad(false)", "list.viewWillDisappear(false)", "detail.viewWillAppear(false)",
                        "detail.completeTransition(true)", "list.viewDidDisappear(false)", "detail.viewDidAppear(false)"]
        frame = await viewer.until(lambda m: m["type"] == "frame" and m["scene"]["transition"] is not None)
        assert frame["scene"]["transition"]["action"] == "pop"
        bar = [l for l in frame["scene"]["layers"] if l["role"] == "navigationBar"]
        assert bar and bar[0]["title"] == "Detail"
        await viewer.send({"type": "pop"})
        assert (await viewer.expect("error"))["code"] == "not-driver"
        await driver.close()
        await viewer.close()
    run(go())
