"""What a new user tripped over, held: a setting changed while the page is scrolled keeps the
screen's size and the scroll; the compare panel's iOS 12 vs 13 preset; the iOS select says it
restarts the scene, the restart clears the HUD's last decision, and on iOS 7 the legacy-callbacks
box is ticked and fixed (and no `rotationCallbacks` is sent); the timeline's readout counts from
the gesture's start; a drag that moves nothing says why near the phone; at phone width the scene
panel sits right under the phone."""
import json

import pytest
from selenium.webdriver.common.keys import Keys

from browser import Page, make_driver, quit_driver
from layout_checks import set_viewport
from test_inspector_compare import drag_left, open_compare
from test_page import drag_x
from test_scene_page import click, scene_at_rest, set_controls, start_scene

CANVAS_SIZE = "const r = document.getElementById('screen').getBoundingClientRect(); return [r.width, r.height];"

# Every message the page sends from now on, parsed, in window.__sent.
RECORD_SENT = """
if (!window.__sent) {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { window.__sent.push(JSON.parse(data)); } catch (error) { window.__sent.push(String(data)); }
    return send.call(this, data);
  };
}
window.__sent.length = 0;
"""


@pytest.fixture(scope="module")
def wide():
    """The reviewer's window: 1400 × 1000 CSS px."""
    d = make_driver(width=1400, height=1000)
    yield d
    quit_driver(d)


def set_ios(page, ios):
    page.js("const select = document.getElementById('scene-start').elements.ios;"
            "select.value = arguments[0]; select.dispatchEvent(new Event('change'));", ios)


def test_a_setting_changed_while_scrolled_keeps_the_screen_size_and_the_scroll(wide, server):
    page = Page(wide, server.page).open()
    set_viewport(wide, 1400, 1000)
    page.paint()
    before = page.js(CANVAS_SIZE)
    page.js("document.querySelector('#settings [name=transition]').scrollIntoView({block: 'center'})")
    page.paint()
    scrolled = page.js("return window.scrollY")
    assert scrolled > 200, "the page must be scrolled for this to hold anything"
    page.configure("transition", "push", "window.sandbox.config.transition === 'push'")
    after = page.js(CANVAS_SIZE)
    assert abs(after[0] - before[0]) <= 2 and abs(after[1] - before[1]) <= 2, (before, after)
    assert abs(page.js("return window.scrollY") - scrolled) <= 2
    # Back at the top, a change sizes the screen the same.
    page.js("window.scrollTo(0, 0)")
    page.configure("transition", "pop", "window.sandbox.config.transition === 'pop'")
    assert abs(page.js(CANVAS_SIZE)[1] - before[1]) <= 2


def test_the_ios_preset_compares_the_default_style_on_12_and_13(page):
    note = page.js("return document.querySelector('#compare .note').textContent")
    assert "no iOS-version" not in note and "iOS 12" in note
    sides = open_compare(page, "ios12-ios13")
    assert [s["ios"] for s in sides] == ["12", "13"], sides
    page.wait("window.sandbox.compare.sides.every((side) => side.outcomes.length === 0 && side.scene)")
    drag_left(page, [(195, 800 - 80 * i) for i in range(9)])
    page.wait("window.sandbox.compare.sides.every((side) => side.outcomes.length === 1"
              " && side.styles.length === 1)")
    sides = page.get("compare")["sides"]
    assert [s["styles"] for s in sides] == [["fullScreen"], ["pageSheet"]], sides
    assert [s["outcomes"] for s in sides] == [["finished"], ["finished"]]


