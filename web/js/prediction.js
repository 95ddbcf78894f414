// Client-side prediction with server reconciliation (docs/PAGE.md "Prediction"): the picture
// of a drag drawn from the page's own pointer messages, before the server's frame for them
// arrives, and checked against that frame when it does.
//
// - The server sends its tracking table (`prediction`, predictorTable.js) after each
//   `configured`, to a connection that asked (`configure {prediction: true}`); the page replays
//   the pan (predictorPan.js) on every pointer message it sends and takes the table's picture
//   at the tracked fraction: the prediction for that message's `seq`.
// - Drawn while the server's frames lag behind the newest pointer message (ack < its seq); a
//   frame that acknowledges it is drawn as it is. After the release the last predicted picture
//   is held until the frame that acknowledges the `up` arrives: every release, decision and
//   completion is the server's frames, unchanged.
// - Reconciliation: a tracking frame that acknowledges a predicted seq is compared with that
//   prediction (per layer: the largest corner displacement, pictureError); the errors are the
//   live figure (p50, p99, max). Beyond DIVERGENCE points (or a frame in another phase: the
//   server did not begin the pan where the page did) the gesture falls back to the server's
//   frames until its end.
// - Not predicted (the server's frames are drawn): no table, a scene session (its frames carry
//   `scene`), a grab of a running completion, a gesture that starts while frames are still
//   owed for earlier pointer messages, a viewer.

import { PanModel, readPan } from "./predictorPan.js";
import { pictureError, readTable, sampleAt } from "./predictorTable.js";

/** Points: a prediction this far from the server's frame for its seq ends prediction for the gesture. */
export const DIVERGENCE = 4;
const KEPT = 256;      // predictions awaiting their frame
const ERRORS = 512;    // errors kept for the percentiles
const AT_REST = new Set(["idle", "finished", "cancelled"]);

/** A rule for a gesture that is not predicted: its model only follows the pointer. */
const INERT = { axis: "x", direction: "both", slop: 0, distance: 1, clamp: [0, 1], rubberBand: null, container: [1, 1],
  noAbs: false };

const finite = (value) => typeof value === "number" && Number.isFinite(value);

function percentile(sorted, q) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))];
}

export class Predictor {
  constructor() {
    this.samples = null;   // the table's samples, whole; null: nothing to predict with
    this.rule = null;      // the pan rule that came with them
    this.errors = [];
    this.opacityError = 0;  // the largest opacity difference compared
    this.fallbacks = {};   // reason → gestures that fell back
    this.predicted = 0;    // pictures predicted
    this.reset();
  }

  /** A new session or a viewer: no gesture, no predictions; the table comes again with `prediction`. */
  reset() {
    this.samples = null;
    this.rule = null;
    this.endGesture();
    this.lastSent = null;  // the seq of the last pointer message sent
    this.latest = null;    // the latest frame
    this.shownSeq = null;  // the seq whose prediction the last picture() returned
  }

  endGesture() {
    this.gesture = null;   // {mode: "predicting" | "holding" | "off", upSeq, reason}
    this.model = null;
    this.current = null;   // {seq, progress, layers}: the newest prediction
    this.pending = new Map();  // seq → prediction, until its frame arrives
  }

  /** A `prediction` message's table (null: none). */
  table(table) {
    const samples = readTable(table);
    const rule = samples ? readPan(table.pan) : null;
    this.samples = rule ? samples : null;
    this.rule = rule;
    if (this.gesture) this.fallBack("configured");
  }

  fallBack(reason) {
    if (!this.gesture || this.gesture.mode === "off") return;
    this.gesture.mode = "off";
    this.gesture.reason = reason;
    this.fallbacks[reason] = (this.fallbacks[reason] ?? 0) + 1;
    this.current = null;
    this.pending.clear();
  }

