"""Drives the page in Debian's headless Chromium through Selenium: W3C pointer actions in
container points, waits on the page's own state (`window.sandbox`), never on a sleep."""
import base64
import shutil
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/lib/chromium/chromium"  # the real binary, not Debian's wrapper script
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
TIMEOUT = 15
MOVE_EVERY_S = 1 / 60  # Page.drag's pointer rate
# Between two looks at a wait's condition: short, so a wait returns while a brief state (a
# rotation's half second) still holds; test_orientation_page.py reads one right after a wait.
POLL = 0.05

# Waits for two animation frames, so the latest state has been drawn.
AFTER_PAINT = "const done = arguments[arguments.length - 1];" \
              "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));"

# The canvas pixels as one flat RGBA list is too big to ship; compare inside the page instead.
SNAPSHOT = """
const canvas = document.getElementById('screen');
const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
window.__snapshots = window.__snapshots || {};
window.__snapshots[arguments[0]] = data;
return data.length;
"""

DIFFERENCE = """
const [a, b] = [window.__snapshots[arguments[0]], window.__snapshots[arguments[1]]];
if (a.length !== b.length) return null;
let sum = 0, differing = 0;
for (let i = 0; i < a.length; i += 4) {
  const d = Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
  sum += d;
  if (d > 48) differing += 1;
}
return {mean: sum / (a.length / 4) / 3, differing: differing / (a.length / 4)};
"""

# The mean colour of a container-point rectangle of the canvas.
MEAN_COLOUR = """
const [x, y, w, h] = arguments[0];
const canvas = document.getElementById('screen');
const k = canvas.width / window.sandbox.config.container[0];
const data = canvas.getContext('2d').getImageData(Math.round(x * k), Math.round(y * k),
                                                   Math.round(w * k), Math.round(h * k)).data;
const mean = [0, 0, 0];
for (let i = 0; i < data.length; i += 4) { mean[0] += data[i]; mean[1] += data[i + 1]; mean[2] += data[i + 2]; }
return mean.map((v) => v / (data.length / 4));
"""


def make_driver(width=1280, height=1000, mobile=False, flags=()):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="sandbox-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--user-data-dir={profile}", f"--window-size={width},{height}",
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding", *flags):
        options.add_argument(flag)
    downloads = Path(profile) / "downloads"
    downloads.mkdir()
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False})
    if mobile:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True}})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.profile_dir = profile
    driver.downloads = downloads
    return driver


def quit_driver(driver):
    driver.quit()
    shutil.rmtree(driver.profile_dir, ignore_errors=True)


def with_test_query(url):
    """The page's URL with `?test` added to its query (web/js/testHooks.js)."""
    return f"{url}{'&' if '?' in url else '?'}test"


