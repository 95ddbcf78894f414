// The drawing: what the canvas shows and at what scale (the view's geometry), the
// requestAnimationFrame loop that draws the latest state and refreshes the panels, the fast
// path that draws a tracking frame as it arrives, and the mapping between client, canvas and
// interface points that pointers and tests use.
//
// The fast path: on a low-latency canvas (canvas.js) a frame answering the driver's pointer
// while tracking is drawn as soon as it is assembled, when that frame is what the page shows
// (`latest` smoothing, or `hybrid` while tracking; the timeline live; no scene change waiting
// for layout): what is drawn goes to the screen without waiting for the page's next composited
// frame. Everything the server animates on its own (completions, rotations) and every other mode
// stays on requestAnimationFrame: those frames arrive with the link's jitter and drawing them as
// they come would show that jitter, where a vsync-paced draw (and the buffers) keep the steps
// even. On an ordinary canvas drawing early gains nothing (the picture still waits for the next
// frame), so there is no fast path. The HUD's text, plot and the panels are written at most
// every HUD_EVERY_MS / PANELS_EVERY_MS from requestAnimationFrame, never on the fast path.
// test_page_latency.py holds both paths. In the predicted mode the picture predicted for a
// pointer message is drawn on the fast path as the message is sent (prediction.js).

import { IDENTITY, apply, deviceTopEdge, viewGeometry } from "./orientation.js";

const PANELS_EVERY_MS = 250;
const HUD_EVERY_MS = 100;

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
    this.lastHud = -Infinity;
    this.hudFrame = null;  // the frame whose numbers the HUD shows
    this.drawnScene = -1;
    this.rect = null;      // the screen canvas's client rectangle, read at a pointer's down (toContainer)
    this.fastDraws = 0;    // frames drawn as they arrived
    document.addEventListener("scroll", () => { this.rect = null; }, { capture: true, passive: true });
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
   * The canvas's rectangle is read when `fresh` (a pointer's down) or after a layout or scroll,
   * so a move never forces a layout the page's last writes left pending.
   */
  toContainer(clientX, clientY, fresh = true) {
    if (fresh || !this.rect) this.rect = this.page.screen.getBoundingClientRect();
    const rect = this.rect;
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
    // At phone width the stage's parts are main's own rows (style.css): its box is main's, less
    // main's padding.
    const column = screen.closest(".stage");
    const contents = getComputedStyle(column).display === "contents";
    const box = (contents ? column.parentElement : column).getBoundingClientRect();
    const padding = contents ? parseFloat(getComputedStyle(column.parentElement).paddingLeft) * 2 : 0;
    const stage = { top: box.top, width: box.width - padding };
    const narrow = window.innerWidth <= 760;
    // The timeline under the screen keeps its room (index.html's #timeline-area), at most 40 % of
    // the window's height (the page scrolls to the rest).
    const below = Math.min(document.getElementById("timeline-area")?.offsetHeight ?? 0, window.innerHeight * 0.4);
    // The stage's top in the document, not the viewport: a layout while the page is scrolled
    // (a setting changed further down) must size the screen as it would be at the top.
    const stageTop = stage.top + window.scrollY;
    const availableHeight = narrow ? Infinity : window.innerHeight - stageTop - 70 - below;
    const scale = Math.max(Math.min((stage.width - 16) / w, availableHeight / h), 0.25);
    const dpr = window.devicePixelRatio || 1;
    this.cssScale = scale;
    renderer.resize(size, scale, dpr);
    state.drawnFrame = null;
    this.rect = null;
  }

  /** One animation frame: draws what changed, the HUD every 100 ms, the slower panels every 250 ms. */
  render(now) {
    // First: a frame the page cannot draw must not stop the loop.
    requestAnimationFrame((next) => this.render(next));
    const { state, hud, lab, releaseRules, scenePanel, orientationPanel } = this.page;
    // The live frame (smoothed as chosen), unless the timeline holds a kept one (timeline.js).
    const shown = this.page.timeline.pick(lab.vsync(now), now);
    if (shown !== state.drawnFrame || this.drawnScene !== state.sceneVersion) this.paint(shown);
    // Layout reads (the plots' sizes) before text writes, so no read forces a layout the same
    // callback's writes left pending (a Chrome trace counts them: docs/PERFORMANCE.md).
    const hudDue = state.drawnFrame !== this.hudFrame && now - this.lastHud >= HUD_EVERY_MS;
    const panelsDue = now - this.lastPanels > PANELS_EVERY_MS;
    if (hudDue || panelsDue) hud.drawPlot(window.devicePixelRatio || 1);
    if (panelsDue) lab.drawHistogram(window.devicePixelRatio || 1);
    if (hudDue) {
      this.lastHud = now;
      this.hudFrame = state.drawnFrame;
      hud.showFrame();
      releaseRules.showFrame();
    }
    scenePanel.update();
    orientationPanel.update();
    if (panelsDue) {
      this.lastPanels = now;
      this.showLatency(now);
      lab.show();
    }
  }

  /** Draws `shown` on the screen canvas with the view's geometry; the panels follow in render(). */
  paint(shown) {
    const { state, renderer, sceneCards } = this.page;
    state.shown = shown;
    const scene = {
      kind: state.config?.transition ?? "pop", selected: state.selected, scroll: state.scroll, logo: state.logo,
      cards: sceneCards, overlay: this.page.sheetDetents,
    };
    const view = this.geometry();
    renderer.setView(view.matrix);
    renderer.draw(shown, scene);
    state.view = view;
    this.showOrientation();
    state.drawnFrame = shown;
    this.drawnScene = state.sceneVersion;
  }

  /**
   * The fast path for the predicted mode (docs/PAGE.md "Prediction"): a pointer message was just
   * sent and its predicted picture is drawn now, under the same conditions as a frame's.
   */
  predictionSent() {
    const { state, renderer, lab, timeline } = this.page;
    if (!renderer.lowLatency || state.role !== "driver" || timeline.inspecting) return false;
    if (this.drawnScene !== state.sceneVersion || this.document.hidden) return false;
    const picture = lab.predictionNow();
    if (!picture || picture === state.drawnFrame) return false;
    this.paint(picture);
    this.fastDraws += 1;
    lab.drawnPrediction(performance.now());
    return true;
  }

  /**
   * The fast path (above): a frame was just assembled (`index`-th of this page). Draws it now
   * when it may, and tells the lab when it was drawn; else the next animation frame draws.
   */
  arrived(frame, index) {
    const { state, renderer, lab, timeline } = this.page;
    const due = renderer.lowLatency && state.role === "driver" && frame.phase === "tracking"
      && lab.drawsAsItIs(index) && !timeline.inspecting && this.drawnScene === state.sceneVersion
      && state.frame === frame && !this.document.hidden;
    if (!due) return false;
    this.paint(frame);
    this.fastDraws += 1;
    lab.drawnOnArrival(index, performance.now());
    return true;
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
