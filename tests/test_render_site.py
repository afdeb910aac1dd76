"""The site: generated Markdown pages grouped by theme, principles and glossary,
built by ProperDocs in strict mode, with nothing loaded from outside."""

from __future__ import annotations

import re

import pytest

from whistbook.render.context import RenderOptions
from whistbook.render.environment import make_environment
from whistbook.render.site import build_site, render_site_sources

from render_support import BOSTON, CSS_EXTERNAL, EXTERNAL, ROOT, lesson


@pytest.fixture(scope="module")
def sources():
    from whistbook.inference import RULES

    env = make_environment(None, rules=RULES)
    return render_site_sources([lesson(analysis=True), lesson(BOSTON, inference=False)], env,
                               options=RenderOptions(medium="site"))


def test_pages_for_lessons_themes_principles_and_glossary(sources):
    from whistbook.inference import RULES

    docs = sources.docs
    assert "lessons/01-trump-lead-on-established-suit.md" in docs
    assert "lessons/02-boston-problem.md" in docs
    assert {"themes/leads.md", "themes/second-and-third-hand.md", "themes/trumps.md"} <= set(docs)
    assert all(f'id="rule-{rule_id}"' in docs["principles.md"] for rule_id in RULES)
    assert "**Tenace**" in docs["glossary.md"]
    page = docs["lessons/01-trump-lead-on-established-suit.md"]
    assert page.startswith("# Hand I\n")
    assert "\n## The play\n" in page and "\n## The hands\n" in page
    assert page.count('class="trick-svg"') == 10
    assert 'href="../principles.html#rule-' in page
    nav = [next(iter(item)) for item in sources.nav]
    assert nav == ["Home", "Leads", "Second and third hand", "Trumps", "Problems", "Reference"]


def test_the_navigation_lists_each_hand_once_under_its_main_theme(sources):
    # Hand I is tagged leads, trumps, second-hand: its first tag makes it a lesson on leads
    nav = {next(iter(item)): next(iter(item.values())) for item in sources.nav}
    assert nav["Leads"] == ["themes/leads.md", {"Hand I": "lessons/01-trump-lead-on-established-suit.md"}]
    # themes it touches only in passing keep their overview page, which lists it
    assert nav["Trumps"] == "themes/trumps.md"
    assert "lessons/01-trump-lead-on-established-suit.md" in sources.docs["themes/trumps.md"]
    listed = re.findall(r"lessons/[\w-]+\.md", str(sources.nav))
    assert sorted(listed) == sorted(set(listed)) == sorted(p for p in sources.docs if p.startswith("lessons/"))


def test_raw_html_blocks_hold_no_blank_or_indented_lines(sources):
    page = sources.docs["lessons/01-trump-lead-on-established-suit.md"]
    for block in re.findall(r'<div class="whistbook-lesson">\n(.*?)\n</div>\n\n', page, flags=re.S):
        assert all(line and not line[0].isspace() for line in block.splitlines())


@pytest.mark.slow
def test_mkdocs_builds_the_site_strictly(sources, tmp_path):
    build_site(sources, tmp_path / "src", tmp_path / "theme", tmp_path / "site", config_file=ROOT / "mkdocs.yml")
    site = tmp_path / "site"
    assert (site / "index.html").is_file()
    assert (site / "lessons" / "01-trump-lead-on-established-suit.html").is_file()
    assert (site / "search" / "search_index.json").is_file()
    for path in site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not EXTERNAL.search(text), path
    for path in site.rglob("*.css"):
        assert not CSS_EXTERNAL.search(path.read_text(encoding="utf-8")), path
    lesson_page = (site / "lessons" / "01-trump-lead-on-established-suit.html").read_text(encoding="utf-8")
    assert 'href="../css/whistbook.css"' in lesson_page
    assert "Made with whistbook" in lesson_page


@pytest.mark.slow
def test_a_broken_link_fails_the_strict_build(sources, tmp_path):
    from whistbook.errors import RenderError

    sources.docs["glossary.md"] += "\nSee [nowhere](no-such-page.md).\n"
    try:
        with pytest.raises(RenderError, match="no-such-page"):
            build_site(sources, tmp_path / "src", tmp_path / "theme", tmp_path / "site",
                       config_file=ROOT / "mkdocs.yml")
    finally:
        sources.docs["glossary.md"] = sources.docs["glossary.md"].split("\nSee [nowhere]")[0]
