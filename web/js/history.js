// The last gestures, kept whole: for each drag, play or scene operation, the pointer samples
// this page sent, every frame assembled (with its n, sent and arrival), the transition events,
// the lifecycle callbacks and the release decision. The receiver and the sender record into it;
// the timeline, the inspector, export and compare read it. No DOM, no drawing, no sending.
//
// A gesture:
//   { id, kind: "gesture" | "operation" | "loaded", label, startedAt /* performance.now() ms */,
//     settings /* the effective configuration at its start, as in `configured` */,
//     samples: [{ at, x, y, seq, up }], frames: [{ n, sent, arrivedAt, frame }],
//     events: [{ at, message }], lifecycle: [{ at, entry }],
//     decision: null | { outcome: "finished" | "cancelled", reason, progress, velocity, projected } }
// `frame` is the assembled whole frame exactly as the renderer draws it (frameAssembler.js makes
// a new object per frame and never changes one it handed out, so it is kept by reference).

/** Gestures kept: the oldest goes when a 21st begins. */
export const HISTORY_LIMIT = 20;
/** Frames and samples kept per gesture (minutes of dragging at 120 Hz): past it `truncated` is set. */
export const ENTRY_LIMIT = 30000;

const KINDS = new Set(["gesture", "operation", "loaded"]);
/** Events after which the gesture's transition is over: the next began or played starts a new one. */
const ENDS = new Set(["finished", "cancelled", "paused"]);

export class GestureHistory {
  constructor(limit = HISTORY_LIMIT) {
    this.limit = limit;
    this.gestures = [];     // oldest first
    this.current = null;    // the gesture live input is recorded into, or null
    this.nextId = 1;
    this.selected = null;   // the id the timeline shows, or null
    this.listeners = [];
    this.revision = 0;      // +1 per change of any kind (a frame, a sample): views redraw when it moved
  }

  /** All gestures kept, oldest first. */
  list() {
    return [...this.gestures];
  }

  get(id) {
    return this.gestures.find((gesture) => gesture.id === id) ?? null;
  }

  get selectedId() {
    return this.selected;
  }

  /** Selects a kept gesture (or none with null); an unknown id is refused and changes nothing. */
  select(id) {
    if (id !== null && !this.get(id)) throw new RangeError(`no gesture ${id} in the history`);
    if (this.selected === id) return;
    this.selected = id;
    this.changed("selected", id);
  }

  /**
   * `callback({type, id})` after a gesture is added ("added": begun live or loaded), removed
   * (the oldest, past the limit), selected, or ended (its transition finished, cancelled or
   * paused). Not per frame or sample: `revision` counts those. Returns the unsubscribe function.
   */
  onChange(callback) {
    this.listeners.push(callback);
    return () => {
      this.listeners = this.listeners.filter((each) => each !== callback);
    };
  }

  /**
   * A whole gesture from elsewhere (a loaded trace): checked, copied in with a new id and kept
   * like a live one; returns the id. A malformed one is refused (TypeError) and changes nothing.
   */
  add(gesture) {
    checkGesture(gesture);
    const copy = {
      kind: gesture.kind ?? "loaded",
      label: String(gesture.label ?? "loaded"),
      startedAt: gesture.startedAt ?? gesture.frames[0]?.arrivedAt ?? 0,
      settings: gesture.settings ?? null,
      samples: [...gesture.samples],
      frames: [...gesture.frames],
      events: [...gesture.events],
      lifecycle: [...(gesture.lifecycle ?? [])],
      decision: gesture.decision ?? null,
    };
    return this.keep(copy).id;
  }

  // MARK: - Recording (the receiver and the sender)

  /**
   * Live input starts a new gesture: a primary pointer's down ("gesture"), a play or a scene
   * operation ("operation"). A gesture that recorded no transition event and no callback (a
   * tap, a pan that drove nothing) is replaced rather than kept.
   */
  begin(kind, label, settings, at) {
    const open = this.current;
    if (open && open.events.length === 0 && open.lifecycle.length === 0) this.remove(open);
    this.current = this.keep({
      kind, label, startedAt: at, settings: settings ? structuredClone(settings) : null,
      samples: [], frames: [], events: [], lifecycle: [], decision: null,
    });
    return this.current.id;
  }

  /** A pointer sample the page sent (the primary pointer's): `up` on its release. */
  sample(phase, x, y, seq, at) {
    if (!this.room()) return;
    this.current.samples.push({ at, x, y, seq, up: phase === "up" || phase === "cancel" });
    this.revision += 1;
  }

