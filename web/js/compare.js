// Compare mode: two sessions side by side, each with its own settings (a preset, then any
// `configure` typed under its canvas), driven by
// one pointer stream — a drag on either canvas is sent to both sessions, with the same times
// and points, so the two decide the same gesture by their own rules. Entered by the "Compare"
// button; the page's own session is left as it was. Each side is a compareView.js.
// test_inspector_compare.py.

import { CompareView } from "./compareView.js";
import { PointerInput } from "./input.js";

const PUSH = { type: "configure", transition: "push", operation: "present" };
const SCENE_ROOT = { type: "scene", root: { id: "root", title: "Root" }, interruptible: false };
const presentSheet = (style) => ({
  type: "present", controller: { id: "sheet", title: style, presentationStyle: style }, interactive: true,
});

/** A controller presented with the default style (`automatic`: full screen before iOS 13, a page sheet from 13). */
const PRESENT_DEFAULT = { type: "present", controller: { id: "sheet", title: "automatic" }, interactive: true };

/**
 * Each preset: the question, and each side's title and setup messages (docs/PROTOCOL.md). The
 * iOS-version preset runs the same scene as iOS 12 and as iOS 13 (the scene's `ios`,
 * docs/SCENE.md "The iOS version"): the default style's present is full screen on one, a sheet
 * on the other.
 */
export const PRESETS = {
  "threshold-projection": {
    label: "release rule: threshold vs projection",
    sides: [
      ["threshold", [{ ...PUSH, releaseRule: "threshold" }]],
      ["projection", [{ ...PUSH, releaseRule: "projection" }]],
    ],
  },
  "percent-property": {
    label: "driver: percent-driven vs property animator",
    sides: [
      ["percent-driven", [{ ...PUSH, driver: "percent-driven" }]],
      ["property animator", [{ ...PUSH, driver: "property-animator" }]],
    ],
  },
  "fullscreen-pagesheet": {
    label: "scene: full-screen vs page-sheet present (drag up)",
    sides: [
      ["fullScreen", [SCENE_ROOT, presentSheet("fullScreen")]],
      ["pageSheet", [SCENE_ROOT, presentSheet("pageSheet")]],
    ],
  },
  "ios12-ios13": {
    label: "scene: iOS 12 vs iOS 13, default-style present (drag up)",
    sides: [
      ["iOS 12", [{ ...SCENE_ROOT, ios: "12" }, PRESENT_DEFAULT]],
      ["iOS 13", [{ ...SCENE_ROOT, ios: "13" }, PRESENT_DEFAULT]],
    ],
  },
};

export class Compare {
  /**
   * @param document the page
   * @param url the server's WebSocket URL
   */
  constructor(document, url) {
    const $ = (id) => document.getElementById(id);
    this.panel = $("compare");
    this.openButton = $("compare-open");
    this.preset = $("compare-preset");
    this.views = ["a", "b"].map((side) => new CompareView({
      canvas: $(`compare-${side}-canvas`),
      title: $(`compare-${side}-title`),
      settings: $(`compare-${side}-settings`),
      decision: $(`compare-${side}-decision`),
      configure: $(`compare-${side}-configure`),
    }, url));
    this.inputs = this.views.map((view) => new PointerInput(
      view.elements.canvas,
      (x, y) => view.toContainer(x, y),
      {
        pointer: (phase, x, y, t, event) => this.pointer(phase, x, y, t, event),
        tap: () => this.play(),
        enabled: () => this.views.every((each) => each.ready),
      },
    ));
    this.presetName = null;
    this.looping = false;
    this.openButton.addEventListener("click", () => this.toggle());
    $("compare-close").addEventListener("click", () => this.close());
    this.preset.addEventListener("change", () => this.start(this.preset.value));
    window.addEventListener("resize", () => this.layout());
    // It covers the page: Esc leaves it, as the close button does (not while a dialog — the
    // shortcuts list — is open over it: that Esc is the dialog's).
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !this.isOpen || document.querySelector("dialog[open]")) return;
      event.preventDefault();
      this.close();
    });
  }

  get isOpen() {
    return !this.panel.hidden;
  }

  toggle() {
    if (this.isOpen) this.close();
    else this.open();
  }

  open(preset = this.preset.value) {
    this.panel.hidden = false;
    this.openButton.setAttribute("aria-pressed", "true");
    this.start(preset);
    if (!this.looping) {
      this.looping = true;
      requestAnimationFrame(() => this.render());
    }
  }

  /** Both sides start over on fresh sessions with the preset's settings. */
  start(name) {
    const preset = PRESETS[name];
    if (!preset) return;
    this.presetName = name;
    this.preset.value = name;
    for (const input of this.inputs) input.reset();
    this.views.forEach((view, i) => view.open(...preset.sides[i]));
    this.layout();
  }

  close() {
    this.panel.hidden = true;
    this.openButton.setAttribute("aria-pressed", "false");
    for (const input of this.inputs) input.reset();
    for (const view of this.views) view.close();
    this.looping = false;
  }

  /** One pointer event, to both sessions alike. */
  pointer(phase, x, y, t, event) {
    for (const view of this.views) view.pointer(phase, x, y, t, event.pointerId);
  }

  /** A tap plays both (when both rest: the server refuses `play` otherwise, and says so). */
  play() {
    for (const view of this.views) view.play();
  }

  /**
   * Each canvas fits half the panel's width and the window's height below the panel's header,
   * with room under it for the decision and the configure line.
   */
  layout() {
    if (!this.isOpen) return;
    const pane = this.views[0].elements.canvas.parentElement.getBoundingClientRect();
    const top = this.views[0].elements.canvas.getBoundingClientRect().top;
    const height = Math.max(window.innerHeight - Math.max(top, 0) - 96, 120);
    for (const view of this.views) view.layout(Math.max(pane.width - 8, 100), height);
  }

  render() {
    if (!this.looping) return;
    requestAnimationFrame(() => this.render());
    let relayout = false;
    for (const view of this.views) {
      const size = view.geometry().size.join();
      if (size !== view.laidOut) {
        view.laidOut = size;
        relayout = true;
      }
    }
    if (relayout) this.layout();
    for (const view of this.views) view.render();
  }

  /** For tests: the preset, and each side's session, settings, decision and outcomes. */
  summary() {
    return { open: this.isOpen, preset: this.presetName, sides: this.views.map((view) => view.summary()) };
  }
}
