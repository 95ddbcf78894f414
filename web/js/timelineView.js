// Draws one kept gesture on the timeline canvas: progress against time (each frame at its
// arrival), the pointer's travel, the threshold, the release and projected points, a tick per
// frame, each lifecycle callback as a labelled marker at its arrival, and the frame shown. The
// same time scale maps a pointer on the canvas back to a frame (`frameIndexAt`). No state.

import { prepareCanvas } from "./canvas.js";
import { lifecycleLine } from "./scene.js";

export const HEIGHT = 180;
/** Room for the lifecycle labels above the plot, and for the frame ticks and time axis below. */
const TOP = 34;
const BOTTOM = 22;
const SIDE = 8;
const COLOURS = {
  // The threshold, release and projected swatches are the HUD's (style.css --warn, --bad, .swatch.projected).
  progress: "#4fc3f7", pointer: "#b39ddb", threshold: "#f2b84b", release: "#ff6b6b", projected: "#c792ea",
  tick: "#6b7280", lifecycle: "#f06292", cursor: "#ffffff", text: "#9ca3af",
};

/** The gesture's time span (page clock, ms): its start to its last frame, sample or callback. */
function span(gesture) {
  const ends = [
    gesture.frames.at(-1)?.arrivedAt, gesture.samples.at(-1)?.at, gesture.lifecycle.at(-1)?.at,
    gesture.events.at(-1)?.at,
  ].filter(Number.isFinite);
  const firsts = [gesture.startedAt, gesture.frames[0]?.arrivedAt, gesture.samples[0]?.at].filter(Number.isFinite);
  const start = Math.min(...firsts);
  const end = Math.max(start + 1, ...ends);
  return [start, end];
}

/** The map from time to x and progress to y on a canvas `width` × `height` (CSS px). */
export function scales(gesture, width, height = HEIGHT) {
  const [start, end] = span(gesture);
  const plotWidth = Math.max(1, width - 2 * SIDE);
  const plotHeight = height - TOP - BOTTOM;
  return {
    start,
    end,
    x: (t) => SIDE + ((t - start) / (end - start)) * plotWidth,
    t: (x) => start + ((x - SIDE) / plotWidth) * (end - start),
    // -0.1…1.1: a projected rest point a little past either end still shows.
    y: (progress) => TOP + ((1.1 - Math.max(-0.1, Math.min(1.1, progress))) / 1.2) * plotHeight,
  };
}

/** The index of the frame whose arrival is nearest to canvas x `x` (CSS px). */
export function frameIndexAt(gesture, x, width) {
  const { t } = scales(gesture, width);
  const time = t(x);
  let best = 0;
  gesture.frames.forEach((entry, index) => {
    if (Math.abs(entry.arrivedAt - time) < Math.abs(gesture.frames[best].arrivedAt - time)) best = index;
  });
  return best;
}

/** The pointer's distance from its first sample, per sample, scaled so the farthest is 1. */
function travel(samples) {
  if (samples.length === 0) return { points: [], farthest: 0 };
  const [x0, y0] = [samples[0].x, samples[0].y];
  const distances = samples.map((sample) => Math.hypot(sample.x - x0, sample.y - y0));
  const farthest = Math.max(...distances);
  return { points: samples.map((sample, i) => [sample.at, farthest > 0 ? distances[i] / farthest : 0]), farthest };
}

