"""Reading pan scripts with `sandbox pan`'s checks and words (docs/SCRIPTS.md): every example
reads; a bad script names the file, the step or the expectation, and what is wrong."""
import json
import os
from pathlib import Path

import pytest

from transition_sandbox import ScriptError, load_script, parse_script
from transition_sandbox.__main__ import main

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "scripts").glob("*.json"))


def test_every_example_reads():
    assert len(EXAMPLES) >= 30
    for path in EXAMPLES:
        script = load_script(path)
        assert script.name == json.loads(path.read_text()).get("name", path.stem) and script.steps


def test_a_script_reads_into_steps_config_and_expectations():
    script = parse_script({"name": "n", "config": {"transition": "push"},
                           "steps": [{"down": [1, 2]}, {"move": [3, 4], "ms": 100}, {"moveBy": [5, 6], "hz": 120},
                                     {"samples": [[0, 1, 1], [8, 2, 2]]}, {"hold": 50}, {"up": True},
                                     {"present": {"controller": "x"}}, {"device": "landscapeLeft"},
                                     {"attempt-rotation": True}, {"wait": "finished", "timeoutMs": 500}],
                           "expect": {"outcome": "finished", "frames": [1, 9], "release": {"progress": [0, 1]}}})
    assert script.config == {"transition": "push", "type": "configure"}
    kinds = [s.kind for s in script.steps]
    assert kinds == ["down", "move", "move", "samples", "hold", "up", "message", "message", "message", "wait"]
    assert script.steps[1].hz == 60 and script.steps[2].relative and script.steps[2].ms == 0
    assert script.steps[6].message == {"controller": "x", "type": "present"}
    assert script.steps[7].message == {"type": "device", "orientation": "landscapeLeft"}
    assert script.steps[9].condition == "finished" and script.steps[9].ms == 500
    assert script.expect == {"outcome": "finished", "frames": (1, 9), "release": {"progress": (0.0, 1.0)}}


@pytest.mark.parametrize("script,message", [
    ('{"steps": [{"down": [100, 400]}, {"move": [1]}]}', "steps[1]: 'move' must be [x, y] in points"),
    ('{"steps": []}', "'steps' must be a non-empty array"),
    ('{"steps": [{"down": [1, 1]}], "expects": {}}', "unknown field 'expects'"),
    ('{"steps": [{"down": [1, 1], "ms": 3}]}', "steps[0]: 'down' takes no 'ms'"),
    ('{"steps": [{"down": [1, 1], "up": true}]}', "steps[0]: a step has exactly one of down, move"),
    ('{"steps": [{"up": 1}]}', 'steps[0]: write {"up": true}'),
    ('{"steps": [{"hold": -1}]}', "steps[0]: 'hold' must be a number of milliseconds in 0…3600000"),
    ('{"steps": [{"hold": true}]}', "steps[0]: 'hold' must be a number of milliseconds"),
    ('{"steps": [{"move": [1, 1], "hz": 0}]}', "steps[0]: 'hz' must be in (0, 10000]"),
    ('{"steps": [{"move": [1, 1], "ms": 1e308}]}', "steps[0]: 'ms' must be in 0…3600000"),
    ('{"steps": [{"down": [1, 1], "pointer": 1.5}]}', "steps[0]: 'pointer' must be a whole number ≥ 0"),
    ('{"steps": [{"samples": [[5, 1, 1], [4, 1, 1]]}]}', "steps[0]: samples[1]: times must not decrease"),
    ('{"steps": [{"wait": "done"}]}', "steps[0]: 'wait' must be one of began, released"),
    ('{"steps": [{"present": {"type": "x"}}]}', "steps[0]: 'present' must be an object of the present"),
    ('{"steps": [{"down": [1, 1]}], "expect": {"outcome": "won"}}', "expect: 'outcome' must be finished"),
    ('{"steps": [{"down": [1, 1]}], "expect": {"frames": [3, 1]}}', "expect: 'frames' must be [min, max]"),
    ('{"steps": [{"down": [1, 1]}], "expect": {"release": {"decision": "go"}}}',
     "expect: release.decision must be finish or cancel"),
    ('{"steps": [{"down": [1, 1]}], "expect": {"scene": {"top": "x"}}}', "expect: scene: unknown field 'top'"),
    ('{"script": 2, "steps": [{"down": [1, 1]}]}', "'script' must be 1"),
    ('{"steps": [{"down": [1e400, 1]}]}', "not JSON: the number 1e400 is beyond a double"),
    ('{"steps": [{"down": [NaN, 1]}]}', "not JSON: NaN is not a JSON number"),
    ('{"steps": [{"down": [' + "9" * 400 + ', 1]}]}', "not JSON: the number 999"),
    ('{"steps": [\n  {"down": [1, 1]},,\n]}', "not JSON: Expecting value at line 2, column 20"),
    ("[" * 100000 + "]" * 100000, "nested deeper than 64 (the server's limit)"),
    ('{"steps": [{"scene": ' + "[" * 62 + "]" * 62 + "}]}", "nested deeper than 64"),
    ('{"name": "a\\ud800", "steps": [{"down": [1, 1]}]}', "lone surrogate"),
    ("[]", "a script is one JSON object"),
])
def test_a_bad_script_says_where_and_what(script, message):
    with pytest.raises(ScriptError) as error:
        parse_script(script)
    assert message in str(error.value)


def test_a_file_that_cannot_be_read_is_named(tmp_path):
    with pytest.raises(ScriptError, match=r"missing\.json: cannot read"):
        load_script(tmp_path / "missing.json")
    with pytest.raises(ScriptError, match=r"cannot read"):
        load_script(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text('{"steps": [{"down": [1]}]}')
    with pytest.raises(ScriptError, match=r"bad\.json: steps\[0\]: 'down' must be"):
        load_script(bad)


def test_only_a_regular_file_of_at_most_16_mib_is_read(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # opened for reading it would block until a writer came
    with pytest.raises(ScriptError, match=r"fifo\.json: cannot read: the script is not a regular file"):
        load_script(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")  # endless
    with pytest.raises(ScriptError, match=r"zero\.json: cannot read: the script is not a regular file"):
        load_script(zero)
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as file:
        file.truncate((16 << 20) + 1)  # sparse: nothing is written
    with pytest.raises(ScriptError, match=r"huge\.json: cannot read: the script is over 16777216 bytes"):
        load_script(huge)


@pytest.mark.parametrize("options, message", [
    (["--url", "http://127.0.0.1:1/"], "must look like ws://"),
    (["--url", "ws://[::1/"], "is not a URL"),
    (["--url", "ws://127.0.0.1:1/", "--ca", "ca.pem"], "are for wss:// URLs"),
    (["--url", "wss://127.0.0.1:1/", "--ca", "ca.pem", "--insecure"], "contradict"),
    (["--url", "ws://127.0.0.1:1/", "--network", "9" * 400], "a double holds"),
], ids=["http", "unbalanced bracket", "ca with ws", "ca and insecure", "network beyond a double"])
def test_pan_options_that_cannot_work_exit_64_with_a_message(options, message, capsys):
    try:
        status = main(["pan", str(EXAMPLES[0]), *options])
    except SystemExit as exit:  # argparse's own checks (--network)
        status = exit.code
    assert status == 64 and message in capsys.readouterr().err
