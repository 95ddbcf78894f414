#!/usr/bin/env python3
"""Writes the fuzz target's seed corpus, Fuzz/corpus/*.txt (docs/SECURITY.md, "Fuzzing").

Seeds: every pan script in examples/scripts turned into client messages as `sandbox pan` sends
them (docs/SCRIPTS.md), every bad message in Tests/integration/test_bad_input.py, and a few
sessions of each message type. Format (Fuzz/SessionFuzz.swift): one message per line, `+MS ` to
let MS milliseconds pass first. Regenerate after changing the scripts or the tests:

    python3 Fuzz/make_corpus.py
"""
import ast
import glob
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Fuzz", "corpus")
MAX_BYTES = 4096  # make fuzz's -max_len
DEFAULT_DURATION = {"reveal": 2.0, "pop": 1.0, "flip-horizontal": 0.75, "partial-curl": 0.75}


def compact(value):
    return json.dumps(value, separators=(",", ":"))


class Lines:
    """Messages with their virtual times (ms), written with `+MS` deltas."""

    def __init__(self):
        self.items = []  # (ms, text)

    def add(self, ms, text):
        self.items.append((ms, text))

    def text(self):
        out, last = [], 0
        for ms, text in self.items:
            delta = round(ms) - last
            last = round(ms)
            out.append((f"+{delta} " if delta else "") + text)
        return "\n".join(out) + "\n"


def script_lines(script, hz_scale=1.0):
    """ScriptPlayer's messages: pointer `t` = 1000 + script ms, seq from 1."""
    lines = Lines()
    config = script.get("config")
    if config is not None:
        lines.add(0, compact({"type": "configure", **config}))
    kind = (config or {}).get("transition", "pop")
    duration = (config or {}).get("duration", DEFAULT_DURATION.get(kind, 0.5))
    completion = duration / (config or {}).get("completionSpeed", 1)
    now, seq, positions = 0.0, 0, {}

    def pointer(phase, x, y, pid, ms):
        nonlocal seq
        seq += 1
        lines.add(ms, compact({"type": "pointer", "phase": phase, "x": float(x), "y": float(y),
                               "t": 1000 + ms, "seq": seq, "pointerId": pid}))

    for step in script["steps"]:
        pid = step.get("pointer", 0)
        if "down" in step:
            positions[pid] = step["down"]
            pointer("down", *step["down"], pid, now)
        elif "move" in step or "moveBy" in step:
            fx, fy = positions[pid]
            dx, dy = step.get("move") or step["moveBy"]
            tx, ty = (dx, dy) if "move" in step else (fx + dx, fy + dy)
            ms, hz = step.get("ms", 0), step.get("hz", 60) * hz_scale
            count = max(round(ms * hz / 1000), 1)
            for i in range(1, count + 1):
                f = i / count
                pointer("move", fx + (tx - fx) * f, fy + (ty - fy) * f, pid, now + ms * f)
            positions[pid] = [tx, ty]
            now += ms
        elif "samples" in step:
            start = now
            for ms, x, y in step["samples"]:
                pointer("move", x, y, pid, start + ms)
                positions[pid] = [x, y]
            now = start + (step["samples"][-1][0] if step["samples"] else 0)
        elif "hold" in step:
            now += step["hold"]
        elif "up" in step or "cancel" in step:
            pointer("up" if "up" in step else "cancel", *positions.pop(pid), pid, now)
        elif "play" in step:
            lines.add(now, compact({"type": "play"}))
        elif "device" in step:
            lines.add(now, compact({"type": "device", "orientation": step["device"]}))
        elif "attempt-rotation" in step:
            lines.add(now, compact({"type": "attempt-rotation"}))
        elif any(k in step for k in ("scene", "present", "dismiss", "push", "pop", "update")):
            kind = next(k for k in ("scene", "present", "dismiss", "push", "pop", "update") if k in step)
            lines.add(now, compact({"type": kind, **step[kind]}))
            completion = max(completion, 2.0)  # a scene operation runs its kind's own duration
        elif "wait" in step:
            # Events that follow their message at once take no time; the end of a completion
            # takes at most its duration (the harness runs the last one to rest anyway).
            if step["wait"] in ("finished", "cancelled", "rest"):
                now += completion * 1000 + 20
    return lines.text()


def bad_messages():
    """BAD_MESSAGES and FIELD_ERRORS from the integration tests (read, not imported)."""
    path = os.path.join(ROOT, "Tests", "integration", "test_bad_input.py")
    tree = ast.parse(open(path).read())
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id in ("BAD_MESSAGES", "FIELD_ERRORS"):
            found[node.targets[0].id] = eval(compile(ast.Expression(node.value), path, "eval"), {"__builtins__": {}})
    texts = [text for text, _ in found.get("BAD_MESSAGES", [])]
    texts += [compact({"type": "configure", **patch}) for patch, _, _ in found.get("FIELD_ERRORS", [])]
    return texts


