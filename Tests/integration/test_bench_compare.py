"""`make bench-compare`'s table end to end at a tiny size (tools/bench-compare): every comparison
runs and lands in its row. The figures are checked for form, not speed (docs/PERFORMANCE.md)."""
import re
import subprocess
import sys

import pytest

from sandbox_env import BINARY, FLOOR, ROOT


def test_the_table_has_every_row_with_figures_for_both_targets():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools/bench-compare/bench_compare.py"), "--binary", str(BINARY),
         "--floor", str(FLOOR), "--repeat", "2", "--sessions", "3", "--seconds", "1", "--ramp-start", "2",
         "--ramp-seconds", "1", "--ramp-limit", "3", "--samples", "20", "--warmup", "2", "--connections", "1", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^machine: .+ CPUs, .+; load average [\d.]+ before, [\d.]+ after$", result.stdout, re.MULTILINE)
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == 7, result.stdout
    number = r"\d+(?:\.\d+)? \(\d+(?:\.\d+)?–\d+(?:\.\d+)?\)"
    cpu, prebuilt, held, *latency = rows
    assert re.fullmatch(rf"\| 3 sessions .* \| {number} \| {number} \| {number}× \|", cpu), cpu
    # The server core's floor, measured the same way (every frame prebuilt, the sandbox's bytes).
    assert re.fullmatch(rf"\| same, every frame a prebuilt message .*median of 2\) \| {number} \| {number} \| {number}× \|",
                        prebuilt), prebuilt
    assert re.fullmatch(r"\| most sessions .* \| (\d+|none) \| (\d+|none) \| (\d+\.\d\d×|—) \|", held), held
    for connections, (frame, server) in zip((1, 2), (latency[0:2], latency[2:4])):
        pair = rf"{number} / {number}"
        label = rf"\| input → frame .*{connections} connections?, .*"
        assert re.fullmatch(rf"{label} \| {pair} \| {pair} \| {pair} \|", frame), frame
        assert re.fullmatch(rf"\| server time .*{connections} connections? \| {pair} \|  \|  \|", server), server


def test_from_a_folder_whose_steps_did_not_run_or_failed(tmp_path):
    """`--from` on what device.sh leaves when a step failed (an empty bench.json: the command's
    output redirected before it died) or was not run (STEPS): a table with those rows marked, not a
    traceback."""
    (tmp_path / "bench.json").write_text("")
    (tmp_path / "machine.txt").write_text("m, 2 CPUs, x; load average 0.1 before, 0.1 after\n")
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools/bench-compare/bench_compare.py"), "--from", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^\| \? sessions .* \| — \| — \| —× \|$", result.stdout, re.MULTILINE), result.stdout
    assert re.search(r"^\| most sessions .* \| not run \| not run \|", result.stdout, re.MULTILINE), result.stdout
    assert re.search(r"^\| same, every frame a prebuilt .* \| not run \| not run \| — \|$", result.stdout, re.MULTILINE), \
        result.stdout


@pytest.mark.parametrize("text", [
    "{{{",  # garbled
    '{"target":"sandbox","result":{"serverMicrosecondsPerFrame":5}}\n{"target":"stre',  # cut off mid-line
    '[1, null, "x"]',  # JSON, but no runs in it
])
def test_from_a_folder_with_an_unreadable_file(tmp_path, text):
    """A prebuilt.json (or any step's file) that is not the runs' JSON: the table still comes out,
    its rows empty, and stderr names the file, not a traceback that loses every other row."""
    (tmp_path / "prebuilt.json").write_text(text)
    (tmp_path / "machine.txt").write_text("m, 2 CPUs, x; load average 0.1 before, 0.1 after\n")
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools/bench-compare/bench_compare.py"), "--from", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "prebuilt.json" in result.stderr, result.stderr
    assert re.search(r"^\| same, every frame a prebuilt .* \| (not run|—) \| (not run|—) \| —×? \|$", result.stdout,
                     re.MULTILINE), result.stdout
    assert re.search(r"^\| most sessions .* \| not run \| not run \|", result.stdout, re.MULTILINE), result.stdout


@pytest.mark.parametrize("bench, expected", [
    (None, "265"),  # the bench step not run
    ("", "265"),  # or died before writing
    ('[{"target":"sandbox","result":{"meanFrameBytes":267.8}}]', "268"),
    ('[{"target":"sandbox","result":{"connected":0,"meanFrameBytes":0}}]', "265"),  # no frames seen
    ('[{"target":"sandbox","result":{"meanFrameBytes":12.5}}]', "25"),  # under the smallest padding
    ('[{"target":"sandbox","result":{"meanFrameBytes":70000}}]', "65536"),
])
def test_device_script_prebuilt_size_is_one_serve_takes(tmp_path, bench, expected):
    """device.sh's prebuilt steps pass `prebuilt_bytes` to `--server-prebuilt-frames`, which
    refuses sizes outside 25…65536: whatever bench.json holds, the size is one it takes."""
    if bench is not None:
        (tmp_path / "bench.json").write_text(bench)
    script = (ROOT / "tools/bench-compare/device.sh").read_text()
    function = re.search(r"^prebuilt_bytes\(\) \{\n.*?^\}\n", script, re.MULTILINE | re.DOTALL).group(0)
    result = subprocess.run(["bash", "-c", f"set -u\n{function}out=$1\nprebuilt_bytes", "-", str(tmp_path)],
                            capture_output=True, text=True, timeout=30, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0 and result.stdout.strip() == expected, result.stdout + result.stderr
