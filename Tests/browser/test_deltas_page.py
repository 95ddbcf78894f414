"""Delta frames on the page (docs/PROTOCOL.md "Delta frames"): the page applies them
(web/js/frameAssembler.js) so that it holds and draws whole frames.

- The page's assembler, on the hand-written cases the Python assembler's unit tests use.
- A drag held mid-way (and, in a scene, a sheet's present and its dismissal held mid-way): every
  frame message the page received, as it came over its socket, is assembled again here by the
  tests' own assembler (Tests/sandbox_env.py) and must equal the frame the page holds after it;
  the frame the page ends on equals the *whole* frame the server sends a viewer that joins then;
  and that whole frame, handed to the page through its own socket, draws the same pixels as the
  deltas did. No delta is dropped.

Every wait is on the page's state or the server's echo, never a sleep."""
import json
from pathlib import Path

import pytest
from websockets.sync.client import connect

from browser import Page
from sandbox_env import FrameAssembler

CASES = (Path(__file__).resolve().parents[1] / "integration" / "frame_assembler_cases.json").read_text()

# Installed before the page's own scripts (DevTools: a new document's first script, outside the
# page's CSP): every frame message the page's socket delivers, as it came, with the frame the page
# holds right after its handler ran; and the socket, to hand the page a message of our own.
WIRE_TAP = """
(() => {
  window.__wire = [];
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message') return add.call(this, type, listener, options);
    window.__socket = this;
    const socket = this;
    return add.call(this, type, function (event) {
      listener.call(this, event);
      if (socket !== window.__socket || typeof event.data !== 'string') return;
      if (!event.data.startsWith('{"type":"frame"')) return;
      const frame = window.sandbox ? window.sandbox.frame : null;
      window.__wire.push([event.data, frame === null ? null : JSON.stringify(frame)]);
    }, options);
  };
})();
"""

# Fields a frame carries for one connection (delivery stamps), not for the state it shows.
PER_CONNECTION = ("t", "sent", "delivered", "arrived", "received")


def state_of(frame):
    return {k: v for k, v in frame.items() if k not in PER_CONNECTION}


@pytest.fixture
def tapped(driver, server):
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WIRE_TAP})
    page = Page(driver, server.page).open()
    page.wait("window.__wire.length > 0")
    yield page
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def line(x0, x1, steps=12, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


def check_the_stream(page):
    """Every frame message the page received, assembled here: the page held that same frame
    after it. Returns the messages, parsed."""
    wire = page.js("return window.__wire")
    assembler = FrameAssembler()
    for i, (text, held) in enumerate(wire):
        message = json.loads(text)
        ours = assembler.apply(message)
        assert ours is not None, (i, assembler.last_drop, text[:300])
        assert held is not None and json.loads(held) == ours, (i, text[:300], held[:300])
        assert "base" not in json.loads(held)
    assert page.get("deltasDropped") == 0
    assert page.js("return document.getElementById('deltas-dropped').hidden")
    return [json.loads(text) for text, _ in wire]


def deltas(messages):
    return [m for m in messages if "base" in m]


def whole_frame_of(server, session):
    """The whole frame the server sends a viewer that joins `session` now (the first frame after
    `joined` is never a delta), as text."""
    with connect(server.url, subprotocols=["transition-sandbox.v2"]) as viewer:
        assert json.loads(viewer.recv())["type"] == "welcome"
        viewer.send(json.dumps({"type": "join", "session": session}))
        while (message := json.loads(viewer.recv()))["type"] != "joined":
            assert message["type"] in ("frame", "link", "scene-state"), message
        while True:
            text = viewer.recv()
            if json.loads(text)["type"] == "frame":
                return text


def same_pixels_from_a_whole_frame(page, server):
    """The page's picture of the frame it assembled from deltas vs its picture of the server's
    whole frame of that same state, handed to it through its own socket."""
    page.wait("window.sandbox.shownProgress === window.sandbox.progress"
              " && window.sandbox.shownPhase === window.sandbox.phase")
    page.paint()
    assembled = page.get("frame")
    page.snapshot("from-deltas")
    text = whole_frame_of(server, page.get("session"))
    whole = json.loads(text)
    assert "base" not in whole
    assert whole["n"] == assembled["n"], (whole["n"], assembled["n"])
    assert state_of(whole) == state_of(assembled)
    # Dispatched synchronously: the page holds the whole frame once this returns.
    page.js("window.__socket.dispatchEvent(new MessageEvent('message', {data: arguments[0]}));", text)
    assert page.js("return window.__wire[window.__wire.length - 1][0]") == text
    assert state_of(page.get("frame")) == state_of(whole)
    page.paint()
    page.snapshot("from-whole")
    difference = page.difference("from-deltas", "from-whole")
    assert difference == {"mean": 0, "differing": 0}, difference
    return assembled


def test_the_pages_assembler_on_the_hand_written_cases(page):
    result = page.driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const cases = JSON.parse(arguments[0]);"
        "import(new URL('js/frameAssembler.js', location.href)).then((m) => {"
        "  try {"
        "    done(cases.map((c) => { const a = new m.FrameAssembler();"
        "      const got = c.messages.map((message) => a.apply(message));"
        "      return { name: c.name, got: JSON.parse(JSON.stringify(got)), dropped: a.dropped }; }));"
        "  } catch (error) { done({ error: String(error && error.stack || error) }); }"
        "}, (error) => done({ error: String(error) }));", CASES)
    assert not (isinstance(result, dict) and "error" in result), result
    for case, outcome in zip(json.loads(CASES), result):
        assert outcome["got"] == case["expected"], case["name"]
        assert outcome["dropped"] == sum(1 for frame in case["expected"] if frame is None)


