// Watches what the server sends while the page plays a pan script, as `sandbox pan` watches a
// replay (Sources/SandboxTools/Scripts/ReplayObserver.swift): the phase and progress, transition
// events since the last wait, the frames counted from the first step, the acknowledgements of the
// pointers sent (with their round trips), lifecycle callbacks, error codes, the last release and
// the last scene-state. It only records; scriptPlayer.js decides when a wait is met.

const RESTING = ["idle", "finished", "cancelled", "paused"];

export class ReplayObserver {
  constructor() {
    this.phase = "idle";
    this.rotating = false;
    this.progress = 0;
    this.outcome = "none";
    this.frames = 0;
    this.counting = false;
    this.events = new Set();   // since the last wait was met
    this.pending = new Map();  // pointer seq → sent at (ms, performance.now())
    this.playsOutstanding = 0;
    this.sceneOutstanding = 0;
    this.configured = false;
    this.framesSinceConfigured = 0;
    this.errors = [];          // "code: message"
    this.errorCodes = [];
    this.lifecycle = [];       // as `sandbox pan` writes them: "sheet.viewWillAppear(true)"
    this.sceneState = null;
    this.release = null;
    this.roundTrips = [];      // ms, one per pointer acknowledged
    this.lost = false;         // a new session began (the socket was lost): the replay cannot go on
  }

  startCounting() {
    this.counting = true;
  }

  sentPointer(seq, at) {
    this.pending.set(seq, at);
  }

  sentPlay() {
    this.playsOutstanding += 1;
  }

  sentSceneMessage() {
    this.sceneOutstanding += 1;
  }

  /** Everything sent has been answered, so the phase seen is the phase after the inputs. */
  get settled() {
    return this.pending.size === 0 && this.playsOutstanding === 0 && this.sceneOutstanding === 0;
  }

  satisfies(condition) {
    if (!this.settled) return false;
    // A sheet settling between its detents says so in scene-state (`sheets[].moving`).
    if (condition === "rest") {
      return RESTING.includes(this.phase) && !this.rotating && !(this.sceneState?.sheets ?? []).some((s) => s.moving);
    }
    return this.events.has(condition);
  }

  waitMet() {
    this.events.clear();
  }

  /** One server message; `frame` is the page's whole frame after it (deltas applied), `at` ms. */
  received(message, frame, at) {
    switch (message.type) {
      case "frame":
        if (frame) this.frame(frame, at);
        break;
      case "welcome":
      case "joined":
        this.lost = true;
        break;
      case "transition":
        this.transition(message);
        break;
      case "lifecycle":
        this.lifecycle.push(lifecycleLine(message));
        break;
      case "scene-state":
        this.sceneState = message;
        this.sceneOutstanding = Math.max(this.sceneOutstanding - 1, 0);
        break;
      case "configured":
        this.configured = true;
        this.framesSinceConfigured = 0;
        break;
      case "error":
        this.error(message);
        break;
      default:
        break;
    }
  }

  transition(message) {
    const { event } = message;
    this.events.add(event);
    if (event === "finished" || event === "cancelled") this.outcome = event;
    if (event === "played") this.playsOutstanding = Math.max(this.playsOutstanding - 1, 0);
    if (event === "released") {
      this.release = {
        decision: message.decision, reason: message.reason, progress: message.progress,
        projected: message.projected ?? null,
      };
    }
  }

  error(message) {
    this.errors.push(`${message.code}: ${message.message ?? ""}`);
    this.errorCodes.push(message.code);
    if (typeof message.seq === "number") this.pending.delete(message.seq);
    else if (this.sceneOutstanding > 0) this.sceneOutstanding -= 1;
    else if (this.playsOutstanding > 0 && (message.code === "busy" || message.code === "nothing-armed")) {
      this.playsOutstanding -= 1;
    }
  }

  frame(frame, at) {
    this.framesSinceConfigured += 1;
    if (this.counting) this.frames += 1;
    this.phase = frame.phase ?? this.phase;
    this.rotating = typeof frame.scene?.root?.rotating === "object" && frame.scene.root.rotating !== null;
    this.progress = frame.progress ?? this.progress;
    if (typeof frame.ack !== "number") return;
    for (const [seq, sent] of this.pending) {
      if (seq > frame.ack) continue;
      this.pending.delete(seq);
      this.roundTrips.push(at - sent);
    }
  }

  /** The last scene-state as the `scene` expectation reads it; null without a scene. */
  get sceneSummary() {
    const state = this.sceneState;
    if (!state || !state.root) return null;
    const stacks = {};
    for (const item of state.navigationStacks ?? []) stacks[item.navigation] = item.stack;
    const rect = state.orientation?.bounds;
    return {
      topMost: state.topMost ?? null,
      presented: (state.presentations ?? []).map((item) => item.presented),
      stacks,
      interface: state.orientation?.interface ?? null,
      bounds: Array.isArray(rect) && rect.length === 4 ? [rect[2], rect[3]] : null,
      detent: Object.fromEntries((state.sheets ?? []).map((sheet) => [sheet.controller, sheet.detent])),
    };
  }

  /** The round trips' 99th percentile (nearest rank), ms; null with none. */
  get latencyP99() {
    if (this.roundTrips.length === 0) return null;
    const sorted = [...this.roundTrips].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
  }
}

/**
 * A lifecycle message as `sandbox pan` names it: `controller.callback(animated)`; `viewDidLoad` and
 * the sheet's delegate calls (`presentationController…`) bare.
 */
export function lifecycleLine(message) {
  const controller = message.controller ?? "?";
  const callback = message.callback ?? "?";
  if (typeof message.didComplete === "boolean") return `${controller}.${callback}(${message.didComplete})`;
  const bare = callback === "viewDidLoad" || /^(sheetP|p)resentationController/.test(callback);
  if (bare) return `${controller}.${callback}`;
  return `${controller}.${callback}(${message.animated === true})`;
}
