"""The scene panel's iOS version: the select starts the scene as that release, scene-state
echoes it in the status line, changing it restarts the scene, and the release decides the
default presentation style (a page sheet from iOS 13, full screen before)."""

from test_scene_page import click, scene_at_rest, set_controls


def start_as(page, ios):
    page.js("const form = document.getElementById('scene-start');"
            "form.elements.ios.value = arguments[0]; form.requestSubmit();", ios)
    page.wait(f"window.sandbox.scene !== null && window.sandbox.scene.ios === '{ios}'"
              " && window.sandbox.scene.inFlight === null")
    return page.get("scene")


def status(page):
    return page.js("return document.getElementById('scene-status').textContent")


def test_the_version_select_starts_and_restarts_the_scene_and_decides_the_default_style(page):
    options = page.js("return [...document.getElementById('scene-start').elements.ios.options].map(o => o.value)")
    assert options[0] == "7" and options[-1] == "26" and "8" in options and "13" in options
    assert start_as(page, "26")["ios"] == "26"
    page.wait("document.getElementById('scene-status').textContent.startsWith('iOS 26')")

    set_controls(page, style="automatic", transition="", animated=False, interactive=False)
    click(page, "present")
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    assert page.get("scene")["presentations"][0]["style"] == "pageSheet"

    # Changing the select alone restarts the scene as that release.
    page.js("const select = document.getElementById('scene-start').elements.ios;"
            "select.value = '12'; select.dispatchEvent(new Event('change'));")
    page.wait("window.sandbox.scene && window.sandbox.scene.ios === '12'"
              " && window.sandbox.scene.presentations.length === 0")
    assert status(page).startswith("iOS 12")
    set_controls(page, style="automatic", transition="", animated=False, interactive=False)
    click(page, "present")
    scene_at_rest(page, "window.sandbox.scene.presentations.length === 1")
    state = page.get("scene")
    assert state["presentations"][0]["style"] == "fullScreen"
    # Full screen has no dismiss gesture of its own.
    assert state["armed"] is None
