"""The page's layout in a real browser: at 1400 × 1000 and 1920 × 1080 the stage, the readouts and
the panels sit in columns across the width; at 390 × 844 everything fits the phone's width with
touch-sized controls; at every size no text overflows its box, no word breaks mid-way, no select
hides its choice; the HUD's plot stays in view while the release rules are tuned; the HUD says
which operation ran and how it ended."""
import pytest

from browser import Page
from layout_checks import layout_problems, set_viewport

SIZES = [(1400, 1000), (1920, 1080), (390, 844)]


def line(x0, x1, steps=12, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


def opened(driver, server, width, height):
    set_viewport(driver, width, height, mobile=width < 760)
    return Page(driver, server.page).open()


def set_rule(page, name, value):
    page.js("""
        const control = document.getElementById('release-rules').elements[arguments[0]];
        control.value = arguments[1];
        control.dispatchEvent(new Event('change', {bubbles: true}));
    """, name, value)


def reveal_everything(page):
    """Shows the panels' conditional parts: a finished drag's HUD, the projection and property
    animator rows, the Bézier field, the custom link fields, a scene with its orientation table."""
    page.drag(line(60, 240))
    page.wait_rest("finished")
    set_rule(page, "releaseRule", "projection")
    page.wait("window.sandbox.config.releaseRule === 'projection'")
    set_rule(page, "driver", "property-animator")
    page.wait("window.sandbox.config.driver === 'property-animator' && window.sandbox.pendingRequests === 0")
    page.js("const s = document.getElementById('settings').elements.completionCurve;"
            "s.value = 'bezier'; s.dispatchEvent(new Event('change', {bubbles: true}));")
    page.js("const s = document.getElementById('network').elements.preset;"
            "s.value = 'custom'; s.dispatchEvent(new Event('change', {bubbles: true}));")
    page.js("document.getElementById('scene-start').requestSubmit()")
    page.wait("window.sandbox.scene !== null && window.sandbox.scene.inFlight === null"
              " && window.sandbox.pendingRequests === 0")
    page.paint()


@pytest.mark.parametrize("width,height", SIZES)
def test_no_text_overflows_its_box(driver, server, artifacts, width, height):
    page = opened(driver, server, width, height)
    reveal_everything(page)
    problems = layout_problems(page, width)
    driver.save_screenshot(str(artifacts / f"layout-{width}x{height}.png"))
    assert problems["overflowing"] == [], problems["overflowing"]
    assert problems["broken"] == [], problems["broken"]
    assert problems["clipped"] == [], problems["clipped"]
    assert problems["wide"] == [], problems["wide"]
    assert problems["scrollWidth"] <= width, problems["scrollWidth"]


def rect(page, selector):
    return page.js("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                   "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width};", selector)


@pytest.mark.parametrize("width,height", SIZES[:2])
def test_at_wide_sizes_the_panels_sit_in_columns_across_the_width(driver, server, width, height):
    page = opened(driver, server, width, height)
    stage, readouts, panels = rect(page, ".stage"), rect(page, ".readouts"), rect(page, "main > .panel")
    assert stage["right"] <= readouts["left"] and readouts["right"] <= panels["left"], (stage, readouts, panels)
    assert panels["right"] >= width - 40, panels  # no empty band at the right
    lefts = page.js("return [...document.querySelectorAll('main > .panel > *')]"
                    ".filter((el) => el.getBoundingClientRect().width > 0 && getComputedStyle(el).position !== 'fixed')"
                    ".map((el) => Math.round(el.getBoundingClientRect().left))")
    # 1400 px: one column of panels ~530 px wide; 1920 px: three of ~330 px.
    assert (len(set(lefts)) >= 2) == (width >= 1900), lefts
    assert panels["width"] >= 400, panels


def test_the_timeline_area_sits_under_the_screen_inside_the_viewport(driver, server):
    page = opened(driver, server, 1400, 1000)
    page.js("document.getElementById('timeline-area').hidden = true; window.dispatchEvent(new Event('resize'));")
    page.paint()
    before = rect(page, "#screen")  # the screen with nothing under it
    page.js("""
        document.getElementById('timeline-area').hidden = false;
        const filler = document.createElement('div');
        filler.className = 'test-filler';
        filler.style.height = '220px';
        document.getElementById('timeline-area').append(filler);
        window.dispatchEvent(new Event('resize'));
    """)
    page.paint()
    screen, area = rect(page, "#screen"), rect(page, "#timeline-area")
    assert screen["width"] < before["width"], (before, screen)  # the screen left the timeline room
    assert screen["bottom"] <= area["top"] < 1000, (screen, area)  # it starts in view, under the screen
    # Scrolled down to the timeline's end, the HUD is still in view.
    page.js("document.getElementById('timeline-area').scrollIntoView({block: 'end'})")
    page.paint()
    plot = rect(page, "#plot")
    assert 0 <= plot["top"] and plot["bottom"] <= 1000, plot


@pytest.mark.parametrize("width,height", [(1400, 1000), (1000, 800)])
def test_the_hud_plot_stays_in_view_while_the_release_rules_are_tuned(driver, server, width, height):
    page = opened(driver, server, width, height)
    page.js("document.querySelector('#release-rules fieldset.pitfalls').scrollIntoView()")
    page.paint()
    rules, plot = rect(page, "#release-rules fieldset.pitfalls"), rect(page, "#plot")
    assert 0 <= rules["top"] < height, rules
    assert plot["top"] >= 0 and plot["bottom"] <= height, plot


def test_on_a_phone_the_controls_are_big_enough_to_touch(driver, server):
    page = opened(driver, server, 390, 844)
    small = page.js("""
        const small = [];
        for (const el of document.querySelectorAll('main button, main select, main input:not([type=checkbox])')) {
          if (el.closest('[hidden]')) continue;
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.height < 44) small.push(`${el.name || el.id || el.textContent} ${r.height}`);
        }
        return small;
    """)
    assert small == [], small
    page.drag(line(60, 240), kind="touch")
    assert page.wait_rest() == "finished"


def test_the_hud_says_which_operation_ran_and_how_it_ended(driver, server):
    page = opened(driver, server, 1400, 1000)
    page.configure("transition", "fade", "window.sandbox.config.transition === 'fade'")
    page.drag(line(60, 240))  # 180 / 200: past the threshold
    assert page.wait_rest() == "finished"
    page.wait("window.sandbox.config.operation === 'dismiss'")
    page.paint()
    decision = page.js("return document.getElementById('hud-decision').textContent")
    assert decision.startswith("present finished at 0.") and "by threshold" in decision, decision
    # The auto-reverse's dismiss rests at 0: the HUD says of what, not a bare "0.000".
    assert page.js("return document.getElementById('hud-progress').textContent") == "0.000 of dismiss"
    page.drag(line(60, 100) + [("pause", 300)])  # 40 / 200: below the threshold, held still
    assert page.wait_rest() == "cancelled"
    decision = page.js("return document.getElementById('hud-decision').textContent")
    assert decision.startswith("dismiss cancelled at 0.2") and "by threshold" in decision, decision
