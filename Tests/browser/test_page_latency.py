"""The page's own share of motion-to-photon (docs/PAGE.md "The fast path"): raw pointer input,
a low-latency canvas, tracking frames drawn as they arrive, and what a browser without each of
those APIs does instead. Waits are on the server's echo or the page's state, never a sleep."""
import pytest

from browser import Page

MOVES = 20

# Run before the page's own scripts (CDP Page.addScriptToEvaluateOnNewDocument): a browser
# without pointerrawupdate, without getCoalescedEvents, or whose 2-D context ignores `desynchronized`.
WITHOUT = {
    "pointerrawupdate": """
for (const owner of [window, Window.prototype, Document.prototype, HTMLElement.prototype, Element.prototype,
                     SVGElement.prototype]) {
  delete owner.onpointerrawupdate;
}
""",
    "getCoalescedEvents": "delete PointerEvent.prototype.getCoalescedEvents;",
    "desynchronized": """
const getContext = HTMLCanvasElement.prototype.getContext;
HTMLCanvasElement.prototype.getContext = function (kind, options) {
  if (options && "desynchronized" in options) {
    options = { ...options };
    delete options.desynchronized;
  }
  return getContext.call(this, kind, options);
};
""",
}


def line(x0, x1, steps=MOVES, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


def drag_and_count(page):
    """A drag of MOVES moves past the threshold: the pointer messages it sent."""
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    page.wait("window.sandbox.pendingRequests === 0")
    page.paint()
    page.snapshot("before")
    seq = page.get("seq")
    page.drag(line(60, 230))
    sent = page.get("seq") - seq
    page.wait_rest("finished")
    mode = page.get("lab")["mode"]
    page.wait(f"window.sandbox.lab.motionToPhoton.{mode}.count >= {MOVES}")
    page.paint()
    page.snapshot("after")
    return sent


@pytest.fixture(params=[*WITHOUT, "all"])
def bare_page(request, driver, server):
    """The page in a browser without one of the fast path's APIs, or without any."""
    missing = list(WITHOUT) if request.param == "all" else [request.param]
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                    {"source": "\n".join(WITHOUT[name] for name in missing)})
    try:
        page = Page(driver, server.page).open()
        page.missing = missing
        yield page
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


# Counts the screen canvas's layout reads (getBoundingClientRect).
COUNT_RECTS = """
const screen = document.getElementById('screen');
const read = HTMLElement.prototype.getBoundingClientRect;
window.__rects = 0;
screen.getBoundingClientRect = function () { window.__rects += 1; return read.call(this); };
"""


def test_a_drag_reads_the_canvas_position_once_not_per_move(page):
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    page.js(COUNT_RECTS)
    points = line(60, 230)
    page.drag(points)
    # One read per point to aim the pointer (browser.py's client_point), one at the pointer's
    # down (input.js); a read per move would add MOVES.
    assert page.js("return window.__rects") == len(points) + 1


def test_raw_input_sends_each_sample_once_and_tracking_frames_are_drawn_as_they_arrive(page):
    path = page.get("drawPath")
    # Headless Chromium has both: pointerrawupdate in a secure context (127.0.0.1), and a
    # desynchronized 2-D context (getContextAttributes reports what it gave).
    assert path["rawInput"] and path["lowLatency"], path
    sent = drag_and_count(page)
    # Down, each move once (its raw update; the pointermove after it is skipped), up.
    assert sent == MOVES + 2
    path = page.get("drawPath")
    # Tracking frames only: the completion (finishing … finished) is drawn in requestAnimationFrame.
    phases = page.js("return window.sandbox.history.at(-1).frames.map((entry) => entry.frame.phase)")
    assert "finishing" in phases, phases
    assert 0 < path["fastDraws"] <= phases.count("tracking"), (path, phases)
    assert page.difference("before", "after")["differing"] > 0.05  # the fade finished: another picture
    # Hybrid draws the latest frame while tracking: the same fast path.
    page.js("const s = document.getElementById('smoothing'); s.value = 'hybrid';"
            "s.dispatchEvent(new Event('change', {bubbles: true}));")
    page.wait("window.sandbox.lab.mode === 'hybrid'")
    before = page.get("drawPath")["fastDraws"]
    assert drag_and_count(page) == MOVES + 2
    assert page.get("drawPath")["fastDraws"] > before


def test_without_raw_input_coalesced_events_or_a_low_latency_canvas_a_drag_still_draws(bare_page):
    page = bare_page
    raw = "pointerrawupdate" not in page.missing
    low_latency = "desynchronized" not in page.missing
    assert page.js("return 'onpointerrawupdate' in window") is raw
    assert page.js("return typeof PointerEvent.prototype.getCoalescedEvents === 'function'") is (
        "getCoalescedEvents" not in page.missing)
    assert page.get("drawPath") == {"lowLatency": low_latency, "fastDraws": 0, "rawInput": raw}
    sent = drag_and_count(page)
    assert sent == MOVES + 2  # each sample once, from whichever event carried it
    fast = page.get("drawPath")["fastDraws"]
    assert fast > 0 if low_latency else fast == 0  # without it every frame is drawn in requestAnimationFrame
    assert page.difference("before", "after")["differing"] > 0.05


# The fast path's photon: the first vsync after the draw, against rAF + one interval
# (motionToPhoton.js); computed with the page's own module on numbers chosen here.
PHOTON = """
const done = arguments[arguments.length - 1];
import('/js/motionToPhoton.js').then(({ MotionToPhoton, VsyncClock }) => {
  const clock = new VsyncClock();
  for (const t of [1000, 1016, 1032, 1048]) clock.tick(t);
  const meter = new MotionToPhoton(['latest', 'hybrid']);
  meter.sent(1, 1050, 1051);
  meter.frame({ ack: 1, received: 5, sent: 5.5 }, 1053, 1);
  meter.reach('latest', 1, clock.next(1054));  // drawn at 1054: on the glass at the 1064 vsync
  meter.vsync(1064, clock.interval, { latest: 1, hybrid: 1 });  // the rAF path: 1064 + 16
  const { latest, hybrid } = meter.summary();
  done({ interval: clock.interval, next: [clock.next(1048), clock.next(1048.5), clock.next(1070)],
         latest: [latest.count, latest.total.p50, latest.draw.p50, latest.input.p50, latest.server.p50],
         hybrid: [hybrid.count, hybrid.total.p50, hybrid.draw.p50] });
});
"""


def test_a_frame_drawn_as_it_arrives_reaches_the_glass_at_the_next_vsync(page):
    result = page.driver.execute_async_script(PHOTON)
    assert result["interval"] == 16
    assert result["next"] == [1048, 1064, 1080]
    # total = 1064 − 1050, draw = 1064 − 1053, input = 1051 − 1050, server = 0.5
    assert result["latest"] == [1, 14, 11, 1, 0.5]
    assert result["hybrid"] == [1, 30, 27]  # reached at the rAF: 1064 + 16 − 1050
