"""Pan scripts (docs/SCRIPTS.md): reading a file into steps and expectations, with the checks and
messages of `sandbox pan` (Sources/SandboxTools/Scripts/PanScript+Parsing.swift, +Steps,
+Expectations). A script that cannot be read raises ScriptError naming the file, the step or the
expectation, and what is wrong (tests/test_client_script.py)."""
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ScriptError
from .files import read_limited
from .expectations import parse_expectations
from .values import number
from .values import optional_number as _optional_number
from .values import optional_string as _optional_string
from .values import point as _point
from .wire import MAX_DEPTH, _depth

MAX_SCRIPT = 16 << 20  # bytes: far above any real script, small enough to read at once
DEFAULT_RATE = 60.0
DEFAULT_TIMEOUT_MS = 10_000.0
WAITS = ("began", "released", "played", "finished", "cancelled", "paused", "rest")
OUTCOMES = ("finished", "cancelled", "none")
SCENE_ACTIONS = ("scene", "present", "dismiss", "push", "pop", "device", "update", "attempt-rotation",
                 "update-supported-orientations", "request-geometry-update", "sheet")
ACTIONS = ("down", "move", "moveBy", "samples", "hold", "up", "cancel", "play", "wait") + SCENE_ACTIONS
OPTIONS = {"down": {"pointer"}, "move": {"ms", "hz", "pointer"}, "moveBy": {"ms", "hz", "pointer"},
           "samples": {"pointer"}, "up": {"pointer"}, "cancel": {"pointer"}, "wait": {"timeoutMs"}}


@dataclass
class Step:
    """One step. `kind`: down, move, samples, hold, up, cancel, play, wait, or message (a scene
    or orientation message, sent as `message`)."""
    kind: str
    x: float = 0.0
    y: float = 0.0
    relative: bool = False
    ms: float = 0.0
    hz: float = DEFAULT_RATE
    pointer: int = 0
    samples: list = field(default_factory=list)
    condition: str = ""
    message: dict = None


@dataclass
class PanScript:
    name: str
    steps: list
    config: dict = None  # a `configure` message, `type` included; None: the server's defaults
    expect: dict = field(default_factory=dict)
    description: str = None


def _beyond_double(text):
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:32]} is beyond a double")
    return value


def _whole_within_double(text):
    value = int(text)
    if not number(value):
        raise ValueError(f"the number {text[:32]}… is beyond a double")
    return value


def _refuse(name):
    raise ValueError(f"{name} is not a JSON number")


def load_script(path):
    """The script in the file at `path` (its name defaults to the file's)."""
    path = Path(path)
    try:
        data = read_limited(path, MAX_SCRIPT, "the script")
    except OSError as error:
        raise ScriptError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        return parse_script(data, default_name=path.stem)
    except ScriptError as error:
        raise ScriptError(f"{path}: {error}") from None


