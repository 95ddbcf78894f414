"""The tests' delta-frame assembler (docs/PROTOCOL.md "Delta frames"), on hand-written
frames: no server. The page's web/js/frameAssembler.js follows the same rules
(Tests/browser/test_deltas_page.py runs these same cases through it)."""
import copy
import json
from pathlib import Path

from sandbox_env import FrameAssembler

CASES = json.loads((Path(__file__).resolve().parent / "frame_assembler_cases.json").read_text())


def full(n, layers, **fields):
    return {"type": "frame", "n": n, "t": 100.0 + n, "phase": "tracking", "progress": 0.1 * n, "ack": n,
            "received": 99.0 + n, "sent": 100.0 + n, "velocity": [10, 0], "layers": layers, **fields}


def delta(n, base, layers, **fields):
    return {**full(n, layers, **fields), "base": base}


FROM = {"id": "from", "content": "presenter", "shape": "rect", "center": [195, 422], "bounds": [390, 844],
        "transform": [1, 0, 0, 1, 0, 0], "cornerRadius": 0, "opacity": 1, "z": 0}
TO = {"id": "to", "content": "presented", "shape": "rect", "center": [585, 422], "bounds": [390, 844],
      "transform": [1, 0, 0, 1, 0, 0], "cornerRadius": 0, "opacity": 1, "z": 1, "mask": "mask"}
MASK = {"id": "mask", "content": "mask", "shape": "logo", "center": [195, 422], "bounds": [67, 66.97],
        "transform": [1, 0, 0, 1, 0, 0], "cornerRadius": 0, "opacity": 1, "z": 2}


def started(*layers, **fields):
    a = FrameAssembler()
    first = full(17, [copy.deepcopy(layer) for layer in layers], **fields)
    assert a.apply(first) is first
    return a


def test_a_full_frame_is_held_and_handed_on_as_it_is():
    a = FrameAssembler()
    frame = full(3, [FROM, TO])
    assert a.apply(frame) is frame and a.frame is frame and a.dropped == 0


def test_string_entries_are_the_base_layers_unchanged():
    a = started(FROM, TO)
    frame = a.apply(delta(18, 17, ["from", "to"]))
    assert frame["layers"] == [FROM, TO]
    assert frame["n"] == 18 and "base" not in frame


def test_an_object_entry_changes_only_the_properties_it_lists():
    a = started(FROM, TO)
    frame = a.apply(delta(18, 17, ["from", {"id": "to", "center": [457.29, 422]}]))
    assert frame["layers"] == [FROM, {**TO, "center": [457.29, 422]}]
    # the base's layer is untouched (the next delta applies to the assembled frame, not to it)
    assert a.frame is frame
    frame = a.apply(delta(19, 18, ["from", {"id": "to", "opacity": 0.5}]))
    assert frame["layers"][1] == {**TO, "center": [457.29, 422], "opacity": 0.5}


def test_null_removes_a_property():
    a = started(FROM, TO, MASK)
    frame = a.apply(delta(18, 17, ["from", {"id": "to", "mask": None}, "mask"]))
    assert frame["layers"][1] == {k: v for k, v in TO.items() if k != "mask"}
    assert "mask" not in frame["layers"][1]


def test_a_new_layer_is_written_whole_and_may_keep_its_nulls():
    a = started(FROM)
    thumbnail = {"id": "thumbnail", "content": "thumbnail", "shape": "rect", "center": [208, 724],
                 "bounds": [120, 160], "transform": [1, 0, 0, 1, 0, 0], "cornerRadius": 8, "opacity": 1, "z": 3,
                 "extra": None}
    frame = a.apply(delta(18, 17, ["from", thumbnail]))
    assert frame["layers"] == [FROM, thumbnail]


def test_a_layer_not_listed_is_gone_and_the_order_is_the_deltas():
    a = started(FROM, TO, MASK)
    frame = a.apply(delta(18, 17, ["to", {"id": "from", "z": 5}]))
    assert [layer["id"] for layer in frame["layers"]] == ["to", "from"]
    assert frame["layers"][1] == {**FROM, "z": 5}


def test_an_empty_layer_list_empties_the_frame():
    a = started(FROM, TO)
    assert a.apply(delta(18, 17, []))["layers"] == []


