// Motion-to-photon: for every pointer event the page sends, its `timeStamp` (when the
// hardware event happened, performance.now() clock) → the requestAnimationFrame in which the
// first frame acknowledging it (`ack` ≥ its `seq`) is drawn, plus one frame interval: the
// drawing reaches the glass at the next vsync. Split, for the events a frame acknowledges
// exactly (that frame's `received`/`sent`/`arrived`/`delivered` are the event's own):
//
//   server    = sent − received                          (the server's clock)
//   network   = (frame arrives − message sent) − server   (page clock)
//     simulated = (received − arrived) + (delivered − sent), when the frame carries them
//     real      = network − simulated                     (the loopback and both event loops)
//   page      = input + draw
//     input     = message sent − timeStamp                (the event reaching the handler)
//     draw      = photon − frame arrives                  (waiting for the vsync, and the buffer's B)
//
// A picture drawn before any frame acknowledges the event (smoothing.js's "predicted" mode:
// `drawn`, the newest pointer seq whose predicted picture a mode drew) completes the event for
// that mode at once: total = page = input + (photon − message sent), no network or server part.
//
// Every mode of smoothing.js is measured on the same events at once (which frame each mode has
// reached at each vsync), so the HUD can show what the interpolation buffer adds.
//
// A frame drawn as it arrives on a low-latency canvas (display.js's fast path) is not waiting for
// a composited frame: its photon is the first vsync after the draw (`VsyncClock.next`), the
// display's next refresh, where a frame drawn in requestAnimationFrame reaches the glass one
// interval after that rAF's vsync. Both are lower bounds by the same rule (the earliest refresh
// that can show the picture); test_page_latency.py checks the fast path's events are measured so.

import { prepareCanvas } from "./canvas.js";
import { percentile } from "./latency.js";

const CAPACITY = 256;
const STALE = 10000;  // ms: an event no frame acknowledged (refused, or a lost connection) is dropped
const PARTS = ["total", "network", "simulated", "real", "server", "page", "input", "draw"];

const finite = (value) => typeof value === "number" && Number.isFinite(value);
/** A non-negative duration from the server's numbers, or null when they make no sense. */
const span = (from, to) => (finite(from) && finite(to) && to - from >= 0 && to - from < 60000 ? to - from : null);

/** The display's frame interval, from requestAnimationFrame's timestamps: the median of recent deltas. */
export class VsyncClock {
  constructor() {
    this.last = null;
    this.deltas = [];
    this.interval = 1000 / 60;
  }

  tick(now) {
    if (this.last !== null) {
      const delta = now - this.last;
      if (delta > 2 && delta < 100) {  // a hidden tab's pause is not the display's rhythm
        this.deltas.push(delta);
        if (this.deltas.length > 60) this.deltas.shift();
        const sorted = [...this.deltas].sort((a, b) => a - b);
        this.interval = sorted[Math.floor(sorted.length / 2)];
      }
    }
    this.last = now;
    return this.interval;
  }

  /** The first vsync at or after page time `t`, on the rhythm of the last rAF's timestamp. */
  next(t) {
    if (this.last === null || !(t > this.last)) return t;
    return this.last + Math.ceil((t - this.last) / this.interval) * this.interval;
  }
}

class SampleRing {
  constructor() {
    this.values = [];
    this.next = 0;
  }

  push(sample) {
    if (this.values.length < CAPACITY) this.values.push(sample);
    else this.values[this.next] = sample;
    this.next = (this.next + 1) % CAPACITY;
  }

  clear() {
    this.values = [];
    this.next = 0;
  }

  summary() {
    const out = { count: this.values.length };
    for (const part of PARTS) {
      const sorted = this.values.map((s) => s[part]).filter(finite).sort((a, b) => a - b);
      out[part] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: sorted.length };
    }
    return out;
  }

  totals() {
    return this.values.map((s) => s.total);
  }
}

export class MotionToPhoton {
  /** @param modes the smoothing modes measured side by side */
  constructor(modes) {
    this.modes = modes;
    this.pending = new Map();  // seq → {t0, sentAt}
    this.awaiting = [];        // acknowledged, not yet drawn in every mode
    this.rings = Object.fromEntries(modes.map((mode) => [mode, new SampleRing()]));
  }

  /** A pointer message went out at page time `sentAt`; `t0` is its event's timeStamp. */
  sent(seq, t0, sentAt) {
    if (!finite(t0) || !finite(sentAt)) return;
    this.pending.set(seq, { t0, sentAt });
  }

