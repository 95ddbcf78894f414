"""The zoom transition's dismissal in a real browser: a page watching a session sees the
zoom-presented card follow a two-dimensional drag — its centre moves with the finger in x and y,
and it is smaller than the full screen — and the source thumbnail drawn as a named view (role
`view`). The finger is a headless driver's (pointer messages, each answered by a frame whose
`ack` is its seq: the test waits for that echo, never sleeps). Sources: Apple, "Enhancing your
app with fluid transitions" (developer.apple.com/documentation/uikit/
enhancing-your-app-with-fluid-transitions); the scale and thresholds are the sandbox's
inferred ones (docs/SCENE.md, "The zoom transition"), so the checks are generous."""

import json

from websockets.sync.client import connect

from scene_canvas import card_colour, colour, near

LIBRARY = {"id": "library", "title": "Library",
           "views": [{"id": "thumb", "frame": {"x": 16, "y": 120, "width": 120, "height": 120}}]}

# The card's extent along one row or column of the canvas (scene points): the first and last
# pixel whose colour is the card's within a tolerance.
EXTENT = """
const [colour, horizontal, at] = arguments;
const canvas = document.getElementById('screen');
const [w, h] = window.sandbox.screenSize;
const k = canvas.width / w;
const length = horizontal ? w : h;
const data = horizontal
  ? canvas.getContext('2d').getImageData(0, Math.round(at * k), canvas.width, 1).data
  : canvas.getContext('2d').getImageData(Math.round(at * k), 0, 1, canvas.height).data;
const step = 4;
let first = null, last = null;
for (let i = 0; i * step < data.length; i += 1) {
  const [r, g, b] = [data[i * step], data[i * step + 1], data[i * step + 2]];
  if (Math.abs(r - colour[0]) <= 8 && Math.abs(g - colour[1]) <= 8 && Math.abs(b - colour[2]) <= 8) {
    if (first === null) first = i;
    last = i;
  }
}
return first === null ? null : [first / k, (last + 1) / k];
"""


def extent(page, colour_, horizontal, at):
    return page.js(EXTENT, colour_, horizontal, at)


def test_a_zoom_dismissal_follows_a_two_dimensional_drag(page, server, artifacts):
    with connect(server.url, subprotocols=["transition-sandbox.v2"]) as driver:
        welcome = json.loads(driver.recv())
        seq = 0

        def send(message, until):
            driver.send(json.dumps(message))
            while True:
                reply = json.loads(driver.recv())
                assert reply["type"] != "error", reply
                if until(reply):
                    return reply

        def pointer(phase, x, y, t):
            nonlocal seq
            seq += 1
            mine = seq
            return send({"type": "pointer", "phase": phase, "x": x, "y": y, "t": t, "seq": mine},
                        lambda reply: reply["type"] == "frame" and reply.get("ack") == mine)

        send({"type": "scene", "root": LIBRARY}, lambda reply: reply["type"] == "scene-state")
        state = send({"type": "present", "controller": {"id": "photo", "title": "Photo"}, "transition": "zoom",
                      "source": "thumb", "animated": False},
                     lambda reply: reply["type"] == "scene-state" and reply["armed"] is not None)
        assert state["presentations"][0]["sourceView"] == {"controller": "library", "view": "thumb"}
        assert state["armed"]["action"] == "dismiss" and state["armed"]["default"] is True

        page.js("const form = document.getElementById('watch');"
                "form.elements.session.value = arguments[0]; form.requestSubmit();", welcome["session"])
        page.wait("window.sandbox.role === 'viewer' && window.sandbox.scene !== null"
                  " && window.sandbox.scene.presentations.length === 1")
        page.wait("window.sandbox.frameScene !== null && window.sandbox.frameScene.transition !== null")
        page.paint()
        photo = card_colour(page, "photo")
        # At rest the photo fills the screen.
        assert near(colour(page, (40, 500, 300, 200)), photo)

        # The drag: down at (195, 400), then 24 pt left and 200 pt down (the card stays inside
        # the screen across, so both its edges show; its bottom runs off the screen).
        t = 1000.0
        pointer("down", 195, 400, t)
        for i in range(1, 21):
            t += 16
            frame = pointer("move", 195 - 1.2 * i, 400 + 10 * i, t)
        assert frame["phase"] == "tracking", frame
        n = frame["n"]
        page.wait(f"window.sandbox.frameNumber >= {n} && window.sandbox.phase === 'tracking'")
        page.paint()
        page.screenshot(artifacts / "zoom-dragged.png")

        # The card is smaller than the screen, and its centre moved with the finger in x and y
        # (generous: 10 pt): across from both edges, down from its top and its height (the
        # card keeps the screen's aspect while it is dragged).
        across = extent(page, photo, True, 500)
        down = extent(page, photo, False, 171)
        assert across and down, (across, down)
        width = across[1] - across[0]
        assert 390 * 0.6 < width < 390 * 0.95, across
        height = width * 844 / 390
        centre = ((across[0] + across[1]) / 2, down[0] + height / 2)
        assert abs(centre[0] - (195 - 24)) < 10, (centre, across, down)
        assert abs(centre[1] - (422 + 200)) < 10, (centre, across, down)

        # The source thumbnail is drawn as a named view on the library beneath, hidden while the
        # card stands in for it: where the thumbnail is, the library's colour (dimmed a little),
        # never the named view's lighter fill.
        library = card_colour(page, "library")
        under = colour(page, (20, 124, 112, 112))
        assert all(a <= e + 4 for a, e in zip(under, library)) and near(under, library, 40), (under, library)

        # Released: 200 of 844 pt, moving down, projects past a fifth of the screen, so it
        # shrinks into the thumbnail and the photo is dismissed.
        t += 16
        pointer("up", 171, 600, t)
        page.wait("window.sandbox.scene.presentations.length === 0", timeout=20)
        page.wait("['finished', 'idle'].includes(window.sandbox.phase)")
        page.paint()
        # Back at rest, the thumbnail shows again: the named view's lighter rounded rect.
        shown = colour(page, (24, 150, 100, 80))
        assert all(a > e + 10 for a, e in zip(shown, library)), (shown, library)
    page.wait("window.sandbox.role === 'driver'")
