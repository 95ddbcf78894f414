"""The covered side's own animation in a real browser (docs/SCENE.md, "What the frames draw"):
held half-way, an edge-swipe pop shows the revealed child shifted left under UIKit's shade, and
a flip shows the presenter turning away, narrower than the screen, and a navigation sheet's card
turning under a full-screen flip keeps its own 44 pt bar. Pixels are read after the
page painted the server's frame for the held pointer (its echo), never after a sleep."""

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from scene_canvas import AT_REST, card_colour, colour, near

# The brightest pixel's lowest channel in a rect of the canvas (scene points): a card's white
# title text is bright in every channel, its colour is not.
BRIGHTEST = """
const [x, y, w, h] = arguments[0];
const canvas = document.getElementById('screen');
const k = canvas.width / window.sandbox.screenSize[0];
const data = canvas.getContext('2d').getImageData(Math.round(x * k), Math.round(y * k),
                                                   Math.round(w * k), Math.round(h * k)).data;
let best = 0;
for (let i = 0; i < data.length; i += 4) best = Math.max(best, Math.min(data[i], data[i + 1], data[i + 2]));
return best;
"""


def start_scene(page):
    page.js("document.getElementById('scene-start').requestSubmit();")
    page.wait("window.sandbox.scene !== null && window.sandbox.scene.inFlight === null")
    page.wait("window.sandbox.frameScene !== null && window.sandbox.pendingRequests === 0")


def act(page, action, **values):
    """Sets the scene controls (selects by value, checkboxes by bool) and clicks `action`."""
    page.js("""
        const form = document.getElementById('scene-controls');
        for (const [name, value] of Object.entries(arguments[0])) {
          const control = form.elements[name];
          if (control.type === 'checkbox') control.checked = value; else control.value = value;
        }
        form.querySelector(`button[data-action=${arguments[1]}]`).click();
    """, values, action)


def held(page):
    """Waits until the page shows the server's frame for the held pointer, and returns it."""
    page.wait("window.sandbox.phase === 'tracking' && window.sandbox.shownPhase === 'tracking'"
              " && window.sandbox.shownProgress === window.sandbox.progress && window.sandbox.shownPredicted === false")
    page.paint()
    return page.get("frame")


