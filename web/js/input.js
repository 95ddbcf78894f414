// Pointer input on the screen canvas: mouse, pen and touch alike. Every event (including the
// coalesced ones a frame bundles) goes out at once, in container points, stamped with its own
// event time on the performance.now() clock. Moves come from `pointerrawupdate` where the
// browser fires it for the pointer (dispatched as the hardware event arrives; `pointermove` waits
// for the next animation frame), else from `pointermove`; a pointer whose raw updates were seen
// ignores its `pointermove`s, so each sample goes out once. The samples an event bundles are
// sent in order, so the newest sample is the last message. The canvas's position is read (a
// layout read) at a pointer's down only, never per move: test_page_latency.py holds both.

/** Movement (pt) and time (ms) within which a down → up is a tap, not a drag. */
export const TAP_SLOP = 10;
export const TAP_TIME = 500;

/** Whether the browser has raw pointer updates (Chromium, in secure contexts). */
export function hasRawUpdates(target = globalThis) {
  return "onpointerrawupdate" in target;
}

export class PointerInput {
  /**
   * @param canvas the screen canvas
   * @param toContainer (clientX, clientY, fresh) → [x, y] in container points; `fresh` asks it
   *   to read the canvas's position again (a down), else the last one read serves (moves)
   * @param handlers {{pointer(phase, x, y, t, event, primary): void, tap(x, y): void, enabled(): boolean}}
   */
  constructor(canvas, toContainer, handlers) {
    this.canvas = canvas;
    this.toContainer = toContainer;
    this.handlers = handlers;
    this.down = new Map();  // pointerId → {x, y, t, moved, raw}
    this.primary = null;    // the pointer the pan follows (the first one down)
    canvas.addEventListener("pointerdown", (event) => this.onDown(event));
    this.raw = hasRawUpdates();
    if (this.raw) canvas.addEventListener("pointerrawupdate", (event) => this.onMove(event, true));
    canvas.addEventListener("pointermove", (event) => this.onMove(event, false));
    canvas.addEventListener("pointerup", (event) => this.onEnd(event, "up"));
    canvas.addEventListener("pointercancel", (event) => this.onEnd(event, "cancel"));
    canvas.addEventListener("lostpointercapture", (event) => this.onEnd(event, "cancel"));
  }

  emit(phase, event) {
    const [x, y] = this.toContainer(event.clientX, event.clientY, phase === "down");
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

  onMove(event, raw) {
    const state = this.down.get(event.pointerId);
    if (!state) return;
    if (raw) state.raw = true;
    else if (state.raw) return;  // sent already, from its raw update
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
