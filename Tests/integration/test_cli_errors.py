"""Errors a person can act on: what the command-line tools say when their data is wrong (a
script, a file, a port, a certificate), on standard error, without the usage text that only a
wrong command line deserves, and with an exit code a script can tell apart (64: input that
cannot be used; 1: a run that failed). Also `--version`, `/metrics`' build info, and where
`serve` finds its page."""
import json
import os
import re
import shutil
import socket
import subprocess
import urllib.request

import pytest

from sandbox_env import BINARY, ROOT, run_sandbox, self_signed_certificate

EXAMPLE = ROOT / "examples" / "scripts"


def pan(*args, **kwargs):
    return run_sandbox("pan", *args, timeout=60, **kwargs)


def test_pan_names_every_bad_file_and_runs_none(tmp_path):
    good = sorted(EXAMPLE.glob("*.json"))[0]
    misspelt = tmp_path / "misspelt.json"
    misspelt.write_text('{"steps": [{"down": [100, 400]}, {"up": true}], "expectt": {"outcome": "none"}}')
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "steps": [\n    {"down": [100, 400]},\n  ]\n}\n')
    folder = tmp_path / "folder"
    folder.mkdir()
    missing = tmp_path / "missing.json"
    trace = tmp_path / "trace"
    result = pan(good, misspelt, broken, folder, missing, "--trace", trace)
    assert result.returncode == 64, result.stdout + result.stderr
    assert result.stdout == ""  # nothing ran: no report, no "passed"
    assert not trace.exists()
    errors = result.stderr.splitlines()
    assert errors == [
        f"Error: {misspelt}: unknown field 'expectt'; did you mean 'expect'? "
        "(script, name, description, config, steps, expect)",
        f"Error: {broken}: line 4, column 3: not JSON (strict JSON: no comments, trailing commas or repeated "
        "names; numbers within a double's range; nesting at most 64 deep)",
        f"Error: {folder}: is a folder, not a script file (give its files: {folder}/*.json)",
        f"Error: {missing}: no such file",
        "Error: 4 of 5 scripts cannot be run; none was run",
    ]
    assert "Usage:" not in result.stderr


def test_an_unreadable_script_is_said_plainly(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    locked = tmp_path / "locked.json"
    locked.write_text("{}")
    locked.chmod(0)
    result = pan(locked)
    assert result.returncode == 64
    assert result.stderr.startswith(f"Error: {locked}: cannot be read (permission denied)")


def test_a_bad_step_is_named_with_its_index_and_the_closest_name(tmp_path):
    script = tmp_path / "slip.json"
    script.write_text('{"steps": [{"down": [100, 400]}, {"move": [200, 400], "ms": 100, "hx": 60}, {"up": true}]}')
    result = pan(script)
    assert result.returncode == 64
    assert f"Error: {script}: steps[1]: 'move' takes no 'hx'; did you mean 'hz'? (it takes hz, ms, pointer)" \
        in result.stderr
    assert "Usage:" not in result.stderr


def test_a_wrong_command_line_still_shows_the_usage():
    result = run_sandbox("pan", "--fps", "0", EXAMPLE / "kind-fade.json", timeout=30)
    assert result.returncode == 64 and "--fps must be in" in result.stderr and "Usage:" in result.stderr


def test_latency_against_a_dead_port_says_so_in_one_line():
    with socket.socket() as s:  # a port nobody listens on: bound, never listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        result = run_sandbox("latency", "--url", f"ws://127.0.0.1:{port}/", "--samples", "10", timeout=60)
    assert result.returncode == 1
    assert result.stdout == ""  # no table of nothing
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: could not connect to ws://127.0.0.1:{port}/"), lines
    assert "Usage:" not in result.stderr


def test_a_port_in_use_is_said_in_words():
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        result = run_sandbox("serve", "--port", port, timeout=30)
    assert result.returncode == 1
    assert f"Error: port {port} is already in use (EADDRINUSE); choose another with --port" in result.stderr
    assert "Usage:" not in result.stderr


def test_swapped_certificate_and_key_are_said_in_words(tmp_path):
    cert, key = self_signed_certificate(tmp_path)
    swapped = run_sandbox("serve", "--port", "0", "--tls-cert", key, "--tls-key", cert, timeout=30)
    assert swapped.returncode == 1
    assert f"Error: --tls-cert {key} is not a PEM certificate OpenSSL can load" in swapped.stderr
    assert "are --tls-cert and --tls-key swapped?" in swapped.stderr
    (tmp_path / "other").mkdir()
    other_cert, _ = self_signed_certificate(tmp_path / "other")
    mismatched = run_sandbox("serve", "--port", "0", "--tls-cert", other_cert, "--tls-key", key, timeout=30)
    assert mismatched.returncode == 1
    assert f"Error: --tls-key {key} is not the private key of --tls-cert {other_cert}" in mismatched.stderr
    # A key of another type (EC beside an RSA certificate): libwebsockets would serve and fail
    # every handshake; refused before it starts.
    ec_key = ROOT / "deploy" / "example-ecdsa-key.pem"
    other_type = run_sandbox("serve", "--port", "0", "--tls-cert", cert, "--tls-key", ec_key, timeout=30)
    assert other_type.returncode == 1
    assert f"Error: --tls-key {ec_key} is not the private key of --tls-cert {cert}" in other_type.stderr


def test_version_is_one_string_and_metrics_report_it(make_server):
    version = run_sandbox("--version", timeout=30)
    assert version.returncode == 0
    match = re.fullmatch(r"sandbox (\d+\.\d+\.\d+) \(libwebsockets 4\.[\d.]+[^)]*\)\n", version.stdout)
    assert match, version.stdout
    assert "-)" not in version.stdout  # lws' "4.1.6-" (no git hash) is said "4.1.6"
    server = make_server()
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=10) as response:
        metrics = response.read().decode()
    series = f'sandbox_build_info{{version="{match.group(1)}"}} '
    line = next(line for line in metrics.splitlines() if line.startswith(series))
    assert float(line[len(series):]) == 1


