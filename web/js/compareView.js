// One side of compare mode: its own WebSocket, session, settings, frames and canvas. It sends
// its preset's setup once welcomed, the pointer messages compare.js fans out to it (with this
// connection's own seq), and draws its latest whole frame with the page's renderer. It knows
// only the wire protocol (docs/PROTOCOL.md). test_inspector_compare.py.

import { Connection } from "./connection.js";
import { FrameAssembler } from "./frameAssembler.js";
import { IDENTITY, apply, viewGeometry } from "./orientation.js";
import { Renderer } from "./renderer.js";
import { SceneModel } from "./scene.js";
import { SceneCards } from "./sceneCards.js";

const round = (value) => Math.round(value * 100) / 100;

export class CompareView {
  /**
   * @param elements {{canvas: HTMLCanvasElement, title: Element, settings: Element, decision: Element,
   *   configure: HTMLFormElement}}
   * @param url the server's WebSocket URL
   */
  constructor(elements, url) {
    this.elements = elements;
    this.url = url;
    this.renderer = new Renderer(elements.canvas);
    this.frames = new FrameAssembler();
    this.sceneModel = new SceneModel();
    this.cards = new SceneCards(this.sceneModel);
    this.connection = null;
    this.setup = [];
    this.reset();
    elements.configure.addEventListener("submit", (event) => {
      event.preventDefault();
      this.configure(elements.configure.elements.patch.value);
    });
  }

