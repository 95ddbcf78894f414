"""The Python client (clients/python) against the real server: it replays every example script
and agrees with `sandbox pan --url` on the same server; its README's script runs as written; it
connects over wss with the example certificate; server errors, request ids, whole frames,
timeouts and a closed server behave as its README says. (Without a server: clients/python/tests.)

"Agree", per script: the same verdict on every expectation that does not depend on how fast the
client reads (all but `frames` and `latencyP99Ms`: a live server coalesces frames for a slow
reader, and completion ticks fall at other times — on the loaded 2-core VM either tool's count
can leave a script's range), the same error codes, and no `disagreements`
(transition_sandbox.report): outcome, lifecycle callbacks, the last release (decision and reason
exactly, progress exactly and `projected` to 1e-9 until a grab), the final progress, and the
progress acknowledged for every pointer seq both saw, exactly until a grab of a running
completion; from the grab on, only the decisions (see TIMED)."""
import asyncio
import json
import re
import subprocess
import sys
import time

import pytest

from sandbox_env import ROOT, SANITIZER, run_sandbox

sys.path.insert(0, str(ROOT / "clients" / "python"))
from transition_sandbox import (SUBPROTOCOLS, ConnectionClosed, Report, SandboxError, ServerError,  # noqa: E402
                                Timeout, connect, disagreements, load_script, run_script)

EXAMPLES = sorted((ROOT / "examples" / "scripts").glob("*.json"))
README = ROOT / "clients" / "python" / "README.md"
CERT, KEY = ROOT / "deploy" / "example-ecdsa-cert.pem", ROOT / "deploy" / "example-ecdsa-key.pem"
# A grab lands where the completion is when the touch arrives, which two real-time replays cannot
# repeat on a loaded machine (on the 2-core shared VM at load 20 the grabbed progress differed by
# 0.064 between the two): in a script that grabs a running completion, from the grab on only the
# decisions are compared. A sanitized server is slower still: there `grab-during-completion` is
# held to its expectations only (as in test_pan.py).
TIMED = {"grab-during-completion"}


@pytest.fixture(scope="module")
def swift_reports(shared_server):
    """`sandbox pan EXAMPLES --url URL --json`, by script name."""
    result = run_sandbox("pan", *EXAMPLES, "--url", shared_server.url, "--json", timeout=600)
    reports = json.loads(result.stdout)
    assert len(reports) == len(EXAMPLES), result.stderr
    return {r["name"]: Report.from_json(r) for r in reports}


def missed(report):
    """The expectations a report missed, by name (`outcome`, `release`, `run`…), but those that
    depend on the reader's speed (`frames`, `latency`)."""
    return sorted({f.split(":", 1)[0] for f in report.failures} - {"frames", "latency"})


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_python_runner_agrees_with_sandbox_pan(path, shared_server, swift_reports):
    script = load_script(path)
    ours = asyncio.run(run_script(script, shared_server.url))
    theirs = swift_reports[script.name]
    assert ours.mode == theirs.mode == shared_server.url
    assert missed(ours) == missed(theirs) == [], (ours.failures, theirs.failures)
    assert ours.error_codes == theirs.error_codes
    if not (SANITIZER and script.name in TIMED):
        assert disagreements(ours, theirs, grab_seq=ours.first_grab_seq, grab_tolerance=1) == []
    if any(step.kind == "down" for step in script.steps):
        assert ours.latency["count"] > 0 and ours.samples


def test_through_a_simulated_network_the_decisions_are_the_same(shared_server, swift_reports):
    """docs/PROTOCOL.md "The network lab": the runner asks for the link first and waits for it."""
    script = load_script(ROOT / "examples" / "scripts" / "projection-flick-finishes.json")
    ours = asyncio.run(run_script(script, shared_server.url, network={"delayMs": 60, "jitterMs": 20, "seed": 7}))
    assert missed(ours) == [], ours.failures
    assert disagreements(ours, swift_reports[script.name]) == []
    assert ours.server_ms["count"] > 0 and ours.latency["p50"] >= 60  # the simulated delay, both ways


