"""A pan script's `expect` (docs/SCRIPTS.md "Expectations"): read with `sandbox pan`'s checks
(Sources/SandboxTools/Scripts/PanScript+Expectations.swift) and checked against a replay's report
with its rules and words (ScriptRunner.check)."""
from .errors import ScriptError
from .values import number, optional_number, optional_string, optional_strings

KNOWN = ("outcome", "progress", "frames", "latencyP99Ms", "lifecycle", "errors", "scene", "release")
SCENE_KEYS = ("topMost", "presented", "stacks", "interface", "bounds", "detent")
RELEASE_KEYS = ("decision", "reason", "projected", "progress")


def parse_expectations(value):
    """`expect` → a dict of the expectations given (absent ones are not checked)."""
    if not isinstance(value, dict):
        raise ScriptError("must be an object")
    unknown = sorted(k for k in value if k not in KNOWN)
    if unknown:
        raise ScriptError(f"unknown field '{unknown[0]}' ({', '.join(KNOWN)})")
    expect = {}
    if value.get("outcome") is not None:
        if value["outcome"] not in ("finished", "cancelled", "none"):
            raise ScriptError("'outcome' must be finished, cancelled or none")
        expect["outcome"] = value["outcome"]
    if value.get("progress") is not None:
        progress = optional_number(value, "progress")
        if not 0 <= progress <= 1:
            raise ScriptError("'progress' must be in 0…1")
        expect["progress"] = progress
    if "frames" in value:
        bounds = value["frames"]
        if not (isinstance(bounds, list) and len(bounds) == 2 and all(number(b) for b in bounds)
                and all(b == round(b) for b in bounds) and 0 <= bounds[0] <= bounds[1] < 1e9):
            raise ScriptError("'frames' must be [min, max], whole numbers")
        expect["frames"] = (int(bounds[0]), int(bounds[1]))
    if "latencyP99Ms" in value:
        budget = optional_number(value, "latencyP99Ms")
        if budget <= 0:
            raise ScriptError("'latencyP99Ms' must be > 0")
        expect["latencyP99Ms"] = budget
    for key in ("lifecycle", "errors"):
        if key in value:
            expect[key] = optional_strings(value, key)
    if "scene" in value:
        expect["scene"] = _scene(value["scene"])
    if "release" in value:
        expect["release"] = _release(value["release"])
    return expect


def _scene(fields):
    if not isinstance(fields, dict):
        raise ScriptError("'scene' must be an object")
    unknown = sorted(k for k in fields if k not in SCENE_KEYS)
    if unknown:
        raise ScriptError(f"scene: unknown field '{unknown[0]}' ({', '.join(SCENE_KEYS)})")
    scene = {"topMost": optional_string(fields, "topMost"), "presented": optional_strings(fields, "presented"),
             "interface": optional_string(fields, "interface")}
    if "bounds" in fields:
        bounds = fields["bounds"]
        if not (isinstance(bounds, list) and len(bounds) == 2 and all(number(b) for b in bounds)):
            raise ScriptError("scene.bounds must be [width, height]")
        scene["bounds"] = [float(b) for b in bounds]
    if "stacks" in fields:
        if not isinstance(fields["stacks"], dict):
            raise ScriptError("scene.stacks must map navigation ids to id lists")
        scene["stacks"] = {nav: optional_strings(fields["stacks"], nav) for nav in fields["stacks"]}
    if "detent" in fields:
        if not isinstance(fields["detent"], dict):
            raise ScriptError("scene.detent must map sheet ids to detent ids")
        scene["detent"] = {sheet: optional_string(fields["detent"], sheet) for sheet in fields["detent"]}
    return {k: v for k, v in scene.items() if v is not None}


def _release(fields):
    if not isinstance(fields, dict):
        raise ScriptError("'release' must be an object")
    unknown = sorted(k for k in fields if k not in RELEASE_KEYS)
    if unknown:
        raise ScriptError(f"release: unknown field '{unknown[0]}' ({', '.join(RELEASE_KEYS)})")
    release = {}
    decision, reason = optional_string(fields, "decision"), optional_string(fields, "reason")
    if decision is not None:
        if decision not in ("finish", "cancel"):
            raise ScriptError("release.decision must be finish or cancel")
        release["decision"] = decision
    if reason is not None:
        if reason not in ("threshold", "fling", "projection"):
            raise ScriptError("release.reason must be threshold, fling or projection")
        release["reason"] = reason
    for key in ("projected", "progress"):
        if key in fields:
            bounds = fields[key]
            if not (isinstance(bounds, list) and len(bounds) == 2 and all(number(b) for b in bounds)
                    and bounds[0] <= bounds[1]):
                raise ScriptError(f"release.{key} must be [min, max]")
            release[key] = (float(bounds[0]), float(bounds[1]))
    return release


