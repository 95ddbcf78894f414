"""`sandbox bench` end to end at a small size: it starts its own server, streams, reads /proc,
and measures a C streamer the same way. Figures are checked for presence and consistency, not
speed (docs/PERFORMANCE.md has the measured figures and the commands)."""
import json
import os
import pty
import re
import signal
import socket
import subprocess
import time

import pytest

from sandbox_env import BINARY, FLOOR, ROOT, run_sandbox


@pytest.fixture
def streamer():
    process = subprocess.Popen([str(FLOOR), "stream", "--port", "0", "--fps", "30", "--bytes", "900"],
                               stdout=subprocess.PIPE, text=True)
    match = re.search(r"listening on (\d+)", process.stdout.readline())
    assert match
    yield f"ws://127.0.0.1:{match.group(1)}/", process.pid
    process.terminate()
    process.wait(timeout=10)


def test_bench_streams_sessions_and_reports_cpu_memory_and_the_streamer(streamer):
    url, pid = streamer
    result = run_sandbox(
        "bench", "--sessions", "20", "--fps", "30", "--seconds", "2", "--compare", url,
        "--compare-pid", pid, "--json", timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    sandbox, floor = json.loads(result.stdout)
    for target in (sandbox, floor):
        run = target["result"]
        assert run["sessions"] == 20 and run["connected"] == 20 and run["errors"] == 0
        assert run["framesPerSecond"] > 0 and run["meanSessionFPS"] > 0
        assert 0 < run["onTimeFraction"] <= 1
        assert run["jitterMs"]["count"] > 0
        assert run["serverCores"] is not None and run["serverRSSKiB"] > 0
        assert run["clientCores"] > 0
    assert sandbox["target"] == "sandbox" and floor["target"] == "streamer"


def test_bench_text_output_and_bad_options():
    result = run_sandbox("bench", "--sessions", "5", "--seconds", "1", timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    # A table at the end: a header and a row per run, the figures right-aligned under their names.
    header, row = result.stdout.splitlines()[:2]
    assert header.startswith("target") and all(name in header for name in ("frames/s", "server CPU", "KiB/session"))
    assert row.split()[:3] == ["sandbox", "5", "60"] and re.search(r"\s\d+\s", row)
    assert len(row) <= len(header) + 2  # "bar" is the last column: ✓ or ✗ under it
    assert "\r" not in result.stderr  # standard error is no terminal here: no progress line
    bad = run_sandbox("bench", "--fps", "0", timeout=60)
    assert bad.returncode == 64


@pytest.mark.parametrize("phases", ["1", "8"])
def test_every_session_ticks_once_a_period_whatever_the_tick_phases(phases):
    # The display link fires `phases` times a period (each time for one phase's sessions, from a
    # timerfd the loop polls); every session still gets its frame rate.
    result = run_sandbox(
        "bench", "--sessions", "20", "--fps", "30", "--seconds", "2", "--server-tick-phases", phases, "--json",
        timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    run = json.loads(result.stdout)[0]["result"]
    assert run["connected"] == 20 and run["errors"] == 0
    assert 27 <= run["slowestSessionFPS"] and run["meanSessionFPS"] <= 31


@pytest.mark.parametrize("command", [["serve", "--tick-phases"], ["bench", "--server-tick-phases"]])
@pytest.mark.parametrize("value", ["0", "33", "1e308"])
def test_tick_phases_out_of_range_are_refused(command, value):
    bad = run_sandbox(*command, value, timeout=60, cwd=ROOT)
    assert bad.returncode == 64
    assert "tick-phases" in bad.stderr


def test_prebuilt_frames_send_the_streamers_bytes_to_every_session():
    # The server core's floor (docs/PERFORMANCE.md): every frame is the prebuilt message of the
    # size asked, each session still at its rate, and a client reads it as JSON like ws-floor's.
    result = run_sandbox(
        "bench", "--sessions", "10", "--fps", "30", "--seconds", "1", "--server-prebuilt-frames", "300", "--json",
        timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    run = json.loads(result.stdout)[0]["result"]
    assert run["connected"] == 10 and run["errors"] == 0
    assert run["meanFrameBytes"] == 300
    assert "diagnostic mode: every frame is 300 bytes of padding" in result.stderr  # the server it started says so
    assert 27 <= run["slowestSessionFPS"] and run["meanSessionFPS"] <= 31


@pytest.mark.parametrize("command", [["serve", "--prebuilt-frames"], ["bench", "--server-prebuilt-frames"]])
@pytest.mark.parametrize("value", ["24", "65537", "-1", "1e308", "x"])
def test_prebuilt_frame_sizes_out_of_range_are_refused(command, value):
    bad = run_sandbox(*command, value, timeout=60, cwd=ROOT)
    assert bad.returncode == 64
    assert "prebuilt-frames" in bad.stderr


def test_prebuilt_frames_are_for_the_server_bench_starts():
    bad = run_sandbox("bench", "--url", "ws://127.0.0.1:9/", "--server-prebuilt-frames", "265", timeout=60, cwd=ROOT)
    assert bad.returncode == 64
    assert "not with --url" in bad.stderr


def test_bench_repeat_alternates_with_the_streamer_and_sums_up(streamer):
    url, pid = streamer
    result = run_sandbox(
        "bench", "--sessions", "10", "--fps", "30", "--seconds", "1", "--repeat", "2", "--compare", url,
        "--compare-pid", pid, "--json", timeout=180, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    reports = json.loads(result.stdout)
    assert [r["target"] for r in reports] == ["sandbox", "streamer", "sandbox", "streamer", "summary"]
    summary = reports[-1]
    assert summary["runs"] == 2

    def per_frame(report):
        return report["result"]["serverMicrosecondsPerFrame"]

    def spread(values):
        values = sorted(values)
        return {"median": (values[0] + values[1]) / 2, "min": values[0], "max": values[1]}

    # The summary is made of the runs printed before it, each sandbox run over the streamer's after it.
    sandbox, floor = reports[0:4:2], reports[1:4:2]
    # Every figure is printed at three decimals (runs and summary alike): equal within that.
    per_frame_sandbox = spread([per_frame(r) for r in sandbox])
    per_frame_streamer = spread([per_frame(r) for r in floor])
    assert summary["sandbox"]["microsecondsPerFrame"] == pytest.approx(per_frame_sandbox, abs=2e-3)
    assert summary["streamer"]["microsecondsPerFrame"] == pytest.approx(per_frame_streamer, abs=2e-3)
    ratios = [per_frame(a) / per_frame(b) for a, b in zip(sandbox, floor) if per_frame(b) > 0]
    if len(ratios) == 2:
        assert summary["ratio"] == pytest.approx(spread(ratios), rel=1e-3, abs=2e-3)
    slowest = spread([r["result"]["slowestSessionFPS"] for r in sandbox])
    assert summary["sandbox"]["slowestSessionFPS"] == pytest.approx(slowest, abs=1e-2)

    text = run_sandbox("bench", "--sessions", "5", "--seconds", "1", "--repeat", "2", timeout=120, cwd=ROOT)
    assert text.returncode == 0, text.stderr
    assert "summary of 2 alternating runs" in text.stdout and "µs/frame" in text.stdout
    assert "streamer" not in text.stdout  # nothing to compare with: the sandbox alone


@pytest.mark.parametrize("args", [["--repeat", "0"], ["--repeat", "51"], ["--repeat", "1e308"], ["--repeat", "2", "--ramp"]])
def test_bench_repeat_out_of_range_or_with_ramp_is_refused(args):
    bad = run_sandbox("bench", *args, timeout=60, cwd=ROOT)
    assert bad.returncode == 64
    assert "repeat" in bad.stderr


def test_bench_floor_starts_a_streamer_of_the_sandboxs_frame_size_and_stops_it():
    result = run_sandbox(
        "bench", "--sessions", "10", "--fps", "30", "--seconds", "1", "--repeat", "2", "--floor", str(FLOOR), "--json",
        timeout=180, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    reports = json.loads(result.stdout)
    assert [r["target"] for r in reports] == ["sandbox", "streamer", "sandbox", "streamer", "summary"]
    first, streamed = reports[0]["result"], reports[1]["result"]
    assert streamed["connected"] == 10 and streamed["errors"] == 0 and streamed["serverCores"] is not None
    # The streamer sends what the sandbox's first run sent per frame (its mean, rounded).
    assert abs(streamed["meanFrameBytes"] - round(first["meanFrameBytes"])) < 1
    assert reports[3]["result"]["meanFrameBytes"] == streamed["meanFrameBytes"]
    left = subprocess.run(["pgrep", "-f", f"{FLOOR} stream --port 0 --fps 30"], capture_output=True)
    assert left.returncode == 1, left.stdout


@pytest.mark.parametrize("args", [
    ["--floor", "/nonexistent/ws-floor"], ["--floor", "/tmp"], ["--floor", str(FLOOR), "--compare", "ws://127.0.0.1:9/"],
    ["--floor", str(FLOOR), "--compare-pid", "1"],
    # No frames, no size to match (it used to start a 16-byte
    # streamer, which overflowed ws-floor's buffer); a program that is not ws-floor.
    ["--url", "ws://127.0.0.1:9/", "--sessions", "2", "--seconds", "1", "--floor", str(FLOOR)],
    ["--sessions", "2", "--seconds", "1", "--floor", "/bin/true"],
])
def test_bench_floor_must_be_ws_floor_alone_with_frames_to_match(args):
    bad = run_sandbox("bench", *args, timeout=60, cwd=ROOT)
    assert bad.returncode == 64
    assert "--floor" in bad.stderr


def _processes(pattern):
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split()


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_an_interrupted_bench_stops_its_server_and_streamer(signal_name):
    # Ctrl-C reaches bench's process group only: its children (each in a group of its own) were
    # left running under init. An odd frame rate tells this test's children from any other.
    bench = subprocess.Popen(
        [str(BINARY), "bench", "--sessions", "3", "--fps", "37", "--seconds", "3", "--repeat", "2", "--floor", str(FLOOR)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not _processes("ws-floor stream --port 0 --fps 37") and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _processes("ws-floor stream --port 0 --fps 37"), "the streamer never started"
        os.killpg(bench.pid, getattr(signal, signal_name))
        assert bench.wait(timeout=30) == 128 + getattr(signal, signal_name)
        left = _processes("ws-floor stream --port 0 --fps 37") + _processes("serve --port 0 --fps 37")
        assert left == [], subprocess.run(["ps", "-o", "pid,ppid,stat,etime,args", "-p", ",".join(left)],
                                          capture_output=True, text=True).stdout
    finally:
        if bench.poll() is None:
            bench.kill()


def test_a_streamer_that_ignores_sigterm_is_killed_with_its_group(tmp_path):
    # A wrapper script that ignores SIGTERM (and passes that on to ws-floor, its own child, not
    # exec'd): bench waited on it forever. After 2 s the group is killed.
    wrapper = tmp_path / "stubborn-floor"
    wrapper.write_text(f"#!/bin/sh\ntrap '' TERM\n{FLOOR} \"$@\"\n")
    wrapper.chmod(0o755)
    started = time.monotonic()
    result = run_sandbox("bench", "--sessions", "3", "--fps", "41", "--seconds", "1", "--floor", str(wrapper),
                         timeout=90, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "streamer" in result.stdout
    assert time.monotonic() - started < 60
    assert _processes("ws-floor stream --port 0 --fps 41") == []


def test_bench_port_chooses_the_port_of_the_server_it_starts():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run_sandbox("bench", "--port", port, "--sessions", "2", "--seconds", "1", "--json", timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)[0]["url"] == f"ws://127.0.0.1:{port}/"
    both = run_sandbox("bench", "--port", port, "--url", "ws://127.0.0.1:9/", timeout=60)
    assert both.returncode == 64 and "not with --url" in both.stderr


def test_bench_shows_a_progress_line_on_a_terminal_only():
    # Standard error a terminal (a pty): the line is redrawn in place with \r, then cleared;
    # standard output (a pipe) has the table alone.
    leader, follower = pty.openpty()
    try:
        result = subprocess.run([str(BINARY), "bench", "--sessions", "2", "--seconds", "1"], stdout=subprocess.PIPE,
                                stderr=follower, timeout=60, cwd=ROOT, text=True)
        os.close(follower)
        follower = None
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)
    assert result.returncode == 0
    assert re.search(rb"\rsandbox 2 sessions @ 60 fps \[#* *\] \d+%", shown), shown[:300]
    assert shown.endswith(b"\r\x1b[K")  # cleared before the table is printed
    assert "\r" not in result.stdout and result.stdout.startswith("target")
