// Delta frames (docs/PROTOCOL.md "Delta frames"): most frames list only what changed
// since the frame before them. The assembler keeps the last whole frame and turns each frame
// message back into a whole frame, so everything downstream (the renderer, the HUD, the lab's
// buffer, latency) sees whole frames as before.
//
// - A full frame (no `base`) replaces what the assembler holds.
// - A delta applies to the held frame only when its `base` is that frame's `n`; otherwise it is
//   dropped (counted) and the page waits for the next full frame. The server never sends one.
// - Unchanged layers and scene layers are shared with the base frame, not copied: nothing
//   downstream may mutate a frame.

export class FrameAssembler {
  constructor() {
    this.frame = null;   // the last whole frame
    this.dropped = 0;    // deltas that could not be applied
    this.lastDrop = null;  // {base, n, holding, reason} of the last one, for the console and tests
  }

  /** A new session (`welcome`, `joined`, a reopened socket): nothing held applies any more. */
  reset() {
    this.frame = null;
  }

  /** A `frame` message → the whole frame, or null when it cannot be applied. */
  apply(message) {
    if (message.base === undefined || message.base === null) {
      this.frame = message;
      return message;
    }
    const frame = assemble(this.frame, message);
    if (typeof frame === "string") {
      this.dropped += 1;
      this.lastDrop = { base: message.base, n: message.n, holding: this.frame?.n ?? null, reason: frame };
      return null;
    }
    this.frame = frame;
    return frame;
  }
}

/** The whole frame `delta` describes against `base`, or the reason it cannot be applied (a string). */
export function assemble(base, delta) {
  if (base === null || base.n !== delta.base) return "base";
  const byId = new Map();
  for (const layer of base.layers ?? []) byId.set(layer.id, layer);
  const layers = [];
  for (const entry of delta.layers ?? []) {
    if (typeof entry === "string") {
      const layer = byId.get(entry);
      if (!layer) return `layer ${entry}`;
      layers.push(layer);
    } else if (entry && typeof entry === "object") {
      const before = byId.get(entry.id);
      if (!before) {
        layers.push(entry);  // new: written whole
        continue;
      }
      const layer = { ...before };
      for (const [key, value] of Object.entries(entry)) {
        if (value === null) delete layer[key];
        else layer[key] = value;
      }
      layers.push(layer);
    } else {
      return "layer entry";
    }
  }
  const { base: _, layers: __, animator, scene, ...fields } = delta;
  const frame = { ...fields, layers };
  // animator: absent, the base's; null, gone; an object, the fields that changed.
  if (animator === undefined) {
    if ("animator" in base) frame.animator = base.animator;
  } else if (animator !== null) {
    frame.animator = { ...(base.animator ?? {}), ...animator };
  }
  // scene: absent, the base's (none if the base had none); null, gone; an object, what changed:
  // `root`, `transition` whole (absent: the base's), and `layers` (absent: the base's) of
  // integers (the base's scene.layers[i]), patches {base: i, …changed, null removing one} and
  // whole layers.
  if (scene === undefined) {
    if ("scene" in base) frame.scene = base.scene;
  } else if (scene !== null) {
    const { layers: entries, ...parts } = scene;
    const baseScene = base.scene ?? {};
    const next = { ...baseScene, ...parts };
    if (entries !== undefined) {
      if (!Array.isArray(entries)) return "scene layers";
      const before = baseScene.layers ?? [];
      const stills = [];
      for (const entry of entries) {
        if (Number.isInteger(entry)) {
          if (entry < 0 || entry >= before.length) return `scene layer ${entry}`;
          stills.push(before[entry]);
        } else if (entry && typeof entry === "object" && "base" in entry) {
          const index = entry.base;
          if (!Number.isInteger(index) || index < 0 || index >= before.length) return `scene layer ${index}`;
          const still = { ...before[index] };
          for (const [key, value] of Object.entries(entry)) {
            if (key === "base") continue;
            if (value === null) delete still[key];
            else still[key] = value;
          }
          stills.push(still);
        } else if (entry && typeof entry === "object") {
          stills.push(entry);  // a view the base did not show: whole
        } else {
          return "scene layer entry";
        }
      }
      next.layers = stills;
    }
    frame.scene = next;
  }
  return frame;
}
