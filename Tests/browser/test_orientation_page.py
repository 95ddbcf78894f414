"""Orientation on the page: the device outline turns with the device and the interface
inside it turns as the server streams the root's transform.

- A portrait-only root: turning the device to landscapeLeft turns nothing in the interface
  (scene-state stays portrait, the root's transform stays the identity), so the portrait
  content turns *with the device*: the canvas is landscape-shaped and the navigation bar lies
  along the device's top edge, which is the user's left (device landscapeLeft = turned 90°
  counter-clockwise, home button on the right). A drag from the interface's left edge — the
  user's bottom edge — is an edge-swipe pop: the pointers reach the server in interface points.
  Then the seed's example from the panel: the mask becomes landscape too, nothing turns until
  "attempt rotation", which turns the interface to landscapeRight.
- An all-orientations root: the same turn streams a rotation (the root's `rotating` set, then
  null), the interface becomes landscapeRight, and the device's turn and the root's transform
  cancel: the landscape layout stands upright, its bar along the user's top, full width; a
  drag from the user's left edge (the interface's) pops a pushed controller.
Pictures: artifacts/browser/orientation-*.png."""

from scene_canvas import AT_REST, card_colour, colour, near

IDENTITY = [1, 0, 0, 1, 0, 0]


def start_scene(page, root_mask, legacy=False):
    page.js("""
        const form = document.getElementById('scene-start');
        form.elements.device.value = 'phone';
        form.elements.rootMask.value = arguments[0];
        form.elements.legacy.checked = arguments[1];
        form.requestSubmit();
    """, root_mask, legacy)
    page.wait("window.sandbox.scene !== null && window.sandbox.scene.inFlight === null")
    page.wait("window.sandbox.frameRoot !== null && window.sandbox.pendingRequests === 0")
    page.paint()
    return page.get("orientation")


def turn_device(page, orientation):
    page.js("document.querySelector(`#device-buttons button[data-device='${arguments[0]}']`).click()", orientation)
    page.wait(f"window.sandbox.orientation.device === {orientation!r} && window.sandbox.pendingRequests === 0")


def settled(page, interface):
    """Waits until scene-state and the frames agree on `interface` and nothing turns, then a paint."""
    page.wait(f"window.sandbox.orientation.interface === {interface!r}"
              f" && window.sandbox.frameRoot.interface === {interface!r}"
              " && window.sandbox.frameRoot.rotating === null")
    page.wait(AT_REST)
    page.paint()


def panel_field(page, field):
    return page.js(f"return document.querySelector('#orientation-summary dd[data-field={field}]').textContent")


def mask_row(page, source):
    """The orientations a row of the panel's mask table marks allowed."""
    return page.js("""
        const row = document.querySelector(`#orientation-mask tr[data-source='${arguments[0]}']`);
        return row ? [...row.querySelectorAll('td.mask-on')].map((td) => td.dataset.orientation) : null;
    """, source)


def push_from_the_panel(page):
    """Push a controller (not animated) with the panel's button; wait for the edge swipe armed."""
    page.js("""
        const form = document.getElementById('scene-controls');
        form.elements.animated.checked = false; form.elements.interactive.checked = false;
        form.elements.transition.value = '';
        document.querySelector('#scene-controls button[data-action=push]').click();
    """)
    page.wait("window.sandbox.scene.navigationStacks[0].stack.length === 2"
              " && window.sandbox.scene.armed && window.sandbox.scene.armed.edgeSwipe")
    page.wait(f"{AT_REST} && window.sandbox.pendingRequests === 0")


