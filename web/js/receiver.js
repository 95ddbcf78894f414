// What the page does with what the connection reports: a socket opened or lost, and each
// server message. It only records state (the latest frame wins) and updates the panels; the
// drawing happens in the display's animation frame, or at once for a tracking frame on the
// display's fast path (display.js).

import { herbAt } from "./strip.js";

const HINT = "Drag across the screen to drive the transition; release to finish or cancel. Tap to play it.";
const VIEWER_HINT = "Watching another session: its driver moves it.";
const SCENE_HINT = "A scene: a drag drives what the scene panel calls the next pan"
  + " (a present's dismissal, an edge-swipe pop…).";

export class Receiver {
  /**
   * @param page {{state, connection, requests, frames, sender, display, errors, recording, watching,
   *   input, hud, latency, lab, recorder, settings, releaseRules, formFor, sceneModel, scenePanel, history}}
   */
  constructor(page, document) {
    this.page = page;
    this.$ = (id) => document.getElementById(id);
  }

  /** A new socket: its pointer seqs, acks and requests start afresh, its first frame is whole. */
  opened() {
    const { frames, state, requests, latency, lab } = this.page;
    frames.reset();
    state.seq = 0;
    state.ack = null;
    requests.reset();
    latency.reset();
    lab.opened();
  }

  /** The connection's state, shown beside the screen; a lost socket stops the lab's measuring and a recording. */
  connectionState(kind, attempt, delay, code) {
    const { state, lab, recording } = this.page;
    const element = this.$("connection");
    element.dataset.state = kind;
    if (kind === "open") element.textContent = "connected";
    else if (kind === "connecting") {
      element.textContent = attempt ? `connecting… (attempt ${attempt + 1})` : "connecting…";
    } else {
      element.textContent = `disconnected${code ? ` (${code})` : ""}, retrying in ${(delay / 1000).toFixed(1)} s`;
    }
    if (kind === "reconnecting" && state.config && state.role === "driver" && !state.restore) {
      // The next session starts from the defaults: remember the settings to bring back.
      state.restore = structuredClone(state.config);
    }
    if (kind !== "open") {
      lab.closed();
      recording.cancel();
    }
  }

  message(message) {
    const { requests, formFor, sceneModel, errors, lab, watching } = this.page;
    switch (message.type) {
      case "welcome":
        this.welcome(message);
        break;
      case "configured": {
        const entry = requests.settle("configure", message);
        if (entry?.field) formFor(entry.field).clearError(entry.field);
        this.applyConfig(message.config);
        break;
      }
      case "joined":
        requests.settle("join", message);
        this.joined(message);
        break;
      case "frame":
        this.frame(message);
        break;
      case "transition":
        this.transition(message);
        break;
      case "scene-state":
        this.sceneState(message);
        break;
      case "lifecycle":
        sceneModel.applyLifecycle(message);
        this.page.history.lifecycle(message, performance.now());
        break;
      case "error":
        errors.show(message);
        break;
      case "pong":
        lab.pong(message, performance.now());
        break;
      case "link":
        requests.settle("network", message);
        lab.link(message.network);
        break;
      case "prediction":
        lab.prediction(message.table);
        break;
      case "session-ended":
        watching.ended(message.session);
        break;
      default:
        break;  // a message of a newer protocol
    }
    this.page.scriptPlayer.received(message, this.page.state.frame);
    this.page.urlState?.message(message);  // the URL follows what the server said
  }

  welcome(message) {
    const { state, frames, sceneModel, input, lab, sender, watching } = this.page;
    state.session = message.session;
    state.role = "driver";
    state.logo = message.shapes?.logo ?? null;
    frames.reset();  // a new session: its first frame is whole
    this.page.history.reset();
    sceneModel.reset();  // a new session has no scene
    this.applyConfig(message.config);
    input.reset();
    this.$("session-id").textContent = message.session;
    this.$("own-session").hidden = true;
    this.$("watch-state").textContent = "";
    this.$("hint").textContent = HINT;
    lab.welcome();
    if (state.restore) {
      // A reconnect made a fresh session: bring back the settings the page had.
      const { restore } = state;
      state.restore = null;
      sender.request("configure", "*", { type: "configure", ...restore });
    }
    watching.welcomed();
  }

