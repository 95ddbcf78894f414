// Smoothing: what the page draws at each vsync, in four modes.
//
// - "latest": the latest frame received (the page without the lab's smoothing).
// - "interpolation": the state at render time R = now − B (page clock), interpolated between the
//   two buffered frames around R. B is the interpolation buffer.
// - "hybrid": the latest frame while the finger drags (UIKit never buffers direct manipulation:
//   the layer follows the touch as it is delivered), the interpolation buffer for what the
//   server animates on its own (finishing, cancelling, a played transition, a rotation), as game
//   netcode does for the player's own input versus the world's snapshots.
// - "predicted": the latest frame, except while the finger drags ahead of the server's frames:
//   then the picture prediction.js predicts for the newest pointer message (client-side
//   prediction; the server's frames take over as they acknowledge it, and for everything after
//   the release).
//
// Where a frame sits on the time line (its "time", page clock, ms):
//
//   - a frame that answers a pointer event this page sent (an `ack` higher than every earlier
//     frame's: the down's, each move's, the release's): the event's `timeStamp`. The frame shows
//     the finger at that instant, so tracking frames are spaced as the finger's events were,
//     whatever the links did to them on the way;
//   - every other frame (same ack: completion ticks, a played transition, a rotation, the final frame, a
//     viewer's frames): its server time `sent` − the clock offset (server − page, clock.js).
//
//   The offset the buffer uses is frozen while anything moves on screen: a refined offset (a
//   ping with a shorter round trip) is taken only when every buffered mode shows a resting
//   frame, where moving the time line cannot be seen. Frames already buffered keep the time
//   they were given at arrival, and a frame is never placed before the one buffered before it.
//
// B adapts to each frame's lateness d = arrival − time, separately for the two kinds (a tracking
// frame's d is the whole input → frame round trip, a tick's the one-way transit):
//
//       D, V   = smoothed lateness and its mean deviation, as TCP's RTT estimator (RFC 6298):
//                V ← ¾V + ¼|d − D|, then D ← ⅞D + ⅛d
//       G      = the 90th percentile of the last 32 gaps between consecutive frames of that kind
//                (gaps over 100 ms are pauses of the finger or of the stream, not its rhythm;
//                the largest gap would let one pause inflate B for 32 frames)
//       target = D + 4V + G of the newest frame's kind, at most 2 s
//
// so R stays behind the newest frame that has arrived (a frame to interpolate towards) unless
// a frame is later than 4 deviations. While something moves, B eases towards the target at most
// 10 % of the elapsed time (the render clock runs at 0.9–1.1× real time: time stretching, as
// snapshot interpolation does). When the mode shows a resting frame (nothing moves, or a new
// motion begins from that picture), B takes the target at once. In every case the render time
// never goes back before the time last shown (R ≥ S): the picture never runs backwards.
//
// Both buffered modes and the latest frame are computed at every vsync, whichever is drawn, so
// the HUD compares them on the same stream: which frame each has reached (for motion-to-photon),
// and the displayed progress steps (for smoothness).

import { Predictor } from "./prediction.js";

export const MODES = ["latest", "interpolation", "hybrid", "predicted"];
const BUFFERED = ["interpolation", "hybrid"];
const MOVING = new Set(["tracking", "finishing", "cancelling"]);
const BUFFER_MAX = 512;
const INPUTS_MAX = 1024;
const GAP_WINDOW = 32;
const GAP_PAUSE = 100;
const GAP_PERCENTILE = 0.9;
const B_MAX = 2000;
const STRETCH = 0.1;
const STEPS = 240;

const finite = (value) => typeof value === "number" && Number.isFinite(value);
const lerp = (a, b, alpha) => a + (b - a) * alpha;

