// A layer's numbers as the inspector lists them, [name, text] rows: what it is (id, role,
// controller, shape), where (center, bounds, frame, in container points as on the wire), its
// transform decomposed (translation, scale, rotation; a 3-D layer's projected corners),
// opacity, corner radius, z and mask. Numbers to 0.01, the wire's own values otherwise unchanged.

import { layerCorners } from "./renderer.js";

export const number = (value) => (Number.isFinite(value) ? String(Math.round(value * 100) / 100) : "—");
const pair = ([x, y]) => `${number(x)}, ${number(y)}`;

/**
 * An affine [a, b, c, d, tx, ty] as translation, scale and rotation (degrees), the order
 * CGAffineTransform composes them: rotation from the first column, x scale its length, y scale
 * the determinant over it (negative: mirrored), skew what is left.
 */
export function decompose([a, b, c, d, tx, ty]) {
  const scaleX = Math.hypot(a, b);
  const rotation = (Math.atan2(b, a) * 180) / Math.PI;
  const scaleY = scaleX > 0 ? (a * d - b * c) / scaleX : Math.hypot(c, d);
  const skew = scaleX > 0 ? (a * c + b * d) / (scaleX * scaleX) : 0;
  return { translation: [tx, ty], scale: [scaleX, scaleY], rotation, skew };
}

/** The axis-aligned box [x, y, width, height] around points (UIView's `frame` of a transformed view). */
export function boundingBox(points) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return [x, y, Math.max(...xs) - x, Math.max(...ys) - y];
}

/** The rows for one entry of inspector.js `frameLayers`. */
export function layerFields(entry) {
  const { layer } = entry;
  if (entry.kind === "still") {
    const rows = [["controller", layer.controller ?? "—"], ["role", layer.role]];
    if (layer.title !== undefined) rows.push(["title", layer.title]);
    if (layer.view !== undefined) rows.push(["view", layer.view]);
    rows.push(["frame", layer.frame.map(number).join(", ")], ["scale", number(layer.scale ?? 1)],
      ["opacity", number(layer.opacity ?? 1)], ["corner radius", number(layer.cornerRadius ?? 0)],
      ["drawn", "still view (device points), under the transition's layers"]);
    return rows;
  }
  const parts = decompose(layer.transform);
  const corners = layerCorners(layer);  // container points, as `center` is
  const rows = [
    ["id", layer.id], ["role", layer.content], ["controller", layer.controller ?? "—"], ["shape", layer.shape],
    ["center", pair(layer.center)], ["bounds", `${number(layer.bounds[0])} × ${number(layer.bounds[1])}`],
    ["frame", corners.every(Boolean) ? boundingBox(corners).map(number).join(", ") : "behind the eye"],
    ["translation", pair(parts.translation)], ["scale", pair(parts.scale)], ["rotation", `${number(parts.rotation)}°`],
  ];
  if (Math.abs(parts.skew) > 1e-6) rows.push(["skew", number(parts.skew)]);
  if (layer.corners) rows.push(["corners (3-D)", layer.corners.map(pair).join(" · ")]);
  rows.push(["opacity", number(layer.opacity)], ["corner radius", number(layer.cornerRadius)], ["z", number(layer.z)],
    ["mask", layer.mask ?? "—"]);
  if (entry.origin && (entry.origin[0] || entry.origin[1])) rows.push(["container origin", pair(entry.origin)]);
  if (!entry.drawn) rows.push(["drawn", "no (a mask, transparent, or facing away)"]);
  return rows;
}
