// The page: wires the connection, the pointer input, the renderer and the panels together.
// onmessage only records state (the latest frame wins); all drawing happens in
// requestAnimationFrame.

import { Connection } from "./connection.js";
import { FrameAssembler } from "./frameAssembler.js";
import { Hud } from "./hud.js";
import { PointerInput } from "./input.js";
import { NetworkLab } from "./lab.js";
import { LatencyMeter } from "./latency.js";
import { IDENTITY, apply, deviceTopEdge, viewGeometry } from "./orientation.js";
import { OrientationPanel } from "./orientationPanel.js";
import { Recorder } from "./recorder.js";
import { Renderer } from "./renderer.js";
import { SCENE_ERRORS, SceneModel } from "./scene.js";
import { SceneCards, controllerColour } from "./sceneCards.js";
import { ScenePanel } from "./scenePanel.js";
import { HERBS, cardFrame } from "./screens.js";
import { SettingsForm } from "./settings.js";
import { ReleaseRulesForm } from "./releaseRules.js";

const $ = (id) => document.getElementById(id);
const RESTING = new Set(["idle", "finished", "cancelled", "paused"]);  // paused: issue 14's pausesOnCompletion
const HINT = "Drag across the screen to drive the transition; release to finish or cancel. Tap to play it.";
const VIEWER_HINT = "Watching another session: its driver moves it.";
const SCENE_HINT = "A scene: a drag drives what the scene panel calls the next pan (a present's dismissal, an edge-swipe pop…).";

const state = {
  session: null,
  role: "driver",          // or "viewer" after `join`
  config: null,            // the effective configuration, as the server last said
  container: [390, 844],
  logo: null,
  frame: null,             // the latest frame (latest wins), whole (deltas applied: frameAssembler.js)
  frameCount: 0,
  drawnFrame: null,
  seq: 0,                  // the last pointer seq sent on this connection
  ack: null,               // the highest ack received on this connection
  selected: 1,             // the herb whose thumbnail the pop opens (card 1 = the default origin)
  scroll: 0,               // the strip's scroll position, in cards
  requests: [],            // [{kind, field}] awaiting `configured` / `joined` / `played` / `error`
  restore: null,           // the configuration to restore after a reconnect
  outcomes: [],            // "finished" / "cancelled", in order, for this page's lifetime
  view: null,              // the geometry of the last drawing (orientation.js viewGeometry): pointers invert it
  lastPointer: null,       // the last pointer message sent (interface points in a scene)
  shown: null,             // the frame drawn last (the latest, or the interpolation buffer's; lab.js)
};

const screen = $("screen");
const renderer = new Renderer(screen);
const hud = new Hud(document);
const latency = new LatencyMeter();
const recorder = new Recorder();
// Most frames are deltas against the frame before (issue 15): applied here, so state.frame and
// everything after it see whole frames.
const frames = new FrameAssembler();
const wsURL = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
const connection = new Connection(wsURL, { onOpen, onMessage, onState });
// The session to join once the socket reopened for it (see the watch form).
let pendingJoin = null;
const settings = new SettingsForm($("settings"), (patch, field) => configure(patch, field));
const releaseRules = new ReleaseRulesForm($("release-rules"), (patch, field) => configure(patch, field));
/** The form that shows errors about `field` (issue 14's fields have their own panel). */
const formFor = (field) => (releaseRules.owns(field) ? releaseRules : settings);
const sceneModel = new SceneModel();
const sceneCards = new SceneCards(sceneModel);
const scenePanel = new ScenePanel(document, sceneModel, {
  send: (message) => request("scene", null, message),
  enabled: () => state.role === "driver" && connection.isOpen,
});
const orientationPanel = new OrientationPanel(document, sceneModel, {
  send: (message) => scenePanel.send(message),
  enabled: () => state.role === "driver" && connection.isOpen,
});
const lab = new NetworkLab(document, {
  send: (message) => connection.send(message),
  request: (message) => request("network", "network", message),
  linkChanged: () => latency.restart(),
});
let cssScale = 1;
let sceneVersion = 0;

// MARK: - Sending

function request(kind, field, message) {
  if (!connection.send(message)) {
    if (field) formFor(field).showError(field, "not connected");
    return false;
  }
  state.requests.push({ kind, field });
  return true;
}

function configure(patch, field) {
  if (state.role !== "driver") {
    formFor(field).showError(field, "watching another session: its driver sets it");
    return;
  }
  request("configure", field, { type: "configure", ...patch });
}

