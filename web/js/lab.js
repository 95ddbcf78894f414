// The network lab on the page, in one place so the receiver only forwards to it: the link
// presets (network.js), the server's clock (clock.js), smoothing (smoothing.js) and
// motion-to-photon (motionToPhoton.js), and the HUD section that shows them.

import { ClockSync } from "./clock.js";
import { MotionToPhoton, VsyncClock, drawHistogram } from "./motionToPhoton.js";
import { NetworkPanel, PRESETS, readLink } from "./network.js";
import { predictionText } from "./prediction.js";
import { MODES, Smoother } from "./smoothing.js";

const MODE_NAMES = {
  latest: "latest frame", interpolation: "interpolation buffer", hybrid: "hybrid (latest while tracking)",
  predicted: "predicted (client-side prediction)",
};

function ms(value) {
  return Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : "—";
}

const LOOPBACK = { delayMs: PRESETS[0].delayMs, jitterMs: PRESETS[0].jitterMs };
const sameLink = (a, b) => (a === null ? b === null : b !== null && a.delayMs === b.delayMs && a.jitterMs === b.jitterMs);

export class NetworkLab {
  /**
   * @param document the page
   * @param handlers {{send(message): boolean, request(message): boolean, linkChanged(): void}}
   *   send: a message outside the request bookkeeping (ping); request: a `configure {network}`
   *   whose answer (`link` or `error`) the page waits for; linkChanged: the server's echo says
   *   the link is a different one (the page's other figures start over too).
   */
  constructor(document, handlers) {
    this.document = document;
    this.handlers = handlers;
    this.clock = new ClockSync((message) => handlers.send(message));
    this.smoother = new Smoother();
    this.meter = new MotionToPhoton(MODES);
    this.vsyncClock = new VsyncClock();
    this.current = undefined;  // the server's echo, checked (null: a bad one); undefined before the first
    this.chosen = null;        // the link the user last chose here and the server took: asked for again after a reconnect
    this.asking = false;       // a link change is on its way
    this.panel = new NetworkPanel(document, (network) => this.ask(network));
    this.modeSelect = document.getElementById("smoothing");
    this.modeSelect.addEventListener("change", () => this.smoother.setMode(this.modeSelect.value));
    this.smoother.setMode(this.modeSelect.value);
    this.histogram = document.getElementById("mtp-histogram");
    this.interval = 1000 / 60;
  }

  // MARK: - The connection

  opened() {
    this.meter.reset();
    this.smoother.reset();
    this.clock.start();
  }

  /** Watching another session: its frames acknowledge its driver's pointer seqs, not this page's. */
  joined() {
    this.smoother.predictor.reset();  // a viewer predicts nothing
    this.smoother.inputs.clear();
    this.smoother.lastAck = null;
    this.meter.reset();
  }

  closed() {
    this.clock.stop();
  }

  /**
   * A new session's `welcome`: the connection starts on loopback unless a `link` message
   * follows (a server started with `--network`). A link the user chose on this page before a
   * reconnect is asked for again.
   */
  welcome() {
    this.asking = false;
    this.link(LOOPBACK);
    this.handlers.send({ type: "configure", prediction: true });  // the tracking table (prediction.js)
    if (this.chosen) this.ask({ delayMs: this.chosen.delayMs, jitterMs: this.chosen.jitterMs });
  }

  ask(network) {
    this.asking = this.handlers.request({ type: "configure", network });
    return this.asking;
  }

  /** The server's `link` message: this connection's link is now `network`. */
  link(network) {
    const link = readLink(network);
    if (this.asking && link) this.chosen = link;
    this.asking = false;
    this.panel.show(network);
    if (this.current !== undefined && !sameLink(this.current, link)) {
      this.meter.clear();
      this.smoother.clearFigures();
      this.clock.linkChanged();
      this.handlers.linkChanged();
    }
    this.current = link;
  }

  /** The server refused a link change: the message goes under the selector. */
  refused(error) {
    this.asking = false;
    this.panel.showError(`${error.code ?? "error"}: ${error.message ?? ""}`);
  }

  pong(message, at) {
    this.clock.pong(message, at);
  }

  // MARK: - Pointers and frames

  pointerSent(seq, t0, sentAt, message) {
    this.meter.sent(seq, t0, sentAt);
    this.smoother.sent(seq, t0, message);
  }

  /** The server's `prediction` message: the tracking table of the session this page drives. */
  prediction(table) {
    this.smoother.predictor.table(table);
  }

  frame(frame, at, index) {
    this.smoother.frame(frame, at, index, this.clock.offset);
    this.meter.frame(frame, at, index);
  }

