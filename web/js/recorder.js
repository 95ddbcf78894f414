// Records one gesture (from the next pointer down until the transition rests with no pointer
// down) as a pan script in the format of docs/SCRIPTS.md, so it can be replayed headlessly.
// A script's `up` lifts where the pointer is, while the page's `up` carries its own position:
// a release away from the last move is recorded as one more sample at the release's time and
// place, so the replay releases where the page did (test_inspector_recorder.py holds it).

const round = (value, digits) => Number(value.toFixed(digits));
const point = (x, y) => [round(x, 2), round(y, 2)];

export class Recorder {
  constructor() {
    this.state = "off";  // off → armed → recording → done
    this.script = null;
  }

  /** Waits for the next pointer down; `config` is the session's effective configuration. */
  arm(config) {
    this.state = "armed";
    this.config = structuredClone(config);
    this.steps = [];
    this.lastTime = null;  // ms (page clock) at the end of the previous step
    this.samples = null;   // the open `samples` step
    this.position = null;  // where the followed pointer is, as last sent
    this.pointersDown = 0;
    this.outcome = null;
    this.progress = null;
  }

  cancel() {
    this.state = "off";
  }

  get isRecording() {
    return this.state === "recording";
  }

  /**
   * Time passing between steps becomes a `hold` — none for less than the script's millisecond
   * (sample times are rounded to it, so a release at its own sample's time can lie a fraction
   * past it: test_inspector_recorder.py).
   */
  advanceTo(t) {
    const hold = this.lastTime === null ? 0 : round(t - this.lastTime, 3);
    if (hold > 0) this.steps.push({ hold });
    this.lastTime = t;
  }

  /** A pointer message the page sent for the pointer the pan follows. */
  pointer(phase, x, y, t) {
    if (this.state === "armed" && phase === "down") this.state = "recording";
    if (this.state !== "recording") return;
    if ((phase === "up" || phase === "cancel") && !this.isAt(x, y)) this.pointer("move", x, y, t);
    if (phase === "move") {
      if (!this.samples) {
        this.samples = { samples: [], start: this.lastTime ?? t };
        this.steps.push(this.samples);
      }
      this.samples.samples.push([round(t - this.samples.start, 3), ...point(x, y)]);
      this.position = point(x, y);
      return;
    }
    if (this.samples) {
      const last = this.samples.samples[this.samples.samples.length - 1];
      this.lastTime = this.samples.start + last[0];
      delete this.samples.start;
      this.samples = null;
    }
    this.advanceTo(t);
    if (phase === "down") {
      this.steps.push({ down: point(x, y) });
      this.position = point(x, y);
      this.pointersDown += 1;
    } else {
      this.steps.push(phase === "up" ? { up: true } : { cancel: true });
      this.pointersDown = Math.max(this.pointersDown - 1, 0);
    }
  }

  /** Whether the followed pointer was last sent at (x, y), as the script rounds positions. */
  isAt(x, y) {
    const [px, py] = point(x, y);
    return this.position !== null && this.position[0] === px && this.position[1] === py;
  }

  /** The page sent `play` (a tap). */
  play(t) {
    if (this.state !== "recording") return;
    this.advanceTo(t);
    this.steps.push({ play: true });
  }

  /**
   * A transition event arrived. The recording ends when the transition is finished or cancelled
   * (or a property animator paused on completion: no outcome) with no pointer down; returns the
   * script then, else null.
   */
  event(event) {
    if (this.state !== "recording") return null;
    if (event.event !== "finished" && event.event !== "cancelled" && event.event !== "paused") return null;
    if (this.pointersDown > 0) return null;
    this.outcome = event.event === "paused" ? "none" : event.event;
    this.progress = event.progress;
    return this.finish();
  }

  finish() {
    this.steps.push({ wait: "rest" });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    this.script = {
      script: 1,
      name: `recorded-${this.config.transition}-${stamp}`,
      description: `A ${this.config.transition} ${this.config.operation} gesture recorded in the page.`,
      config: this.config,
      steps: this.steps,
      expect: { outcome: this.outcome, progress: this.progress },
    };
    this.state = "done";
    return this.script;
  }
}