@pytest.mark.parametrize("kind,engine", [("push", "percent-driven"), ("pop", "percent-driven"),
                                         ("flip-horizontal", "percent-driven"), ("reveal", "percent-driven"),
                                         ("push", "property-animator")])
def test_a_held_drag_draws_from_deltas_what_a_whole_frame_draws(tapped, server, kind, engine):
    page = tapped
    page.configure("transition", kind, f"window.sandbox.config.transition === '{kind}'")
    if engine != "percent-driven":  # the release-rules panel's driver
        page.js("const control = document.getElementById('release-rules').elements.driver;"
                "control.value = arguments[0]; control.dispatchEvent(new Event('change', {bubbles: true}));", engine)
        page.wait(f"window.sandbox.config.driver === '{engine}' && window.sandbox.pendingRequests === 0")
    page.drag(line(60, 160), release=False)  # 100 / 200: half way, the finger still down
    page.wait("window.sandbox.phase === 'tracking'")
    frame = same_pixels_from_a_whole_frame(page, server)
    assert frame["phase"] == "tracking" and 0.3 < frame["progress"] < 0.7, frame
    messages = check_the_stream(page)
    assert len(messages) >= 10 and len(deltas(messages)) >= 5, messages
    if engine == "property-animator":
        # the animator's changed fields only (`fractionComplete` while scrubbing), assembled whole
        assert frame["animator"]["state"] == "active" and frame["animator"]["fractionComplete"] > 0.3, frame
        assert any(set(m.get("animator") or {}) < {"state", "running", "reversed", "fractionComplete"}
                   for m in deltas(messages)), [m.get("animator") for m in messages]


def test_a_scene_draws_from_deltas_what_a_whole_frame_draws(tapped, server):
    page = tapped
    page.js("document.getElementById('scene-start').requestSubmit();")
    page.wait("window.sandbox.scene !== null && window.sandbox.scene.inFlight === null"
              " && window.sandbox.frameScene !== null && window.sandbox.pendingRequests === 0")
    page.js("""
        const form = document.getElementById('scene-controls');
        form.elements.style.value = 'pageSheet'; form.elements.transition.value = '';
        form.elements.animated.checked = true; form.elements.interactive.checked = false;
        document.querySelector('#scene-controls button[data-action=present]').click();
    """)
    page.wait("window.sandbox.scene.presentations.length === 1 && window.sandbox.scene.inFlight === null"
              " && window.sandbox.phase === 'finished' && window.sandbox.pendingRequests === 0")
    # The sheet's dismissal, held half way down (cover vertical follows the finger 1:1).
    page.drag([(195, 300 + 30 * i) for i in range(11)], release=False)
    page.wait("window.sandbox.phase === 'tracking'")
    frame = same_pixels_from_a_whole_frame(page, server)
    assert frame["scene"]["transition"]["action"] == "dismiss" and frame["progress"] > 0.2, frame
    messages = check_the_stream(page)
    assert len(deltas(messages)) >= 10, messages
    # the stream used the scene's own delta forms: parts left out, base-indexed patches
    scenes = [m["scene"] for m in deltas(messages) if m.get("scene")]
    assert any("layers" not in scene or "root" not in scene for scene in scenes), scenes
    assert any(isinstance(entry, dict) and "base" in entry for scene in scenes for entry in scene.get("layers", [])), scenes


def test_a_delta_that_does_not_apply_is_counted_and_shown_and_the_page_goes_on(tapped):
    page = tapped
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    held = page.get("frame")
    stray = {**held, "n": held["n"] + 1, "base": held["n"] - 1, "layers": [layer["id"] for layer in held["layers"]]}
    page.js("window.__socket.dispatchEvent(new MessageEvent('message', {data: arguments[0]}));", json.dumps(stray))
    assert page.get("deltasDropped") == 1 and page.get("frameNumber") == held["n"]
    assert page.js("return document.getElementById('deltas-dropped').hidden") is False
    assert page.js("return document.getElementById('deltas-dropped-count').textContent") == "1"
    # The server's next delta applies to the frame the page still holds: nothing else is lost.
    page.drag(line(60, 230))
    assert page.wait_rest() == "finished"
    assert page.get("deltasDropped") == 1