def test_a_missed_expectation_reads_as_sandbox_pans(tmp_path, shared_server, swift_reports):
    script = tmp_path / "wrong.json"
    script.write_text(json.dumps({
        "steps": [{"down": [100, 400]}, {"move": [130, 400], "ms": 100}, {"hold": 50}, {"up": True}],
        "expect": {"outcome": "finished", "release": {"decision": "finish", "progress": [0.5, 1]}}}))
    ours = asyncio.run(run_script(load_script(script), shared_server.url))
    theirs = run_sandbox("pan", script, "--url", shared_server.url, timeout=60)
    assert theirs.returncode == 1 and len(ours.failures) == 3
    for failure in ours.failures:
        assert f"     - {failure}\n" in theirs.stdout
    assert ours.failures[:2] == ["outcome: expected finished, got cancelled",
                                 "release: expected decision finish, got cancel"]


def test_the_command_line_runs_scripts_and_says_how_many_passed(shared_server):
    python = [sys.executable, "-m", "transition_sandbox", "pan"]
    env = {"PYTHONPATH": str(ROOT / "clients" / "python")}
    ok = subprocess.run([*python, str(EXAMPLES[0]), "--url", shared_server.url], capture_output=True, text=True,
                        env=env, timeout=120)
    assert ok.returncode == 0 and "1 passed, 0 failed" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run([*python, str(ROOT / "README.md"), "/nonexistent.json", "--url", shared_server.url],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 64
    assert "README.md: not JSON" in bad.stderr and "nonexistent.json: cannot read" in bad.stderr


def readme_script():
    match = re.search(r"## Drag, release, assert the decision\n\n```python\n(.*?)```", README.read_text(), re.S)
    assert match, "the README's script"
    return match.group(1)


def run_python(code, *args, tmp_path):
    path = tmp_path / "script.py"
    path.write_text(code)
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT / "clients" / "python")})


