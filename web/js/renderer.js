// Draws a frame's layers with CALayer semantics (docs/PROTOCOL.md, "Layers"): the bounds shape
// centred on the origin, the affine `transform` about that centre, moved to `center`; the corner
// radius in the layer's own units; opacity; an optional mask layer; higher `z` on top. 3-D
// layers are drawn through their `transform3d`, so a flip has real perspective.
// A scene frame (one that carries `scene`) draws the scene's still views first, then the
// animator's layers in the transition's container, its `from`/`to` as controller cards.
// Everything is drawn through the view matrix (orientation.js): interface points → canvas
// points, the device's turn and the window's root transform in one affine map (identity
// outside a scene).

import { screenContext } from "./canvas.js";
import { drawContent, logoPath } from "./screens.js";

/** Vertical strips a 3-D layer is cut into: each is drawn with its own affine map. */
const STRIPS = 48;

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

/** Whether a layer is drawn at all: mask layers only clip, a transparent one shows nothing. */
export function isVisible(layer) {
  return layer.content !== "mask" && layer.opacity > 0;
}

/** Whether a layer is drawn through its `transform3d` (a flip's sides). */
export function is3D(layer) {
  return Boolean(layer.transform3d && layer.corners);
}

/** The layers in drawing order, bottom first: by `z`, ties in the frame's order. */
export function drawOrder(layers) {
  return layers
    .map((layer, index) => ({ layer, index }))
    .sort((a, b) => a.layer.z - b.layer.z || a.index - b.index)
    .map((entry) => entry.layer);
}

/**
 * The affine map [a, b, c, d, e, f] from a layer's own points (origin at its bounds' top-left)
 * to interface points, `origin` its container's: translate to the centre (plus the origin),
 * apply `transform`, move the bounds' centre to the origin. The renderer draws 2-D layers
 * through it; the inspector hit-tests and outlines with it (test_inspector_layers.py).
 */
export function layerMatrix(layer, origin = [0, 0]) {
  const [a, b, c, d, tx, ty] = layer.transform;
  const [w, h] = layer.bounds;
  const ox = origin[0] + layer.center[0];
  const oy = origin[1] + layer.center[1];
  return [a, b, c, d, ox + tx - (a * w) / 2 - (c * h) / 2, oy + ty - (b * w) / 2 - (d * h) / 2];
}

/**
 * A layer's four corners as drawn (top-left, top-right, bottom-right, bottom-left) in
 * interface points: through `layerMatrix`, or projected through `transform3d` for a 3-D layer
 * (null where a corner falls behind the eye).
 */