def test_the_per_frame_fields_come_from_the_delta_alone():
    a = started(FROM, delivered=117.5, arrived=115.0)
    d = delta(18, 17, ["from"], phase="finishing", progress=0.431944, ack=None, velocity=[612.4, 0])
    frame = a.apply(d)
    assert {k: frame[k] for k in ("n", "t", "phase", "progress", "ack", "received", "sent", "velocity")} == \
        {"n": 18, "t": 118.0, "phase": "finishing", "progress": 0.431944, "ack": None, "received": 117.0,
         "sent": 118.0, "velocity": [612.4, 0]}
    # the stamps the delta does not carry are not inherited from the base
    assert "delivered" not in frame and "arrived" not in frame and "base" not in frame
    assert a.apply(delta(19, 18, ["from"], delivered=120.25))["delivered"] == 120.25


ANIMATOR = {"state": "active", "running": False, "reversed": False, "fractionComplete": 0.2}


def test_the_animator_absent_is_the_bases_and_an_object_patches_it():
    a = started(FROM, animator=dict(ANIMATOR))
    assert a.apply(delta(18, 17, ["from"]))["animator"] == ANIMATOR
    frame = a.apply(delta(19, 18, ["from"], animator={"fractionComplete": 0.42, "running": True}))
    assert frame["animator"] == {**ANIMATOR, "fractionComplete": 0.42, "running": True}


def test_the_animator_null_removes_it_and_a_new_one_is_whole():
    a = started(FROM, animator=dict(ANIMATOR))
    assert "animator" not in a.apply(delta(18, 17, ["from"], animator=None))
    assert "animator" not in a.apply(delta(19, 18, ["from"]))  # and it stays gone
    assert a.apply(delta(20, 19, ["from"], animator=dict(ANIMATOR)))["animator"] == ANIMATOR


SCENE = {
    "root": {"bounds": [390, 844], "transform": [1, 0, 0, 1, 0, 0], "interface": "portrait", "rotating": None},
    "layers": [
        {"controller": "root", "role": "root", "frame": [0, 0, 390, 844], "cornerRadius": 0, "scale": 1,
         "opacity": 1, "group": "root"},
        {"controller": "nav", "role": "navigationBar", "title": "List", "frame": [0, 0, 390, 44], "cornerRadius": 0,
         "scale": 1, "opacity": 1, "group": "root"},
        {"controller": None, "role": "dimming", "frame": [0, 0, 390, 844], "cornerRadius": 0, "scale": 1,
         "opacity": 0.4, "group": "sheet"},
    ],
    "transition": {"action": "dismiss", "from": "inbox", "to": "root", "container": [0, 57, 390, 787]},
}


def test_scene_absent_is_the_bases_scene():
    a = started(FROM, scene=copy.deepcopy(SCENE))
    frame = a.apply(delta(18, 17, ["from"]))
    assert frame["scene"] == SCENE


def test_scene_absent_with_no_scene_in_the_base_is_none():
    a = started(FROM)
    assert "scene" not in a.apply(delta(18, 17, ["from"]))


def test_scene_null_removes_it():
    a = started(FROM, scene=copy.deepcopy(SCENE))
    frame = a.apply(delta(18, 17, ["from"], scene=None))
    assert "scene" not in frame
    assert "scene" not in a.apply(delta(19, 18, ["from"]))  # and it stays gone


def test_scene_object_index_refs_and_whole_layers():
    a = started(FROM, scene=copy.deepcopy(SCENE))
    bar = {**SCENE["layers"][1], "title": "Detail"}
    root = {**SCENE["root"], "rotating": {"from": "portrait", "to": "landscapeRight", "fraction": 0.25}}
    frame = a.apply(delta(18, 17, ["from"], scene={"root": root, "transition": None, "layers": [0, bar]}))
    assert frame["scene"] == {"root": root, "transition": None, "layers": [SCENE["layers"][0], bar]}
    # the next delta's indexes are into this frame's scene layers
    frame = a.apply(delta(19, 18, ["from"], scene={"root": root, "transition": None, "layers": [1, 0]}))
    assert frame["scene"]["layers"] == [bar, SCENE["layers"][0]]


