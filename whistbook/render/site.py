"""The study site, built by ProperDocs (the continuation of MkDocs 1.x) from
generated Markdown pages.

:func:`render_site_sources` writes nothing: it returns the pages (one per
lesson, one per theme, a home page, the principles and the glossary), the
theme overrides and the navigation. :func:`build_site` writes them into a
sources folder and runs ProperDocs (strict) into the site folder.

Lesson pages are Markdown headings around raw HTML blocks rendered by the
same macros as the HTML pages and the booklet, so a lesson looks the same
everywhere; links between pages are Markdown links, which ProperDocs checks.
"""

from __future__ import annotations

import html
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import jinja2
import yaml
from markupsafe import Markup

from ..errors import RenderError, naming
from ..lesson import Lesson, ThemeRef, themes_of
from .context import BookContext, Links, RenderOptions, book_context
from .environment import PACKAGE_TEMPLATES, render_template, template_source
from .logs import warnings_of
from .html import LOCAL_STYLESHEET, SCREEN_STYLESHEETS
from ..cards import RANK_NAMES, Card, Suit, parse_rank
from .markup import CARD_PATTERN, card_of_match

SITE_LINKS = Links(root="../", principles="../principles.html", lesson_pattern="lessons/{slug}.html")
#: files of the readthedocs theme that whistbook overrides (rendered by ProperDocs, not by whistbook)
THEME_FILES = ("footer.html", "search.html", "searchbox.html", "versions.html", "js/whistbook-search.js")
DEFAULT_CONFIG = PACKAGE_TEMPLATES / "site" / "mkdocs.yml"
#: the lessons' play-along script, shared with the HTML pages; on every site page when the templates have it
PLAY_SCRIPT = "js/whistbook.js"
#: the page setting (Markdown front matter) that holds a lesson's search entry; the
#: whistbook-search plugin puts it in the index in place of the page's text
SEARCH_META = "whistbook_search"
#: what a card the known hand cannot see becomes in a search entry
UNSEEN_CARD = "…"
#: a card named in words: "the king of hearts", "the Knave of trumps"
CARD_WORDS = re.compile(
    r"\b(?P<rank>" + "|".join(RANK_NAMES.values()) + r"|jack)\s+of\s+(?P<suit>spades|hearts|diamonds|clubs|trumps)\b",
    re.IGNORECASE,
)


@dataclass
class SiteSources:
    #: Markdown pages and CSS, relative to the docs folder
    docs: dict[str, str] = field(default_factory=dict)
    #: theme overrides, relative to the theme's custom_dir
    theme: dict[str, str] = field(default_factory=dict)
    #: the site's navigation (ProperDocs' nav setting)
    nav: list[Any] = field(default_factory=list)


def render_site_sources(
    lessons: Sequence[Lesson] | BookContext,
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(medium="site"),
    title: str = "Whistbook",
) -> SiteSources:
    """The site's pages, theme overrides and navigation. ``lessons`` may be the
    book's context, derived once for every writer; its chapters, when the book
    has them, group the navigation and the home page (else the themes do).

    :raises RenderError: when a template fails.
    """
    book = lessons if isinstance(lessons, BookContext) else book_context(lessons, env, rules=rules)
    hands, problems, themes = book.hands, book.problems, book.themes
    by_theme = lessons_by_main_theme(hands, themes)
    chapters = chapter_sections(book.chapters)
    out = SiteSources()
    lesson_ctx = dict(options=options, links=SITE_LINKS)
    for lesson in hands + problems:
        out.docs[lesson_page(lesson)] = lesson_source(lesson, env, options)
    for theme, members in themes:
        out.docs[f"themes/{theme.slug}.md"] = render_template(env, "site/theme.md", theme=theme, members=members, **lesson_ctx)
    top = Links(root="", principles="principles.html", lesson_pattern="lessons/{slug}.html")
    out.docs["index.md"] = render_template(
        env, "site/index.md", title=title, hands=hands, problems=problems, themes=themes, by_theme=by_theme,
        chapters=chapters, options=options, links=top,
    )
    out.docs["principles.md"] = render_template(env, "site/principles.md", rules=book.rules, options=options, links=top)
    out.docs["glossary.md"] = render_template(env, "site/glossary.md", options=options, links=top)
    out.docs["css/whistbook.css"] = "\n".join(
        template_source(env, name) for name in (*SCREEN_STYLESHEETS, "css/site.css", LOCAL_STYLESHEET)
    )
    if (PACKAGE_TEMPLATES / PLAY_SCRIPT).is_file():
        out.docs[PLAY_SCRIPT] = template_source(env, PLAY_SCRIPT)
    for name in THEME_FILES:
        out.theme[name] = template_source(env, f"site/theme/{name}")
    out.nav = navigation(by_theme, problems, chapters)
    return out


