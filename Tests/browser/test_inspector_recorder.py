"""The recorder keeps the release position: a drag released away from its last move is saved as a
pan script that `sandbox pan --local` replays to the decision the page showed."""
import json
import subprocess

import pytest
from conftest import BINARY
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

# Remembers the id of the next pointer down on the screen, so a release can name it.
WATCH_POINTER = """
window.__pointerId = null;
document.getElementById('screen').addEventListener('pointerdown',
  (event) => { window.__pointerId = event.pointerId; }, {once: true});
"""

# A pointerup of that pointer at client (x, y): a release away from where the last move was.
RELEASE_AT = """
const [x, y] = arguments;
document.getElementById('screen').dispatchEvent(new PointerEvent('pointerup', {
  pointerId: window.__pointerId, pointerType: 'mouse', clientX: x, clientY: y, bubbles: true,
  isPrimary: true, button: 0, buttons: 0}));
"""


def release_mouse(driver):
    """Lifts the real mouse button too (the page already saw its release and ignores this one)."""
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"), duration=0)
    actions.pointer_action.pointer_up()
    actions.perform()


@pytest.mark.parametrize("moves_to, released_at, outcome", [
    (130, 330, "finished"),  # moved a little, released far along: finishes
    (330, 70, "cancelled"),  # moved far, released back near the start: cancels
])
def test_a_release_away_from_the_last_move_replays_to_the_decision_the_page_showed(
        page, tmp_path, moves_to, released_at, outcome):
    page.js(WATCH_POINTER)
    page.js("document.getElementById('record').click()")
    page.wait("window.sandbox.recording === null")
    steps = 10
    page.drag([(60 + (moves_to - 60) * i / steps, 400) for i in range(steps + 1)], release=False)
    page.outcomes_before = len(page.get("outcomes"))
    page.js(RELEASE_AT, *page.client_point(released_at, 400))
    release_mouse(page.driver)
    shown = page.wait_rest()
    assert shown == outcome
    page.wait("window.sandbox.recording !== null")
    script = page.get("recording")
    assert script["expect"]["outcome"] == outcome
    # The script's last move is the release position, then the pointer lifts there.
    moves = [s for step in script["steps"] if "samples" in step for s in step["samples"]]
    assert abs(moves[-1][1] - released_at) < 1 and abs(moves[-2][1] - moves_to) < 1, moves[-3:]
    up = script["steps"].index({"up": True})
    assert "samples" in script["steps"][up - 1]
    saved = tmp_path / "recorded.json"
    saved.write_text(json.dumps(script))
    replay = subprocess.run([str(BINARY), "pan", str(saved), "--local", "--json"],
                            capture_output=True, text=True, timeout=60)
    report = json.loads(replay.stdout)[0]
    assert report["outcome"] == shown, report
    assert replay.returncode == 0, report["failures"]
