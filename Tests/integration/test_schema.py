"""The wire protocol's JSON Schema (schema/, docs/PROTOCOL.md): valid against the draft 2020-12
metaschema with every `$ref` resolvable; the complete examples of docs/PROTOCOL.md match it; and it
agrees with the server — what it refuses the server refuses, what it accepts the server parses."""
import asyncio
import json
import re

import pytest
from fastjsonschema import JsonSchemaException
from jsonschema import Draft202012Validator

from client import Client
from sandbox_env import ROOT
from wire_schema import SCHEMA, by_type, fast, problem, registry, validator

FILES = sorted(SCHEMA.glob("*.json"))


def refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_is_a_valid_draft_2020_12_schema(path):
    contents = json.loads(path.read_text())
    Draft202012Validator.check_schema(contents)
    assert contents["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    resolver = registry().resolver(base_uri=contents["$id"])
    for ref in refs(contents):
        resolver.lookup(ref)  # raises if it names nothing


def test_every_definition_is_used():
    """A `$defs` entry nothing refers to is a message or field the tests never check."""
    defs = json.loads((SCHEMA / "protocol.json").read_text())["$defs"]
    used = {ref.split("/$defs/")[1].split("/")[0] for path in FILES for ref in refs(json.loads(path.read_text()))
            if "/$defs/" in ref}
    assert set(defs) - used == set()


def protocol_examples():
    """Each line of docs/PROTOCOL.md's json blocks that is one complete JSON object with a type."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text()
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        for line in block.splitlines():
            for part in line.split("   →   "):
                try:
                    message = json.loads(part)
                except json.JSONDecodeError:
                    continue  # elided (…) or spread over lines
                if isinstance(message, dict) and "type" in message:
                    yield message


CLIENT_TYPES = {"configure", "pointer", "play", "ping", "join", "scene", "present", "dismiss", "push", "pop", "device",
                "update", "attempt-rotation"}


def test_the_documented_examples_match():
    examples = list(protocol_examples())
    assert len(examples) >= 15
    for message in examples:
        if message["type"] in CLIENT_TYPES:
            assert problem("client", message) is None, problem("client", message)
        else:
            # A documented frame or welcome is protocol 2's (the document's examples are).
            assert problem("server-v2", message) is None, problem("server-v2", message)


# Messages the server refuses when it parses them, each with the error code it answers.
REFUSED = [
    ({"type": "configure", "durration": 1}, "unknown-field"),
    ({"type": "configure", "duration": 0}, "invalid-config"),
    ({"type": "configure", "duration": 1e308}, "invalid-config"),
    ({"type": "configure", "threshold": 1}, "invalid-config"),
    ({"type": "configure", "fps": 60.5}, "invalid-field"),
    ({"type": "configure", "pitfalls": ["no-abs", "no-abs"]}, "invalid-field"),
    ({"type": "configure", "network": {"delayMs": 5000}}, "invalid-field"),
    ({"type": "configure", "propertyAnimator": {"curve": "spring"}}, "invalid-field"),
    ({"type": "pointer", "phase": "down", "x": 2e6, "y": 0, "t": 0, "seq": 1}, "invalid-field"),
    ({"type": "pointer", "phase": "hover", "x": 0, "y": 0, "t": 0, "seq": 1}, "invalid-field"),
    ({"type": "pointer", "phase": "down", "x": 0, "y": 0, "t": 0}, "missing-field"),
    ({"type": "ping", "seq": 1}, "missing-field"),
    ({"type": "ping", "seq": 1, "t": 0, "id": ""}, "invalid-field"),
    ({"type": "ping", "seq": 1, "t": 0, "id": 7}, "invalid-field"),
    ({"type": "play", "now": True}, "unknown-field"),
    ({"type": "teleport"}, "unknown-type"),
    ({"type": "scene", "root": {"id": "a", "kind": "plain", "stack": [{"id": "b"}]}}, "invalid-field"),
    ({"type": "scene", "root": {"id": "a"}, "ios": "6"}, "invalid-field"),
    ({"type": "scene", "root": {"id": ""}}, "invalid-field"),
    ({"type": "scene", "root": {"id": "a", "supportedOrientations": []}}, "invalid-field"),
    ({"type": "scene", "root": {"id": "a", "supportedOrientations": 3}}, "invalid-field"),
    ({"type": "device", "orientation": "sideways"}, "invalid-field"),
    ({"type": "present"}, "missing-field"),
    ({"type": "join"}, "missing-field"),
]

# Messages the server parses (it may still refuse them for the session's state: busy, no-scene…).
ACCEPTED = [
    {"type": "configure", "transition": "reveal", "duration": 2, "clamp": [0, 1], "completionCurve": [0.2, -1, 0.8, 2]},
    {"type": "configure", "flingVelocity": None, "rubberBand": 0.55, "pitfalls": ["no-abs", "complete-on-cancel"]},
    {"type": "configure", "network": {"delayMs": 0.5, "jitterMs": 0, "seed": 9007199254740991}},
    {"type": "ping", "seq": 3, "t": -1e300, "id": "a.b_c:d-1"},
    {"type": "pointer", "phase": "cancel", "x": -1e6, "y": 1e6, "t": 1e13, "seq": 1, "pointerId": 7,
     "pointerType": "pen"},
    {"type": "scene", "root": {"id": "n", "kind": "navigation", "stack": [{"id": "a", "title": "A"}]},
     "device": "tablet", "ios": "7", "appOrientations": 30, "windowOrientations": ["landscape"]},
    {"type": "update", "controller": "n", "preferredOrientation": None, "supportedOrientations": "all".split()},
    {"type": "attempt-rotation"},
    {"type": "scene", "root": None},
]


def test_what_the_schema_refuses_the_server_refuses():
    for message, code in REFUSED:
        assert problem("client", message), message


def test_what_the_schema_accepts_it_accepts():
    for message in ACCEPTED:
        assert problem("client", message) is None, problem("client", message)


def test_the_server_agrees(server):
    """Each refused message is answered by its error; each accepted one by no parse error."""
    parse_errors = {"invalid-json", "not-an-object", "unknown-type", "missing-field", "invalid-field", "unknown-field",
                    "invalid-config"}

    async def go():
        c = await Client.connect(server.url)
        for index, (message, code) in enumerate(REFUSED):
            await c.send({**message, "id": f"r{index}"} if "id" not in message else message, check=False)
            error = await c.expect("error")
            assert error["code"] == code, (message, error)
        for index, message in enumerate(ACCEPTED):
            await c.send({**message, "id": f"a{index}"})
            await c.send({"type": "ping", "seq": 1000 + index, "t": 0})
            while (reply := await c.recv())["type"] != "pong":
                if reply["type"] == "error" and reply.get("id") == f"a{index}":
                    assert reply["code"] not in parse_errors, (message, reply)
        await c.close()

    asyncio.run(go())


def test_server_frames_differ_by_version():
    """t only in protocol 1's frames, base only in protocol 2's."""
    header = {"type": "frame", "n": 2, "phase": "idle", "progress": 0, "ack": None, "received": None,
              "sent": 5.5, "velocity": [0, 0], "layers": []}
    assert problem("server-v1", {**header, "t": 5.5}) is None
    assert problem("server-v1", header)
    assert problem("server-v1", {**header, "t": 5.5, "base": 1})
    assert problem("server-v2", header) is None
    assert problem("server-v2", {**header, "base": 1, "layers": ["from", {"id": "to", "opacity": 0.5}]}) is None
    assert problem("server-v2", {**header, "t": 5.5})
    welcome = {"type": "welcome", "protocol": 2}
    paths = [list(e.absolute_path) for e in validator("server-v1").iter_errors(welcome)]
    assert ["protocol"] in paths and ["protocol"] not in [list(e.absolute_path)
                                                         for e in validator("server-v2").iter_errors(welcome)]


WELCOME = {"type": "welcome", "session": "s", "protocol": 1, "container": [390, 844],
           "shapes": {"logo": {"size": [1, 1], "path": [["M", 0, 0], ["Z"]]}},
           "config": {"transition": "pop", "operation": "present", "duration": 1, "distance": 200, "axis": "x",
                      "direction": "both", "slop": 10, "threshold": 0.5, "clamp": [0.01, 0.99],
                      "completionSpeed": 1, "completionCurve": "spring", "spring": {"damping": 0.4,
                                                                                   "initialVelocity": 0},
                      "flingVelocity": None, "fps": 60, "timeScale": 1, "container": [390, 844],
                      "originFrame": [148, 644, 120, 160], "releaseRule": "threshold", "decelerationRate": 0.998,
                      "rubberBand": None, "completionDamping": 1, "pitfalls": [], "driver": "percent-driven",
                      "propertyAnimator": {"curve": "easeInEaseOut", "scrubsLinearly": True, "durationFactor": 0,
                                           "pausesOnCompletion": False}}}


def test_the_fast_path_agrees_with_the_whole_schema():
    """wire_schema's per-type inlined definitions (jsonschema) and their fastjsonschema compilation
    give the whole file's verdict, valid or not."""
    header = {"type": "frame", "n": 2, "phase": "idle", "progress": 0, "ack": None, "received": None,
              "sent": 5.5, "velocity": [0, 0], "layers": []}
    cases = [("client", m) for m, _ in REFUSED] + [("client", m) for m in ACCEPTED] + [
        ("server-v1", {**header, "t": 5.5}), ("server-v1", header), ("server-v2", header),
        ("server-v2", {**header, "base": 1, "layers": ["from", {"id": "to", "mask": None}]}),
        ("server-v2", {**header, "base": 1, "layers": [{"id": "to", "center": None}]}),
        ("server-v2", {**header, "base": 1, "layers": [{"id": "to", "center": [1]}]}),
        ("server-v2", {**header, "scene": {"layers": [0, {"base": 1, "title": None}, {"base": 2, "frame": [1, 2]}]},
                       "base": 1}),
        ("server-v2", {"type": "error", "code": "busy", "message": "x"}),
        ("server-v2", {"type": "error", "code": "too-busy", "message": "x"}),
        ("server-v1", WELCOME), ("server-v2", WELCOME), ("server-v2", {**WELCOME, "protocol": 2}),
        ("client", {"type": "configure", "fps": 60.0}), ("client", {"type": "configure", "fps": True}),
        ("client", {"type": "present", "controller": {"id": "a\u202eb"}}),
        ("client", {"type": "present",
                    "controller": {"id": "Détail ✓", "kind": "navigation", "stack": [{"id": "x"}]}}),
        ("client", {"type": "configure", "completionCurve": [0.1, 6, 0.2, 0]}),
        ("client", {"type": "configure", "completionCurve": [0.1, 0, 0.2, 0, 1]}),
    ] + [("client" if m["type"] in CLIENT_TYPES else "server-v2", m) for m in protocol_examples()]
    for name, message in cases:
        whole = validator(name).is_valid(message)
        if message["type"] in by_type(name):
            assert Draft202012Validator(by_type(name)[message["type"]]).is_valid(message) == whole, (name, message)
            try:
                fast(name, message["type"])(message)
                assert whole, (name, message)
            except JsonSchemaException:
                assert not whole, (name, message)
