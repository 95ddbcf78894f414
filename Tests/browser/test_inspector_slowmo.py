"""Slow animations in the page (web/js/slowMotion.js): the toggle and its factor set the
session's `timeScale`; at 0.1 a 0.3 s play spans at least 2.7 s of frames (the server's `sent`
times) at the same frame rate, and the same drag decides exactly as at 1."""

# Records every whole frame the page holds, once per animation frame: n, sent, phase.
RECORD = """
window.__frames = [];
const look = () => {
  const frame = window.sandbox.frame;
  const last = window.__frames[window.__frames.length - 1];
  if (frame && (!last || last.n !== frame.n)) window.__frames.push({n: frame.n, sent: frame.sent, phase: frame.phase});
  if (window.__recording) requestAnimationFrame(look);
};
window.__recording = true;
requestAnimationFrame(look);
"""

SETTINGS = "document.getElementById('settings')"


def slow_motion(page, factor):
    """Picks `factor` in the slow-motion select (1 turns it off) and waits for the server's echo."""
    page.js(f"""
        const select = {SETTINGS}.elements.timeScale;
        select.value = arguments[0];
        select.dispatchEvent(new Event('change', {{bubbles: true}}));
    """, str(factor))
    page.wait(f"window.sandbox.config.timeScale === {factor} && window.sandbox.pendingRequests === 0")


def play_span(page):
    """Taps the screen (a play of the whole transition) and returns the frames recorded."""
    page.js(RECORD)
    page.tap(195, 300)
    page.wait_rest("finished")
    page.js("window.__recording = false;")
    return page.js("return window.__frames")


def finishing_span(frames):
    """ms between the first finishing frame and the first finished one, as the server sent them."""
    start = next(f for f in frames if f["phase"] == "finishing")
    end = next(f for f in frames if f["phase"] == "finished")
    return end["sent"] - start["sent"]


def test_the_toggle_and_the_factor_set_the_sessions_time_scale(page):
    assert page.get("config")["timeScale"] == 1
    assert page.get("slowMotion") == {"active": False, "factor": 0.1, "timeScale": 1}
    page.js(f"{SETTINGS}.elements.slowMotion.click()")
    page.wait("window.sandbox.config.timeScale === 0.1")
    assert page.get("slowMotion")["active"] is True
    assert page.js(f"return {SETTINGS}.elements.slowMotion.checked") is True
    slow_motion(page, 0.25)
    assert page.get("slowMotion") == {"active": True, "factor": 0.25, "timeScale": 0.25}
    # The keyboard shortcut's target: off, then on again at the chosen factor.
    page.js(f"{SETTINGS}.elements.slowMotion.click()")
    page.wait("window.sandbox.config.timeScale === 1")
    assert page.js(f"return {SETTINGS}.elements.slowMotion.checked") is False
    # A factor outside 0.05…1 is the server's to refuse, beside the control; nothing changes.
    page.js(f"""
        const form = {SETTINGS};
        form.elements.timeScale.value = 'other';
        form.elements.timeScale.dispatchEvent(new Event('change', {{bubbles: true}}));
        form.elements.timeScaleOther.value = '5';
        form.elements.timeScaleOther.dispatchEvent(new Event('change', {{bubbles: true}}));
    """)
    page.wait("window.sandbox.pendingRequests === 0")
    assert "timeScale" in page.field_error("timeScale")
    assert page.get("config")["timeScale"] == 1


def test_a_slowed_play_spans_ten_times_the_frames_at_the_same_rate(page):
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    page.configure("duration", "0.3", "window.sandbox.config.duration === 0.3")
    page.js(f"{SETTINGS}.elements.autoReverse.checked = false")
    real = finishing_span(play_span(page))
    page.configure("operation", "present", "window.sandbox.config.operation === 'present'")
    slow_motion(page, 0.1)
    frames = play_span(page)
    slow = finishing_span(frames)
    assert slow >= 2700, (slow, real)
    assert real < 1000, real
    # The frame rate stays the session's: one new state (n + 1) every ~1/60 s of `sent` time
    # over the whole run (the page may skip frames it had no animation frame for; n counts them).
    start = next(f for f in frames if f["phase"] == "finishing")
    end = next(f for f in frames if f["phase"] == "finished")
    interval = (end["sent"] - start["sent"]) / (end["n"] - start["n"])
    assert abs(interval - 1000 / 60) < 3, interval
    print(f"0.3 s play: {real:.0f} ms at 1, {slow:.0f} ms over {end['n'] - start['n']} frames"
          f" ({interval:.1f} ms apart) at 0.1")  # docs/PAGE.md quotes this (pytest -s)


def decide(page, points):
    page.drag(points)
    outcome = page.wait_rest()
    text = page.js("return document.getElementById('hud-decision').textContent")
    return outcome, text.split(",")[0]  # "finish (threshold) at 0.700": the velocity after it is wall-clock timing


def test_the_same_drag_decides_alike_at_one_and_a_tenth(page):
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    page.js(f"{SETTINGS}.elements.autoReverse.checked = false")
    far = [(60 + 15 * i, 400) for i in range(11)] + [("pause", 200)]   # 150 pt, held: finishes
    near = [(60 + 6 * i, 400) for i in range(11)] + [("pause", 200)]   # 60 pt, held: cancels
    real = [decide(page, far), decide(page, near)]
    slow_motion(page, 0.1)
    slow = [decide(page, far), decide(page, near)]
    assert [o for o, _ in real] == ["finished", "cancelled"]
    # Outcome, rule and the tracked progress at release are the same (the velocity depends on
    # the browser's real timing of each drag, not on timeScale: TimeScaleTests holds it equal).
    assert slow == real, (slow, real)