def sessions():
    """A few hand-written sessions: each message type, grabs, several pointers, refusals."""
    def p(phase, x, y, t, seq, pid=None):
        m = {"type": "pointer", "phase": phase, "x": x, "y": y, "t": t, "seq": seq}
        if pid is not None:
            m["pointerId"] = pid
        return compact(m)

    drag = [p("down", 100, 400, 1000, 1), "+16 " + p("move", 150, 400, 1016, 2),
            "+16 " + p("move", 250, 400, 1032, 3), "+16 " + p("up", 250, 400, 1048, 4)]
    out = {
        "ping": ['{"type":"ping","seq":7,"t":1.5}', '+5 {"type":"ping","seq":8,"t":1e300}'],
        "join": ['{"type":"join","session":"virtual"}', '{"type":"join","session":"9f3c2a1b"}'],
        "play": ['{"type":"play"}', '+100 {"type":"ping","seq":1,"t":0}', '+2000'],
        "play-busy": ['{"type":"play"}', '+10 {"type":"play"}', '+10 {"type":"configure","fps":30}'],
        "play-grab": ['{"type":"play"}', "+300 " + p("down", 200, 400, 5000, 1),
                      "+16 " + p("move", 120, 400, 5016, 2), "+16 " + p("up", 120, 400, 5032, 3)],
        "drag": drag,
        "drag-burst": [line.split(" ", 1)[-1] if line.startswith("+") else line for line in drag],
        "drag-y-free": ['{"type":"configure","axis":"y","direction":"negative"}',
                        p("down", 100, 400, 0, 1), "+20 " + p("move", 100, 300, 20, 2),
                        "+20 " + p("cancel", 100, 250, 40, 3),
                        '+1000 {"type":"configure","axis":"free","direction":"both"}',
                        p("down", 100, 400, 0, 4), "+20 " + p("move", 160, 480, 20, 5),
                        "+20 " + p("up", 200, 500, 40, 6)],
        "fling-spring": ['{"type":"configure","flingVelocity":300,"completionCurve":"spring",'
                         '"spring":{"damping":0.2,"initialVelocity":3},"fps":240}'] + drag,
        "bezier-slow": ['{"type":"configure","completionCurve":[0.1,-5,0.9,5],"completionSpeed":0.5,'
                        '"fps":30,"threshold":0.2,"clamp":[0,1]}'] + drag,
        "two-pointers": [p("down", 100, 400, 0, 1, 0), p("down", 300, 400, 1, 2, 1),
                         "+16 " + p("move", 200, 400, 16, 3, 0), "+16 " + p("up", 300, 400, 17, 4, 1),
                         "+16 " + p("up", 200, 400, 32, 5, 0)],
        "too-many-pointers": [p("down", 10 * i, 400, i, i + 1, i) for i in range(12)],
        "bad-seq": [p("down", 100, 400, 0, 5), p("move", 150, 400, 16, 5), p("move", 160, 400, 15, 6),
                    '{"type":"configure","transition":"fade"}'],
        "configure-all": [compact({"type": "configure", "transition": "partial-curl", "operation": "dismiss",
                                   "duration": 0.75, "distance": 300, "axis": "x", "direction": "positive",
                                   "slop": 0, "threshold": 0.5, "clamp": [0.01, 0.99], "completionSpeed": 2,
                                   "completionCurve": "easeOut", "spring": {"damping": 1, "initialVelocity": 0},
                                   "flingVelocity": None, "fps": 120, "container": [1024, 768],
                                   "originFrame": [10, 20, 100, 50]}), '{"type":"play"}', "+1000"],
    }
    for kind in ["fade", "pop", "reveal", "push", "cover-vertical", "flip-horizontal", "cross-dissolve",
                 "partial-curl", "zoom"]:
        out[f"play-{kind}"] = [compact({"type": "configure", "transition": kind, "operation": "dismiss"}),
                               '{"type":"play"}', "+100 " + p("down", 100, 400, 100, 1),
                               "+30 " + p("move", 300, 400, 130, 2), "+30 " + p("up", 300, 400, 160, 3)]
    # The network lab: a pan through a jittery link switched off mid-gesture, a ping
    # held both ways; and a viewer-free flood of moves through 2 s.
    out["network-lab"] = [compact({"type": "configure", "network": {"delayMs": 120, "jitterMs": 40, "seed": 3}}),
                          "+300 " + p("down", 100, 400, 300, 1), "+16 " + p("move", 140, 400, 316, 2),
                          "+16 " + p("move", 200, 400, 332, 3),
                          "+16 " + compact({"type": "configure", "network": {"delayMs": 0, "jitterMs": 0}}),
                          "+16 " + p("up", 240, 400, 364, 4), '{"type":"ping","seq":1,"t":5}', "+500"]
    out["network-flood"] = [compact({"type": "configure", "network": {"delayMs": 2000, "jitterMs": 1000, "seed": 9}})] + [
        ("+4 " if i else "") + p("down" if i == 0 else "move", 100 + i, 400, 4 * i, i + 1) for i in range(45)]
    # Prediction: the table asked for, a configure it follows, a pan, and a bad value.
    out["prediction"] = ['{"type":"configure","prediction":true}',
                         compact({"type": "configure", "transition": "flip-horizontal", "container": [4000, 4000]}),
                         compact({"type": "configure", "transition": "reveal"}),
                         "+100 " + p("down", 100, 400, 100, 1), "+16 " + p("move", 160, 400, 116, 2),
                         "+16 " + p("up", 220, 400, 132, 3), '{"type":"configure","prediction":1}', "+500"]
    return {name: "\n".join(lines) + "\n" for name, lines in out.items()}


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "scripts", "*.json"))):
        script = json.load(open(path))
        name = os.path.splitext(os.path.basename(path))[0]
        text, scale = script_lines(script), 1.0
        while len(text.encode()) > MAX_BYTES:  # fewer moves, same path and timing
            scale /= 2
            text = script_lines(script, scale)
        seeds[f"script-{name}"] = text
    for i, text in enumerate(bad_messages()):
        seeds[f"bad-{i:02d}"] = text + "\n"
    for name, text in sessions().items():
        seeds[f"session-{name}"] = text
    for name, text in seeds.items():
        with open(os.path.join(OUT, name + ".txt"), "w") as f:
            f.write(text)
    print(f"{len(seeds)} seeds in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