  /** This side's own `configure`, typed as a JSON object; the server checks it, as ever. */
  configure(text) {
    let patch;
    try {
      patch = JSON.parse(text);
    } catch {
      this.elements.decision.textContent = "configure: not a JSON object";
      return;
    }
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) {
      this.elements.decision.textContent = "configure: not a JSON object";
      return;
    }
    this.connection?.send({ ...patch, type: "configure" });
  }

  reset() {
    this.session = null;
    this.config = null;
    this.frame = null;
    this.drawn = null;
    this.logo = null;
    this.seq = 0;
    this.ack = 0;
    this.released = null;  // the last `released` event
    this.outcomes = [];    // finished / cancelled, in order
    this.errors = [];      // the server's refusals, in order
    this.pending = 0;      // setup messages not answered yet
    this.frames.reset();
    this.sceneModel.reset();
  }

  /** Opens a fresh session and sends `setup` (configure, scene, present…) once welcomed. */
  open(title, setup) {
    this.close();
    this.reset();
    this.setup = setup;
    this.elements.title.textContent = title;
    this.elements.decision.textContent = "drag either side: both sessions get the same pointer stream";
    this.connection = new Connection(this.url, {
      onOpen: () => {},
      onMessage: (message) => this.message(message),
      onState: () => {},
    });
    this.connection.open();
  }

  close() {
    const connection = this.connection;
    this.connection = null;
    if (!connection) return;
    connection.handlers.onState = () => {};
    clearTimeout(connection.retryTimer);
    connection.socket?.close(1000, "compare closed");
    connection.socket = null;  // no reconnect
  }

  get isOpen() {
    return this.connection?.isOpen === true;
  }

  /** Set up, every setup message answered, and the session at rest. */
  get ready() {
    return this.isOpen && this.session !== null && this.pending === 0;
  }

  message(message) {
    switch (message.type) {
      case "welcome":
        this.session = message.session;
        this.logo = message.shapes?.logo ?? null;
        this.config = message.config;
        this.pending = this.setup.length;
        for (const each of this.setup) this.connection.send(each);
        break;
      case "configured":
        this.config = message.config;
        this.settled();
        break;
      case "scene-state":
        this.sceneModel.applyState(message);
        this.settled();
        break;
      case "lifecycle":
        this.sceneModel.applyLifecycle(message);
        break;
      case "frame": {
        const frame = this.frames.apply(message);
        if (!frame) break;
        this.frame = frame;
        if (frame.ack !== null && frame.ack !== undefined) this.ack = Math.max(this.ack, frame.ack);
        break;
      }
      case "transition":
        this.transition(message);
        break;
      case "error":
        this.errors.push(message);
        this.settled();
        this.elements.decision.textContent = `refused: ${message.message}`;
        break;
      default:
        break;
    }
    this.showSettings();
  }

  settled() {
    if (this.pending > 0) this.pending -= 1;
  }

  transition(event) {
    if (event.event === "released") {
      this.released = event;
      const projected = typeof event.projected === "number" ? `, projected ${event.projected.toFixed(3)}` : "";
      this.elements.decision.textContent =
        `${event.decision} (${event.reason}) at ${event.progress.toFixed(3)}, ` +
        `velocity ${event.velocity.toFixed(2)}/s${projected}`;
    }
    if (event.event === "finished" || event.event === "cancelled") this.outcomes.push(event.event);
  }

  /** The settings a comparison is about, in one line. */
  showSettings() {
    const c = this.config;
    if (!c) return;
    const scene = this.sceneModel.state ? ` · scene (${this.sceneModel.state.device ?? "phone"})` : "";
    this.elements.settings.textContent =
      `${c.transition} · ${c.releaseRule} · threshold ${c.threshold} · ${c.driver}` +
      ` · timeScale ${c.timeScale ?? 1}${scene}`;
  }

  /** What the canvas shows: the scene's device screen, else the session's container. */
  geometry() {
    if (!this.sceneModel.active) {
      const size = [...(this.config?.container ?? [390, 844])];
      return { size, matrix: [...IDENTITY], inverse: [...IDENTITY] };
    }
    return viewGeometry(this.sceneModel.state.size, this.sceneModel.deviceTurns, this.frame?.scene?.root ?? null);
  }

  /** Sizes the canvas to fit `width` × `height` CSS px. */
  layout(width, height) {
    const [w, h] = this.geometry().size;
    this.cssScale = Math.max(Math.min(width / w, height / h), 0.1);
    this.renderer.resize([w, h], this.cssScale, window.devicePixelRatio || 1);
    this.drawn = null;
  }

  /** A client position on this side's canvas in the points the server wants. */
  toContainer(clientX, clientY) {
    const rect = this.elements.canvas.getBoundingClientRect();
    const inverse = this.geometry().inverse;
    return apply(inverse, (clientX - rect.left) / this.cssScale, (clientY - rect.top) / this.cssScale);
  }

  /** A container point's client position (tests aim pointers with it). */
  containerToClient(x, y) {
    const rect = this.elements.canvas.getBoundingClientRect();
    const [vx, vy] = apply(this.geometry().matrix, x, y);
    return [rect.left + vx * this.cssScale, rect.top + vy * this.cssScale];
  }

  /** Draws the latest frame if it changed. */
  render() {
    if (this.frame === this.drawn) return;
    const view = this.geometry();
    this.renderer.setView(view.matrix);
    this.renderer.draw(this.frame, {
      kind: this.config?.transition ?? "pop", selected: 1, scroll: 0, logo: this.logo, cards: this.cards,
    });
    this.drawn = this.frame;
  }

  /** The same pointer message as the other side gets, with this connection's own seq. */
  pointer(phase, x, y, t, pointerId) {
    if (!this.isOpen) return;
    this.seq += 1;
    this.connection.send({
      type: "pointer", phase, x: round(x), y: round(y), t: Number(t.toFixed(3)), seq: this.seq, pointerId,
    });
  }

  play() {
    this.connection?.send({ type: "play" });
  }

  summary() {
    return {
      session: this.session, ready: this.ready, config: this.config, seq: this.seq, ack: this.ack,
      phase: this.frame?.phase ?? null, progress: this.frame?.progress ?? null, frameNumber: this.frame?.n ?? null,
      released: this.released, outcomes: [...this.outcomes], errors: this.errors.map((e) => e.code),
      scene: this.sceneModel.active, ios: this.sceneModel.state?.ios ?? null,
      styles: (this.sceneModel.state?.presentations ?? []).map((entry) => entry.style),
    };
  }
}
