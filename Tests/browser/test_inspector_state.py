"""State you can share, in a real browser: a URL with settings, a network link, a scene and a
layout reproduces them (the server's `configured`, `link` and `scene-state` echoes say so) and
again after a reload; localStorage brings them back to a bare URL; the "Copy link" URL opened
afresh gives the same configuration; a hostile query is refused cleanly (the server's error or
the page's note shows, the page works on with the defaults); `?` opens the shortcuts overlay,
but not while typing in a field."""
import json
from urllib.parse import urlencode

from browser import Page
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

SETTINGS = {"transition": "fade", "threshold": 0.3, "completionCurve": "linear", "releaseRule": "projection"}
CONFIG_HAS_THEM = ("window.sandbox.config.transition === 'fade' && window.sandbox.config.threshold === 0.3"
                   " && window.sandbox.config.completionCurve === 'linear'"
                   " && window.sandbox.config.releaseRule === 'projection'")
FOUR_G = "window.sandbox.lab.link && window.sandbox.lab.link.delayMs === 60 && window.sandbox.lab.link.jitterMs === 20"
SETTLED = "window.sandbox.pendingRequests === 0"


def line(x0, x1, steps=12, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


def with_query(server, **params):
    return f"{server.page}?{urlencode(params)}"


def query(page):
    return page.js("return Object.fromEntries(new URLSearchParams(location.search))")


def note(page):
    return page.js("return document.getElementById('copy-link-state').textContent")


def test_a_url_with_settings_reproduces_them_and_again_after_a_reload(driver, server):
    url = with_query(server, config=json.dumps(SETTINGS), net="4g", scene="phone,interruptible", layout="stack")
    page = Page(driver, url).open()
    page.wait(f"{CONFIG_HAS_THEM} && {FOUR_G} && window.sandbox.scene !== null && {SETTLED}")
    assert page.js("return document.body.dataset.layout") == "stack"
    assert page.js("return document.getElementById('settings').elements.threshold.value") == "0.3"
    assert page.get("scene")["interruptible"] is True
    kept = query(page)
    assert json.loads(kept["config"])["threshold"] == 0.3 and kept["net"] == "4g", kept
    driver.refresh()
    page.wait("window.sandbox && window.sandbox.connected")
    page.wait(f"{CONFIG_HAS_THEM} && {FOUR_G} && window.sandbox.scene !== null && {SETTLED}")
    assert page.js("return document.body.dataset.layout") == "stack"
    # A bare URL: localStorage holds the same state.
    Page(driver, server.page).open()
    page.wait(f"{CONFIG_HAS_THEM} && {FOUR_G} && {SETTLED}")


def test_the_copied_link_round_trips(driver, server):
    page = Page(driver, server.page).open()
    page.configure("threshold", "0.35", "window.sandbox.config.threshold === 0.35")
    page.configure("transition", "push", "window.sandbox.config.transition === 'push'")
    page.js("const s = document.getElementById('network').elements.preset;"
            "s.value = 'wifi'; s.dispatchEvent(new Event('change', {bubbles: true}));")
    page.wait(f"window.sandbox.lab.link && window.sandbox.lab.link.delayMs === 15 && {SETTLED}")
    page.js("document.getElementById('layout-toggle').click()")
    page.js("document.getElementById('copy-link').click()")
    page.wait("window.sandbox.urlState.copied !== null && document.getElementById('copy-link-state').textContent")
    link = page.get("urlState")["copied"]
    assert "test" not in link, link
    config = page.get("config")
    driver.execute_script("localStorage.clear()")  # the link alone must carry the state
    copy = Page(driver, link).open()
    copy.wait(f"window.sandbox.config.threshold === 0.35 && window.sandbox.config.transition === 'push' && {SETTLED}")
    copy.wait("window.sandbox.lab.link && window.sandbox.lab.link.delayMs === 15")
    assert copy.get("config") == config
    assert copy.js("return document.body.dataset.layout") == "stack"
    assert copy.get("urlState")["link"] == link


def test_a_hostile_query_is_refused_cleanly(driver, server):
    # Values the page cannot read: named in the note, left out; nothing is injected.
    page = Page(driver, with_query(server, config="{nope", net="<img src=x onerror=alert(1)>",
                                   scene="phone,<script>", layout="javascript:alert(1)")).open()
    text = note(page)
    for problem in ("settings are not a JSON object", "unknown network link", "unknown scene", "unknown layout"):
        assert problem in text, text
    assert page.js("return document.querySelectorAll('img, main script').length") == 0
    assert page.get("config")["threshold"] == 0.5 and page.get("scene") is None
    assert page.js("return document.body.dataset.layout") == "columns"
    # Values only the server can judge: sent, refused with its error; nothing changes, not
    # even the good field beside the bad one, and the URL drops them.
    bad = {"type": "play", "id": "x", "threshold": 0.3, "bogus": 1}
    page = Page(driver, with_query(server, config=json.dumps(bad))).open()
    page.wait(f"document.querySelector(\".field-error[data-field='*']\").textContent !== '' && {SETTLED}")
    assert "bogus" in page.field_error("*"), page.field_error("*")
    assert page.get("config")["threshold"] == 0.5
    page.wait("!new URLSearchParams(location.search).has('config')")
    out_of_range = {"threshold": 5}
    page = Page(driver, with_query(server, config=json.dumps(out_of_range))).open()
    page.wait(f"document.querySelector(\".field-error[data-field='threshold']\").textContent !== '' && {SETTLED}")
    assert page.get("config")["threshold"] == 0.5
    # Too long: refused by the page before anything is sent.
    page = Page(driver, with_query(server, config="x" * 1600)).open()
    assert "longer than 1500 characters" in note(page), note(page)
    # The page works on: a drag finishes.
    page.drag(line(60, 240))
    assert page.wait_rest() == "finished"


def test_question_mark_opens_the_shortcuts_overlay_but_not_while_typing(driver, server):
    page = Page(driver, server.page).open()
    field = driver.find_element("css selector", "#settings input[name=distance]")
    field.click()
    ActionChains(driver).send_keys("?").perform()
    assert page.get("shortcutsOpen") is False
    assert field.get_attribute("value").endswith("?")
    page.js("document.activeElement.blur()")
    ActionChains(driver).send_keys("?").perform()
    page.wait("window.sandbox.shortcutsOpen === true")
    listed = page.js("return document.getElementById('shortcuts-list').textContent")
    for what in ("previous frame", "next frame", "play / pause", "back to live", "slow motion"):
        assert what in listed, listed
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    page.wait("window.sandbox.shortcutsOpen === false")
    page.js("document.getElementById('shortcuts-open').click()")
    page.wait("window.sandbox.shortcutsOpen === true")


def test_a_link_carries_the_scenes_ios_release(driver, server):
    # `ios:N` in the scene part starts the scene as that release, and the URL keeps it; a release
    # the page does not offer is named and left out (the scene starts as the select's default).
    page = Page(driver, with_query(server, scene="phone,ios:8")).open()
    page.wait(f"window.sandbox.scene !== null && window.sandbox.scene.ios === '8' && {SETTLED}")
    page.wait("(new URLSearchParams(location.search).get('scene') || '').includes('ios:8')")
    page = Page(driver, with_query(server, scene="phone,ios:19")).open()
    page.wait(f"window.sandbox.scene !== null && {SETTLED}")
    assert page.get("scene")["ios"] != "19"
    assert "iOS release 19 is not offered" in note(page), note(page)
