"""The page's own share of motion-to-photon (docs/PAGE.md "The fast path"): raw pointer input,
a low-latency canvas, tracking frames drawn as they arrive, and what a browser without each of
those APIs does instead. Waits are on the server's echo or the page's state, never a sleep."""
import pytest

from browser import Page

MOVES = 20

# Run before the page's own scripts (CDP Page.addScriptToEvaluateOnNewDocument): a browser with
# no pointerrawupdate, no getCoalescedEvents, and a 2-D context that ignores `desynchronized`.
WITHOUT_APIS = """
for (const owner of [window, Window.prototype, Document.prototype, HTMLElement.prototype, Element.prototype,
                     SVGElement.prototype]) {
  delete owner.onpointerrawupdate;
}
delete PointerEvent.prototype.getCoalescedEvents;
const getContext = HTMLCanvasElement.prototype.getContext;
HTMLCanvasElement.prototype.getContext = function (kind, options) {
  if (options && "desynchronized" in options) {
    options = { ...options };
    delete options.desynchronized;
  }
  return getContext.call(this, kind, options);
};
"""


def line(x0, x1, steps=MOVES, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


def drag_and_count(page):
    """A drag of MOVES moves past the threshold: the pointer messages it sent, and its frames drawn."""
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    page.paint()
    page.snapshot("before")
    seq = page.get("seq")
    page.drag(line(60, 230))
    sent = page.get("seq") - seq
    page.wait_rest("finished")
    page.wait(f"window.sandbox.lab.motionToPhoton.latest.count >= {MOVES}")
    page.paint()
    page.snapshot("after")
    return sent


@pytest.fixture
def bare_page(driver, server):
    """The page in a browser without the fast path's APIs."""
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WITHOUT_APIS})
    try:
        yield Page(driver, server.page).open()
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_raw_input_sends_each_sample_once_and_tracking_frames_are_drawn_as_they_arrive(page):
    path = page.get("drawPath")
    # Headless Chromium has both: pointerrawupdate in a secure context (127.0.0.1), and a
    # desynchronized 2-D context (getContextAttributes reports what it gave).
    assert path["rawInput"] and path["lowLatency"], path
    sent = drag_and_count(page)
    # Down, each move once (its raw update; the pointermove after it is skipped), up.
    assert sent == MOVES + 2
    path = page.get("drawPath")
    assert path["fastDraws"] > 0, path
    assert page.difference("before", "after")["differing"] > 0.05  # the fade finished: another picture


def test_without_raw_input_coalesced_events_or_a_low_latency_canvas_a_drag_still_draws(bare_page):
    page = bare_page
    assert page.js("return 'onpointerrawupdate' in window") is False
    path = page.get("drawPath")
    assert path == {"lowLatency": False, "fastDraws": 0, "rawInput": False}, path
    sent = drag_and_count(page)
    assert sent == MOVES + 2  # each pointermove once, from the event itself
    assert page.get("drawPath")["fastDraws"] == 0  # every frame drawn in requestAnimationFrame
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