export function layerCorners(layer, origin = [0, 0]) {
  const [w, h] = layer.bounds;
  if (is3D(layer)) {
    return [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]].map(([x, y]) => {
      const point = project(layer, x, y);
      return point ? [origin[0] + point[0], origin[1] + point[1]] : null;
    });
  }
  const [a, b, c, d, e, f] = layerMatrix(layer, origin);
  return [[0, 0], [w, 0], [w, h], [0, h]].map(([x, y]) => [a * x + c * y + e, b * x + d * y + f]);
}

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    const { ctx, lowLatency } = screenContext(canvas);
    this.ctx = ctx;
    this.lowLatency = lowLatency;  // what is drawn may reach the screen before the next composited frame
    this.scale = 1;  // device pixels per container point
    this.offscreen = new Map();  // layer id → canvas, for 3-D layers
    this.origin = [0, 0];  // the animator's container in the screen (a scene's transition)
    this.covered = null;  // the transition's covered controller (docs/SCENE.md, "The covered side")
    this.view = [1, 0, 0, 1, 0, 0];  // interface points → canvas points
  }

  /** The map from interface points to canvas points the next draw uses. */
  setView(matrix) {
    this.view = [...matrix];
  }

  /** Canvas device pixels per point, then the view: the origin of every drawing. */
  setBase(ctx = this.ctx) {
    const [a, b, c, d, e, f] = this.view;
    const s = this.scale;
    ctx.setTransform(s * a, s * b, s * c, s * d, s * e, s * f);
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
    this.origin = [0, 0];
    this.covered = null;
    if (!frame) return;
    const transition = frame.scene ? this.drawScene(frame.scene, scene) : null;
    const movingViews = transition ? this.movingViews(frame.scene, transition) : [];
    if (transition && (transition.action === "push" || transition.action === "pop")) {
      // A navigation controller's content slides under its bar, never over it: clip to the
      // container (below the bar), which the still bar was drawn around.
      const [x, y, w, h] = transition.container;
      this.setBase();
      ctx.save();
      ctx.beginPath();
      ctx.rect(x, y, w, h);
      ctx.clip();
      this.drawLayers(frame, scene);
      this.drawMovingViews(movingViews, scene);
      ctx.restore();
      this.drawOverlay(frame, scene);
      return;
    }
    this.drawLayers(frame, scene);
    this.drawMovingViews(movingViews, scene);
    this.drawOverlay(frame, scene);
  }

  /** The moving controller's named views (role `view`): placed on its animator layer by the server. */
  movingViews(sceneFrame, transition) {
    const moving = transition.action === "present" || transition.action === "push" ? transition.to : transition.from;
    return (sceneFrame.layers ?? []).filter((layer) => layer.role === "view" && layer.controller === moving);
  }

  /** Drawn above the animator's layers, which carry their controller's card. */
  drawMovingViews(layers, scene) {
    if (!scene.cards || layers.length === 0) return;
    this.setBase();
    for (const layer of layers) scene.cards.drawStill(this.ctx, layer);
  }

  /** What goes over everything in device points: a sheet's detent lines and grabber (sheetDetents.js). */
  drawOverlay(frame, scene) {
    if (!frame.scene || !scene.overlay) return;
    this.setBase();
    scene.overlay.draw(this.ctx, frame.scene);
  }

  /**
   * The scene's still views (device points, bottom to top), and where the animator's layers go:
   * their container's origin. Returns the transition, or null when nothing is armed or running.
   */
  drawScene(sceneFrame, scene) {
    const ctx = this.ctx;
    this.setBase();
    const transition = sceneFrame.transition ?? null;
    if (scene.cards) {
      const moving = this.movingViews(sceneFrame, transition ?? {});
      for (const layer of sceneFrame.layers ?? []) if (!moving.includes(layer)) scene.cards.drawStill(ctx, layer);
    }
    if (transition?.container) this.origin = [transition.container[0], transition.container[1]];
    if (transition) this.covered = ["present", "push"].includes(transition.action) ? transition.from : transition.to;
    return transition;
  }

  drawLayers(frame, scene) {
    const ctx = this.ctx;
    const byId = new Map(frame.layers.map((layer) => [layer.id, layer]));
    for (let layer of drawOrder(frame.layers)) {
      if (!isVisible(layer)) continue;
      if (layer.controller && scene.cards) layer = { ...layer, cornerRadius: scene.cards.cornerRadius(layer) };
      ctx.save();
      ctx.globalAlpha = Math.min(layer.opacity, 1);
      const mask = layer.mask ? byId.get(layer.mask) : null;
      if (mask) {
        this.applyLayerTransform(mask);
        ctx.clip(this.shapePath(mask, scene));
      }
      if (is3D(layer)) this.draw3D(layer, scene);
      else this.draw2D(layer, scene);
      ctx.restore();
    }
  }

  /** Container points → device pixels, then the layer's centre and transform; origin at its top-left. */
  applyLayerTransform(layer) {
    this.setBase();
    this.ctx.transform(...layerMatrix(layer, this.origin));
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
    this.drawLayerContent(this.ctx, layer, w, h, scene);
  }

  /** A scene's moving controller is drawn as its card; everything else as the demo screens. */
  drawLayerContent(ctx, layer, w, h, scene) {
    if (layer.controller && scene.cards) scene.cards.drawController(ctx, layer.controller, w, h, this.atTop(layer));
    else drawContent(ctx, layer.content, w, h, scene);
  }

  /**
   * Whether a controller's card starts at the screen's top (its navigation bar then covers the
   * status bar too): a moving one's container does; the covered one is drawn in its own frame,
   * which no kind moves vertically (a sheet's card under a full-screen present starts at 57).
   */
  atTop(layer) {
    if (layer.controller !== this.covered) return this.origin[1] === 0;
    return Math.abs(this.origin[1] + layer.center[1] - layer.bounds[1] / 2) < 0.5;
  }

  /**
   * A 2-D canvas has no projective maps, so the layer is drawn once into an offscreen canvas and
   * then cut into narrow vertical strips, each placed with an affine map fitted to the
   * projection at the strip's centre.
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
    this.drawLayerContent(off, layer, w, h, scene);

    const ctx = this.ctx;
    for (let i = 0; i < STRIPS; i += 1) {
      const x0 = -w / 2 + (w * i) / STRIPS;
      const x1 = -w / 2 + (w * (i + 1)) / STRIPS;
      ctx.save();
      this.setBase();
      ctx.translate(this.origin[0], this.origin[1]);
      // The strip's affine stand-in for the projection, fitted at its centre: a vertical line
      // maps exactly (the depth of a rotation about the vertical axis varies with x only), so
      // the error is a quarter of the height change across the strip, split evenly at its edges.
      const sw = x1 - x0;
      const xm = (x0 + x1) / 2;
      const centre = project(layer, xm, 0);
      const centreLeft = project(layer, x0, 0);
      const centreRight = project(layer, x1, 0);
      const top = project(layer, xm, -h / 2);
      const bottom = project(layer, xm, h / 2);
      if (!centre || !centreLeft || !centreRight || !top || !bottom) {
        ctx.restore();
        continue;
      }
      const u = [(centreRight[0] - centreLeft[0]) / sw, (centreRight[1] - centreLeft[1]) / sw];
      const v = [(bottom[0] - top[0]) / h, (bottom[1] - top[1]) / h];
      ctx.transform(
        u[0], u[1], v[0], v[1],
        centre[0] - (sw / 2) * u[0] - (h / 2) * v[0], centre[1] - (sw / 2) * u[1] - (h / 2) * v[1],
      );
      // Each strip reaches half a point into its neighbours (within the surface): opaque
      // overlaps leave no seam, where clipping each strip would leave anti-aliased hairlines.
      const left = Math.max(x0 + w / 2 - 0.5, 0);
      const right = Math.min(x1 + w / 2 + 0.5, w);
      ctx.drawImage(surface, left * q, 0, (right - left) * q, h * q, left - (x0 + w / 2), 0, right - left, h);
      ctx.restore();
    }
  }
}
