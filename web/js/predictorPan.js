// The pan as the server's engine follows it, replayed on the page from the pointer messages it
// sends (docs/ENGINE.md "Decisions where the reference is silent"): the first pointer down is
// followed; the pan begins once the movement passes the slop along the axis (fails across it,
// or against a `direction`); the tracked fraction is |translation · axis| / distance from the
// down point (signed with `noAbs` or a `direction`, the length on the free axis), clamped or
// rubber-banded (UIScrollView's (1 − 1/(x·c/d + 1))·d). The rule's parameters come with the
// tracking table (`pan`), from the engine's configuration. Grabs of a running completion are
// not replayed: their start is the server's, a round trip away (prediction.js falls back).

const finite = (value) => typeof value === "number" && Number.isFinite(value);

/** The pan rule from a table's `pan`, checked; null when it is malformed. */
export function readPan(pan) {
  if (!pan || typeof pan !== "object") return null;
  const { axis, direction, slop, distance, clamp, rubberBand, container, noAbs } = pan;
  if (!["x", "y", "free"].includes(axis) || !["both", "positive", "negative"].includes(direction)) return null;
  if (!finite(slop) || slop < 0 || !finite(distance) || distance <= 0) return null;
  if (!Array.isArray(clamp) || clamp.length !== 2 || !clamp.every(finite) || !(clamp[0] < clamp[1])) return null;
  if (rubberBand !== null && !(finite(rubberBand) && rubberBand > 0)) return null;
  if (!Array.isArray(container) || container.length !== 2 || !container.every((v) => finite(v) && v > 0)) return null;
  return { axis, direction, slop, distance, clamp, rubberBand, container, noAbs: noAbs === true };
}

export class PanModel {
  constructor(rule) {
    this.rule = rule;
    this.state = "idle";  // idle | possible | tracking | ended | failed
    this.followed = null;  // the pointer the pan follows
    this.start = null;
    this.axis = null;
    this.last = null;      // the latest tracked fraction
  }

  /** A pointer message: returns the tracked fraction while the pan tracks, else null. */
  feed(message) {
    const { phase, x, y } = message;
    const id = message.pointerId ?? 0;
    if (phase === "down") {
      if (this.followed !== null) return this.state === "tracking" ? this.last : null;  // another pointer
      this.followed = id;
      this.start = [x, y];
      this.state = "possible";
      return null;
    }
    if (id !== this.followed) return this.state === "tracking" ? this.last : null;
    if (phase === "up" || phase === "cancel") {
      this.followed = null;
      this.state = this.state === "tracking" ? "ended" : "failed";
      return null;
    }
    const t = [x - this.start[0], y - this.start[1]];
    if (this.state === "possible") this.state = this.recognize(t);
    if (this.state !== "tracking") return null;
    return this.fraction(t);
  }

  recognize(t) {
    const { axis, direction, slop } = this.rule;
    if (axis === "free") {
      if (Math.hypot(t[0], t[1]) < slop) return "possible";
      this.axis = [t[0] / Math.hypot(t[0], t[1]), t[1] / Math.hypot(t[0], t[1])];
      return "tracking";
    }
    const [along, across] = axis === "x" ? t : [t[1], t[0]];
    if (Math.abs(across) >= slop && Math.abs(across) > Math.abs(along)) return "failed";
    if (!(Math.abs(along) >= slop && Math.abs(along) >= Math.abs(across))) return "possible";
    if ((direction === "positive" && !(along > 0)) || (direction === "negative" && !(along < 0))) return "failed";
    const unit = axis === "x" ? [1, 0] : [0, 1];
    const sign = direction === "negative" || (direction === "both" && !this.rule.noAbs && along < 0) ? -1 : 1;
    this.axis = [unit[0] * sign, unit[1] * sign];
    return "tracking";
  }

  fraction(t) {
    const { axis, direction, distance, clamp, rubberBand, container, noAbs } = this.rule;
    const dot = t[0] * this.axis[0] + t[1] * this.axis[1];
    let raw;
    if (axis === "free") raw = Math.hypot(t[0], t[1]) / distance;
    else if (direction === "both") raw = noAbs ? dot / distance : Math.abs(dot) / distance;
    else raw = Math.max(dot, 0) / distance;
    const [lower, upper] = clamp;
    let out;
    if (rubberBand === null) out = Math.min(Math.max(raw, lower), upper);
    else {
      const d = this.extent(container) / distance;
      const offset = (x) => (d > 0 && x > 0 ? (1 - 1 / ((x * rubberBand) / d + 1)) * d : 0);
      if (raw > upper) out = Math.min(upper + offset(raw - upper), 1);
      else if (raw < lower) out = Math.max(lower - offset(lower - raw), 0);
      else out = raw;
    }
    this.last = out;
    return out;
  }

  /** The container's extent along the pan (the engine's `rubberBandExtent`). */
  extent([width, height]) {
    const [ux, uy] = this.axis;
    const alongX = ux !== 0 ? width / Math.abs(ux) : Infinity;
    const alongY = uy !== 0 ? height / Math.abs(uy) : Infinity;
    const extent = Math.min(alongX, alongY);
    return Number.isFinite(extent) ? extent : width;
  }
}
