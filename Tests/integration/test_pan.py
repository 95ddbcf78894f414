"""`sandbox pan`: every example script, in-process and over a real WebSocket, agreeing."""
import json
from pathlib import Path

from sandbox_env import ROOT, SANITIZER, run_sandbox

EXAMPLES = sorted((ROOT / "examples" / "scripts").glob("*.json"))
# A grab lands where the completion is when the touch reaches the server: over a socket that
# is the same progress as in-process only while the round trip is short. A sanitized debug
# server answers in tens of milliseconds (TSan: p90 72 ms), so there it is checked on its own
# expectations, not for agreement.
TIMED = {"grab-during-completion"}


def pan(*args):
    return run_sandbox("pan", *args, timeout=300)


def test_every_example_passes_both_ways_and_both_ways_agree(server):
    assert len(EXAMPLES) >= 13
    examples = [p for p in EXAMPLES if not (SANITIZER and p.stem in TIMED)]
    if len(examples) < len(EXAMPLES):
        timed = pan(*[p for p in EXAMPLES if p.stem in TIMED], "--url", server.url)
        assert timed.returncode == 0, timed.stdout + timed.stderr
    result = pan(*examples, "--local", "--url", server.url, "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    reports = json.loads(result.stdout)
    assert len(reports) == 2 * len(examples)
    scripts = [json.loads(p.read_text()) for p in examples]
    kinds = {s["config"]["transition"] for s in scripts if "config" in s}
    assert kinds == {"pop", "reveal", "fade", "push", "cover-vertical", "flip-horizontal", "cross-dissolve", "partial-curl"}
    assert sum(1 for s in scripts if any("scene" in step for step in s["steps"])) >= 4
    for script, local, remote in zip(scripts, reports[::2], reports[1::2]):
        assert local["mode"] == "local" and remote["mode"] == server.url
        assert local["passed"] and remote["passed"], (local, remote)
        assert local["outcome"] == remote["outcome"] and local["progress"] == remote["progress"]
        assert local["lifecycle"] == remote["lifecycle"]
        if any("down" in step for step in script["steps"]):
            assert remote["latencyMs"]["count"] > 0 and remote["serverMs"]["p50"] <= remote["latencyMs"]["p50"]


def test_the_local_replay_is_byte_identical_run_after_run(tmp_path):
    script = ROOT / "examples" / "scripts" / "grab-during-completion.json"
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert pan(script, "--trace", first).returncode == 0
    assert pan(script, "--trace", second).returncode == 0
    assert first.read_bytes() == second.read_bytes()
    frames = [json.loads(line) for line in first.read_text().splitlines()]
    assert frames[0]["type"] == "frame" and frames[-1]["phase"] == "cancelled"
    assert [f["n"] for f in frames] == sorted(f["n"] for f in frames)


def test_a_missed_expectation_exits_1_with_its_reason(tmp_path):
    script = tmp_path / "wrong.json"
    script.write_text(json.dumps({
        "steps": [{"down": [100, 400]}, {"move": [130, 400], "ms": 100}, {"hold": 50}, {"up": True}],
        "expect": {"outcome": "finished"}}))
    result = pan(script)
    assert result.returncode == 1
    assert "outcome: expected finished, got cancelled" in result.stdout
    assert "0 passed, 1 failed" in result.stdout


def test_a_bad_script_is_refused_with_where_and_why(tmp_path):
    script = tmp_path / "bad.json"
    script.write_text('{"steps": [{"down": [100, 400]}, {"move": [1]}]}')
    result = pan(script)
    assert result.returncode not in (0, 1)
    assert "bad.json: steps[1]: 'move' must be [x, y] in points" in result.stderr


def test_a_refused_configuration_fails_the_script_with_the_servers_error(tmp_path, server):
    script = tmp_path / "config.json"
    script.write_text(json.dumps({"config": {"duration": 0}, "steps": [{"down": [1, 1]}]}))
    for mode in (["--local"], ["--url", server.url]):
        result = pan(script, *mode)
        assert result.returncode == 1
        assert "the configuration was refused: invalid-config: duration must be a number in [0.01, 60.0]" in result.stdout


def test_an_unreachable_server_is_a_clear_failure(tmp_path):
    result = pan(ROOT / "examples" / "scripts" / "kind-fade.json", "--url", "ws://127.0.0.1:9/")
    assert result.returncode == 1
    assert "could not connect to ws://127.0.0.1:9/" in result.stdout


def test_pan_names_the_servers_error(tmp_path):
    """A scene step the server refuses: the text report carries its words and field, not only
    the code (a misspelt `detents` in a sheet)."""
    script = tmp_path / "detent.json"
    script.write_text(json.dumps({
        "steps": [{"scene": {"ios": "26", "root": {"id": "maps"}}},
                  {"present": {"controller": {"id": "places", "presentationStyle": "pageSheet",
                                              "sheet": {"detent": ["medium"]}}}}],
        "expect": {"errors": []}}))
    result = pan(script, "--local")
    assert result.returncode == 1
    assert "got [\"unknown-field\"] — the server said: unknown-field: " in result.stdout, result.stdout
    assert "'detent'" in result.stdout, result.stdout
