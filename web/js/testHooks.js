// A read-only view of the page for tests and the curious: `window.sandbox`, installed only when
// the page is opened with `?test` in its query (main.js imports this module only then).
// test_requests_page.py's test_the_page_without_test_query_has_no_hooks holds that it is absent
// otherwise.

import { apply } from "./orientation.js";
import { controllerColour } from "./sceneCards.js";

/**
 * @param page {{state, connection, requests, frames, latency, recorder, sceneModel, hud, lab, display}}
 */
export function installTestHooks(page) {
  const { state, connection, requests, frames, latency, recorder, sceneModel, hud, lab, display } = page;
  window.sandbox = {
    get connected() { return connection.isOpen; },
    get session() { return state.session; },
    get role() { return state.role; },
    get seq() { return state.seq; },
    get ack() { return state.ack; },
    get phase() { return state.frame?.phase ?? null; },
    get progress() { return state.frame?.progress ?? null; },
    get frameNumber() { return state.frame?.n ?? null; },
    get framesReceived() { return state.frameCount; },
    /** The latest frame, whole (deltas applied), and the deltas that could not be applied. */
    get frame() { return state.frame; },
    get deltasDropped() { return frames.dropped; },
    get outcomes() { return [...state.outcomes]; },
    get pendingRequests() { return requests.count; },
    get config() { return state.config; },
    get latency() { return latency.summary(); },
    get recording() { return recorder.script; },
    get selected() { return state.selected; },
    get scene() { return sceneModel.state; },
    get lifecycle() { return sceneModel.lifecycle; },
    get frameScene() { return state.frame?.scene ?? null; },
    get screenSize() { return [...display.screenSize()]; },
    get orientation() { return sceneModel.orientation; },
    get frameRoot() { return state.frame?.scene?.root ?? null; },
    get deviceTurns() { return sceneModel.deviceTurns; },
    get lastPointer() { return state.lastPointer; },
    /** The projection rule's rest point of the last release, or null. */
    get projected() { return hud.projected; },
    /** The network lab: link, motion-to-photon per smoothing mode, the buffer's estimates. */
    get lab() { return lab.summary(); },
    get shownProgress() { return state.shown?.progress ?? null; },
    get shownPhase() { return state.shown?.phase ?? null; },
    get shownRoot() { return state.shown?.scene?.root ?? null; },
    clearLab() { lab.clear(); latency.restart(); },
    /** Interface points (a scene's) → canvas points as last drawn, and back. */
    interfaceToView(x, y) { return apply(display.view.matrix, x, y); },
    viewToInterface(x, y) { return apply(display.view.inverse, x, y); },
    controllerColour(id) { return controllerColour(id); },
    containerToClient(x, y) { return display.containerToClient(x, y); },
    // Slow motion and compare mode (slowMotion.js, compare.js).
    get slowMotion() {
      const { slowMotion } = page;
      return { active: slowMotion.active, factor: slowMotion.factor, timeScale: slowMotion.timeScale };
    },
    get compare() { return page.compare.summary(); },
    compareToClient(side, x, y) { return page.compare.views[side].containerToClient(x, y); },
    /** One pointer event into compare mode's fan-out, at client time `t` ms (a flick with exact timing). */
    comparePointer(phase, x, y, t) { page.compare.pointer(phase, x, y, t, { pointerId: 1 }); },
  };
}