  joined(message) {
    const { state, frames, lab, sceneModel } = this.page;
    state.role = "viewer";
    state.session = message.session;
    frames.reset();  // the watched session's frames follow, the first one whole
    this.page.history.reset();
    lab.joined();  // the watched session's acks are its driver's seqs, not this page's
    sceneModel.reset();  // the watched session's scene-state follows, if it has a scene
    this.applyConfig(message.config);
    this.$("session-id").textContent = `${message.session} (watching)`;
    this.$("own-session").hidden = false;
    this.$("watch-state").textContent = `Watching session ${message.session}: its frames, live.`;
    this.$("hint").textContent = VIEWER_HINT;
  }

  /**
   * A frame message, whole or a delta: once assembled, the latest state. A delta that does not
   * apply to the frame held (the server never sends one) is counted, shown beside the frame
   * rate, and skipped: the page keeps drawing what it has until the next whole frame.
   */
  frame(message) {
    const { state, frames, latency, lab, hud, releaseRules } = this.page;
    if ((message.base === undefined || message.base === null)
      && (!Number.isFinite(message.n) || !Array.isArray(message.layers))) {
      // A whole frame with nothing to draw (`serve --prebuilt-frames` sends padding): neither
      // kept (the history would hold every one) nor drawn; said once (test_prebuilt_page.py).
      if (state.framesIgnored++ === 0) console.warn("frame without n and layers ignored (a diagnostic server?)");
      return;
    }
    const frame = frames.apply(message);
    if (!frame) {
      console.warn("delta frame dropped:", frames.lastDrop);
      this.$("deltas-dropped").hidden = false;
      this.$("deltas-dropped-count").textContent = String(frames.dropped);
      return;
    }
    state.frame = frame;
    state.frameCount += 1;
    this.page.history.frame(frame, performance.now());
    if (frame.ack !== null && frame.ack !== undefined) state.ack = Math.max(state.ack ?? 0, frame.ack);
    if (state.role === "driver") latency.frame(frame, performance.now());
    lab.frame(frame, performance.now(), state.frameCount);
    hud.frame(frame);
    releaseRules.frame(frame);
    this.page.display.arrived(frame, state.frameCount);
  }

  transition(event) {
    const { state, requests, hud, recorder, recording, settings, sceneModel, sender, history } = this.page;
    history.event(event, performance.now(), state.config);
    if (event.event === "began") hud.gestureBegan(event.grabbed);
    else if (event.event === "played") {
      requests.settle("play", event);
      hud.gestureBegan(false);
    } else if (event.event === "released") hud.released(event);
    if (event.event === "finished" || event.event === "cancelled") state.outcomes.push(event.event);
    if (event.event === "finished" || event.event === "cancelled" || event.event === "paused") hud.ended(event.event);
    const script = recorder.event(event);
    if (script) recording.done(script);
    if (event.event === "finished" && state.role === "driver" && settings.autoReverse && !sceneModel.active
      && !this.page.scriptPlayer.playing) {
      // The next drag goes back: present ↔ dismiss (push ↔ pop for reveal and push). Not in a
      // scene: there the server decides what the next pan drives (the dismissal, a pop).
      const operation = state.config.operation === "present" ? "dismiss" : "present";
      sender.configure({ operation }, "operation");
    }
  }

  sceneState(message) {
    const { state, requests, scenePanel, sceneModel, display, recording } = this.page;
    if (requests.settle("scene", message)) scenePanel.clearError();
    const wasActive = sceneModel.active;
    const before = display.screenSize().join();
    sceneModel.applyState(message);
    if (sceneModel.active !== wasActive) {
      this.$("hint").textContent = sceneModel.active ? SCENE_HINT : state.role === "viewer" ? VIEWER_HINT : HINT;
      if (sceneModel.active && recording.active) {
        recording.cancel("Recording stopped: a scene started (scene scripts are written by hand, docs/SCRIPTS.md).");
      }
    }
    if (display.screenSize().join() !== before) display.layout();
    state.sceneVersion += 1;  // titles and styles the cards show may have changed
  }

  applyConfig(config) {
    const { state, settings, releaseRules, hud, display } = this.page;
    state.config = config;
    state.container = config.container;
    // The herb whose card sits at the origin frame is the one the pop opens.
    const index = herbAt(config.originFrame, state.scroll, state.container);
    if (index >= 0) state.selected = index;
    settings.show(config);
    releaseRules.show(config);
    hud.setThreshold(config.threshold);
    display.layout();
  }
}