function play() {
  if (request("play", null, { type: "play" })) recorder.play(performance.now());
}

function sendPointer(phase, x, y, t, event, primary) {
  state.seq += 1;
  const message = {
    type: "pointer", phase, x: round(x), y: round(y), t: Number(t.toFixed(3)), seq: state.seq,
    pointerId: event.pointerId, pointerType: event.pointerType,
  };
  if (!connection.send(message)) return;
  state.lastPointer = { phase, x: message.x, y: message.y, seq: message.seq };
  latency.sent(state.seq, performance.now());
  lab.pointerSent(state.seq, t, performance.now());
  if (primary) recorder.pointer(phase, message.x, message.y, message.t);
}

const round = (value) => Math.round(value * 100) / 100;

// MARK: - Receiving

function onOpen() {
  frames.reset();  // a new socket: the first frame it receives is whole
  state.seq = 0;
  state.ack = null;
  state.requests = [];
  latency.reset();
  lab.opened();
}

function onState(kind, attempt, delay, code) {
  const element = $("connection");
  element.dataset.state = kind;
  if (kind === "open") element.textContent = "connected";
  else if (kind === "connecting") element.textContent = attempt ? `connecting… (attempt ${attempt + 1})` : "connecting…";
  else element.textContent = `disconnected${code ? ` (${code})` : ""}, retrying in ${(delay / 1000).toFixed(1)} s`;
  if (kind === "reconnecting" && state.config && state.role === "driver" && !state.restore) {
    // The next session starts from the defaults: remember the settings to bring back.
    state.restore = structuredClone(state.config);
  }
  if (kind !== "open") {
    lab.closed();
    recorder.cancel();
    showRecordState();
  }
}

function settle(kind, error) {
  const index = state.requests.findIndex((entry) => entry.kind === kind || (error && entry));
  if (index < 0) return null;
  return state.requests.splice(index, 1)[0];
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      state.session = message.session;
      state.role = "driver";
      state.logo = message.shapes?.logo ?? null;
      frames.reset();  // a new session: its first frame is whole
      sceneModel.reset();  // a new session has no scene
      applyConfig(message.config);
      input.reset();
      $("session-id").textContent = message.session;
      $("own-session").hidden = true;
      $("watch-state").textContent = "";
      $("hint").textContent = HINT;
      lab.welcome();
      if (state.restore) {
        // A reconnect made a fresh session: bring back the settings the page had.
        const { restore } = state;
        state.restore = null;
        request("configure", "*", { type: "configure", ...restore });
      }
      if (pendingJoin) {
        const id = pendingJoin;
        pendingJoin = null;
        request("join", null, { type: "join", session: id });
      }
      break;
    case "configured": {
      const entry = settle("configure");
      if (entry?.field) formFor(entry.field).clearError(entry.field);
      applyConfig(message.config);
      break;
    }
    case "joined":
      settle("join");
      state.role = "viewer";
      state.session = message.session;
      frames.reset();  // the watched session's frames follow, the first one whole
      lab.joined();  // the watched session's acks are its driver's seqs, not this page's
      sceneModel.reset();  // the watched session's scene-state follows, if it has a scene
      applyConfig(message.config);
      $("session-id").textContent = `${message.session} (watching)`;
      $("own-session").hidden = false;
      $("watch-state").textContent = `Watching session ${message.session}: its frames, live.`;
      $("hint").textContent = VIEWER_HINT;
      break;
    case "frame":
      onFrame(message);
      break;
    case "transition":
      onTransition(message);
      break;
    case "scene-state":
      onSceneState(message);
      break;
    case "lifecycle":
      sceneModel.applyLifecycle(message);
      break;
    case "error":
      onError(message);
      break;
    case "pong":
      lab.pong(message, performance.now());
      break;
    case "link":
      settle("network");
      lab.link(message.network);
      break;
    case "session-ended":
      $("watch-state").textContent = `Session ${message.session} ended; back to a session of your own.`;
      connection.url = wsURL;
      connection.reconnect();
      break;
    default:
      break;  // a message of a newer protocol
  }
}

/**
 * A frame message, whole or a delta: once assembled, the latest state. A delta that does not
 * apply to the frame held (the server never sends one) is counted, shown beside the frame
 * rate, and skipped: the page keeps drawing what it has until the next whole frame.
 */