  /**
   * Whether the selected mode shows the `index`-th frame as it is, now (display.js's fast path
   * may draw it): `latest` always; `hybrid` when that frame answers this page's pointer (the
   * buffer's newest, placed at its event), as smoothing.js's hybrid draws while tracking.
   */
  drawsAsItIs(index) {
    const { mode, buffer } = this.smoother;
    if (mode === "latest") return true;
    const newest = buffer[buffer.length - 1];
    return mode === "hybrid" && newest?.index === index && newest.kind === "track";
  }

  /**
   * The fast path drew the `index`-th frame at page time `at`, on a low-latency canvas: the
   * selected mode has reached it, and its photon is the next vsync (motionToPhoton.js).
   */
  drawnOnArrival(index, at) {
    const { mode, reached } = this.smoother;
    reached[mode] = Math.max(reached[mode], index);
    this.meter.reach(mode, index, this.vsyncClock.next(at));
  }

  /**
   * The predicted mode's picture for the pointer message just sent, when it is a prediction
   * (display.js draws it at once on a low-latency canvas); null otherwise.
   */
  predictionNow() {
    if (this.smoother.mode !== "predicted") return null;
    const picture = this.smoother.predictor.picture(this.smoother.latest?.frame ?? null);
    return picture?.predicted ? picture : null;
  }

  /** The fast path drew the newest prediction at page time `at`: its events reach the glass at the next vsync. */
  drawnPrediction(at) {
    this.meter.ahead("predicted", this.smoother.predictor.shownSeq, this.vsyncClock.next(at));
  }

  /** One requestAnimationFrame at `now`: the frame to draw in the selected mode. */
  vsync(now) {
    this.interval = this.vsyncClock.tick(now);
    const shown = this.smoother.vsync(now, this.clock.offset);
    this.meter.vsync(now, this.interval, this.smoother.reached, { predicted: this.smoother.predictor.shownSeq });
    return shown;
  }

  // MARK: - The HUD

  /** Draws the histogram of the selected mode's totals (every 250 ms, before show() writes text). */
  drawHistogram(dpr) {
    const figures = this.meter.summary()[this.smoother.mode];
    drawHistogram(this.histogram, this.meter.totals(this.smoother.mode), figures.total.p50, figures.total.p99, dpr);
  }

  /** Writes the figures (every 250 ms, from requestAnimationFrame). */
  show() {
    const $ = (id) => this.document.getElementById(id);
    const mode = this.smoother.mode;
    const all = this.meter.summary();
    const figures = all[mode];
    $("mtp-mode").textContent = MODE_NAMES[mode];
    for (const part of ["total", "network", "simulated", "real", "server", "page", "input", "draw"]) {
      $(`mtp-${part}-p50`).textContent = ms(figures[part].p50);
      $(`mtp-${part}-p99`).textContent = ms(figures[part].p99);
    }
    $("mtp-count").textContent = String(figures.count);
    const smooth = this.smoother.summary();
    for (const each of MODES) {
      const row = all[each].total;
      $(`cmp-${each}-p50`).textContent = ms(row.p50);
      $(`cmp-${each}-p99`).textContent = ms(row.p99);
      $(`cmp-${each}-added`).textContent = each === "latest" ? "—" : ms(row.p50 - all.latest.total.p50);
      const spread = smooth.spread[each];
      $(`cmp-${each}-spread`).textContent = Number.isFinite(spread) ? spread.toFixed(2) : "—";
    }
    const B = smooth.buffers[mode] ?? smooth.B;
    $("lab-buffer").textContent = B === null || B === undefined ? "—" : ms(B);
    $("lab-transit").textContent = smooth.transit === null ? "—" : `${ms(smooth.transit)} ± ${ms(smooth.deviation)}`;
    $("lab-lag").textContent = smooth.lag === null ? "—" : `${ms(smooth.lag)} ± ${ms(smooth.lagDeviation)}`;
    $("lab-gap").textContent = ms(smooth.gap);
    $("lab-ping").textContent = ms(this.clock.rtt);
    $("lab-vsync").textContent = ms(this.interval);
    $("lab-prediction").textContent = predictionText(this.smoother.predictor.summary());
  }

  /** For tests and the console (`sandbox.lab`). */
  summary() {
    return {
      link: this.current ?? null,
      mode: this.smoother.mode,
      motionToPhoton: this.meter.summary(),
      smoothing: this.smoother.summary(),
      clock: { offset: this.clock.offset, rtt: this.clock.rtt },
      vsync: this.interval,
    };
  }

  /** The figures start over (the lab script, between runs). */
  clear() {
    this.meter.clear();
    this.smoother.clearFigures();
  }
}
