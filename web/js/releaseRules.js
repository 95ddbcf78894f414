// The release-rules panel: what UIKit leaves to the app — the release rule (threshold or WWDC 2018's
// projection), rubber-banding past the clamp, the spring completion's damping, and the seeds'
// pitfalls, each labelled as a bug. Like the settings form, every edit is one `configure` patch;
// the server validates and its error appears beside the field it names.

import { parseValue } from "./settings.js";

/** The pitfalls in the server's order (docs/PROTOCOL.md), each a checkbox `pitfall-NAME`. */
export const PITFALLS = ["zero-origin-frame", "complete-on-cancel", "negative-completion-speed", "no-abs"];

const FIELDS = ["releaseRule", "decelerationRate", "rubberBand", "completionDamping", "pitfalls", "driver"];

export class ReleaseRulesForm {
  /** @param send {(patch: object, field: string) => void} */
  constructor(form, send) {
    this.form = form;
    this.send = send;
    this.animator = null;  // the latest frame's property-animator state
    this.animatorShown = null;
    this.animatorState = form.querySelector("#animator-state");
    form.addEventListener("change", (event) => this.changed(event.target));
    form.addEventListener("submit", (event) => event.preventDefault());
  }

  /** True for the fields whose errors this form shows. */
  owns(field) {
    return FIELDS.includes(field) || String(field).startsWith("propertyAnimator");
  }

  field(name) {
    return this.form.elements[name];
  }

  pitfalls() {
    return PITFALLS.filter((name) => this.field(`pitfall-${name}`).checked);
  }

  patchFor(name) {
    if (name.startsWith("pitfall-")) return [{ pitfalls: this.pitfalls() }, "pitfalls"];
    switch (name) {
      case "releaseRule":
        return [{ releaseRule: this.field(name).value }, name];
      case "decelerationPreset": {
        const preset = this.field(name).value;
        if (preset === "custom") return null;
        this.field("decelerationRate").value = preset;
        return [{ decelerationRate: Number(preset) }, "decelerationRate"];
      }
      case "driver":
        return [{ driver: this.field(name).value }, name];
      case "animatorCurve":
        return [{ propertyAnimator: { curve: this.field(name).value } }, "propertyAnimator.curve"];
      case "scrubsLinearly":
        return [{ propertyAnimator: { scrubsLinearly: this.field(name).checked } }, "propertyAnimator.scrubsLinearly"];
      case "pausesOnCompletion":
        return [{ propertyAnimator: { pausesOnCompletion: this.field(name).checked } }, "propertyAnimator.pausesOnCompletion"];
      case "durationFactor": {
        const text = this.field(name).value.trim();
        return [{ propertyAnimator: { durationFactor: parseValue(text === "" ? "0" : text) } }, "propertyAnimator.durationFactor"];
      }
      case "decelerationRate":
      case "completionDamping":
        return [{ [name]: parseValue(this.field(name).value) }, name];
      case "rubberBandOn":
      case "rubberBand": {
        const on = this.field("rubberBandOn").checked;
        const text = this.field("rubberBand").value.trim();
        return [{ rubberBand: on ? parseValue(text === "" ? "0.55" : text) : null }, "rubberBand"];
      }
      default:
        return null;
    }
  }

  changed(control) {
    const patch = this.patchFor(control.name);
    if (!patch) return;
    this.clearError(patch[1]);
    this.send(patch[0], patch[1]);
  }

  /** Shows the effective configuration (after welcome, configured or joined). */
  show(config) {
    if (!config.releaseRule) return;  // a server without the release rules' fields
    const set = (name, value) => {
      const control = this.field(name);
      if (control && document.activeElement !== control) control.value = value;
    };
    set("releaseRule", config.releaseRule);
    set("decelerationRate", String(config.decelerationRate));
    const preset = ["0.998", "0.99"].includes(String(config.decelerationRate)) ? String(config.decelerationRate) : "custom";
    set("decelerationPreset", preset);
    this.form.querySelector(".projection-only").hidden = config.releaseRule !== "projection";
    this.field("rubberBandOn").checked = config.rubberBand !== null;
    if (config.rubberBand !== null) set("rubberBand", String(config.rubberBand));
    this.field("rubberBand").disabled = config.rubberBand === null;
    set("completionDamping", String(config.completionDamping));
    for (const name of PITFALLS) this.field(`pitfall-${name}`).checked = config.pitfalls.includes(name);
    set("driver", config.driver);
    this.form.querySelector(".animator-only").hidden = config.driver !== "property-animator";
    const animator = config.propertyAnimator;
    if (typeof animator.curve === "string") set("animatorCurve", animator.curve);
    this.field("scrubsLinearly").checked = animator.scrubsLinearly;
    this.field("pausesOnCompletion").checked = animator.pausesOnCompletion === true;
    set("durationFactor", String(animator.durationFactor));
    this.form.dataset.bugs = String(config.pitfalls.length);
  }

  /** Every frame: only stored (drawn in requestAnimationFrame). */
  frame(frame) {
    this.animator = frame.animator ?? null;
  }

  /** The property animator's state as UIKit would report it; called from requestAnimationFrame. */
  showFrame() {
    const a = this.animator;
    const text = a
      ? `${a.state}${a.state === "active" ? (a.running ? ", running" : ", paused") : ""}${a.reversed ? ", reversed" : ""} · fractionComplete ${a.fractionComplete.toFixed(3)}`
      : "—";
    if (text !== this.animatorShown) {
      this.animatorState.textContent = text;
      this.animatorShown = text;
    }
  }

  slot(field) {
    return this.form.querySelector(`.field-error[data-field="${field}"]`);
  }

  showError(field, message) {
    const slot = this.slot(field);
    if (slot) slot.textContent = message;
  }

  clearError(field) {
    const slot = this.slot(field);
    if (slot) slot.textContent = "";
  }
}