def release_mouse(page):
    actions = ActionBuilder(page.driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"), duration=0)
    actions.pointer_action.pointer_up()
    actions.perform()


def layer(frame, layer_id):
    return next((entry for entry in frame["layers"] if entry["id"] == layer_id), None)


def test_a_held_edge_swipe_pop_shows_the_revealed_child_shifted_under_a_shade(page, artifacts):
    start_scene(page)
    act(page, "push", transition="", animated=False, interactive=False)
    page.wait("window.sandbox.scene.navigationStacks[0].stack.length === 2"
              " && window.sandbox.scene.inFlight === null && window.sandbox.pendingRequests === 0")
    page.wait("window.sandbox.scene.armed && window.sandbox.scene.armed.action === 'pop'")
    top = page.get("scene")["navigationStacks"][0]["stack"][-1]
    # From the left edge, half the width, held: the pop tracks 1:1 (the content is 390 wide).
    page.drag([(6 + 19 * i, 400) for i in range(11)] + [("pause", 200)], release=False)
    frame = held(page)
    assert frame["scene"]["transition"]["action"] == "pop" and 0.3 < frame["progress"] < 0.7, frame
    # The revealed list's title (white, at x 20 of its card at rest) has moved left off this strip.
    band = (14, 100, 150, 50)
    assert page.js(BRIGHTEST, list(band)) < 200
    revealed, shade = layer(frame, "to"), layer(frame, "shade")
    assert revealed and revealed["controller"] == "list" and shade, frame["layers"]
    left = revealed["center"][0] - revealed["bounds"][0] / 2
    assert left < -20, revealed  # the parallax: 30 % of the width times what is left of the pop
    assert 0.01 < shade["opacity"] < 0.1, shade
    page.screenshot(artifacts / "scene-covered-pop-held.png")

    # Left of the popped view: the list's colour, darkened by the shade (black at its opacity).
    list_colour = card_colour(page, "list")
    dimmed = colour(page, (40, 500, 100, 150))
    assert near(dimmed, [c * (1 - shade["opacity"]) for c in list_colour], 4), (dimmed, list_colour, shade)
    assert sum(dimmed) < sum(list_colour) - 3, (dimmed, list_colour)

    release_mouse(page)
    page.wait(f"{AT_REST} && window.sandbox.scene.inFlight === null && window.sandbox.pendingRequests === 0")
    page.paint()
    # At rest (popped or not) a card's title is back at x 20: the band shows it.
    assert page.js(BRIGHTEST, list(band)) >= 200
    assert page.get("scene")["navigationStacks"][0]["stack"][-1] in ("list", top)


def test_a_held_flip_turns_the_presenter_away(page, artifacts):
    start_scene(page)
    nav = card_colour(page, "nav")
    act(page, "present", style="fullScreen", transition="flip-horizontal", animated=True, interactive=True)
    page.wait("window.sandbox.scene.armed && window.sandbox.scene.armed.action === 'present'"
              " && window.sandbox.pendingRequests === 0")
    # 60 of the 200 pt pan: progress 0.3, the first half of the turn, the presenter still facing.
    page.drag([(100 + 6 * i, 500) for i in range(11)] + [("pause", 200)], release=False)
    frame = held(page)
    assert frame["scene"]["transition"]["action"] == "present" and 0.15 < frame["progress"] < 0.45, frame
    # The window shows beside the turning presenter (black), its middle is the presenter: its bar.
    assert max(colour(page, (0, 300, 4, 200))) < 10
    assert near(colour(page, (120, 20, 50, 20)), nav, 8), colour(page, (120, 20, 50, 20))
    front = layer(frame, "from")
    assert front and front["controller"] == "nav" and front["opacity"] == 1 and "transform3d" in front, frame
    xs = [corner[0] for corner in front["corners"]]
    assert max(xs) - min(xs) < 390 * 0.97, front["corners"]
    page.screenshot(artifacts / "scene-covered-flip-held.png")
    release_mouse(page)
    page.wait(f"{AT_REST} && window.sandbox.scene.inFlight === null")


def test_a_covered_navigation_sheet_keeps_its_bar_under_a_full_screen_flip(page):
    start_scene(page)
    act(page, "present", style="pageSheet", transition="", navigation=True, animated=False, interactive=False)
    page.wait("window.sandbox.scene.presentations.length === 1 && window.sandbox.scene.inFlight === null"
              " && window.sandbox.pendingRequests === 0")
    state = page.get("scene")
    sheet = state["presentations"][0]["presented"]
    child = next(s["stack"][-1] for s in state["navigationStacks"] if s["navigation"] == sheet)
    act(page, "present", style="fullScreen", transition="flip-horizontal", navigation=False, animated=True,
        interactive=True)
    page.wait("window.sandbox.scene.armed && window.sandbox.scene.armed.action === 'present'"
              " && window.sandbox.pendingRequests === 0")
    page.drag([(100 + 3 * i, 500) for i in range(11)] + [("pause", 200)], release=False)
    frame = held(page)
    front = layer(frame, "from")
    assert front and front["controller"] == sheet and front["bounds"] == [390, 787], frame["layers"]
    # The card's bar is 44 pt (it is not at the screen's top: no status bar in it), its child below.
    assert near(colour(page, (250, 108, 50, 20)), card_colour(page, child), 8)
    assert near(colour(page, (40, 64, 60, 10)), card_colour(page, sheet), 8)
    release_mouse(page)
    page.wait(f"{AT_REST} && window.sandbox.scene.inFlight === null")
