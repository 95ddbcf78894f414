"""The wire's JSON: what the client sends is strict JSON, and what it reads is bounded and
strict — every refusal a ProtocolError or ValueError, never another exception."""
import pytest

from transition_sandbox import ProtocolError
from transition_sandbox.wire import decode, encode


def test_a_message_round_trips():
    message = {"type": "frame", "n": 3, "layers": [{"id": "from", "center": [1.5, 2]}], "ack": None}
    assert decode(encode(message)) == message
    assert decode(encode(message).encode()) == message


@pytest.mark.parametrize("text", [
    '{"type":"frame","progress":NaN}',
    '{"type":"frame","progress":Infinity}',
    '{"type":"frame","progress":-Infinity}',
    '{"type":"frame","progress":1e400}',
    '{"type":"frame","n":' + "9" * 5000 + "}",
    '{"type":"frame","n":' + "9" * 400 + "}",
    '{"type":"frame","layers":' + "[" * 65 + "]" * 65 + "}",
    '{"type":"frame","layers":' + "[" * 100000 + "]" * 100000 + "}",
    "[1, 2]",
    '"frame"',
    '{"n": 1}',
    '{"type": 7}',
    "not json",
    '{"type":"frame"',
    b'{"type":"\xff"}',
])
def test_what_the_server_never_sends_is_a_protocol_error(text):
    with pytest.raises(ProtocolError):
        decode(text)


def test_nesting_up_to_the_limit_and_brackets_in_strings_are_accepted():
    assert decode('{"type":"x","a":' + "[" * 60 + "]" * 60 + "}")["type"] == "x"
    assert decode('{"type":"' + "[" * 200 + '"}')["type"] == "[" * 200
    assert decode('{"type":"x","s":"\\"[[[[' + "[" * 100 + '"}')["type"] == "x"


@pytest.mark.parametrize("message", [
    {"type": "pointer", "x": float("nan")},
    {"type": "pointer", "t": float("inf")},
    {"phase": "down"},
    {"type": 3},
    ["type", "ping"],
])
def test_a_message_json_cannot_carry_is_refused_before_it_is_sent(message):
    with pytest.raises(ValueError):
        encode(message)
