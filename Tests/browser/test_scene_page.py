"""The scene panel in a real browser: a sheet presented from the panel draws as a
card over its pushed-back presenter, a short drag cancels its dismissal back to the same
pixels with UIKit's cancel order in the log, the tree and the log fill and stay bounded, the
tablet dims under a form sheet, "drive it with a pan" hands the present to the next drag, and a
page watching a scene session shows its tree, log and cards."""

import json

from websockets.sync.client import connect

from scene_canvas import AT_REST, card_colour, colour, near




def lines(messages):
    """`controller.callback(arg)`, as the log shows them (the sheet's delegate calls take none)."""
    return [f'{m["controller"]}.{m["callback"]}()' if m["callback"].startswith("presentationController")
            else f'{m["controller"]}.{m["callback"]}({str(m.get("didComplete", m["animated"])).lower()})'
            for m in messages]


def group_of(page, action):
    """The lifecycle messages of the last group with that action."""
    messages = page.get("lifecycle")
    groups = [m["group"] for m in messages if m["action"] == action]
    assert groups, (action, messages)
    return [m for m in messages if m["group"] == groups[-1]]


def start_scene(page, device="phone"):
    page.js("const form = document.getElementById('scene-start');"
            "form.elements.device.value = arguments[0]; form.requestSubmit();", device)
    page.wait("window.sandbox.scene !== null && window.sandbox.scene.inFlight === null")
    page.wait("window.sandbox.frameScene !== null && window.sandbox.pendingRequests === 0")
    page.paint()
    return page.get("scene")


def set_controls(page, **values):
    """Sets the scene controls: selects by value, checkboxes by bool."""
    page.js("""
        const form = document.getElementById('scene-controls');
        for (const [name, value] of Object.entries(arguments[0])) {
          const control = form.elements[name];
          if (control.type === 'checkbox') control.checked = value; else control.value = value;
        }
    """, values)


def click(page, action):
    page.js(f"document.querySelector('#scene-controls button[data-action={action}]').click()")


def scene_at_rest(page, condition):
    """Waits until scene-state says `condition`, nothing is in flight, the frames rest and the
    page has painted them."""
    page.wait(f"window.sandbox.scene && window.sandbox.scene.inFlight === null && ({condition})")
    page.wait(f"{AT_REST} && window.sandbox.pendingRequests === 0")
    page.paint()


def test_a_sheet_drawn_as_a_card_and_a_short_drag_cancels_its_dismissal(page, artifacts):
    launched = start_scene(page)
    assert launched["size"] == [390, 844] and launched["topMost"] == "nav"
    assert page.get("screenSize") == [390, 844]
    set_controls(page, style="pageSheet", transition="", animated=True, interactive=False)
    click(page, "present")
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    state = page.get("scene")
    sheet = state["presentations"][0]["presented"]
    assert sheet == "vc2" and state["presentations"][0]["style"] == "pageSheet" and state["topMost"] == sheet
    assert state["armed"]["action"] == "dismiss" and state["armed"]["default"] is True
    page.wait("window.sandbox.frameScene.transition && window.sandbox.frameScene.transition.action === 'dismiss'")
    page.paint()
    # The page did not flip the session's operation on the present's finish: the server decides.
    assert page.get("config")["operation"] == "present"

    # A card: the sheet's colour inside it (from y = 57 down), the presenter's navigation bar
    # (pushed back, its top at 47) in the 10 pt above it, black beside the pushed-back presenter.
    sheet_colour, presenter_colour = card_colour(page, sheet), card_colour(page, "nav")
    assert not near(sheet_colour, presenter_colour, 40)
    inside = colour(page, (40, 420, 300, 200))
    above = colour(page, (40, 49, 300, 6))
    assert near(inside, sheet_colour), (inside, sheet_colour)
    assert near(above, presenter_colour), (above, presenter_colour)
    assert max(colour(page, (2, 49, 10, 6))) < 10  # the window beside the pushed-back presenter
    page.snapshot("presented")
    page.screenshot(artifacts / "scene-sheet.png")

    # The next pan drives the dismissal (cover vertical: down, 1:1 with the finger): 300 of the
    # 787 pt card, under half, held, released.
    page.capture_when("dragging", "window.sandbox.phase === 'tracking' && window.sandbox.progress >= 0.25")
    page.drag([(195, 300 + 30 * i) for i in range(11)] + [("pause", 300)])
    assert page.wait_rest("cancelled") == "cancelled"
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    page.captured("dragging", artifacts / "scene-sheet-dragging.png")
    moved = page.difference("presented", "dragging")
    assert moved["differing"] > 0.05, moved  # the card really went down
    page.snapshot("after")
    back = page.difference("presented", "after")
    assert back["mean"] < 1.0 and back["differing"] < 0.002, back
    assert near(colour(page, (40, 420, 300, 200)), sheet_colour)

    # UIKit's order (docs/SCENE.md, "The callbacks and their order"): the sheet was about to
    # disappear, so the cancel gives it viewWillAppear/viewDidAppear after completeTransition(false);
    # its presenter, whose view never left, gets nothing.
    assert lines(group_of(page, "present")) == [
        "vc2.viewDidLoad(false)", "vc2.viewWillAppear(true)", "vc2.completeTransition(true)", "vc2.viewDidAppear(true)"]
    assert lines(group_of(page, "dismiss")) == [
        "vc2.presentationControllerShouldDismiss()", "vc2.presentationControllerWillDismiss()",
        "vc2.viewWillDisappear(true)", "vc2.completeTransition(false)", "vc2.viewWillAppear(true)",
        "vc2.viewDidAppear(true)"]
    page.wait("document.querySelector('#lifecycle-log .lifecycle-group-cancelled') !== null")
    shown = page.js("""
        const group = [...document.querySelectorAll('#lifecycle-log .lifecycle-group')].pop();
        return [group.querySelector('h3').textContent, [...group.querySelectorAll('li')].map((li) => li.textContent)];
    """)
    assert shown[0].endswith("dismiss")
    assert shown[1] == lines(group_of(page, "dismiss"))


