// The layer inspector: the layers of the frame on the screen (live or a kept one), in a list
// and, with "pick on the screen", under the pointer (hover outlines, a click picks; the drag
// does not reach the server then). The picked layer is outlined on an overlay canvas and its
// numbers shown; "exploded" adds explodedView.js's stack of the layers apart. Geometry is the
// renderer's own (renderer.js layerCorners / drawOrder), so the outline and the hit-test are
// where the layer is drawn. test_inspector_layers.py holds it.

import { drawExploded } from "./explodedView.js";
import { facingArea, drawOrder, is3D, isVisible, layerCorners } from "./renderer.js";
import { layerFields } from "./layerFields.js";

/** The layers of a frame, bottom first: the scene's still views, then the animator's (in its container). */
export function frameLayers(frame) {
  if (!frame) return [];
  const stills = (frame.scene?.layers ?? []).map((layer, index) => {
    const [x, y, w, h] = layer.frame;
    return {
      key: `still:${index}:${layer.controller ?? layer.role}`, kind: "still", layer,
      corners: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
      drawn: layer.opacity === undefined || layer.opacity > 0,
    };
  });
  const container = frame.scene?.transition?.container;
  const origin = container ? [container[0], container[1]] : [0, 0];
  const moving = drawOrder(frame.layers ?? []).map((layer) => {
    const corners = layerCorners(layer, origin);
    const whole = corners.every(Boolean);
    const drawn = isVisible(layer) && whole && (!is3D(layer) || facingArea(layer.corners) > 0);
    return { key: `layer:${layer.id}`, kind: "layer", layer, corners: whole ? corners : null, origin, drawn };
  });
  return [...stills, ...moving];
}

/** Whether point p lies inside the convex quad `corners` (either winding). */
function inside(corners, [px, py]) {
  let sign = 0;
  for (let i = 0; i < 4; i += 1) {
    const [x0, y0] = corners[i];
    const [x1, y1] = corners[(i + 1) % 4];
    const cross = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0);
    if (cross !== 0) {
      if (sign !== 0 && Math.sign(cross) !== sign) return false;
      sign = Math.sign(cross);
    }
  }
  return true;
}

/** The topmost drawn layer under interface point `point`, or null. */
export function layerAt(layers, point) {
  for (let i = layers.length - 1; i >= 0; i -= 1) {
    const each = layers[i];
    if (each.drawn && each.corners && inside(each.corners, point)) return each;
  }
  return null;
}

