"""Lesson pages as standalone HTML (``output/html/``).

:func:`render_lesson` renders one page; :func:`render_html` renders the whole
set (lessons, an index, the principles, the glossary and the stylesheet) as
a mapping of relative paths to text, for :func:`whistbook.output.write_files`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import jinja2

from ..lesson import Lesson
from ..views import BrokenView
from .context import BookContext, Links, RenderOptions, book_context
from .environment import render_template, template_source

#: the stylesheets of a page on screen, joined into one file (the booklet uses css/print.css instead of screen.css)
SCREEN_STYLESHEETS = ("css/whistbook.css", "css/screen.css")
#: a project's own styles (templates/css/local.css), loaded after every other stylesheet
LOCAL_STYLESHEET = "css/local.css"
#: the one script of the pages and the site: the play-along (plain JavaScript, no network)
SCRIPT = "js/whistbook.js"


def render_lesson(
    lesson: Lesson,
    env: jinja2.Environment,
    *,
    options: RenderOptions = RenderOptions(),
    links: Links = Links(),
    previous: Lesson | None = None,
    next: Lesson | None = None,
) -> str:
    """One lesson (or problem) as a standalone HTML page.

    :raises RenderError: when a template fails.
    """
    return render_template(
        env, "lesson.html", lesson=lesson, options=options, links=links, previous=previous, next=next,
    )


def render_html(
    lessons: Sequence[Lesson] | BookContext,
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(),
    broken: Sequence[BrokenView] = (),
) -> dict[str, str]:
    """Every page of ``output/html/``: path relative to that folder -> text.
    ``lessons`` may be the book's context, derived once for every writer;
    ``broken`` the hand files with errors, each shown as a page of its errors
    and listed at the head of the index (``build --keep-going``).

    :raises RenderError: when a template fails.
    """
    links = Links()
    book = lessons if isinstance(lessons, BookContext) else book_context(lessons, env, rules=rules)
    hands, problems, themes = book.hands, book.problems, book.themes
    pages = lesson_pages(hands + problems, env, options=options, links=links)
    common = dict(options=options, links=links)
    for b in broken:
        pages[f"{b.slug}.html"] = render_template(env, "broken.html", broken=b, **common)
    pages["index.html"] = render_template(env, "index.html", themes=themes, problems=problems, broken=broken,
                                          **common)
    pages["principles.html"] = render_template(env, "principles.html", rules=book.rules, **common)
    pages["glossary.html"] = render_template(env, "glossary.html", glossary=book.glossary, **common)
    pages["whistbook.css"] = screen_css(env)
    pages["whistbook.js"] = script_js(env)
    return pages


def lesson_pages(ordered: Sequence[Lesson], env: jinja2.Environment, *, options: RenderOptions = RenderOptions(),
                 links: Links = Links(), only: frozenset[str] | None = None) -> dict[str, str]:
    """The pages of the lessons in ``ordered`` (the hands, then the problems), each
    linking to the one before and after it; only those whose slugs are in ``only``
    when it is given.

    :raises RenderError: when a template fails.
    """
    pages: dict[str, str] = {}
    for k, lesson in enumerate(ordered):
        if only is None or lesson.slug in only:
            pages[f"{lesson.slug}.html"] = render_lesson(
                lesson, env, options=options, links=links,
                previous=ordered[k - 1] if k > 0 else None,
                next=ordered[k + 1] if k + 1 < len(ordered) else None,
            )
    return pages


def screen_css(env: jinja2.Environment) -> str:
    """The stylesheet of pages on screen (overridable file by file like the templates)."""
    return "\n".join(template_source(env, name) for name in (*SCREEN_STYLESHEETS, LOCAL_STYLESHEET))


def script_js(env: jinja2.Environment) -> str:
    """The play-along's script, shared by the pages and the site (overridable like a template)."""
    return template_source(env, SCRIPT)


__all__ = ["render_lesson", "render_html", "lesson_pages", "screen_css", "script_js", "SCREEN_STYLESHEETS", "SCRIPT",
           "LOCAL_STYLESHEET"]