function onFrame(message) {
  const frame = frames.apply(message);
  if (!frame) {
    console.warn("delta frame dropped:", frames.lastDrop);
    $("deltas-dropped").hidden = false;
    $("deltas-dropped-count").textContent = String(frames.dropped);
    return;
  }
  state.frame = frame;
  state.frameCount += 1;
  if (frame.ack !== null && frame.ack !== undefined) state.ack = Math.max(state.ack ?? 0, frame.ack);
  if (state.role === "driver") latency.frame(frame, performance.now());
  lab.frame(frame, performance.now(), state.frameCount);
  hud.frame(frame);
  releaseRules.frame(frame);
}

function onTransition(event) {
  if (event.event === "began") hud.gestureBegan(event.grabbed);
  else if (event.event === "played") {
    settle("play");
    hud.gestureBegan(false);
  } else if (event.event === "released") hud.released(event);
  if (event.event === "finished" || event.event === "cancelled") state.outcomes.push(event.event);
  const script = recorder.event(event);
  if (script) recordingDone(script);
  if (event.event === "finished" && state.role === "driver" && settings.autoReverse && !sceneModel.active) {
    // The next drag goes back: present ↔ dismiss (push ↔ pop for reveal and push). Not in a
    // scene: there the server decides what the next pan drives (the dismissal, a pop).
    const operation = state.config.operation === "present" ? "dismiss" : "present";
    configure({ operation }, "operation");
  }
}

function onSceneState(message) {
  if (settle("scene")) scenePanel.clearError();
  const wasActive = sceneModel.active;
  const before = screenSize().join();
  sceneModel.applyState(message);
  if (sceneModel.active !== wasActive) {
    $("hint").textContent = sceneModel.active ? SCENE_HINT : state.role === "viewer" ? VIEWER_HINT : HINT;
    if (sceneModel.active && (recorder.state === "armed" || recorder.state === "recording")) {
      recorder.cancel();
      showRecordState("Recording stopped: a scene started (scene scripts are written by hand, docs/SCRIPTS.md).");
    }
  }
  if (screenSize().join() !== before) layout();
  sceneVersion += 1;  // titles and styles the cards show may have changed
}

function onError(error) {
  if (error.seq !== undefined) {
    console.warn("pointer refused:", error);
    return;
  }
  const entry = settle(null, true);
  if (entry?.field === "network") {
    lab.refused(error);
    return;
  }
  if (entry?.kind === "join") {
    $("watch-state").textContent = error.message;
    return;
  }
  // A scene request's refusal, or one only a scene message can cause (when an unsolicited
  // scene-state settled the request first), goes to the scene panel.
  if (entry?.kind === "scene" || SCENE_ERRORS.has(error.code) || (entry?.kind === "play" && sceneModel.active)) {
    scenePanel.showError(`${error.code}: ${error.message}`);
    return;
  }
  const field = error.field ?? entry?.field ?? "*";
  formFor(field).showError(field, error.message);
}

function applyConfig(config) {
  state.config = config;
  state.container = config.container;
  // The herb whose card sits at the origin frame is the one the pop opens.
  const [x, y] = config.originFrame;
  const index = HERBS.findIndex((_, i) => {
    const [cx, cy] = cardFrame(i, state.scroll, state.container);
    return Math.abs(cx - x) < 0.5 && Math.abs(cy - y) < 0.5;
  });
  if (index >= 0) state.selected = index;
  settings.show(config);
  releaseRules.show(config);
  hud.setThreshold(config.threshold);
  layout();
}

// MARK: - Taps and the strip

function atRest() {
  return state.frame !== null && RESTING.has(state.frame.phase);
}

function onTap(x, y) {
  // In a scene a tap plays nothing (as a tap on an app's screen presents nothing): the panel's
  // buttons do, and "Play armed" plays what the next pan would drive.
  if (state.role !== "driver" || !atRest() || sceneModel.active) return;
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
      scrollStrip(cx < 0 ? -1 : 1);
      return;
    }
    state.selected = index;
    sceneVersion += 1;
    configure({ originFrame: cardFrame(index, state.scroll, state.container) }, "*");
  }
  play();
}

/** Scrolls the strip by whole cards. The origin frame stays put; the herb under it changes. */
function scrollStrip(step) {
  const scroll = Math.min(Math.max(state.scroll + step, 0), HERBS.length - 3);
  if (scroll === state.scroll) return;
  state.selected += scroll - state.scroll;
  state.scroll = scroll;
  sceneVersion += 1;
}

screen.addEventListener("wheel", (event) => {
  if (sceneModel.active || state.config?.transition !== "pop" || state.config.operation !== "present" || !atRest()) return;
  event.preventDefault();
  scrollStrip(Math.sign(event.deltaY || event.deltaX));
}, { passive: false });