class Page:
    def __init__(self, driver, url):
        """`url` is the page's; it is opened with `?test`, the query that installs `window.sandbox`."""
        self.driver = driver
        self.url = with_test_query(url)

    def open(self):
        self.driver.get(self.url)
        self.wait("window.sandbox && window.sandbox.connected && window.sandbox.phase !== null")
        self.outcomes_before = 0
        self.paint()
        return self

    # --- state -------------------------------------------------------------------------
    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def get(self, name):
        return self.js(f"return window.sandbox.{name}")

    def wait(self, condition, timeout=TIMEOUT, message=None):
        WebDriverWait(self.driver, timeout, poll_frequency=POLL).until(
            lambda d: d.execute_script(f"return Boolean({condition})"),
            message or f"timed out waiting for {condition}")

    def paint(self):
        self.driver.execute_async_script(AFTER_PAINT)

    def wait_echo(self):
        """Waits for the server's frame acknowledging the last pointer message sent."""
        self.wait("window.sandbox.seq > 0 && window.sandbox.ack >= window.sandbox.seq")

    def wait_rest(self, outcome=None):
        """Waits for the next outcome after the last drag (finished or cancelled, or the one
        named), then for the page's follow-up settings (the auto-reverse) and a paint."""
        self.wait(f"window.sandbox.outcomes.length > {self.outcomes_before}")
        outcomes = self.get("outcomes")
        if outcome:
            assert outcomes[self.outcomes_before] == outcome, outcomes
        self.wait("['idle', 'finished', 'cancelled'].includes(window.sandbox.phase)"
                  " && window.sandbox.pendingRequests === 0")
        self.paint()
        return outcomes[self.outcomes_before]

    # --- the form ------------------------------------------------------------------------
    def set_field(self, name, value):
        """Types a value into a settings control and commits it (a `change` event)."""
        self.js("""
            const control = document.getElementById('settings').elements[arguments[0]];
            control.value = arguments[1];
            control.dispatchEvent(new Event('change', {bubbles: true}));
        """, name, value)

    def configure(self, name, value, check):
        """Sets a field and waits until the server's configuration says `check`."""
        self.set_field(name, value)
        self.wait(f"window.sandbox.config && {check}")
        self.wait("['idle', 'finished', 'cancelled'].includes(window.sandbox.phase)")
        self.paint()

    def field_error(self, field):
        return self.js("return document.querySelector(`.field-error[data-field='${arguments[0]}']`).textContent",
                       field)

    # --- pixels --------------------------------------------------------------------------
    def snapshot(self, name):
        self.js(SNAPSHOT, name)

    def difference(self, a, b):
        return self.js(DIFFERENCE, a, b)

    def mean_colour(self, rect):
        return self.js(MEAN_COLOUR, list(rect))

    def capture_when(self, name, condition):
        """Arms a snapshot of the canvas, taken in the page as soon as `condition` holds and
        two more frames were painted: the way to see the middle of one uninterrupted gesture
        (chromedriver cancels pointer capture between two separate action sequences)."""
        self.js("""
            const [name, condition] = arguments;
            const holds = new Function(`return Boolean(${condition})`);
            if (window.__pictures) delete window.__pictures[name];
            let settle = -1;
            const look = () => {
              if (settle < 0 && holds()) settle = 2;
              if (settle > 0) settle -= 1;
              else if (settle === 0) {
                const canvas = document.getElementById('screen');
                window.__snapshots = window.__snapshots || {};
                window.__snapshots[name] = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                window.__pictures = window.__pictures || {};
                window.__pictures[name] = canvas.toDataURL('image/png');
                return;
              }
              requestAnimationFrame(look);
            };
            requestAnimationFrame(look);
        """, name, condition)

    def captured(self, name, path=None):
        self.wait(f"window.__pictures && window.__pictures[{name!r}] !== undefined")
        if path:
            data = self.js(f"return window.__pictures[{name!r}]")
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_bytes(base64.b64decode(data.split(",", 1)[1]))

    def screenshot(self, path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.driver.find_element("id", "screen").screenshot(str(path))

    # --- pointers ------------------------------------------------------------------------
    def client_point(self, x, y):
        cx, cy = self.js("return window.sandbox.containerToClient(arguments[0], arguments[1])", x, y)
        return int(round(cx)), int(round(cy))

    def drag(self, points, kind="mouse", release=True):
        """Presses at points[0], moves through the rest (one zero-duration move each 1/60 s, a
        60 Hz pointer: the page takes raw, unaligned input, so without the pause chromedriver's
        moves would come back to back; ("pause", ms) holds still), and releases unless told not to;
        waits for the server's echo of the last pointer message. Keep a gesture in one call:
        chromedriver cancels the pointer capture between two action sequences."""
        self.outcomes_before = len(self.get("outcomes"))
        pointer = PointerInput(interaction.POINTER_TOUCH if kind == "touch" else interaction.POINTER_MOUSE, kind)
        actions = ActionBuilder(self.driver, mouse=pointer, duration=0)
        x, y = self.client_point(*points[0])
        actions.pointer_action.move_to_location(x, y)
        actions.pointer_action.pointer_down()
        for point in points[1:]:
            if point[0] == "pause":
                actions.pointer_action.pause(point[1] / 1000)
                continue
            x, y = self.client_point(*point)
            actions.pointer_action.move_to_location(x, y)
            actions.pointer_action.pause(MOVE_EVERY_S)
        if release:
            actions.pointer_action.pointer_up()
        actions.perform()
        self.wait_echo()

    def tap(self, x, y, kind="mouse"):
        self.drag([(x, y)], kind=kind)
