// The tracking table (docs/PROTOCOL.md "`prediction`"): the server's tracked picture sampled
// along the tracked fraction, read once per configuration, and its interpolation rule — the
// same rule the server checks the samples against (Sources/SandboxSession/Prediction/
// TrackingTable.swift): between two samples that list the same layers (ids in order, content,
// shape, z, mask, 2-D or 3-D), every number linearly (a 3-D layer's corners projected from its
// transform3d); otherwise the nearer sample (the earlier at the midpoint).
// test_prediction_page.py holds the page's picture within the bound.

import { assemble } from "./frameAssembler.js";
import { project } from "./renderer.js";

const MAX_SAMPLES = 4096;
const NUMBERS = ["center", "bounds", "transform", "cornerRadius", "opacity", "transform3d"];
const SAME = ["content", "shape", "z", "mask"];

const finite = (value) => typeof value === "number" && Number.isFinite(value);

/**
 * The samples of a `prediction` message's `table`, whole (each sample's delta applied to the
 * one before it), or null when the table is missing or malformed: fractions strictly
 * increasing from 0 to 1, at most 4,096 samples, every layer list assembling.
 */
export function readTable(table) {
  if (!table || typeof table !== "object" || !Array.isArray(table.samples)) return null;
  const { samples } = table;
  if (samples.length < 2 || samples.length > MAX_SAMPLES) return null;
  const out = [];
  let previous = { n: 0, layers: [] };
  for (const sample of samples) {
    if (!sample || !finite(sample.fraction) || !finite(sample.progress) || !Array.isArray(sample.layers)) return null;
    const last = out[out.length - 1];
    if (last ? !(sample.fraction > last.fraction) : sample.fraction !== 0) return null;
    const frame = assemble(previous, { base: 0, layers: sample.layers });
    if (typeof frame === "string" || !frame.layers.every((layer) => layer && typeof layer.id === "string")) return null;
    out.push({ fraction: sample.fraction, progress: sample.progress, layers: frame.layers.map(withCorners) });
    previous = { n: 0, layers: frame.layers };
  }
  if (out[out.length - 1].fraction !== 1) return null;
  return out;
}

function sameStructure(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    if (a[i].id !== b[i].id || SAME.some((key) => a[i][key] !== b[i][key])) return false;
    if (Boolean(a[i].transform3d) !== Boolean(b[i].transform3d)) return false;
  }
  return true;
}

function mixNumbers(a, b, alpha) {
  if (finite(a) && finite(b)) return a + (b - a) * alpha;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.map((x, i) => mixNumbers(x, b[i], alpha));
  return a;
}

/** The rule's {fraction, progress, layers} at `fraction` (clamped to 0…1) of `samples`. */
export function sampleAt(samples, fraction) {
  const p = Math.min(Math.max(finite(fraction) ? fraction : 0, 0), 1);
  let low = 0;
  let high = samples.length - 1;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (samples[mid].fraction <= p) low = mid;
    else high = mid;
  }
  const a = samples[low];
  const b = samples[high];
  const width = b.fraction - a.fraction;
  const alpha = width > 0 ? Math.min(Math.max((p - a.fraction) / width, 0), 1) : 0;
  if (!sameStructure(a.layers, b.layers)) return alpha <= 0.5 ? a : b;
  const layers = a.layers.map((layer, i) => {
    const out = { ...layer };
    for (const key of NUMBERS) if (key in layer) out[key] = mixNumbers(layer[key], b.layers[i][key], alpha);
    return withCorners(out);
  });
  return { fraction: p, progress: a.progress + (b.progress - a.progress) * alpha, layers };
}

/**
 * A 3-D layer with its projected `corners` (the table leaves them out: they follow from its
 * `transform3d`), or without them when a corner is behind the eye; other layers as they are.
 */
function withCorners(layer) {
  if (!Array.isArray(layer.transform3d)) return layer;
  const { corners: _, ...rest } = layer;
  const projected = corners(rest);
  return projected ? { ...rest, corners: projected } : rest;
}

/** A layer's four corners in container points (through its perspective when 3-D); null behind the eye. */
export function corners(layer) {
  const [w, h] = layer.bounds ?? [0, 0];
  const local = [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]];
  if (Array.isArray(layer.transform3d)) {
    const out = local.map(([x, y]) => project(layer, x, y));
    return out.every(Boolean) ? out : null;
  }
  const [a, b, c, d, tx, ty] = layer.transform ?? [1, 0, 0, 1, 0, 0];
  const [cx, cy] = layer.center ?? [0, 0];
  return local.map(([x, y]) => [a * x + c * y + tx + cx, b * x + d * y + ty + cy]);
}

/**
 * How far picture `a` is from picture `b`, per layer, in points: the largest displacement of
 * any corner or of the corner radius, over the layers (matched by id; a layer only one has,
 * or a corner behind the eye in only one, is Infinity). Opacity is not a length: its largest
 * difference is returned beside. The server's `PictureDeviation` is the same measure.
 */
export function pictureError(a, b) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return { points: Infinity, opacity: Infinity };
  const byId = new Map(b.map((layer) => [layer.id, layer]));
  let points = 0;
  let opacity = 0;
  for (const layer of a) {
    const other = byId.get(layer.id);
    if (!other) return { points: Infinity, opacity: Infinity };
    const p = corners(layer);
    const q = corners(other);
    if (!p !== !q) return { points: Infinity, opacity: Infinity };
    if (p) for (let i = 0; i < 4; i += 1) points = Math.max(points, Math.hypot(p[i][0] - q[i][0], p[i][1] - q[i][1]));
    points = Math.max(points, Math.abs((layer.cornerRadius ?? 0) - (other.cornerRadius ?? 0)));
    opacity = Math.max(opacity, Math.abs((layer.opacity ?? 1) - (other.opacity ?? 1)));
  }
  return { points: Number.isNaN(points) ? Infinity : points, opacity: Number.isNaN(opacity) ? Infinity : opacity };
}
