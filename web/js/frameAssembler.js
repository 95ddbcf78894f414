// Delta frames (issue 15, docs/PROTOCOL.md "Delta frames"): most frames list only what changed
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
  const { base: _, layers: __, scene, ...fields } = delta;
  const frame = { ...fields, layers };
  if (scene === undefined) {
    if ("scene" in base) frame.scene = base.scene;  // unchanged (none if the base had none)
  } else if (scene !== null && Array.isArray(scene.layers)) {
    const stills = [];
    for (const entry of scene.layers) {
      if (Number.isInteger(entry)) {
        const still = base.scene?.layers?.[entry];
        if (still === undefined) return `scene layer ${entry}`;
        stills.push(still);
      } else {
        stills.push(entry);
      }
    }
    frame.scene = { ...scene, layers: stills };
  } else if (scene !== null) {
    frame.scene = scene;
  }
  // scene === null: the base had one, this frame has none.
  return frame;
}