def parse_script(data, default_name="script"):
    """A script from its JSON text (str or bytes) or the parsed object."""
    if isinstance(data, (str, bytes, bytearray)):
        try:
            text = data if isinstance(data, str) else bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise ScriptError(f"not UTF-8 (byte {error.start})") from None
        if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
            raise ScriptError(f"nested deeper than {MAX_DEPTH} (the server's limit)")
        try:
            root = json.loads(text, parse_constant=_refuse, parse_float=_beyond_double,
                              parse_int=_whole_within_double)
        except json.JSONDecodeError as error:
            raise ScriptError(f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
        except ValueError as error:
            raise ScriptError(f"not JSON: {error}") from None
        except RecursionError:
            raise ScriptError(f"nested deeper than {MAX_DEPTH} (the server's limit)") from None
    else:
        root = data
    problem = _unsendable(root)
    if problem:
        raise ScriptError(problem)
    if not isinstance(root, dict):
        raise ScriptError("a script is one JSON object")
    known = ("script", "name", "description", "config", "steps", "expect")
    unknown = sorted(k for k in root if k not in known)
    if unknown:
        raise ScriptError(f"unknown field '{unknown[0]}' (script, name, description, config, steps, expect)")
    if "script" in root and not (number(root["script"]) and root["script"] == 1):
        raise ScriptError("'script' must be 1 (the format's version)")
    name = _optional_string(root, "name")
    script = PanScript(name=default_name if name is None else name, steps=[],
                       description=_optional_string(root, "description"))
    if "config" in root:
        if not isinstance(root["config"], dict):
            raise ScriptError("'config' must be an object of configure fields")
        script.config = {**root["config"], "type": "configure"}
    steps = root.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ScriptError("'steps' must be a non-empty array")
    for index, step in enumerate(steps):
        try:
            script.steps.append(parse_step(step))
        except ScriptError as error:
            raise ScriptError(f"steps[{index}]: {error}") from None
    if "expect" in root:
        try:
            script.expect = parse_expectations(root["expect"])
        except ScriptError as error:
            raise ScriptError(f"expect: {error}") from None
    return script


def _unsendable(value):
    """Why `value` cannot be sent as the server reads JSON, or None: nested deeper than
    MAX_DEPTH, or a string (key or value) with a lone surrogate (not Unicode text)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                return f"nested deeper than {MAX_DEPTH} (the server's limit)"
            children = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in children:
                if isinstance(key, str):
                    stack.append((key, depth))
                stack.append((child, depth + 1))
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                return f"the string {item[:40].encode('utf-8', 'backslashreplace').decode()!r} has a lone " \
                       f"surrogate at {error.start} (not Unicode text)"
    return None


def parse_step(step):
    if not isinstance(step, dict):
        raise ScriptError('a step is an object such as {"down": [100, 400]}')
    present = [a for a in ACTIONS if a in step]
    if len(present) != 1:
        raise ScriptError(f"a step has exactly one of {', '.join(ACTIONS)}")
    action = present[0]
    unknown = sorted(k for k in step if k != action and k not in OPTIONS.get(action, ()))
    if unknown:
        raise ScriptError(f"'{action}' takes no '{unknown[0]}'")
    pointer = 0
    if "pointer" in step:
        ident = _optional_number(step, "pointer")
        if not (ident == round(ident) and 0 <= ident < 1e9):
            raise ScriptError("'pointer' must be a whole number ≥ 0")
        pointer = int(ident)
    if action == "down":
        x, y = _point(step["down"], "down")
        return Step("down", x=x, y=y, pointer=pointer)
    if action in ("move", "moveBy"):
        x, y = _point(step[action], action)
        ms = _optional_number(step, "ms")
        hz = _optional_number(step, "hz")
        ms = 0.0 if ms is None else ms
        hz = DEFAULT_RATE if hz is None else hz
        if not 0 <= ms <= 3_600_000:
            raise ScriptError("'ms' must be in 0…3600000")
        if not 0 < hz <= 10_000:
            raise ScriptError("'hz' must be in (0, 10000]")
        return Step("move", x=x, y=y, relative=action == "moveBy", ms=ms, hz=hz, pointer=pointer)
    if action == "samples":
        return Step("samples", samples=_samples(step["samples"]), pointer=pointer)
    if action == "hold":
        ms = step["hold"]
        if not (number(ms) and 0 <= ms <= 3_600_000):
            raise ScriptError("'hold' must be a number of milliseconds in 0…3600000")
        return Step("hold", ms=float(ms))
    if action in ("up", "cancel", "play"):
        if step[action] is not True:
            raise ScriptError(f'write {{"{action}": true}}')
        return Step(action, pointer=pointer)
    if action == "device":
        if not isinstance(step["device"], str):
            raise ScriptError("'device' must be an orientation name")
        return Step("message", message={"type": "device", "orientation": step["device"]})
    if action in ("attempt-rotation", "update-supported-orientations"):
        if step[action] is not True:
            raise ScriptError(f'write {{"{action}": true}}')
        return Step("message", message={"type": action})
    if action in SCENE_ACTIONS:
        fields = step[action]
        if not isinstance(fields, dict) or "type" in fields:
            raise ScriptError(f"'{action}' must be an object of the {action} message's fields (without 'type')")
        return Step("message", message={**fields, "type": action})
    # wait
    if step["wait"] not in WAITS:
        raise ScriptError(f"'wait' must be one of {', '.join(WAITS)}")
    timeout = _optional_number(step, "timeoutMs")
    timeout = DEFAULT_TIMEOUT_MS if timeout is None else timeout
    if not 0 < timeout <= 3_600_000:
        raise ScriptError("'timeoutMs' must be in (0, 3600000]")
    return Step("wait", condition=step["wait"], ms=timeout)


def _samples(rows):
    if not isinstance(rows, list) or not rows:
        raise ScriptError("'samples' must be a non-empty array of [ms, x, y]")
    samples = []
    for index, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 3:
            raise ScriptError(f"samples[{index}] must be [ms, x, y]")
        if not all(number(v) for v in row):
            raise ScriptError(f"samples[{index}] must be [ms, x, y], numbers")
        values = [float(v) for v in row]
        if values[0] < 0:
            raise ScriptError(f"samples[{index}]: ms must be ≥ 0")
        if samples and values[0] < samples[-1][0]:
            raise ScriptError(f"samples[{index}]: times must not decrease ({values[0]} after {samples[-1][0]})")
        samples.append(values)
    return samples
