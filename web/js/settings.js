// The settings form: shows the session's effective configuration and turns each edit into one
// `configure` patch. Values go to the server as typed (a number when the text is one): the
// server validates, and its error is shown beside the field it names.

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** A number when the text is one; otherwise the text itself, for the server to refuse. */
export function parseValue(text) {
  const trimmed = text.trim();
  return NUMBER.test(trimmed) ? Number(trimmed) : trimmed;
}

/** "x1, y1, x2, y2" → four numbers, or the text itself. */
export function parseBezier(text) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  return parts.length === 4 && parts.every((part) => NUMBER.test(part)) ? parts.map(Number) : text.trim();
}

const NAMED_CURVES = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default", "spring"];

export class SettingsForm {
  /** @param send {(patch: object, field: string) => void} */
  constructor(form, send) {
    this.form = form;
    this.send = send;
    this.config = null;
    this.bezierLabel = form.querySelector("label.bezier");
    this.showListeners = [];  // modules with controls in this form (slowMotion.js)
    form.addEventListener("change", (event) => this.changed(event.target));
    form.addEventListener("submit", (event) => event.preventDefault());
  }

  get autoReverse() {
    return this.form.elements.autoReverse.checked;
  }

  field(name) {
    return this.form.elements[name];
  }

  /** The patch one edited control stands for, and the name the server will blame. */
  patchFor(name) {
    const value = (n) => parseValue(this.field(n).value);
    switch (name) {
      case "transition":
      case "operation":
      case "axis":
        return [{ [name]: this.field(name).value }, name];
      case "duration":
      case "distance":
      case "threshold":
      case "completionSpeed":
      case "fps":
        return [{ [name]: value(name) }, name];
      case "clampLower":
      case "clampUpper":
        return [{ clamp: [value("clampLower"), value("clampUpper")] }, "clamp"];
      case "completionCurve": {
        const curve = this.field("completionCurve").value;
        this.bezierLabel.hidden = curve !== "bezier";
        if (curve !== "bezier") return [{ completionCurve: curve }, "completionCurve"];
        const text = this.field("bezier").value;
        return text.trim() ? [{ completionCurve: parseBezier(text) }, "completionCurve"] : null;
      }
      case "bezier":
        return [{ completionCurve: parseBezier(this.field("bezier").value) }, "completionCurve"];
      case "springDamping":
        return [{ spring: { damping: value("springDamping") } }, "spring.damping"];
      case "flingVelocity": {
        const text = this.field("flingVelocity").value.trim();
        return [{ flingVelocity: text === "" || text === "off" ? null : parseValue(text) }, "flingVelocity"];
      }
      default:
        return null;  // autoReverse is the page's own
    }
  }

  changed(control) {
    const patch = this.patchFor(control.name);
    if (!patch) return;
    this.clearError(patch[1]);
    this.send(patch[0], patch[1]);
  }

  /** Calls `listener(config)` with every configuration shown. */
  onShow(listener) {
    this.showListeners.push(listener);
  }

  /** Shows the effective configuration (after welcome, configured or joined). */
  show(config) {
    this.config = config;
    for (const listener of this.showListeners) listener(config);
    const set = (name, value) => {
      const control = this.field(name);
      if (control && document.activeElement !== control) control.value = value;
    };
    for (const name of ["transition", "operation", "axis", "duration", "distance", "threshold", "completionSpeed", "fps"]) {
      set(name, String(config[name]));
    }
    set("clampLower", String(config.clamp[0]));
    set("clampUpper", String(config.clamp[1]));
    set("springDamping", String(config.spring.damping));
    set("flingVelocity", config.flingVelocity === null ? "" : String(config.flingVelocity));
    const curve = config.completionCurve;
    if (Array.isArray(curve)) {
      set("completionCurve", "bezier");
      set("bezier", curve.join(", "));
    } else if (NAMED_CURVES.includes(curve)) {
      set("completionCurve", curve);
    }
    this.bezierLabel.hidden = this.field("completionCurve").value !== "bezier";
  }

  /** Where an error about `field` is shown: its own slot, or the form's general one. */
  slot(field) {
    const slots = [...this.form.querySelectorAll(".field-error")];
    return slots.find((slot) => slot.dataset.field === field) ?? slots.find((slot) => slot.dataset.field === "*");
  }

  showError(field, message) {
    const slot = this.slot(field);
    slot.textContent = message;
    for (const control of this.controlsFor(field)) control.setAttribute("aria-invalid", "true");
  }

  clearError(field) {
    const slot = this.slot(field);
    if (slot) slot.textContent = "";
    for (const control of this.controlsFor(field)) control.removeAttribute("aria-invalid");
  }

  controlsFor(field) {
    const names = {
      clamp: ["clampLower", "clampUpper"],
      completionCurve: ["completionCurve", "bezier"],
      "spring.damping": ["springDamping"],
    }[field] ?? [field];
    return names.map((name) => this.field(name)).filter((control) => control instanceof Element);
  }
}