def test_scene_parts_absent_from_the_object_are_the_bases():
    a = started(FROM, scene=copy.deepcopy(SCENE))
    root = {**SCENE["root"], "rotating": {"from": "portrait", "to": "landscapeRight", "fraction": 0.5}}
    assert a.apply(delta(18, 17, ["from"], scene={"root": root}))["scene"] == {**SCENE, "root": root}
    frame = a.apply(delta(19, 18, ["from"], scene={"transition": None}))
    assert frame["scene"] == {**SCENE, "root": root, "transition": None}
    frame = a.apply(delta(20, 19, ["from"], scene={"layers": [2]}))
    assert frame["scene"] == {"root": root, "transition": None, "layers": [SCENE["layers"][2]]}


def test_a_scene_layer_patch_changes_the_bases_layer_at_that_index():
    a = started(FROM, scene=copy.deepcopy(SCENE))
    patch = {"base": 0, "frame": [15.85, 130.16, 358.3, 691.8], "cornerRadius": 9.9, "scale": 0.918729}
    frame = a.apply(delta(18, 17, ["from"], scene={"layers": [patch, {"base": 1, "title": None}, 2]}))
    assert frame["scene"]["layers"] == [
        {**SCENE["layers"][0], "frame": [15.85, 130.16, 358.3, 691.8], "cornerRadius": 9.9, "scale": 0.918729},
        {k: v for k, v in SCENE["layers"][1].items() if k != "title"},
        SCENE["layers"][2]]
    assert all("base" not in layer for layer in frame["scene"]["layers"])
    assert a.frame["scene"]["layers"][0] is not SCENE["layers"][0]


def test_a_delta_on_another_base_is_dropped_and_counted():
    a = started(FROM, TO)
    held = a.frame
    assert a.apply(delta(19, 18, ["from", "to"])) is None
    assert a.dropped == 1 and a.last_drop == {"base": 18, "n": 19, "holding": 17, "reason": "base"}
    assert a.frame is held  # still held: the next full frame replaces it
    frame = full(20, [TO])
    assert a.apply(frame) is frame and a.apply(delta(21, 20, ["to"]))["layers"] == [TO]
    assert a.dropped == 1


def test_a_delta_with_nothing_held_is_dropped():
    a = FrameAssembler()
    assert a.apply(delta(1, 0, [])) is None and a.dropped == 1 and a.last_drop["holding"] is None


def test_reset_forgets_the_frame_held():
    a = started(FROM)
    a.reset()
    assert a.apply(delta(18, 17, ["from"])) is None and a.dropped == 1


def test_a_full_frame_replaces_the_held_one_whatever_its_n():
    a = started(FROM, TO)
    restarted = full(0, [FROM], phase="idle")  # a configure restarted the numbering
    assert a.apply(restarted) is restarted
    assert a.apply(delta(1, 0, [{"id": "from", "opacity": 0.9}]))["layers"] == [{**FROM, "opacity": 0.9}]


def test_references_to_what_the_base_does_not_have_are_dropped():
    a = started(FROM, scene=copy.deepcopy(SCENE))
    assert a.apply(delta(18, 17, ["ghost"])) is None
    assert a.last_drop["reason"] == "layer ghost"
    assert a.apply(delta(18, 17, ["from"], scene={"root": {}, "transition": None, "layers": [3]})) is None
    assert a.last_drop["reason"] == "scene layer 3"
    assert a.apply(delta(18, 17, ["from"], scene={"layers": [{"base": 5, "opacity": 0}]})) is None
    assert a.last_drop["reason"] == "scene layer 5"
    b = started(FROM)
    assert b.apply(delta(18, 17, ["from"], scene={"root": {}, "transition": None, "layers": [0]})) is None
    assert a.dropped == 3 and b.dropped == 1


def test_a_stream_of_deltas_matches_the_full_frames_it_stands_for():
    """The shared cases (frame_assembler_cases.json, also run through the page's assembler):
    each stream's messages assemble to its expected whole frames, None for a dropped delta."""
    for case in CASES:
        a = FrameAssembler()
        got = [a.apply(message) for message in copy.deepcopy(case["messages"])]
        assert got == case["expected"], case["name"]
