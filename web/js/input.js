// Pointer input on the screen canvas: mouse, pen and touch alike. Every event (including the
// coalesced ones a frame bundles) goes out at once, in container points, stamped with its own
// event time on the performance.now() clock.

/** Movement (pt) and time (ms) within which a down → up is a tap, not a drag. */
export const TAP_SLOP = 10;
export const TAP_TIME = 500;

export class PointerInput {
  /**
   * @param canvas the screen canvas
   * @param toContainer (clientX, clientY) → [x, y] in container points
   * @param handlers {{pointer(phase, x, y, t, event, primary): void, tap(x, y): void, enabled(): boolean}}
   */
  constructor(canvas, toContainer, handlers) {
    this.canvas = canvas;
    this.toContainer = toContainer;
    this.handlers = handlers;
    this.down = new Map();  // pointerId → {x, y, t, moved}
    this.primary = null;    // the pointer the pan follows (the first one down)
    canvas.addEventListener("pointerdown", (event) => this.onDown(event));
    canvas.addEventListener("pointermove", (event) => this.onMove(event));
    canvas.addEventListener("pointerup", (event) => this.onEnd(event, "up"));
    canvas.addEventListener("pointercancel", (event) => this.onEnd(event, "cancel"));
    canvas.addEventListener("lostpointercapture", (event) => this.onEnd(event, "cancel"));
  }

  emit(phase, event) {
    const [x, y] = this.toContainer(event.clientX, event.clientY);
    this.handlers.pointer(phase, x, y, event.timeStamp, event, event.pointerId === this.primary);
    return [x, y];
  }

  onDown(event) {
    if (!this.handlers.enabled() || this.down.has(event.pointerId)) return;
    event.preventDefault();
    this.canvas.setPointerCapture(event.pointerId);
    if (this.primary === null) this.primary = event.pointerId;
    const [x, y] = this.emit("down", event);
    this.down.set(event.pointerId, { x, y, t: event.timeStamp, moved: false });
  }

  onMove(event) {
    const state = this.down.get(event.pointerId);
    if (!state) return;
    // A frame may bundle several hardware events; send each, in order, with its own time.
    const coalesced = typeof event.getCoalescedEvents === "function" ? event.getCoalescedEvents() : [];
    for (const each of coalesced.length ? coalesced : [event]) {
      const [x, y] = this.emit("move", each);
      if (Math.hypot(x - state.x, y - state.y) > TAP_SLOP) state.moved = true;
    }
  }

  onEnd(event, phase) {
    const state = this.down.get(event.pointerId);
    if (!state) return;  // already ended (pointerup is followed by lostpointercapture)
    const [x, y] = this.emit(phase, event);
    this.down.delete(event.pointerId);
    const wasPrimary = event.pointerId === this.primary;
    if (wasPrimary) this.primary = null;
    if (this.down.size === 0) this.primary = null;
    const tap = phase === "up" && wasPrimary && !state.moved && event.timeStamp - state.t < TAP_TIME
      && Math.hypot(x - state.x, y - state.y) <= TAP_SLOP;
    if (tap) this.handlers.tap(x, y);
  }

  /** A new connection knows no pointer: forget ours (their next events would be refused). */
  reset() {
    for (const id of this.down.keys()) {
      if (this.canvas.hasPointerCapture(id)) this.canvas.releasePointerCapture(id);
    }
    this.down.clear();
    this.primary = null;
  }
}
