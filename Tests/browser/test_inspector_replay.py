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

# The downloaded filmstrip's first and last stills' mean colours, and its width.
STILLS = """
const done = arguments[arguments.length - 1];
createImageBitmap(window.sandbox.lastExport.blob).then((image) => {
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const mean = (x, y) => {
    const data = ctx.getImageData(x, y, 160, 100).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) { sum[0] += data[i]; sum[1] += data[i + 1]; sum[2] += data[i + 2]; }
    return sum.map((value) => value / (data.length / 4));
  };
  const stills = window.sandbox.lastExport.stills;
  const h = image.height / Math.ceil(stills / 6);
  const last = stills - 1;
  done([mean(0, h / 2), mean((last % 6) * 160, Math.floor(last / 6) * h + h / 2), image.width]);
}, (error) => done([null, null, String(error)]));
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
    # The next file's refusal is not shown above the last script's checks.
    page.js(DROP, "notes.json", "this is not json")
    page.wait("document.getElementById('open-state').textContent.startsWith('notes.json: ')")
    assert page.js("return document.querySelectorAll('#script-checks li').length") == 0


def test_a_script_whose_configuration_is_refused_changes_nothing(page, tmp_path):
    page.configure("duration", "2", "window.sandbox.config.duration === 2")
    config = page.get("config")
    script = json.loads((EXAMPLES / "flick-finishes.json").read_text())
    script["config"]["duration"] = -1
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(script))
    open_file(page, path)
    page.wait("window.sandbox.scriptReport !== window.__reportBefore && !window.sandbox.scriptPlaying",
              timeout=30)
    report = page.get("scriptReport")
    assert report["error"].startswith("the script's configuration was refused: invalid-config"), report
    assert not report["passed"] and page.get("seq") == 0
    assert page.get("config") == config


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


def test_a_trace_from_sandbox_pan_loads_into_the_timeline(page, tmp_path):
    trace = tmp_path / "flick-finishes.jsonl"
    status, _ = pan(EXAMPLES / "flick-finishes.json", "--local", "--trace", trace)
    assert status == 0
    lines = [line for line in trace.read_text().splitlines() if line]
    assert any('"base"' in line for line in lines)  # mostly deltas: the loader assembles them
    open_file(page, trace)
    page.wait("window.sandbox.timeline.mode === 'paused'")
    loaded = page.js("return window.sandbox.history.at(-1)")
    assert loaded["kind"] == "loaded" and len(loaded["frames"]) == len(lines)
    assert loaded["decision"]["outcome"] == "finished"
    assert page.get("selectedGesture") == loaded["id"]
    readout = page.js("return document.getElementById('timeline-frame').textContent")
    assert readout.startswith(f"frame 1 / {len(lines)}"), readout
    assert open_state(page) == f"flick-finishes.jsonl: {len(lines)} frames loaded into the timeline, finished."
    assert page.get("timeline")["n"] == json.loads(lines[0])["n"]


def drag_and_select(page, x0, x1, outcome):
    """A drag in the page, chosen in the timeline's list of gestures; returns its id."""
    page.drag([(x0 + (x1 - x0) * i / 10, 400) for i in range(11)])
    assert page.wait_rest() == outcome
    gesture = page.js("return window.sandbox.history.findLast((g) => g.kind === 'gesture')")
    page.js("const list = document.getElementById('timeline-gesture'); list.value = arguments[0];"
            "list.dispatchEvent(new Event('change'));", str(gesture["id"]))
    page.wait(f"window.sandbox.selectedGesture === {gesture['id']}")
    return gesture


def export(page, button, suffix):
    page.js("window.__exportBefore = window.sandbox.lastExport; document.getElementById(arguments[0]).click()",
            button)
    page.wait(f"window.sandbox.lastExport !== window.__exportBefore"
              f" && window.sandbox.lastExport.name.endsWith('{suffix}')", timeout=30)
    return page.get("lastExport")


