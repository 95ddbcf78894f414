// A kept gesture (history.js) written out: as a pan script that replays to its outcome (its
// pointer samples through the page's Recorder, so both write scripts alike), as a trace in the
// `sandbox pan --trace` format (one whole frame per line), as a WebM of the screen canvas while
// the timeline plays it back (MediaRecorder), and as a PNG filmstrip of every k-th frame.
// test_inspector_replay.py replays an exported script with `sandbox pan --local`.

import { Recorder } from "./recorder.js";

/** Thumbnails across in a filmstrip, and their width (CSS px); at most MAX_STILLS frames in one. */
const COLUMNS = 6;
const STILL_WIDTH = 160;
const MAX_STILLS = 24;
/** Recorded after a playback's last frame, so the video ends on it. */
const VIDEO_TAIL_MS = 300;
const WEBM_TYPES = ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"];
const ENDS = new Set(["finished", "cancelled", "paused"]);

const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A file name stem for `gesture`. */
export function stem(gesture) {
  return `gesture-${gesture.id}-${gesture.label}`.replace(/[^A-Za-z0-9._-]+/g, "-");
}

/**
 * The pan script (docs/SCRIPTS.md) that replays `gesture`: its configuration, its pointer
 * samples (the first a down, the one marked `up` the release, at its own position), the wait
 * for rest, and its outcome and final progress as the expectations. A play becomes `{"play": true}`.
 * Throws an Error saying why a gesture cannot be one (no samples, a scene's, a grab, not at rest).
 */
export function gestureToScript(gesture) {
  if (!gesture.settings) {
    throw new Error("a loaded trace has no settings or samples: export its trace, video or stills");
  }
  const end = gesture.events.findLast((entry) => ENDS.has(entry.message.event))?.message;
  if (!end) throw new Error("its transition has not come to rest yet");
  const outcome = end.event === "paused" ? "none" : end.event;
  const progress = end.progress ?? gesture.frames.at(-1)?.frame.progress ?? null;
  if (gesture.kind === "operation") {
    if (gesture.label !== "play") {
      throw new Error("a scene operation: scene scripts are written by hand (docs/SCRIPTS.md)");
    }
    return {
      script: 1, name: stem(gesture), description: "A play exported from the page.", config: gesture.settings,
      steps: [{ play: true }, { wait: "rest" }], expect: { outcome, progress },
    };
  }
  if (gesture.samples.length === 0) throw new Error("it has no pointer samples (a watched session's gesture)");
  if (gesture.events.some((entry) => entry.message.event === "began" && entry.message.grabbed)) {
    throw new Error("it grabbed a running completion, which no script starts from: record it (grabs included)");
  }
  if (gesture.lifecycle.length > 0) {
    throw new Error("a scene's gesture: scene scripts are written by hand (docs/SCRIPTS.md)");
  }
  if (!gesture.samples.at(-1).up) throw new Error("its pointer was not released");
  const recorder = new Recorder();
  recorder.arm(gesture.settings);
  gesture.samples.forEach((sample, index) => {
    const phase = index === 0 ? "down" : sample.up ? "up" : "move";
    recorder.pointer(phase, sample.x, sample.y, sample.at);
  });
  const script = recorder.event({ event: end.event, progress });
  script.name = stem(gesture);
  script.description = `A ${gesture.label} gesture exported from the page.`;
  return script;
}

/** The gesture's frames in the `--trace` format: JSON lines, each a whole frame message. */
export function gestureToTrace(gesture) {
  if (gesture.frames.length === 0) throw new Error("it has no frames");
  return gesture.frames.map((entry) => JSON.stringify({ type: "frame", ...entry.frame })).join("\n") + "\n";
}

/** The WebM type this browser records, or null (no MediaRecorder, or no canvas capture). */
export function webmType(canvas) {
  if (typeof MediaRecorder === "undefined" || typeof canvas.captureStream !== "function") return null;
  return WEBM_TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? null;
}

/**
 * A WebM of the screen canvas while the timeline plays `gesture` back at full speed, from its
 * first frame to its last (the span of their arrivals) and a short tail.
 */
export async function recordWebM(page, gesture) {
  const type = webmType(page.screen);
  if (!type) throw new Error("this browser cannot record the canvas (no MediaRecorder for WebM): export a filmstrip");
  const stream = page.screen.captureStream(60);
  const chunks = [];
  const recorder = new MediaRecorder(stream, { mimeType: type });
  recorder.addEventListener("dataavailable", (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  });
  const stopped = new Promise((resolve) => recorder.addEventListener("stop", resolve, { once: true }));
  page.timeline.select(gesture.id);
  await nextPaint();
  recorder.start(100);
  page.timeline.play(1);
  const frames = gesture.frames;
  await sleep(frames.at(-1).arrivedAt - frames[0].arrivedAt + VIDEO_TAIL_MS);
  recorder.stop();
  await stopped;
  for (const track of stream.getTracks()) track.stop();
  return new Blob(chunks, { type: "video/webm" });
}

/**
 * Every k-th frame of `gesture` (k so that at most MAX_STILLS are drawn, the last frame always
 * among them) as the timeline shows it on the screen, side by side in one PNG.
 */
export async function filmstrip(page, gesture) {
  const count = gesture.frames.length;
  if (count === 0) throw new Error("it has no frames");
  const every = Math.max(1, Math.ceil(count / MAX_STILLS));
  const indices = [];
  for (let i = 0; i < count; i += every) indices.push(i);
  if (indices.at(-1) !== count - 1) indices.push(count - 1);
  const screen = page.screen;
  const width = STILL_WIDTH;
  const height = Math.round((screen.height / screen.width) * width);
  const columns = Math.min(COLUMNS, indices.length);
  const strip = document.createElement("canvas");
  strip.width = columns * width;
  strip.height = Math.ceil(indices.length / columns) * height;
  const ctx = strip.getContext("2d");
  page.timeline.select(gesture.id);
  for (const [slot, index] of indices.entries()) {
    page.timeline.showFrame(index);
    await nextPaint();
    ctx.drawImage(screen, (slot % columns) * width, Math.floor(slot / columns) * height, width, height);
  }
  const blob = await new Promise((resolve) => strip.toBlob(resolve, "image/png"));
  return { blob, stills: indices.length, every };
}
