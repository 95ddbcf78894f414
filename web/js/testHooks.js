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
    get framesIgnored() { return state.framesIgnored; },
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
    /** The draw path (display.js): a low-latency canvas, frames drawn as they arrived, raw pointer input. */
    get drawPath() {
      return { lowLatency: page.renderer.lowLatency, fastDraws: display.fastDraws, rawInput: page.input.raw };
    },
    get shownProgress() { return state.shown?.progress ?? null; },
    get shownPhase() { return state.shown?.phase ?? null; },
    get shownRoot() { return state.shown?.scene?.root ?? null; },
    // Client-side prediction (prediction.js): the table's size, the live error, the fallbacks,
    // and whether the picture drawn last was a prediction.
    get prediction() { return lab.smoother.predictor.summary(); },
    get shownPredicted() { return state.shown?.predicted === true; },
    get shownLayers() { return state.shown?.layers ?? null; },
    clearLab() { lab.clear(); latency.restart(); },
    /** Interface points (a scene's) → canvas points as last drawn, and back. */
    interfaceToView(x, y) { return apply(display.view.matrix, x, y); },
    viewToInterface(x, y) { return apply(display.view.inverse, x, y); },
    controllerColour(id) { return controllerColour(id); },
    containerToClient(x, y) { return display.containerToClient(x, y); },
    // The history, the timeline and the inspector (history.js, timeline.js, inspector.js).
    /** The gestures kept, oldest first, whole (frames as received). */
    get history() { return page.history.list(); },
    get selectedGesture() { return page.history.selectedId; },
    /** What the screen shows: live, or a kept gesture's frame (its index and n), and the last playback's timing. */
    get timeline() {
      const { timeline } = page;
      const { mode, index, entry, lastRun } = timeline;
      return { mode: mode.kind, index, n: entry?.n ?? null, lastRun };
    },
    /** The picked layer's key and the inspector's rows as shown ({name: text}). */
    get inspector() {
      const fields = {};
      for (const detail of document.querySelectorAll("#inspector-details dd")) {
        fields[detail.dataset.field] = detail.textContent;
      }
      const { picked, layers } = page.inspector;
      return { picked, layers: layers.map((each) => each.key), fields };
    },
    /**
     * From now on, the screen's pixels as drawn live, per frame n, go to `window.__snapshots`
     * as `live-<n>` (the last 64), for browser.py's `difference`.
     */
    captureLive() {
      const { renderer, screen, timeline } = page;
      const draw = renderer.draw.bind(renderer);
      const kept = [];
      renderer.draw = (frame, scene) => {
        draw(frame, scene);
        if (!frame || timeline.inspecting) return;
        window.__snapshots = window.__snapshots || {};
        const pixels = screen.getContext("2d").getImageData(0, 0, screen.width, screen.height).data;
        window.__snapshots[`live-${frame.n}`] = pixels;
        kept.push(`live-${frame.n}`);
        if (kept.length > 64) delete window.__snapshots[kept.shift()];
      };
    },
    // Open, replay and export (replayPanel.js): the last script's report, the last export offered.
    get scriptReport() { return page.replayPanel.lastReport; },
    get scriptPlaying() { return page.scriptPlayer.playing; },
    get lastExport() { return page.replayPanel.lastExport; },
    // Layout and comforts: the URL state (the link "Copy link" gives, the last one copied, the
    // panel layout) and whether the shortcuts overlay is open.
    get urlState() { return page.urlState?.summary() ?? null; },
    get shortcutsOpen() { return page.shortcuts?.open ?? false; },
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
