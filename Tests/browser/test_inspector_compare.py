"""Compare mode (web/js/compare.js): two sessions side by side, each with its preset's settings,
fed by one pointer stream. On the same flick the threshold side cancels and the projection side
finishes — each as its own rule says, from the same progress and velocity — and the two canvases
differ."""
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys

# The share of pixels that differ between the two compare canvases.
CANVAS_DIFFERENCE = """
const [a, b] = ['compare-a-canvas', 'compare-b-canvas'].map((id) => {
  const canvas = document.getElementById(id);
  return canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
});
if (a.length !== b.length) return null;
let differing = 0;
for (let i = 0; i < a.length; i += 4) {
  if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 48) differing += 1;
}
return differing / (a.length / 4);
"""

BOTH_READY = "window.sandbox.compare.sides.every((side) => side.ready)"


def open_compare(page, preset):
    if not page.get("compare")["open"]:
        page.js("document.getElementById('compare-open').click()")
    page.wait("window.sandbox.compare.open")
    page.js("""
        const select = document.getElementById('compare-preset');
        if (select.value !== arguments[0]) {
          select.value = arguments[0];
          select.dispatchEvent(new Event('change'));
        }
    """, preset)
    page.wait(f"window.sandbox.compare.preset === {preset!r} && {BOTH_READY}")
    return page.get("compare")["sides"]


def drag_left(page, points, spacing=0.016):
    """One drag on the left canvas, a move every `spacing` s (so the release has a velocity),
    released at once after the last; waits until both sessions echoed its last seq."""
    pointer = PointerInput(interaction.POINTER_MOUSE, "mouse")
    actions = ActionBuilder(page.driver, mouse=pointer, duration=0)
    client = lambda p: [int(round(v)) for v in page.js("return window.sandbox.compareToClient(0, ...arguments)", *p)]
    actions.pointer_action.move_to_location(*client(points[0]))
    actions.pointer_action.pointer_down()
    for point in points[1:]:
        actions.pointer_action.pause(spacing)
        actions.pointer_action.move_to_location(*client(point))
    actions.pointer_action.pointer_up()
    actions.perform()
    page.wait("window.sandbox.compare.sides.every((side) => side.seq > 0 && side.ack >= side.seq)")


def flick(page, points, spacing_ms=16):
    """A flick with exact timing, into compare mode's fan-out (chromedriver's actions on loaded
    cores come more than 40 ms apart, which the velocity tracker reads as a finger that stopped):
    a move every `spacing_ms`, released with the last."""
    t0 = page.js("return performance.now()")
    page.js("window.sandbox.comparePointer('down', arguments[0], arguments[1], arguments[2])", *points[0], t0)
    for i, (x, y) in enumerate(points[1:], start=1):
        page.js("window.sandbox.comparePointer('move', arguments[0], arguments[1], arguments[2])",
                x, y, t0 + i * spacing_ms)
    x, y = points[-1]
    page.js("window.sandbox.comparePointer('up', arguments[0], arguments[1], arguments[2])", x, y,
            t0 + (len(points) - 1) * spacing_ms)
    page.wait("window.sandbox.compare.sides.every((side) => side.seq > 0 && side.ack >= side.seq)")


def test_threshold_and_projection_decide_the_same_flick_each_by_its_rule(page):
    sides = open_compare(page, "threshold-projection")
    assert [s["config"]["releaseRule"] for s in sides] == ["threshold", "projection"]
    assert all(s["config"]["transition"] == "push" for s in sides)
    assert sides[0]["session"] != sides[1]["session"]
    page_session = page.get("session")
    flick(page, [(60 + 15 * i, 400) for i in range(7)])  # 90 pt at ~940 pt/s, released moving
    page.wait("window.sandbox.compare.sides.every((side) => side.outcomes.length === 1)")
    page.wait("window.sandbox.compare.sides.every((side) => ['finished', 'cancelled'].includes(side.phase))")
    page.paint()
    threshold, projection = page.get("compare")["sides"]
    a, b = threshold["released"], projection["released"]
    # One pointer stream: the same progress and velocity at release on both sides.
    assert a["progress"] == b["progress"] and a["velocity"] == b["velocity"], (a, b)
    limit = threshold["config"]["threshold"]
    assert a["reason"] == "threshold" and a["decision"] == ("cancel" if a["progress"] < limit else "finish"), a
    assert b["reason"] == "projection" and b["decision"] == ("cancel" if b["projected"] < limit else "finish"), b
    assert (a["decision"], b["decision"]) == ("cancel", "finish"), (a, b)
    assert threshold["outcomes"] == ["cancelled"] and projection["outcomes"] == ["finished"]
    difference = page.js(CANVAS_DIFFERENCE)
    assert difference is not None and difference > 0.3, difference
    # The page's own session was not touched.
    assert page.get("session") == page_session and page.get("seq") == 0


def test_the_other_presets_set_each_side_and_close_ends_both(page):
    sides = open_compare(page, "percent-property")
    assert [s["config"]["driver"] for s in sides] == ["percent-driven", "property-animator"]
    # Each side takes its own configure, typed under its canvas; a refusal changes nothing.
    page.js("""
        const form = document.getElementById('compare-b-configure');
        form.elements.patch.value = arguments[0];
        form.requestSubmit();
    """, '{"threshold": 2}')
    page.wait("window.sandbox.compare.sides[1].errors.length === 1")
    assert page.get("compare")["sides"][1]["errors"] == ["invalid-config"]
    page.js("""
        const form = document.getElementById('compare-b-configure');
        form.elements.patch.value = arguments[0];
        form.requestSubmit();
    """, '{"threshold": 0.3}')
    page.wait("window.sandbox.compare.sides[1].config.threshold === 0.3")
    assert page.get("compare")["sides"][0]["config"]["threshold"] == 0.5
    drag_left(page, [(60 + 15 * i, 400) for i in range(11)])
    page.wait("window.sandbox.compare.sides.every((side) => side.outcomes.length === 1)")
    a, b = (side["released"] for side in page.get("compare")["sides"])
    # The property animator decides by its fractionComplete, which a linear scrub keeps equal.
    assert a["progress"] == b["progress"] and a["decision"] == b["decision"], (a, b)
    sides = open_compare(page, "fullscreen-pagesheet")
    assert all(s["scene"] and not s["errors"] for s in sides), sides
    # Both present by a drag up (cover vertical follows the finger 1:1).
    drag_left(page, [(195, 800 - 80 * i) for i in range(9)])
    page.wait("window.sandbox.compare.sides.every((side) => side.outcomes.length === 1)")
    assert [s["outcomes"] for s in page.get("compare")["sides"]] == [["finished"], ["finished"]]
    page.js("document.getElementById('compare-close').click()")
    page.wait("!window.sandbox.compare.open")
    assert not any(s["ready"] for s in page.get("compare")["sides"])
    # Esc leaves it too. While it is open, the page's keys (here s, slow motion) do not act on
    # the page under it.
    open_compare(page, "threshold-projection")
    page.driver.find_element("tag name", "body").send_keys("s")
    page.paint()
    assert page.get("config")["timeScale"] == 1
    assert not page.js("return document.querySelector('[name=slowMotion]').checked")
    page.driver.find_element("tag name", "body").send_keys(Keys.ESCAPE)
    page.wait("!window.sandbox.compare.open")