// MARK: - Input, layout and drawing

/**
 * A pointer's position in the points the server wants: the canvas point under it, mapped back
 * through the device's turn and the root's transform of the picture the user sees (the last
 * drawing's), so in a scene it is in interface coordinates (those of `scene.root.bounds`).
 */
function toContainer(clientX, clientY) {
  const rect = screen.getBoundingClientRect();
  const view = state.view ?? geometry();
  return apply(view.inverse, (clientX - rect.left) / cssScale, (clientY - rect.top) / cssScale);
}

const input = new PointerInput(screen, toContainer, {
  pointer: sendPointer,
  tap: onTap,
  enabled: () => state.role === "driver" && connection.isOpen,
});

/**
 * What the canvas shows and how (orientation.js): in a scene, the device's screen as the user
 * sees it (turned by the device) with the interface inside it (the frame's `scene.root`);
 * otherwise the session's container, drawn as it is.
 */
function geometry() {
  if (!sceneModel.active) {
    return { size: [...state.container], matrix: [...IDENTITY], inverse: [...IDENTITY], bounds: [...state.container] };
  }
  const frame = state.shown ?? state.frame;  // the picture the user sees (lab.js may draw an older state)
  return viewGeometry(sceneModel.state.size, sceneModel.deviceTurns, frame?.scene?.root ?? null);
}

/** The canvas's size in points: the scene's device screen, turned as the user holds it, else the container. */
function screenSize() {
  return geometry().size;
}

function layout() {
  const size = screenSize();
  const [w, h] = size;
  const stage = screen.closest(".stage").getBoundingClientRect();
  const narrow = window.innerWidth <= 760;
  const availableHeight = narrow ? Infinity : window.innerHeight - stage.top - 70;
  const scale = Math.max(Math.min((stage.width - 16) / w, availableHeight / h), 0.25);
  const dpr = window.devicePixelRatio || 1;
  cssScale = scale;
  renderer.resize(size, scale, dpr);
  state.drawnFrame = null;
}
window.addEventListener("resize", layout);

let lastPanels = 0;
let drawnScene = -1;

function render(now) {
  requestAnimationFrame(render);  // first: a frame the page cannot draw must not stop the loop
  const shown = lab.vsync(now);
  if (shown !== state.drawnFrame || drawnScene !== sceneVersion) {
    state.shown = shown;
    const scene = {
      kind: state.config?.transition ?? "pop", selected: state.selected, scroll: state.scroll, logo: state.logo,
      cards: sceneCards,
    };
    const view = geometry();
    renderer.setView(view.matrix);
    renderer.draw(shown, scene);
    state.view = view;
    showOrientation();
    state.drawnFrame = shown;
    drawnScene = sceneVersion;
    hud.showFrame();
    releaseRules.showFrame();
  }
  hud.drawPlot(window.devicePixelRatio || 1);
  scenePanel.update();
  orientationPanel.update();
  if (now - lastPanels > 250) {
    lastPanels = now;
    showLatency(now);
    lab.show(window.devicePixelRatio || 1);
  }
}

const deviceElement = $("device");
const caption = $("orientation-caption");

/** The device outline's top edge and flat state, and the caption under it: device vs interface, a turn in progress. */
function showOrientation() {
  const orientation = sceneModel.orientation;
  const top = deviceTopEdge(sceneModel.deviceTurns);
  if (deviceElement.dataset.top !== top) deviceElement.dataset.top = top;
  const flat = orientation && ["faceUp", "faceDown"].includes(orientation.device) ? orientation.device : "";
  if (deviceElement.dataset.flat !== flat) deviceElement.dataset.flat = flat;
  caption.hidden = !orientation;
  if (!orientation) return;
  const root = state.frame?.scene?.root;
  let text = `device ${orientation.device}${flat ? " (lying flat)" : ""} · interface ${orientation.interface}`;
  if (root?.rotating) {
    text += ` · rotating ${root.rotating.from} → ${root.rotating.to} ${Math.round(root.rotating.fraction * 100)} %`;
  }
  if (caption.textContent !== text) caption.textContent = text;
}

function ms(value) {
  return Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : "—";
}

function showLatency(now) {
  const summary = latency.summary();
  for (const part of ["total", "network", "server"]) {
    $(`lat-${part}-p50`).textContent = ms(summary[part].p50);
    $(`lat-${part}-p99`).textContent = ms(summary[part].p99);
  }
  $("lat-count").textContent = String(summary.count);
  $("frame-rate").textContent = String(latency.frameRate(now));
}

