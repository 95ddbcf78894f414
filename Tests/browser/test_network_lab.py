"""The network lab on the page: the link presets reach the server and its echo shows
beside the connection state; the HUD's network time follows the link; the interpolation buffer
draws states between frames and ends on the same picture as the latest frame. Every wait is on
the server's echo or the page's state, never a sleep; figures are checked against thresholds."""
import re

# One-way delay ± jitter per preset (docs/PAGE.md); a round trip crosses the link twice, and the
# simulator holds each message for at least delay − jitter, so 4G's round trip is ≥ 80 ms.
LOOPBACK_MAX_MS = 50  # a debug build on a shared 2-core machine; the loopback itself is ~0.1 ms
FOUR_G_MIN_MS = 80


def line(x0, x1, steps=20, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


def choose_preset(page, preset, delay):
    """Chooses a preset in the panel and waits for the server's `link` echo."""
    page.js("const s = document.getElementById('network').elements.preset;"
            "s.value = arguments[0]; s.dispatchEvent(new Event('change', {bubbles: true}));", preset)
    page.wait(f"window.sandbox.lab.link && window.sandbox.lab.link.delayMs === {delay}"
              " && window.sandbox.pendingRequests === 0")


def choose_smoothing(page, mode):
    page.js("const s = document.getElementById('smoothing'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('change', {bubbles: true}));", mode)
    page.wait(f"window.sandbox.lab.mode === '{mode}'")


def text(page, element_id):
    return page.js("return document.getElementById(arguments[0]).textContent", element_id)


def hud_ms(page, element_id):
    value = text(page, element_id)
    match = re.fullmatch(r"(\d+(?:\.\d+)?) ms", value)
    assert match, (element_id, value)
    return float(match.group(1))


def drag_and_measure(page, samples=20):
    """A drag of `samples` moves past the threshold, then waits until the input → frame readout
    and the motion-to-photon table have repainted with at least that many samples of this link."""
    page.drag(line(60, 230, steps=samples))
    page.wait_rest()
    page.wait(f"window.sandbox.latency.count >= {samples}")
    page.wait(f"Number(document.getElementById('lat-count').textContent) >= {samples}")
    page.wait(f"Number(document.getElementById('mtp-count').textContent) >= {samples}")


def test_presets_reach_the_server_and_the_huds_network_time_follows(page):
    assert text(page, "network-state") == "loopback"
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    drag_and_measure(page)
    assert hud_ms(page, "lat-network-p50") < LOOPBACK_MAX_MS
    assert hud_ms(page, "mtp-simulated-p50") == 0  # no link in play: no `arrived`/`delivered`

    choose_preset(page, "4g", 60)
    assert text(page, "network-state") == "4G 60 ± 20 ms"
    assert page.get("lab")["link"]["jitterMs"] == 20
    drag_and_measure(page)
    network = hud_ms(page, "lat-network-p50")
    assert network >= FOUR_G_MIN_MS, network
    # Motion-to-photon splits the network into the simulated holds and the rest.
    assert hud_ms(page, "mtp-simulated-p50") >= FOUR_G_MIN_MS
    assert hud_ms(page, "mtp-real-p50") < LOOPBACK_MAX_MS
    assert hud_ms(page, "mtp-total-p50") >= hud_ms(page, "mtp-network-p50")
    page.wait(f"window.sandbox.lab.clock.rtt >= {FOUR_G_MIN_MS}")  # pongs cross the link too

    choose_preset(page, "loopback", 0)
    assert text(page, "network-state") == "loopback"
    drag_and_measure(page)
    assert hud_ms(page, "lat-network-p50") < LOOPBACK_MAX_MS

    # A custom link, and one the server refuses: its error under the selector, the link unchanged.
    page.js("const f = document.getElementById('network'); f.elements.preset.value = 'custom';"
            "f.elements.preset.dispatchEvent(new Event('change', {bubbles: true}));"
            "f.elements.delayMs.value = '25'; f.elements.jitterMs.value = '0'; f.requestSubmit();")
    page.wait("window.sandbox.lab.link.delayMs === 25 && window.sandbox.pendingRequests === 0")
    assert text(page, "network-state") == "custom 25 ± 0 ms"
    page.js("const f = document.getElementById('network');"
            "f.elements.delayMs.value = '5000'; f.requestSubmit();")
    page.wait("document.getElementById('network-error').textContent !== ''")
    assert "delayMs" in text(page, "network-error")
    assert page.get("lab")["link"]["delayMs"] == 25
    assert text(page, "network-state") == "custom 25 ± 0 ms"


def test_the_interpolation_buffer_draws_between_frames_and_ends_on_the_same_picture(page):
    page.configure("transition", "push", "window.sandbox.config.transition === 'push'")
    choose_preset(page, "wifi", 15)
    page.snapshot("start")
    choose_smoothing(page, "interpolation")
    page.capture_when("middle", "window.sandbox.shownPhase === 'tracking' && window.sandbox.shownProgress >= 0.4")
    page.drag(line(60, 230, steps=30))
    page.wait_rest()
    # The buffer shows the past: wait until it has drawn the last frame.
    page.wait("window.sandbox.shownPhase === window.sandbox.phase"
              " && window.sandbox.shownProgress === window.sandbox.progress")
    page.paint()
    page.captured("middle")
    lab = page.get("lab")
    assert lab["smoothing"]["mixed"] > 0, lab["smoothing"]  # drawn between two frames
    assert 0 < lab["smoothing"]["B"] < 2000, lab["smoothing"]
    page.snapshot("end interpolated")
    assert page.difference("start", "middle")["differing"] > 0.05
    assert page.difference("middle", "end interpolated")["differing"] > 0.05
    choose_smoothing(page, "latest")
    page.paint()
    page.snapshot("end latest")
    same = page.difference("end interpolated", "end latest")
    assert same["mean"] < 1.0 and same["differing"] < 0.002, same
    # Both modes measured on the same events; the buffer adds latency, it never removes any.
    page.wait("Number(document.getElementById('mtp-count').textContent) >= 30")
    figures = page.get("lab")["motionToPhoton"]
    assert figures["interpolation"]["count"] >= 30 and figures["latest"]["count"] >= 30
    assert figures["interpolation"]["total"]["p50"] >= figures["latest"]["total"]["p50"]
    # Hybrid draws the drag's frames as they arrive: a drag's events cost what the latest frame
    # costs, within a vsync (the down's, before the pan begins, go through its buffer).
    assert figures["hybrid"]["count"] >= 30
    assert figures["hybrid"]["total"]["p50"] < figures["interpolation"]["total"]["p50"], figures
    assert figures["hybrid"]["total"]["p50"] - figures["latest"]["total"]["p50"] < 17, figures
    for cell in ("cmp-latest-p50", "cmp-interpolation-p50", "cmp-interpolation-added", "cmp-hybrid-p50"):
        assert re.fullmatch(r"-?\d+(\.\d+)? ms", text(page, cell)), (cell, text(page, cell))
    assert re.fullmatch(r"\d+\.\d\d", text(page, "cmp-interpolation-spread")), text(page, "cmp-interpolation-spread")


# --- smoothing.js on synthetic streams, in the page's own JavaScript ---------------------------
# Deterministic: the streams are written here (frame times, arrivals, clock offsets), the
# module the page runs places and draws them vsync by vsync.

def run_smoother(page, body):
    """Runs `body` (a function body; `m` is the module) in the page. The page's CSP forbids
    eval, so the body is part of the script WebDriver runs, not a string the page evaluates."""
    result = page.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import(new URL('js/smoothing.js', location.href)).then((m) => {"
        "  try { done((() => {" + body + "})()); } catch (error) { done({ error: String(error && error.stack || error) }); }"
        "}, (error) => done({ error: String(error) }));")
    assert not (isinstance(result, dict) and "error" in result), result
    return result


# A stream driver: `frames` = [{t (server ms), at (page ms), phase, progress, ack?}], `sent` =
# [{seq, ts, at}] (pointer events the page sent), `offset(now)` = the clock's offset; returns the
# progress each mode showed at every vsync (60 Hz) and the smoother's summary.
PLAY = """
const play = (frames, sent, offset, until) => {
  const s = new m.Smoother();
  const shown = Object.fromEntries(m.MODES.map((mode) => [mode, []]));
  let fi = 0, si = 0, index = 0;
  for (let now = 0; now < until; now += 1000 / 60) {
    while (si < sent.length && sent[si].at <= now) { s.sent(sent[si].seq, sent[si].ts); si += 1; }
    while (fi < frames.length && frames[fi].at <= now) {
      const f = frames[fi]; fi += 1; index += 1;
      s.frame({ type: 'frame', sent: f.t, phase: f.phase, progress: f.progress, ack: f.ack ?? null, layers: [] }, f.at, index, offset(now));
    }
    s.vsync(now, offset(now));
    for (const mode of m.MODES) if (s.shown[mode]) shown[mode].push(s.shown[mode].progress);
  }
  return { shown, summary: s.summary() };
};
const backwards = (values) => values.filter((v, i) => i > 0 && v < values[i - 1] - 1e-9).length;
"""


def test_the_render_time_never_runs_back_at_rest_nor_jumps_when_the_clock_is_refined(page):
    result = run_smoother(page, PLAY + """
      // A completion of 30 ticks whose final frame is 100 ms late: at rest the buffer's target
      // grows, and taking it at once used to move the picture back (0.967 → 0.929).
      const late = [];
      for (let i = 0; i <= 30; i += 1) {
        late.push({ t: i * 16.667, at: i * 16.667 + 50 + (i % 2 ? 2 : -2), phase: i < 30 ? 'finishing' : 'finished', progress: i / 30 });
      }
      late[30].at = late[30].t + 150;
      const rest = play(late, [], () => 0, 1500);
      // Two seconds of ticks while a pong with a shorter round trip refines the offset by 25 ms.
      const ticks = [];
      for (let i = 0; i <= 120; i += 1) {
        ticks.push({ t: i * 16.667, at: i * 16.667 + 60 + 10 * Math.sin(i), phase: i < 120 ? 'finishing' : 'finished', progress: i / 120 });
      }
      const refined = play(ticks, [], (now) => (now < 800 ? 0 : -25), 2600);
      const steps = refined.shown.interpolation.map((v, i, all) => (i ? v - all[i - 1] : 0));
      return {
        rest: { backwards: backwards(rest.shown.interpolation), hybrid: backwards(rest.shown.hybrid), end: rest.shown.interpolation.at(-1) },
        refined: { backwards: backwards(refined.shown.interpolation), largest: Math.max(...steps), end: refined.shown.interpolation.at(-1) },
      };
    """)
    assert result["rest"] == {"backwards": 0, "hybrid": 0, "end": 1}, result
    assert result["refined"]["backwards"] == 0 and result["refined"]["end"] == 1, result
    # The ticks are 1/120 apart, one per vsync: a step over 1.5 of them is a jump.
    assert result["refined"]["largest"] < 1.5 / 120, result


def test_tracking_frames_are_placed_at_their_events_time_and_hybrid_draws_them_at_once(page):
    result = run_smoother(page, PLAY + """
      // 40 pointer events 16.7 ms apart through a 60 ± 20 ms link each way (in order, as TCP):
      // the frames' server times bunch and stretch; the events' timeStamps do not.
      let seed = 7;
      const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
      const offset = 1000;
      const sent = [];
      const frames = [];
      let received = 0;
      for (let k = 1; k <= 40; k += 1) {
        const ts = 100 + k * 16.667;
        sent.push({ seq: k, ts, at: ts + 1 });
        received = Math.max(ts + 62 + (random() * 2 - 1) * 20, received);
        frames.push({ t: received + offset, phase: 'tracking', progress: k / 80, ack: k });
      }
      for (let j = 1; j <= 20; j += 1) {
        frames.push({ t: received + offset + j * 16.667, phase: j < 20 ? 'finishing' : 'finished', progress: 0.5 + j / 40, ack: 40 });
      }
      let arrived = 0;
      for (const f of frames) f.at = arrived = Math.max(f.t - offset + 60 + (random() * 2 - 1) * 20, arrived);
      const out = play(frames, sent, () => offset, 2500);
      // The tracking part: while the latest frame shown is a tracking one, hybrid shows the latest.
      const tracking = out.shown.hybrid.filter((v, i) => v <= 0.5 && v === out.shown.latest[i]).length;
      return {
        spread: out.summary.spread,
        backwards: Object.fromEntries(m.MODES.map((mode) => [mode, backwards(out.shown[mode])])),
        ends: Object.fromEntries(m.MODES.map((mode) => [mode, out.shown[mode].at(-1)])),
        lag: out.summary.lag, transit: out.summary.transit, gaps: out.summary.gaps, tracking,
      };
    """)
    # "predicted" is the latest frame here: the stream has no pointer messages to predict from.
    assert result["backwards"] == {"latest": 0, "interpolation": 0, "hybrid": 0, "predicted": 0}, result
    assert result["ends"] == {"latest": 1, "interpolation": 1, "hybrid": 1, "predicted": 1}, result
    # Placed by server time the jitter of the inbound leg stayed in the picture (spread 0.42);
    # placed at the events' timeStamps the steps are even.
    assert result["spread"]["interpolation"] < 0.15, result
    assert result["spread"]["latest"] > 0.5, result
    # A tracking frame's lateness is the whole round trip, a tick's one leg; the gaps are the
    # events' and the ticks' rhythm.
    assert 110 < result["lag"] < 150 and 50 < result["transit"] < 80, result
    assert abs(result["gaps"]["track"] - 16.667) < 0.01 and abs(result["gaps"]["tick"] - 16.667) < 0.01, result
    assert result["tracking"] > 20, result


def test_transforms_interpolate_as_rotations_and_one_sided_layers_do_not_cross_fade(page):
    result = run_smoother(page, """
      const rot = (deg, s = 1, tx = 0, ty = 0) => {
        const r = deg * Math.PI / 180;
        return [s * Math.cos(r), s * Math.sin(r), -s * Math.sin(r), s * Math.cos(r), tx, ty];
      };
      const det = (t) => t[0] * t[3] - t[1] * t[2];
      const angle = (t) => Math.atan2(t[1], t[0]) * 180 / Math.PI;
      const half = m.mixAffine(rot(0), rot(170, 1, 10, 20), 0.5);
      const wrap = m.mixAffine(rot(170), rot(-170), 0.5);
      const scaled = m.mixAffine(rot(0, 1), rot(90, 3), 0.5);
      const mirrored = m.mixAffine([1, 0, 0, 1, 0, 0], [-1, 0, 0, 1, 0, 0], 0.25);
      const layer = (id, opacity, deg) => ({ id, opacity, transform: rot(deg), center: [0, 0], bounds: [10, 10] });
      const flipA = [layer('from', 1, 80), layer('to', 0, -100)];
      const flipB = [layer('from', 0, 100), layer('to', 1, -80)];
      const early = m.mixLayers(flipA, flipB, 0.4);
      const late = m.mixLayers(flipA, flipB, 0.6);
      const fade = m.mixLayers([layer('x', 0.2, 0)], [layer('x', 0.6, 0)], 0.5);
      const scene = (deg, fraction, opacity) => ({
        root: { transform: rot(deg), bounds: [844, 390], rotating: { from: 'portrait', to: 'landscapeRight', fraction } },
        layers: [{ controller: 'nav', role: 'navigationBar', group: 'root', frame: [0, 0, 390, 44], cornerRadius: 0, scale: 1, opacity }],
      });
      const frame = m.mixFrames({ t: 0, progress: 0, phase: 'tracking', layers: [], scene: scene(0, 0, 0.5) },
                                { t: 10, progress: 1, phase: 'tracking', layers: [], scene: scene(90, 1, 1) }, 0.5);
      return {
        half: [det(half), angle(half), half[4], half[5]], wrap: [det(wrap), angle(wrap)],
        scaled: [det(scaled), angle(scaled)], mirrored: [mirrored[0], mirrored[1], mirrored[2], mirrored[3]],
        early: early.map((l) => [l.id, l.opacity, det(l.transform)]),
        late: late.map((l) => [l.id, l.opacity, det(l.transform)]),
        fade: fade[0].opacity,
        root: [det(frame.scene.root.transform), angle(frame.scene.root.transform), frame.scene.root.rotating.fraction],
        sceneOpacity: frame.scene.layers[0].opacity,
      };
    """)
    close = lambda a, b, eps=1e-9: abs(a - b) < eps  # noqa: E731
    det, angle, tx, ty = result["half"]
    assert close(det, 1) and close(angle, 85) and close(tx, 5) and close(ty, 10), result
    det, angle = result["wrap"]  # 170° → −170° goes through 180°, not through 0°
    assert close(det, 1) and close(abs(angle), 180), result
    det, angle = result["scaled"]  # scale 1 → 3 half way: 2, at 45°
    assert close(det, 4) and close(angle, 45), result
    assert [round(v, 9) for v in result["mirrored"]] == [0.5, 0, 0, 1], result  # a mirror scales through, no turn
    # The flip's two sides: opacity from the nearer frame, never both half visible.
    assert [(i, o) for i, o, _ in result["early"]] == [("from", 1), ("to", 0)], result
    assert [(i, o) for i, o, _ in result["late"]] == [("from", 0), ("to", 1)], result
    assert all(close(d, 1) for _, _, d in result["early"] + result["late"]), result
    assert close(result["fade"], 0.4), result  # a real fade still mixes
    det, angle, fraction = result["root"]
    assert close(det, 1) and close(angle, 45) and close(fraction, 0.5), result
    assert close(result["sceneOpacity"], 0.75), result


def test_the_interpolated_orientation_turn_stays_a_rotation(page):
    """A scene's turn through a 4G link, drawn by the interpolation buffer: every picture drawn
    has the root turned by a pure rotation (a component-wise mix would shrink it between frames)."""
    page.js("""
        const form = document.getElementById('scene-start');
        form.elements.device.value = 'phone';
        form.elements.rootMask.value = 'all';
        form.requestSubmit();
    """)
    page.wait("window.sandbox.scene !== null && window.sandbox.scene.inFlight === null"
              " && window.sandbox.frameRoot !== null && window.sandbox.pendingRequests === 0")
    choose_preset(page, "4g", 60)
    choose_smoothing(page, "interpolation")
    page.js("""
        window.__roots = [];
        const sample = () => {
          const root = window.sandbox.shownRoot;
          if (root && root.transform) window.__roots.push(root.transform);
          if (window.__roots !== null) requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
        document.querySelector("#device-buttons button[data-device='landscapeLeft']").click();
    """)
    page.wait("window.sandbox.frameRoot.interface === 'landscapeRight' && window.sandbox.frameRoot.rotating === null")
    page.wait("window.sandbox.shownRoot && window.sandbox.shownRoot.rotating === null"
              " && window.sandbox.shownRoot.transform.join() === '0,1,-1,0,0,0'")
    roots = page.js("const roots = window.__roots; window.__roots = null; return roots;")
    dets = [a * d - b * c for a, b, c, d, _, _ in roots]
    # The frames' a–d have 1e-6 precision (docs/PROTOCOL.md "Numbers"): a rotation's
    # determinant is 1 within 2·√2·0.5e-6 ≈ 1.4e-6. A component-wise mix would shrink it by
    # far more (half way through a quarter turn, to 0.5).
    assert all(abs(v - 1) < 2e-6 for v in dets), max(abs(v - 1) for v in dets)
    turning = [t for t in roots if 0.05 < t[1] < 0.95]  # sin of the angle: part way through
    assert len(turning) >= 5, len(turning)
    assert page.get("lab")["smoothing"]["mixed"] > 0
