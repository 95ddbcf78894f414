"""The timeline of the last gestures in a real browser: the page keeps each drag whole (samples,
frames, events, the decision); scrubbing the timeline shows exactly the frame received (the
pixels drawn live for that frame n); ← → step one frame; playback at ¼× takes about four times
the wall time of 1×; "Live" goes back to the live picture."""
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys

from test_page import drag_x, line

# The timeline's own time → x map (timelineView.js `scales`), for aiming at a frame.
FRAME_X = """
const [gestureId, index, done] = arguments;
import('./js/timelineView.js').then(({ scales }) => {
  const plot = document.getElementById('timeline-plot');
  const gesture = window.sandbox.history.find((each) => each.id === gestureId);
  const x = scales(gesture, plot.clientWidth).x(gesture.frames[index].arrivedAt);
  const rect = plot.getBoundingClientRect();
  done([rect.left + x, rect.top + rect.height / 2]);
});
"""


def scrub(page, gesture_id, start_index, index):
    """Presses on the timeline at one frame and drags to another (its arrival's x)."""
    page.js("document.getElementById('timeline').scrollIntoView()")
    points = [page.driver.execute_async_script(FRAME_X, gesture_id, each) for each in (start_index, index)]
    pointer = PointerInput(interaction.POINTER_MOUSE, "mouse")
    actions = ActionBuilder(page.driver, mouse=pointer, duration=0)
    actions.pointer_action.move_to_location(round(points[0][0]), round(points[0][1]))
    actions.pointer_action.pointer_down()
    actions.pointer_action.move_to_location(round(points[1][0]), round(points[1][1]))
    actions.pointer_action.pointer_up()
    actions.perform()


def key(page, name):
    page.driver.find_element("tag name", "body").send_keys(name)


def hold_frame(page, gesture, index):
    """From live, holds frame `index` of the latest gesture by keys: ← shows its last frame, each
    further ← one frame back."""
    page.js("document.getElementById('timeline').scrollIntoView()")
    for _ in range(len(gesture["frames"]) - index):
        key(page, Keys.ARROW_LEFT)
    page.wait(f"window.sandbox.timeline.n === {gesture['frames'][index]['n']}")
    page.js("window.scrollTo(0, 0)")
    page.paint()


def finished_drag(page):
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    # A completion of 0.8 s at 20 frames/s: the display draws every one of its frames live.
    page.configure("duration", "2", "window.sandbox.config.duration === 2")
    page.configure("fps", "20", "window.sandbox.config.fps === 20")
    page.js("window.sandbox.captureLive()")
    drag_x(page, 60, 180)  # 120 / 200 = 0.6: finishes by the threshold
    assert page.wait_rest() == "finished"
    return page.get("history")[-1]


def test_a_drag_is_kept_whole_with_its_samples_frames_events_and_decision(page):
    gesture = finished_drag(page)
    assert gesture["kind"] == "gesture"
    assert gesture["settings"]["transition"] == "fade"
    assert gesture["decision"]["outcome"] == "finished" and gesture["decision"]["reason"] == "threshold"
    assert gesture["samples"][0]["up"] is False and gesture["samples"][-1]["up"] is True
    assert gesture["events"][0]["message"]["event"] == "began"
    assert gesture["events"][-1]["message"]["event"] == "finished"
    numbers = [each["n"] for each in gesture["frames"]]
    # Every frame received, in order (the server may skip a state the socket had no room for).
    assert numbers == sorted(set(numbers)), numbers
    assert page.get("deltasDropped") == 0
    assert gesture["frames"][-1]["frame"]["phase"] == "finished"
    assert any(each["frame"]["phase"] == "finishing" for each in gesture["frames"])
    assert all(each["frame"]["n"] == each["n"] for each in gesture["frames"])


