"""Text from a hand file or the settings is text in every output (issue 27): the
site's generated Markdown, converted as ProperDocs converts it, the navigation
and settings given to ProperDocs, the search index, the lesson pages and the
booklet's HTML hold no element, attribute or link made from that text. The same
hostile strings are opened in Chromium in tests/browser/test_hostile_text.py."""

from __future__ import annotations

import html
import json
from html.parser import HTMLParser

import markdown
import pytest

from whistbook.inference import RULES
from whistbook.lesson import build_lesson
from whistbook.render.context import RenderOptions, book_context
from whistbook.render.environment import make_environment
from whistbook.render.html import render_html
from whistbook.render.markup import markdown_text
from whistbook.render.pdf import booklet_html
from whistbook.render.site import html_nav, navigation, render_site_sources, text_settings
from whistbook.render.site_search import index_script
from whistbook.project import Book

from render_support import HOSTILE, ORDINARY, checked_text, hostile_hand_text

_LINKING = {"href", "src", "srcset", "data", "action", "formaction", "poster", "background", "xlink:href"}


class _Elements(HTMLParser):
    """Every start tag with its attributes, and the text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parsed(page: str) -> _Elements:
    p = _Elements()
    p.feed(page)
    p.close()
    return p


def stray(page: str) -> list[str]:
    """What in ``page`` would run script or reach outside the pages: event attributes,
    frames and objects, and links or sources with a scheme or a host."""
    found = []
    for tag, attrs in parsed(page).tags:
        found += [f"{tag} {k}" for k in attrs if k.startswith("on")]
        if tag in ("iframe", "object", "embed", "frame", "base", "img") and not str(attrs.get("src", "")).startswith("data:"):
            found.append(tag)
        for k, v in attrs.items():
            value = (v or "").strip().lower()
            if k in _LINKING and (":" in value.split("/")[0] or value.startswith("//")) and not value.startswith("data:"):
                found.append(f"{tag} {k}={v}")
        if tag == "script" and "src" not in attrs and attrs.get("type") not in ("application/json",):
            found.append("inline script")
    return found


def site_markdown(source: str) -> str:
    """A generated page as ProperDocs converts it (the site's own Markdown settings)."""
    body = source.split("\n---\n", 1)[-1] if source.startswith("---\n") else source
    return markdown.markdown(body, extensions=["toc", "smarty", "whistbook.render.site_markdown"])


@pytest.fixture(scope="module")
def lessons():
    hostile = build_lesson(checked_text(hostile_hand_text(), "hands/hostile.yaml"))
    ordinary = build_lesson(checked_text(hostile_hand_text(ORDINARY), "hands/ordinary.yaml"))
    return [hostile, ordinary]


@pytest.mark.parametrize("text", [*HOSTILE.values(), ORDINARY])
@pytest.mark.parametrize("line", ["# {}", "- [{}](page.md) — *{}*", "{}", "### [{}](themes/x.md)"])
def test_markdown_text_reads_as_the_text_it_was_given(text, line):
    page = site_markdown(line.format(markdown_text(text), markdown_text(text)))
    assert not [s for s in stray(page) if "page.md" not in s and "themes/x.md" not in s], page
    shown = "".join(parsed(page).text)
    assert " ".join(text.split()) in shown, (shown, page)


def test_the_sites_pages_hold_the_text_and_nothing_it_could_run(lessons):
    env = make_environment(None, rules=RULES)
    book = book_context(lessons, env, rules=RULES, book=Book(title=HOSTILE["site_name"]),
                        chapters={lessons[0].slug: HOSTILE["chapter"]})
    sources = render_site_sources(book, env, options=RenderOptions(medium="site"), title=HOSTILE["site_name"])
    home = site_markdown(sources.docs["index.md"])
    assert HOSTILE["chapter"] in "".join(parsed(home).text)
    for name, source in sources.docs.items():
        if name.endswith(".md"):
            page = site_markdown(source)
            assert not stray(page), (name, stray(page))
    lesson_page = "".join(parsed(site_markdown(sources.docs[f"lessons/{lessons[0].slug}.md"])).text)
    for key in ("title", "theme"):
        assert HOSTILE[key] in lesson_page
    assert " ".join(HOSTILE["source"].split()) in lesson_page


def test_the_navigation_and_settings_go_to_properdocs_as_escaped_html(lessons):
    nav = html_nav(navigation([], [], [(HOSTILE["chapter"], lessons)]))
    captions = [next(iter(item)) for item in nav]
    assert html.escape(HOSTILE["chapter"]) in captions
    pages = next(v for item in nav for k, v in item.items() if k == html.escape(HOSTILE["chapter"]))
    assert [next(iter(p)) for p in pages] == [html.escape(HOSTILE["title"]), html.escape(ORDINARY)]

    def titles(node):
        if isinstance(node, list):
            return [t for item in node for t in titles(item)]
        if isinstance(node, dict):
            return [t for k, v in node.items() for t in [k, *titles(v)]]
        return []

    assert all(html.escape(html.unescape(t)) == t for t in titles(nav))  # every title escaped, none twice
    raw = {**{key: HOSTILE[key] for key in ("site_name", "copyright", "site_author", "site_description")},
           "repo_url": "https://example.org", "copyright_year": 1889}
    settings = text_settings(raw)
    assert settings == {key: html.escape(raw[key]) for key in ("site_name", "copyright", "site_author", "site_description")}
    assert text_settings(raw, "Q&A")["site_name"] == "Q&amp;A"


def test_the_search_script_holds_titles_as_text():
    index = {"docs": [{"location": "a.html", "title": html.escape(HOSTILE["title"]), "text": "x"},
                      {"location": "a.html#q", "title": "Q&amp;A ♠", "text": "y"}]}
    script = index_script(json.dumps(index))
    data = json.loads(script.split("=", 1)[1].rstrip().rstrip(";"))
    assert [d["title"] for d in data["docs"]] == [HOSTILE["title"], "Q&A ♠"]
    assert "</" not in script


def test_the_lesson_pages_and_the_booklet_escape_the_same_text(lessons):
    env = make_environment(None, rules=RULES)
    pages = render_html(lessons, env, rules=RULES)
    booklet = booklet_html(lessons, env, rules=RULES, title=HOSTILE["site_name"])
    for name, page in [*pages.items(), ("booklet", booklet)]:
        if name.endswith((".css", ".js")):
            continue
        assert not stray(page), (name, stray(page))
    shown = "".join(parsed(pages[f"{lessons[0].slug}.html"]).text)
    for key in ("title", "theme"):
        assert HOSTILE[key] in shown
    assert ORDINARY in "".join(parsed(pages[f"{lessons[1].slug}.html"]).text)