def test_serve_finds_its_page_from_another_folder(tmp_path):
    # Started elsewhere, without --web-root: the page of the source tree above the binary.
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0"], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        port = int(re.search(r":(\d+)/", line).group(1))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200 and b"<html" in response.read().lower()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serve_installed_beside_its_page_serves_that_page(tmp_path):
    # BIN/../share/transition-sandbox/web comes first: an installed copy serves its own page.
    (tmp_path / "bin").mkdir()
    shutil.copy(BINARY, tmp_path / "bin" / "sandbox")
    page = tmp_path / "share" / "transition-sandbox" / "web"
    page.mkdir(parents=True)
    (page / "index.html").write_text("<html>installed</html>")
    process = subprocess.Popen([str(tmp_path / "bin" / "sandbox"), "serve", "--port", "0"], cwd="/",
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", process.stdout.readline()).group(1))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.read() == b"<html>installed</html>"
    finally:
        process.terminate()
        process.wait(timeout=10)
    (page / "index.html").unlink()
    alone = subprocess.run([str(tmp_path / "bin" / "sandbox"), "serve", "--port", "0"], cwd="/",
                           capture_output=True, text=True, timeout=30)
    assert alone.returncode == 64
    assert "no page found beside the binary" in alone.stderr and "give --web-root FOLDER" in alone.stderr


def test_serve_help_says_where_the_page_is_looked_for():
    result = run_sandbox("serve", "--help", timeout=30)
    text = " ".join(result.stdout.split())  # the help wraps its lines
    assert "BIN/../share/transition-sandbox/web, then the source tree's web/ above BIN" in text


def test_the_listening_log_line_writes_numbers_as_numbers():
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0", "--threads", "2", "--log-format", "json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        process.stdout.readline()
        for line in process.stderr:
            entry = json.loads(line)
            if entry["message"] == "listening":
                break
        assert entry["threads"] == 2 and entry["metrics"] is True and isinstance(entry["version"], str)
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_an_escape_in_a_field_name_is_shown_not_run(tmp_path):
    script = tmp_path / "escape.json"
    script.write_text('{"steps": [{"up": true}], "\\u001b[2Jx": 1}')
    result = pan(script)
    assert result.returncode == 64
    assert "\x1b" not in result.stderr and "unknown field 'U+001B[2Jx'" in result.stderr


def test_serve_names_missing_files_without_the_usage(tmp_path):
    result = run_sandbox("serve", "--port", "0", "--web-root", tmp_path / "none", "--tls-cert", tmp_path / "c.pem",
                         "--tls-key", tmp_path / "k.pem", timeout=30)
    assert result.returncode == 64
    assert result.stderr.splitlines() == [
        f"Error: --web-root '{tmp_path / 'none'}' is not a folder",
        f"Error: --tls-cert '{tmp_path / 'c.pem'}' is not a readable file",
        f"Error: --tls-key '{tmp_path / 'k.pem'}' is not a readable file",
    ]


def test_a_port_in_use_is_one_line_without_libwebsockets_own():
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        result = run_sandbox("serve", "--port", port, timeout=30)
    assert result.returncode == 1
    # lws' "ERROR on binding fd …", "init server failed", "Failed to create default vhost": debug only
    assert result.stderr.splitlines() == [
        f"Error: port {port} is already in use (EADDRINUSE); choose another with --port (0 picks a free one)"]


def test_a_misspelt_config_field_is_named_before_any_run(tmp_path):
    script = tmp_path / "config.json"
    script.write_text('{"config": {"duratoin": 0.5}, "steps": [{"down": [100, 400]}, {"up": true}]}')
    result = pan(script)
    assert result.returncode == 64 and result.stdout == ""
    assert result.stderr.startswith(f"Error: {script}: config: unknown field 'duratoin'; did you mean 'duration'? (")


def test_pan_against_a_dead_port_says_only_that():
    with socket.socket() as s:  # bound, never listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        result = pan(EXAMPLE / "kind-fade.json", "--url", f"ws://127.0.0.1:{port}/")
    assert result.returncode == 1
    assert f"could not connect to ws://127.0.0.1:{port}/" in result.stderr
    assert "expected" not in result.stdout  # no expectation checked of a run that never started


def test_a_url_without_the_option_is_pointed_to_it():
    result = run_sandbox("latency", "ws://127.0.0.1:1/", timeout=30)
    assert result.returncode == 64
    assert "did you mean --url ws://127.0.0.1:1/?" in result.stderr
    assert "Missing expected argument" not in result.stderr
    missing = run_sandbox("latency", timeout=30)
    assert missing.returncode == 64 and "Missing expected argument '--url <url>'" in missing.stderr
