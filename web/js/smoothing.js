// Smoothing (issue 13): what the page draws at each vsync, in two modes.
//
// - "latest": the latest frame received (the page before issue 13).
// - "interpolation": the state at render time R = server now − B, interpolated between the two
//   buffered frames around R (frames are placed on the server's clock by their `t`). B is the
//   interpolation buffer; it adapts to the measured arrival of frames:
//
//       d      = a frame's transit: its arrival (page clock, mapped to the server's with the
//                ping/pong offset) − its `t`
//       D, V   = smoothed transit and its mean deviation, as TCP's RTT estimator (RFC 6298):
//                V ← ¾V + ¼|d − D|, then D ← ⅞D + ⅛d
//       Δ      = the longest gap between consecutive frames of a stream, over the last 32 gaps
//                (gaps over 100 ms are pauses, not the stream's rhythm)
//       target = D + 4V + Δ, at most 2 s
//
//   so R stays behind the newest frame that has arrived (a frame to interpolate towards) unless
//   a frame is later than 4 deviations. While something moves, B eases towards the target at
//   most 10 % of the elapsed time (the render clock runs at 0.9–1.1× real time and never goes
//   backwards: time stretching, as game netcode's snapshot interpolation does); when the picture
//   rests, B takes the target at once, which nobody can see. The clock offset cancels out of R
//   (R = now − mean(arrival − t) − 4V − Δ); it only makes D and B readable as milliseconds.
//
// Both modes are computed at every vsync, whichever is drawn, so the HUD compares them on the
// same stream: which frame each has reached (for motion-to-photon), and the displayed progress
// steps (for smoothness).

export const MODES = ["latest", "interpolation"];
const MOVING = new Set(["tracking", "finishing", "cancelling"]);
const BUFFER_MAX = 512;
const GAP_WINDOW = 32;
const GAP_PAUSE = 100;
const B_MAX = 2000;
const STRETCH = 0.1;
const STEPS = 240;

const finite = (value) => typeof value === "number" && Number.isFinite(value);

