// Playing a kept gesture back: which of its frames is due at a wall-clock time, at a rate. The
// frames' own server times (`sent`) set the pace, scaled by 1 / rate: at ¼× a gap of 16 ms
// between two frames lasts 64 ms. No DOM and no clock of its own: the caller passes `now`.

/** The rates offered: real time, half, a quarter, a tenth. */
export const RATES = [1, 0.5, 0.25, 0.1];

export class Playback {
  /**
   * @param frames the gesture's frames ({sent}, in order)
   * @param from the index to start from
   * @param rate one of RATES
   * @param now the wall-clock time (performance.now() ms) the first frame shows
   */
  constructor(frames, from, rate, now) {
    if (!RATES.includes(rate)) throw new RangeError(`playback rate must be one of ${RATES.join(", ")}, not ${rate}`);
    if (!(from >= 0 && from < frames.length)) throw new RangeError(`no frame ${from} to play from`);
    this.frames = frames;
    this.from = from;
    this.rate = rate;
    this.startedAt = now;
    this.endedAt = null;  // when the last frame came due
    this.index = from;
  }

  /** The wall-clock time the playback takes from its first frame to its last. */
  get duration() {
    const { frames, from, rate } = this;
    return (frames[frames.length - 1].sent - frames[from].sent) / rate;
  }

  /** The index of the frame due at `now` (the last whose scaled `sent` has come); the last one ends it. */
  advance(now) {
    const { frames, rate } = this;
    const due = frames[this.from].sent + (now - this.startedAt) * rate;
    while (this.index + 1 < frames.length && frames[this.index + 1].sent <= due) this.index += 1;
    if (this.index === frames.length - 1 && this.endedAt === null) this.endedAt = now;
    return this.index;
  }

  get done() {
    return this.endedAt !== null;
  }
}
