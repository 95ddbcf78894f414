// The scene panel's DOM: start and leave a scene, the controller tree from `scene-state`
// (root, navigation stacks, the presented chain, the top-most marked, what is armed or in
// flight), the present/dismiss/push/pop controls, the server's errors, and the lifecycle log
// grouped per transition. It redraws from the model in requestAnimationFrame (update()), and
// only when the model changed; the log grows by appending, never by rebuilding. The hint after
// a drag that moves nothing is idleDragHint.js's.

import { IdleDragHint } from "./idleDragHint.js";
import { ScenePresets } from "./scenePresets.js";
import { IOS_VERSIONS, PRESENTATION_STYLES, TRANSITION_KINDS, lifecycleLine } from "./scene.js";

/** The release whose default rotation callbacks are the legacy ones (docs/SCENE.md, "The iOS version"). */
const LEGACY_RELEASE = "7";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function fillSelect(select, values, first) {
  select.replaceChildren();
  if (first) select.append(new Option(first[1], first[0]));
  for (const value of values) select.append(new Option(value, value));
}

export class ScenePanel {
  /**
   * @param document the page
   * @param model {import("./scene.js").SceneModel}
   * @param handlers {{send(message): boolean, enabled(): boolean}} send: false when not connected
   */
  constructor(document, model, handlers) {
    this.model = model;
    this.handlers = handlers;
    const $ = (id) => document.getElementById(id);
    this.startForm = $("scene-start");
    this.leaveButton = $("scene-leave");
    this.startButton = $("scene-start-button");
    this.body = $("scene-body");
    this.status = $("scene-status");
    this.tree = $("scene-tree");
    this.controls = $("scene-controls");
    this.error = $("scene-error");
    this.log = $("lifecycle-log");
    this.logNote = $("lifecycle-note");
    this.drawnRevision = -1;
    this.drawnEnabled = null;
    this.rendered = new Map();  // log group object → {item, list, count}
    this.idleHint = new IdleDragHint(document, model, () => this.handlers.enabled());
    this.presets = new ScenePresets(document, model, (message) => this.send(message));

    fillSelect(this.controls.elements.style, PRESENTATION_STYLES);
    this.controls.elements.style.value = "pageSheet";
    fillSelect(this.controls.elements.transition, TRANSITION_KINDS, ["", "default"]);

    fillSelect(this.startForm.elements.ios, IOS_VERSIONS);
    this.startForm.elements.ios.value = IOS_VERSIONS[IOS_VERSIONS.length - 1];
    this.startForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const form = this.startForm.elements;
      // iOS 7's own callbacks are the legacy ones: no `rotationCallbacks` to ask for them.
      const legacy = form.legacy.checked && form.ios.value !== LEGACY_RELEASE;
      this.send(model.sceneMessage(form.device.value, form.interruptible.checked, {
        rootMask: form.rootMask.value, forwards: form.forwards.checked, legacy,
      }, form.ios.value));
    });
    // Another release: the scene starts again as that release (UIKit's rules differ by version);
    // the label says so. A submit, so whatever follows a (re)start (the HUD's reset) follows it.
    this.startForm.elements.ios.addEventListener("change", () => {
      this.followVersion();
      if (this.model.state) this.startForm.requestSubmit();
    });
    this.followVersion();
    this.leaveButton.addEventListener("click", () => this.send({ type: "scene", root: null }));
    this.controls.addEventListener("submit", (event) => event.preventDefault());
    this.controls.addEventListener("click", (event) => {
      const action = event.target.closest("button[data-action]")?.dataset.action;
      if (action) this.act(action);
    });
  }

  /**
   * The legacy-callbacks box follows the release: on iOS 7 they are the default, so it shows
   * ticked and cannot be unticked; on a later release it shows the user's own choice again.
   */
  followVersion(enabled = !this.startForm.elements.ios.disabled) {
    const { ios, legacy } = this.startForm.elements;
    const byRelease = ios.value === LEGACY_RELEASE;
    if (byRelease && legacy.dataset.chosen === undefined) {
      legacy.dataset.chosen = String(legacy.checked);
      legacy.checked = true;
    } else if (!byRelease && legacy.dataset.chosen !== undefined) {
      legacy.checked = legacy.dataset.chosen === "true";
      delete legacy.dataset.chosen;
    }
    legacy.disabled = byRelease || !enabled;
    legacy.title = byRelease ? "iOS 7's own rotation callbacks are the legacy ones" : "";
  }

  send(message) {
    this.clearError();
    if (!this.handlers.send(message)) this.showError("not connected");
  }

  /** The controls' choices for one operation. */
  options() {
    const form = this.controls.elements;
    return {
      style: form.style.value,
      transition: form.transition.value || null,
      from: form.from.value || null,
      navigation: form.navigation.checked,
      definesContext: form.definesContext.checked,
      animated: form.animated.checked,
      interactive: form.interactive.checked,
    };
  }

  act(action) {
    const options = this.options();
    const how = { animated: options.animated, interactive: options.interactive };
    switch (action) {
      case "present":
        this.send(this.model.presentMessage(options));
        break;
      case "push":
        this.send(this.model.pushMessage(options));
        break;
      case "dismiss":
        this.send({ type: "dismiss", ...how });
        break;
      case "pop":
        this.send({ type: "pop", ...how });
        break;
      case "play":
        this.send({ type: "play" });
        break;
      default:
        break;
    }
  }

  showError(text) {
    this.error.textContent = text;
  }

  clearError() {
    this.error.textContent = "";
  }

  /** Called from requestAnimationFrame: redraws what changed since the last call. */
  update() {
    const enabled = this.handlers.enabled();
    if (this.drawnRevision === this.model.revision && this.drawnEnabled === enabled) return;
    this.drawnRevision = this.model.revision;
    this.drawnEnabled = enabled;
    this.presets.update();
    const { state } = this.model;
    const active = state !== null;
    this.body.hidden = !active;
    this.leaveButton.hidden = !active;
    this.startButton.textContent = active ? "Restart scene" : "Start scene";
    for (const control of [...this.startForm.elements, ...this.controls.elements]) control.disabled = !enabled;
    if (active) {
      if (state.ios) this.startForm.elements.ios.value = state.ios;
      this.showStatus(state);
      this.showTree(state);
      this.showFromChoices(state);
    }
    this.followVersion(enabled);
    this.showLog();
  }

  showStatus(state) {
    const armed = state.armed;
    let text;
    if (state.inFlight) text = `in flight: ${state.inFlight}`;
    else if (armed) {
      const how = armed.default ? "the default gesture" : "armed";
      // iOS 26's content swipe pops from anywhere in the content (docs/SCENE.md).
      const content = armed.default && armed.action === "pop" && state.ios === "26" && state.contentPop !== false;
      const where = content ? ", from the left edge or a rightward pan in the content" : ", from the left edge";
      const edge = armed.edgeSwipe ? where : "";
      text = `next pan: ${armed.action} ${armed.from} → ${armed.to} (${armed.kind}; ${how}${edge})`;
    } else text = "at rest; a pan moves nothing";
    this.status.textContent = `iOS ${state.ios} · ${state.device} ${state.size.join(" × ")} · ${text}`;
    this.status.dataset.inFlight = String(Boolean(state.inFlight));
  }

  /** The root, its stacks, and each presentation under its presenter (bounded by the scene's 64). */
  showTree(state) {
    const appeared = new Set(state.appeared ?? []);
    const presentations = state.presentations ?? [];
    const visited = new Set();
    const node = (id, note) => {
      const item = element("li", "scene-node");
      if (visited.has(id)) return item;  // never loop, whatever the report says
      visited.add(id);
      const label = element("span", "scene-label");
      label.append(element("code", null, id));
      const title = this.model.title(id);
      if (title !== id) label.append(` “${title}”`);
      if (note) label.append(element("span", "scene-badge", note));
      if (id === state.topMost) label.append(element("span", "scene-badge scene-top", "top-most"));
      if (state.armed && (state.armed.from === id || state.armed.to === id)) {
        label.append(element("span", "scene-badge scene-armed", state.armed.from === id ? "armed: from" : "armed: to"));
      }
      if (!appeared.has(id)) item.classList.add("scene-hidden");
      item.append(label);
      const children = element("ul");
      const stack = this.model.stack(id);
      if (stack) {
        stack.forEach((child, index) => {
          children.append(node(child, index === stack.length - 1 ? "navigation top" : "in stack"));
        });
      }
      for (const entry of presentations.filter((p) => p.presenter === id)) {
        const source = entry.source !== id ? `, from ${entry.source}` : "";
        children.append(node(entry.presented, `presented: ${entry.style} · ${entry.transition}${source}`));
      }
      if (children.childElementCount) item.append(children);
      return item;
    };
    this.tree.replaceChildren(node(state.root.id, state.root.kind === "navigation" ? "root · navigation" : "root"));
  }

  /** `from`: the top-most by default, or any controller on screen (to try a refusal too). */
  showFromChoices(state) {
    const select = this.controls.elements.from;
    const chosen = select.value;
    fillSelect(select, state.appeared ?? [], ["", "top-most"]);
    select.value = (state.appeared ?? []).includes(chosen) ? chosen : "";
  }

  /** Appends what streamed since the last call; drops the groups the model dropped. */
  showLog() {
    const groups = new Set(this.model.groups);
    for (const [group, view] of this.rendered) {
      if (!groups.has(group)) {
        view.item.remove();
        this.rendered.delete(group);
      }
    }
    const atBottom = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    for (const group of this.model.groups) {
      let view = this.rendered.get(group);
      if (!view) {
        const item = element("li", "lifecycle-group");
        item.dataset.group = String(group.group);
        item.append(element("h3", null, `#${group.group} ${group.action}`));
        const list = element("ol");
        item.append(list);
        this.log.append(item);
        view = { item, list, count: 0, dropped: null };
        this.rendered.set(group, view);
      }
      for (; view.count < group.entries.length; view.count += 1) {
        const message = group.entries[view.count];
        const line = element("li", "lifecycle-entry", lifecycleLine(message));
        if (message.callback === "completeTransition") {
          line.classList.add(message.didComplete ? "lifecycle-finished" : "lifecycle-cancelled");
          view.item.classList.toggle("lifecycle-group-cancelled", !message.didComplete);
        }
        view.list.append(line);
      }
      if (group.dropped && view.dropped === null) {
        view.dropped = element("li", "lifecycle-entry lifecycle-dropped");
        view.list.append(view.dropped);
      }
      if (view.dropped) view.dropped.textContent = `… ${group.dropped} more not kept`;
    }
    this.logNote.hidden = this.model.groups.length > 0;
    if (atBottom) this.log.scrollTop = this.log.scrollHeight;  // follow the stream unless scrolled up
  }
}
