"""What the server sends during a script's replay, watched as `sandbox pan` watches it
(Sources/SandboxTools/Scripts/ReplayObserver.swift): the phase and progress, transition events,
frames and their acknowledgements, input → frame latency, lifecycle callbacks, errors, the scene.
Its messages are whole (the client assembles deltas). A value of the wrong type (an event that is
not a string, a progress that is not a number, timings whose difference is not finite) is
ignored, never raised: what reaches the report is of the report's types and finite."""
import math


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _text(value, default="?"):
    return value if isinstance(value, str) else default


class Observer:
    def __init__(self):
        self.phase = "idle"
        self.rotating = False  # the latest frame showed the interface turning
        self.progress = 0.0
        self.outcome = "none"
        self.frames = 0  # frames since start_counting()
        self.counting = False
        self.samples = []  # (seq, progress) of the first frame acknowledging each seq
        self.errors = []  # "code: message"
        self.error_codes = []
        self.configured = False
        self.linked = False
        self.frames_since_configured = 0
        self.events = set()  # since the last wait was met
        self.pending = {}  # pointer seq → the time it was sent (s)
        self.plays_outstanding = 0
        self.scene_outstanding = 0  # scene messages not yet answered (scene-state or error)
        self.lifecycle = []
        self.scene_state = None
        self.release = None
        self.latency = []  # ms, sent → the first frame acknowledging it
        self.server_time = []  # ms, the frames' sent − received
        self.first_grab_seq = None  # the first seq sent while a completion ran

    def start_counting(self):
        self.counting = True

    def sent_pointer(self, seq, at):
        self.pending[seq] = at
        if self.first_grab_seq is None and self.phase in ("finishing", "cancelling"):
            self.first_grab_seq = seq

    def sent_play(self):
        self.plays_outstanding += 1

    def sent_scene_message(self):
        self.scene_outstanding += 1

    @property
    def settled(self):
        """Everything sent has been answered, so the phase seen is the phase after the inputs."""
        return not self.pending and self.plays_outstanding == 0 and self.scene_outstanding == 0

    def satisfies(self, condition):
        if not self.settled:
            return False
        if condition == "rest":
            return self.phase in ("idle", "finished", "cancelled", "paused") and not self.rotating \
                and not self.sheet_moving
        return condition in self.events

    def wait_met(self):
        self.events.clear()

    def received(self, message, at):
        kind = message["type"]
        if kind == "frame":
            self._frame(message, at)
        elif kind == "transition":
            self._transition(message)
        elif kind == "lifecycle":
            self._lifecycle(message)
        elif kind == "scene-state":
            self.scene_state = message
            self.scene_outstanding = max(self.scene_outstanding - 1, 0)
        elif kind == "link":
            self.linked = True
        elif kind == "configured":
            self.configured = True
            self.frames_since_configured = 0
        elif kind == "error":
            code = str(message.get("code", "?"))
            self.errors.append(f"{code}: {message.get('message', '')}")
            self.error_codes.append(code)
            seq = message.get("seq")
            if isinstance(seq, (int, float)) and not isinstance(seq, bool):
                self.pending.pop(int(seq), None)
            elif self.scene_outstanding > 0:
                self.scene_outstanding -= 1  # a refused scene message (or a refused play in a scene)
            elif self.plays_outstanding > 0 and code in ("busy", "nothing-armed"):
                self.plays_outstanding -= 1

    def _transition(self, message):
        event = message.get("event")
        if not isinstance(event, str):
            self.errors.append(f"a transition whose event is not a string: {str(event)[:64]}")
            return
        self.events.add(event)
        if event in ("finished", "cancelled"):
            self.outcome = event
        if event == "played":
            self.plays_outstanding = max(self.plays_outstanding - 1, 0)
        if event == "released":
            progress = message.get("progress")
            self.release = {"decision": _text(message.get("decision")), "reason": _text(message.get("reason")),
                            "progress": progress if _number(progress) else None}
            if _number(message.get("projected")):
                self.release["projected"] = message["projected"]

    def _lifecycle(self, message):
        controller, callback = message.get("controller", "?"), message.get("callback", "?")
        if isinstance(message.get("didComplete"), bool):
            self.lifecycle.append(f"{controller}.{callback}({str(message['didComplete']).lower()})")
        elif callback == "viewDidLoad" or (isinstance(callback, str) and callback.startswith(
                ("presentationController", "sheetPresentationController"))):
            # The sheet's delegate calls take no `animated` argument (as `sandbox pan` writes them).
            self.lifecycle.append(f"{controller}.{callback}")
        else:
            self.lifecycle.append(f"{controller}.{callback}({str(message.get('animated') is True).lower()})")

    def _frame(self, frame, at):
        self.frames_since_configured += 1
        if self.counting:
            self.frames += 1
        self.phase = _text(frame.get("phase"), self.phase)
        root = (frame.get("scene") or {}).get("root") if isinstance(frame.get("scene"), dict) else None
        self.rotating = isinstance(root, dict) and isinstance(root.get("rotating"), dict)
        progress = frame.get("progress")
        if _number(progress):
            self.progress = float(progress)
        ack = frame.get("ack")
        if not _number(ack):
            return
        ack = int(ack)
        if not self.samples or ack > self.samples[-1][0]:
            self.samples.append((ack, self.progress))
        for seq in [s for s in self.pending if s <= ack]:
            sent = self.pending.pop(seq)
            self.latency.append(max(at - sent, 0) * 1000)
            sent_at, received_at = frame.get("sent"), frame.get("received")
            if seq == ack and _number(sent_at) and _number(received_at) and math.isfinite(sent_at - received_at):
                self.server_time.append(max(sent_at - received_at, 0))

    @property
    def sheet_moving(self):
        """Whether the latest `scene-state` has a sheet moving between its detents."""
        sheets = (self.scene_state or {}).get("sheets")
        return isinstance(sheets, list) and any(isinstance(s, dict) and s.get("moving") is True for s in sheets)

    def scene_summary(self):
        """The latest `scene-state` as the scene expectation reads it; None without a scene."""
        state = self.scene_state
        if not state or state.get("root") is None:
            return None
        presentations = state.get("presentations") if isinstance(state.get("presentations"), list) else []
        stacks = {}
        for item in state.get("navigationStacks") or []:
            if isinstance(item, dict) and isinstance(item.get("navigation"), str) \
                    and isinstance(item.get("stack"), list):
                stacks[item["navigation"]] = [i for i in item["stack"] if isinstance(i, str)]
        orientation = state.get("orientation") if isinstance(state.get("orientation"), dict) else {}
        rect = orientation.get("bounds")
        bounds = [float(rect[2]), float(rect[3])] if isinstance(rect, list) and len(rect) == 4 \
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in rect[2:]) else None
        return {"topMost": state.get("topMost"),
                "presented": [p["presented"] for p in presentations if isinstance(p, dict) and "presented" in p],
                "stacks": stacks, "interface": orientation.get("interface"), "bounds": bounds,
                "detent": {s["controller"]: s["detent"] for s in state.get("sheets") or []
                           if isinstance(s, dict) and isinstance(s.get("controller"), str)
                           and isinstance(s.get("detent"), str)}}
