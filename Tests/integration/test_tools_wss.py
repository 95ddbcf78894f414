"""wss:// in every tool: `pan`, `latency` and `bench` drive `serve --tls-cert/--tls-key` (the
example certificate in deploy/, docs/DEPLOY.md), trusting it with `--ca FILE` or not checking
it with `--insecure`; a certificate they cannot trust is refused with a message that names the
problem and what to do."""
import json
import subprocess

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


def ca_and_leaf(folder):
    """A private CA and a certificate for localhost it signed (ECDSA P-256, a day): the chain a
    lab with its own CA has. (ca cert, leaf cert, leaf key)."""
    def openssl(*args):
        subprocess.run(["openssl", *map(str, args)], check=True, capture_output=True)
    ca, ca_key, leaf, leaf_key, request = (folder / n for n in ("ca.pem", "ca-key.pem", "leaf.pem", "leaf-key.pem",
                                                                 "leaf.csr"))
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *curve, "-keyout", ca_key, "-out", ca, "-days", "1", "-subj", "/CN=lab CA")
    openssl("req", "-new", *curve, "-keyout", leaf_key, "-out", request, "-subj", "/CN=localhost")
    extensions = folder / "san.cnf"
    extensions.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", leaf,
            "-days", "1", "-extfile", extensions)
    return ca, leaf, leaf_key


def test_a_private_ca_verifies_its_chain_and_insecure_takes_it_unchecked(make_server, tmp_path):
    ca, leaf, leaf_key = ca_and_leaf(tmp_path)
    server = make_server("--tls-cert", str(leaf), "--tls-key", str(leaf_key))
    trusted = run_sandbox("pan", SCRIPT, "--url", url(server), "--ca", ca, timeout=120)
    assert trusted.returncode == 0, trusted.stdout + trusted.stderr
    unchecked = run_sandbox("pan", SCRIPT, "--url", url(server), "--insecure", timeout=120)
    assert unchecked.returncode == 0, unchecked.stdout + unchecked.stderr
    refused = run_sandbox("pan", SCRIPT, "--url", url(server), "--ca", CERT, timeout=120)
    assert refused.returncode == 1
    assert "not trusted (X509_V_ERR 20: unable to get local issuer certificate" in refused.stderr, refused.stderr


def test_a_name_mismatch_names_the_certificate_names(make_server, tmp_path):
    cert, key = tmp_path / "lab.pem", tmp_path / "lab-key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=lab.example",
         "-addext", "subjectAltName=DNS:lab.example"], check=True, capture_output=True)
    server = make_server("--tls-cert", str(cert), "--tls-key", str(key))
    for host in ("localhost", "127.0.0.1"):  # X509_V_ERR 62 (hostname), 64 (IP address)
        result = run_sandbox("pan", SCRIPT, "--url", url(server, host), "--ca", cert, timeout=120)
        assert result.returncode == 1
        assert (f"the certificate is for lab.example (its subjectAltName); connect to wss://lab.example:{server.port}/ "
                f"or make a certificate that names {host}") in result.stderr, result.stderr
        assert "--insecure" not in result.stderr  # another CA would not help: the name would


def test_the_wrong_scheme_is_named(make_server, tls_server):
    plain = make_server()
    result = run_sandbox("pan", SCRIPT, "--url", f"wss://127.0.0.1:{plain.port}/", "--insecure", timeout=60)
    assert result.returncode == 1
    assert (f"the server at 127.0.0.1:{plain.port} does not speak TLS: use ws://127.0.0.1:{plain.port}/"
            in result.stderr), result.stderr
    result = run_sandbox("latency", "--samples", "5", "--url", f"ws://localhost:{tls_server.port}/", timeout=60)
    assert result.returncode == 1
    assert (f"the server at localhost:{tls_server.port} speaks TLS: use wss://localhost:{tls_server.port}/"
            in result.stderr), result.stderr
