// The timeline panel: the list of kept gestures, the plot (timelineView.js) to scrub with a
// pointer, the step / play / rate / live controls (← → are shortcuts.js's), the shown frame's numbers
// and the lifecycle callbacks in order. It asks `page.timeline` to change what is shown and
// redraws when the history or the timeline changed.

import { RATES } from "./playback.js";
import { drawTimeline, frameIndexAt, lifecycleLines } from "./timelineView.js";

const RATE_NAMES = new Map([[1, "1×"], [0.5, "½×"], [0.25, "¼×"], [0.1, "⅒×"]]);
/** A gesture growing live redraws the plot at most this often (ms); the frame shown moving, at once. */
const GROWING_EVERY_MS = 200;
const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "—");

export class TimelinePanel {
  /** @param page {{history, timeline}} */
  constructor(page, document) {
    this.page = page;
    const $ = (id) => document.getElementById(id);
    this.list = $("timeline-gesture");
    this.plot = $("timeline-plot");
    this.readout = $("timeline-frame");
    this.callbacks = $("timeline-lifecycle");
    this.playButton = $("timeline-play");
    this.liveButton = $("timeline-live");
    this.rateSelect = $("timeline-rate");
    this.drawn = null;  // what the plot last showed: "revision:gesture:index:width"
    this.drawnView = null;  // the same without the revision
    this.drawnAt = -Infinity;
    for (const rate of RATES) this.rateSelect.add(new Option(RATE_NAMES.get(rate), String(rate)));
    this.list.addEventListener("change", () => {
      if (this.list.value === "") page.timeline.goLive();
      else page.timeline.select(Number(this.list.value));
    });
    $("timeline-back").addEventListener("click", () => page.timeline.step(-1));
    $("timeline-forward").addEventListener("click", () => page.timeline.step(1));
    this.playButton.addEventListener("click", () => page.timeline.togglePlay(this.rate));
    this.liveButton.addEventListener("click", () => page.timeline.goLive());
    this.rateSelect.addEventListener("change", () => {
      if (page.timeline.playing) page.timeline.play(this.rate);
      else page.timeline.rate = this.rate;
    });
    this.scrubbing(this.plot);
    page.history.onChange(() => this.fillList());
    page.timeline.onChange(() => this.showMode());
    this.fillList();
    this.showMode();
    requestAnimationFrame((now) => this.loop(now));
  }

  get rate() {
    return Number(this.rateSelect.value);
  }

  /** A pointer down on the plot, and its moves while down, show the frame nearest in time. */
  scrubbing(canvas) {
    let down = false;
    const show = (event) => {
      const gesture = this.page.timeline.gesture ?? this.page.history.list().at(-1);
      if (!gesture || gesture.frames.length === 0) return;
      const x = event.clientX - canvas.getBoundingClientRect().left;
      if (this.page.history.selectedId !== gesture.id) this.page.history.select(gesture.id);
      this.page.timeline.showFrame(frameIndexAt(gesture, x, canvas.clientWidth));
    };
    canvas.addEventListener("pointerdown", (event) => {
      down = true;
      canvas.setPointerCapture(event.pointerId);
      show(event);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (down) show(event);
    });
    const end = () => {
      down = false;
    };
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);
  }

  /** The gesture list: "live" first, then the kept gestures, newest first. */
  fillList() {
    const { history } = this.page;
    const options = [new Option("live", "")];
    for (const gesture of history.list().reverse()) {
      const outcome = gesture.decision ? ` → ${gesture.decision.outcome} (${gesture.decision.reason})` : "";
      options.push(new Option(`#${gesture.id} ${gesture.kind}: ${gesture.label}${outcome}`, String(gesture.id)));
    }
    this.list.replaceChildren(...options);
    this.list.value = this.page.timeline.inspecting ? String(history.selectedId) : "";
  }

  /** The controls and the numbers follow the mode and the frame shown. */
  showMode() {
    const { timeline, history } = this.page;
    this.playButton.textContent = timeline.playing ? "Pause" : "Play";
    this.rateSelect.value = String(timeline.rate);
    this.liveButton.disabled = !timeline.inspecting;
    this.list.value = timeline.inspecting ? String(history.selectedId) : "";
    const entry = timeline.entry;
    if (!entry) {
      this.readout.textContent = "live: the latest frame as it arrives";
      return;
    }
    const gesture = timeline.gesture;
    const { frame } = entry;
    this.readout.textContent = `frame ${timeline.index + 1} / ${gesture.frames.length} · n ${entry.n}`
      + ` · progress ${fixed(frame.progress, 3)} · ${frame.phase}`
      + ` · +${fixed(entry.sent - (gesture.frames[0]?.sent ?? entry.sent), 1)} ms into the gesture`
      + ` · arrived +${fixed(entry.arrivedAt - gesture.startedAt, 1)} ms`;
  }

  /** Redraws the plot when the gesture shown grew, another was chosen, or the frame shown moved. */
  loop(now) {
    requestAnimationFrame((next) => this.loop(next));
    const { history, timeline } = this.page;
    const gesture = timeline.gesture ?? history.list().at(-1) ?? null;
    const view = `${gesture?.id}:${timeline.index}:${this.plot.clientWidth}`;
    const key = `${history.revision}:${view}`;
    if (key === this.drawn) return;
    if (view === this.drawnView && now - this.drawnAt < GROWING_EVERY_MS) return;  // only grew: later
    this.drawn = key;
    this.drawnView = view;
    this.drawnAt = now;
    drawTimeline(this.plot, gesture, timeline.index, window.devicePixelRatio || 1);
    const lines = gesture ? lifecycleLines(gesture) : [];
    if (this.callbacks.childElementCount !== lines.length || this.callbacksOf !== gesture?.id) {
      this.callbacksOf = gesture?.id;
      this.callbacks.replaceChildren(...lines.map((text) => {
        const item = this.callbacks.ownerDocument.createElement("li");
        item.textContent = text;
        return item;
      }));
    }
  }
}
