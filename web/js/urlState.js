// State you can share: the settings (the configuration's difference from the defaults, the
// slow-motion factor `timeScale` among them), the scene, the network preset and the panel
// layout live in the page's URL query and in localStorage; a reload (or an opened link) sends
// them again as the same messages, and "Copy link" copies the URL. The server decides: a value
// it refuses shows its error where the control would, and the page goes on with the defaults.
// test_inspector_state.py holds the round trips and the refusal of a hostile query.

import { PRESETS } from "./network.js";

const STORAGE_KEY = "transition-sandbox.state";
const KEYS = ["config", "net", "scene", "layout"];
/**
 * Caps on what the page reads from a URL or localStorage (a longer value is refused, not cut):
 * the server's header limit is 4 KiB (the page's modules carry the URL as their Referer), and
 * deploy/haproxy.cfg answers a URL over 1 KiB with 414 (docs/SECURITY.md).
 */
export const MAX_QUERY = 2000;
export const MAX_CONFIG = 1500;
/** A link longer than this is copied with a warning: a balancer in front refuses it. */
const BALANCER_URL = 1024;
/** Keys of the configuration a link never carries: the connection's own, or the message's. */
const NOT_SETTINGS = new Set(["type", "id", "network"]);
const DEVICES = new Set(["phone", "tablet"]);
const ROOT_MASKS = new Set(["portrait", "landscape", "allButUpsideDown", "all"]);
const SCENE_FLAGS = ["interruptible", "forwards", "legacy"];
const LAYOUTS = new Set(["columns", "stack"]);

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The configuration's fields that differ from `defaults` (whole nested values). */
export function settingsPatch(config, defaults) {
  const patch = {};
  if (!config || !defaults) return patch;
  for (const [key, value] of Object.entries(config)) {
    if (!NOT_SETTINGS.has(key) && !same(value, defaults[key])) patch[key] = value;
  }
  return patch;
}

/** A network link as a query value: a preset's id, or "delay±jitter" in ms. */
export function encodeNetwork(link) {
  if (!link) return null;
  const preset = PRESETS.find((p) => p.delayMs === link.delayMs && p.jitterMs === link.jitterMs);
  if (preset?.id === "loopback") return null;
  return preset ? preset.id : `${link.delayMs}±${link.jitterMs}`;
}

/**
 * Reads a query (URLSearchParams) into what to restore, each part checked; a part that does not
 * read is left out and named in `problems` (the server checks the rest: the page never guesses).
 */
export function readQuery(params) {
  const wanted = { config: null, network: null, scene: null, layout: null, problems: [] };
  const config = params.get("config");
  if (config !== null) {
    if (config.length > MAX_CONFIG) wanted.problems.push(`settings longer than ${MAX_CONFIG} characters`);
    else {
      try {
        const value = JSON.parse(config);
        if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
        wanted.config = Object.fromEntries(Object.entries(value).filter(([key]) => !NOT_SETTINGS.has(key)));
      } catch {
        wanted.problems.push("settings are not a JSON object");
      }
    }
  }
  const net = params.get("net");
  if (net !== null) {
    const preset = PRESETS.find((p) => p.id === net);
    const custom = /^(\d{1,4}(?:\.\d{1,3})?)±(\d{1,4}(?:\.\d{1,3})?)$/.exec(net);
    if (preset) wanted.network = { delayMs: preset.delayMs, jitterMs: preset.jitterMs };
    else if (custom) wanted.network = { delayMs: Number(custom[1]), jitterMs: Number(custom[2]) };
    else wanted.problems.push("unknown network link");
  }
  const scene = params.get("scene");
  if (scene !== null) {
    wanted.scene = readScene(scene);
    if (!wanted.scene) wanted.problems.push("unknown scene");
  }
  const layout = params.get("layout");
  if (layout !== null) {
    if (LAYOUTS.has(layout)) wanted.layout = layout;
    else wanted.problems.push("unknown layout");
  }
  return wanted;
}

/** "phone,interruptible,mask:portrait,ios:16" → the scene start form's values, or null. */
function readScene(text) {
  const [device, ...options] = text.split(",");
  if (!DEVICES.has(device) || options.length > SCENE_FLAGS.length + 2) return null;
  const scene = { device, rootMask: "", interruptible: false, forwards: false, legacy: false, ios: null };
  for (const option of options) {
    if (SCENE_FLAGS.includes(option)) scene[option] = true;
    else if (option.startsWith("mask:") && ROOT_MASKS.has(option.slice(5))) scene.rootMask = option.slice(5);
    else if (/^ios:\d{1,2}$/.test(option)) scene.ios = option.slice(4);
    else return null;
  }
  return scene;
}

function encodeScene(form) {
  const parts = [form.device.value];
  // On iOS 7 the legacy callbacks are the release's own (the box shows ticked): not a choice.
  for (const flag of SCENE_FLAGS) if (form[flag].checked && !(flag === "legacy" && form.ios.value === "7")) parts.push(flag);
  if (form.rootMask.value) parts.push(`mask:${form.rootMask.value}`);
  if (form.ios.value) parts.push(`ios:${form.ios.value}`);
  return parts.join(",");
}