def navigation(by_theme: Sequence[tuple[ThemeRef, list[Lesson]]], problems: Sequence[Lesson],
               chapters: Sequence[tuple[str, list[Lesson]]] = ()) -> list[Any]:
    """The site's navigation (ProperDocs' ``nav``): each hand once, under its
    chapter when the book has chapters (the themes' overviews then follow in a
    section of their own), else under its main theme after the theme's overview."""
    def pages(members: Sequence[Lesson]) -> list[dict[str, str]]:
        return [{l.title: lesson_page(l)} for l in members]

    nav: list[Any] = [{"Home": "index.md"}]
    if chapters:
        nav += [{caption: pages(members)} for caption, members in chapters]
    else:
        for theme, members in by_theme:
            # the overview keeps its own title (the theme's), which the search results and the tab show
            overview = f"themes/{theme.slug}.md"
            nav.append({theme.title: [overview] + pages(members)} if members else {theme.title: overview})
    if problems:
        nav.append({"Problems": pages(problems)})
    if chapters:
        nav.append({"Themes": [{theme.title: f"themes/{theme.slug}.md"} for theme, _ in by_theme]})
    # a section of their own: after a section, the theme would show loose pages under its caption
    nav.append({"Reference": [{"Principles of play": "principles.md"}, {"Glossary": "glossary.md"}]})
    return nav


def chapter_sections(chapters: Sequence[tuple[str, list[Lesson]]]) -> list[tuple[str, list[Lesson]]]:
    """The book's chapters as the site's sections: hands named before any chapter
    are "Hands", and those after a chapter that none names "More hands"."""
    return [(title or ("Hands" if k == 0 else "More hands"), members) for k, (title, members) in enumerate(chapters)]


def lesson_page(lesson: Lesson) -> str:
    """A lesson's page, relative to the docs folder."""
    return f"lessons/{lesson.slug}.md"


def lesson_source(lesson: Lesson, env: jinja2.Environment, options: RenderOptions = RenderOptions(medium="site")) -> str:
    """A lesson's Markdown page, its search entry first (as front matter).

    :raises RenderError: when a template fails.
    """
    entry = yaml.safe_dump({SEARCH_META: search_text(lesson, env)}, allow_unicode=True, width=1_000_000)
    body = render_template(env, "site/lesson.md", lesson=lesson, options=options, links=SITE_LINKS)
    return f"---\n{entry}---\n\n{body}"


def search_text(lesson: Lesson, env: jinja2.Environment) -> str:
    """What the site's search holds of a lesson (``site/search.txt``): only what the
    reader may see before the play starts, as one line of plain text."""
    seen = {c for s in lesson.known_hand.suits for c in s.cards} if lesson.known_hand else set()
    if lesson.turn_up is not None:
        seen.add(lesson.turn_up)

    def plain(markdown: str) -> str:
        """Markdown as plain text, each card the known hand cannot see, in
        symbols or in words, written as UNSEEN_CARD."""
        def card(m: re.Match) -> str:
            found = card_of_match(m)
            return m.group(0) if found is None or found in seen else UNSEEN_CARD

        def named(m: re.Match) -> str:
            suit = m.group("suit").lower()
            found = Card(lesson.trumps if suit == "trumps" else Suit.parse(suit), parse_rank(m.group("rank")))
            return m.group(0) if found in seen else UNSEEN_CARD

        # cards in symbols before rendering (their shorthand, {KH}, is gone after
        # it), cards in words after (emphasis, "the **king** of hearts", splits them before)
        rendered = env.globals["remarks"].render(CARD_PATTERN.sub(card, markdown), "")  # type: ignore[union-attr]
        return CARD_WORDS.sub(named, Markup(rendered).striptags())

    return " ".join(render_template(env, "site/search.txt", lesson=lesson, plain=plain).split())


