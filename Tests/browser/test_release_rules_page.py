"""The release rules in the page: the release-rules panel configures the session, the projection's rest
point shows on the plot and in the HUD, the pitfalls are labelled as bugs and reproduce theirs,
and the server's refusals land beside the field they name."""


def set_rule(page, name, value, checked=None):
    """Sets a control of the release-rules panel and commits it (a `change` event)."""
    page.js("""
        const control = document.getElementById('release-rules').elements[arguments[0]];
        if (arguments[2] === null) control.value = arguments[1]; else control.checked = arguments[2];
        control.dispatchEvent(new Event('change', {bubbles: true}));
    """, name, value, checked)


def configure_rule(page, name, value, check, checked=None):
    set_rule(page, name, value, checked)
    page.wait(f"window.sandbox.config && {check}")
    page.wait("['idle', 'finished', 'cancelled'].includes(window.sandbox.phase) && window.sandbox.pendingRequests === 0")
    page.paint()


def line(x0, x1, steps=12, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


PLOT_PURPLE = """
    const canvas = document.getElementById('plot');
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - 199) < 30 && Math.abs(data[i + 1] - 146) < 30 && Math.abs(data[i + 2] - 234) < 30) n += 1;
    }
    return n;
"""


def test_the_panel_shows_the_defaults_and_labels_the_bugs(page):
    config = page.get("config")
    assert config["releaseRule"] == "threshold" and config["decelerationRate"] == 0.998
    assert config["rubberBand"] is None and config["pitfalls"] == [] and config["completionDamping"] == 1
    form = "document.getElementById('release-rules')"
    assert page.js(f"return {form}.elements.releaseRule.value") == "threshold"
    assert page.js(f"return {form}.querySelector('.projection-only').hidden") is True
    labels = page.js(f"return [...{form}.querySelectorAll('label.bug')].map((l) => l.textContent)")
    assert len(labels) == 4 and all(label.strip().startswith("bug:") for label in labels), labels
    beyond = page.js("return [...document.querySelectorAll('#settings option[data-beyond-uikit]')].map((o) => o.value)")
    assert beyond == ["default", "spring", "bezier"]
    assert all("beyond UIKit" in page.js(
        f"return document.querySelector('#settings option[value={value}]').textContent") for value in beyond)


def test_projection_decides_by_the_rest_point_and_draws_it(page):
    page.set_field("transition", "push")
    page.wait("window.sandbox.config.transition === 'push'")
    configure_rule(page, "releaseRule", "projection", "window.sandbox.config.releaseRule === 'projection'")
    assert page.js("return document.querySelector('#release-rules .projection-only').hidden") is False
    configure_rule(page, "decelerationPreset", "0.99", "window.sandbox.config.decelerationRate === 0.99")
    assert page.js("return document.getElementById('release-rules').elements.decelerationRate.value") == "0.99"
    assert page.js(PLOT_PURPLE) == 0
    page.drag(line(60, 150, steps=6))  # released moving
    page.wait_rest()
    text = page.js("return document.getElementById('hud-decision').textContent")
    assert "by projection" in text and "projected" in text, text
    projected = page.get("projected")
    assert isinstance(projected, (int, float))
    assert text.startswith("push finished" if projected >= 0.5 else "push cancelled"), (text, projected)
    assert page.js(PLOT_PURPLE) > 10  # the ◇ and its dashed line


def test_a_pitfall_reproduces_its_bug_no_abs(page):
    page.set_field("transition", "push")
    page.wait("window.sandbox.config.transition === 'push'")
    configure_rule(page, "pitfall-no-abs", None, "window.sandbox.config.pitfalls.join() === 'no-abs'", checked=True)
    assert page.js("return document.getElementById('release-rules').dataset.bugs") == "1"
    page.drag(line(330, 130) + [("pause", 200)])  # 200 pt leftwards: 1.0 with abs
    assert page.wait_rest() == "cancelled"
    assert "push cancelled at 0.01 by threshold" in page.js("return document.getElementById('hud-decision').textContent")
    configure_rule(page, "pitfall-no-abs", None, "window.sandbox.config.pitfalls.length === 0", checked=False)


def test_rubber_band_and_damping_round_trip(page):
    configure_rule(page, "rubberBandOn", None, "window.sandbox.config.rubberBand === 0.55", checked=True)
    assert page.js("return document.getElementById('release-rules').elements.rubberBand.disabled") is False
    configure_rule(page, "rubberBand", "0.3", "window.sandbox.config.rubberBand === 0.3")
    configure_rule(page, "completionDamping", "0.3", "window.sandbox.config.completionDamping === 0.3")
    configure_rule(page, "rubberBandOn", None, "window.sandbox.config.rubberBand === null", checked=False)


def test_the_servers_refusal_lands_beside_its_field(page):
    configure_rule(page, "releaseRule", "projection", "window.sandbox.config.releaseRule === 'projection'")
    set_rule(page, "decelerationRate", "1.5")
    page.wait("document.querySelector(`#release-rules .field-error[data-field='decelerationRate']`).textContent !== ''")
    message = page.js("return document.querySelector(`#release-rules .field-error[data-field='decelerationRate']`).textContent")
    assert "decelerationRate must be a number in (0, 1)" in message, message
    assert page.get("config")["decelerationRate"] == 0.998  # nothing changed
    set_rule(page, "completionDamping", "fast")
    page.wait("document.querySelector(`#release-rules .field-error[data-field='completionDamping']`).textContent !== ''")
    # The general slot of the settings form stays empty: the error went to its own panel.
    assert page.js("return document.querySelector(`#settings .field-error[data-field='*']`).textContent") == ""


def test_the_property_animator_driver_shows_its_state(page):
    page.set_field("transition", "push")
    page.wait("window.sandbox.config.transition === 'push'")
    assert page.js("return document.querySelector('#release-rules .animator-only').hidden") is True
    configure_rule(page, "driver", "property-animator", "window.sandbox.config.driver === 'property-animator'")
    assert page.js("return document.querySelector('#release-rules .animator-only').hidden") is False
    configure_rule(page, "scrubsLinearly", None, "window.sandbox.config.propertyAnimator.scrubsLinearly === false",
                   checked=False)
    configure_rule(page, "durationFactor", "2", "window.sandbox.config.propertyAnimator.durationFactor === 2")
    state = "document.getElementById('animator-state').textContent"
    # What the panel shows while the finger holds at 100 pt (fractionComplete 0.5), seen from
    # the page's own frames (one gesture per action sequence).
    page.js("""
        window.__animatorSeen = [];
        const look = () => {
          const text = document.getElementById('animator-state').textContent;
          if (window.sandbox.phase === 'tracking' && !window.__animatorSeen.includes(text)) window.__animatorSeen.push(text);
          if (window.__animatorSeen.length < 50) requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
    """)
    page.drag(line(60, 160, steps=8) + [("pause", 300)])
    page.wait_rest()
    seen = page.js("return window.__animatorSeen")
    # The panels are repainted off the frame path (at most every 100 ms, docs/PAGE.md): the
    # first tracking frame may be drawn before the panel has left its resting text.
    if seen and seen[0].startswith("inactive"):
        seen = seen[1:]
    assert seen and all(text.startswith("active, paused · fractionComplete ") for text in seen), seen
    assert 0.45 <= float(seen[-1].rsplit(" ", 1)[1]) <= 0.55, seen[-4:]
    page.wait(f"{state}.startsWith('inactive')")
    set_rule(page, "durationFactor", "11")
    slot = "document.querySelector(`#release-rules .field-error[data-field='propertyAnimator.durationFactor']`).textContent"
    page.wait(f"{slot} !== ''")
    assert "durationFactor must be a number in [0, 10]" in page.js(f"return {slot}")
    assert page.get("config")["propertyAnimator"]["durationFactor"] == 2


def test_pauses_on_completion_rests_paused_and_a_drag_takes_it_back(page):
    page.set_field("transition", "push")
    page.wait("window.sandbox.config.transition === 'push'")
    configure_rule(page, "driver", "property-animator", "window.sandbox.config.driver === 'property-animator'")
    configure_rule(page, "pausesOnCompletion", None, "window.sandbox.config.propertyAnimator.pausesOnCompletion",
                   checked=True)
    state = "document.getElementById('animator-state').textContent"
    page.drag(line(60, 200, steps=10) + [("pause", 150)])  # 0.7, held: finishes, then pauses at 1
    page.wait("window.sandbox.phase === 'paused' && window.sandbox.progress === 1")
    page.wait(f"{state} === 'active, paused · fractionComplete 1.000'")
    assert page.get("outcomes") == []  # no completion handler: no finished
    page.drag(line(260, 100, steps=10) + [("pause", 150)])  # back 160 pt: 0.2, cancels, pauses at 0
    page.wait("window.sandbox.phase === 'paused' && window.sandbox.progress === 0")
    # iOS 11+: reversed, fractionComplete reads 1 − the forward time (paused at the start: 1).
    page.wait(f"{state} === 'active, paused, reversed · fractionComplete 1.000'")
    configure_rule(page, "pausesOnCompletion", None, "!window.sandbox.config.propertyAnimator.pausesOnCompletion",
                   checked=False)
    assert page.get("phase") == "idle"
