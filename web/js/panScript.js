// Reads a pan script (docs/SCRIPTS.md) into checked steps and expectations, refusing what
// `sandbox pan` refuses (unknown fields, malformed steps) with the same kind of message, so a file
// the page plays is one the tool plays too. Nothing here sends or draws.

const SCENE_ACTIONS = ["scene", "present", "dismiss", "push", "pop", "device", "update", "attempt-rotation", "sheet"];
const ACTIONS = ["down", "move", "moveBy", "samples", "hold", "up", "cancel", "play", "wait", ...SCENE_ACTIONS];
const OPTIONS = {
  down: ["pointer"], move: ["ms", "hz", "pointer"], moveBy: ["ms", "hz", "pointer"], samples: ["pointer"],
  hold: [], up: ["pointer"], cancel: ["pointer"], play: [], wait: ["timeoutMs"],
};
export const WAIT_CONDITIONS = ["began", "released", "played", "finished", "cancelled", "paused", "rest"];
const EXPECTATIONS = ["outcome", "progress", "frames", "latencyP99Ms", "lifecycle", "errors", "scene", "release"];
const SCENE_FIELDS = ["topMost", "presented", "stacks", "interface", "bounds", "detent"];
const RELEASE_FIELDS = ["decision", "reason", "projected", "progress"];
/** Steps at `hz` when a move does not say; a `wait` waits this long when it does not say. */
export const DEFAULT_RATE = 60;
export const DEFAULT_TIMEOUT_MS = 10000;

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isNumber = (value) => typeof value === "number" && Number.isFinite(value);

function fail(message) {
  throw new Error(message);
}

function unknownField(object, known, where) {
  const unknown = Object.keys(object).sort().find((key) => !known.includes(key));
  if (unknown !== undefined) fail(`${where}unknown field '${unknown}' (${known.join(", ")})`);
}

function optionalNumber(object, key) {
  if (!(key in object)) return undefined;
  if (!isNumber(object[key])) fail(`'${key}' must be a number`);
  return object[key];
}

function point(value, key) {
  if (!Array.isArray(value) || value.length !== 2 || !value.every(isNumber)) fail(`'${key}' must be [x, y] in points`);
  return value;
}

function strings(value, key) {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    fail(`'${key}' must be an array of strings`);
  }
  return value;
}

function range(value, key) {
  if (!Array.isArray(value) || value.length !== 2 || !value.every(isNumber) || value[0] > value[1]) {
    fail(`${key} must be [min, max]`);
  }
  return value;
}

/** One step: an object naming exactly one action, as `{action, …its values}`. */
export function parseStep(step) {
  if (!isObject(step)) fail('a step is an object such as {"down": [100, 400]}');
  const present = ACTIONS.filter((action) => action in step);
  if (present.length !== 1) fail(`a step has exactly one of ${ACTIONS.join(", ")}`);
  const [action] = present;
  const unknown = Object.keys(step).sort().find((key) => key !== action && !(OPTIONS[action] ?? []).includes(key));
  if (unknown !== undefined) fail(`'${action}' takes no '${unknown}'`);
  const pointer = optionalNumber(step, "pointer") ?? 0;
  if (!Number.isInteger(pointer) || pointer < 0 || pointer >= 1e9) fail("'pointer' must be a whole number ≥ 0");
  const value = step[action];
  switch (action) {
    case "down":
      return { action, at: point(value, action), pointer };
    case "move":
    case "moveBy": {
      const ms = optionalNumber(step, "ms") ?? 0;
      const hz = optionalNumber(step, "hz") ?? DEFAULT_RATE;
      if (ms < 0 || ms > 3600000) fail("'ms' must be in 0…3600000");
      if (hz <= 0 || hz > 10000) fail("'hz' must be in (0, 10000]");
      return { action, to: point(value, action), relative: action === "moveBy", ms, hz, pointer };
    }
    case "samples": {
      if (!Array.isArray(value) || value.length === 0) fail("'samples' must be a non-empty array of [ms, x, y]");
      value.forEach((row, index) => {
        if (!Array.isArray(row) || row.length !== 3 || !row.every(isNumber)) {
          fail(`samples[${index}] must be [ms, x, y], numbers`);
        }
        if (row[0] < 0) fail(`samples[${index}]: ms must be ≥ 0`);
        if (index > 0 && row[0] < value[index - 1][0]) fail(`samples[${index}]: times must not decrease`);
      });
      return { action, samples: value, pointer };
    }
    case "hold":
      if (!isNumber(value) || value < 0 || value > 3600000) {
        fail("'hold' must be a number of milliseconds in 0…3600000");
      }
      return { action, ms: value };
    case "up":
    case "cancel":
    case "play":
    case "attempt-rotation":
      if (value !== true) fail(`write {"${action}": true}`);
      return action === "attempt-rotation" ? { action, message: { type: action } } : { action, pointer };
    case "device":
      if (typeof value !== "string") fail("'device' must be an orientation name");
      return { action, message: { type: "device", orientation: value } };
    case "wait": {
      if (!WAIT_CONDITIONS.includes(value)) fail(`'wait' must be one of ${WAIT_CONDITIONS.join(", ")}`);
      const timeoutMs = optionalNumber(step, "timeoutMs") ?? DEFAULT_TIMEOUT_MS;
      if (timeoutMs <= 0 || timeoutMs > 3600000) fail("'timeoutMs' must be in (0, 3600000]");
      return { action, condition: value, timeoutMs };
    }
    default:  // a scene message, sent as written
      if (!isObject(value) || "type" in value) {
        fail(`'${action}' must be an object of the ${action} message's fields (without 'type')`);
      }
      return { action, message: { ...value, type: action } };
  }
}