export class LayerInspector {
  /** @param page {{state, screen, renderer, display}} */
  constructor(page, document) {
    this.page = page;
    const $ = (id) => document.getElementById(id);
    this.list = $("inspector-layers");
    this.details = $("inspector-details");
    this.pickBox = $("inspector-pick");
    this.explodedBox = $("inspector-exploded");
    this.explodedCanvas = $("inspector-exploded-view");
    this.explodedKey = "";
    this.picked = null;   // the key of the layer picked, followed from frame to frame
    this.hovered = null;  // the key under the pointer in pick mode
    this.layers = [];     // frameLayers of the frame shown
    this.frame = undefined;
    this.listed = "";
    this.outlined = "";
    this.overlay = document.createElement("canvas");
    this.overlay.className = "inspector-overlay";
    this.overlay.setAttribute("aria-hidden", "true");
    page.screen.after(this.overlay);
    this.list.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-key]");
      if (button) this.pick(button.dataset.key);
    });
    this.explodedBox.addEventListener("change", () => {
      this.explodedCanvas.hidden = !this.explodedBox.checked;
    });
    this.pickBox.addEventListener("change", () => {
      this.page.screen.classList.toggle("picking", this.pickBox.checked);
      this.hovered = null;
    });
    // Registered as capturing listeners on the canvas itself: at the target they run before
    // input.js's, so a pick stops the event before it becomes a pointer message.
    const screen = page.screen;
    screen.addEventListener("pointerdown", (event) => this.pointer(event, true), { capture: true });
    screen.addEventListener("pointermove", (event) => this.pointer(event, false), { capture: true });
    screen.addEventListener("pointerleave", () => {
      this.hovered = null;
    });
    requestAnimationFrame(() => this.loop());
  }

  /** The layer entry picked in the frame shown, or null. */
  get entry() {
    return this.layers.find((each) => each.key === this.picked) ?? null;
  }

  /** Picks a layer of the frame shown by key ("layer:to", "still:0:root"); unknown keys are refused. */
  pick(key) {
    if (key !== null && !this.layers.some((each) => each.key === key)) {
      throw new RangeError(`no layer ${key} in the frame shown`);
    }
    this.picked = key;
    this.showList();
    this.showDetails();
  }

  pointer(event, down) {
    if (!this.pickBox.checked) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const point = this.page.display.toContainer(event.clientX, event.clientY);
    const hit = layerAt(this.layers, point);
    if (down) this.pick(hit?.key ?? null);
    else this.hovered = hit?.key ?? null;
  }

  loop() {
    requestAnimationFrame(() => this.loop());
    const { state } = this.page;
    const frame = state.shown ?? state.frame;
    if (frame !== this.frame) {
      this.frame = frame;
      this.layers = frameLayers(frame);
      this.showList();
      this.showDetails();
    }
    this.outline();
    this.explode();
  }

  /** The exploded view, when shown, of the frame shown with the picked layer filled. */
  explode() {
    if (this.explodedCanvas.hidden) return;
    const size = this.page.display.screenSize();
    const key = `${this.frame?.n}:${this.picked}:${size.join()}:${this.explodedCanvas.clientWidth}`;
    if (key === this.explodedKey && this.explodedFrame === this.frame) return;
    this.explodedKey = key;
    this.explodedFrame = this.frame;
    drawExploded(this.explodedCanvas, this.layers, size, this.picked, window.devicePixelRatio || 1);
  }

  showList() {
    const keys = this.layers.map((each) => `${each.key}${each.drawn ? "" : "-"}`).join(",");
    if (keys !== this.listed) {
      this.listed = keys;
      const document = this.list.ownerDocument;
      this.list.replaceChildren(...[...this.layers].reverse().map((each) => {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.key = each.key;
        const { layer } = each;
        button.textContent = each.kind === "still"
          ? `${layer.controller ?? ""} (${layer.role}${layer.view ? ` ${layer.view}` : ""})`
          : `${layer.id}${layer.controller ? ` (${layer.controller})` : ""}${each.drawn ? "" : " · not drawn"}`;
        item.append(button);
        return item;
      }));
    }
    for (const button of this.list.querySelectorAll("button[data-key]")) {
      button.setAttribute("aria-pressed", String(button.dataset.key === this.picked));
    }
  }

  showDetails() {
    const entry = this.entry;
    if (!entry && this.picked === null && this.details.dataset.empty === "true") return;
    this.details.dataset.empty = String(!entry && this.picked === null);
    const document = this.details.ownerDocument;
    const rows = entry ? layerFields(entry) : [["layer", this.picked ? "not in the frame shown" : "none picked"]];
    this.details.replaceChildren(...rows.flatMap(([name, value]) => {
      const term = document.createElement("dt");
      term.textContent = name;
      const detail = document.createElement("dd");
      detail.textContent = value;
      detail.dataset.field = name;
      return [term, detail];
    }));
  }

  /** The picked layer (solid) and the hovered one (dashed) on the overlay, drawn as the renderer drew. */
  outline() {
    const { screen, renderer, state } = this.page;
    if (this.picked === null && this.hovered === null && this.outlined === "none") return;  // nothing to draw, clear
    const key = `${this.picked}:${this.hovered}:${screen.width}x${screen.height}:${state.view?.matrix?.join()}`
      + `:${this.frame?.n}`;
    if (key === this.outlined && this.drawnFrame === this.frame) return;
    this.outlined = key;
    this.drawnFrame = this.frame;
    const overlay = this.overlay;
    if (overlay.width !== screen.width) overlay.width = screen.width;
    if (overlay.height !== screen.height) overlay.height = screen.height;
    overlay.style.width = screen.style.width;
    overlay.style.height = screen.style.height;
    const ctx = overlay.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    if (this.picked === null && this.hovered === null) this.outlined = "none";
    renderer.setBase(ctx);
    const width = 2 / renderer.scale * (window.devicePixelRatio || 1);
    for (const [entryKey, colour, dash] of [[this.hovered, "#ffd54f", [4, 3]], [this.picked, "#00e5ff", []]]) {
      const entry = this.layers.find((each) => each.key === entryKey);
      if (!entry?.corners) continue;
      ctx.beginPath();
      entry.corners.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
      ctx.closePath();
      ctx.setLineDash(dash.map((each) => each * width));
      ctx.lineWidth = width;
      ctx.strokeStyle = colour;
      ctx.stroke();
    }
  }
}
