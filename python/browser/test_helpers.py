"""The checks the browser tests rely on can fail: a page that throws, and a page that fetches
from the network, are caught."""

from __future__ import annotations

from helpers import console_errors, network_requests


def test_console_errors_catches_an_uncaught_exception(driver, tmp_path):
    page = tmp_path / "throws.html"
    page.write_text("<!doctype html><title>t</title><script>throw new Error('boom')</script>")
    driver.get(page.as_uri())
    errors = console_errors(driver)
    assert any("boom" in e for e in errors), errors


def test_network_requests_catches_a_remote_image(driver, tmp_path):
    page = tmp_path / "fetches.html"
    # A reserved name (RFC 2606): the request is attempted and fails, which is what is caught.
    page.write_text('<!doctype html><title>t</title><img src="http://shifu.invalid/x.png">')
    url = page.as_uri()
    driver.get(url)
    requests = [u for u in network_requests(driver) if u != url]
    assert requests == ["http://shifu.invalid/x.png"], requests