def main_theme(lesson: Lesson) -> str | None:
    """The slug of the theme a lesson's first themed tag names: where the navigation lists it."""
    for tag in lesson.tags:
        found = themes_of((tag,))
        if found:
            return found[0].slug
    return lesson.themes[0].slug if lesson.themes else None


def lessons_by_main_theme(
    hands: Sequence[Lesson], themes: Sequence[tuple[ThemeRef, list[Lesson]]]
) -> list[tuple[ThemeRef, list[Lesson]]]:
    """Each theme with the hands listed under it in the navigation, in book order.

    A hand touches several themes (its theme page lists it under each), but a
    navigation lists a page once; it goes under its main theme, or under the
    last theme ("Other hands") when none of its tags names one.
    """
    return [(theme, [l for l in hands if (main_theme(l) or "other") == theme.slug]) for theme, _ in themes]


def write_sources(sources: SiteSources, docs_dir: Path, theme_dir: Path) -> None:
    for base, files in ((docs_dir, sources.docs), (theme_dir, sources.theme)):
        for rel, text in files.items():
            path = base / rel
            with naming(path):
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")


def with_offline_search(plugins: Any) -> Any:
    """The configuration's plugins, with whistbook-search after search when the site has search:
    without it the index would hold every lesson's whole text, the deal included."""
    if isinstance(plugins, dict):  # the mapping form, name -> options
        return {**plugins, "whistbook-search": {}} if "search" in plugins and "whistbook-search" not in plugins \
            else plugins
    names = [next(iter(p)) if isinstance(p, dict) else str(p) for p in plugins or []]
    if "search" in names and "whistbook-search" not in names:
        return [*plugins, "whistbook-search"]
    return plugins


#: the Markdown extension that reads the pages' raw HTML blocks once (whistbook.render.site_markdown)
RAW_HTML_BLOCKS = "whistbook.render.site_markdown"


def with_raw_html_blocks(extensions: Any) -> Any:
    """The configuration's Markdown extensions, with whistbook's reading of raw
    HTML blocks last: the pages come out the same, made in a third of the time."""
    if isinstance(extensions, dict):  # the mapping form, name -> options
        return {**extensions, RAW_HTML_BLOCKS: {}} if RAW_HTML_BLOCKS not in extensions else extensions
    listed = list(extensions or [])
    names = [next(iter(e)) if isinstance(e, dict) else str(e) for e in listed]
    return listed if RAW_HTML_BLOCKS in names else [*listed, RAW_HTML_BLOCKS]


def build_site(
    sources: SiteSources,
    docs_dir: Path,
    theme_dir: Path,
    site_dir: Path,
    *,
    config_file: Path | None = None,
    site_name: str | None = None,
) -> None:
    """Write ``sources`` and run ProperDocs (strict) into ``site_dir``.

    ``config_file`` is the project's ``mkdocs.yml`` (site name, theme
    options, extra settings); whistbook sets its docs_dir, site_dir,
    theme custom_dir and nav, and ``site_name`` when given (the book's title,
    which the command line may override). Without one, whistbook's default is used.

    :raises RenderError: when ProperDocs reports a warning or an error.
    """
    from properdocs.commands.build import build as site_build

    write_sources(sources, docs_dir, theme_dir)
    with _properdocs_errors():
        site_build(site_config(sources.nav, docs_dir, theme_dir, site_dir, config_file=config_file,
                               site_name=site_name))


