// The network lab's link: the presets, the `configure {network}` they send, and the
// label next to the connection state. The label shows the server's echo (its `link` message,
// this connection's own link; none after `welcome` = loopback), never the local choice: what
// the page asked for only counts once the server says it is in force.

/** One-way delay ± jitter, ms (both directions get it). */
export const PRESETS = [
  { id: "loopback", name: "loopback", delayMs: 0, jitterMs: 0 },
  { id: "wifi", name: "Wi-Fi", delayMs: 15, jitterMs: 5 },
  { id: "4g", name: "4G", delayMs: 60, jitterMs: 20 },
  { id: "poor", name: "poor", delayMs: 150, jitterMs: 80 },
  { id: "satellite", name: "satellite", delayMs: 300, jitterMs: 40 },
];

/** The wire's ranges (docs/PROTOCOL.md); the server checks them, the page only refuses to trust bad echoes. */
const DELAY_MAX = 2000;
const JITTER_MAX = 1000;

/**
 * A server's `link.network`, checked: finite numbers in range, or null (absent, or a value
 * the page cannot show). A bad echo must not break the page: it reads "unknown".
 */
export function readLink(network) {
  if (network === null || typeof network !== "object") return null;
  const { delayMs, jitterMs, seed } = network;
  const ok = (value, max) => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= max;
  if (!ok(delayMs, DELAY_MAX) || !ok(jitterMs, JITTER_MAX)) return null;
  return { delayMs, jitterMs, seed: Number.isSafeInteger(seed) ? seed : null };
}

/** The preset a link is, or null (custom). */
export function presetOf(link) {
  if (!link) return null;
  return PRESETS.find((p) => p.delayMs === link.delayMs && p.jitterMs === link.jitterMs) ?? null;
}

const number = (value) => String(Math.round(value * 100) / 100);

/** "4G 60 ± 20 ms", "custom 33 ± 7 ms", "loopback". */
export function linkLabel(link) {
  if (!link) return "link unknown";
  const preset = presetOf(link);
  if (preset?.id === "loopback") return "loopback";
  const figures = `${number(link.delayMs)} ± ${number(link.jitterMs)} ms`;
  return preset ? `${preset.name} ${figures}` : `custom ${figures}`;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
/** A number when the text is one, else the text itself, for the server to refuse (as the settings form does). */
const parse = (text) => (NUMBER.test(text.trim()) ? Number(text.trim()) : text.trim());

export class NetworkPanel {
  /**
   * @param document the page
   * @param send {(network: object) => boolean} sends `configure {network}`; false when not connected
   */
  constructor(document, send) {
    this.form = document.getElementById("network");
    this.label = document.getElementById("network-state");
    this.error = document.getElementById("network-error");
    this.send = send;
    this.link = null;       // the server's echo, checked
    this.requested = null;  // what the page last asked for, until the echo
    const select = this.form.elements.preset;
    for (const preset of PRESETS) {
      const option = document.createElement("option");
      option.value = preset.id;
      option.textContent = preset.id === "loopback" ? "loopback (0 ms)" : `${preset.name} (${preset.delayMs} ± ${preset.jitterMs} ms)`;
      select.append(option);
    }
    const custom = document.createElement("option");
    custom.value = "custom";
    custom.textContent = "custom…";
    select.append(custom);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.sendCustom();
    });
    select.addEventListener("change", () => this.choose(select.value));
    this.show(null);
  }

  /** A preset chosen: sent at once; "custom" shows the two fields (sent with *Apply*). */
  choose(id) {
    const preset = PRESETS.find((p) => p.id === id);
    this.form.querySelector(".network-custom").hidden = preset !== undefined;
    if (preset) this.request({ delayMs: preset.delayMs, jitterMs: preset.jitterMs });
  }

  sendCustom() {
    const { delayMs, jitterMs } = this.form.elements;
    this.request({ delayMs: parse(delayMs.value), jitterMs: parse(jitterMs.value) });
  }

  request(network) {
    this.clearError();
    this.requested = network;
    if (!this.send(network)) this.showError("not connected");
    this.showLabel();
  }

  /** The server's echo (`link`, or loopback at `welcome`): the link in force. */
  show(network) {
    this.link = readLink(network);
    this.requested = null;
    const preset = presetOf(this.link);
    const select = this.form.elements.preset;
    if (document.activeElement !== select) select.value = preset ? preset.id : this.link ? "custom" : select.value;
    const custom = this.form.querySelector(".network-custom");
    if (!preset && this.link) {
      custom.hidden = false;
      const { delayMs, jitterMs } = this.form.elements;
      if (document.activeElement !== delayMs) delayMs.value = number(this.link.delayMs);
      if (document.activeElement !== jitterMs) jitterMs.value = number(this.link.jitterMs);
    } else if (preset) {
      custom.hidden = true;
    }
    this.showLabel();
  }

  showLabel() {
    let text = linkLabel(this.link);
    if (this.requested) text += " (changing…)";
    this.label.textContent = text;
    this.label.dataset.preset = presetOf(this.link)?.id ?? (this.link ? "custom" : "unknown");
    this.label.title = this.link
      ? `simulated link, each way: ${number(this.link.delayMs)} ms ± ${number(this.link.jitterMs)} ms${this.link.seed !== null ? `, seed ${this.link.seed}` : ""} (the server's echo)`
      : "the server did not report a simulated link";
  }

  showError(message) {
    this.error.textContent = message;
    this.requested = null;
    this.showLabel();
  }

  clearError() {
    this.error.textContent = "";
  }
}
