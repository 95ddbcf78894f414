// A pan script's expectations checked against what the replay observed, one result per
// expectation (`{name, passed, detail}`), with the rules and wording of `sandbox pan`
// (Sources/SandboxTools/Scripts/ScriptRunner.swift, `check`): progress within 1e-9, frames and
// release values within their [min, max], lifecycle and errors exactly, in order.

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const within = ([low, high], value) => typeof value === "number" && value >= low && value <= high;

function result(name, passed, expected, got) {
  return { name, passed, detail: passed ? `${expected}` : `expected ${expected}, got ${got}` };
}

function lifecycleCheck(wanted, got) {
  if (same(wanted, got)) return result("lifecycle", true, `${wanted.length} callbacks`);
  let index = wanted.findIndex((entry, i) => entry !== got[i]);
  if (index < 0) index = Math.min(wanted.length, got.length);
  const expected = wanted[index] ?? "(the end)";
  const found = `${got[index] ?? "(the end)"} (${got.length} callbacks)`;
  return result("lifecycle", false, `${expected} at ${index}`, found);
}

function releaseChecks(expect, got) {
  if (!got) return [result("release", false, "a released event", "none")];
  const checks = [];
  if (expect.decision !== undefined) {
    checks.push(result("release.decision", expect.decision === got.decision, expect.decision, got.decision));
  }
  if (expect.reason !== undefined) {
    checks.push(result("release.reason", expect.reason === got.reason, expect.reason, got.reason));
  }
  if (expect.projected !== undefined) {
    checks.push(result("release.projected", within(expect.projected, got.projected), expect.projected.join("…"),
      got.projected ?? "none"));
  }
  if (expect.progress !== undefined) {
    checks.push(result("release.progress", within(expect.progress, got.progress), expect.progress.join("…"),
      got.progress));
  }
  return checks;
}

function sceneChecks(expect, got) {
  const checks = [];
  const field = (name, wanted, value) => checks.push(result(`scene.${name}`, same(wanted, value),
    JSON.stringify(wanted), value === undefined || value === null ? "no scene" : JSON.stringify(value)));
  if (expect.topMost !== undefined) field("topMost", expect.topMost, got?.topMost);
  if (expect.presented !== undefined) field("presented", expect.presented, got?.presented ?? []);
  if (expect.interface !== undefined) field("interface", expect.interface, got?.interface);
  if (expect.bounds !== undefined) field("bounds", expect.bounds, got?.bounds);
  for (const [navigation, stack] of Object.entries(expect.stacks ?? {})) {
    field(`stacks.${navigation}`, stack, got?.stacks?.[navigation] ?? []);
  }
  for (const [sheet, detent] of Object.entries(expect.detent ?? {})) {
    field(`detent.${sheet}`, detent, got?.detent?.[sheet]);
  }
  return checks;
}

/** Every expectation in `expect` (panScript.js's), checked against `observer` (replayObserver.js). */
export function checkExpectations(expect, observer) {
  const checks = [];
  if (expect.outcome !== undefined) {
    checks.push(result("outcome", expect.outcome === observer.outcome, expect.outcome, observer.outcome));
  }
  if (expect.progress !== undefined) {
    checks.push(result("progress", Math.abs(expect.progress - observer.progress) <= 1e-9, expect.progress,
      observer.progress));
  }
  if (expect.frames !== undefined) {
    checks.push(result("frames", within(expect.frames, observer.frames), expect.frames.join("…"), observer.frames));
  }
  if (expect.latencyP99Ms !== undefined) {
    const p99 = observer.latencyP99;
    checks.push(result("latencyP99Ms", p99 === null || p99 <= expect.latencyP99Ms, `≤ ${expect.latencyP99Ms} ms`,
      `${p99?.toFixed(1)} ms`));
  }
  if (expect.lifecycle !== undefined) checks.push(lifecycleCheck(expect.lifecycle, observer.lifecycle));
  if (expect.errors !== undefined) {
    checks.push(result("errors", same(expect.errors, observer.errorCodes), JSON.stringify(expect.errors),
      JSON.stringify(observer.errorCodes)));
  }
  if (expect.release !== undefined) checks.push(...releaseChecks(expect.release, observer.release));
  if (expect.scene !== undefined) checks.push(...sceneChecks(expect.scene, observer.sceneSummary));
  return checks;
}
