"""`make bench-compare`'s table end to end at a tiny size (tools/bench-compare): every comparison
runs and lands in its row. The figures are checked for form, not speed (docs/PERFORMANCE.md)."""
import re
import subprocess
import sys

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
    assert len(rows) == 6, result.stdout
    number = r"\d+(?:\.\d+)? \(\d+(?:\.\d+)?–\d+(?:\.\d+)?\)"
    cpu, held, *latency = rows
    assert re.fullmatch(rf"\| 3 sessions .* \| {number} \| {number} \| {number}× \|", cpu), cpu
    assert re.fullmatch(r"\| most sessions .* \| (\d+|none) \| (\d+|none) \| (\d+\.\d\d×|—) \|", held), held
    for connections, (frame, server) in zip((1, 2), (latency[0:2], latency[2:4])):
        pair = rf"{number} / {number}"
        label = rf"\| input → frame .*{connections} connections?, .*"
        assert re.fullmatch(rf"{label} \| {pair} \| {pair} \| {pair} \|", frame), frame
        assert re.fullmatch(rf"\| server time .*{connections} connections? \| {pair} \|  \|  \|", server), server
