"""The scene panel's "try" presets in a real browser: each choice sets up its scene in one step
(checked on the server's scene-state, never on timing), says what to drag under the status line,
and one drag does what the hint says — the sheet moves from its medium to its large detent, the
zoom-pushed photo begins its zoom pop, iOS 26's content swipe pops from mid-screen. The release an
older iOS select falls back to, and the demo scene left untouched, are checked too
(docs/PAGE.md "Presets").

The releases each preset needs are UIKit's: sheet detents from iOS 15
(https://developer.apple.com/documentation/uikit/uisheetpresentationcontroller), the zoom
transition from iOS 18 (WWDC 2024 session 10145, "Enhancing your app with fluid transitions"),
the back swipe from anywhere in the content from iOS 26 (interactiveContentPopGestureRecognizer,
in the decompile of iOS 26.1's UIKitCore: EthanArbuckle/iPhone18-3_26.1_23B85_Restore)."""

from scene_canvas import AT_REST

# Records, from requestAnimationFrame, the first value of an expression that is truthy: the middle
# of one drag, seen by the page itself (chromedriver's drag is one action sequence).
WATCH = """
const holds = new Function(`return (${arguments[0]})`);
window.__seen = null;
const look = () => {
  const value = holds();
  if (value) { window.__seen = value; return; }
  requestAnimationFrame(look);
};
requestAnimationFrame(look);
"""


def choose(page, preset, ios=None):
    """Chooses a preset (with the iOS select set first, as a user would have it)."""
    page.js("""
        const form = document.getElementById('scene-start');
        if (arguments[1]) form.elements.ios.value = arguments[1];
        form.elements.preset.value = arguments[0];
        form.elements.preset.dispatchEvent(new Event('change', {bubbles: true}));
    """, preset, ios)


def settled(page, condition):
    """Waits until the server's scene-state says `condition` with nothing in flight, the frames
    rest and every request was answered; returns that scene-state."""
    page.wait(f"window.sandbox.scene && window.sandbox.scene.inFlight === null && ({condition})")
    page.wait(f"{AT_REST} && window.sandbox.pendingRequests === 0")
    page.paint()
    return page.get("scene")


def hint(page):
    return page.js("const line = document.getElementById('scene-preset-hint');"
                   "return line.hidden ? '' : line.textContent")


def stack(state, navigation="nav"):
    return next(entry["stack"] for entry in state["navigationStacks"] if entry["navigation"] == navigation)


def test_the_sheet_preset_rests_at_medium_and_a_drag_up_moves_it_to_large(page, artifacts):
    choose(page, "sheet-detents", ios="12")  # older than detents (iOS 15): the scene runs as iOS 26
    state = settled(page, "window.sandbox.scene.sheets && window.sandbox.scene.sheets[0].detent === 'medium'")
    assert state["ios"] == "26"
    assert state["root"]["id"] == "maps" and state["topMost"] == "places"
    assert [(p["presented"], p["style"]) for p in state["presentations"]] == [("places", "pageSheet")]
    assert [d["id"] for d in state["sheets"][0]["detents"]] == ["medium", "large"]
    assert page.js("return document.getElementById('scene-start').elements.ios.value") == "26"
    assert "drag the sheet up to its large detent" in hint(page)
    # The presented controller keeps its title though the page started no scene before.
    page.wait("document.getElementById('scene-tree').textContent.includes('“Places”')")
    page.wait("window.sandbox.frameScene.layers.some((l) => l.role === 'grabber')")
    page.paint()
    page.screenshot(artifacts / "preset-sheet-detents.png")

    top = state["sheets"][0]["top"]
    page.drag([(195, top + 80 - 30 * i) for i in range(11)] + [("pause", 100)])
    state = settled(page, "window.sandbox.scene.sheets[0].detent === 'large' && !window.sandbox.scene.sheets[0].moving")
    assert state["topMost"] == "places"
    assert any(m["callback"] == "sheetPresentationControllerDidChangeSelectedDetentIdentifier"
               for m in page.get("lifecycle"))


def test_the_zoom_preset_pushes_from_the_thumbnail_and_a_drag_down_begins_the_zoom_pop(page, artifacts):
    choose(page, "zoom", ios="18")  # new enough: the select's release is kept
    state = settled(page, "window.sandbox.scene.navigationStacks[0].stack.length === 2")
    assert state["ios"] == "18"
    assert stack(state) == ["grid", "photo"]
    grid = state["root"]["stack"][0]
    assert [(v["id"], v.get("kind", "view")) for v in grid["views"]] == [("thumb", "view")]
    assert state["armed"]["action"] == "pop" and state["armed"]["kind"] == "zoom", state["armed"]
    assert "shrinks back into its thumbnail" in hint(page)
    page.screenshot(artifacts / "preset-zoom.png")

    page.js(WATCH, "window.sandbox.scene.inFlight === 'pop' && window.sandbox.frameScene"
                   " && window.sandbox.frameScene.transition && window.sandbox.frameScene.transition.action")
    page.drag([(195, 400)] + [(195 + 12 * i, 400 + 32 * i) for i in range(1, 11)] + [("pause", 100)])
    page.wait("window.__seen !== null")
    assert page.js("return window.__seen") == "pop"
    state = settled(page, "window.sandbox.scene.navigationStacks[0].stack.length === 1")
    assert stack(state) == ["grid"]
    assert hint(page) == ""  # the photo is gone: nothing left to drag


def test_the_back_swipe_preset_pops_from_mid_screen_on_ios_26(page, artifacts):
    choose(page, "content-swipe", ios="18")  # iOS 26's swipe: an older select starts iOS 26
    state = settled(page, "window.sandbox.scene.navigationStacks[0].stack.length === 2")
    assert state["ios"] == "26"
    assert stack(state) == ["list", "detail"]
    detail = state["root"]["stack"][1]
    assert [(v["id"], v["kind"]) for v in detail["views"]] == [("carousel", "horizontal-scroll")]
    assert state["armed"]["action"] == "pop", state["armed"]
    assert "drag right from mid-screen" in hint(page)
    page.screenshot(artifacts / "preset-content-swipe.png")

    # From the middle of the carousel (at its leading edge: the swipe decides), rightwards.
    page.drag([(120, 400)] + [(120 + 24 * i, 400) for i in range(1, 11)] + [("pause", 100)])
    state = settled(page, "window.sandbox.scene.navigationStacks[0].stack.length === 1")
    assert stack(state) == ["list"]


def test_start_scene_after_a_preset_is_the_demo_scene_again(page):
    choose(page, "content-swipe")
    settled(page, "window.sandbox.scene.root.id === 'nav'"
                  " && window.sandbox.scene.navigationStacks[0].stack.length === 2")
    assert hint(page)
    page.js("document.getElementById('scene-start').requestSubmit()")
    state = settled(page, "window.sandbox.scene.navigationStacks[0].stack.length === 1")
    assert state["root"]["title"] == "Demo" and stack(state) == ["list"]
    assert "views" not in state["root"]["stack"][0]
    assert hint(page) == ""
    assert page.js("return document.getElementById('scene-start').elements.preset.value") == ""
