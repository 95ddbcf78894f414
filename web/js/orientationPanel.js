// The scene panel's orientation part: buttons that turn the device, device versus
// interface orientation, the resolved mask with where each bit comes from (the app, the window,
// the deciding controller), and an editor for one controller's supportedOrientations,
// shouldAutorotate and preferred orientation (`update`) with "attempt rotation". Redrawn from
// the model in requestAnimationFrame (update()), only when something changed.

import { INTERFACE_ORIENTATIONS, MASK_BITS, ORIENTATION_LABELS, maskNames } from "./orientation.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Every controller of the scene's tree and its presentations, root first. */
function sceneControllers(state) {
  const ids = [];
  const walk = (controller) => {
    if (!controller || ids.includes(controller.id)) return;
    ids.push(controller.id);
    for (const child of controller.stack ?? []) walk(child);
  };
  walk(state.root);
  for (const stack of state.navigationStacks ?? []) stack.stack.forEach((id) => ids.includes(id) || ids.push(id));
  for (const presentation of state.presentations ?? []) if (!ids.includes(presentation.presented)) ids.push(presentation.presented);
  return ids;
}

export class OrientationPanel {
  /**
   * @param document the page
   * @param model {import("./scene.js").SceneModel}
   * @param handlers {{send(message): void, enabled(): boolean}} send goes through the scene panel (its errors show there)
   */
  constructor(document, model, handlers) {
    this.model = model;
    this.handlers = handlers;
    const $ = (id) => document.getElementById(id);
    this.section = $("orientation");
    this.deviceButtons = $("device-buttons");
    this.summary = $("orientation-summary");
    this.maskTable = $("orientation-mask");
    this.editForm = $("orientation-edit");
    this.drawnRevision = -1;
    this.drawnEnabled = null;
    this.dirty = false;       // the editor holds the user's unsent edits: a new scene-state does not overwrite them
    this.filledFor = null;    // the controller the editor was last filled for
    this.choices = null;      // the controller list the select shows

    const preferred = this.editForm.elements.preferred;
    preferred.replaceChildren(new Option("none (keep the current)", ""));
    for (const name of INTERFACE_ORIENTATIONS) preferred.append(new Option(ORIENTATION_LABELS[name], name));

    this.deviceButtons.addEventListener("click", (event) => {
      const orientation = event.target.closest("button[data-device]")?.dataset.device;
      if (orientation) this.handlers.send({ type: "device", orientation });
    });
    this.editForm.addEventListener("submit", (event) => event.preventDefault());
    this.editForm.addEventListener("change", (event) => {
      if (event.target.name === "controller") this.fill(event.target.value);
      else this.dirty = true;
    });
    this.editForm.addEventListener("click", (event) => {
      const action = event.target.closest("button[data-action]")?.dataset.action;
      if (action === "update") {
        this.handlers.send(this.updateMessage());
        this.dirty = false;
      } else if (action === "attempt-rotation" || action === "update-supported-orientations") {
        this.handlers.send({ type: action });
      } else if (action === "request-geometry-update") {
        // iOS 16+: ask for the orientations checked in the editor (the server refuses before 16).
        const form = this.editForm.elements;
        const names = INTERFACE_ORIENTATIONS.filter((name) => form[`mask-${name}`].checked);
        this.handlers.send({ type: action, interfaceOrientations: names });
      }
    });
  }

  /** `update` from the editor: the four checkboxes as names, shouldAutorotate, the preferred one if chosen. */
  updateMessage() {
    const form = this.editForm.elements;
    const names = INTERFACE_ORIENTATIONS.filter((name) => form[`mask-${name}`].checked);
    const message = {
      type: "update", controller: form.controller.value, supportedOrientations: names,
      shouldAutorotate: form.shouldAutorotate.checked,
    };
    if (form.preferred.value) message.preferredOrientation = form.preferred.value;
    return message;
  }