// MARK: - Recording and watching

const recordButton = $("record");
const download = $("download");

function showRecordState(text) {
  const recording = recorder.state === "armed" || recorder.state === "recording";
  recordButton.setAttribute("aria-pressed", String(recording));
  recordButton.textContent = recording ? "Stop recording" : "Record the next drag";
  if (text) $("record-state").textContent = text;
  else if (recorder.state === "armed") $("record-state").textContent = "Armed: the next drag is recorded.";
  else if (recorder.state === "recording") $("record-state").textContent = "Recording until the transition rests…";
}

recordButton.addEventListener("click", () => {
  if (recorder.state === "armed" || recorder.state === "recording") {
    recorder.cancel();
    showRecordState("Recording stopped; nothing saved.");
    return;
  }
  if (!state.config || state.role !== "driver") return;
  if (sceneModel.active) {
    showRecordState("A scene's gestures are not recorded: scene scripts are written by hand (docs/SCRIPTS.md).");
    return;
  }
  download.hidden = true;
  recorder.arm(state.config);
  showRecordState();
});

function recordingDone(script) {
  const blob = new Blob([`${JSON.stringify(script, null, 2)}\n`], { type: "application/json" });
  if (download.href) URL.revokeObjectURL(download.href);
  download.href = URL.createObjectURL(blob);
  download.download = `${script.name}.json`;
  download.hidden = false;
  const moves = script.steps.reduce((n, step) => n + (step.samples?.length ?? 0), 0);
  showRecordState(`Recorded ${moves} moves; outcome ${script.expect.outcome}. Replay: sandbox pan FILE --url ${wsURL}`);
}

$("watch").addEventListener("submit", (event) => {
  event.preventDefault();
  const id = event.target.elements.session.value.trim();
  if (!id) return;
  $("watch-state").textContent = `Joining ${id}…`;
  // Behind a balancer (docs/DEPLOY.md) only the process hosting the session can join it: the
  // socket is reopened with ?session=ID, which HAProxy routes on, and the join follows the
  // welcome. Without a balancer the query changes nothing.
  pendingJoin = id;
  connection.url = `${wsURL}?session=${encodeURIComponent(id)}`;
  connection.reconnect();
});

$("own-session").addEventListener("click", () => {
  pendingJoin = null;
  connection.url = wsURL;
  connection.reconnect();
});

// A read-only view for tests and the curious (`sandbox` in the console).
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
  /** The latest frame, whole (deltas applied), and the deltas that could not be applied (issue 15). */
  get frame() { return state.frame; },
  get deltasDropped() { return frames.dropped; },
  get outcomes() { return [...state.outcomes]; },
  get pendingRequests() { return state.requests.length; },
  get config() { return state.config; },
  get latency() { return latency.summary(); },
  get recording() { return recorder.script; },
  get selected() { return state.selected; },
  get scene() { return sceneModel.state; },
  get lifecycle() { return sceneModel.lifecycle; },
  get frameScene() { return state.frame?.scene ?? null; },
  get screenSize() { return [...screenSize()]; },
  get orientation() { return sceneModel.orientation; },
  get frameRoot() { return state.frame?.scene?.root ?? null; },
  get deviceTurns() { return sceneModel.deviceTurns; },
  get lastPointer() { return state.lastPointer; },
  /** The projection rule's rest point of the last release (issue 14), or null. */
  get projected() { return hud.projected; },
  /** The network lab (issue 13): link, motion-to-photon per smoothing mode, the buffer's estimates. */
  get lab() { return lab.summary(); },
  get shownProgress() { return state.shown?.progress ?? null; },
  get shownPhase() { return state.shown?.phase ?? null; },
  get shownRoot() { return state.shown?.scene?.root ?? null; },
  clearLab() { lab.clear(); latency.restart(); },
  /** Interface points (a scene's) → canvas points as last drawn, and back. */
  interfaceToView(x, y) { return apply((state.view ?? geometry()).matrix, x, y); },
  viewToInterface(x, y) { return apply((state.view ?? geometry()).inverse, x, y); },
  controllerColour(id) { return controllerColour(id); },
  containerToClient(x, y) {
    const rect = screen.getBoundingClientRect();
    return [rect.left + x * cssScale, rect.top + y * cssScale];
  },
};

layout();
connection.open();
requestAnimationFrame(render);