export class UrlState {
  /**
   * @param page {{state, lab, settings, sceneModel}} the page record (its scene panel's form is
   *   read through `document`)
   */
  constructor(page, document, location = window.location, history = window.history) {
    this.page = page;
    this.location = location;
    this.history = history;
    this.sceneForm = document.getElementById("scene-start");
    this.problemsOutput = document.getElementById("copy-link-state");
    this.layoutButton = document.getElementById("layout-toggle");
    this.defaults = null;      // the first welcome's configuration
    this.wanted = null;        // what the URL (or localStorage) asked for, until sent
    this.settling = false;     // the restored configure is on its way: the URL is not rewritten yet
    this.layout = "columns";
    this.copied = null;        // the last link copied
    this.layoutButton.addEventListener("click", () => this.setLayout(this.layout === "stack" ? "columns" : "stack"));
    document.getElementById("copy-link").addEventListener("click", () => this.copyLink());
    this.restore();
  }

  /** Before the socket opens: reads the URL (or, with none of its keys, localStorage). */
  restore() {
    let params = new URLSearchParams(this.location.search);
    if (!KEYS.some((key) => params.has(key))) params = new URLSearchParams(this.stored() ?? "");
    const long = this.location.search.length > MAX_QUERY;
    if (long) params = new URLSearchParams();
    const wanted = readQuery(params);
    if (long) wanted.problems.push(`query longer than ${MAX_QUERY} characters`);
    if (wanted.problems.length) this.showProblem(`This link's ${wanted.problems.join(", ")}: left out.`);
    this.setLayout(wanted.layout ?? "columns", false);
    // The receiver sends `restore` as the first welcome's configure (receiver.js welcome()).
    if (wanted.config && Object.keys(wanted.config).length) {
      this.page.state.restore = wanted.config;
      this.settling = true;
    }
    this.wanted = wanted;
  }

  /** Every server message, after the receiver applied it. */
  message(message) {
    switch (message.type) {
      case "welcome":
        if (this.defaults === null) this.defaults = message.config;
        this.sendWanted();
        break;
      case "configured":
      case "error":
        this.settling = false;
        this.write();
        break;
      case "link":
      case "scene-state":
        this.write();
        break;
      default:
        break;
    }
  }

  /** The network link and the scene the URL asked for, after the configure (welcome sent it). */
  sendWanted() {
    const wanted = this.wanted;
    this.wanted = null;
    if (!wanted) return;
    if (wanted.network) this.page.lab.panel.request(wanted.network);
    if (wanted.scene) {
      const form = this.sceneForm.elements;
      form.device.value = wanted.scene.device;
      form.rootMask.value = wanted.scene.rootMask;
      for (const flag of SCENE_FLAGS) form[flag].checked = wanted.scene[flag];
      if (wanted.scene.ios !== null) {
        // A release the page does not offer leaves the select as it was and says so.
        const offered = [...form.ios.options].some((option) => option.value === wanted.scene.ios);
        if (offered) form.ios.value = wanted.scene.ios;
        else this.showProblem(`This link's iOS release ${wanted.scene.ios} is not offered: left out.`);
      }
      this.sceneForm.requestSubmit();
    }
    if (!this.settling) this.write();
  }

  /** The query the page's state is now (the keys of other modules, `test` among them, kept). */
  query() {
    const { state, lab, sceneModel } = this.page;
    const params = new URLSearchParams(this.location.search);
    for (const key of KEYS) params.delete(key);
    const patch = settingsPatch(state.role === "driver" ? state.config : null, this.defaults);
    if (Object.keys(patch).length) params.set("config", JSON.stringify(patch));
    const net = encodeNetwork(lab.current);
    if (net) params.set("net", net);
    if (sceneModel.active && state.role === "driver") params.set("scene", encodeScene(this.sceneForm.elements));
    if (this.layout !== "columns") params.set("layout", this.layout);
    return params;
  }

  write() {
    if (this.settling || this.defaults === null) return;
    const params = this.query();
    const search = params.toString() ? `?${params}` : "";
    if (search !== this.location.search) this.history.replaceState(null, "", `${this.location.pathname}${search}`);
    params.delete("test");
    try {
      localStorage.setItem(STORAGE_KEY, params.toString());
    } catch {
      // Storage off (a private window, a quota): the URL still holds the state.
    }
  }

  stored() {
    try {
      return localStorage.getItem(STORAGE_KEY);
    } catch {
      return null;
    }
  }

  setLayout(layout, write = true) {
    this.layout = layout;
    document.body.dataset.layout = layout;
    this.layoutButton.setAttribute("aria-pressed", String(layout === "stack"));
    this.page.display?.layout();
    if (write) this.write();
  }

  /** The link to this page as it is now (without the test query). */
  link() {
    const params = this.query();
    params.delete("test");
    const search = params.toString() ? `?${params}` : "";
    return `${this.location.origin}${this.location.pathname}${search}`;
  }

  async copyLink() {
    const link = this.link();
    this.copied = link;
    const note = link.length > BALANCER_URL ? ` (${link.length} characters: a balancer refuses over 1 KiB)` : "";
    try {
      await navigator.clipboard.writeText(link);
      this.showProblem(`link copied${note}`);
    } catch {
      // No clipboard (an insecure origin, a denied permission): the old way, else show it.
      this.showProblem(copyByCommand(link) ? `link copied${note}` : link);
    }
  }

  showProblem(text) {
    this.problemsOutput.textContent = text;
  }

  /** For the test hooks. */
  summary() {
    return { link: this.link(), copied: this.copied, layout: this.layout, defaults: this.defaults };
  }
}

function copyByCommand(text) {
  const area = document.createElement("textarea");
  area.value = text;
  area.className = "offscreen";
  document.body.append(area);
  area.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  area.remove();
  return done;
}
