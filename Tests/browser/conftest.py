"""Browser fixtures: one headless Chromium per test module (starting one costs seconds), a
fresh page on a fresh server for every test."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import Page, make_driver, quit_driver  # noqa: E402

from sandbox_env import BINARY, ROOT  # noqa: E402,F401 (the binary Tests/conftest.py starts)

ARTIFACTS = ROOT / "artifacts" / "browser"


@pytest.fixture(scope="module")
def driver():
    d = make_driver()
    yield d
    quit_driver(d)


@pytest.fixture(scope="module")
def phone():
    """A phone: 390 × 844 CSS px at 3×, touch events."""
    d = make_driver(mobile=True)
    yield d
    quit_driver(d)


@pytest.fixture
def page(driver, server):
    return Page(driver, server.page).open()


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
