// Plays a pan script (docs/SCRIPTS.md) against this page's session, through the protocol as
// `sandbox pan --url` does: the server's defaults and then the script's configuration, then each
// pointer, play and scene message at its script time (pointer `t` = the start + script time),
// waits on what the server sends, and the implicit final `rest`. Its report checks each
// expectation as `sandbox pan` does (scriptChecks.js); test_inspector_replay.py holds that both
// agree on an example's outcome.

import { DEFAULT_TIMEOUT_MS } from "./panScript.js";
import { ReplayObserver } from "./replayObserver.js";
import { checkExpectations } from "./scriptChecks.js";

const CONNECT_TIMEOUT_MS = 10000;

export class ScriptPlayer {
  /**
   * @param page {{state, connection, sender, scenePanel, sceneModel, settings}}
   */
  constructor(page) {
    this.page = page;
    this.defaults = null;   // the configuration a fresh session starts with (the welcome's)
    this.observer = null;   // while playing
    this.waiter = null;     // the condition a wait is waiting on, looked at after every message
  }

  get playing() {
    return this.observer !== null;
  }

  /** Every server message, after the receiver applied it (`frame`: the page's whole frame). */
  received(message, frame) {
    if (message.type === "welcome") this.defaults = message.config;
    if (!this.observer) return;
    this.observer.received(message, frame, performance.now());
    this.waiter?.();
  }

  /**
   * Plays `script` (parsed by panScript.js); resolves to `{name, outcome, progress, frames,
   * checks: [{name, passed, detail}], error}` — `error` when the run itself failed (refused
   * configuration, a wait that timed out, a lost connection).
   */
  async play(script) {
    const { state, connection, sceneModel } = this.page;
    if (this.playing) throw new Error("a script is already playing");
    if (!connection.isOpen || state.role !== "driver") throw new Error("not driving a session (connect first)");
    if (sceneModel.active) throw new Error("a scene is running: leave it first (the scene panel)");
    const observer = new ReplayObserver();
    this.observer = observer;
    let error = null;
    let duration = 0;
    try {
      await this.configureFresh(script.config);
      observer.startCounting();
      duration = await this.steps(script.steps);
    } catch (failure) {
      error = failure.message;
    } finally {
      this.observer = null;
      this.waiter = null;
    }
    const report = {
      name: script.name, outcome: observer.outcome, progress: observer.progress, frames: observer.frames,
      durationMs: Math.round(duration), latencyP99Ms: observer.latencyP99, errors: observer.errors, error,
    };
    report.checks = checkExpectations(script.expect, observer);
    report.passed = error === null && report.checks.every((check) => check.passed);
    return report;
  }

  /**
   * The script's configuration as a fresh session gets it: the server's defaults, then its fields.
   * Refused, the page's configuration before is put back, so a bad script changes nothing
   * (test_inspector_replay.py).
   */
  async configureFresh(config) {
    const before = this.page.state.config;
    await this.configure(this.defaults, "the server's defaults");
    try {
      await this.configure(config, "the script's configuration");
    } catch (failure) {
      await this.configure(before, "the page's configuration").catch(() => {});
      throw failure;
    }
  }

  /** Sends a configure with `fields` and waits for `configured` and its fresh frame. */
  async configure(fields, what) {
    if (!fields) return;
    const { observer } = this;
    observer.configured = false;
    const errors = observer.errors.length;
    if (!this.page.connection.send({ ...fields, type: "configure" })) throw new Error("not connected");
    await this.until(() => (observer.configured && observer.framesSinceConfigured > 0)
      || observer.errors.length > errors, performance.now() + CONNECT_TIMEOUT_MS, `${what}: no answer`);
    if (!observer.configured) throw new Error(`${what} was refused: ${observer.errors[errors]}`);
  }

  /** Plays the steps from script time 0; returns the script's length (ms). */
  async steps(steps) {
    const origin = performance.now();
    const positions = new Map();
    let now = 0;
    for (const [index, step] of steps.entries()) {
      try {
        now = await this.perform(step, origin, now, positions);
      } catch (failure) {
        throw new Error(`steps[${index}]: ${failure.message}`);
      }
    }
    return this.wait("rest", origin, now, DEFAULT_TIMEOUT_MS);
  }