def test_scrubbing_shows_exactly_the_frame_drawn_live_and_the_keys_step_one_frame(page):
    gesture = finished_drag(page)
    assert page.get("timeline")["mode"] == "live"
    live = set(page.js("return Object.keys(window.__snapshots).filter((k) => k.startsWith('live-'))"))
    frames = gesture["frames"]
    ns = [each["n"] for each in frames]
    # A frame mid-fade the display drew live, which the pointer can single out on the timeline:
    # on loaded cores frames arrive in bursts, and the display draws only the latest of each.
    apart = [i for i in range(1, len(ns) - 1)
             if min(abs(frames[i]["arrivedAt"] - frames[j]["arrivedAt"]) for j in (i - 1, i + 1)) > 15]
    drawn = [i for i in apart if f"live-{ns[i]}" in live and 0.1 < frames[i]["frame"]["progress"] < 0.9]
    assert drawn, (live, [(each["n"], round(each["arrivedAt"])) for each in frames])
    index = drawn[len(drawn) // 2]
    n = ns[index]
    scrub(page, gesture["id"], 0, index)
    page.wait(f"window.sandbox.timeline.n === {n}")
    assert page.get("timeline")["mode"] == "paused"
    assert page.get("shownProgress") == frames[index]["frame"]["progress"]
    assert f"n {n} " in page.js("return document.getElementById('timeline-frame').textContent")
    page.paint()
    page.snapshot("scrubbed")
    same = page.difference(f"live-{n}", "scrubbed")
    assert same["mean"] < 0.5 and same["differing"] < 0.001, same
    # Not another picture: a frame drawn live far from this one in progress (the last frame itself
    # may have come in a burst the display drew only the latest of, or after the capture's 64).
    progress = frames[index]["frame"]["progress"]
    far = [i for i in range(len(ns))
           if f"live-{ns[i]}" in live and abs(frames[i]["frame"]["progress"] - progress) > 0.3]
    assert far, (live, progress)
    assert page.difference(f"live-{ns[far[-1]]}", "scrubbed")["mean"] > 0.05

    # Stepping: to a frame whose neighbours are n ± 1 (the server may skip a state the socket
    # had no room for: then a step goes to the next frame received), one key press a frame.
    target = next(i for i in range(1, len(ns) - 1) if ns[i - 1] == ns[i] - 1 == ns[i + 1] - 2
                  and 0.1 < frames[i]["frame"]["progress"] < 0.9)
    for _ in range(abs(target - index)):
        key(page, Keys.ARROW_RIGHT if target > index else Keys.ARROW_LEFT)
    index, n = target, ns[target]
    page.wait(f"window.sandbox.timeline.n === {n}")
    page.paint()
    page.snapshot("held")
    key(page, Keys.ARROW_RIGHT)
    page.wait(f"window.sandbox.timeline.n === {n + 1}")
    page.paint()
    page.snapshot("next")
    assert page.difference("held", "next")["mean"] > 0.05  # a fade step: the picture moved
    if f"live-{n + 1}" in live:
        same = page.difference(f"live-{n + 1}", "next")
        assert same["mean"] < 0.5 and same["differing"] < 0.001, same
    key(page, Keys.ARROW_LEFT)
    key(page, Keys.ARROW_LEFT)
    page.wait(f"window.sandbox.timeline.n === {n - 1}")
    page.driver.find_element("id", "timeline-forward").click()
    page.wait(f"window.sandbox.timeline.n === {n}")

    page.driver.find_element("id", "timeline-live").click()
    page.wait("window.sandbox.timeline.mode === 'live'")
    page.paint()
    assert page.js("return window.sandbox.shownProgress === window.sandbox.progress"
                   " && window.sandbox.shownPhase === window.sandbox.phase")


def test_live_frames_are_kept_not_drawn_while_inspecting(page):
    gesture = finished_drag(page)
    page.js("document.getElementById('timeline').scrollIntoView()")
    key(page, Keys.ARROW_LEFT)  # from live: the latest gesture's last frame, then one back
    key(page, Keys.ARROW_LEFT)
    page.wait(f"window.sandbox.timeline.n === {gesture['frames'][-2]['n']}")
    page.js("window.scrollTo(0, 0)")
    page.drag(line(60, 230))  # the next drag goes back (auto-reverse: dismiss)
    page.wait_rest()
    assert page.get("timeline")["n"] == gesture["frames"][-2]["n"]  # still held
    assert page.get("shownPhase") == "finishing"
    latest = page.get("history")[-1]
    assert latest["id"] != gesture["id"] and latest["frames"][-1]["frame"]["phase"] in ("finished", "cancelled")
    page.js("document.getElementById('timeline-live').click()")
    page.wait("window.sandbox.timeline.mode === 'live'")
    page.paint()
    assert page.js("return window.sandbox.shownProgress === window.sandbox.progress"
                   " && window.sandbox.shownPhase === window.sandbox.phase")


def play(page, rate):
    page.js("""
        const select = document.getElementById('timeline-rate');
        select.value = arguments[0];
        window.__runBefore = window.sandbox.timeline.lastRun;
        document.getElementById('timeline-play').click();
    """, str(rate))
    page.wait("window.sandbox.timeline.lastRun !== window.__runBefore", timeout=60)
    return page.get("timeline")["lastRun"]


def test_quarter_speed_playback_takes_about_four_times_the_wall_time(page):
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    # About a second of frames: a drag, held still, then on and released.
    page.drag(line(60, 120, steps=6) + [("pause", 700)] + line(120, 230, steps=6)[1:])
    assert page.wait_rest() == "finished"
    gesture = page.get("history")[-1]
    span = gesture["frames"][-1]["sent"] - gesture["frames"][0]["sent"]
    assert span > 700, span
    page.js("document.getElementById('timeline').scrollIntoView()")
    key(page, Keys.ARROW_LEFT)  # the latest gesture, held
    page.wait("window.sandbox.timeline.mode === 'paused'")
    real = play(page, 1)
    quarter = play(page, 0.25)
    assert real["rate"] == 1 and quarter["rate"] == 0.25
    assert real["frames"] == quarter["frames"] == len(gesture["frames"])
    wall_real = real["endedAt"] - real["startedAt"]
    wall_quarter = quarter["endedAt"] - quarter["startedAt"]
    # The end is seen at the first animation frame after it is due (never before): late by a
    # vsync, or more on loaded cores.
    print(f"frames span {span:.0f} ms; played at 1x in {wall_real:.0f} ms, at 1/4x in {wall_quarter:.0f} ms"
          f" ({wall_quarter / wall_real:.2f}x)")
    assert wall_real >= span - 1 and wall_quarter >= 4 * span - 1, (span, wall_real, wall_quarter)
    assert 3.0 < wall_quarter / wall_real < 5.5, (wall_real, wall_quarter)
    assert page.get("timeline")["n"] == gesture["frames"][-1]["n"]  # a playback ends held on its last frame


HISTORY = """
const done = arguments[arguments.length - 1];
import('./js/history.js').then(({ GestureHistory, HISTORY_LIMIT }) => {
  const history = new GestureHistory();
  const changes = [];
  history.onChange((change) => changes.push(change.type));
  const frame = (n) => ({
    n, sent: n * 16, arrivedAt: n * 16 + 3, frame: { n, phase: 'tracking', progress: 0, layers: [] },
  });
  const ids = [];
  for (let i = 0; i < HISTORY_LIMIT + 5; i += 1) {
    ids.push(history.add({ kind: 'loaded', label: `g${i}`, samples: [], frames: [frame(i)], events: [] }));
  }
  history.select(ids.at(-1));
  const refusals = [];
  const before = JSON.stringify(history.list());
  const bad = [
    null, { samples: [], frames: [{ n: 1 }], events: [] }, { kind: 'odd', samples: [], frames: [], events: [] },
    { samples: [], frames: [], events: [], decision: { outcome: 'maybe' } },
  ];
  for (const gesture of bad) {
    try {
      history.add(gesture);
      refusals.push(null);
    } catch (error) {
      refusals.push(error.constructor.name + ': ' + error.message);
    }
  }
  try { history.select(ids[0]); refusals.push(null); } catch (error) { refusals.push(error.constructor.name); }
  done({ limit: HISTORY_LIMIT, kept: history.list().map((g) => g.label), ids, selected: history.selectedId,
         unchanged: JSON.stringify(history.list()) === before, refusals, changes: changes.slice(0, 3),
         removed: changes.filter((c) => c === 'removed').length });
});
"""


def test_the_history_keeps_the_last_twenty_and_refuses_a_malformed_gesture(page):
    result = page.driver.execute_async_script(HISTORY)
    assert result["limit"] == 20
    assert result["kept"] == [f"g{i}" for i in range(5, 25)]  # the oldest five went
    assert result["removed"] == 5 and result["changes"] == ["added", "added", "added"]
    assert result["selected"] == result["ids"][-1]
    assert result["unchanged"], result
    refusals = result["refusals"]
    assert all(each and each.startswith("TypeError") for each in refusals[:4]), refusals
    assert "frames[0]" in refusals[1] and "kind" in refusals[2] and "outcome" in refusals[3]
    assert refusals[4] == "RangeError"  # a gesture no longer kept cannot be selected


def test_a_scene_operation_and_a_drag_keep_their_lifecycle_callbacks_in_order(page, artifacts):
    from test_scene_page import click, scene_at_rest, start_scene
    start_scene(page)
    click(page, "present")
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    # The next pan drives the dismissal: under half of the card, held, released: it cancels.
    page.drag([(195, 300 + 30 * i) for i in range(11)] + [("pause", 300)])
    assert page.wait_rest("cancelled") == "cancelled"
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    present, drag = page.get("history")[-2:]
    assert present["kind"] == "operation" and present["label"] == "present"
    assert drag["kind"] == "gesture" and drag["label"].startswith("dismiss")
    assert drag["decision"]["outcome"] == "cancelled"
    # The callbacks each arrived inside their own gesture, as the scene's log has them.
    log = page.get("lifecycle")
    for gesture, action in ((present, "present"), (drag, "dismiss")):
        entries = [each["entry"] for each in gesture["lifecycle"]]
        assert entries == [each for each in log if each["action"] == action], (entries, log)
        times = [each["at"] for each in gesture["lifecycle"]]
        assert times == sorted(times) and times[0] >= gesture["startedAt"]
    page.js("document.getElementById('timeline').scrollIntoView()")
    key(page, Keys.ARROW_LEFT)  # from live: the latest gesture's last frame
    page.wait(f"window.sandbox.timeline.n === {drag['frames'][-1]['n']}")
    listed = page.js("return [...document.querySelectorAll('#timeline-lifecycle li')].map((li) => li.textContent)")
    assert len(listed) == len(drag["lifecycle"]) and any("completeTransition(false)" in each for each in listed), listed
    page.driver.find_element("id", "timeline").screenshot(str(artifacts / "inspector-timeline-scene.png"))


TIMELINE = """
const done = arguments[arguments.length - 1];
Promise.all([import('./js/history.js'), import('./js/timeline.js')]).then(([{ GestureHistory }, { Timeline }]) => {
  const history = new GestureHistory(2);
  const timeline = new Timeline(history);
  const frame = (n, sent) => ({
    n, sent, arrivedAt: sent + 3, frame: { n, phase: 'tracking', progress: 0, layers: [] },
  });
  const gesture = (label) => ({ label, samples: [], frames: [frame(1, 0), frame(2, 16), frame(3, 48)], events: [] });
  const [a, b] = [history.add(gesture('a')), history.add(gesture('b'))];
  const seen = [];
  const look = () => seen.push([timeline.mode.kind, history.selectedId, timeline.index]);
  timeline.select(a);
  timeline.step(5);
  look();  // clamped at the last frame
  let refused = null;
  try { timeline.showFrame(3); } catch (error) { refused = error.constructor.name; }
  look();  // unchanged
  history.select(b);
  look();  // another part of the page chose b: its first frame
  timeline.play(0.25, 1000);
  const due = [timeline.pick(null, 1000 + 63), timeline.pick(null, 1000 + 64), timeline.pick(null, 1000 + 191)];
  look();  // 16 ms apart at 1/4: the second frame at 64 ms
  const ended = timeline.pick(null, 1000 + 192);
  look();  // the last at 192 ms: held there
  history.add(gesture('c'));  // past the limit of 2: a goes; b is looked at and stays
  look();
  history.add(gesture('d'));  // b goes: back to live
  look();
  done({ seen, refused, due: due.map((f) => f.n), ended: ended.n, run: timeline.lastRun });
});
"""


def test_the_timeline_clamps_refuses_follows_the_selection_and_plays_by_sent_times(page):
    result = page.driver.execute_async_script(TIMELINE)
    a, b = 1, 2
    assert result["refused"] == "RangeError"
    assert result["seen"] == [
        ["paused", a, 2], ["paused", a, 2], ["paused", b, 0], ["playing", b, 1], ["paused", b, 2],
        ["paused", b, 2], ["live", None, None]]
    assert result["due"] == [1, 2, 2] and result["ended"] == 3
    assert result["run"]["rate"] == 0.25 and result["run"]["endedAt"] - result["run"]["startedAt"] == 192