def check(expect, report):
    """The expectations `report` misses, each a sentence (empty: it passed)."""
    failures = []
    if "outcome" in expect and expect["outcome"] != report.outcome:
        failures.append(f"outcome: expected {expect['outcome']}, got {report.outcome}")
    if "progress" in expect and abs(expect["progress"] - report.progress) > 1e-9:
        failures.append(f"progress: expected {expect['progress']}, got {report.progress}")
    if "frames" in expect and not expect["frames"][0] <= report.frames <= expect["frames"][1]:
        low, high = expect["frames"]
        failures.append(f"frames: expected {low}…{high}, got {report.frames}")
    p99 = report.latency["p99"] if report.latency else None
    if "latencyP99Ms" in expect and p99 is not None and p99 > expect["latencyP99Ms"]:
        failures.append(f"latency: p99 {p99:.3f} ms is over the budget of {expect['latencyP99Ms']} ms")
    if "lifecycle" in expect and expect["lifecycle"] != report.lifecycle:
        wanted, got = expect["lifecycle"], report.lifecycle
        index = next((i for i, (a, b) in enumerate(zip(wanted, got)) if a != b), min(len(wanted), len(got)))
        failures.append(f"lifecycle: at {index} expected {wanted[index] if index < len(wanted) else '(the end)'}, "
                        f"got {got[index] if index < len(got) else '(the end)'} ({len(got)} callbacks)")
    if "errors" in expect and expect["errors"] != report.error_codes:
        said = f" — the server said: {'; '.join(report.errors)}" if report.errors else ""
        failures.append(f"errors: expected {expect['errors']}, got {report.error_codes}{said}")
    if "release" in expect:
        failures += _check_release(expect["release"], report.release)
    if "scene" in expect:
        failures += _check_scene(expect["scene"], report.scene)
    return failures


def _check_release(expect, got):
    if got is None:
        return ["release: expected a released event, got none"]
    failures = []
    for key in ("decision", "reason"):
        if key in expect and expect[key] != got.get(key):
            failures.append(f"release: expected {key} {expect[key]}, got {got.get(key)}")
    for key in ("projected", "progress"):
        if key not in expect:
            continue
        low, high = expect[key]
        value = got.get(key)
        if not (number(value) and low <= value <= high):
            failures.append(f"release: expected {key} in {low}…{high}, got {'none' if value is None else value}")
    return failures


def _check_scene(expect, got):
    got = got or {}
    failures = []
    if "topMost" in expect and expect["topMost"] != got.get("topMost"):
        failures.append(f"scene: expected top-most {expect['topMost']}, got {got.get('topMost') or 'no scene'}")
    if "presented" in expect and expect["presented"] != got.get("presented"):
        failures.append(f"scene: expected presented {expect['presented']}, got {got.get('presented') or []}")
    if "interface" in expect and expect["interface"] != got.get("interface"):
        failures.append(f"scene: expected the interface {expect['interface']}, "
                        f"got {got.get('interface') or 'no scene'}")
    if "bounds" in expect and expect["bounds"] != got.get("bounds"):
        failures.append(f"scene: expected bounds {expect['bounds']}, got {got.get('bounds') or []}")
    for navigation, stack in expect.get("stacks", {}).items():
        if (got.get("stacks") or {}).get(navigation) != stack:
            failures.append(f"scene: expected {navigation}'s stack {stack}, "
                            f"got {(got.get('stacks') or {}).get(navigation) or []}")
    for sheet, detent in expect.get("detent", {}).items():
        if (got.get("detent") or {}).get(sheet) != detent:
            failures.append(f"scene: expected {sheet} at detent {detent}, "
                            f"got {(got.get('detent') or {}).get(sheet) or 'none'}")
    return failures