def test_the_ios_select_says_it_restarts_and_iOS_7_fixes_the_legacy_callbacks(page):
    label = page.js("return document.querySelector('#scene-start [name=ios]').closest('label').textContent")
    assert "restarts the scene" in label
    start_scene(page)
    # A present, driven by a pan: the HUD tells its decision.
    set_controls(page, style="pageSheet", transition="", animated=True, interactive=True)
    click(page, "present")
    page.wait("window.sandbox.scene.armed !== null && window.sandbox.pendingRequests === 0")
    page.drag([(195, 800 - 80 * i) for i in range(9)])
    page.wait("document.getElementById('hud-decision').textContent.includes('finished')")
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    legacy = "document.querySelector('#scene-start [name=legacy]')"
    assert page.js(f"return [{legacy}.checked, {legacy}.disabled]") == [False, False]

    page.js(RECORD_SENT)
    set_ios(page, "7")
    page.wait("window.sandbox.scene && window.sandbox.scene.ios === '7'"
              " && window.sandbox.scene.presentations.length === 0")
    assert page.js("return document.getElementById('hud-decision').textContent") == "—"
    page.wait(f"{legacy}.checked && {legacy}.disabled")
    scenes = [m for m in page.js("return window.__sent") if isinstance(m, dict) and m.get("type") == "scene"]
    assert len(scenes) == 1 and scenes[0]["ios"] == "7" and "rotationCallbacks" not in scenes[0], scenes
    assert page.get("scene")["ios"] == "7"

    # Back on a later release the box is the user's own again (unticked), and a ticked one is sent.
    set_ios(page, "12")
    page.wait("window.sandbox.scene && window.sandbox.scene.ios === '12'")
    page.wait(f"!{legacy}.checked && !{legacy}.disabled")
    page.js(f"{legacy}.checked = true; window.__sent.length = 0;"
            "document.getElementById('scene-start').requestSubmit();")
    page.wait("window.__sent.some((m) => m.type === 'scene')")
    sent = [m for m in page.js("return window.__sent") if isinstance(m, dict) and m.get("type") == "scene"]
    assert sent[0]["rotationCallbacks"] == "legacy", json.dumps(sent)


def test_the_timeline_readout_counts_from_the_gestures_start(page):
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    drag_x(page, 60, 180)
    page.wait_rest()
    gesture = page.get("history")[-1]
    page.js("document.getElementById('timeline').scrollIntoView()")
    page.driver.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    page.wait(f"window.sandbox.timeline.n === {gesture['frames'][-1]['n']}")
    page.paint()
    readout = page.js("return document.getElementById('timeline-frame').textContent")
    frames = gesture["frames"]
    since = frames[-1]["sent"] - frames[0]["sent"]
    assert f"+{since:.1f} ms into the gesture" in readout, readout
    assert " sent " not in readout and since < 60_000, readout


def test_a_drag_that_moves_nothing_says_why_near_the_phone(page):
    start_scene(page)
    hint = "document.getElementById('scene-drag-hint')"
    assert page.js(f"return {hint}.hidden")
    # At rest with nothing armed: generic words.
    page.drag([(195, 300 + 40 * i) for i in range(8)])
    page.wait(f"!{hint}.hidden")
    assert "moves nothing" in page.js(f"return {hint}.textContent")
    # A full-screen presentation on top: it has no dismiss gesture, and the hint says so.
    set_controls(page, style="fullScreen", transition="", animated=False, interactive=False)
    click(page, "present")
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    assert page.get("scene")["armed"] is None
    page.js(f"{hint}.hidden = true")
    page.drag([(195, 300 + 40 * i) for i in range(8)])
    page.wait(f"!{hint}.hidden")
    text = page.js(f"return {hint}.textContent")
    assert text.startswith("nothing to swipe away: a full-screen presentation has no dismiss gesture"), text
    # Over the phone, not pushing the layout: inside the device's box.
    inside = page.js(f"""
        const h = {hint}.getBoundingClientRect(), d = document.getElementById('device').getBoundingClientRect();
        return h.top >= d.top && h.bottom <= d.bottom && h.left >= d.left && h.right <= d.right;""")
    assert inside


def test_at_phone_width_the_scene_panel_is_right_under_the_phone(phone, server):
    page = Page(phone, server.page).open()
    start_scene(page)
    rects = page.js("""
        const r = (s) => document.querySelector(s).getBoundingClientRect();
        return {hint: r('#hint').bottom, scene: r('section.scene').top, timeline: r('#timeline-area').top,
                readouts: r('.readouts').top, screen: r('#screen').width, main: r('main').width};""")
    assert rects["hint"] <= rects["scene"] < rects["timeline"] < rects["readouts"], rects
    assert rects["scene"] - rects["hint"] < 40, rects
    # The screen still fills the width, and no more.
    assert rects["main"] - 40 <= rects["screen"] <= rects["main"] - 16, rects
    assert page.js("return document.documentElement.scrollWidth") <= 390
    # The badge marking the top-most controller stays on one line.
    lines = page.js("return document.querySelector('.scene-badge.scene-top').getClientRects().length")
    assert lines == 1
