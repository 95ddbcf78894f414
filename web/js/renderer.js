// Draws a frame's layers with CALayer semantics (docs/PROTOCOL.md, "Layers"): the bounds shape
// centred on the origin, the affine `transform` about that centre, moved to `center`; the corner
// radius in the layer's own units; opacity; an optional mask layer; higher `z` on top. 3-D
// layers are drawn through their `transform3d`, so a flip has real perspective.

import { drawContent, logoPath } from "./screens.js";

/** Vertical strips a 3-D layer is cut into: each is drawn with its own affine map. */
const STRIPS = 32;

/** Projects a point of a layer (origin at its centre) through its CATransform3D (row vectors). */
export function project(layer, x, y) {
  const m = layer.transform3d;
  const X = x * m[0] + y * m[4] + m[12];
  const Y = x * m[1] + y * m[5] + m[13];
  const W = x * m[3] + y * m[7] + m[15];
  return W > 1e-6 ? [layer.center[0] + X / W, layer.center[1] + Y / W] : null;
}

/** Signed area of the projected corners: positive when the layer faces the viewer. */
export function facingArea(corners) {
  let sum = 0;
  for (let i = 0; i < corners.length; i += 1) {
    const [x0, y0] = corners[i];
    const [x1, y1] = corners[(i + 1) % corners.length];
    sum += x0 * y1 - x1 * y0;
  }
  return sum / 2;
}

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.scale = 1;  // device pixels per container point
    this.offscreen = new Map();  // layer id → canvas, for 3-D layers
  }

  /** Sizes the backing store for `devicePixelRatio`; `cssScale` is CSS px per point. */
  resize(container, cssScale, dpr) {
    const [w, h] = container;
    this.canvas.style.width = `${Math.round(w * cssScale)}px`;
    this.canvas.style.height = `${Math.round(h * cssScale)}px`;
    this.canvas.width = Math.round(w * cssScale * dpr);
    this.canvas.height = Math.round(h * cssScale * dpr);
    this.scale = (w * cssScale * dpr) / w;
  }

  draw(frame, scene) {
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    if (!frame) return;
    const byId = new Map(frame.layers.map((layer) => [layer.id, layer]));
    const ordered = frame.layers
      .map((layer, index) => ({ layer, index }))
      .sort((a, b) => a.layer.z - b.layer.z || a.index - b.index);
    for (const { layer } of ordered) {
      if (layer.content === "mask" || !(layer.opacity > 0)) continue;
      ctx.save();
      ctx.globalAlpha = Math.min(layer.opacity, 1);
      const mask = layer.mask ? byId.get(layer.mask) : null;
      if (mask) {
        this.applyLayerTransform(mask);
        ctx.clip(this.shapePath(mask, scene));
      }
      if (layer.transform3d && layer.corners) this.draw3D(layer, scene);
      else this.draw2D(layer, scene);
      ctx.restore();
    }
  }

  /** Container points → device pixels, then the layer's centre and transform; origin at its top-left. */
  applyLayerTransform(layer) {
    const [a, b, c, d, tx, ty] = layer.transform;
    const [w, h] = layer.bounds;
    this.ctx.setTransform(this.scale, 0, 0, this.scale, 0, 0);
    this.ctx.translate(layer.center[0], layer.center[1]);
    this.ctx.transform(a, b, c, d, tx, ty);
    this.ctx.translate(-w / 2, -h / 2);
  }

  /** The layer's shape in its own coordinates: its bounds with the corner radius, or the logo. */
  shapePath(layer, scene) {
    const [w, h] = layer.bounds;
    if (layer.shape === "logo" && scene.logo) return logoPath(scene.logo, w, h);
    const path = new Path2D();
    const r = Math.max(0, Math.min(layer.cornerRadius, w / 2, h / 2));
    path.roundRect(0, 0, w, h, r);
    return path;
  }

  draw2D(layer, scene) {
    this.applyLayerTransform(layer);
    const [w, h] = layer.bounds;
    if (layer.cornerRadius > 0) this.ctx.clip(this.shapePath(layer, scene));
    drawContent(this.ctx, layer.content, w, h, scene);
  }

  /**
   * A 2-D canvas has no projective maps, so the layer is drawn once into an offscreen canvas and
   * then cut into vertical strips, each placed with the affine map of its projected corners.
   * A rotation about the vertical axis keeps verticals vertical, so the strips meet cleanly.
   * Back faces are culled (`isDoubleSided = false`), as a flip's two sides need.
   */
  draw3D(layer, scene) {
    if (facingArea(layer.corners) <= 0) return;
    const [w, h] = layer.bounds;
    const q = Math.min(this.scale, 2);
    let surface = this.offscreen.get(layer.id);
    if (!surface) {
      surface = document.createElement("canvas");
      this.offscreen.set(layer.id, surface);
    }
    surface.width = Math.max(1, Math.round(w * q));
    surface.height = Math.max(1, Math.round(h * q));
    const off = surface.getContext("2d");
    off.setTransform(q, 0, 0, q, 0, 0);
    if (layer.cornerRadius > 0) off.clip(this.shapePath(layer, scene));
    drawContent(off, layer.content, w, h, scene);

    const ctx = this.ctx;
    for (let i = 0; i < STRIPS; i += 1) {
      const x0 = -w / 2 + (w * i) / STRIPS;
      const x1 = -w / 2 + (w * (i + 1)) / STRIPS;
      const topLeft = project(layer, x0, -h / 2);
      const topRight = project(layer, x1, -h / 2);
      const bottomLeft = project(layer, x0, h / 2);
      const bottomRight = project(layer, x1, h / 2);
      if (!topLeft || !topRight || !bottomLeft || !bottomRight) continue;
      ctx.save();
      ctx.setTransform(this.scale, 0, 0, this.scale, 0, 0);
      // Clip to the strip's exact quad (widened by a hair so neighbours leave no seam).
      const grow = 0.35;
      ctx.beginPath();
      ctx.moveTo(topLeft[0] - grow, topLeft[1]);
      ctx.lineTo(topRight[0] + grow, topRight[1]);
      ctx.lineTo(bottomRight[0] + grow, bottomRight[1]);
      ctx.lineTo(bottomLeft[0] - grow, bottomLeft[1]);
      ctx.closePath();
      ctx.clip();
      // Source strip (sx…sx+sw, 0…h in points) → the parallelogram at topLeft.
      const sw = x1 - x0;
      ctx.transform(
        (topRight[0] - topLeft[0]) / sw, (topRight[1] - topLeft[1]) / sw,
        (bottomLeft[0] - topLeft[0]) / h, (bottomLeft[1] - topLeft[1]) / h,
        topLeft[0], topLeft[1],
      );
      // Take half a point more on each side (within the surface) so the widened clip is filled.
      const left = Math.max(x0 + w / 2 - 0.5, 0);
      const right = Math.min(x1 + w / 2 + 0.5, w);
      ctx.drawImage(surface, left * q, 0, (right - left) * q, h * q, left - (x0 + w / 2), 0, right - left, h);
      ctx.restore();
    }
  }
}
