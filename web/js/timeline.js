// Which picture the screen shows: the live one, or a kept gesture's frame, held or played back.
// The one state (`mode`) is an enum: live, paused on a frame, playing. While not live, frames
// keep arriving and the history keeps them; the display asks `pick` for the frame to draw and
// gets the stored frame object itself (not re-interpolated: smoothing is bypassed).
// `page.timeline`; timelinePanel.js is its panel, test_inspector_timeline.py its tests.

import { Playback } from "./playback.js";

/** The modes, as `mode.kind`. */
export const MODES = { live: "live", paused: "paused", playing: "playing" };

export class Timeline {
  /** @param history the page's GestureHistory */
  constructor(history) {
    this.history = history;
    this.mode = { kind: MODES.live };
    this.lastRun = null;  // {rate, startedAt, endedAt, duration, frames} of the last playback that ended
    this.listeners = [];
    history.onChange((change) => {
      // The gesture being looked at left the history (past the limit): back to live.
      if (change.type === "removed" && this.mode.kind !== MODES.live && change.id === this.mode.id) this.goLive();
    });
  }

  /** True while the screen shows a kept frame rather than the live one. */
  get inspecting() {
    return this.mode.kind !== MODES.live;
  }

  get playing() {
    return this.mode.kind === MODES.playing;
  }

  /** The gesture looked at (the selected one), or null. */
  get gesture() {
    return this.history.get(this.history.selectedId);
  }

  /** The index of the frame shown in the selected gesture, or null when live. */
  get index() {
    return this.inspecting ? this.mode.index : null;
  }

  /** The entry ({n, sent, arrivedAt, frame}) shown, or null when live. */
  get entry() {
    return this.inspecting ? this.gesture?.frames[this.mode.index] ?? null : null;
  }

  /** `callback()` after the mode or the frame shown changed. */
  onChange(callback) {
    this.listeners.push(callback);
  }

  /** Looks at a kept gesture, on its first frame; an unknown id or one with no frames is refused. */
  select(gestureId) {
    const gesture = this.history.get(gestureId);
    if (!gesture) throw new RangeError(`no gesture ${gestureId} in the history`);
    if (gesture.frames.length === 0) throw new RangeError(`gesture ${gestureId} has no frames`);
    this.history.select(gestureId);
    this.hold(gestureId, 0);
  }

  /**
   * Holds frame `index` of the selected gesture (the latest gesture with frames when none is
   * selected); out of range is refused and changes nothing.
   */
  showFrame(index) {
    const gesture = this.gesture ?? this.latestWithFrames();
    if (!gesture) throw new RangeError("no gesture with frames to show");
    if (!Number.isInteger(index) || index < 0 || index >= gesture.frames.length) {
      throw new RangeError(`frame index ${index} is outside 0…${gesture.frames.length - 1}`);
    }
    if (this.history.selectedId !== gesture.id) this.history.select(gesture.id);
    this.hold(gesture.id, index);
  }

  /** One frame on or back (stops a playback); from live, the latest gesture's last frame. Clamped at the ends. */
  step(delta) {
    if (!Number.isInteger(delta)) throw new RangeError(`step must be a whole number of frames, not ${delta}`);
    if (!this.inspecting) {
      const gesture = this.gesture ?? this.latestWithFrames();
      if (!gesture) return;
      this.history.select(gesture.id);
      this.hold(gesture.id, gesture.frames.length - 1);
      return;
    }
    const last = this.gesture.frames.length - 1;
    this.hold(this.mode.id, Math.max(0, Math.min(last, this.mode.index + delta)));
  }

  /** Plays the selected gesture from the frame shown (from its first when at its last) at `rate`. */
  play(rate = 1, now = performance.now()) {
    const gesture = this.gesture ?? this.latestWithFrames();
    if (!gesture || gesture.frames.length === 0) return;
    const last = gesture.frames.length - 1;
    const at = this.inspecting && this.mode.index < last ? this.mode.index : 0;
    const playback = new Playback(gesture.frames, at, rate, now);
    if (this.history.selectedId !== gesture.id) this.history.select(gesture.id);
    this.mode = { kind: MODES.playing, id: gesture.id, index: at, playback };
    this.changed();
  }

  pause() {
    if (this.mode.kind === MODES.playing) this.hold(this.mode.id, this.mode.index);
  }

  togglePlay(rate = 1) {
    if (this.playing) this.pause();
    else this.play(rate);
  }

  /** Back to the live picture (the frames kept meanwhile are in the history). */
  goLive() {
    if (this.mode.kind === MODES.live) return;
    this.mode = { kind: MODES.live };
    this.changed();
  }

  /**
   * The frame the display draws at `now`: `live` when live, else the kept frame held or due
   * in the playback (a playback that reaches its last frame holds it and records `lastRun`).
   */
  pick(live, now) {
    const { mode } = this;
    if (mode.kind === MODES.live) return live;
    if (mode.kind === MODES.playing) {
      const index = mode.playback.advance(now);
      if (index !== mode.index) {
        mode.index = index;
        this.changed();
      }
      if (mode.playback.done) this.finishRun(mode.playback);
    }
    return this.entry?.frame ?? live;
  }

  // MARK: - Private

  hold(id, index) {
    this.mode = { kind: MODES.paused, id, index };
    this.changed();
  }

  finishRun(playback) {
    const { rate, startedAt, endedAt, duration, frames, from } = playback;
    this.lastRun = { rate, startedAt, endedAt, duration, frames: frames.length - from };
    this.hold(this.mode.id, this.mode.index);
  }

  latestWithFrames() {
    return this.history.list().reverse().find((gesture) => gesture.frames.length > 0) ?? null;
  }

  changed() {
    for (const listener of this.listeners) listener();
  }
}
