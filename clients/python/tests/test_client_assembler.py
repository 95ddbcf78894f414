"""The frame assembler: the cases shared with the page's web/js/frameAssembler.js and the tests'
own assembler (Tests/integration/frame_assembler_cases.json), and deltas a hostile server could
send, which are dropped and counted, never raised."""
import copy
import json
from pathlib import Path

import pytest

from transition_sandbox import FrameAssembler

CASES = json.loads((Path(__file__).resolve().parents[3] / "Tests" / "integration" /
                    "frame_assembler_cases.json").read_text())

FROM = {"id": "from", "content": "presenter", "shape": "rect", "center": [195, 422], "bounds": [390, 844],
        "transform": [1, 0, 0, 1, 0, 0], "cornerRadius": 0, "opacity": 1, "z": 0}


def frame(n, layers, **fields):
    return {"type": "frame", "n": n, "phase": "tracking", "progress": 0.1, "ack": n, "received": 1.0, "sent": 2.0,
            "velocity": [0, 0], "layers": layers, **fields}


@pytest.mark.parametrize("case", CASES, ids=[c["name"][:40] for c in CASES])
def test_the_shared_cases_assemble_to_their_expected_frames(case):
    assembler = FrameAssembler()
    got = [assembler.apply(message) for message in copy.deepcopy(case["messages"])]
    assert got == case["expected"]


def test_a_delta_patches_the_held_frame_and_the_next_applies_to_the_result():
    a = FrameAssembler()
    a.apply(frame(1, [FROM, {**FROM, "id": "to", "z": 1}], scene={"layers": [{"role": "root", "opacity": 1}]}))
    whole = a.apply(frame(2, ["from", {"id": "to", "opacity": 0.5}], base=1,
                          scene={"layers": [{"base": 0, "opacity": None}]}))
    assert whole["layers"] == [FROM, {**FROM, "id": "to", "z": 1, "opacity": 0.5}]
    assert whole["scene"] == {"layers": [{"role": "root"}]} and "base" not in whole
    assert a.apply(frame(3, [{"id": "to", "z": 2}], base=2))["layers"] == [{**FROM, "id": "to", "z": 2,
                                                                           "opacity": 0.5}]
    assert a.dropped == 0


HOSTILE = [
    ("layers not a list", {"layers": {"a": 1}}),
    ("a number as a layer", {"layers": [3]}),
    ("an unknown id", {"layers": ["ghost"]}),
    ("animator a number", {"layers": [], "animator": 5}),
    ("scene a string", {"layers": [], "scene": "x"}),
    ("scene layers an object", {"layers": [], "scene": {"layers": {}}}),
    ("a scene index out of range", {"layers": [], "scene": {"layers": [7]}}),
    ("a scene index that is a bool", {"layers": [], "scene": {"layers": [True]}}),
    ("a scene patch on a float index", {"layers": [], "scene": {"layers": [{"base": 0.5}]}}),
    ("a scene patch on a list index", {"layers": [], "scene": {"layers": [{"base": [0]}]}}),
]


@pytest.mark.parametrize("name,fields", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_malformed_delta_is_dropped_and_counted_and_the_held_frame_kept(name, fields):
    a = FrameAssembler()
    held = a.apply(frame(1, [FROM], scene={"layers": [{"role": "root"}]}))
    assert a.apply({**frame(2, [], base=1), **fields}) is None
    assert a.dropped == 1 and a.frame is held and a.last_drop["holding"] == 1


def test_a_layer_with_an_unhashable_id_is_taken_as_new_not_raised():
    a = FrameAssembler()
    a.apply(frame(1, [FROM, {"id": ["x"], "z": 1}]))
    whole = a.apply(frame(2, ["from", {"id": {"nested": 1}, "z": 3}], base=1))
    assert whole["layers"] == [FROM, {"id": {"nested": 1}, "z": 3}]


@pytest.mark.parametrize("base, delta, reason", [
    ({"animator": "x"}, {"animator": {"state": "running"}}, "base animator"),
    ({"scene": [1]}, {"scene": {"root": "r"}}, "base scene"),
    ({"scene": {"layers": {}}}, {"scene": {"layers": [0]}}, "base scene layers"),
    ({"scene": {"layers": 5}}, {"scene": {"layers": [0]}}, "base scene layers"),
    ({}, {"layers": 5}, "layers"),
], ids=["animator a string", "scene an array", "scene.layers an object", "scene.layers a number",
        "delta layers a number"])
def test_a_delta_on_a_base_of_the_wrong_shape_is_dropped_not_raised(base, delta, reason):
    assembler = FrameAssembler()
    assert assembler.apply(frame(1, [FROM], **base)) is not None
    assert assembler.apply({"type": "frame", "n": 2, "base": 1, **delta}) is None
    assert (assembler.dropped, assembler.last_drop["reason"]) == (1, reason)