/** a + (b − a)·α for numbers, element-wise for (nested) arrays of the same shape; else null. */
function mix(a, b, alpha) {
  if (finite(a) && finite(b)) return lerp(a, b, alpha);
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    const out = new Array(a.length);
    for (let i = 0; i < a.length; i += 1) {
      const value = mix(a[i], b[i], alpha);
      if (value === null) return null;
      out[i] = value;
    }
    return out;
  }
  return null;
}

// MARK: - 2-D affine transforms

/**
 * A 2-D affine [a, b, c, d, tx, ty] (x' = a·x + c·y + tx, y' = b·x + d·y + ty) as
 * translate · rotate(angle) · shear(k) · scale(sx, sy) — the CSS Transforms "unmatrix" for 2-D:
 * a reflection is a negative sx when a < d, else a negative sy. Null when it is degenerate
 * (a zero scale has no rotation) or not six finite numbers.
 */
export function decomposeAffine(m) {
  if (!Array.isArray(m) || m.length !== 6 || !m.every(finite)) return null;
  const [a, b, c, d, tx, ty] = m;
  let sx = Math.hypot(a, b);
  if (sx < 1e-9) return null;
  if (a * d - b * c < 0 && a < d) sx = -sx;
  const angle = Math.atan2(b / sx, a / sx);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const sy = -c * sin + d * cos;
  if (Math.abs(sy) < 1e-9) return null;
  const k = (c * cos + d * sin) / sy;
  return { tx, ty, angle, k, sx, sy };
}

export function recomposeAffine({ tx, ty, angle, k, sx, sy }) {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return [sx * cos, sx * sin, sy * (k * cos - sin), sy * (k * sin + cos), tx, ty];
}

/**
 * Between two affines at α: translation, rotation (the shorter way round), shear and scale
 * interpolated, then recomposed — a component-wise mix shrinks a rotation (half way through a
 * half turn it is the zero matrix). A degenerate end falls back to the component-wise mix.
 */
export function mixAffine(m0, m1, alpha) {
  const p = decomposeAffine(m0);
  const q = decomposeAffine(m1);
  if (!p || !q) return mix(m0, m1, alpha);
  let turn = q.angle - p.angle;
  turn -= 2 * Math.PI * Math.round(turn / (2 * Math.PI));  // (−π, π]: the shorter way
  return recomposeAffine({
    tx: lerp(p.tx, q.tx, alpha),
    ty: lerp(p.ty, q.ty, alpha),
    angle: p.angle + turn * alpha,
    k: lerp(p.k, q.k, alpha),
    sx: lerp(p.sx, q.sx, alpha),
    sy: lerp(p.sy, q.sy, alpha),
  });
}

/**
 * Opacity between two frames: mixed, except a jump between exactly 0 and exactly 1, which is a
 * one-sided layer turning away or towards (the flip's sides, `isDoubleSided = false`) or a view
 * appearing: that takes the nearer frame's, as a cross-fade would show both sides at once.
 */
function mixOpacity(a, b, alpha) {
  if ((a === 0 && b === 1) || (a === 1 && b === 0)) return alpha < 0.5 ? a : b;
  return mix(a, b, alpha);
}

const MIXERS = {
  center: mix,
  bounds: mix,
  transform: mixAffine,
  cornerRadius: mix,
  opacity: mixOpacity,
  // A 3-D layer's matrix and projected corners are mixed component-wise: between two frames of
  // one tick the flip turns a few degrees, where that shrinks the sheet by under 1 % (cos of
  // half the step); the side drawn is chosen by the corners and the nearer frame's opacity.
  transform3d: mix,
  corners: mix,
};

/** Matches two lists of objects by `key(item)`, returns the nearer list with `mixItem(from, to)` applied to matched pairs. */
function mixList(a, b, alpha, key, mixItem) {
  const nearer = alpha < 0.5 ? a : b;
  const farther = alpha < 0.5 ? b : a;
  if (!Array.isArray(nearer)) return nearer;
  const others = new Map();
  if (Array.isArray(farther)) for (const item of farther) if (item && typeof item === "object") others.set(key(item), item);
  return nearer.map((item) => {
    const other = item && typeof item === "object" ? others.get(key(item)) : undefined;
    if (!other) return item;
    const [from, to] = alpha < 0.5 ? [item, other] : [other, item];
    return mixItem(item, from, to);
  });
}

