// The record button: arms the recorder for the next drag, shows its state, and offers the
// recorded pan script (docs/SCRIPTS.md) as a download once the transition rests.

export class RecordingControls {
  /**
   * @param page {{state, recorder, sceneModel, wsURL}}
   */
  constructor(page, document) {
    this.page = page;
    this.button = document.getElementById("record");
    this.download = document.getElementById("download");
    this.stateText = document.getElementById("record-state");
    this.button.addEventListener("click", () => this.onClick());
  }

  /** Armed or recording: the button stops it. */
  get active() {
    const { recorder } = this.page;
    return recorder.state === "armed" || recorder.state === "recording";
  }

  /** The button's label and pressed state, and `text` (or the recorder's state) beside it. */
  show(text) {
    const { recorder } = this.page;
    const recording = this.active;
    this.button.setAttribute("aria-pressed", String(recording));
    this.button.textContent = recording ? "Stop recording" : "Record the next drag";
    if (text) this.stateText.textContent = text;
    else if (recorder.state === "armed") this.stateText.textContent = "Armed: the next drag is recorded.";
    else if (recorder.state === "recording") this.stateText.textContent = "Recording until the transition rests…";
  }

  /** Stops a recording in progress (the socket closed, a scene started), saying why if `text`. */
  cancel(text) {
    this.page.recorder.cancel();
    this.show(text);
  }

  onClick() {
    const { state, recorder, sceneModel } = this.page;
    if (this.active) {
      this.cancel("Recording stopped; nothing saved.");
      return;
    }
    if (!state.config || state.role !== "driver") return;
    if (sceneModel.active) {
      this.show("A scene's gestures are not recorded: scene scripts are written by hand (docs/SCRIPTS.md).");
      return;
    }
    this.download.hidden = true;
    recorder.arm(state.config);
    this.show();
  }

  /** The recorder finished `script`: offer it as a download. */
  done(script) {
    const { download } = this;
    const blob = new Blob([`${JSON.stringify(script, null, 2)}\n`], { type: "application/json" });
    if (download.href) URL.revokeObjectURL(download.href);
    download.href = URL.createObjectURL(blob);
    download.download = `${script.name}.json`;
    download.hidden = false;
    const moves = script.steps.reduce((n, step) => n + (step.samples?.length ?? 0), 0);
    const replay = `sandbox pan FILE --url ${this.page.wsURL}`;
    this.show(`Recorded ${moves} moves; outcome ${script.expect.outcome}. Replay: ${replay}`);
  }
}
