// What the page sends: requests (each with an id, recorded in `Requests`, so their replies and
// errors find the control that asked), configurations, play, and pointer moves (not requests:
// no reply names them).

const round = (value) => Math.round(value * 100) / 100;
/** Scene messages that start an operation of their own (an interactive one waits for the pan: a gesture). */
const OPERATIONS = new Set(["present", "dismiss", "push", "pop", "play"]);

export class Sender {
  /**
   * @param page {{state, connection, requests, formFor, recorder, latency, lab, history, sceneModel}}
   */
  constructor(page) {
    this.page = page;
  }

  /**
   * Sends a request of `kind` with a fresh `id` (its reply and errors echo it); a refusal about
   * `field` shows on that field's form. False when not connected.
   */
  request(kind, field, message) {
    const { connection, requests, formFor } = this.page;
    const id = requests.add(kind, field);
    if (!connection.send({ ...message, id })) {
      requests.drop(id);
      if (field) formFor(field).showError(field, "not connected");
      return false;
    }
    if (kind === "scene" && OPERATIONS.has(message.type) && !message.interactive) {
      this.page.history.begin("operation", message.type, this.page.state.config, performance.now());
    }
    return true;
  }

  configure(patch, field) {
    if (this.page.state.role !== "driver") {
      this.page.formFor(field).showError(field, "watching another session: its driver sets it");
      return;
    }
    this.request("configure", field, { type: "configure", ...patch });
  }

  play() {
    if (!this.request("play", null, { type: "play" })) return;
    this.page.recorder.play(performance.now());
    this.page.history.begin("operation", "play", this.page.state.config, performance.now());
  }

  /** One pointer event, in container points (interface points in a scene), stamped with its seq. */
  pointer(phase, x, y, t, event, primary) {
    const { state, connection, latency, lab, recorder } = this.page;
    state.seq += 1;
    const message = {
      type: "pointer", phase, x: round(x), y: round(y), t: Number(t.toFixed(3)), seq: state.seq,
      pointerId: event.pointerId, pointerType: event.pointerType,
    };
    if (!connection.send(message)) return;
    state.lastPointer = { phase, x: message.x, y: message.y, seq: message.seq };
    latency.sent(state.seq, performance.now());
    lab.pointerSent(state.seq, t, performance.now(), message);
    this.page.display.predictionSent();
    if (primary) recorder.pointer(phase, message.x, message.y, message.t);
    if (primary) this.record(phase, message, t);
  }

  /** The primary pointer's samples go to the history; its down begins a gesture there. */
  record(phase, message, t) {
    const { history, state, sceneModel } = this.page;
    if (phase === "down") {
      const armed = sceneModel.state?.armed;
      const label = armed ? `${armed.action} ${armed.kind}` : `${state.config?.operation} ${state.config?.transition}`;
      history.begin("gesture", label, state.config, t);
    }
    history.sample(phase, message.x, message.y, message.seq, t);
  }
}
