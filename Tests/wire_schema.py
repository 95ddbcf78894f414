"""The wire protocol's JSON Schema (schema/, draft 2020-12) as the tests use it: every message the
integration tests send and receive is checked (Tests/integration/client.py and rawws.py call
`check_sent` and `check_received`), so the schema cannot drift from the server. A message that
does not match fails the test with the schema's path to the mismatch.

The reference validator is `jsonschema`'s (draft 2020-12). It costs 50–250 µs a message, and a
flood test sends tens of thousands, so each message is first checked by `fastjsonschema` compiled
from the same schema (its type's definition, inlined, in draft 7's spelling: `fast`), 5–70 µs; a
message it refuses goes to the reference, which decides and explains. The first messages of each
type and one in `AUDIT_EVERY` after go to both, and a disagreement fails the test
(`test_schema.py` checks agreement on its own cases too)."""
import itertools
import json
from functools import lru_cache
from pathlib import Path

import fastjsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

SCHEMA = Path(__file__).resolve().parents[1] / "schema"
# The subprotocol a connection negotiated → its version (none negotiated: protocol 1).
VERSIONS = {"transition-sandbox.v1": 1, "transition-sandbox.v2": 2, None: 1}


@lru_cache(maxsize=None)
def registry():
    """Every schema/ file, by its `$id` (they refer to one another relatively)."""
    resources = []
    for path in sorted(SCHEMA.glob("*.json")):
        contents = json.loads(path.read_text())
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(name):
    """The validator of schema/<name>.json (client, server-v1, server-v2)."""
    contents = json.loads((SCHEMA / f"{name}.json").read_text())
    return Draft202012Validator(contents, registry=registry())


# Definitions that contain themselves (a navigation stack holds controllers): kept as `$ref`s.
RECURSIVE = ("controller", "reportedController")


def inlined(protocol, node, inside=()):
    """`node` with every `$ref` into protocol.json replaced by what it names (`$ref` beside other
    keywords becomes one more `allOf` entry: the same meaning in draft 2020-12), but the recursive
    definitions, which stay `$ref`s into the result's own `$defs`. The same schema, without the
    reference lookups that make up two thirds of jsonschema's time."""
    if isinstance(node, list):
        return [inlined(protocol, item, inside) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: inlined(protocol, value, inside) for key, value in node.items() if key != "$ref"}
    if "$ref" not in node:
        return out
    path = node["$ref"].split("#", 1)[1].strip("/").split("/")  # ["$defs", name, …]
    if path[1] in RECURSIVE and path[1] in inside:
        return {**out, "$ref": "#/$defs/" + "/".join(path[1:])}
    target = protocol
    for part in path:
        target = target[part]
    target = inlined(protocol, target, inside + (path[1],))
    return {**out, "allOf": out.get("allOf", []) + [target]} if out else target


@lru_cache(maxsize=None)
def by_type(name):
    """schema/<name>.json's own choice of definition for each message `type`, read from it: the
    `then` of each `if type == …` of `clientMessage`/`serverMessage`, the entry file's frame
    definition, and what the entry file adds for a type (`welcome`'s version); each inlined
    (`inlined`). Validating a message against its type's definition gives the same verdict as the
    whole file, which tries every `if` (`test_schema.py` checks that they agree)."""
    entry = json.loads((SCHEMA / f"{name}.json").read_text())
    protocol = json.loads((SCHEMA / "protocol.json").read_text())
    dispatch = "clientMessage" if name == "client" else "serverMessage"
    table = {case["if"]["properties"]["type"]["const"]: [{"$ref": case["then"]["$ref"]}]
             for case in protocol["$defs"][dispatch]["allOf"]}
    if name != "client":
        table["frame"] = [{"$ref": entry["then"]["$ref"]}]
        for case in entry["else"]["allOf"][1:]:
            table[case["if"]["properties"]["type"]["const"]].append(case["then"])
    recursive = {key: inlined(protocol, protocol["$defs"][key], (key,)) for key in RECURSIVE}
    return {type_: {**inlined(protocol, {"allOf": parts}), "$defs": recursive} for type_, parts in table.items()}


@lru_cache(maxsize=None)
def of_type(name, type_):
    """The reference (jsonschema) validator of one type's definition."""
    return Draft202012Validator(by_type(name)[type_])


def draft7(node):
    """The same schema in draft 7's spelling, which fastjsonschema reads: `prefixItems` + `items`
    become `items` (an array) + `additionalItems`, `$defs` `definitions`."""
    if isinstance(node, list):
        return [draft7(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: draft7(value) for key, value in node.items() if key not in ("prefixItems", "items", "$defs", "$ref")}
    if "$ref" in node:
        out["$ref"] = node["$ref"].replace("#/$defs/", "#/definitions/")
    if "$defs" in node:
        out["definitions"] = draft7(node["$defs"])
    if "prefixItems" in node:
        out["items"] = draft7(node["prefixItems"])
        if "items" in node:
            out["additionalItems"] = draft7(node["items"])
    elif "items" in node:
        out["items"] = draft7(node["items"])
    return out


@lru_cache(maxsize=None)
def fast(name, type_):
    """fastjsonschema's compiled check of one type's definition (compiled when first needed: a
    test process meets a few types)."""
    schema = {**draft7(by_type(name)[type_]), "$schema": "http://json-schema.org/draft-07/schema#"}
    return fastjsonschema.compile(schema)


# Messages of each (file, type) that the reference also checks: the first `AUDIT_FIRST`, then one
# in `AUDIT_EVERY`.
AUDIT_FIRST, AUDIT_EVERY = 3, 128
_seen = {}


def reference_problem(name, message):
    """Why `message` does not match schema/<name>.json by jsonschema (the reference), or None."""
    v = validator(name)
    if next(v.iter_errors(message), None) is None:
        return None
    error = best_match(v.iter_errors(message))
    where = "/".join(str(p) for p in error.absolute_path) or "(the message)"
    return f"schema/{name}.json: at {where}: {error.message[:300]}"


def problem(name, message):
    """Why `message` does not match schema/<name>.json, or None if it does."""
    type_ = message.get("type") if isinstance(message, dict) else None
    if type_ not in by_type(name):
        return reference_problem(name, message)
    try:
        fast(name, type_)(message)
    except fastjsonschema.JsonSchemaException:
        return reference_problem(name, message)
    seen = next(_seen.setdefault((name, type_), itertools.count()))
    if seen < AUDIT_FIRST or seen % AUDIT_EVERY == 0:
        assert of_type(name, type_).is_valid(message), (
            f"fastjsonschema accepted what jsonschema refuses ({reference_problem(name, message)}): see draft7()")
    return None


def check(name, message, direction):
    why = problem(name, message)
    if why:
        raise AssertionError(f"{direction} message does not match {why}; message {json.dumps(message)[:400]}")


def check_sent(message):
    """A client → server message (the same in both versions)."""
    check("client", message, "sent")


def check_received(message, version):
    """A server → client message of protocol `version` (1 or 2); None: either (a raw socket whose
    handshake the test wrote itself)."""
    if version is None:
        if problem("server-v1", message) is None:
            return
        version = 2
    check(f"server-v{version}", message, "received")
