"""Browser tests on Debian's Chromium, driven by Playwright (its own browser
download cannot work offline, so the system one is launched by path). Without
Chromium or Playwright they skip with one line saying why."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]


def chromium_path() -> str | None:
    if CHROMIUM.is_file():
        return str(CHROMIUM)
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium at /usr/bin/chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()