  /** A pointer message the page sent ({phase, x, y, seq, pointerId}). */
  sent(message) {
    if (!message || !finite(message.seq) || !finite(message.x) || !finite(message.y)) return;
    const previous = this.lastSent;
    this.lastSent = message.seq;
    if (message.phase === "down" && (!this.model || this.model.followed === null)) this.begin(previous);
    if (!this.model) return;
    const fraction = this.model.feed(message);
    if (this.model.state === "failed") this.fallBack("not a pan");
    const gesture = this.gesture;
    if (gesture.mode === "predicting" && fraction !== null) {
      const { progress, layers } = sampleAt(this.samples, fraction);
      this.current = { seq: message.seq, progress, layers };
      this.pending.set(message.seq, this.current);
      if (this.pending.size > KEPT) this.pending.delete(this.pending.keys().next().value);
      this.predicted += 1;
    }
    if (this.model.followed === null) {
      // The followed pointer lifted: hold the last prediction until the server answers the release.
      if (gesture.mode === "predicting") {
        gesture.mode = "holding";
        gesture.upSeq = message.seq;
      }
      this.model = null;
      if (gesture.mode === "off") this.endGesture();
    }
  }

  /** A gesture's first down: predicted only from a settled rest the table describes. */
  begin(previous) {
    this.endGesture();
    const latest = this.latest;
    let reason = null;
    if (!this.samples) reason = "no table";
    else if (!latest) reason = "no frame";
    else if (latest.scene) reason = "scene";
    else if (!AT_REST.has(latest.phase)) reason = "not at rest";
    else if (previous !== null && !(latest.ack >= previous)) reason = "frames owed";
    this.gesture = { mode: reason ? "off" : "predicting", upSeq: null, reason };
    if (reason) this.fallbacks[reason] = (this.fallbacks[reason] ?? 0) + 1;
    // Without prediction the model still follows which pointer the server follows (a second
    // finger's down does not start a gesture).
    this.model = new PanModel(this.rule ?? INERT);
  }

  /** A frame arrived (whole): reconcile the prediction it acknowledges. */
  frame(frame) {
    this.latest = frame;
    const gesture = this.gesture;
    if (!gesture || !finite(frame.ack)) return;
    if (frame.scene) this.fallBack("scene");
    const prediction = this.pending.get(frame.ack);
    if (prediction) {
      for (const seq of this.pending.keys()) if (seq <= frame.ack) this.pending.delete(seq);
      if (frame.phase !== "tracking") this.fallBack("phase");
      else {
        const error = pictureError(prediction.layers, frame.layers);
        this.errors.push(error.points);
        if (this.errors.length > ERRORS) this.errors.shift();
        this.opacityError = Math.max(this.opacityError, error.opacity);
        if (!(error.points <= DIVERGENCE) || !(error.opacity <= 0.05)) this.fallBack("diverged");
      }
    }
    if (gesture.mode === "holding" && frame.ack >= gesture.upSeq) this.endGesture();
  }

  /** What to draw, given the latest frame: the newest prediction while the server's frames lag behind it. */
  picture(latest) {
    this.shownSeq = null;
    const current = this.current;
    if (!latest || !current || !this.gesture || this.gesture.mode === "off") return latest;
    if (latest.ack >= current.seq) return latest;
    this.shownSeq = current.seq;
    // The same object while nothing changed: the display redraws only a new picture.
    if (this.drawn?.latest !== latest || this.drawn?.current !== current) {
      const { progress, layers } = current;
      this.drawn = { latest, current, picture: { ...latest, phase: "tracking", progress, layers, predicted: true } };
    }
    return this.drawn.picture;
  }

  /** The live figures, for the lab panel and tests. */
  summary() {
    const sorted = [...this.errors].sort((a, b) => a - b);
    return {
      table: this.samples ? this.samples.length : null,
      gesture: this.gesture ? { mode: this.gesture.mode, reason: this.gesture.reason } : null,
      predicted: this.predicted,
      error: {
        count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? null,
        opacity: this.opacityError,
      },
      fallbacks: { ...this.fallbacks },
      divergence: DIVERGENCE,
    };
  }

  /** The figures start over (a new link, the lab script between runs). */
  clearFigures() {
    this.errors = [];
    this.opacityError = 0;  // the largest opacity difference compared
    this.fallbacks = {};
    this.predicted = 0;
  }
}

/** The lab panel's line: the error's p50 / p99 / max and how many were compared, or why nothing is predicted. */
export function predictionText(summary) {
  const pt = (value) => (finite(value) ? `${value.toFixed(2)} pt` : "—");
  const { error, table, gesture } = summary;
  if (table === null) return "— (no tracking table)";
  const state = gesture?.mode === "off" ? ` · falls back: ${gesture.reason}` : "";
  return `p50 ${pt(error.p50)} · p99 ${pt(error.p99)} · max ${pt(error.max)} (${error.count} frames)${state}`;
}
