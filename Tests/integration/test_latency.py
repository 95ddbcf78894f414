"""`sandbox latency` against the real server, with the C echo floor measured in the same run.
Checks that the figures are there and consistent, never that they are fast (that is for the
benchmark and docs/PERFORMANCE.md, not a shared 2-core CI machine)."""
import json
import re
import subprocess

import pytest

from sandbox_env import FLOOR, run_sandbox


@pytest.fixture
def echo_floor():
    process = subprocess.Popen([str(FLOOR), "echo", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(r"listening on (\d+)", line)
    assert match, line
    yield f"ws://127.0.0.1:{match.group(1)}/"
    process.terminate()
    process.wait(timeout=10)


def latency(*args):
    return run_sandbox("latency", *args, timeout=120)


def test_latency_reports_percentiles_and_the_ratio_to_the_echo_floor(server, echo_floor):
    result = latency("--url", server.url, "--compare", echo_floor, "--samples", "400", "--rate", "400",
                     "--concurrency", "2", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    frame, ping, own = report["inputToFrameMs"], report["pingMs"], report["serverMs"]
    assert frame["count"] == 400 and report["lost"] == 0 and report["errors"] == 0
    assert 0 < frame["p50"] <= frame["p90"] <= frame["p99"] <= frame["p99.9"] <= frame["max"]
    assert ping["count"] > 0 and own["count"] > 0
    assert own["p50"] <= frame["p50"]  # the server's share of a round trip
    assert report["floor"]["roundTripMs"]["count"] == 400
    # Both written at three decimals (the ratio of the unrounded percentiles, rounded).
    assert report["ratio"]["p50"] == pytest.approx(frame["p50"] / report["floor"]["roundTripMs"]["p50"], rel=5e-3)
    assert report["clientCPUSeconds"] > 0


def test_latency_text_has_a_table_and_a_histogram(server):
    result = latency("--url", server.url, "--samples", "100", "--rate", "500")
    assert result.returncode == 0, result.stderr
    assert re.search(r"input → frame +\d+\.\d+ ms", result.stdout)
    assert "ping → pong" in result.stdout and "server time" in result.stdout
    assert re.search(r"< \d+ (µs|ms) +\d+ █", result.stdout)


def test_latency_refuses_bad_options_and_reports_an_unreachable_server():
    assert latency("--url", "http://x").returncode == 64
    assert latency("--url", "ws://127.0.0.1:1/", "--samples", "0").returncode == 64
    result = latency("--url", "ws://127.0.0.1:9/", "--samples", "10")
    # One line on standard error, no table of nothing on standard output.
    assert result.returncode == 1 and "could not connect" in result.stderr and result.stdout == ""


def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def test_latency_repeat_alternates_with_the_floor_and_sums_up_medians(server, echo_floor):
    result = latency("--url", server.url, "--compare", echo_floor, "--samples", "200", "--rate", "400",
                     "--repeat", "3", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    *runs, summary = json.loads(result.stdout)
    assert len(runs) == 3 and summary["target"] == "summary" and summary["runs"] == 3
    for run in runs:
        assert run["inputToFrameMs"]["count"] == 200 and run["floor"]["roundTripMs"]["count"] == 200
    for key, path in [("inputToFrameMs", ("inputToFrameMs",)), ("serverMs", ("serverMs",)),
                      ("floorMs", ("floor", "roundTripMs")), ("ratio", ("ratio",))]:
        for percentile in ["p50", "p99"]:
            values = []
            for run in runs:
                value = run
                for step in path:
                    value = value[step]
                values.append(value[percentile])
            assert summary[key]["runs"] == 3
            spread = summary[key][percentile]
            # Runs and summary alike are written at three decimals: equal within that.
            assert spread["median"] == pytest.approx(median(values), abs=1e-3), (key, percentile)
            assert spread["min"] == pytest.approx(min(values), abs=1e-3)
            assert spread["max"] == pytest.approx(max(values), abs=1e-3)


def test_latency_repeat_prints_a_line_per_run_and_the_summary(server):
    result = latency("--url", server.url, "--samples", "100", "--rate", "500", "--repeat", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["run 1/2", "run 2/2"]
    assert lines[2] == "summary of 2 runs: median (lowest–highest)"
    assert re.match(r"  input → frame +p50 \d+\.\d+ \(\d+\.\d+–\d+\.\d+\) ms, p99 ", lines[3])
    # Without --compare there is no floor to divide by.
    assert "echo floor" not in result.stdout and "÷ floor" not in result.stdout
    as_json = latency("--url", server.url, "--samples", "50", "--rate", "500", "--repeat", "2", "--json")
    summary = json.loads(as_json.stdout)[-1]
    assert summary["floorMs"] is None and summary["ratio"] is None  # the same keys, null


@pytest.mark.parametrize("value", ["0", "51", "1e308", "-1"])
def test_latency_repeat_out_of_range_is_refused(value):
    bad = latency("--url", "ws://127.0.0.1:9/", f"--repeat={value}")
    assert bad.returncode == 64 and "repeat" in bad.stderr


def test_latency_repeat_with_a_floor_that_answers_nothing_fails_and_stops(server):
    # Port 9 refuses: the floor measures nothing, so run 1 fails, the summary says the floor
    # rows come from none of the runs, and no second run waits for the same refusal.
    args = ["--url", server.url, "--compare", "ws://127.0.0.1:9/", "--samples", "50", "--rate", "500", "--repeat", "3"]
    text = latency(*args)
    assert text.returncode == 1, text.stdout + text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("run 1/3: input → frame p50 ") and "; floor —" in lines[0]
    # Errors go to standard error, the figures to standard output.
    assert "Error: could not connect to ws://127.0.0.1:9/" in text.stderr
    assert not any("error: " in line for line in lines)
    assert "  stopping: run 1 measured nothing, the next would not either" in lines
    assert not any(line.startswith("run 2/3") for line in lines)
    assert "summary of 1 alternating run: median (lowest–highest)" in lines
    assert any(line.startswith("  echo floor") and line.endswith("p50 —, p99 —  (from 0 of 1 runs)") for line in lines)
    as_json = latency(*args, "--json")
    assert as_json.returncode == 1
    run, summary = json.loads(as_json.stdout)
    assert run["floor"]["errors"] >= 1 and run["floor"]["roundTripMs"] is None and run["errorMessages"]
    assert summary["runs"] == 1 and summary["floorMs"] == {"p50": None, "p99": None, "runs": 0}
    assert summary["inputToFrameMs"]["runs"] == 1 and summary["ratio"]["runs"] == 0


def test_a_single_latency_run_against_a_floor_that_answers_nothing_fails(server):
    result = latency("--url", server.url, "--compare", "ws://127.0.0.1:9/", "--samples", "50", "--rate", "500", "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["errors"] == 0 and report["floor"]["errors"] >= 1 and report["errorMessages"]
