"""The page behind HAProxy (docs/DEPLOY.md): two `sandbox serve --node` processes, the
page loaded through the balancer, a session driven by a script on the other process. Watching
it reopens the page's socket with ?session=ID, which the balancer routes to that process."""
import json

import pytest
from websockets.sync.client import connect

from balancer import Balancer
from browser import Page


@pytest.fixture
def layout(make_server, tmp_path):
    nodes = [make_server("--node", "n1"), make_server("--node", "n2")]
    balancer = Balancer(tmp_path, nodes)
    yield balancer
    balancer.stop()


def test_the_page_watches_a_session_of_the_other_process(driver, layout):
    page = Page(driver, f"http://127.0.0.1:{layout.port}/").open()
    own = page.get("session")
    with connect(layout.url, subprotocols=["transition-sandbox.v2"]) as headless:
        welcome = json.loads(headless.recv())
        # Least connections: the script's session lives on the process the page is not on.
        assert welcome["session"].split("-")[0] != own.split("-")[0]
        page.js("const form = document.getElementById('watch');"
                "form.elements.session.value = arguments[0]; form.requestSubmit();", welcome["session"])
        page.wait("window.sandbox.role === 'viewer'")
        assert page.get("session") == welcome["session"]
        for seq, (phase, x) in enumerate([("down", 60)] + [("move", 60 + 15 * i) for i in range(1, 12)] + [("up", 225)], 1):
            headless.send(json.dumps({"type": "pointer", "phase": phase, "x": x, "y": 400, "t": seq * 16.0, "seq": seq}))
        page.wait("window.sandbox.phase === 'finished'")
