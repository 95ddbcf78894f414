"""Delta frames (docs/PROTOCOL.md "Delta frames") turned back into whole frames, by the rules of
the page's web/js/frameAssembler.js and the shared cases Tests/integration/frame_assembler_cases.json
(tests/test_client_assembler.py runs them).

- A full frame (no `base`) replaces what the assembler holds.
- A delta applies to the held frame only when its `base` is that frame's `n`; otherwise it is
  dropped (counted in `dropped`, the reason of the last one in `last_drop`) and the client waits
  for the next full frame. The server never sends one.
- Unchanged layers are shared with the base frame, not copied: do not mutate a frame.
- A malformed delta (an entry of the wrong type, an index out of range), or a delta on a base
  of the wrong shape (`animator`, `scene` or `scene.layers` neither absent, null nor of their
  type), is dropped like a delta on another base, never raised: a hostile server cannot make the
  assembler fail (`apply` also counts any other failure of `assemble` as a drop).
"""


def _whole_number(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _patched(before, entry, skip=None):
    layer = dict(before)
    for key, value in entry.items():
        if key == skip:
            continue
        if value is None:
            layer.pop(key, None)
        else:
            layer[key] = value
    return layer


class FrameAssembler:
    def __init__(self):
        self.frame = None  # the last whole frame
        self.dropped = 0  # deltas that could not be applied
        self.last_drop = None  # {base, n, holding, reason} of the last one

    def reset(self):
        """A new session (`welcome`, `joined`): nothing held applies any more."""
        self.frame = None

    def apply(self, message):
        """A `frame` message → the whole frame, or None when it cannot be applied."""
        if message.get("base") is None:
            self.frame = message
            return message
        try:
            frame = assemble(self.frame, message)
        except Exception as error:  # a shape assemble does not foresee: dropped, never raised
            frame = f"malformed ({type(error).__name__})"
        if isinstance(frame, str):
            self.dropped += 1
            self.last_drop = {"base": message["base"], "n": message.get("n"),
                              "holding": None if self.frame is None else self.frame.get("n"), "reason": frame}
            return None
        self.frame = frame
        return frame


def assemble(base, delta):
    """The whole frame `delta` describes against the whole frame `base`, or why it cannot be
    applied (a str)."""
    if base is None or base.get("n") != delta["base"]:
        return "base"
    shape = _base_shape(base)
    if shape is not None:
        return shape
    held = base.get("layers")
    by_id = {layer["id"]: layer for layer in held if isinstance(layer, dict) and isinstance(layer.get("id"), str)} \
        if isinstance(held, list) else {}
    entries = delta.get("layers") or []
    if not isinstance(entries, list):
        return "layers"
    layers = []
    for entry in entries:
        if isinstance(entry, str):
            if entry not in by_id:
                return f"layer {entry[:64]}"
            layers.append(by_id[entry])
        elif isinstance(entry, dict):
            identifier = entry.get("id")
            before = by_id.get(identifier) if isinstance(identifier, str) else None
            layers.append(entry if before is None else _patched(before, entry))  # new: written whole
        else:
            return "layer entry"
    frame = {k: v for k, v in delta.items() if k not in ("base", "layers", "animator", "scene")}
    frame["layers"] = layers
    # animator: absent, the base's; null, gone; an object, the fields that changed.
    if "animator" not in delta:
        if "animator" in base:
            frame["animator"] = base["animator"]
    elif isinstance(delta["animator"], dict):
        frame["animator"] = {**(base.get("animator") or {}), **delta["animator"]}
    elif delta["animator"] is not None:
        return "animator"
    # scene: absent, the base's (none if the base had none); null, gone; an object, what changed.
    if "scene" not in delta:
        if "scene" in base:
            frame["scene"] = base["scene"]
    elif isinstance(delta["scene"], dict):
        scene = _scene(base.get("scene") or {}, delta["scene"])
        if isinstance(scene, str):
            return scene
        frame["scene"] = scene
    elif delta["scene"] is not None:
        return "scene"
    return frame


def _base_shape(base):
    """Why `base` cannot be a delta's base (a str), or None: its `animator` and `scene` are
    absent, null or objects, the scene's `layers` absent, null or an array."""
    for key in ("animator", "scene"):
        if base.get(key) is not None and not isinstance(base[key], dict):
            return f"base {key}"
    layers = (base.get("scene") or {}).get("layers")
    if layers is not None and not isinstance(layers, list):
        return "base scene layers"
    return None


def _scene(base_scene, changes):
    """`root`, `transition` whole (absent: the base's), and `layers` (absent: the base's) of
    integers (the base's scene.layers[i]), patches {base: i, …changed, null removing one} and
    whole layers."""
    scene = {**base_scene, **{k: v for k, v in changes.items() if k != "layers"}}
    if "layers" not in changes:
        return scene
    if not isinstance(changes["layers"], list):
        return "scene layers"
    before = base_scene.get("layers") or []

    def index_of(value):
        return value if _whole_number(value) and 0 <= value < len(before) else None

    stills = []
    for entry in changes["layers"]:
        if isinstance(entry, dict) and "base" in entry:
            index = index_of(entry["base"])
            if index is None or not isinstance(before[index], dict):
                return f"scene layer {str(entry['base'])[:64]}"
            stills.append(_patched(before[index], entry, skip="base"))
        elif isinstance(entry, dict):
            stills.append(entry)  # a view the base did not show: whole
        elif index_of(entry) is not None:
            stills.append(before[entry])
        else:
            return f"scene layer {str(entry)[:64]}"
    scene["layers"] = stills
    return scene
