"""The wire protocol's JSON Schema (schema/, draft 2020-12) as the tests use it: every message the
integration tests send and receive is checked (Tests/integration/client.py and rawws.py call
`check_sent` and `check_received`), so the schema cannot drift from the server. A message that
does not match fails the test with the schema's path to the mismatch."""
import json
from functools import lru_cache
from pathlib import Path

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
    `then` of each `if type == …` of `clientMessage`/`serverMessage`, and the entry file's frame
    definition; each inlined (`inlined`). Validating a message against its type's definition
    gives the same verdict as the whole file (which tries every `if`), several times faster
    (`test_schema.py` checks that they agree); `welcome`, whose version the entry file pins, and
    any type not listed go through the whole file."""
    entry = json.loads((SCHEMA / f"{name}.json").read_text())
    protocol = json.loads((SCHEMA / "protocol.json").read_text())
    dispatch = "clientMessage" if name == "client" else "serverMessage"
    table = {case["if"]["properties"]["type"]["const"]: case["then"]["$ref"]
             for case in protocol["$defs"][dispatch]["allOf"]}
    if name != "client":
        table["frame"] = entry["then"]["$ref"]
    table.pop("welcome", None)
    recursive = {key: inlined(protocol, protocol["$defs"][key], (key,)) for key in RECURSIVE}
    return {type_: Draft202012Validator({**inlined(protocol, {"$ref": ref}), "$defs": recursive})
            for type_, ref in table.items()}


def problem(name, message):
    """Why `message` does not match schema/<name>.json, or None if it does."""
    fast = by_type(name).get(message.get("type")) if isinstance(message, dict) else None
    if fast is not None and next(fast.iter_errors(message), None) is None:
        return None
    v = validator(name)
    if next(v.iter_errors(message), None) is None:
        return None
    error = best_match(v.iter_errors(message))
    where = "/".join(str(p) for p in error.absolute_path) or "(the message)"
    return f"schema/{name}.json: at {where}: {error.message[:300]}"


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
