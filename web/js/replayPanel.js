// The open-and-export panel: a file opened (fileOpen.js) is told apart — a pan script is played
// against this session (scriptPlayer.js) and each expectation shown passed or failed, a trace is
// loaded into the history and the timeline selects it — and the selected gesture is exported
// (exporter.js) as a download. A file that is neither, or is malformed, is refused with the
// reason and changes nothing else (test_inspector_replay.py).

import { FileOpen } from "./fileOpen.js";
import { filmstrip, gestureToScript, gestureToTrace, recordWebM, stem, webmType } from "./exporter.js";
import { parsePanScript } from "./panScript.js";
import { isTrace, loadTrace } from "./traceLoader.js";

const baseName = (name) => name.replace(/\.[^.]*$/, "");

export class ReplayPanel {
  /**
   * @param page {{scriptPlayer, history, timeline, screen, state, settings, sender, sceneModel}}
   */
  constructor(page, document) {
    this.page = page;
    this.document = document;
    const $ = (id) => document.getElementById(id);
    this.openState = $("open-state");
    this.checks = $("script-checks");
    this.exportState = $("export-state");
    this.download = $("export-download");
    this.lastReport = null;  // the last script's report (scriptPlayer.js)
    this.lastExport = null;  // {name, type, size, text, blob, stills?}: the last export offered
    this.fileOpen = new FileOpen(document, {
      opened: (name, text) => this.opened(name, text),
      refused: (message) => {
        this.checks.replaceChildren();
        this.say(this.openState, message, true);
      },
    });
    const exports = {
      "export-script": (gesture) => this.exportScript(gesture),
      "export-trace": (gesture) => this.offer(`${stem(gesture)}.jsonl`, "application/jsonl", gestureToTrace(gesture)),
      "export-webm": (gesture) => this.exportWebM(gesture),
      "export-filmstrip": (gesture) => this.exportFilmstrip(gesture),
    };
    for (const [id, action] of Object.entries(exports)) $(id).addEventListener("click", () => this.exporting(action));
    if (!webmType(page.screen)) {
      $("export-webm").disabled = true;
      $("export-webm").title = "This browser has no MediaRecorder for WebM: export a PNG filmstrip instead.";
    }
  }

  say(element, text, refused = false) {
    element.textContent = text;
    element.classList.toggle("refused", refused);
  }

  /** A file's text: a pan script (one JSON object) or a trace (JSON lines of frame messages). */
  opened(name, text) {
    this.checks.replaceChildren();  // the last script's ✓/✗ are not this file's
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (json !== undefined && json?.type !== "frame") this.playScript(name, json);
    else if (isTrace(text)) this.loadTrace(name, text);
    else {
      this.say(this.openState, `${name}: not JSON — a pan script is one JSON object, a trace JSON lines of frames`,
        true);
    }
  }

  async playScript(name, json) {
    const { scriptPlayer } = this.page;
    let script;
    try {
      script = parsePanScript(json, baseName(name));
      if (scriptPlayer.playing) throw new Error("a script is already playing");
    } catch (error) {
      this.say(this.openState, `${name}: ${error.message}`, true);
      return;
    }
    this.say(this.openState, `Playing ${script.name}…`);
    let report;
    try {
      report = await scriptPlayer.play(script);
    } catch (error) {
      this.say(this.openState, `${name}: ${error.message}`, true);
      return;
    }
    this.lastReport = report;
    this.showReport(report);
    this.reverseAfter(report);
  }

  showReport(report) {
    const verdict = report.passed ? "passed" : "failed";
    const run = report.error ? ` — ${report.error}` : "";
    this.say(this.openState, `${report.name}: ${verdict}; outcome ${report.outcome}, ${report.frames} frames${run}`,
      !report.passed);
    this.checks.replaceChildren(...report.checks.map((check) => {
      const item = this.document.createElement("li");
      item.className = check.passed ? "pass" : "fail";
      item.textContent = `${check.passed ? "✓" : "✗"} ${check.name}: ${check.detail}`;
      return item;
    }));
  }

  /** The page's auto-reverse, held back while the script played, turns the next drag around. */
  reverseAfter(report) {
    const { state, settings, sender, sceneModel } = this.page;
    if (report.outcome !== "finished" || !settings.autoReverse || sceneModel.active) return;
    sender.configure({ operation: state.config.operation === "present" ? "dismiss" : "present" }, "operation");
  }

  loadTrace(name, text) {
    const { history, timeline } = this.page;
    let gesture;
    try {
      gesture = loadTrace(text, baseName(name));
    } catch (error) {
      this.say(this.openState, `${name}: ${error.message}`, true);
      return;
    }
    const id = history.add(gesture);
    timeline.select(id);
    const outcome = gesture.decision ? `, ${gesture.decision.outcome}` : "";
    this.say(this.openState, `${name}: ${gesture.frames.length} frames loaded into the timeline${outcome}.`);
  }

  /**
   * Runs an export of the selected gesture — live (the timeline's list says "live"), the newest
   * kept one, not whichever was selected last — saying what went wrong if it cannot be made.
   */
  async exporting(action) {
    const { history, timeline } = this.page;
    const gesture = timeline.inspecting ? history.get(history.selectedId) : history.list().at(-1) ?? null;
    if (!gesture) {
      this.say(this.exportState, "Select a gesture in the timeline first.", true);
      return;
    }
    try {
      await action(gesture);
    } catch (error) {
      this.say(this.exportState, `Gesture ${gesture.id} cannot be exported so: ${error.message}`, true);
    }
  }

  exportScript(gesture) {
    const script = gestureToScript(gesture);
    this.offer(`${stem(gesture)}.json`, "application/json", `${JSON.stringify(script, null, 2)}\n`);
  }

  async exportWebM(gesture) {
    this.say(this.exportState, "Recording the playback…");
    this.offer(`${stem(gesture)}.webm`, "video/webm", await recordWebM(this.page, gesture));
  }

  async exportFilmstrip(gesture) {
    const { blob, stills, every } = await filmstrip(this.page, gesture);
    this.offer(`${stem(gesture)}.png`, "image/png", blob, `${stills} frames, every ${every}`);
    this.lastExport.stills = stills;
  }

  /** Offers `content` (text or a Blob) as the download link. */
  offer(name, type, content, note = "") {
    const blob = content instanceof Blob ? content : new Blob([content], { type });
    if (this.download.href) URL.revokeObjectURL(this.download.href);
    this.download.href = URL.createObjectURL(blob);
    this.download.download = name;
    this.download.textContent = `download ${name}`;
    this.download.hidden = false;
    this.lastExport = { name, type, size: blob.size, text: typeof content === "string" ? content : null, blob };
    this.say(this.exportState, `${name}: ${blob.size} bytes${note ? ` (${note})` : ""}.`);
  }
}
