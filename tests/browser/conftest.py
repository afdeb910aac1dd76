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


@pytest.fixture(scope="session")
def pages(tmp_path_factory) -> Path:
    """Hand I (with its double-dummy analysis), Hand X and the Boston problem, rendered into a folder."""
    from render_support import BOSTON, HANDS, HAND_I, lesson

    from whistbook.inference import RULES
    from whistbook.render.environment import make_environment
    from whistbook.render.html import render_html

    out = tmp_path_factory.mktemp("html")
    hand_x = next(iter(sorted((HANDS / "cavendish").glob("10-*.yaml"))))
    lessons = [lesson(HAND_I, analysis=True, judge=True), lesson(hand_x), lesson(BOSTON, inference=False)]
    for name, text in render_html(lessons, make_environment(None, rules=RULES), rules=RULES).items():
        (out / name).write_text(text, encoding="utf-8")
    return out


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


@pytest.fixture
def open_page(context, pages):
    """Open a page of the rendered set; script errors fail the test."""
    errors: list[str] = []

    def go(name: str, fragment: str = ""):
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((pages / name).as_uri() + fragment)
        return page

    yield go
    assert not errors, errors
