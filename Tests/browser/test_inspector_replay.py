"""Open, replay and export in the page: a pan script opened in the page plays against its session
and ends as `sandbox pan --local` says; a `sandbox pan --trace` file loads into the timeline; bad
files are refused with the reason and change nothing; an exported gesture replays headlessly to
the decision the page showed."""
import json
import subprocess
from pathlib import Path

import pytest
from conftest import BINARY, ROOT

EXAMPLES = ROOT / "examples" / "scripts"

# Drops a file (name, text) on the page as a drag from the desktop would.
DROP = """
const [name, text] = arguments;
const data = new DataTransfer();
data.items.add(new File([text], name, {type: 'application/json'}));
for (const type of ['dragenter', 'dragover', 'drop']) {
  document.body.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
}
"""


def pan(*args):
    """`sandbox pan … --json`: its exit status and its reports."""
    run = subprocess.run([str(BINARY), "pan", *map(str, args), "--json"], capture_output=True, text=True,
                         timeout=60)
    return run.returncode, json.loads(run.stdout or "[]")


def open_file(page, path):
    page.js("window.__reportBefore = window.sandbox.scriptReport")
    page.driver.find_element("id", "open-file").send_keys(str(path))


def open_state(page):
    return page.js("return document.getElementById('open-state').textContent")


@pytest.mark.parametrize("name", ["slow-drag-cancels", "flick-finishes", "projection-flick-finishes"])
def test_a_script_opened_in_the_page_ends_with_the_outcome_sandbox_pan_reports(page, name):
    path = EXAMPLES / f"{name}.json"
    status, [local] = pan(path, "--local")
    assert status == 0, local["failures"]
    open_file(page, path)
    page.wait("window.sandbox.scriptReport !== window.__reportBefore && !window.sandbox.scriptPlaying",
              timeout=30)
    report = page.get("scriptReport")
    assert report["error"] is None, report
    assert report["outcome"] == local["outcome"]
    # Each expectation is shown. The decision and the final progress pass as they do headlessly;
    # a frame count is the server's to coalesce for a slow reader (on loaded cores, the page is).
    expect = json.loads(path.read_text())["expect"]
    checks = {check["name"]: check for check in report["checks"]}
    assert {check.split(".")[0] for check in checks} == set(expect), checks
    for name_ in ("outcome", "progress", "release.decision", "release.reason"):
        assert checks.get(name_, {"passed": True})["passed"], checks[name_]
    shown = page.js("return [...document.querySelectorAll('#script-checks li')]"
                    ".map((li) => [li.className, li.textContent])")
    assert len(shown) == len(checks)
    assert ["pass", "✓ outcome: " + local["outcome"]] in shown, shown
    verdict = "passed" if report["passed"] else "failed"
    assert open_state(page).startswith(f"{name}: {verdict}; outcome {local['outcome']}")


def test_a_failing_expectation_is_shown_failed(page, tmp_path):
    script = json.loads((EXAMPLES / "slow-drag-cancels.json").read_text())
    script["expect"]["outcome"] = "finished"  # it cancels
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(script))
    open_file(page, path)
    page.wait("window.sandbox.scriptReport !== window.__reportBefore && !window.sandbox.scriptPlaying",
              timeout=30)
    report = page.get("scriptReport")
    assert report["outcome"] == "cancelled" and not report["passed"]
    failed = page.js("return [...document.querySelectorAll('#script-checks li.fail')].map((li) => li.textContent)")
    assert "✗ outcome: expected finished, got cancelled" in failed, failed


@pytest.mark.parametrize("name, text, reason", [
    ("notes.json", "this is not json", "not JSON"),
    ("list.json", "[1, 2, 3]", "a script is one JSON object"),
    ("typo.json", json.dumps({"steps": [{"down": [80, 400]}], "expect": {"outcom": "finished"}}),
     "expect: unknown field 'outcom'"),
    ("steps.json", json.dumps({"steps": [{"down": [80]}]}), "steps[0]: 'down' must be [x, y] in points"),
    ("trace.jsonl", '{"type":"frame","n":1,"phase":"idle","layers":[]}\n{"type":"frame","n":3,"base":2,"layers":[]}\n',
     "line 2: a delta whose base 2 is not the frame before it"),
    ("big.json", None, "too big (5.0 MiB; at most 4.0 MiB)"),
])
def test_a_bad_file_is_refused_with_the_reason_and_changes_nothing(page, name, text, reason):
    if text is None:  # a well-formed script over the size cap
        text = json.dumps({"steps": [{"hold": 1}], "description": "x" * (5 * 1024 * 1024 - 40)})
    config = page.get("config")
    history = page.js("return window.sandbox.history.length")
    frames = page.get("framesReceived")
    page.js(DROP, name, text)
    page.wait("document.getElementById('open-state').classList.contains('refused')")
    assert open_state(page).startswith(f"{name}: ") and reason in open_state(page), open_state(page)
    assert page.get("scriptReport") is None and not page.get("scriptPlaying")
    assert page.get("config") == config
    assert page.js("return window.sandbox.history.length") == history
    assert page.get("seq") == 0 and page.get("framesReceived") == frames