  /**
   * A frame, assembled whole, at its arrival (performance.now() ms). Once the transition ended
   * and its resting frame is in, later frames (a configure's idle one) are not the gesture's.
   */
  frame(frame, at) {
    if (!this.room()) return;
    const last = this.current.frames.at(-1);
    if (this.current.ended && last && ENDS.has(last.frame.phase)) return;
    this.current.frames.push({ n: frame.n, sent: frame.sent, arrivedAt: at, frame });
    this.revision += 1;
  }

  /**
   * A `transition` event. A began or played with no gesture open (a viewer's, or the first after
   * a transition ended) starts one; released records the decision; an end marks it ended.
   */
  event(message, at, settings) {
    const starts = message.event === "began" || message.event === "played";
    if (starts && !message.grabbed && (!this.current || this.current.ended)) {
      const kind = message.event === "began" ? "gesture" : "operation";
      this.begin(kind, message.event === "began" ? "drag" : "play", settings, at);
    }
    const gesture = this.current;
    if (!gesture) return;
    gesture.events.push({ at, message });
    if (message.event === "released") {
      gesture.decision = {
        outcome: message.decision === "finish" ? "finished" : "cancelled",
        reason: message.reason ?? null,
        progress: message.progress ?? null,
        velocity: message.velocity ?? null,
        projected: Number.isFinite(message.projected) ? message.projected : null,
      };
    }
    this.revision += 1;
    if (ENDS.has(message.event)) {
      gesture.ended = true;
      this.changed("ended", gesture.id);
    }
  }

  /** A scene `lifecycle` message at its arrival. */
  lifecycle(entry, at) {
    if (!this.current) return;
    this.current.lifecycle.push({ at, entry });
    this.revision += 1;
  }

  /** A new session (welcome, join, reconnect): live input records into a gesture it begins. */
  reset() {
    this.current = null;
  }

  // MARK: - Keeping

  /** Whether the open gesture may take another frame or sample (test_inspector_timeline.py: the limit). */
  room() {
    const gesture = this.current;
    if (!gesture) return false;
    if (gesture.frames.length + gesture.samples.length < ENTRY_LIMIT) return true;
    gesture.truncated = true;
    return false;
  }

  keep(fields) {
    const gesture = { id: this.nextId, ...fields };
    this.nextId += 1;
    this.gestures.push(gesture);
    this.changed("added", gesture.id);
    while (this.gestures.length > this.limit) this.remove(this.gestures[0]);
    return gesture;
  }

  remove(gesture) {
    this.gestures = this.gestures.filter((each) => each !== gesture);
    if (this.current === gesture) this.current = null;
    if (this.selected === gesture.id) {
      this.selected = null;
      this.changed("selected", null);
    }
    this.changed("removed", gesture.id);
  }

  changed(type, id) {
    this.revision += 1;
    for (const listener of [...this.listeners]) listener({ type, id });
  }
}

/** Throws a TypeError naming the first thing wrong with a gesture given to `add`. */
function checkGesture(gesture) {
  if (!gesture || typeof gesture !== "object") throw new TypeError("a gesture must be an object");
  if (gesture.kind !== undefined && !KINDS.has(gesture.kind)) {
    throw new TypeError(`gesture kind must be one of ${[...KINDS].join(", ")}, not ${gesture.kind}`);
  }
  for (const key of ["samples", "frames", "events"]) {
    if (!Array.isArray(gesture[key])) throw new TypeError(`gesture.${key} must be an array`);
  }
  if (gesture.lifecycle !== undefined && !Array.isArray(gesture.lifecycle)) {
    throw new TypeError("gesture.lifecycle must be an array");
  }
  gesture.frames.forEach((entry, index) => {
    const ok = entry && Number.isFinite(entry.n) && Number.isFinite(entry.sent) && Number.isFinite(entry.arrivedAt)
      && entry.frame && typeof entry.frame === "object" && Array.isArray(entry.frame.layers);
    if (!ok) throw new TypeError(`gesture.frames[${index}] needs n, sent, arrivedAt and a frame with layers`);
  });
  gesture.samples.forEach((sample, index) => {
    if (!sample || !Number.isFinite(sample.at) || !Number.isFinite(sample.x) || !Number.isFinite(sample.y)) {
      throw new TypeError(`gesture.samples[${index}] needs at, x and y`);
    }
  });
  const decision = gesture.decision;
  if (decision !== undefined && decision !== null && !["finished", "cancelled"].includes(decision.outcome)) {
    throw new TypeError("gesture.decision.outcome must be finished or cancelled");
  }
}
