// Taps on the screen and the herb strip under them: a tap at rest plays the transition (on a
// pop's present, from the herb tapped, which becomes the origin frame); the wheel scrolls the
// strip by whole cards.

import { atRest } from "./pageState.js";
import { HERBS, cardFrame } from "./screens.js";

export class Strip {
  /**
   * @param page {{state, sceneModel, sender}}
   */
  constructor(page, screen) {
    this.page = page;
    screen.addEventListener("wheel", (event) => this.onWheel(event), { passive: false });
  }

  /**
   * A tap in container points. In a scene a tap plays nothing (as a tap on an app's screen
   * presents nothing): the panel's buttons do, and "Play armed" plays what the next pan would drive.
   */
  tap(x, y) {
    const { state, sceneModel, sender } = this.page;
    if (state.role !== "driver" || !atRest(state) || sceneModel.active) return;
    const { transition, operation } = state.config;
    if (transition === "pop" && operation === "present") {
      const [w] = state.container;
      const index = HERBS.findIndex((_, i) => {
        const [cx, cy, cw, ch] = cardFrame(i, state.scroll, state.container);
        return x >= cx && x <= cx + cw && y >= cy && y <= cy + ch;
      });
      if (index < 0) return;  // the list itself: only a herb opens
      const [cx, , cw] = cardFrame(index, state.scroll, state.container);
      if (cx < 0 || cx + cw > w) {
        // A card cut by the screen's edge scrolls into view first (the origin frame must be on screen).
        this.scroll(cx < 0 ? -1 : 1);
        return;
      }
      state.selected = index;
      state.sceneVersion += 1;
      sender.configure({ originFrame: cardFrame(index, state.scroll, state.container) }, "*");
    }
    sender.play();
  }

  /** Scrolls the strip by whole cards. The origin frame stays put; the herb under it changes. */
  scroll(step) {
    const { state } = this.page;
    const scroll = Math.min(Math.max(state.scroll + step, 0), HERBS.length - 3);
    if (scroll === state.scroll) return;
    state.selected += scroll - state.scroll;
    state.scroll = scroll;
    state.sceneVersion += 1;
  }

  onWheel(event) {
    const { state, sceneModel } = this.page;
    const config = state.config;
    if (sceneModel.active || config?.transition !== "pop" || config.operation !== "present" || !atRest(state)) return;
    event.preventDefault();
    this.scroll(Math.sign(event.deltaY || event.deltaX));
  }
}

/** The herb whose card sits at `originFrame` with the strip at `scroll`, or -1. */
export function herbAt(originFrame, scroll, container) {
  const [x, y] = originFrame;
  return HERBS.findIndex((_, i) => {
    const [cx, cy] = cardFrame(i, scroll, container);
    return Math.abs(cx - x) < 0.5 && Math.abs(cy - y) < 0.5;
  });
}
