// A small canvas drawn at the device's pixel ratio (the HUD's plot, the lab's histogram).

/**
 * Sizes `canvas`'s backing store to its CSS size × `dpr` (only when it changed), clears it, and
 * returns a context drawing in CSS pixels with that size.
 */
export function prepareCanvas(canvas, dpr, fallbackHeight) {
  const width = canvas.clientWidth || 300;
  const height = canvas.clientHeight || fallbackHeight;
  if (canvas.width !== Math.round(width * dpr)) canvas.width = Math.round(width * dpr);
  if (canvas.height !== Math.round(height * dpr)) canvas.height = Math.round(height * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return { ctx, width, height };
}