def test_a_portrait_only_root_turns_with_the_device_and_attempt_rotation_turns_it(page, artifacts):
    orientation = start_scene(page, "portrait")
    assert orientation["interface"] == "portrait" and orientation["allowed"]["names"] == ["portrait"]
    assert page.get("screenSize") == [390, 844]
    nav, lst = card_colour(page, "nav"), card_colour(page, "list")
    assert not near(nav, lst, 40)
    # Upright before the turn: the bar at the top (status bar part, no title), the list below.
    assert near(colour(page, (20, 4, 350, 36)), nav)
    assert near(colour(page, (20, 300, 350, 500)), lst)
    # The panel: where each bit comes from, the decider, the mask the root was started with.
    page.wait("document.querySelector('#orientation-mask tr[data-source=nav]') !== null")
    assert mask_row(page, "app") == ["portrait", "landscapeLeft", "landscapeRight"]
    assert mask_row(page, "nav") == ["portrait"]
    assert mask_row(page, "allowed") == ["portrait"]
    assert panel_field(page, "decider") == "nav" and panel_field(page, "shouldAutorotate") == "true"

    turn_device(page, "landscapeLeft")
    settled(page, "portrait")
    assert page.get("orientation")["interface"] == "portrait"
    assert page.get("frameRoot")["transform"] == IDENTITY and page.get("frameRoot")["bounds"] == [390, 844]
    assert panel_field(page, "device") == "landscapeLeft" and panel_field(page, "interface") == "portrait"
    assert not any(m["action"] == "rotate" for m in page.get("lifecycle"))
    # The device lies sideways, its top to the user's left: the canvas is landscape-shaped and
    # the portrait interface turned with the device. Interface (x, y) is the user's (y, 390 − x).
    assert page.get("screenSize") == [844, 390]
    assert page.js("return document.getElementById('device').dataset.top") == "left"
    ratio = page.js("const c = document.getElementById('screen'); return c.width / c.height")
    assert abs(ratio - 844 / 390) < 0.01
    bar = colour(page, (4, 20, 36, 350))     # interface (20…370, 4…40): the bar's status-bar part
    content = colour(page, (300, 20, 500, 350))  # interface (20…370, 300…800): the list
    assert near(bar, nav), (bar, nav)
    assert near(content, lst), (content, lst)
    assert not near(colour(page, (20, 4, 800, 20)), nav, 20)  # the user's top edge is not the bar
    page.screenshot(artifacts / "orientation-portrait-only-landscapeLeft.png")

    # Pointers go to the server in interface points: a drag from the interface's left edge
    # (the user's bottom edge) across is an edge-swipe pop of a pushed controller.
    push_from_the_panel(page)
    # Interface (5, 400) → (300, 400) is the user's (400, 385) → (400, 90): straight up.
    page.drag([(400, 385)] + [(400, 385 - 30 * i) for i in range(1, 11)])
    first = page.get("lastPointer")
    assert abs(first["x"] - 305) < 1.5 and abs(first["y"] - 400) < 1.5, first  # the release, in interface points
    assert page.wait_rest("finished") == "finished"
    page.wait("window.sandbox.scene.navigationStacks[0].stack.length === 1 && window.sandbox.scene.inFlight === null")

    # The seed's example: the mask gains landscape; nothing turns until attempt rotation.
    page.js("""
        const form = document.getElementById('orientation-edit');
        form.elements.controller.value = 'nav';
        form.elements.controller.dispatchEvent(new Event('change', {bubbles: true}));
        for (const name of ['landscapeLeft', 'landscapeRight']) {
          form.elements[`mask-${name}`].checked = true;
          form.elements[`mask-${name}`].dispatchEvent(new Event('change', {bubbles: true}));
        }
        form.querySelector('button[data-action=update]').click();
    """)
    page.wait("window.sandbox.orientation.allowed.mask === 26 && window.sandbox.pendingRequests === 0")
    assert page.get("orientation")["interface"] == "portrait"
    page.wait("document.querySelector('#orientation-mask tr[data-source=allowed] td[data-orientation=landscapeRight]').classList.contains('mask-on')")
    page.js("document.querySelector('#orientation-edit button[data-action=attempt-rotation]').click()")
    page.wait("window.sandbox.frameRoot.rotating !== null || window.sandbox.orientation.interface === 'landscapeRight'")
    settled(page, "landscapeRight")
    assert page.get("frameRoot")["transform"] == [0, 1, -1, 0, 0, 0]
    assert near(colour(page, (20, 4, 300, 20)), nav)  # now the bar runs along the user's top
    assert near(colour(page, (400, 150, 400, 200)), lst)
    page.screenshot(artifacts / "orientation-portrait-only-attempted.png")
    rotate = [m for m in page.get("lifecycle") if m["action"] == "rotate"]
    assert [(m["controller"], m["callback"]) for m in rotate] == [
        ("nav", "viewWillTransition"), ("list", "viewWillTransition"),
        ("nav", "viewWillLayoutSubviews"), ("list", "viewWillLayoutSubviews")]
    assert rotate[0]["size"] == [844, 390]
    page.wait("document.getElementById('lifecycle-log').textContent.includes('nav.viewWillTransition(to: 844 × 390)')")


