"""The page's test hooks and its requests: `window.sandbox` only with `?test`; each request
carries an id, and a reply or an error finds the request it answers by that id."""
import pytest

from browser import Page

# Installed before the page's own scripts (DevTools: a new document's first script, outside the
# page's CSP): what the page's socket sends and receives, a gate that holds back the server's
# messages a predicate picks (`window.__hold`) until `window.__release()`, and
# `window.__deliver(text)` to hand the page a message of the test's own.
WIRE_GATE = """
(() => {
  window.__sent = [];
  window.__received = [];
  window.__held = [];
  window.__hold = null;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__sent.push(JSON.parse(data));
    return send.call(this, data);
  };
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message') return add.call(this, type, listener, options);
    const socket = this;
    window.__release = () => {
      const held = window.__held;
      window.__held = [];
      held.forEach((event) => listener.call(socket, event));
    };
    window.__deliver = (data) => listener.call(socket, new MessageEvent('message', {data}));
    return add.call(this, type, function (event) {
      const message = JSON.parse(event.data);
      if (message.type !== 'frame') window.__received.push(message);
      if (window.__hold && window.__hold(message)) {
        window.__held.push(event);
        return;
      }
      listener.call(this, event);
    }, options);
  };
})();
"""

FIELD_ERROR = "document.querySelector(\".field-error[data-field='{}']\").textContent"


@pytest.fixture
def gated(driver, server):
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WIRE_GATE})
    yield Page(driver, server.page).open()
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_the_page_without_test_query_has_no_hooks(driver, server):
    driver.get(server.page)
    page = Page(driver, server.page)
    page.wait("document.getElementById('connection').dataset.state === 'open'"
              " && document.getElementById('session-id').textContent !== ''")
    page.paint()
    assert page.js("return typeof window.sandbox") == "undefined"
    modules = page.js("return performance.getEntriesByType('resource').map((entry) => entry.name)")
    assert any(name.endswith("/js/main.js") for name in modules), modules
    assert not any(name.endswith("/js/testHooks.js") for name in modules), modules
    # With ?test the same page has them.
    Page(driver, server.page).open()
    assert page.js("return typeof window.sandbox.connected") == "boolean"
