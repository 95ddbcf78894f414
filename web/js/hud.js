// What the machine decided: phase, progress (of which operation), velocity, the release decision
// in words ("present finished at 0.36 by projection"), and a plot of progress over (server) time
// for the last gesture with its release point and the threshold; a scene's (re)start clears them.

import { prepareCanvas } from "./canvas.js";

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "—");
/** The transitions whose present and dismiss UIKit calls push and pop. */
const NAVIGATION = new Set(["reveal", "push"]);
const OUTCOMES = { finish: "finished", cancel: "cancelled" };

/**
 * The operation a frame shows: a scene's running or armed action (none: null), else the configured one
 * (push/pop for the navigation transitions); null when the page knows neither.
 */
export function operationOf(frame, config) {
  // A scene's frames carry `scene`: its pans drive the armed action, never the configured one.
  if (frame?.scene) return typeof frame.scene.transition?.action === "string" ? frame.scene.transition.action : null;
  const operation = config?.operation;
  if (operation !== "present" && operation !== "dismiss") return null;
  if (NAVIGATION.has(config.transition)) return operation === "present" ? "push" : "pop";
  return operation;
}

/**
 * The release in words: "present finished at 0.36 by projection" once the outcome is known
 * ("finishing" until then). `outcome` may differ from the decision (a pitfall's
 * completeTransition(true) on a cancel): both are said. test_inspector_layout.py holds the words.
 */
export function releaseWords(operation, release, outcome) {
  const expected = OUTCOMES[release.decision] ?? release.decision;
  const verb = outcome ?? (release.decision === "finish" ? "finishing" : "cancelling");
  const at = `at ${fixed(release.progress, 2)} by ${release.reason}`;
  const odd = outcome && outcome !== expected ? ` (decided: ${release.decision})` : "";
  return `${operation ?? "transition"} ${verb} ${at}${odd}`;
}

export class Hud {
  /** @param config a function: the effective configuration now (the page's `state.config`) */
  constructor(document, config = () => null) {
    this.config = config;
    this.phase = document.getElementById("hud-phase");
    this.progress = document.getElementById("hud-progress");
    this.velocity = document.getElementById("hud-velocity");
    this.decision = document.getElementById("hud-decision");
    this.plot = document.getElementById("plot");
    this.threshold = 0.5;
    this.samples = [];  // [server ms, progress] of the last gesture
    this.release = null;  // [server ms, progress]
    this.releasePending = false;
    this.projected = null;  // the projection rule's rest point, in progress
    this.recording = false;
    this.latest = null;
    this.dirty = true;
    this.releaseEvent = null;  // the last `released` event, with the operation it ended
    this.outcome = null;       // "finished" / "cancelled" / "paused" once its event came
    document.getElementById("scene-start")?.addEventListener("submit", () => this.forget());
  }

  /** A scene (re)started: the last transition's line and plot belong to the scene before. */
  forget() {
    this.samples = [];
    this.release = null;
    this.projected = null;
    this.releaseEvent = null;
    this.outcome = null;
    this.recording = false;
    this.decision.textContent = "—";
    this.dirty = true;
  }

  setThreshold(threshold) {
    this.threshold = threshold;
    this.dirty = true;
  }

  /** A pan began (or a run was played): the plot starts over. */
  gestureBegan(grabbed) {
    if (grabbed && this.recording) return;  // a grab continues the same gesture's plot
    this.samples = [];
    this.release = null;
    this.projected = null;
    this.releaseEvent = null;
    this.outcome = null;
    this.recording = true;
    this.decision.textContent = "—";
    this.dirty = true;
  }

  released(event) {
    this.projected = Number.isFinite(event.projected) ? event.projected : null;
    this.releaseEvent = { ...event, operation: operationOf(this.latest, this.config()) };
    this.outcome = null;
    this.showDecision();
    this.releasePending = true;
  }

  /** The transition's end: `finished`, `cancelled` or `paused` (a transition event). */
  ended(outcome) {
    if (!this.releaseEvent || this.outcome) return;
    this.outcome = outcome;
    this.showDecision();
  }

