// The page's view of a scene session (docs/PROTOCOL.md, "The scene"): the latest `scene-state`,
// the lifecycle log grouped per transition, what the page knows about each controller (titles,
// stacks, styles) and the messages the scene panel sends. No DOM here: scenePanel.js shows it,
// sceneCards.js draws it.

import { DEVICE_DEFAULT_MASK, ROOT_MASKS, deviceQuarterTurns, maskOf } from "./orientation.js";

export const DEVICES = ["phone", "tablet"];
export const PRESENTATION_STYLES = ["automatic", "fullScreen", "pageSheet", "formSheet", "currentContext", "overFullScreen", "overCurrentContext"];
export const TRANSITION_KINDS = ["cover-vertical", "flip-horizontal", "cross-dissolve", "partial-curl", "fade", "pop", "reveal", "push"];
/** The releases a scene can behave as (the wire's `"ios"`; docs/SCENE.md, "The iOS version"). */
export const IOS_VERSIONS = ["7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "26"];
export const SHEET_STYLES = new Set(["pageSheet", "formSheet"]);
/** Error codes only scene messages cause (docs/PROTOCOL.md, "Errors of the scene"). */
export const SCENE_ERRORS = new Set([
  "already-presenting", "already-presented", "nothing-presented", "not-in-navigation", "cannot-pop-root",
  "unknown-controller", "not-in-window", "covered", "invalid-scene", "uncaught-exception", "no-scene", "nothing-armed",
  "no-common-orientation", "unsupported-preferred-orientation", "geometry-update-refused", "unavailable-in-ios",
]);

/** Groups (transitions) the log keeps: older ones are dropped so a long session stays small. */
export const LOG_GROUPS = 50;
/** Callbacks kept per group: a group names at most 64 controllers, a few callbacks each. */
export const GROUP_ENTRIES = 512;
/** Controllers the page remembers per scene; the server allows 64 instances per scene. */
const KNOWN_LIMIT = 256;

/**
 * The demo hierarchy a new scene starts with: a navigation controller, so push and pop work
 * at once, with one child; everything else is presented or pushed from the panel.
 */
export function demoRoot() {
  return { id: "nav", title: "Demo", kind: "navigation", stack: [{ id: "list", title: "List" }] };
}

/**
 * One log line: `inbox.viewWillAppear(true)`, `inbox.completeTransition(false)`; a rotation's
 * callbacks as UIKit's signatures read: `nav.viewWillTransition(to: 844 × 390)`,
 * `nav.viewWillLayoutSubviews()`, `nav.willRotate(to: landscapeRight)`,
 * `nav.willAnimateRotation(to: landscapeRight)`, `nav.didRotate(from: portrait)`.
 */
export function lifecycleLine(message) {
  const { controller, callback } = message;
  switch (callback) {
    case "completeTransition": return `${controller}.${callback}(${message.didComplete})`;
    case "viewWillTransition": return `${controller}.${callback}(to: ${(message.size ?? []).join(" × ")})`;
    case "viewWillLayoutSubviews":
    case "presentationControllerDidAttemptToDismiss":
    case "presentationControllerShouldDismiss":
    case "presentationControllerWillDismiss":
    case "presentationControllerDidDismiss":
    case "sheetPresentationControllerDidChangeSelectedDetentIdentifier": return `${controller}.${callback}()`;
    case "willRotate":
    case "willAnimateRotation": return `${controller}.${callback}(to: ${message.orientation})`;
    case "didRotate": return `${controller}.${callback}(from: ${message.orientation})`;
    default: return `${controller}.${callback}(${message.animated})`;
  }
}

export class SceneModel {
  constructor() {
    this.state = null;       // the latest scene-state with a root; null outside scene mode
    this.groups = [];        // [{group, action, entries: [message], dropped, closed}] oldest first
    this.revision = 0;       // +1 per change, so the panel redraws only when something changed
    this.known = new Map();  // controller id → {title, stack, style}, from the tree and our requests
    this.counter = 1;        // the last number handed out for `vcN`
    this.deviceTurns = 0;    // the device's turn as the user sees it (orientation.js), kept while it lies flat
  }

  get active() {
    return this.state !== null;
  }

  /** A new connection (or a new session to watch) starts without a scene. */
  reset() {
    this.state = null;
    this.groups = [];
    this.known.clear();
    this.counter = 1;
    this.deviceTurns = 0;
    this.revision += 1;
  }

  /** `scene-state`'s `orientation` (device, interface, bounds, allowed, decider, sources), or null. */
  get orientation() {
    return this.state?.orientation ?? null;
  }

  /** `scene-state`: `root: null` means the session left scene mode. */
  applyState(message) {
    // A scene-state with nothing in flight ends the transition whose callbacks came before it.
    // Group numbers start at 1 again in a new scene, so "the number changed" alone would merge
    // a restarted scene's launch into the old one's.
    const last = this.groups[this.groups.length - 1];
    if (last && !message.inFlight) last.closed = true;
    if (message.root === null || message.root === undefined) {
      this.state = null;
      this.known.clear();
      this.deviceTurns = 0;
    } else {
      if (this.state === null) {
        // A new scene: its ids start over (our own request's tree is learnt again just below).
        this.known.clear();
        this.counter = 1;
        this.deviceTurns = 0;
      }
      // Face up, face down and unknown keep the turn the device had when it was laid flat.
      this.deviceTurns = deviceQuarterTurns(message.orientation?.device, this.deviceTurns);
      this.state = message;
      this.learnTree(message.root, true);
      for (const presentation of message.presentations ?? []) {
        this.learn(presentation.presented, { style: presentation.style });
      }
    }
    this.revision += 1;
  }

  /** `lifecycle`: appended to its group; a new group opens when the number changes or the last ended. */
  applyLifecycle(message) {
    let last = this.groups[this.groups.length - 1];
    // A rotation's end callbacks (legacy `didRotate`) come after the scene-state that closed its
    // group: the same rotation, not a new group.
    const sameRotation = last && last.group === message.group && last.action === "rotate" && message.action === "rotate";
    if (!last || (last.closed && !sameRotation) || last.group !== message.group) {
      last = { group: message.group, action: message.action, entries: [], dropped: 0, closed: false };
      this.groups.push(last);
      if (this.groups.length > LOG_GROUPS) this.groups.splice(0, this.groups.length - LOG_GROUPS);
    }
    if (last.entries.length < GROUP_ENTRIES) last.entries.push(message);
    else last.dropped += 1;
    this.revision += 1;
  }

  /** Every lifecycle message still in the log, in order (for tests and the console). */
  get lifecycle() {
    return this.groups.flatMap((group) => group.entries);
  }

  // MARK: - What the page knows about controllers

  learn(id, facts) {
    if (!this.known.has(id) && this.known.size >= KNOWN_LIMIT) return;
    this.known.set(id, { ...this.known.get(id), ...facts });
  }

  /**
   * A controller object as sent or as the tree shows it: its title, stack and orientation
   * properties. `reported`: the scene's own tree, where an absent mask or preferred orientation
   * means none (the device's default).
   */
  learnTree(controller, reported = false) {
    const stack = controller.kind === "navigation" && Array.isArray(controller.stack) ? controller.stack : null;
    const facts = {
      title: controller.title ?? controller.id,
      stack: stack ? stack.map((child) => child.id) : null,
    };
    // Orientation properties: the tree reports them (a mask only when the controller sets one);
    // a controller the page describes says what it sent.
    for (const key of ["supportedOrientations", "shouldAutorotate", "preferredOrientation"]) {
      if (key in controller) facts[key] = controller[key];
      else if (reported) facts[key] = undefined;
    }
    this.learn(controller.id, facts);
    for (const child of stack ?? []) this.learnTree(child, reported);
  }

  title(id) {
    return this.known.get(id)?.title ?? id;
  }

  /** A navigation controller's stack, bottom to top: the scene's own report wins. */
  stack(id) {
    const reported = this.state?.navigationStacks?.find((entry) => entry.navigation === id);
    return reported ? reported.stack : this.known.get(id)?.stack ?? null;
  }

  /**
   * The presentation style a controller is (or is being) presented with: the scene's report,
   * else what this page asked for. A viewer that did not see the request knows it once the
   * present ends.
   */
  styleOf(id) {
    const presented = this.state?.presentations?.find((entry) => entry.presented === id);
    const known = this.known.get(id);
    return presented?.style ?? known?.style ?? null;
  }

  isSheet(id) {
    return SHEET_STYLES.has(this.styleOf(id));
  }

  /** Every controller id the scene has mentioned (the tree, stacks, presentations). */
  ids() {
    const ids = new Set(this.known.keys());
    for (const entry of this.state?.navigationStacks ?? []) entry.stack.forEach((id) => ids.add(id));
    for (const entry of this.state?.presentations ?? []) ids.add(entry.presented);
    return ids;
  }

  /** The next `vcN` no controller of this scene uses. */
  nextId() {
    const taken = this.ids();
    do this.counter += 1; while (taken.has(`vc${this.counter}`));
    return `vc${this.counter}`;
  }

  /**
   * A controller's orientation properties as far as the page knows: the deciding controller's
   * mask from `orientation.sources`, else the tree's, else what this page sent, else the
   * device's default (phone allButUpsideDown, tablet all).
   */
  orientationOf(id) {
    const known = this.known.get(id) ?? {};
    const source = this.orientation?.sources?.find((entry) => entry.source === "controller" && entry.controller === id);
    const fallback = DEVICE_DEFAULT_MASK[this.state?.device ?? "phone"] ?? 26;
    const mask = source ? source.mask : known.supportedOrientations !== undefined ? maskOf(expandMask(known.supportedOrientations)) : fallback;
    return {
      mask,
      shouldAutorotate: known.shouldAutorotate ?? true,
      preferredOrientation: known.preferredOrientation ?? null,
    };
  }

  // MARK: - Messages

  /**
   * `scene` with the demo hierarchy. `orientation`: `rootMask` (a ROOT_MASKS key, or "" for the
   * device's default) on the root, `forwards` (containerForwardsOrientation), `legacy`
   * (rotationCallbacks "legacy").
   */
  sceneMessage(device, interruptible, orientation = {}, ios = null) {
    const root = demoRoot();
    if (ROOT_MASKS[orientation.rootMask]) root.supportedOrientations = ROOT_MASKS[orientation.rootMask];
    this.learnTree(root);
    const message = { type: "scene", device, interruptible, root };
    if (ios) message.ios = ios;
    if (orientation.forwards) message.containerForwardsOrientation = true;
    if (orientation.legacy) message.rotationCallbacks = "legacy";
    return message;
  }

  /**
   * `present` with a new controller: a plain `vcN`, or a navigation controller `vcN` holding a
   * new `vcM` (so push and pop work inside the presentation too).
   */
  presentMessage({ style, transition, from, navigation, definesContext, animated, interactive }) {
    const id = this.nextId();
    let controller = { id, presentationStyle: style };
    if (definesContext) controller.definesPresentationContext = true;
    if (navigation) {
      const child = this.nextId();
      controller = { ...controller, kind: "navigation", stack: [{ id: child }] };
    }
    this.learnTree(controller);
    this.learn(id, { style });
    const message = { type: "present", controller, style, animated, interactive };
    if (transition) message.transition = transition;
    if (from) message.from = from;
    return message;
  }

  pushMessage({ transition, definesContext, animated, interactive }) {
    const controller = { id: this.nextId() };
    if (definesContext) controller.definesPresentationContext = true;
    this.learnTree(controller);
    const message = { type: "push", controller, animated, interactive };
    if (transition) message.transition = transition;
    return message;
  }
}

/** Orientation names with the wire's set names (`landscape`, `all`, `allButUpsideDown`) spelt out. */
function expandMask(names) {
  if (typeof names === "number") return ["portrait", "portraitUpsideDown", "landscapeRight", "landscapeLeft"].filter((name, i) => names & (2 << i));
  const sets = {
    landscape: ["landscapeLeft", "landscapeRight"],
    all: ["portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight"],
    allButUpsideDown: ["portrait", "landscapeLeft", "landscapeRight"],
  };
  return (names ?? []).flatMap((name) => sets[name] ?? [name]);
}
