// A trace written by `sandbox pan --trace` (docs/SCRIPTS.md: one frame message per line, exactly
// as sent, mostly deltas) → a gesture in the history's shape (history.js), kind "loaded": every
// line assembled into the whole frame the renderer draws, the outcome read off the frames. A
// trace holds frames only: no pointer samples, events or settings. A line that is not a frame,
// or a delta that does not apply, refuses the whole file (test_inspector_replay.py).

import { FrameAssembler } from "./frameAssembler.js";

const OUTCOMES = new Set(["finished", "cancelled"]);

/** Whether `text` looks like a trace (its first line a frame message) rather than a pan script. */
export function isTrace(text) {
  const first = text.trimStart().split("\n", 1)[0];
  try {
    const value = JSON.parse(first);
    return value?.type === "frame";
  } catch {
    return false;
  }
}

/** The frames of a trace as a gesture for `history.add`; throws an Error naming the bad line. */
export function loadTrace(text, label) {
  const assembler = new FrameAssembler();
  const frames = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      throw new Error(`line ${index + 1}: not JSON`);
    }
    if (message?.type !== "frame" || !Number.isFinite(message.n) || !Array.isArray(message.layers)) {
      throw new Error(`line ${index + 1}: not a frame message (type "frame" with n and layers)`);
    }
    const frame = assembler.apply(message);
    if (!frame) throw new Error(`line ${index + 1}: a delta whose base ${message.base} is not the frame before it`);
    const sent = Number.isFinite(frame.sent) ? frame.sent : 0;
    frames.push({ n: frame.n, sent, arrivedAt: sent, frame });
  });
  if (frames.length === 0) throw new Error("no frames in the file");
  return { kind: "loaded", label, startedAt: frames[0].arrivedAt, settings: null, samples: [], frames,
    events: [], lifecycle: [], decision: decision(frames) };
}

/**
 * The outcome as the frames show it: the last finished or cancelled phase, with the progress and
 * velocity of the last tracking frame before it (the release); null when neither was reached.
 */
function decision(frames) {
  const end = frames.findLastIndex((entry) => OUTCOMES.has(entry.frame.phase));
  if (end < 0) return null;
  const released = frames.slice(0, end).findLast((entry) => entry.frame.phase === "tracking")?.frame;
  return {
    outcome: frames[end].frame.phase, reason: null,
    progress: released?.progress ?? null, velocity: released?.velocity ?? null, projected: null,
  };
}
