// Orientation on the page (docs/PROTOCOL.md, "Orientation and rotation"; docs/PAGE.md,
// "Orientation"): the device's turn as the user sees it, the window's root transform the
// server streams, and the one affine map from interface coordinates to the canvas that both
// make — used to draw (interface → canvas) and, inverted, to send pointers (canvas → interface).
// No DOM here.

/** The four interface orientations, in the order the panel shows them. */
export const INTERFACE_ORIENTATIONS = ["portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight"];
/** UIKit's mask bits (1 << UIInterfaceOrientation): portrait 2, upside down 4, landscape right 8, landscape left 16. */
export const MASK_BITS = { portrait: 2, portraitUpsideDown: 4, landscapeRight: 8, landscapeLeft: 16 };
export const ORIENTATION_LABELS = {
  portrait: "portrait", portraitUpsideDown: "upside down", landscapeLeft: "landscape left", landscapeRight: "landscape right",
};
/** Device orientations the panel's buttons send (UIKit's `UIDeviceOrientation` names). */
export const DEVICE_ORIENTATIONS = ["portrait", "landscapeLeft", "landscapeRight", "portraitUpsideDown", "faceUp", "faceDown"];
/** Masks a scene's root may start with (the panel's choice; absent = the device's default). */
export const ROOT_MASKS = { portrait: ["portrait"], landscape: ["landscape"], allButUpsideDown: ["allButUpsideDown"], all: ["all"] };
/** The device's default mask when a controller says nothing (phone allButUpsideDown, tablet all). */
export const DEVICE_DEFAULT_MASK = { phone: 26, tablet: 30 };

/**
 * How far the device is turned as the user looks at it, in quarter turns clockwise (canvas
 * convention: positive angles turn clockwise on the y-down screen). UIKit's device
 * `landscapeLeft` is "home button on the right": the device turned 90° counter-clockwise, its
 * top pointing left (−1); `landscapeRight` is home button on the left, turned clockwise (+1);
 * upside down is a half turn. Face up, face down and unknown lie flat: they keep the turn the
 * device had (`previous`), as a phone laid on a table keeps the way it was pointing.
 */
export function deviceQuarterTurns(device, previous = 0) {
  switch (device) {
    case "portrait": return 0;
    case "landscapeLeft": return -1;
    case "landscapeRight": return 1;
    case "portraitUpsideDown": return 2;
    default: return previous;
  }
}

/** Which edge of the user's view the device's top edge (its earpiece) points at. */
export function deviceTopEdge(quarterTurns) {
  return ["top", "right", "bottom", "left"][((quarterTurns % 4) + 4) % 4];
}

// Affine maps as [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f (the canvas's
// setTransform order, and the wire's [a, b, c, d, tx, ty]).

export const IDENTITY = Object.freeze([1, 0, 0, 1, 0, 0]);

/** m1 · m2: first m2, then m1. */
export function multiply(m1, m2) {
  const [a1, b1, c1, d1, e1, f1] = m1;
  const [a2, b2, c2, d2, e2, f2] = m2;
  return [
    a1 * a2 + c1 * b2, b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1,
  ];
}

export function invert(m) {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return [...IDENTITY];
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export function apply(m, x, y) {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

const translation = (x, y) => [1, 0, 0, 1, x, y];

/** An exact quarter-turn rotation (no cos(π/2) residue): k quarter turns clockwise. */
function quarterRotation(k) {
  const turns = ((k % 4) + 4) % 4;
  return [[1, 0, 0, 1], [0, 1, -1, 0], [-1, 0, 0, -1], [0, -1, 1, 0]][turns].concat([0, 0]);
}

/**
 * What the canvas shows and how: `size` is the user's view of the device's screen (its
 * portrait size `screen`, width and height swapped when the device lies sideways), `matrix` maps
 * interface points (the coordinates of the frame's `scene.root.bounds`, which every scene layer
 * is in) to canvas points. The interface is centred on the screen's centre, turned by the
 * root's `transform` (relative to the device's portrait screen, about its centre), and the
 * screen is turned by the device: canvas = T(view/2) · device · T(t) · root · T(−bounds/2).
 * Without a root (no scene, or a frame before orientation existed) the interface is the screen.
 */
export function viewGeometry(screen, quarterTurns, root) {
  const [sw, sh] = screen;
  const sideways = Math.abs(quarterTurns) % 2 === 1;
  const size = sideways ? [sh, sw] : [sw, sh];
  const bounds = root?.bounds ?? screen;
  const [a, b, c, d, tx, ty] = root?.transform ?? IDENTITY;
  let matrix = translation(-bounds[0] / 2, -bounds[1] / 2);
  matrix = multiply([a, b, c, d, 0, 0], matrix);
  matrix = multiply(translation(tx, ty), matrix);
  matrix = multiply(quarterRotation(quarterTurns), matrix);
  matrix = multiply(translation(size[0] / 2, size[1] / 2), matrix);
  return { size, matrix, inverse: invert(matrix), bounds: [...bounds] };
}

/** The names a mask number holds, in the panel's order. */
export function maskNames(mask) {
  return INTERFACE_ORIENTATIONS.filter((name) => (mask & MASK_BITS[name]) !== 0);
}

/** A mask number from interface orientation names (unknown names add nothing). */
export function maskOf(names) {
  return (names ?? []).reduce((mask, name) => mask | (MASK_BITS[name] ?? 0), 0);
}