LOG_GROUPS = """
return [...document.querySelectorAll('#lifecycle-log .lifecycle-group')]
  .map((group) => [group.querySelector('h3').textContent, [...group.querySelectorAll('li')].map((li) => li.textContent)]);
"""
LAUNCH = ["nav.viewDidLoad(false)", "list.viewDidLoad(false)", "nav.viewWillAppear(false)",
          "list.viewWillAppear(false)", "nav.viewDidAppear(false)", "list.viewDidAppear(false)"]


def test_the_tree_and_the_log_show_the_scene_and_stay_bounded(page):
    start_scene(page)
    page.wait("document.querySelectorAll('#scene-tree li').length === 2")
    tree = page.js("return document.getElementById('scene-tree').textContent")
    assert "nav" in tree and "list" in tree and "top-most" in tree
    page.wait("document.querySelector('#lifecycle-log .lifecycle-group h3') !== null")
    assert page.js(LOG_GROUPS) == [["#1 launch", LAUNCH]]
    # A restart is a new scene whose groups count from 1 again: a second launch group, not one
    # merged into the first.
    page.js("document.getElementById('scene-start').requestSubmit()")
    page.wait("window.sandbox.lifecycle.length === 12")
    scene_at_rest(page, "true")
    page.wait("document.querySelectorAll('#lifecycle-log .lifecycle-group').length === 2")
    assert page.js(LOG_GROUPS) == [["#1 launch", LAUNCH], ["#1 launch", LAUNCH]]

    # A push without animation: the new controller tops the stack, the bar shows its title.
    set_controls(page, animated=False, interactive=False, transition="")
    click(page, "push")
    scene_at_rest(page, "window.sandbox.scene.navigationStacks[0].stack.length === 2")
    assert page.get("scene")["navigationStacks"][0]["stack"] == ["list", "vc2"]
    page.wait("window.sandbox.frameScene.layers.some((l) => l.role === 'navigationBar' && l.title === 'vc2')")
    page.wait("document.getElementById('scene-tree').textContent.includes('vc2')")
    assert "navigation top" in page.js("return document.getElementById('scene-tree').textContent")
    click(page, "pop")
    scene_at_rest(page, "window.sandbox.scene.navigationStacks[0].stack.length === 1")

    # The server's refusal shows next to the panel and changes nothing.
    click(page, "pop")
    page.wait("document.getElementById('scene-error').textContent !== ''")
    assert page.js("return document.getElementById('scene-error').textContent").startswith("cannot-pop-root")
    assert page.get("scene")["navigationStacks"][0]["stack"] == ["list"]

    # Many transitions: the log keeps the last 50 groups (2 launches + 2 + 52 here).
    for i in range(26):
        click(page, "push")
        scene_at_rest(page, "window.sandbox.scene.navigationStacks[0].stack.length === 2")
        click(page, "pop")
        scene_at_rest(page, "window.sandbox.scene.navigationStacks[0].stack.length === 1")
    page.paint()
    groups = page.js("return [...document.querySelectorAll('#lifecycle-log .lifecycle-group')].map((g) => Number(g.dataset.group))")
    assert len(groups) == 50 and groups == list(range(6, 56)), groups
    assert {m["group"] for m in page.get("lifecycle")} == set(range(6, 56))
    assert page.js("return document.getElementById('scene-error').textContent") == ""  # cleared by a success

    # Leaving the scene: the panel empties and the page is the plain sandbox again.
    page.js("document.getElementById('scene-leave').click()")
    page.wait("window.sandbox.scene === null && window.sandbox.frameScene === null")
    page.wait("document.getElementById('scene-body').hidden && document.getElementById('scene-leave').hidden")
    assert page.get("screenSize") == page.get("config")["container"]
    page.wait(AT_REST)


