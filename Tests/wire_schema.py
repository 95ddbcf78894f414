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


def problem(name, message):
    """Why `message` does not match schema/<name>.json, or None if it does."""
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
