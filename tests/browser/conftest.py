"""Browser tests: the play-along in Debian's Chromium, driven by Playwright.

Playwright's own browser download cannot work offline, so the tests launch
the system Chromium (``/usr/bin/chromium``); without it (or without
Playwright) they skip with one line saying why.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _skip_reason() -> str | None:
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        return "browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests need Playwright (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session")
def pages(tmp_path_factory) -> Path:
    """Hand I (with its double-dummy analysis), Hand X and the Boston problem, rendered into a folder."""
    from render_support import BOSTON, HANDS, HAND_I, lesson

    from whistbook.inference import RULES
    from whistbook.render.environment import make_environment
    from whistbook.render.html import render_html

    out = tmp_path_factory.mktemp("html")
    hand_x = next(iter(sorted((HANDS / "cavendish").glob("10-*.yaml"))))
    lessons = [lesson(HAND_I, analysis=True), lesson(hand_x), lesson(BOSTON, inference=False)]
    for name, text in render_html(lessons, make_environment(None, rules=RULES), rules=RULES).items():
        (out / name).write_text(text, encoding="utf-8")
    return out


@pytest.fixture(scope="session")
def browser():
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        exe = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
        b = p.chromium.launch(executable_path=exe, args=ARGS)
        yield b
        b.close()


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
