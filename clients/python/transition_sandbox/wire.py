"""Reading and writing the wire's JSON (docs/PROTOCOL.md): strict both ways, bounded on the way in.

- `encode` refuses NaN and ±Infinity (JSON has no such tokens; the server would answer
  `invalid-json`), so a bad number is a ValueError here and nothing is sent.
- `decode` refuses what the server never sends — NaN/Infinity tokens, numbers beyond a double,
  nesting deeper than Python's recursion allows, integers too long to convert, anything but one
  object with a string `type` — with a ProtocolError, never another exception
  (tests/test_client_wire.py holds it).
"""
import json
import math
import sys

from .errors import ProtocolError

# The deepest nesting accepted from the server: the protocol's deepest message (a scene's
# frame) is under 10 levels; the server refuses more than 64 from clients.
MAX_DEPTH = 64


def encode(message):
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ValueError("a message is a dict with a string 'type'")
    return json.dumps(message, allow_nan=False, separators=(",", ":"))


def _refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def _finite(text):
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:32]} is beyond a double")
    return value


def _whole(text):
    value = int(text)
    if abs(value) > sys.float_info.max:
        raise ValueError(f"the number {text[:32]}… is beyond a double")
    return value


def _depth(text):
    """The deepest nesting of brackets outside strings: checked before parsing, so a hostile
    message cannot exhaust the recursion of the parser."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def decode(data):
    """One server message → a dict with a string `type`, or ProtocolError saying why not."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
        if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH}")
        message = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite, parse_int=_whole)
    except (ValueError, RecursionError) as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ProtocolError(f"the server sent a message that is not strict JSON: {str(error)[:120]}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"the server sent a message that is not an object with a type: {text[:80]!r}")
    return message
