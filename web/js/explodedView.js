// The exploded view of the frame on the screen, like Xcode's view debugger: each layer drawn as
// its outline (the renderer's corners, inspector.js `frameLayers`) on a tilted plane, one plane
// per layer in drawing order, bottom to top, each raised above the one under it; the screen's
// own outline is the floor. The picked layer is filled in the inspector's colour. No state.

import { prepareCanvas } from "./canvas.js";

export const HEIGHT = 320;
/** How far each plane rises above the one under it (CSS px). */
const RISE = 34;
const MARGIN = 12;
const COLOURS = ["#5ec2ff", "#59d48a", "#f2b84b", "#c792ea", "#ff8a65", "#4dd0e1", "#aed581", "#f06292"];

/** A point of the interface on the tilted floor: sheared back and flattened, before scaling. */
function tilt([x, y]) {
  return [x + 0.45 * y, 0.5 * y - 0.18 * x];
}

/**
 * The planes to draw: for each drawn layer (bottom first), its corners tilted, scaled to fit a
 * `width` × `height` canvas with `screen` ([w, h], interface points) as the floor (all of them in
 * view), and raised by its rank. Returns {floor, planes: [{key, label, points}]}.
 */
export function explode(entries, screen, width, height = HEIGHT) {
  const drawn = entries.filter((each) => each.drawn && each.corners);
  const [w, h] = screen;
  const floor = [[0, 0], [w, 0], [w, h], [0, h]].map(tilt);
  // Fitted to the floor and every layer, on the screen or off it (a push's incoming screen).
  const all = [...floor, ...drawn.flatMap((each) => each.corners.map(tilt))];
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const rise = drawn.length * RISE;
  const scale = Math.min(
    (width - 2 * MARGIN) / (Math.max(...xs) - Math.min(...xs)),
    (height - 2 * MARGIN - rise) / (Math.max(...ys) - Math.min(...ys)),
  );
  const place = ([x, y], rank) => [
    MARGIN + (x - Math.min(...xs)) * scale, MARGIN + rise + (y - Math.min(...ys)) * scale - rank * RISE,
  ];
  return {
    floor: floor.map((p) => place(p, 0)),
    planes: drawn.map((each, rank) => ({
      key: each.key,
      label: each.kind === "still" ? `${each.layer.controller ?? ""} ${each.layer.role}` : each.layer.id,
      points: each.corners.map((corner) => place(tilt(corner), rank + 1)),
    })),
  };
}

/** Draws the exploded view of `entries` with `picked` (a key) filled. */
export function drawExploded(canvas, entries, screen, picked, dpr) {
  const { ctx, width, height } = prepareCanvas(canvas, dpr, HEIGHT);
  ctx.fillStyle = "#111318";
  ctx.fillRect(0, 0, width, height);
  const { floor, planes } = explode(entries, screen, width, height);
  polygon(ctx, floor);
  ctx.strokeStyle = "#6b7280";
  ctx.setLineDash([4, 4]);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.font = "11px system-ui, sans-serif";
  planes.forEach((plane, rank) => {
    const colour = COLOURS[rank % COLOURS.length];
    polygon(ctx, plane.points);
    ctx.globalAlpha = plane.key === picked ? 0.55 : 0.12;
    ctx.fillStyle = plane.key === picked ? "#00e5ff" : colour;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.lineWidth = plane.key === picked ? 2 : 1;
    ctx.strokeStyle = plane.key === picked ? "#00e5ff" : colour;
    ctx.stroke();
    const [x, y] = plane.points[0];
    ctx.fillStyle = plane.key === picked ? "#ffffff" : colour;
    ctx.fillText(plane.label, x + 4, y + 12);
  });
}

function polygon(ctx, points) {
  ctx.beginPath();
  points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.closePath();
}
