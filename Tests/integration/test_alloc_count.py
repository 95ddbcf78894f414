"""`make alloc-count`'s counter end to end at a small size (tools/alloc-count): the counting
allocator loads into the server, the two runs of each workload differ, and --max holds the line.
Figures are checked for form and consistency, not their value (debug builds allocate more than
the release build `make alloc-count` measures; docs/PERFORMANCE.md, "Allocations")."""
import re
import subprocess
import sys

import pytest

from sandbox_env import BINARY, ROOT, SANITIZER

pytestmark = pytest.mark.skipif(
    bool(SANITIZER), reason="the sanitizers interpose malloc themselves: no second counting allocator")

FIGURE = re.compile(r"^allocations per (frame|pointer message): (\d+\.\d+)", re.MULTILINE)


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    path = tmp_path_factory.mktemp("alloc-count") / "alloc-count.so"
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o", str(path),
                    str(ROOT / "tools/alloc-count/alloc-count.c")], check=True)
    return path


def count(shim, *extra):
    return subprocess.run(
        [sys.executable, str(ROOT / "tools/alloc-count/alloc_count.py"), "--binary", str(BINARY),
         "--shim", str(shim), "--sessions", "4", "--seconds", "1", "2", "--moves", "40", "120", *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_it_counts_frames_and_pointer_messages_and_max_fails_above(shim):
    result = count(shim, "--max", "0")
    # Every frame and message allocates something in a debug build: above a max of 0, exit 1.
    assert result.returncode == 1, result.stdout + result.stderr
    assert "above ALLOC_MAX=0.0" in result.stderr
    figures = dict(FIGURE.findall(result.stdout))
    assert set(figures) == {"frame", "pointer message"}, result.stdout
    assert all(float(value) > 0 for value in figures.values())
    # The runs behind each figure: the longer one counted more of everything.
    runs = re.findall(r"(\d+) allocations, (\d+) (?:frames|pointer messages)", result.stdout)
    assert len(runs) == 4
    (a0, n0), (a1, n1), (b0, m0), (b1, m1) = [(int(a), int(n)) for a, n in runs]
    assert a1 > a0 and n1 > n0 and b1 > b0 and m1 - m0 == 80
    assert re.search(r"own frame included: 1\.00 frames a message", result.stdout), result.stdout


def test_a_max_above_both_figures_passes(shim):
    result = count(shim, "--max", "100000")
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(FIGURE.findall(result.stdout)) == 2
