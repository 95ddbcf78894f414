// Slow animations (the sandbox's Debug ▸ Slow Animations): a toggle and its factor in the
// settings form, sent as the session's `timeScale` (docs/PROTOCOL.md, `configure`). The server
// slows what runs by itself — completions, plays, springs, rotations — at the same fps, and the
// pan still tracks the finger 1:1; the page only asks, and shows what the server answered
// (`configured`). `toggle()` is what a keyboard shortcut calls. test_inspector_slowmo.py.

/** The factors the select offers; "other" takes a number (the server checks 0.05…1). */
export const FACTORS = [1, 0.5, 0.25, 0.1];

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

export class SlowMotion {
  /**
   * @param form the settings form (it holds the controls and the `timeScale` error slot)
   * @param settings {{onShow(listener): void}} tells each effective configuration
   * @param send {(patch: object, field: string) => void}
   */
  constructor(form, settings, send) {
    this.send = send;
    this.checkbox = form.elements.slowMotion;
    this.select = form.elements.timeScale;
    this.other = form.elements.timeScaleOther;
    this.otherLabel = this.other.closest("label");
    this.timeScale = 1;  // the session's, as the server last said
    this.chosen = 0.1;   // what the toggle turns on
    this.checkbox.addEventListener("change", () => this.request(this.checkbox.checked ? this.chosen : 1));
    this.select.addEventListener("change", () => this.picked());
    this.other.addEventListener("change", () => this.typed());
    settings.onShow((config) => this.show(config));
  }

  /** On when the session runs slower than real time. */
  get active() {
    return this.timeScale !== 1;
  }

  /** The factor the toggle turns on (the session's own while it is on). */
  get factor() {
    return this.chosen;
  }

  /** Chooses the factor; sent at once while slow motion is on. */
  set factor(value) {
    this.chosen = value;
    this.showFactor();
    if (this.active) this.request(value);
  }

  /** Slow motion on (at the chosen factor) or off (1). */
  toggle() {
    this.request(this.active ? 1 : this.chosen);
  }

  request(timeScale) {
    this.send({ timeScale }, "timeScale");
  }

  picked() {
    const value = this.select.value;
    this.otherLabel.hidden = value !== "other";
    if (value === "other") {
      this.other.focus();
      return;
    }
    // Picking a factor applies it (1 turns slow motion off).
    this.chosen = Number(value);
    this.request(this.chosen);
  }

  /** A typed factor goes to the server as typed; its refusal shows in the form's slot. */
  typed() {
    const text = this.other.value.trim();
    const value = NUMBER.test(text) ? Number(text) : text;
    if (typeof value === "number") this.chosen = value;
    this.request(value);
  }

  /** The effective configuration (welcome, configured, joined). */
  show(config) {
    this.timeScale = config.timeScale ?? 1;
    if (this.active) this.chosen = this.timeScale;
    this.checkbox.checked = this.active;
    this.showFactor();
  }

  showFactor() {
    const listed = FACTORS.includes(this.chosen);
    if (document.activeElement !== this.select) this.select.value = listed ? String(this.chosen) : "other";
    this.otherLabel.hidden = listed;
    if (!listed && document.activeElement !== this.other) this.other.value = String(this.chosen);
  }
}