  /** One step at script time `now`; returns the script time after it. */
  async perform(step, origin, now, positions) {
    const { pointer } = step;
    switch (step.action) {
      case "down":
        positions.set(pointer, step.at);
        await this.pointer("down", step.at, pointer, origin, now);
        return now;
      case "move":
      case "moveBy": {
        const from = positions.get(pointer);
        if (!from) throw new Error(`pointer ${pointer} moves before it is down`);
        const to = step.relative ? [from[0] + step.to[0], from[1] + step.to[1]] : step.to;
        const count = Math.max(Math.round((step.ms * step.hz) / 1000), 1);
        for (let i = 1; i <= count; i += 1) {
          const f = i / count;
          const at = [from[0] + (to[0] - from[0]) * f, from[1] + (to[1] - from[1]) * f];
          await this.pointer("move", at, pointer, origin, now + step.ms * f);
        }
        positions.set(pointer, to);
        return now + step.ms;
      }
      case "samples": {
        if (!positions.has(pointer)) throw new Error(`pointer ${pointer} moves before it is down`);
        for (const [ms, x, y] of step.samples) {
          await this.pointer("move", [x, y], pointer, origin, now + ms);
          positions.set(pointer, [x, y]);
        }
        return now + step.samples[step.samples.length - 1][0];
      }
      case "hold":
        return now + step.ms;
      case "up":
      case "cancel": {
        const at = positions.get(pointer);
        if (!at) throw new Error(`pointer ${pointer} is not down`);
        await this.pointer(step.action, at, pointer, origin, now);
        positions.delete(pointer);
        return now;
      }
      case "play":
        await this.at(origin, now);
        this.observer.sentPlay();
        this.send({ type: "play" });
        return now;
      case "wait": {
        const met = await this.wait(step.condition, origin, now, step.timeoutMs);
        this.observer.waitMet();
        return met;
      }
      default:  // a scene message, as written (the server validates it)
        await this.at(origin, now);
        this.observer.sentSceneMessage();
        this.send(step.message);
        return now;
    }
  }

  /**
   * A pointer message at script time `ms`, through the page's sender (its seq, its latency meter;
   * pointer 0's samples go to the history as the page's own pointer's do).
   */
  async pointer(phase, [x, y], pointerId, origin, ms) {
    await this.at(origin, ms);
    const { state, sender } = this.page;
    sender.pointer(phase, x, y, origin + ms, { pointerId, pointerType: "touch" }, pointerId === 0);
    if (state.lastPointer?.seq !== state.seq) throw new Error("not connected");
    this.observer.sentPointer(state.seq, performance.now());
  }

  send(message) {
    if (!this.page.connection.send(message)) throw new Error("not connected");
  }

  /** Resolves at script time `ms` (at once when it has passed). */
  at(origin, ms) {
    const delay = origin + ms - performance.now();
    return delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay)) : Promise.resolve();
  }

  /** Waits from script time `ms` until `condition`; returns the script time it held at. */
  async wait(condition, origin, ms, timeoutMs) {
    const { observer } = this;
    const deadline = Math.max(performance.now(), origin + ms) + timeoutMs;
    await this.until(() => observer.satisfies(condition), deadline,
      `'${condition}' did not happen within ${timeoutMs} ms (phase ${observer.phase})`);
    return Math.max(ms, performance.now() - origin);
  }

  /** Resolves once `holds()` (looked at after every message), rejects at `deadline` or a lost session. */
  until(holds, deadline, timeoutMessage) {
    return new Promise((resolve, reject) => {
      const finish = (failure) => {
        clearTimeout(timer);
        this.waiter = null;
        if (failure) reject(new Error(failure));
        else resolve();
      };
      const look = () => {
        if (this.observer.lost) finish("the connection was lost: a new session began");
        else if (holds()) finish(null);
      };
      const timer = setTimeout(() => finish(timeoutMessage), Math.max(deadline - performance.now(), 0));
      this.waiter = look;
      look();
    });
  }
}