/** Draws `gesture` (or an empty note) with frame `shownIndex` (or none) marked. */
export function drawTimeline(canvas, gesture, shownIndex, dpr) {
  const { ctx, width, height } = prepareCanvas(canvas, dpr, HEIGHT);
  ctx.fillStyle = "#111318";
  ctx.fillRect(0, 0, width, height);
  ctx.font = "11px system-ui, sans-serif";
  if (!gesture || gesture.frames.length === 0) {
    ctx.fillStyle = COLOURS.text;
    ctx.fillText("No gesture kept yet: drag on the screen, or tap to play.", SIDE, height / 2);
    return;
  }
  const s = scales(gesture, width, height);
  const threshold = s.y(gesture.settings?.threshold ?? 0.5);
  line(ctx, [[s.x(s.start), threshold], [s.x(s.end), threshold]], COLOURS.threshold, [4, 4]);
  const { points } = travel(gesture.samples);
  line(ctx, points.map(([t, v]) => [s.x(t), s.y(v)]), COLOURS.pointer);
  line(ctx, gesture.frames.map((entry) => [s.x(entry.arrivedAt), s.y(entry.frame.progress)]), COLOURS.progress);
  ctx.fillStyle = COLOURS.tick;
  for (const entry of gesture.frames) ctx.fillRect(Math.round(s.x(entry.arrivedAt)), height - BOTTOM, 1, 5);
  drawRelease(ctx, gesture, s);
  drawLifecycle(ctx, gesture, s, height);
  ctx.fillStyle = COLOURS.text;
  ctx.fillText("0 ms", SIDE, height - 4);
  const total = `${Math.round(s.end - s.start)} ms`;
  ctx.fillText(total, width - SIDE - ctx.measureText(total).width, height - 4);
  const entry = gesture.frames[shownIndex];
  if (entry) {
    const x = Math.round(s.x(entry.arrivedAt)) + 0.5;
    line(ctx, [[x, TOP - 4], [x, height - BOTTOM + 6]], COLOURS.cursor);
    ctx.fillStyle = COLOURS.cursor;
    ctx.beginPath();
    ctx.arc(x, s.y(entry.frame.progress), 3.5, 0, 2 * Math.PI);
    ctx.fill();
  }
}

/** The release (where the primary pointer lifted, at the decided progress) and the projected rest point. */
function drawRelease(ctx, gesture, s) {
  const decision = gesture.decision;
  if (!decision) return;
  const released = gesture.events.find((each) => each.message.event === "released");
  const at = gesture.samples.find((sample) => sample.up)?.at ?? released?.at;
  if (!Number.isFinite(at) || !Number.isFinite(decision.progress)) return;
  const x = s.x(at);
  const y = s.y(decision.progress);
  if (Number.isFinite(decision.projected)) {
    const py = s.y(decision.projected);
    line(ctx, [[x, y], [x + 14, py]], COLOURS.projected, [2, 2]);
    dot(ctx, x + 14, py, COLOURS.projected);
  }
  dot(ctx, x, y, COLOURS.release);
}

/** Each callback: a line at its arrival and its label above the plot, in two staggered rows. */
function drawLifecycle(ctx, gesture, s, height) {
  let lastEnd = [-Infinity, -Infinity];
  gesture.lifecycle.forEach(({ at, entry }) => {
    const x = Math.round(s.x(at)) + 0.5;
    line(ctx, [[x, TOP - 2], [x, height - BOTTOM]], COLOURS.lifecycle, [1, 3]);
    const label = `${entry.controller}.${entry.callback}`;
    const row = lastEnd[0] <= x ? 0 : lastEnd[1] <= x ? 1 : null;
    if (row === null) return;  // no room: the line stays, the label is in the list below
    ctx.fillStyle = COLOURS.lifecycle;
    ctx.fillText(label, x + 2, 12 + row * 13);
    lastEnd[row] = x + 6 + ctx.measureText(label).width;
  });
}

/** The callbacks of a gesture as lines of text with their arrival after its start (the panel's list). */
export function lifecycleLines(gesture) {
  return gesture.lifecycle.map(({ at, entry }) => `${Math.round(at - gesture.startedAt)} ms ${lifecycleLine(entry)}`);
}

function line(ctx, points, colour, dash = []) {
  if (points.length === 0) return;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.setLineDash(dash);
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.stroke();
  ctx.restore();
}

function dot(ctx, x, y, colour) {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.arc(x, y, 4, 0, 2 * Math.PI);
  ctx.fill();
}
