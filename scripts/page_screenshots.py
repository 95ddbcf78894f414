#!/usr/bin/env python3
"""The screenshots of docs/PAGE.md, made the way the browser tests drive the page (Tests/browser:
headless Chromium through Selenium, a fresh `sandbox serve` from Tests/conftest.py serving this
checkout's web/), at 1400 × 1000 and 390 × 844 CSS px, 1 device pixel per CSS pixel. Each shot
is checked with the layout test's own measure (Tests/browser/layout_checks.py) first: a shot of
a broken layout is refused, not written.

    python3 scripts/page_screenshots.py            # writes docs/images/page-*.png
    SANDBOX_BINARY=/path/to/sandbox python3 scripts/page_screenshots.py --out /tmp/shots

Needs Debian's chromium and chromium-driver and the selenium package (as Tests/browser).
"""
import argparse
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests"))
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
from browser import Page, make_driver, quit_driver  # noqa: E402
from layout_checks import layout_problems, set_viewport  # noqa: E402

# The tests' `sandbox serve` (Tests/conftest.py; Tests/browser has a conftest of its own).
_spec = importlib.util.spec_from_file_location("sandbox_conftest", ROOT / "Tests" / "conftest.py")
_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_conftest)
Server = _conftest.Server

# Keep each image small enough to commit (docs/PAGE.md links them).
MAX_BYTES = 200 * 1024


def line(x0, x1, steps=6, y=400):
    return [(x0 + (x1 - x0) * i / steps, y) for i in range(steps + 1)]


def flick_with_projection(page):
    """A push released while moving, decided by the projection: the HUD's words and its ◇."""
    page.configure("transition", "push", "window.sandbox.config.transition === 'push'")
    page.js("const s = document.getElementById('release-rules').elements.releaseRule;"
            "s.value = 'projection'; s.dispatchEvent(new Event('change', {bubbles: true}));")
    page.wait("window.sandbox.config.releaseRule === 'projection' && window.sandbox.pendingRequests === 0")
    page.drag(line(60, 150))
    page.wait_rest()


def scene_with_a_sheet(page):
    """A scene: a page sheet presented, its lifecycle callbacks in the log."""
    page.js("document.getElementById('scene-start').requestSubmit()")
    page.wait("window.sandbox.scene !== null && window.sandbox.scene.inFlight === null"
              " && window.sandbox.pendingRequests === 0")
    page.js("document.querySelector('#scene-controls button[data-action=present]').click()")
    page.wait("window.sandbox.scene.presentations.length === 1 && window.sandbox.scene.inFlight === null"
              " && ['idle', 'finished', 'cancelled'].includes(window.sandbox.phase)")
    page.paint()


def open_shortcuts(page):
    page.js("document.getElementById('shortcuts-open').click()")
    page.wait("window.sandbox.shortcutsOpen === true")
    page.paint()


# name, viewport (CSS px), what to do first, scroll the panel with this selector into view
SHOTS = [
    ("page-1400x1000", (1400, 1000), flick_with_projection, None),
    ("page-390x844", (390, 844), flick_with_projection, None),
    ("page-390x844-hud", (390, 844), flick_with_projection, ".readouts"),
    ("page-390x844-settings", (390, 844), None, "#settings"),
    ("page-scene-1400x1000", (1400, 1000), scene_with_a_sheet, ".lifecycle"),
    ("page-shortcuts-1400x1000", (1400, 1000), open_shortcuts, None),
]


def shoot(driver, server, name, size, action, scroll, out):
    width, height = size
    set_viewport(driver, width, height, mobile=width < 760)
    page = Page(driver, server.page).open()
    if action:
        action(page)
    if scroll:
        page.js("document.querySelector(arguments[0]).scrollIntoView()", scroll)
    # The URL shows what a reader would share; the screenshot is of the page, not of ?test.
    page.paint()
    problems = layout_problems(page, width)
    bad = {key: value for key, value in problems.items() if isinstance(value, list) and value}
    if bad:
        raise SystemExit(f"{name}: the layout has problems, no screenshot written:\n{json.dumps(bad, indent=1)}")
    path = out / f"{name}.png"
    driver.save_screenshot(str(path))
    size_bytes = path.stat().st_size
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"{shown}: {width}×{height}, {size_bytes // 1024} KB")
    if size_bytes > MAX_BYTES:
        raise SystemExit(f"{path}: {size_bytes} bytes, over {MAX_BYTES}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--only", help="make only the shot with this name")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    driver = make_driver()
    try:
        for name, size, action, scroll in SHOTS:
            if args.only and name != args.only:
                continue
            server = Server()
            try:
                shoot(driver, server, name, size, action, scroll, args.out)
            finally:
                server.stop()
    finally:
        quit_driver(driver)


if __name__ == "__main__":
    main()
