// Canvas contexts: a small canvas drawn at the device's pixel ratio (the HUD's plot, the lab's
// histogram), and the screen's low-latency context.

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

/**
 * The screen's 2-D context, asked for low latency (`desynchronized`: the browser may show what is
 * drawn without waiting for the page's next frame to be composited). `lowLatency` is what the
 * browser says it gave (`getContextAttributes()`); a browser without the attribute, or without
 * `getContextAttributes`, gets an ordinary context and `lowLatency` false, and the display then
 * draws only in requestAnimationFrame (test_page_latency.py's fallback test holds it).
 */
export function screenContext(canvas) {
  const ctx = canvas.getContext("2d", { desynchronized: true });
  const attributes = typeof ctx.getContextAttributes === "function" ? ctx.getContextAttributes() : null;
  return { ctx, lowLatency: attributes?.desynchronized === true };
}