@pytest.mark.parametrize("x0, x1, outcome", [(60, 240, "finished"), (60, 120, "cancelled")])
def test_an_exported_pan_script_replays_to_the_decision_the_page_showed(page, tmp_path, x0, x1, outcome):
    gesture = drag_and_select(page, x0, x1, outcome)
    exported = export(page, "export-script", ".json")
    script = json.loads(exported["text"])
    assert script["expect"]["outcome"] == outcome and script["config"] == gesture["settings"]
    path = tmp_path / exported["name"]
    path.write_text(exported["text"])
    status, [report] = pan(path, "--local")
    assert report["outcome"] == outcome and status == 0, report["failures"]
    assert gesture["decision"]["outcome"] == outcome
    assert report["release"]["decision"] == {"finished": "finish", "cancelled": "cancel"}[outcome]


def test_an_exported_trace_loads_back_with_its_frames(page):
    gesture = drag_and_select(page, 60, 240, "finished")
    exported = export(page, "export-trace", ".jsonl")
    assert len(exported["text"].splitlines()) == len(gesture["frames"])
    page.js(DROP, exported["name"], exported["text"])
    page.wait(f"window.sandbox.history.at(-1).kind === 'loaded'")
    loaded = page.js("return window.sandbox.history.at(-1)")
    assert [entry["frame"]["progress"] for entry in loaded["frames"]] == \
        [entry["frame"]["progress"] for entry in gesture["frames"]]


def test_the_filmstrip_and_the_video_of_a_gesture(page):
    drag_and_select(page, 60, 240, "finished")
    strip = export(page, "export-filmstrip", ".png")
    assert strip["type"] == "image/png" and strip["size"] > 1000
    # The first still (the list at rest) and the last (the detail, finished) differ.
    first, last, width = page.driver.execute_async_script(STILLS)
    assert width == 6 * 160
    assert sum(abs(a - b) for a, b in zip(first, last)) > 30, (first, last)
    if page.js("return typeof MediaRecorder === 'undefined'"):
        assert page.js("return document.getElementById('export-webm').disabled")
        return
    video = export(page, "export-webm", ".webm")
    assert video["type"] == "video/webm" and video["size"] > 1000


def test_live_the_export_is_of_the_newest_gesture(page):
    """Back to live after studying an older gesture, an export is of the newest one (the list
    says "live"), not of the one selected before."""
    older = drag_and_select(page, 60, 240, "finished")
    page.js("document.getElementById('timeline-live').click()")
    page.wait("window.sandbox.timeline.mode === 'live'")
    page.outcomes_before = len(page.get("outcomes"))
    page.drag([(240 - 18 * i, 400) for i in range(11)])
    page.wait_rest()
    newest = page.js("return window.sandbox.history.at(-1)")
    assert newest["id"] != older["id"]
    exported = export(page, "export-trace", ".jsonl")
    assert len(exported["text"].splitlines()) == len(newest["frames"])
    assert exported["name"].startswith(f"gesture-{newest['id']}-"), exported["name"]


def test_what_cannot_be_exported_says_why(page, tmp_path):
    def refusal(button):
        page.js("document.getElementById('export-state').textContent = '';"
                "document.getElementById(arguments[0]).click()", button)
        page.wait("document.getElementById('export-state').classList.contains('refused')"
                  " && document.getElementById('export-state').textContent !== ''")
        return page.js("return document.getElementById('export-state').textContent")

    assert refusal("export-trace") == "Select a gesture in the timeline first."
    trace = tmp_path / "slow-drag-cancels.jsonl"
    status, _ = pan(EXAMPLES / "slow-drag-cancels.json", "--local", "--trace", trace)
    assert status == 0
    open_file(page, trace)
    page.wait("window.sandbox.timeline.mode === 'paused'")
    gesture = page.get("selectedGesture")
    assert refusal("export-script") == (f"Gesture {gesture} cannot be exported so: a loaded trace has no settings"
                                        " or samples: export its trace, video or stills")
    assert page.get("lastExport") is None
