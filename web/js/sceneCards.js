// What a scene's views look like: each controller's view is a card in a colour of its own (the
// same id always gets the same colour, so a controller is recognisable wherever it moves), with
// its title; a navigation controller is its bar (titled with the top child's title) over that
// child's card; a dimming view is translucent black. The server says where each view is
// (docs/PROTOCOL.md, frames of a scene session); this module only says what is on it.

/** The status bar above a navigation bar at the screen's top (docs/ENGINE.md, the geometry). */
const SAFE_AREA_TOP = { phone: 47, tablet: 24 };
const NAVIGATION_BAR = 44;
/** A phone in landscape has no status bar and a compact 32 pt bar (docs/ENGINE.md, landscape geometry). */
const COMPACT_NAVIGATION_BAR = 32;
/** A sheet's corners (docs/ENGINE.md): the animator's layer of a moving sheet has none. */
const SHEET_RADIUS = 10;

/** FNV-1a over the id's UTF-16 code units, then murmur3's finaliser so ids that differ in
 * their last character ("vc2", "vc3") land far apart: a stable hash, no library needed. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

function hslToRgb(h, s, l) {
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
}

/**
 * A controller's card colour, [r, g, b]: the hue from the id's hash, the lightness varied a
 * little by it too (two ids of close hue still differ); dark enough for white titles.
 */
export function controllerColour(id) {
  const h = hash(id);
  return hslToRgb(h % 360, 0.6, 0.34 + ((h >>> 12) % 4) * 0.04);
}

const css = ([r, g, b]) => `rgb(${r}, ${g}, ${b})`;

/** A plain controller's view, w × h at the origin: its colour and its title. */
function card(ctx, id, title, w, h) {
  ctx.fillStyle = css(controllerColour(id));
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = "rgba(255, 255, 255, 0.92)";
  ctx.textBaseline = "alphabetic";
  ctx.textAlign = "left";
  ctx.font = "700 26px system-ui, sans-serif";
  ctx.fillText(title, 20, 48, w - 40);
  if (title !== id) {
    ctx.font = "14px ui-monospace, monospace";
    ctx.fillStyle = "rgba(255, 255, 255, 0.7)";
    ctx.fillText(id, 20, 70, w - 40);
  }
}

/** A navigation bar, w × h: the navigation controller's colour, the title centred in its 44 pt. */
function bar(ctx, id, title, w, h) {
  ctx.fillStyle = css(controllerColour(id));
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = "rgba(0, 0, 0, 0.25)";
  ctx.fillRect(0, h - 1, w, 1);  // the bar's hairline
  ctx.fillStyle = "#fff";
  ctx.font = "600 17px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  // The title is centred in the bar's 44 pt below the status bar; a landscape phone's bar is 32 pt, with none.
  ctx.fillText(title, w / 2, Math.max(h - NAVIGATION_BAR / 2, h / 2), w - 32);
  ctx.textAlign = "left";
  ctx.textBaseline = "alphabetic";
}

/**
 * A controller's named view (role `view`, docs/PROTOCOL.md): a lighter rounded rect over its
 * controller's card, its id as a faint label, scaled with the card.
 */
function namedView(ctx, layer, x, y, w, h) {
  const r = Math.max(0, Math.min(layer.cornerRadius, w / 2, h / 2));
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
  ctx.fillStyle = "rgba(255, 255, 255, 0.28)";
  ctx.fill();
  ctx.strokeStyle = "rgba(255, 255, 255, 0.55)";
  ctx.lineWidth = 1;
  ctx.stroke();
  const s = layer.scale > 0 ? layer.scale : 1;
  ctx.fillStyle = "rgba(255, 255, 255, 0.6)";
  ctx.font = `${Math.max(6, 12 * s)}px ui-monospace, monospace`;
  ctx.textBaseline = "top";
  ctx.textAlign = "left";
  ctx.fillText(layer.view ?? "", x + 6 * s, y + 6 * s, Math.max(w - 12 * s, 1));
  ctx.textBaseline = "alphabetic";
}

function clipRounded(ctx, w, h, radii) {
  ctx.beginPath();
  ctx.roundRect(0, 0, w, h, radii);
  ctx.clip();
}

export class SceneCards {
  /** @param model {import("./scene.js").SceneModel} */
  constructor(model) {
    this.model = model;
  }

  get device() {
    return this.model.state?.device ?? "phone";
  }

  /** A phone whose interface is landscape: compact bar, no status bar. */
  get compact() {
    return this.device === "phone" && /^landscape/.test(this.model.orientation?.interface ?? "");
  }

  /**
   * One still view of `scene.layers`, in device points. `scale` (a presenter pushed back under
   * a phone sheet) is already in `frame`, so the content is drawn at its own size and scaled:
   * titles shrink with their card.
   */
  drawStill(ctx, layer) {
    const [x, y, w, h] = layer.frame;
    // A sheet's grabber goes over its card: sheetDetents.js draws it after the animator's layers.
    if (!(w > 0 && h > 0) || !(layer.opacity > 0) || layer.role === "grabber") return;
    ctx.save();
    ctx.globalAlpha = Math.min(layer.opacity, 1);
    if (layer.role === "view") {
      namedView(ctx, layer, x, y, w, h);
      ctx.restore();
      return;
    }
    if (layer.role === "dimming") {
      ctx.fillStyle = "#000";
      ctx.fillRect(x, y, w, h);
      ctx.restore();
      return;
    }
    const s = layer.scale > 0 ? layer.scale : 1;
    ctx.translate(x, y);
    ctx.scale(s, s);
    const [cw, ch] = [w / s, h / s];
    const r = Math.max(0, Math.min(layer.cornerRadius / s, cw / 2, ch / 2));
    // A navigation controller is two views, bar over child, that round as one: the bar its top
    // corners, the child its bottom ones (rounding all four would notch the seam).
    const radii = layer.role === "navigationBar" ? [r, r, 0, 0] : layer.role === "child" ? [0, 0, r, r] : r;
    clipRounded(ctx, cw, ch, radii);
    if (layer.role === "navigationBar") bar(ctx, layer.controller, layer.title ?? "", cw, ch);
    else card(ctx, layer.controller, this.model.title(layer.controller), cw, ch);
    ctx.restore();
  }

  /** The corner radius a moving controller's layer is drawn with: a sheet keeps its card's. */
  cornerRadius(layer) {
    return this.model.isSheet(layer.controller) ? Math.max(layer.cornerRadius, SHEET_RADIUS) : layer.cornerRadius;
  }

  /**
   * A moving controller's view (the animator's `from`/`to`), w × h at the origin: a plain
   * card, or a navigation controller's bar over its top child. `atTop`: the layer's container
   * starts at the screen's top, so the bar also covers the status bar.
   */
  drawController(ctx, id, w, h, atTop) {
    const stack = this.model.stack(id);
    if (!stack || stack.length === 0) {
      card(ctx, id, this.model.title(id), w, h);
      return;
    }
    const top = stack[stack.length - 1];
    const barHeight = this.compact
      ? Math.min(COMPACT_NAVIGATION_BAR, h)
      : Math.min(NAVIGATION_BAR + (atTop ? SAFE_AREA_TOP[this.device] ?? 0 : 0), h);
    bar(ctx, id, this.model.title(top), w, barHeight);
    ctx.save();
    ctx.translate(0, barHeight);
    card(ctx, top, this.model.title(top), w, h - barHeight);
    ctx.restore();
  }
}
