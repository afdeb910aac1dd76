"""The study site in a real browser, opened from disk as a reader would open it:
search answers from file://, and axe-core finds no serious or critical WCAG 2.1 AA
violation on the home page, a lesson, a theme page or the search results."""

from __future__ import annotations

import pytest

from whistbook.render.context import RenderOptions
from whistbook.render.environment import make_environment
from whistbook.render.site import build_site, render_site_sources

from render_support import BOSTON, ROOT, lesson

pytestmark = pytest.mark.slow  # a site build and a browser: about a minute in all

HAND_I_PAGE = "lessons/01-trump-lead-on-established-suit.html"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Hand I and the Boston problem built into a site (the site alone: no booklet)."""
    from whistbook.inference import RULES

    env = make_environment(None, rules=RULES)
    sources = render_site_sources([lesson(analysis=True), lesson(BOSTON, inference=False)], env,
                                  options=RenderOptions(medium="site"))
    tmp = tmp_path_factory.mktemp("site")
    build_site(sources, tmp / "src", tmp / "theme", tmp / "site", config_file=ROOT / "mkdocs.yml")
    return tmp / "site"


def open_page(page, site, name):
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto((site / name.split("?")[0]).as_uri() + ("?" + name.split("?")[1] if "?" in name else ""))
    return errors


def test_search_from_the_sidebar_finds_pages_from_file_url(page, site):
    errors = open_page(page, site, HAND_I_PAGE)
    box = page.locator("#rtd-search-form input[name=q]")
    box.fill("tenace")
    box.press("Enter")
    page.wait_for_url("**/search.html?q=tenace")
    results = page.locator("#whistbook-search-results li a")
    results.first.wait_for(timeout=5000)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any(h.startswith("./glossary.html") for h in hrefs), hrefs
    assert all((site / h.split("#")[0]).is_file() for h in hrefs), hrefs
    assert "found for “tenace”" in page.locator("#whistbook-search-status").inner_text()
    assert not errors


def test_typing_on_the_search_page_narrows_and_says_when_nothing_is_found(page, site):
    errors = open_page(page, site, "search.html")
    query = page.locator("#whistbook-search-query")
    status = page.locator("#whistbook-search-status")
    query.fill("boston thirteen")  # the task's words: its idea ("squeeze") is not indexed, it would give it away
    page.locator("#whistbook-search-results li").first.wait_for(timeout=5000)
    titles = page.locator("#whistbook-search-results li a").all_inner_texts()
    assert "The Boston Double-Dummy Problem" in titles and not any(t.startswith("Hand I") for t in titles), titles
    query.fill("xylophone")
    page.wait_for_function("document.getElementById('whistbook-search-status').textContent.startsWith('Nothing')")
    assert page.locator("#whistbook-search-results li").count() == 0
    assert status.inner_text() == "Nothing found for “xylophone”."
    assert not errors


@pytest.mark.parametrize("query", ["Hand I", "long suit is made", "finesse with the ten"])
def test_search_finds_a_lesson_by_title_theme_or_a_remarks_words(page, site, query):
    """The index holds each lesson's safe entry alone (its title, theme and remarks, not the deal): enough to find it."""
    errors = open_page(page, site, "search.html")
    page.locator("#whistbook-search-query").fill(query)
    page.locator("#whistbook-search-results li").first.wait_for(timeout=5000)
    links = page.locator("#whistbook-search-results li a")
    found = {links.nth(i).inner_text(): links.nth(i).get_attribute("href") for i in range(links.count())}
    assert found.get("Hand I") == "./" + HAND_I_PAGE, found  # the lesson's start, not a trick part way through
    assert not errors


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", ["index.html", HAND_I_PAGE, "themes/leads.html", "search.html?q=trump"])
def test_axe_finds_no_serious_or_critical_violation(browser, site, name, width):
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        open_page(page, site, name)
        if "?q=" in name:
            page.locator("#whistbook-search-results li").first.wait_for(timeout=5000)
        result = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_AA}})
    finally:
        context.close()
    bad = [f"{v['id']} ({v['impact']}) ×{len(v['nodes'])}: {v['nodes'][0]['target']}"
           for v in result.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, bad


def test_the_play_along_script_runs_on_the_site_lesson(page, site):
    from whistbook.render.environment import PACKAGE_TEMPLATES
    from whistbook.render.site import PLAY_SCRIPT

    if not (PACKAGE_TEMPLATES / PLAY_SCRIPT).is_file():
        pytest.skip(f"no play-along script yet ({PLAY_SCRIPT})")
    errors = open_page(page, site, HAND_I_PAGE)
    assert page.locator(f'script[src$="{PLAY_SCRIPT}"]').count() == 1
    assert (site / PLAY_SCRIPT).is_file()
    assert not errors