  /** Fills the editor with what the page knows of a controller. */
  fill(id) {
    const form = this.editForm.elements;
    const { mask, shouldAutorotate, preferredOrientation } = this.model.orientationOf(id);
    for (const name of INTERFACE_ORIENTATIONS) form[`mask-${name}`].checked = (mask & MASK_BITS[name]) !== 0;
    form.shouldAutorotate.checked = shouldAutorotate;
    form.preferred.value = preferredOrientation ?? "";
    this.filledFor = id;
    this.dirty = false;
  }

  /** Called from requestAnimationFrame. */
  update() {
    const enabled = this.handlers.enabled();
    if (this.drawnRevision === this.model.revision && this.drawnEnabled === enabled) return;
    this.drawnRevision = this.model.revision;
    this.drawnEnabled = enabled;
    for (const control of [...this.deviceButtons.querySelectorAll("button"), ...this.editForm.elements]) {
      control.disabled = !enabled;
    }
    const orientation = this.model.orientation;
    this.section.hidden = orientation === null;
    if (!orientation) return;
    this.showSummary(orientation);
    this.showMasks(orientation);
    this.showEditor(this.model.state, orientation);
    for (const button of this.deviceButtons.querySelectorAll("button[data-device]")) {
      button.setAttribute("aria-pressed", String(button.dataset.device === orientation.device));
    }
  }

  showSummary(orientation) {
    const [, , w, h] = orientation.bounds;
    const rows = [
      ["device", orientation.device],
      ["interface", orientation.interface],
      ["bounds", `${w} × ${h}`],
      ["decider", orientation.decider],
      ["shouldAutorotate", String(orientation.shouldAutorotate)],
    ];
    this.summary.replaceChildren(...rows.flatMap(([term, value]) => {
      const dd = element("dd", null, value);
      dd.dataset.field = term;
      return [element("dt", null, term), dd];
    }));
  }

  /** One row per source and the intersection: which orientations each allows. */
  showMasks(orientation) {
    const head = element("tr");
    head.append(element("th", null, "from"));
    for (const name of INTERFACE_ORIENTATIONS) {
      const th = element("th", null, ORIENTATION_LABELS[name]);
      if (name === orientation.interface) th.classList.add("mask-current");
      head.append(th);
    }
    const row = (label, mask, className, source) => {
      const tr = element("tr", className);
      tr.dataset.source = source;
      tr.append(element("th", null, label));
      const allowed = new Set(maskNames(mask));
      for (const name of INTERFACE_ORIENTATIONS) {
        const td = element("td", allowed.has(name) ? "mask-on" : "mask-off", allowed.has(name) ? "✓" : "·");
        td.dataset.orientation = name;
        if (name === orientation.interface) td.classList.add("mask-current");
        tr.append(td);
      }
      return tr;
    };
    const body = element("tbody");
    for (const source of orientation.sources ?? []) {
      const label = source.source === "controller" ? `controller ${source.controller}` : source.source;
      body.append(row(label, source.mask, null, source.source === "controller" ? source.controller : source.source));
    }
    body.append(row("allowed", orientation.allowed.mask, "mask-allowed", "allowed"));
    const thead = element("thead");
    thead.append(head);
    this.maskTable.replaceChildren(thead, body);
  }

  showEditor(state, orientation) {
    const select = this.editForm.elements.controller;
    const ids = sceneControllers(state);
    const chosen = ids.includes(select.value) ? select.value : orientation.decider;
    // Rebuilt only when the choices change (lifecycle messages change the model too, and a
    // rebuilt select would close under the user's pointer).
    const key = `${ids.join("\n")}\n${orientation.decider}`;
    if (this.choices !== key) {
      this.choices = key;
      select.replaceChildren(...ids.map((id) => new Option(id === orientation.decider ? `${id} (decides)` : id, id)));
    }
    select.value = ids.includes(chosen) ? chosen : ids[0];
    // A new report refreshes the editor unless the user is in the middle of an edit.
    if (!this.dirty || this.filledFor !== select.value) this.fill(select.value);
  }
}