def test_an_all_orientations_root_rotates_to_an_upright_landscape_layout(page, artifacts):
    orientation = start_scene(page, "all", legacy=True)
    # A phone's app mask is allButUpsideDown: all ∩ that.
    assert orientation["allowed"]["names"] == ["portrait", "landscapeRight", "landscapeLeft"]
    nav, lst = card_colour(page, "nav"), card_colour(page, "list")
    page.snapshot("portrait")
    page.capture_when("turning", "window.sandbox.frameRoot && window.sandbox.frameRoot.rotating"
                                 " && window.sandbox.frameRoot.rotating.fraction >= 0.4")
    # The first `rotating` the page holds, kept in the page: a phone's turn lasts 0.3 s, which
    # a wait's round trips on a loaded machine can miss whole.
    page.js("window.__rotating = null;"
            "const look = () => { const root = window.sandbox.frameRoot;"
            "  if (root && root.rotating) window.__rotating = root.rotating; else requestAnimationFrame(look); };"
            "requestAnimationFrame(look);")
    turn_device(page, "landscapeLeft")
    assert page.get("orientation")["interface"] == "landscapeRight"
    assert page.get("orientation")["bounds"] == [0, 0, 844, 390]
    page.wait("window.__rotating !== null")
    rotating = page.js("return window.__rotating")
    assert rotating["from"] == "portrait" and rotating["to"] == "landscapeRight"
    settled(page, "landscapeRight")
    assert page.get("frameRoot")["transform"] == [0, 1, -1, 0, 0, 0]
    assert page.get("frameRoot")["bounds"] == [844, 390]
    assert page.get("screenSize") == [844, 390]
    assert page.get("deviceTurns") == -1

    # The device's turn and the root's cancel: the landscape layout, upright. The bar (32 pt in
    # landscape) along the user's top, full width; the list below it.
    bar_left, bar_right = colour(page, (10, 4, 300, 20)), colour(page, (534, 4, 300, 20))
    assert near(bar_left, nav) and near(bar_right, nav), (bar_left, bar_right, nav)
    assert near(colour(page, (400, 150, 400, 200)), lst)
    assert near(colour(page, (10, 300, 300, 80)), lst)  # the user's lower left: the list, not the bar
    page.screenshot(artifacts / "orientation-all-landscape.png")

    # Mid-turn the picture is neither the start nor the end: the content at an angle, black corners.
    page.captured("turning", artifacts / "orientation-all-turning.png")
    page.snapshot("landscape")
    assert page.js("return window.__snapshots.turning.length") == page.js("return window.__snapshots.landscape.length")
    turning = page.difference("turning", "landscape")
    assert turning["differing"] > 0.05, turning

    # The legacy callbacks, didRotate at the end of the turn, in one log group.
    page.wait("window.sandbox.lifecycle.some((m) => m.callback === 'didRotate')")
    rotate = [m for m in page.get("lifecycle") if m["action"] == "rotate"]
    assert [(m["controller"], m["callback"]) for m in rotate] == [
        ("nav", "willRotate"), ("list", "willRotate"), ("nav", "viewWillLayoutSubviews"),
        ("list", "viewWillLayoutSubviews"), ("nav", "willAnimateRotation"), ("list", "willAnimateRotation"),
        ("nav", "didRotate"), ("list", "didRotate")]
    page.wait("document.getElementById('lifecycle-log').textContent.includes('list.didRotate(from: portrait)')")
    headings = page.js("return [...document.querySelectorAll('#lifecycle-log .lifecycle-group h3')].map((h) => h.textContent)")
    assert headings == ["#1 launch", "#2 rotate"], headings
    page.paint()

    # Pointers are interface points in landscape too: the interface's left edge is the user's
    # left edge now, and a drag from it across is the edge-swipe pop (in the device's portrait
    # coordinates that point would be near the top edge's middle, and pop nothing).
    push_from_the_panel(page)
    page.drag([(5, 200)] + [(5 + 60 * i, 200) for i in range(1, 11)])
    released = page.get("lastPointer")
    assert abs(released["x"] - 605) < 1.5 and abs(released["y"] - 200) < 1.5, released
    assert page.wait_rest("finished") == "finished"
    page.wait("window.sandbox.scene.navigationStacks[0].stack.length === 1 && window.sandbox.scene.inFlight === null")
    page.paint()

    # Face up: the interface keeps landscapeRight, the outline keeps its turn.
    turn_device(page, "faceUp")
    settled(page, "landscapeRight")
    assert page.get("screenSize") == [844, 390] and page.get("deviceTurns") == -1
    # Back to portrait: the interface turns back, the canvas stands up again, the bar on top.
    turn_device(page, "portrait")
    settled(page, "portrait")
    assert page.get("screenSize") == [390, 844]
    assert near(colour(page, (20, 4, 350, 36)), nav)
    page.snapshot("portrait-again")
    back = page.difference("portrait", "portrait-again")
    assert back["mean"] < 1.0 and back["differing"] < 0.002, back