  showDecision() {
    const event = this.releaseEvent;
    const velocity = Number.isFinite(event.velocity) ? `, ${event.velocity.toFixed(2)}/s` : "";
    const projected = this.projected === null ? "" : `, projected ${fixed(this.projected, 2)}`;
    this.decision.textContent = `${releaseWords(event.operation, event, this.outcome)}${velocity}${projected}`;
  }

  /** Every frame, as it arrives: the plot needs all of them, the text only the latest. */
  frame(frame) {
    this.latest = frame;
    if (!this.recording) return;
    this.samples.push([frame.sent, frame.progress]);
    if (this.releasePending) {
      this.release = [frame.sent, frame.progress];
      this.releasePending = false;
    }
    if (frame.phase === "finished" || frame.phase === "cancelled" || frame.phase === "idle") this.recording = false;
    this.dirty = true;
  }

  /** Writes the latest frame's numbers; called from requestAnimationFrame. */
  showFrame() {
    const frame = this.latest;
    if (!frame) return;
    this.phase.textContent = frame.phase;
    // Which operation the number is of: after a finished present the next one (auto-reverse:
    // dismiss) rests at 0, which alone would read like a cancel.
    const operation = operationOf(frame, this.config());
    this.progress.textContent = operation ? `${fixed(frame.progress, 3)} of ${operation}` : fixed(frame.progress, 3);
    const [vx, vy] = frame.velocity ?? [0, 0];
    this.velocity.textContent = `${fixed(vx, 0)}, ${fixed(vy, 0)} pt/s`;
  }

  /** Redraws the plot when something changed; called from requestAnimationFrame. */
  drawPlot(dpr) {
    if (!this.dirty) return;
    this.dirty = false;
    const canvas = this.plot;
    const { ctx, width: cssWidth, height: cssHeight } = prepareCanvas(canvas, dpr, 120);
    const pad = 6;
    const y = (p) => cssHeight - pad - p * (cssHeight - 2 * pad);
    ctx.strokeStyle = "#f2b84b";
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(0, y(this.threshold));
    ctx.lineTo(cssWidth, y(this.threshold));
    ctx.stroke();
    ctx.setLineDash([]);
    if (this.samples.length < 2) return;
    const t0 = this.samples[0][0];
    const span = Math.max(this.samples[this.samples.length - 1][0] - t0, 1);
    const x = (t) => pad + ((t - t0) / span) * (cssWidth - 2 * pad);
    ctx.strokeStyle = "#5ec2ff";
    ctx.lineWidth = 2;
    ctx.beginPath();
    this.samples.forEach(([t, p], i) => (i ? ctx.lineTo(x(t), y(p)) : ctx.moveTo(x(t), y(p))));
    ctx.stroke();
    if (this.release) {
      ctx.fillStyle = "#ff6b6b";
      ctx.beginPath();
      ctx.arc(x(this.release[0]), y(this.release[1]), 4, 0, Math.PI * 2);
      ctx.fill();
      if (this.projected !== null) this.drawProjected(ctx, x(this.release[0]), y, this.release[1]);
    }
  }

  /** The projected rest point: a dashed line up or down from the release to a diamond, pinned
   * to the plot's edge with an arrow when it lies beyond 0…1. */
  drawProjected(ctx, rx, y, from) {
    const beyond = this.projected > 1 ? 1 : this.projected < 0 ? -1 : 0;
    const shown = Math.min(Math.max(this.projected, 0), 1);
    const py = y(shown);
    ctx.strokeStyle = "#c792ea";
    ctx.fillStyle = "#c792ea";
    ctx.lineWidth = 1.5;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(rx, y(from));
    ctx.lineTo(rx, py);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    if (beyond) {
      ctx.moveTo(rx, py - 6 * beyond);
      ctx.lineTo(rx - 5, py);
      ctx.lineTo(rx + 5, py);
    } else {
      ctx.moveTo(rx, py - 5);
      ctx.lineTo(rx + 5, py);
      ctx.lineTo(rx, py + 5);
      ctx.lineTo(rx - 5, py);
    }
    ctx.closePath();
    ctx.fill();
  }
}