  /** A frame arrived at `at`, the `index`-th frame of this page: it acknowledges every pending seq ≤ its ack. */
  frame(frame, at, index) {
    const ack = frame.ack;
    if (!finite(ack)) return;
    for (const [seq, event] of this.pending) {
      if (seq > ack) {
        if (at - event.sentAt > STALE) this.pending.delete(seq);
        continue;
      }
      this.pending.delete(seq);
      const entry = { ...event, at, index, done: new Set(event.early ?? []) };
      if (seq === ack) {
        const server = span(frame.received, frame.sent);
        const inbound = "arrived" in frame ? span(frame.arrived, frame.received) : 0;
        const outbound = "delivered" in frame ? span(frame.sent, frame.delivered) : 0;
        if (server !== null) {
          const network = Math.max(at - event.sentAt - server, 0);
          entry.server = server;
          entry.network = network;
          if (inbound !== null && outbound !== null) {
            entry.simulated = inbound + outbound;
            entry.real = Math.max(network - entry.simulated, 0);
          }
        }
      }
      this.awaiting.push(entry);
    }
  }

  /**
   * One vsync at `now` (requestAnimationFrame's timestamp), the display's `interval`, and for
   * each mode the highest frame index it has drawn: the events those frames acknowledge are done.
   */
  vsync(now, interval, reached, drawn = {}) {
    const photon = now + interval;
    for (const [mode, newest] of Object.entries(drawn)) this.ahead(mode, newest, photon);
    for (const mode of this.modes) this.reach(mode, reached[mode], photon);
    this.awaiting = this.awaiting.filter((entry) => entry.done.size < this.modes.length && now - entry.at < STALE);
  }

  /** `mode` has shown the frames up to arrival `index`; what they acknowledge reaches the glass at `photon`. */
  reach(mode, index, photon) {
    for (const entry of this.awaiting) {
      if (entry.done.has(mode) || !(index >= entry.index)) continue;
      entry.done.add(mode);
      const input = Math.max(entry.sentAt - entry.t0, 0);
      const draw = Math.max(photon - entry.at, 0);
      this.rings[mode].push({
        total: photon - entry.t0,
        page: input + draw,
        input,
        draw,
        server: entry.server,
        network: entry.network,
        simulated: entry.simulated,
        real: entry.real,
      });
    }
  }

  /**
   * `mode` drew a picture of the pointer events up to `newest` (seq) before their frames: they
   * reach the glass at `photon`.
   */
  ahead(mode, newest, photon) {
    if (!finite(newest) || !this.rings[mode]) return;
    for (const [seq, event] of this.pending) {
      if (seq > newest || event.early?.has(mode)) continue;
      (event.early ??= new Set()).add(mode);
      const input = Math.max(event.sentAt - event.t0, 0);
      const draw = Math.max(photon - event.sentAt, 0);
      this.rings[mode].push({ total: photon - event.t0, page: input + draw, input, draw });
    }
  }

  /** A new session: its sequence numbers start over. */
  reset() {
    this.pending.clear();
    this.awaiting = [];
  }

  /** A new link or mode to compare: the figures start over. */
  clear() {
    for (const ring of Object.values(this.rings)) ring.clear();
  }

  summary() {
    return Object.fromEntries(this.modes.map((mode) => [mode, this.rings[mode].summary()]));
  }

  totals(mode) {
    return this.rings[mode]?.totals() ?? [];
  }
}

/**
 * A small live histogram of motion-to-photon totals on a canvas: 5 ms bins (wider when the
 * figures are long), the p50 and p99 marked.
 */
export function drawHistogram(canvas, totals, p50, p99, dpr) {
  const { ctx, width: cssWidth, height: cssHeight } = prepareCanvas(canvas, dpr, 60);
  const values = totals.filter(finite);
  if (values.length === 0) return;
  const top = Math.max(...values);
  const width = [5, 10, 20, 50, 100, 200].find((w) => top / w <= 40) ?? 500;
  const bins = Math.max(Math.ceil(top / width) + 1, 8);
  const counts = new Array(bins).fill(0);
  for (const value of values) counts[Math.min(Math.max(Math.floor(value / width), 0), bins - 1)] += 1;
  const most = Math.max(...counts);
  const pad = 2;
  const labelHeight = 11;
  const barWidth = (cssWidth - 2 * pad) / bins;
  const plotHeight = cssHeight - labelHeight - pad;
  ctx.fillStyle = "#5ec2ff";
  counts.forEach((count, i) => {
    const h = (count / most) * (plotHeight - pad);
    ctx.fillRect(pad + i * barWidth + 0.5, plotHeight - h, Math.max(barWidth - 1, 1), h);
  });
  const x = (ms) => pad + (ms / width) * barWidth;
  for (const [value, colour] of [[p50, "#59d48a"], [p99, "#ff6b6b"]]) {
    if (!finite(value)) continue;
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.moveTo(x(value), 0);
    ctx.lineTo(x(value), plotHeight);
    ctx.stroke();
  }
  ctx.fillStyle = "#9aa1ad";
  ctx.font = "9px system-ui, sans-serif";
  ctx.textBaseline = "bottom";
  ctx.fillText("0", pad, cssHeight);
  const end = `${bins * width} ms`;
  ctx.fillText(end, cssWidth - pad - ctx.measureText(end).width, cssHeight);
}
