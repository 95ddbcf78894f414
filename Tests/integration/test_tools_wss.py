"""wss:// in every tool: `pan`, `latency` and `bench` drive `serve --tls-cert/--tls-key` (the
example certificate in deploy/, docs/DEPLOY.md), trusting it with `--ca FILE` or not checking
it with `--insecure`; a certificate they cannot trust is refused with a message that names the
problem and what to do."""
import json

import pytest

from sandbox_env import ROOT, run_sandbox, self_signed_certificate

CERT = ROOT / "deploy" / "example-ecdsa-cert.pem"
KEY = ROOT / "deploy" / "example-ecdsa-key.pem"
SCRIPT = ROOT / "examples" / "scripts" / "kind-fade.json"


@pytest.fixture
def tls_server(make_server):
    return make_server("--tls-cert", str(CERT), "--tls-key", str(KEY))


def url(server, host="localhost"):
    return f"wss://{host}:{server.port}/"


def test_pan_over_wss_with_the_ca_agrees_with_the_local_replay(tls_server):
    result = run_sandbox("pan", SCRIPT, "--local", "--url", url(tls_server), "--ca", CERT, "--json", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    local, remote = json.loads(result.stdout)
    assert local["passed"] and remote["passed"] and remote["failures"] == []


def test_pan_over_wss_insecure_takes_any_certificate(tls_server):
    # No CA given: without --insecure the self-signed certificate would be refused.
    result = run_sandbox("pan", SCRIPT, "--url", url(tls_server, "127.0.0.1"), "--insecure", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed, 0 failed" in result.stdout


def test_latency_over_wss(tls_server):
    result = run_sandbox("latency", "--url", url(tls_server), "--ca", CERT, "--samples", "40", "--rate", "200",
                         "--json", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["url"] == url(tls_server) and report["inputToFrameMs"]["count"] > 0


def test_bench_over_wss(tls_server):
    result = run_sandbox("bench", "--url", url(tls_server), "--ca", CERT, "--sessions", "4", "--fps", "30",
                         "--seconds", "1", "--json", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    run = json.loads(result.stdout)[0]["result"]
    assert run["connected"] == 4 and run["errors"] == 0 and run["framesPerSecond"] > 0


def test_a_wrong_ca_names_the_certificate_problem(tls_server, tmp_path):
    other, _ = self_signed_certificate(tmp_path)
    for tool in (["pan", SCRIPT, "--url"], ["latency", "--samples", "10", "--url"]):
        result = run_sandbox(*tool, url(tls_server), "--ca", other, timeout=120)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "the server's TLS certificate is not trusted (" in result.stderr, result.stderr
        assert f"checked against the certificates of {other}" in result.stderr
        assert "--ca FILE" in result.stderr and "--insecure" in result.stderr
        assert "Usage:" not in result.stderr


def test_without_a_ca_the_lab_certificate_is_not_trusted(tls_server):
    result = run_sandbox("pan", SCRIPT, "--url", url(tls_server), timeout=120)
    assert result.returncode == 1
    assert "the server's TLS certificate is not trusted (" in result.stderr, result.stderr


def test_a_missing_ca_file_is_named(tls_server, tmp_path):
    result = run_sandbox("pan", SCRIPT, "--url", url(tls_server), "--ca", tmp_path / "none.pem", timeout=60)
    assert result.returncode == 64
    assert result.stderr == f"Error: --ca {tmp_path / 'none.pem'}: no such file\n"
    both = run_sandbox("pan", SCRIPT, "--url", url(tls_server), "--ca", CERT, "--insecure", timeout=60)
    assert both.returncode == 64 and "--ca and --insecure: one or the other" in both.stderr


def test_ws_tools_refuse_other_schemes():
    result = run_sandbox("latency", "--url", "https://localhost:1/", timeout=60)
    assert result.returncode == 64 and "ws://HOST:PORT/ or wss://HOST:PORT/" in result.stderr
