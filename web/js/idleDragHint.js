// The hint after a drag that moved nothing: in a scene with nothing armed and nothing in flight
// a pan drives no transition (the scene panel's status says "a pan moves nothing"); a drag there
// shows, for a few seconds across the middle of the phone, why — a full-screen (non-sheet)
// presentation has no dismiss gesture of its own — or, otherwise, what would arm one.
// test_page_fixes.py.

import { SHEET_STYLES } from "./scene.js";

const SHOWN_MS = 4000;
/** CSS px the pointer must travel for a press to count as a drag (a tap plays instead). */
const DRAG_PX = 10;

/** The words for a scene at rest with nothing armed: about the top presentation when there is one. */
export function idleDragText(state) {
  const top = state?.presentations?.at(-1);
  if (top && !SHEET_STYLES.has(top.style)) {
    const style = top.style === "fullScreen" ? "full-screen" : top.style;
    return `nothing to swipe away: a ${style} presentation has no dismiss gesture`
      + " (Dismiss with interactive ticked arms one)";
  }
  return "a pan moves nothing here: nothing is armed (present, push or dismiss with interactive ticked)";
}

export class IdleDragHint {
  /**
   * @param document the page
   * @param model {import("./scene.js").SceneModel}
   * @param enabled whether this page drives the session (a viewer's drags are not sent)
   */
  constructor(document, model, enabled) {
    this.model = model;
    this.enabled = enabled;
    this.element = document.getElementById("scene-drag-hint");
    this.down = null;  // {x, y, idle} of the press under way
    this.timer = 0;
    const screen = document.getElementById("screen");
    screen.addEventListener("pointerdown", (event) => {
      if (!event.isPrimary) return;
      this.down = { x: event.clientX, y: event.clientY, idle: this.idle(), moved: false };
    });
    screen.addEventListener("pointermove", (event) => {
      const down = this.down;
      if (down && event.isPrimary && Math.hypot(event.clientX - down.x, event.clientY - down.y) >= DRAG_PX) down.moved = true;
    });
    const up = (event) => {
      const down = this.down;
      this.down = null;
      if (down?.idle && down.moved && event.isPrimary && this.idle()) this.show(idleDragText(this.model.state));
    };
    screen.addEventListener("pointerup", up);
    screen.addEventListener("pointercancel", up);
  }

  /** In a scene, at rest, with no pan armed, on a page that drives it. */
  idle() {
    const state = this.model.state;
    return Boolean(state && !state.armed && !state.inFlight && this.enabled());
  }

  show(text) {
    if (!this.element) return;
    this.element.textContent = text;
    this.element.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.element.hidden = true; }, SHOWN_MS);
  }
}
