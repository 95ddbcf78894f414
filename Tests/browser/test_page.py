"""The page in a real browser: drags finish and play back, touch works, the panels fill, the
page reconnects, and the server's errors reach the form."""
import json
import re
import subprocess

from browser import Page
from conftest import BINARY
from selenium.webdriver.support.ui import WebDriverWait
from websockets.sync.client import connect

# A screen-edge strip that is plain white on the inbox and purple on the message screen.
EDGE = (355, 300, 30, 40)


def is_white(colour):
    return min(colour) > 230


def is_purple(colour):
    r, g, b = colour
    return b > r + 20 and g < 120


def line(x0, x1, steps=12, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


def drag_x(page, x0, x1, steps=12, y=400, **kw):
    page.drag(line(x0, x1, steps, y), **kw)


def test_a_mouse_drag_past_the_threshold_finishes_on_the_destination_screen(page):
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    assert is_white(page.mean_colour(EDGE))
    drag_x(page, 60, 230)  # 170 / 200 = 0.85
    assert page.wait_rest() == "finished"
    assert page.get("config")["operation"] == "dismiss"  # the next drag goes back
    assert is_purple(page.mean_colour(EDGE)), page.mean_colour(EDGE)
    decision = page.js("return document.getElementById('hud-decision').textContent")
    assert decision.startswith("present finished at 0.") and "by threshold" in decision, decision


def test_a_short_drag_plays_back_to_the_starting_pixels(page):
    page.configure("transition", "push", "window.sandbox.config.transition === 'push'")
    page.snapshot("before")
    page.capture_when("during", "window.sandbox.phase === 'tracking' && window.sandbox.progress >= 0.34")
    page.drag(line(60, 130) + [("pause", 300)])  # 70 / 200 = 0.35, held still, released
    assert page.wait_rest() == "cancelled"
    page.captured("during")
    moved = page.difference("before", "during")
    assert moved["differing"] > 0.2, moved  # the screens really moved
    page.snapshot("after")
    back = page.difference("before", "after")
    assert back["mean"] < 1.0 and back["differing"] < 0.002, back


def test_a_touch_drag_works_the_same(phone, server):
    page = Page(phone, server.page).open()
    assert page.js("return navigator.maxTouchPoints") > 0
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    drag_x(page, 60, 230, kind="touch")
    assert page.wait_rest() == "finished"
    assert is_purple(page.mean_colour(EDGE))
    assert page.get("config")["operation"] == "dismiss"
    drag_x(page, 60, 230, kind="touch")  # the next drag dismisses
    assert page.wait_rest() == "finished"
    assert page.get("config")["operation"] == "present"
    assert is_white(page.mean_colour(EDGE))


def test_the_latency_readout_fills_with_numbers(page):
    drag_x(page, 60, 120, steps=20)
    page.wait("window.sandbox.latency.count >= 20")
    # The panel repaints every 250 ms: wait for a repaint that has seen all 20, not just any.
    page.wait("Number(document.getElementById('lat-count').textContent) >= 20")
    for cell in ("total-p50", "total-p99", "network-p50", "network-p99", "server-p50", "server-p99"):
        text = page.js(f"return document.getElementById('lat-{cell}').textContent")
        assert re.fullmatch(r"\d+(\.\d+)? ms", text), (cell, text)
    latency = page.get("latency")
    assert 0 <= latency["server"]["p50"] <= latency["total"]["p50"]


def test_after_the_server_restarts_the_page_reconnects_with_its_settings(driver, make_server):
    first = make_server()
    page = Page(driver, first.page).open()
    page.configure("duration", "0.8", "window.sandbox.config.duration === 0.8")
    old_session = page.get("session")
    first.stop()
    page.wait("document.getElementById('connection').dataset.state !== 'open'")
    assert not page.get("connected")
    second = make_server(port=first.port)
    page.wait("window.sandbox.connected && window.sandbox.config.duration === 0.8", timeout=20)
    assert page.get("session") != old_session
    assert page.js("return document.getElementById('connection').textContent") == "connected"
    drag_x(page, 60, 230)  # and it drives the new session
    assert page.wait_rest() == "finished"
    second.stop()


def test_a_bad_value_shows_the_servers_error_next_to_its_field(page):
    page.set_field("duration", "abc")
    page.wait("document.querySelector(\".field-error[data-field='duration']\").textContent !== ''")
    assert "'duration' must be a number" in page.field_error("duration")
    page.set_field("duration", "0")
    page.wait("document.querySelector(\".field-error[data-field='duration']\").textContent.includes('0.01')")
    assert "duration must be a number in [0.01, 60.0]" in page.field_error("duration")
    assert page.get("config")["duration"] == 1  # nothing changed
    page.set_field("springDamping", "50")
    page.wait("document.querySelector(\".field-error[data-field='spring.damping']\").textContent !== ''")
    assert "[0.05, 10.0]" in page.field_error("spring.damping")
    page.configure("duration", "0.6", "window.sandbox.config.duration === 0.6")
    assert page.field_error("duration") == ""


def test_tapping_a_thumbnail_presents_it_and_a_drag_dismisses_it(page):
    assert page.get("config")["transition"] == "pop"
    list_colour = page.mean_colour((20, 300, 60, 40))
    page.tap(76, 700)  # card 0 (Basil) at [16, 644, 120, 160]
    assert page.wait_rest() == "finished"
    assert page.get("selected") == 0
    assert page.get("config")["originFrame"] == [16, 644, 120, 160]
    r, g, b = page.mean_colour((20, 300, 60, 40))
    assert g > r and g > b, (r, g, b)  # Basil's green detail fills the screen
    assert page.get("config")["operation"] == "dismiss"
    drag_x(page, 60, 230)
    assert page.wait_rest() == "finished"
    assert page.mean_colour((20, 300, 60, 40)) == list_colour  # back on the list


def test_recording_a_drag_downloads_a_pan_script_that_replays_headlessly(page, server):
    page.js("document.getElementById('record').click()")
    drag_x(page, 60, 200)
    page.wait_rest()
    page.wait("window.sandbox.recording !== null")
    script = page.get("recording")
    assert script["script"] == 1 and script["config"] == page.js(
        "return Object.assign({}, window.sandbox.config, {operation: 'present'})")
    steps = script["steps"]
    near = lambda p, q: all(abs(a - b) < 1 for a, b in zip(p, q))  # whole CSS pixels
    assert list(steps[0]) == ["down"] and near(steps[0]["down"], [60, 400])
    moves = [s for step in steps if "samples" in step for s in step["samples"]]
    assert len(moves) == 12 and near(moves[-1][1:], [200, 400])
    assert all(a[0] < b[0] for a, b in zip(moves, moves[1:]))  # times increase
    assert {"up": True} in steps and steps[-1] == {"wait": "rest"}
    assert script["expect"] == {"outcome": "finished", "progress": 1}
    link = page.js("const a = document.getElementById('download'); return [a.hidden, a.download, a.href]")
    assert link[0] is False and link[1].endswith(".json") and link[2].startswith("blob:")
    page.js("document.getElementById('download').click()")
    saved = page.driver.downloads / link[1]
    WebDriverWait(page.driver, 10).until(lambda _: saved.exists() and saved.stat().st_size > 0)
    assert json.loads(saved.read_text()) == script
    # The downloaded script replays unchanged, in-process and against the server, with the
    # outcome it had in the browser.
    replay = subprocess.run([str(BINARY), "pan", str(saved), "--local", "--url", server.url],
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "2 passed, 0 failed" in replay.stdout


def test_watching_another_session_shows_its_frames_live(page, server):
    with connect(server.url, subprotocols=["transition-sandbox.v2"]) as headless:
        welcome = json.loads(headless.recv())
        page.js("const form = document.getElementById('watch');"
                "form.elements.session.value = arguments[0]; form.requestSubmit();", welcome["session"])
        page.wait("window.sandbox.role === 'viewer'")
        assert page.get("session") == welcome["session"]
        headless.send(json.dumps({"type": "configure", "transition": "fade"}))
        page.wait("window.sandbox.config.transition === 'fade'")
        for seq, (phase, x) in enumerate([("down", 60)] + [("move", 60 + 15 * i) for i in range(1, 12)] + [("up", 225)], 1):
            headless.send(json.dumps({"type": "pointer", "phase": phase, "x": x, "y": 400, "t": seq * 16.0, "seq": seq}))
        page.wait("window.sandbox.phase === 'finished'")
        page.paint()
        assert is_purple(page.mean_colour(EDGE))
    # The driver left: the page is told, and gets a session of its own again.
    page.wait("window.sandbox.role === 'driver' && window.sandbox.connected")
    assert page.get("session") != welcome["session"]


KINDS = ["pop", "reveal", "fade", "push", "cover-vertical", "flip-horizontal", "cross-dissolve", "partial-curl",
         "zoom"]
# Where to look: the middle of the timeline, but the pop's 0.4-damped spring is nearly home by
# then, so it is caught early, mid-growth; the reveal's ease-in logo fills the screen well before
# 0.5; at 0.5 a flip is edge-on; the zoom's critically damped spring is most of the way by 0.5.
MIDDLE = {"pop": 0.08, "reveal": 0.15, "flip-horizontal": 0.3, "zoom": 0.15}


def test_every_kind_at_mid_progress_differs_from_both_ends(page, artifacts):
    """Screenshots for a person to look at (artifacts/browser/), and a check that each
    transition's middle is neither its start nor its end."""
    for kind in KINDS:
        page.configure("transition", kind, f"window.sandbox.config.transition === '{kind}'")
        page.snapshot("start")
        middle = MIDDLE.get(kind, 0.5)
        x = 60 + 200 * middle
        page.capture_when("middle", f"window.sandbox.phase === 'tracking' && window.sandbox.progress >= {middle - 0.01}")
        page.drag(line(60, x) + [("pause", 300)] + line(x, 260, steps=6)[1:])  # held at the middle, then on
        assert page.wait_rest() == "finished", kind
        page.captured("middle", artifacts / f"{kind}-mid.png")
        page.snapshot("end")
        page.screenshot(artifacts / f"{kind}-end.png")
        assert page.difference("start", "middle")["differing"] > 0.05, kind
        assert page.difference("middle", "end")["differing"] > 0.05, kind
        page.set_field("operation", "present")
        page.wait("window.sandbox.config.operation === 'present'")