function parseExpectations(expect) {
  if (!isObject(expect)) fail("must be an object");
  unknownField(expect, EXPECTATIONS, "");
  const out = {};
  if (expect.outcome !== undefined && expect.outcome !== null) {
    if (!["finished", "cancelled", "none"].includes(expect.outcome)) {
      fail("'outcome' must be finished, cancelled or none");
    }
    out.outcome = expect.outcome;
  }
  if (expect.progress !== undefined && expect.progress !== null) {
    out.progress = optionalNumber(expect, "progress");
    if (out.progress < 0 || out.progress > 1) fail("'progress' must be in 0…1");
  }
  if ("frames" in expect) {
    const [low, high] = range(expect.frames, "'frames'");
    if (!Number.isInteger(low) || !Number.isInteger(high) || low < 0) {
      fail("'frames' must be [min, max], whole numbers");
    }
    out.frames = [low, high];
  }
  out.latencyP99Ms = optionalNumber(expect, "latencyP99Ms");
  if (out.latencyP99Ms !== undefined && out.latencyP99Ms <= 0) fail("'latencyP99Ms' must be > 0");
  if ("lifecycle" in expect) out.lifecycle = strings(expect.lifecycle, "lifecycle");
  if ("errors" in expect) out.errors = strings(expect.errors, "errors");
  if ("scene" in expect) {
    if (!isObject(expect.scene)) fail("'scene' must be an object");
    unknownField(expect.scene, SCENE_FIELDS, "scene: ");
    out.scene = expect.scene;
  }
  if ("release" in expect) {
    if (!isObject(expect.release)) fail("'release' must be an object");
    unknownField(expect.release, RELEASE_FIELDS, "release: ");
    const { decision, reason, projected, progress } = expect.release;
    if (decision !== undefined && !["finish", "cancel"].includes(decision)) {
      fail("release.decision must be finish or cancel");
    }
    if (reason !== undefined && !["threshold", "fling", "projection"].includes(reason)) {
      fail("release.reason must be threshold, fling or projection");
    }
    if (projected !== undefined) range(projected, "release.projected");
    if (progress !== undefined) range(progress, "release.progress");
    out.release = expect.release;
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}

/** A parsed script `{name, description, config, steps, expect}`; throws an Error saying what is wrong. */
export function parsePanScript(json, defaultName = "script") {
  if (!isObject(json)) fail("a script is one JSON object");
  unknownField(json, ["script", "name", "description", "config", "steps", "expect"], "");
  if ("script" in json && json.script !== 1) fail("'script' must be 1 (the format's version)");
  for (const key of ["name", "description"]) {
    if (key in json && typeof json[key] !== "string") fail(`'${key}' must be a string`);
  }
  if ("config" in json && !isObject(json.config)) fail("'config' must be an object of configure fields");
  if (!Array.isArray(json.steps) || json.steps.length === 0) fail("'steps' must be a non-empty array");
  const steps = json.steps.map((step, index) => {
    try {
      return parseStep(step);
    } catch (error) {
      return fail(`steps[${index}]: ${error.message}`);
    }
  });
  let expect = {};
  if ("expect" in json) {
    try {
      expect = parseExpectations(json.expect);
    } catch (error) {
      fail(`expect: ${error.message}`);
    }
  }
  const { name = defaultName, description = null, config = null } = json;
  return { name, description, config, steps, expect };
}
