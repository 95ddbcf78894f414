// The drawing: what the canvas shows and at what scale (the view's geometry), the
// requestAnimationFrame loop that draws the latest state and refreshes the panels, and the
// mapping between client, canvas and interface points that pointers and tests use.

import { IDENTITY, apply, deviceTopEdge, viewGeometry } from "./orientation.js";

const PANELS_EVERY_MS = 250;

function ms(value) {
  return Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : "—";
}

export class Display {
  /**
   * @param page {{state, screen, renderer, hud, latency, lab, releaseRules, sceneModel, sceneCards,
   *   scenePanel, orientationPanel}}
   */
  constructor(page, document) {
    this.page = page;
    this.document = document;
    this.cssScale = 1;
    this.lastPanels = 0;
    this.drawnScene = -1;
    this.device = document.getElementById("device");
    this.caption = document.getElementById("orientation-caption");
  }

  /**
   * What the canvas shows and how (orientation.js): in a scene, the device's screen as the user
   * sees it (turned by the device) with the interface inside it (the frame's `scene.root`);
   * otherwise the session's container, drawn as it is.
   */
  geometry() {
    const { state, sceneModel } = this.page;
    if (!sceneModel.active) {
      const size = [...state.container];
      return { size, matrix: [...IDENTITY], inverse: [...IDENTITY], bounds: [...state.container] };
    }
    const frame = state.shown ?? state.frame;  // the picture the user sees (lab.js may draw an older state)
    return viewGeometry(sceneModel.state.size, sceneModel.deviceTurns, frame?.scene?.root ?? null);
  }

  /** The canvas's size in points: the scene's device screen, turned as the user holds it, else the container. */
  screenSize() {
    return this.geometry().size;
  }

  /** The geometry of the picture last drawn (pointers invert it), or the current one before any drawing. */
  get view() {
    return this.page.state.view ?? this.geometry();
  }

  /**
   * A pointer's position in the points the server wants: the canvas point under it, mapped back
   * through the device's turn and the root's transform of the picture the user sees (the last
   * drawing's), so in a scene it is in interface coordinates (those of `scene.root.bounds`).
   */
  toContainer(clientX, clientY) {
    const rect = this.page.screen.getBoundingClientRect();
    return apply(this.view.inverse, (clientX - rect.left) / this.cssScale, (clientY - rect.top) / this.cssScale);
  }

  /** A canvas point's client position (tests aim pointers with it). */
  containerToClient(x, y) {
    const rect = this.page.screen.getBoundingClientRect();
    return [rect.left + x * this.cssScale, rect.top + y * this.cssScale];
  }

  layout() {
    const { screen, renderer, state } = this.page;
    const size = this.screenSize();
    const [w, h] = size;
    const stage = screen.closest(".stage").getBoundingClientRect();
    const narrow = window.innerWidth <= 760;
    // The timeline under the screen keeps its room (index.html's #timeline-area), at most 40 % of
    // the window's height (the page scrolls to the rest).
    const below = Math.min(document.getElementById("timeline-area")?.offsetHeight ?? 0, window.innerHeight * 0.4);
    const availableHeight = narrow ? Infinity : window.innerHeight - stage.top - 70 - below;
    const scale = Math.max(Math.min((stage.width - 16) / w, availableHeight / h), 0.25);
    const dpr = window.devicePixelRatio || 1;
    this.cssScale = scale;
    renderer.resize(size, scale, dpr);
    state.drawnFrame = null;
  }

  /** One animation frame: draws what changed, the plot always, the slower panels every 250 ms. */
  render(now) {
    // First: a frame the page cannot draw must not stop the loop.
    requestAnimationFrame((next) => this.render(next));
    const { state, renderer, hud, lab, releaseRules, sceneCards, scenePanel, orientationPanel } = this.page;
    // The live frame (smoothed as chosen), unless the timeline holds a kept one (timeline.js).
    const shown = this.page.timeline.pick(lab.vsync(now), now);
    if (shown !== state.drawnFrame || this.drawnScene !== state.sceneVersion) {
      state.shown = shown;
      const scene = {
        kind: state.config?.transition ?? "pop", selected: state.selected, scroll: state.scroll, logo: state.logo,
        cards: sceneCards,
      };
      const view = this.geometry();
      renderer.setView(view.matrix);
      renderer.draw(shown, scene);
      state.view = view;
      this.showOrientation();
      state.drawnFrame = shown;
      this.drawnScene = state.sceneVersion;
      hud.showFrame();
      releaseRules.showFrame();
    }
    hud.drawPlot(window.devicePixelRatio || 1);
    scenePanel.update();
    orientationPanel.update();
    if (now - this.lastPanels > PANELS_EVERY_MS) {
      this.lastPanels = now;
      this.showLatency(now);
      lab.show(window.devicePixelRatio || 1);
    }
  }

  /**
   * The device outline's top edge and flat state, and the caption under it: device vs
   * interface, a turn in progress.
   */
  showOrientation() {
    const { state, sceneModel } = this.page;
    const { device, caption } = this;
    const orientation = sceneModel.orientation;
    const top = deviceTopEdge(sceneModel.deviceTurns);
    if (device.dataset.top !== top) device.dataset.top = top;
    const flat = orientation && ["faceUp", "faceDown"].includes(orientation.device) ? orientation.device : "";
    if (device.dataset.flat !== flat) device.dataset.flat = flat;
    caption.hidden = !orientation;
    if (!orientation) return;
    const root = state.frame?.scene?.root;
    let text = `device ${orientation.device}${flat ? " (lying flat)" : ""} · interface ${orientation.interface}`;
    if (root?.rotating) {
      const { from, to, fraction } = root.rotating;
      text += ` · rotating ${from} → ${to} ${Math.round(fraction * 100)} %`;
    }
    if (caption.textContent !== text) caption.textContent = text;
  }

  showLatency(now) {
    const $ = (id) => this.document.getElementById(id);
    const { latency } = this.page;
    const summary = latency.summary();
    for (const part of ["total", "network", "server"]) {
      $(`lat-${part}-p50`).textContent = ms(summary[part].p50);
      $(`lat-${part}-p99`).textContent = ms(summary[part].p99);
    }
    $("lat-count").textContent = String(summary.count);
    $("frame-rate").textContent = String(latency.frameRate(now));
  }
}