#: settings that ProperDocs' themes write into every page as HTML, unescaped (the book's name in
#: each page's title and header, the copyright in the footer): whistbook gives them escaped
TEXT_SETTINGS = ("site_name", "site_author", "site_description", "copyright")


def html_nav(nav: Any) -> Any:
    """The navigation with its titles escaped for HTML: the themes write a page's or a
    section's title into the page as it is, so a hand's title is given to them as HTML
    that reads as the title (``Q&amp;A`` shows ``Q&A``; ``<img ...>`` shows as written)."""
    if isinstance(nav, list):
        return [html_nav(item) for item in nav]
    if isinstance(nav, dict):
        return {html.escape(str(title)): html_nav(value) for title, value in nav.items()}
    return nav  # a page's path


def text_settings(raw: Mapping[str, Any], site_name: str | None = None) -> dict[str, str]:
    """The :data:`TEXT_SETTINGS` of a configuration (``site_name`` replaced when given),
    escaped for HTML: they are plain text, as in the booklet and the lesson pages."""
    found = {key: raw[key] for key in TEXT_SETTINGS if isinstance(raw.get(key), str)}
    if site_name:
        found["site_name"] = site_name
    return {key: html.escape(value) for key, value in found.items()}


def site_config(nav: list[Any], docs_dir: Path, theme_dir: Path, site_dir: Path, *, config_file: Path | None = None,
                site_name: str | None = None) -> Any:
    """ProperDocs' configuration of the site: the project's ``mkdocs.yml`` (or
    whistbook's default) with the folders, the navigation, the play-along script
    (when the docs folder has it) and the safe search index set by whistbook.
    The navigation's titles and the settings that are text (:data:`TEXT_SETTINGS`)
    are given as escaped HTML, which is what the themes take them for.

    :raises RenderError: when the configuration cannot be read or is not valid.
    """
    from properdocs.config import load_config

    config_file = config_file if config_file is not None and config_file.is_file() else DEFAULT_CONFIG
    try:
        raw = yaml.safe_load(config_file.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as err:
        raise RenderError(f"{config_file}: cannot read the site configuration: {err}") from err
    theme = raw.get("theme") or {"name": "readthedocs"}
    if isinstance(theme, str):
        theme = {"name": theme}
    theme = {**theme, "custom_dir": str(theme_dir)}
    plugins = with_offline_search(raw.get("plugins", ["search"]))
    extensions = with_raw_html_blocks(raw.get("markdown_extensions"))
    scripts = list(raw.get("extra_javascript") or [])
    if (docs_dir / PLAY_SCRIPT).is_file() and PLAY_SCRIPT not in scripts:
        scripts.append(PLAY_SCRIPT)
    return load_config(
        str(config_file), docs_dir=str(docs_dir), site_dir=str(site_dir), theme=theme,
        nav=html_nav(nav), extra_javascript=scripts, plugins=plugins, markdown_extensions=extensions, strict=True,
        **text_settings(raw, site_name),
    )


@contextmanager
def _properdocs_errors() -> Iterator[list[str]]:
    """ProperDocs' warnings and errors, turned into one RenderError (strict: a warning fails)."""
    from properdocs.exceptions import Abort, ProperDocsException

    with warnings_of("properdocs", only_here=True) as logged:
        try:
            yield logged
        except (Abort, ProperDocsException, SystemExit) as err:
            detail = "; ".join(logged) or str(err)
            raise RenderError(f"site: ProperDocs failed: {detail}") from None
        if logged:
            raise RenderError(f"site: ProperDocs failed: {'; '.join(logged)}")


__all__ = ["SiteSources", "render_site_sources", "lesson_page", "lesson_source", "search_text", "SEARCH_META", "write_sources", "build_site", "site_config", "SITE_LINKS", "html_nav", "text_settings", "TEXT_SETTINGS", "main_theme",
           "lessons_by_main_theme", "navigation", "chapter_sections"]
