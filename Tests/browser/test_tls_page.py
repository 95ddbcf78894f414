"""The page over https: loaded from `sandbox serve --tls-cert … --tls-key …`, it opens
its WebSocket with wss: (web/js/main.js derives the scheme from `location`) and works as over
http. The certificate is self-signed, made at test time; Chromium is told to accept it with
--ignore-certificate-errors (a test browser has no way to trust a CA made a second ago)."""
import pytest

from browser import Page, make_driver, quit_driver
from sandbox_env import self_signed_certificate


@pytest.fixture(scope="module")
def tls_driver():
    d = make_driver(flags=("--ignore-certificate-errors",))
    yield d
    quit_driver(d)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    return self_signed_certificate(tmp_path_factory.mktemp("tls"))


def test_the_page_over_https_connects_with_wss_and_drags(tls_driver, make_server, certificate):
    server = make_server("--tls-cert", str(certificate[0]), "--tls-key", str(certificate[1]))
    assert server.page.startswith("https://")
    page = Page(tls_driver, server.page).open()  # waits until the page's socket is open
    assert page.js("return location.protocol") == "https:"
    # The server saw the page's WebSocket arrive over TLS (the only way into this port).
    assert "connection opened" in server.stderr_text()
    page.drag([(60 + 170 * i / 12, 400) for i in range(13)])  # past the threshold, as test_page
    assert page.wait_rest() == "finished"
