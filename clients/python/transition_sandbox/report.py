"""What one replay of a pan script did (`sandbox pan --json`'s report, the same keys), and where
two replays disagree (Sources/SandboxTools/Scripts/ScriptRunner.swift, `disagreements`)."""
import math
from dataclasses import dataclass, field

# How far apart progress may be once a grab has landed: a grab takes the running completion
# where it is when the touch arrives, which real time cannot repeat (about 10 ms of a 0.5 s
# completion).
GRAB_TOLERANCE = 0.02


def summary(values):
    """Percentiles (ms) by nearest rank; None for no values."""
    if not values:
        return None
    ordered = sorted(values)

    def at(p):
        return ordered[max(math.ceil(p / 100 * len(ordered)) - 1, 0)]

    return {"count": len(ordered), "p50": at(50), "p90": at(90), "p99": at(99), "p99.9": at(99.9),
            "max": ordered[-1]}


@dataclass
class Report:
    name: str
    mode: str  # the server's URL
    outcome: str = "none"
    progress: float = 0.0
    frames: int = 0
    duration_ms: float = 0.0
    latency: dict = None
    server_ms: dict = None
    samples: list = field(default_factory=list)  # [(seq, progress)]
    first_grab_seq: int = None
    errors: list = field(default_factory=list)
    error_codes: list = field(default_factory=list)
    lifecycle: list = field(default_factory=list)
    scene: dict = None
    release: dict = None
    failures: list = field(default_factory=list)

    @property
    def passed(self):
        return not self.failures

    def to_json(self):
        return {"name": self.name, "mode": self.mode, "passed": self.passed, "outcome": self.outcome,
                "progress": self.progress, "frames": self.frames, "durationMs": self.duration_ms,
                "latencyMs": self.latency, "serverMs": self.server_ms,
                "samples": [[seq, progress] for seq, progress in self.samples], "errors": self.errors,
                "lifecycle": self.lifecycle, "release": self.release, "failures": self.failures}

    @classmethod
    def from_json(cls, obj):
        """A report as `sandbox pan --json` writes it (it has no scene and no grab seq)."""
        return cls(name=obj["name"], mode=obj["mode"], outcome=obj["outcome"], progress=obj["progress"],
                   frames=obj["frames"], duration_ms=obj["durationMs"], latency=obj.get("latencyMs"),
                   server_ms=obj.get("serverMs"), samples=[(int(s), p) for s, p in obj["samples"]],
                   errors=obj["errors"], error_codes=[e.split(":", 1)[0] for e in obj["errors"]],
                   lifecycle=obj["lifecycle"], release=obj.get("release"), failures=obj["failures"])

    def line(self):
        text = (f"{'ok  ' if self.passed else 'FAIL'} {self.name} [{self.mode}]: {self.outcome}, progress "
                f"{self.progress}, {self.frames} frames, {self.duration_ms:.0f} ms")
        if self.latency:
            text += f"; input→frame p50 {self.latency['p50']:.3f} ms · p99 {self.latency['p99']:.3f} ms"
        return "\n".join([text] + [f"     - {f}" for f in self.failures])


def disagreements(a, b, grab_seq=None, grab_tolerance=GRAB_TOLERANCE):
    """Where two replays of one script disagree, each a sentence (empty: they agree): the
    outcome, the lifecycle callbacks, the final scene (when both know it), the last release
    (decision and reason exactly; progress exactly until a grab, then within GRAB_TOLERANCE;
    `projected` to 1e-9 relative more), the final progress, and the progress acknowledged for
    every pointer seq both saw — exactly before the first grab, within GRAB_TOLERANCE from it.
    `grab_seq`: the first grab's seq when neither report knows it; `grab_tolerance`: how far
    progress may differ from the grab on (1 compares nothing there but the decisions)."""
    out = []
    if a.outcome != b.outcome:
        out.append(f"the outcome: {a.outcome} vs {b.outcome}")
    if a.lifecycle != b.lifecycle:
        out.append(f"the lifecycle: {len(a.lifecycle)} vs {len(b.lifecycle)} callbacks")
    if a.scene is not None and b.scene is not None and a.scene != b.scene:
        out.append(f"the final scene: {a.scene} vs {b.scene}")
    grabs = [s for s in (a.first_grab_seq, b.first_grab_seq, grab_seq) if s is not None]
    grab = min(grabs) if grabs else math.inf
    tolerance = grab_tolerance if grabs else 0
    ra, rb = a.release, b.release
    if (ra is None) != (rb is None):
        out.append(f"the last release: {ra} vs {rb}")
    elif ra is not None:
        same = ra.get("decision") == rb.get("decision") and ra.get("reason") == rb.get("reason")
        same = same and abs(ra["progress"] - rb["progress"]) <= tolerance
        pa, pb = ra.get("projected"), rb.get("projected")
        same = same and ((pa is None and pb is None) or (
            pa is not None and pb is not None and abs(pa - pb) <= 1e-9 * max(1, abs(pa)) + tolerance))
        if not same:
            out.append(f"the last release: {ra} vs {rb}")
    if a.progress != b.progress:
        out.append(f"the final progress: {a.progress} vs {b.progress}")
    by_seq = {}
    for seq, progress in a.samples:
        by_seq.setdefault(seq, progress)
    shared = [(seq, p) for seq, p in b.samples if seq in by_seq]
    differing = [(seq, p) for seq, p in shared if abs(by_seq[seq] - p) > (0 if seq < grab else grab_tolerance)]
    if differing:
        seq, p = differing[0]
        out.append(f"{len(differing)} progress samples, first at seq {seq}: {by_seq[seq]} vs {p}")
    if a.samples and not shared:
        out.append("no acknowledged seq to compare")
    return out