def test_a_tablet_form_sheet_dims_the_presenter_beneath(page):
    start_scene(page, device="tablet")
    assert page.get("screenSize") == [820, 1180]
    ratio = page.js("const c = document.getElementById('screen'); return c.width / c.height")
    assert abs(ratio - 820 / 1180) < 0.01
    set_controls(page, style="formSheet", transition="", animated=False, interactive=False)
    click(page, "present")
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    page.wait("window.sandbox.frameScene.layers.some((l) => l.role === 'dimming')")
    page.paint()
    # Form sheet: 540 × 620 at (140, 280); outside it the list shows through 0.4 black.
    list_colour = card_colour(page, "list")
    dimmed = colour(page, (20, 700, 80, 200))
    assert near(dimmed, [c * 0.6 for c in list_colour], 4), (dimmed, list_colour)
    inside = colour(page, (300, 650, 200, 150))
    assert near(inside, card_colour(page, "vc2")), inside


def test_drive_it_with_a_pan_hands_the_present_to_the_next_drag(page):
    start_scene(page)
    set_controls(page, style="fullScreen", transition="", animated=True, interactive=True)
    click(page, "present")
    page.wait("window.sandbox.scene.armed && window.sandbox.scene.armed.action === 'present'")
    assert page.get("scene")["presentations"] == []
    assert page.get("lifecycle")[-1]["action"] == "launch"  # armed: nothing has started yet
    # Cover vertical presents by panning up, 1:1 with the finger: 500 of 844 pt is past half.
    page.drag([(195, 820 - 50 * i) for i in range(11)])
    assert page.wait_rest("finished") == "finished"
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    assert page.get("scene")["topMost"] == "vc2"
    assert lines(group_of(page, "present")) == [
        "vc2.viewDidLoad(false)", "nav.viewWillDisappear(true)", "list.viewWillDisappear(true)",
        "vc2.viewWillAppear(true)", "vc2.completeTransition(true)", "vc2.viewDidAppear(true)",
        "nav.viewDidDisappear(true)", "list.viewDidDisappear(true)"]
    assert near(colour(page, (40, 420, 300, 200)), card_colour(page, "vc2"))


def test_watching_a_scene_session_shows_its_tree_log_and_cards(page, server):
    with connect(server.url, subprotocols=["transition-sandbox.v2"]) as headless:
        welcome = json.loads(headless.recv())

        def send_and_wait_state(message):
            headless.send(json.dumps(message))
            while json.loads(headless.recv())["type"] != "scene-state":
                pass

        send_and_wait_state({"type": "scene", "root": {"id": "nav", "kind": "navigation", "stack": [{"id": "list"}]}})
        page.js("const form = document.getElementById('watch');"
                "form.elements.session.value = arguments[0]; form.requestSubmit();", welcome["session"])
        page.wait("window.sandbox.role === 'viewer' && window.sandbox.scene !== null")
        page.wait("document.getElementById('scene-tree').textContent.includes('list')")
        # A viewer may not drive: the panel's controls are off.
        page.wait("document.querySelector('#scene-controls button[data-action=present]').disabled")
        send_and_wait_state({"type": "present", "controller": {"id": "sheet", "presentationStyle": "pageSheet"},
                             "animated": False})
        page.wait("window.sandbox.lifecycle.some((m) => m.controller === 'sheet' && m.callback === 'viewDidAppear')")
        page.wait("window.sandbox.scene.topMost === 'sheet' && window.sandbox.frameScene.transition !== null")
        page.wait("document.getElementById('lifecycle-log').textContent.includes('sheet.completeTransition(true)')")
        page.paint()
        assert near(colour(page, (40, 420, 300, 200)), card_colour(page, "sheet"))
        assert near(colour(page, (40, 49, 300, 6)), card_colour(page, "nav"))
    # The driver left: a session of the page's own, without a scene.
    page.wait("window.sandbox.role === 'driver' && window.sandbox.connected && window.sandbox.scene === null")
    page.wait("document.getElementById('scene-body').hidden && !document.querySelector('#scene-controls button').disabled")