/** `out` = the nearer item, with each field of `mixers` present in it mixed (a value that cannot be mixed stays the nearer's). */
function mixFields(nearer, from, to, alpha, mixers) {
  const out = { ...nearer };
  for (const [key, mixer] of Object.entries(mixers)) {
    if (!(key in nearer)) continue;
    const value = mixer(from[key], to[key], alpha);
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The layers between two frames at α ∈ [0, 1]: matched by `id`; the continuous properties
 * (centre, bounds, transform — decomposed —, corner radius, opacity — no cross-fade of a 0 ↔ 1
 * jump —, and a 3-D layer's transform3d and corners) interpolated; the rest (content, shape, z,
 * mask, controller, which layers exist) taken from the nearer frame. A value that cannot be
 * interpolated (missing, not finite, different shapes) is the nearer frame's.
 */
export function mixLayers(a, b, alpha) {
  return mixList(a, b, alpha, (layer) => layer.id, (nearer, from, to) => mixFields(nearer, from, to, alpha, MIXERS));
}

const SCENE_LAYER_MIXERS = { frame: mix, cornerRadius: mix, scale: mix, opacity: mixOpacity };
const sceneLayerKey = (layer) => `${layer.group}\u0000${layer.controller}\u0000${layer.role}\u0000${layer.view ?? ""}`;

/**
 * A scene frame's `scene` between two frames: `root.transform` (the orientation turn) as an
 * affine, `root.rotating.fraction` mixed, and the still views of `scene.layers` (matched by
 * group, controller, role and named view: they carry no id) with their frame, corner radius, scale and
 * opacity mixed; the rest (bounds, interface, the transition) the nearer frame's.
 */
export function mixScene(a, b, alpha) {
  const nearer = alpha < 0.5 ? a : b;
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return nearer;
  const out = { ...nearer };
  out.layers = mixList(a.layers, b.layers, alpha, sceneLayerKey,
    (layer, from, to) => mixFields(layer, from, to, alpha, SCENE_LAYER_MIXERS));
  if (nearer.root && a.root && b.root) {
    const root = { ...nearer.root };
    const transform = mixAffine(a.root.transform, b.root.transform, alpha);
    if (transform) root.transform = transform;
    const fraction = mix(a.root.rotating?.fraction, b.root.rotating?.fraction, alpha);
    if (fraction !== null && root.rotating) root.rotating = { ...root.rotating, fraction };
    out.root = root;
  }
  return out;
}

/** A frame between `a` and `b` at α: progress, velocity, sent, the layers and the scene interpolated; the rest the nearer's. */
export function mixFrames(a, b, alpha) {
  const nearer = alpha < 0.5 ? a : b;
  const out = { ...nearer, layers: mixLayers(a.layers, b.layers, alpha) };
  if (nearer.scene) out.scene = mixScene(a.scene, b.scene, alpha);
  for (const key of ["progress", "sent", "velocity"]) {
    const value = mix(a[key], b[key], alpha);
    if (value !== null) out[key] = value;
  }
  return out;
}

/** The spread of displayed progress steps per vsync: mean |s(i) − s(i−1)| / mean |s(i)|. */
class StepSpread {
  constructor() {
    this.clear();
  }

  clear() {
    this.previous = null;   // the displayed progress at the last vsync, while moving
    this.lastStep = null;
    this.steps = [];        // |step|
    this.changes = [];      // |step − previous step|
  }

  /** One vsync: the progress drawn and whether the picture is moving (its phase). */
  vsync(progress, moving) {
    if (!moving || !finite(progress)) {
      this.previous = null;
      this.lastStep = null;
      return;
    }
    if (this.previous !== null) {
      const step = progress - this.previous;
      this.steps.push(Math.abs(step));
      if (this.steps.length > STEPS) this.steps.shift();
      if (this.lastStep !== null) {
        this.changes.push(Math.abs(step - this.lastStep));
        if (this.changes.length > STEPS) this.changes.shift();
      }
      this.lastStep = step;
    }
    this.previous = progress;
  }

  /** NaN until a few moving vsyncs were seen. */
  get value() {
    if (this.changes.length < 8) return NaN;
    const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const steps = mean(this.steps);
    return steps > 0 ? mean(this.changes) / steps : NaN;
  }

  get count() {
    return this.changes.length;
  }
}

/** One kind of frame's lateness (arrival − time): D, V as RFC 6298, and the gaps between its frames. */
class Lateness {
  constructor() {
    this.transit = null;  // D, ms
    this.deviation = 0;   // V
    this.gaps = [];
  }

  sample(d) {
    if (!finite(d)) return;
    if (this.transit === null) {
      this.transit = d;
      this.deviation = Math.abs(d) / 2;
    } else {
      this.deviation = 0.75 * this.deviation + 0.25 * Math.abs(d - this.transit);
      this.transit = 0.875 * this.transit + 0.125 * d;
    }
  }

  addGap(value) {
    if (!(value >= 0 && value <= GAP_PAUSE)) return;
    this.gaps.push(value);
    if (this.gaps.length > GAP_WINDOW) this.gaps.shift();
  }

  /** The gaps' 90th percentile (nearest rank), ms; 0 before there are any. */
  get gap() {
    if (this.gaps.length === 0) return 0;
    const sorted = [...this.gaps].sort((x, y) => x - y);
    return sorted[Math.max(Math.ceil(GAP_PERCENTILE * sorted.length) - 1, 0)];
  }

  /** Every lateness measured with the buffer's clock offset moves by the same amount when it is refined. */
  shift(delta) {
    if (this.transit !== null) this.transit += delta;
  }

  get target() {
    if (this.transit === null) return null;
    return Math.min(Math.max(this.transit + 4 * this.deviation + this.gap, 0), B_MAX);
  }
}

/** One buffered mode's render clock: its B, the time it showed last (S), and whether that was a resting frame. */
class Playhead {
  constructor(latestWhileTracking) {
    this.latestWhileTracking = latestWhileTracking;
    this.clear();
  }

  clear() {
    this.B = null;
    this.shownTime = null;  // S: the render time last shown (clamped to the frames buffered)
    this.free = true;       // the picture last shown was one resting frame: B may jump
    this.lastNow = null;
  }
}

export class Smoother {
  constructor() {
    this.mode = "latest";
    this.spread = Object.fromEntries(MODES.map((mode) => [mode, new StepSpread()]));
    this.predictor = new Predictor();
    this.reset();
  }

  /** A new session: no frames, no estimates, the pointer seqs start over. */
  reset() {
    this.buffer = [];          // {frame, time, index, kind}, by time (page clock)
    this.latest = null;        // {frame, index}: the latest frame received
    this.inputs = new Map();   // pointer seq → its event's timeStamp (page clock)
    this.lastAck = null;       // the highest ack of the frames received
    this.lateness = { track: new Lateness(), tick: new Lateness() };
    this.offset = null;        // server − page, ms: the one the buffered ticks were placed with
    this.heads = { interpolation: new Playhead(false), hybrid: new Playhead(true) };
    this.holds = 0;            // interpolation vsyncs that found no frame after R mid-motion (the buffer ran dry)
    this.mixed = 0;            // interpolation vsyncs whose picture lay strictly between two frames
    this.shown = Object.fromEntries(MODES.map((mode) => [mode, null]));
    this.reached = Object.fromEntries(MODES.map((mode) => [mode, 0]));  // the highest arrival index each mode has shown
    for (const spread of Object.values(this.spread)) spread.clear();
    this.predictor.reset();
  }

  /** Resets the comparison figures (a new link), keeping the frames. */
  clearFigures() {
    for (const spread of Object.values(this.spread)) spread.clear();
    this.holds = 0;
    this.predictor.clearFigures();
  }

  setMode(mode) {
    if (MODES.includes(mode)) this.mode = mode;
  }

  /** A pointer message went out: seq, its event's timeStamp (page clock) and the message (for prediction). */
  sent(seq, timeStamp, message) {
    if (message) this.predictor.sent(message);
    if (!finite(seq) || !finite(timeStamp)) return;
    this.inputs.set(seq, timeStamp);
    if (this.inputs.size > INPUTS_MAX) this.inputs.delete(this.inputs.keys().next().value);
  }

  /** The target buffer for the newest frame's kind, ms; null before there is one. */
  get target() {
    const newest = this.buffer[this.buffer.length - 1];
    return newest ? this.lateness[newest.kind].target : null;
  }

  /** A frame arrived at page time `at`, the `index`-th of this page; `offset` = server − page ms, or null. */
  frame(frame, at, index, offset) {
    this.latest = { frame, index };
    this.predictor.frame(frame);
    if (this.offset === null && finite(offset)) this.offset = offset;
    // A frame that answers a pointer message (an ack the previous frame did not carry) shows
    // the state at that event; a frame with the same ack is a tick of the server's own clock.
    const answers = finite(frame.ack) && !(this.lastAck >= frame.ack);
    if (finite(frame.ack)) this.lastAck = Math.max(this.lastAck ?? frame.ack, frame.ack);
    const input = answers ? this.inputs.get(frame.ack) : undefined;
    let kind;
    let time;
    if (input !== undefined) {
      kind = "track";
      time = input;
    } else if (finite(frame.sent) && this.offset !== null) {
      kind = "tick";
      time = frame.sent - this.offset;
    } else {
      // A frame the page cannot place (no clock yet): the buffer starts over from later frames.
      this.buffer = [];
      return;
    }
    const last = this.buffer[this.buffer.length - 1];
    if (last) {
      if (last.kind === kind) this.lateness[kind].addGap(time - last.time);
      time = Math.max(time, last.time);  // never before the frame buffered before it
    }
    this.lateness[kind].sample(at - time);
    this.buffer.push({ frame, time, index, kind });
    if (this.buffer.length > BUFFER_MAX) this.buffer.shift();
  }

  /**
   * One vsync at page time `now`: advances every mode and returns the frame to draw in the
   * selected one. `offset` is the clock's offset (server − page), or null before the first pong.
   */
  vsync(now, offset) {
    const latest = this.latest;
    this.shown.latest = latest?.frame ?? null;
    if (latest) this.reached.latest = Math.max(this.reached.latest, latest.index);
    this.shown.predicted = this.predictor.picture(latest?.frame ?? null);
    if (latest) this.reached.predicted = Math.max(this.reached.predicted, latest.index);
    this.adoptOffset(offset);
    for (const mode of BUFFERED) this.shown[mode] = this.play(mode, now);
    this.prune();
    for (const mode of MODES) {
      const frame = this.shown[mode];
      this.spread[mode].vsync(frame?.progress, frame ? MOVING.has(frame.phase) : false);
    }
    return this.shown[this.mode];
  }

  /** A refined clock offset is taken only while every buffered mode shows a resting frame. */
  adoptOffset(offset) {
    if (!finite(offset) || offset === this.offset || this.offset === null) return;
    const newest = this.buffer[this.buffer.length - 1];
    const resting = !newest || (!MOVING.has(newest.frame.phase) && Object.values(this.heads).every((head) => head.free));
    if (!resting) return;
    this.lateness.tick.shift(offset - this.offset);
    this.offset = offset;
  }

  /** Drops the frames no mode needs any more (keeping a second before the earliest shown). */
  prune() {
    const times = Object.values(this.heads).map((head) => head.shownTime);
    if (times.some((time) => time === null)) return;
    const oldest = Math.min(...times);
    while (this.buffer.length > 2 && this.buffer[1].time <= oldest - 1000) this.buffer.shift();
  }

  /** A buffered mode's picture at `now`; the latest frame until the buffer can place frames. */
  play(mode, now) {
    const head = this.heads[mode];
    const latest = this.latest;
    if (!latest) return null;
    const newest = this.buffer[this.buffer.length - 1];
    const target = this.target;
    const elapsed = head.lastNow === null ? 0 : Math.max(now - head.lastNow, 0);
    head.lastNow = now;
    if (!newest || target === null || newest.index !== latest.index) {
      // Nothing placed, or the latest frame could not be: draw it, and start the render clock over.
      head.clear();
      this.reached[mode] = Math.max(this.reached[mode], latest.index);
      return latest.frame;
    }
    if (head.latestWhileTracking && newest.kind === "track" && MOVING.has(newest.frame.phase)) {
      // Hybrid: direct manipulation is drawn as it arrives; the buffer takes over after the release.
      head.B = now - newest.time;
      head.shownTime = newest.time;
      head.free = true;
      this.reached[mode] = Math.max(this.reached[mode], newest.index);
      return newest.frame;
    }
    if (head.B === null || head.free) head.B = target;
    else {
      const step = STRETCH * elapsed;
      head.B += Math.min(Math.max(target - head.B, -step), step);
    }
    let R = now - head.B;
    if (head.shownTime !== null && R < head.shownTime) {
      // Never earlier than already shown: the picture does not run backwards.
      R = head.shownTime;
      head.B = now - R;
    }
    head.shownTime = Math.min(R, newest.time);
    head.free = false;
    if (R >= newest.time) {
      this.reached[mode] = Math.max(this.reached[mode], newest.index);
      if (MOVING.has(newest.frame.phase)) {
        if (mode === "interpolation") this.holds += 1;  // ran dry mid-motion: the picture stalls
      } else head.free = true;
      return newest.frame;
    }
    let i = this.buffer.length - 1;
    while (i > 0 && this.buffer[i - 1].time > R) i -= 1;
    if (i === 0) return this.buffer[0].frame;  // R before everything buffered: the oldest
    const a = this.buffer[i - 1];
    const b = this.buffer[i];
    this.reached[mode] = Math.max(this.reached[mode], a.index);
    const alpha = b.time > a.time ? (R - a.time) / (b.time - a.time) : 1;
    if (alpha <= 0) return a.frame;
    if (alpha >= 1) return b.frame;
    if (mode === "interpolation") this.mixed += 1;
    return mixFrames(a.frame, b.frame, alpha);
  }

  /** For the HUD and tests. */
  summary() {
    const { track, tick } = this.lateness;
    const newest = this.buffer[this.buffer.length - 1];
    return {
      mode: this.mode,
      B: this.heads.interpolation.B,
      buffers: Object.fromEntries(BUFFERED.map((mode) => [mode, this.heads[mode].B])),
      target: this.target,
      kind: newest?.kind ?? null,
      transit: tick.transit,
      deviation: tick.deviation,
      lag: track.transit,
      lagDeviation: track.deviation,
      gap: newest ? this.lateness[newest.kind].gap : null,
      gaps: { track: track.gaps.length ? track.gap : null, tick: tick.gaps.length ? tick.gap : null },
      holds: this.holds,
      mixed: this.mixed,
      spread: Object.fromEntries(MODES.map((mode) => [mode, this.spread[mode].value])),
      spreadSamples: Object.fromEntries(MODES.map((mode) => [mode, this.spread[mode].count])),
      shownProgress: Object.fromEntries(MODES.map((mode) => [mode, this.shown[mode]?.progress ?? null])),
      prediction: this.predictor.summary(),
    };
  }
}
