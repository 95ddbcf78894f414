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


def test_an_error_is_shown_against_the_request_whose_id_it_echoes(gated):
    page = gated
    # The first configure's reply is held back until the second's error arrived: matched by
    # order, that error would settle the first and the late reply would clear it.
    page.js("window.__hold = (m) => m.type === 'configured' && m.config.duration === 0.6")
    page.set_field("duration", "0.6")
    page.wait("window.__held.length === 1")
    page.set_field("fps", "2.5")
    page.wait(f"{FIELD_ERROR.format('fps')} !== ''")
    page.js("window.__hold = null; window.__release()")
    page.wait("window.sandbox.config.duration === 0.6 && window.sandbox.pendingRequests === 0")
    page.paint()
    assert "whole number" in page.field_error("fps")
    assert page.field_error("duration") == ""
    # The page's own `configure {prediction}` at welcome (prediction.js) is not the form's.
    configures = [m for m in page.js("return window.__sent") if m["type"] == "configure" and "prediction" not in m]
    assert [sorted(m) for m in configures] == [["duration", "id", "type"], ["fps", "id", "type"]]
    assert configures[0]["id"] != configures[1]["id"]
    received = page.js("return window.__received")
    error = next(m for m in received if m["type"] == "error")
    assert error["id"] == configures[1]["id"]
    assert next(m for m in received if m["type"] == "configured")["id"] == configures[0]["id"]


def test_an_error_without_an_id_is_shown_by_its_field(gated):
    page = gated
    page.js("window.__deliver(JSON.stringify("
            "{type: 'error', code: 'invalid-field', message: 'a stray refusal', field: 'threshold'}))")
    page.wait(f"{FIELD_ERROR.format('threshold')} !== ''")
    assert page.field_error("threshold") == "a stray refusal"
    assert page.get("pendingRequests") == 0


def test_requests_match_by_id_and_without_one_by_order(page):
    result = page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import(new URL('js/requests.js', location.href)).then(({ Requests }) => {
          const requests = new Requests();
          const a = requests.add('configure', 'duration');
          const b = requests.add('configure', 'fps');
          const c = requests.add('scene', null);
          const name = (entry) => entry && entry.field;
          done({
            error: name(requests.settleError({ type: 'error', id: b })),
            unknown: requests.settle('configure', { id: '99' }),
            byOrder: name(requests.settle('configure', {})),
            scene: requests.settleError({}).kind,
            left: requests.count,
            distinct: new Set([a, b, c]).size,
            strings: [a, b, c].every((id) => typeof id === 'string'),
          });
        }, (error) => done({ failed: String(error) }));
    """)
    assert result == {"error": "fps", "unknown": None, "byOrder": "duration", "scene": "scene", "left": 0,
                      "distinct": 3, "strings": True}, result
