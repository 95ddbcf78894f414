"""A sheet with detents in a real browser: a page watching a session sees the card at its medium
detent (the presenter not pushed back, dimmed beneath), then, dragged up by the session's driver,
at its large detent (the presenter pushed back), with the grabber drawn on the card's top edge
and the delegate's detent change in the log. Pixels are read only once the server's scene-state
says the card rests (docs/SCENE.md "Sheet detents")."""

import json

from websockets.sync.client import connect

from scene_canvas import card_colour, colour, near

DIM = 1 - 0.2  # SceneDevice.sheetDimmingOpacity


def test_a_sheet_dragged_from_medium_to_large_is_drawn_at_each_detent(page, server, artifacts):
    with connect(server.url, subprotocols=["transition-sandbox.v2"]) as driver:
        welcome = json.loads(driver.recv())
        seq = 0

        def send(message, until):
            driver.send(json.dumps(message))
            while not until(json.loads(driver.recv())):
                pass

        def scene_state(m):
            return m["type"] == "scene-state"

        send({"type": "scene", "ios": "17", "root": {"id": "home"}}, scene_state)
        page.js("const form = document.getElementById('watch');"
                "form.elements.session.value = arguments[0]; form.requestSubmit();", welcome["session"])
        page.wait("window.sandbox.role === 'viewer' && window.sandbox.scene !== null")
        sheet = {"detents": ["medium", "large"], "selectedDetent": "medium", "prefersGrabberVisible": True}
        send({"type": "present", "controller": {"id": "places", "presentationStyle": "pageSheet", "sheet": sheet},
              "animated": False}, scene_state)
        page.wait("window.sandbox.scene.sheets && window.sandbox.scene.sheets[0].detent === 'medium'")
        page.wait("window.sandbox.frameScene && window.sandbox.frameScene.layers.some((l) => l.role === 'grabber')")
        page.paint()

        card, home = card_colour(page, "places"), card_colour(page, "home")
        assert not near(card, home, 40)
        # Medium: the card from y ≈ 388.3 (844 − 34 − 0.56 × 753); above it the presenter, full size
        # (not pushed back) under 0.2 black; its top edge at y 0 is the presenter's, not the window's black.
        assert near(colour(page, (40, 520, 300, 200)), card), colour(page, (40, 520, 300, 200))
        above = colour(page, (40, 150, 300, 200))
        assert near(above, [c * DIM for c in home], 6), (above, home)
        assert near(colour(page, (2, 20, 10, 10)), [c * DIM for c in home], 6)  # no push-back: no black beside it
        grabber = colour(page, (180, 394, 30, 3))  # 5 pt below the card's top
        assert not near(grabber, card, 4), (grabber, card)  # the grabber shows on the card's top edge
        page.screenshot(artifacts / "sheet-detents-medium.png")

        # The driver drags up 300 pt from inside the card and lets go.
        t = 1000.0
        for phase, y in [("down", 600)] + [("move", 600 - 30 * i) for i in range(1, 11)] + [("up", 300)]:
            seq += 1
            t += 16
            driver.send(json.dumps({"type": "pointer", "phase": phase, "x": 195, "y": y, "t": t, "seq": seq,
                                    "pointerId": 0}))
        page.wait("window.sandbox.scene.sheets[0].detent === 'large' && !window.sandbox.scene.sheets[0].moving")
        page.wait("window.sandbox.frameScene.layers.some((l) => l.role === 'root' && l.scale < 0.95)")
        page.paint()
        # Large: the card from y = 57; the presenter pushed back (its top at 47, black beside it).
        assert near(colour(page, (40, 150, 300, 200)), card), colour(page, (40, 150, 300, 200))
        assert near(colour(page, (40, 600, 300, 200)), card)
        assert max(colour(page, (2, 49, 10, 6))) < 10
        page.screenshot(artifacts / "sheet-detents-large.png")
        page.wait("document.getElementById('lifecycle-log').textContent"
                  ".includes('places.sheetPresentationControllerDidChangeSelectedDetentIdentifier()')")
