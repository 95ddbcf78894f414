"""The page against `serve --prebuilt-frames` (a diagnostic: every frame is padding,
`{"type":"frame","pad":"xx…"}`, docs/PERFORMANCE.md "The server core's floor"): the page shows
nothing, but it keeps none of them (a gesture's history holds up to 30,000 frames: 64 KiB ones
would take gigabytes) and throws nothing per frame."""
import time

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from browser import with_test_query


def test_padding_frames_are_dropped_not_kept_nor_drawn(driver, make_server):
    server = make_server("--prebuilt-frames", "4096")
    driver.get(with_test_query(server.page))
    driver.get_log("browser")  # the page's earlier logs, if any
    deadline = time.monotonic() + 10
    while not driver.execute_script("return Boolean(window.sandbox && window.sandbox.connected)"):
        assert time.monotonic() < deadline, "the page did not connect"
        time.sleep(0.05)
    x, y = driver.execute_script("return window.sandbox.containerToClient(100, 400)")
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"), duration=0)
    actions.pointer_action.move_to_location(int(x), int(y))
    actions.pointer_action.pointer_down()
    for i in range(60):  # a second's drag: the session ticks, every frame it sends is padding
        actions.pointer_action.move_to_location(int(x) + 2 * i, int(y))
        actions.pointer_action.pause(1 / 60)
    actions.pointer_action.pointer_up()
    actions.perform()
    deadline = time.monotonic() + 10
    while driver.execute_script("return window.sandbox.framesIgnored") < 30:
        assert time.monotonic() < deadline, "the padding frames did not arrive"
        time.sleep(0.05)
    kept = driver.execute_script("return window.sandbox.history.reduce((n, g) => n + g.frames.length, 0)")
    assert kept == 0
    assert driver.execute_script("return window.sandbox.framesReceived") == 0
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors[:3]