def test_the_readme_script_runs_as_written(shared_server, tmp_path):
    code = readme_script()
    assert len(code.strip().splitlines()) == 10
    result = run_python(code, shared_server.url, tmp_path=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    # and its assertion can fail: a drag too short to pass the threshold cancels
    short = code.replace("(260, 420)", "(100, 420)")
    assert short != code
    result = run_python(short, shared_server.url, tmp_path=tmp_path)
    assert result.returncode == 1 and "AssertionError" in result.stderr and "'cancel'" in result.stderr


@pytest.fixture
def tls_server(make_server):
    return make_server("--tls-cert", str(CERT), "--tls-key", str(KEY))


def test_wss_with_the_ca_or_insecure_and_refused_without(tls_server):
    assert tls_server.url.startswith("wss://")

    async def main():
        async with connect(tls_server.url, ca=CERT) as client:
            assert client.protocol in (1, 2) and (await client.ping())["type"] == "pong"
        async with connect(tls_server.url, insecure=True) as client:
            assert client.frame["type"] == "frame"
        with pytest.raises(SandboxError, match="certificate verify failed"):
            await connect(tls_server.url)
        with pytest.raises(ValueError, match="wss://"):
            await connect(tls_server.url.replace("wss:", "ws:"), ca=CERT)
        with pytest.raises(SandboxError, match="cannot use .*missing.pem as the CA"):
            await connect(tls_server.url, ca=ROOT / "missing.pem")
        with pytest.raises(SandboxError, match="cannot use .*README.md as the CA"):
            await connect(tls_server.url, ca=ROOT / "README.md")

    asyncio.run(main())
    report = asyncio.run(run_script(load_script(EXAMPLES[0]), tls_server.url, ca=CERT))
    assert report.passed, report.failures


@pytest.mark.parametrize("offer", [SUBPROTOCOLS, ("transition-sandbox.v1",)], ids=["v2 and v1", "v1"])
def test_either_protocol_the_server_picks_gives_whole_frames(shared_server, offer):
    """`welcome.protocol` says which: 1 — whole frames with `t`; 2 — deltas without it."""
    async def main():
        async with connect(shared_server.url, subprotocols=offer) as client:
            assert client.subprotocol in offer and client.protocol in (1, 2)
            await client.drag((100, 400), (160, 400), ms=100)
            frames = [await client.until(lambda m: m["type"] == "frame") for _ in range(4)]
            for frame in frames:
                assert ("t" in frame) == (client.protocol == 1) and "base" not in frame
                assert all(isinstance(layer, dict) and "id" in layer for layer in frame["layers"])

    asyncio.run(main())


def test_a_server_error_raises_with_its_code_and_the_connection_goes_on(shared_server):
    async def main():
        async with connect(shared_server.url) as client:
            with pytest.raises(ServerError) as error:
                await client.configure(duration=0)
            assert error.value.code == "invalid-config" and error.value.field == "duration"
            assert error.value.id is not None and error.value.id.startswith("py-")
            configured = await client.configure({"transition": "fade"}, duration=0.3)
            assert configured["config"]["transition"] == "fade" and client.config["duration"] == 0.3
            seq = await client.down(100, 400)
            assert (await client.acked(seq))["ack"] == seq
            client.seq = 0  # the next pointer reuses seq 1: refused
            with pytest.raises(ServerError, match="bad-seq"):
                await client.acked(await client.move(120, 400))

    asyncio.run(main())


def test_scene_helpers_return_the_scene_state_and_refusals_raise(shared_server):
    async def main():
        async with connect(shared_server.url) as client:
            state = await client.scene({"id": "root"})
            assert state["topMost"] == "root"
            sheet = {"id": "sheet", "presentationStyle": "pageSheet"}
            state = await client.present(sheet, animated=False)
            assert state["topMost"] == "sheet"
            with pytest.raises(ServerError) as error:
                await client.present({"id": "other"}, **{"from": "root"}, animated=False)
            assert error.value.code == "already-presenting"
            assert (await client.dismiss(animated=False))["topMost"] == "root"

    asyncio.run(main())


def test_iteration_gives_whole_frames_and_events_and_ends_when_the_server_stops(make_server):
    server = make_server()

    async def main():
        async with connect(server.url) as client:
            await client.configure(transition="push", duration=0.3)
            await client.drag((80, 420), (300, 420), ms=100)
            seen = []
            async for message in client:
                seen.append(message)
                if message["type"] == "transition" and message["event"] == "finished":
                    break
            frames = [m for m in seen if m["type"] == "frame"]
            assert frames and all(isinstance(layer, dict) for f in frames for layer in f["layers"])
            assert all("base" not in f for f in frames)
            assert [m["event"] for m in seen if m["type"] == "transition"] == ["began", "released", "finished"]
            with pytest.raises(Timeout):
                await client.next_event("began", timeout=0.3)
            server.stop()
            start = time.monotonic()
            assert [m async for m in client if m["type"] != "frame"] == []  # 1001: iteration ends
            assert time.monotonic() - start < 10
            with pytest.raises(ConnectionClosed):
                await client.ping()

    asyncio.run(main())


def test_an_unreachable_server_is_a_clear_error():
    async def main():
        with pytest.raises(SandboxError, match="could not connect to ws://127.0.0.1:9/"):
            await connect("ws://127.0.0.1:9/")
        with pytest.raises(ValueError, match="ws://HOST:PORT/"):
            await connect("http://127.0.0.1:9/")

    asyncio.run(main())
    report = asyncio.run(run_script(load_script(EXAMPLES[0]), "ws://127.0.0.1:9/"))
    assert not report.passed and report.failures[0].startswith("run: could not connect to ws://127.0.0.1:9/")