/** a + (b − a)·α for numbers, element-wise for (nested) arrays of the same shape; else null. */
function mix(a, b, alpha) {
  if (finite(a) && finite(b)) return a + (b - a) * alpha;
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

const CONTINUOUS = ["center", "bounds", "transform", "cornerRadius", "opacity", "transform3d", "corners"];

/**
 * The layers between two frames at α ∈ [0, 1]: matched by `id`; the continuous properties
 * (centre, bounds, transform, corner radius, opacity, and a 3-D layer's transform3d and
 * corners) interpolated; the rest (content, shape, z, mask, controller, which layers exist)
 * taken from the nearer frame. A value that cannot be interpolated (missing, not finite,
 * different shapes) is the nearer frame's.
 */
export function mixLayers(a, b, alpha) {
  const nearer = alpha < 0.5 ? a : b;
  const farther = alpha < 0.5 ? b : a;
  if (!Array.isArray(nearer)) return nearer;
  const others = new Map();
  if (Array.isArray(farther)) for (const layer of farther) if (layer && typeof layer === "object") others.set(layer.id, layer);
  return nearer.map((layer) => {
    const other = layer && typeof layer === "object" ? others.get(layer.id) : undefined;
    if (!other) return layer;
    const [from, to] = alpha < 0.5 ? [layer, other] : [other, layer];
    const out = { ...layer };
    for (const key of CONTINUOUS) {
      if (!(key in layer)) continue;
      const value = mix(from[key], to[key], alpha);
      if (value !== null) out[key] = value;
    }
    return out;
  });
}

/** A frame between `a` and `b` at α: progress, velocity, t and the layers interpolated; the rest the nearer's. */
export function mixFrames(a, b, alpha) {
  const nearer = alpha < 0.5 ? a : b;
  const out = { ...nearer, layers: mixLayers(a.layers, b.layers, alpha) };
  for (const key of ["progress", "t", "velocity"]) {
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

export class Smoother {
  constructor() {
    this.mode = "latest";
    this.spread = { latest: new StepSpread(), interpolation: new StepSpread() };
    this.reset();
  }

  /** A new session: no frames, no estimates. */
  reset() {
    this.buffer = [];          // {frame, t, index}, by t
    this.latest = null;        // {frame, index}: the latest frame received
    this.transit = null;       // D, ms (server clock)
    this.deviation = 0;        // V
    this.gaps = [];
    this.offset = null;        // the clock offset the transits were measured with
    this.B = null;             // the buffer in use, ms
    this.lastNow = null;
    this.holds = 0;            // vsyncs that found no frame after R (the buffer ran dry)
    this.mixed = 0;            // vsyncs whose interpolation picture lay strictly between two frames
    this.shown = { latest: null, interpolation: null };
    this.reached = { latest: 0, interpolation: 0 };  // the highest arrival index each mode has shown
    for (const spread of Object.values(this.spread)) spread.clear();
  }

  /** Resets the comparison figures (a new link), keeping the frames. */
  clearFigures() {
    for (const spread of Object.values(this.spread)) spread.clear();
    this.holds = 0;
  }

  setMode(mode) {
    if (MODES.includes(mode)) this.mode = mode;
  }

  /** The target buffer from the estimates, ms; null before there are any. */
  get target() {
    if (this.transit === null) return null;
    const gap = this.gaps.length ? Math.max(...this.gaps) : 0;
    return Math.min(Math.max(this.transit + 4 * this.deviation + gap, 0), B_MAX);
  }

  /** A frame arrived at page time `at`, the `index`-th of this page; `offset` = server − page ms, or null. */
  frame(frame, at, index, offset) {
    this.latest = { frame, index };
    const t = frame.t;
    const last = this.buffer[this.buffer.length - 1];
    if (!finite(t) || (last && t < last.t)) {
      // A frame the server's clock cannot place: start the buffer over from the latest frame.
      this.buffer = [];
      return;
    }
    if (last) {
      const gap = t - last.t;
      if (gap <= GAP_PAUSE) {
        this.gaps.push(gap);
        if (this.gaps.length > GAP_WINDOW) this.gaps.shift();
      }
    }
    this.buffer.push({ frame, t, index });
    if (this.buffer.length > BUFFER_MAX) this.buffer.shift();
    if (offset === null || !finite(offset)) return;
    if (this.offset !== null && this.transit !== null) this.transit += offset - this.offset;  // a better offset shifts every transit alike
    this.offset = offset;
    const d = at + offset - t;
    if (!finite(d)) return;
    if (this.transit === null) {
      this.transit = d;
      this.deviation = Math.abs(d) / 2;
    } else {
      this.deviation = 0.75 * this.deviation + 0.25 * Math.abs(d - this.transit);
      this.transit = 0.875 * this.transit + 0.125 * d;
    }
  }

  /**
   * One vsync at page time `now`: advances both modes and returns the frame to draw in the
   * selected one. `offset` is the clock offset (server − page), or null before the first pong.
   */
  vsync(now, offset) {
    const latest = this.latest;
    this.shown.latest = latest?.frame ?? null;
    if (latest) this.reached.latest = Math.max(this.reached.latest, latest.index);
    const interpolated = this.interpolate(now, offset);
    this.shown.interpolation = interpolated;
    this.lastNow = now;
    for (const mode of MODES) {
      const frame = this.shown[mode];
      this.spread[mode].vsync(frame?.progress, frame ? MOVING.has(frame.phase) : false);
    }
    return this.shown[this.mode];
  }

  /** The interpolation buffer's picture; the latest frame until the clock and the estimates exist. */
  interpolate(now, offset) {
    const target = this.target;
    const latest = this.latest;
    if (!latest) return null;
    if (offset === null || target === null || this.buffer.length === 0 || this.offset === null) {
      this.reached.interpolation = Math.max(this.reached.interpolation, latest.index);
      return latest.frame;
    }
    const elapsed = this.lastNow === null ? 0 : Math.max(now - this.lastNow, 0);
    const newest = this.buffer[this.buffer.length - 1];
    const serverNow = now + this.offset;
    if (this.B === null) this.B = target;
    else {
      const resting = !MOVING.has(newest.frame.phase) && serverNow - this.B >= newest.t;
      if (resting) this.B = target;
      else {
        const step = STRETCH * elapsed;
        this.B += Math.min(Math.max(target - this.B, -step), step);
      }
    }
    const R = serverNow - this.B;
    // Frames older than the one before R are no longer needed (keep a second of them).
    while (this.buffer.length > 2 && this.buffer[1].t <= R - 1000) this.buffer.shift();
    if (R >= newest.t) {
      this.reached.interpolation = Math.max(this.reached.interpolation, newest.index);
      if (MOVING.has(newest.frame.phase)) this.holds += 1;  // ran dry mid-motion: the picture stalls
      return newest.frame;
    }
    let i = this.buffer.length - 1;
    while (i > 0 && this.buffer[i - 1].t > R) i -= 1;
    if (i === 0) return this.buffer[0].frame;  // R before everything buffered: the oldest
    const a = this.buffer[i - 1];
    const b = this.buffer[i];
    this.reached.interpolation = Math.max(this.reached.interpolation, a.index);
    const alpha = b.t > a.t ? (R - a.t) / (b.t - a.t) : 1;
    if (alpha <= 0) return a.frame;
    if (alpha >= 1) return b.frame;
    this.mixed += 1;
    return mixFrames(a.frame, b.frame, alpha);
  }

  /** For the HUD and tests. */
  summary() {
    return {
      mode: this.mode,
      B: this.B,
      target: this.target,
      transit: this.transit,
      deviation: this.deviation,
      gap: this.gaps.length ? Math.max(...this.gaps) : null,
      holds: this.holds,
      mixed: this.mixed,
      spread: { latest: this.spread.latest.value, interpolation: this.spread.interpolation.value },
      spreadSamples: { latest: this.spread.latest.count, interpolation: this.spread.interpolation.count },
      shownProgress: {
        latest: this.shown.latest?.progress ?? null,
        interpolation: this.shown.interpolation?.progress ?? null,
      },
    };
  }
}
