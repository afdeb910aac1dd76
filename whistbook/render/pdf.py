"""The study booklet as PDF, with WeasyPrint.

The booklet is one HTML document (``booklet.html``): a cover, contents with
page numbers, each lesson from a new page, the lessons by theme, the
principles and the glossary. Headings of lessons become PDF bookmarks.

Every resource goes through :class:`AssetFetcher`, which allows ``data:``
URLs and files inside whistbook's own ``assets`` folder and stops the render
for anything else, so nothing a hand file writes can make the build fetch
from the network or read a file elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping, Sequence
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import jinja2

from ..errors import RenderError
from ..lesson import Lesson
from .context import Links, RenderOptions, glossary_html, rule_views, rules_of, split_lessons
from .environment import render_template, template_source

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
PAPERS = {"a5": "A5", "a4": "A4"}
BOOKLET_LINKS = Links(root="", principles="", lesson_pattern="#{slug}-lesson")


def _weasyprint():
    # WeasyPrint takes a while to import; only the booklet needs it.
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError, URLFetcher

    return weasyprint, URLFetcher, FatalURLFetchingError


def make_fetcher(roots: Sequence[Path] = (ASSETS_DIR,)):
    """An URL fetcher that allows ``data:`` URLs and ``file:`` URLs under ``roots`` only."""
    _, URLFetcher, FatalURLFetchingError = _weasyprint()
    allowed = tuple(Path(r).resolve() for r in roots)

    class AssetFetcher(URLFetcher):
        """Refuses, fatally, every URL but ``data:`` and whistbook's own assets."""

        def __init__(self) -> None:
            super().__init__(timeout=2, allowed_protocols={"data", "file"}, allow_redirects=False)

        def fetch(self, url, headers=None):
            scheme = url.split(":", 1)[0].lower() if ":" in url else ""
            if scheme == "data":
                return super().fetch(url, headers)
            if scheme == "file":
                path = Path(url2pathname(unquote(urlsplit(url).path))).resolve()
                if path.is_file() and any(path.is_relative_to(root) for root in allowed):
                    return super().fetch(url, headers)
            raise FatalURLFetchingError(f"the booklet may use only whistbook's own assets, not {url!r}")

    return AssetFetcher()


def booklet_html(
    lessons: Sequence[Lesson],
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(medium="print", analysis=False),
    title: str = "Whistbook",
) -> str:
    """The booklet as one HTML document (what WeasyPrint lays out).

    :raises RenderError: when a template fails.
    """
    hands, problems, themes = split_lessons(lessons)
    return render_template(
        env, "booklet.html", hands=hands, problems=problems, themes=themes,
        rules=rule_views(rules_of(env, rules)), glossary=glossary_html(env),
        options=options, links=BOOKLET_LINKS, title=title,
    )


_BLOCK = re.compile(r"([^{}]*)\{([^{}]*)\}")
_DECLARATION = re.compile(r"(--[\w-]+)\s*:\s*([^;}]+)")
_VAR = re.compile(r"var\((--[\w-]+)\)")


def resolve_variables(css: str, classes: tuple[str, ...] = ()) -> str:
    """Replace ``var(--x)`` by the value declared for ``--x`` on ``:root`` (or on
    one of ``classes`` of the root element, such as ``.four-colour``).

    WeasyPrint resolves custom properties for every element, which costs a
    good share of the booklet's layout time; the booklet sets them once.
    """
    values: dict[str, str] = {}
    wanted = {":root", "html", *classes}
    for selector, body in _BLOCK.findall(css):
        sel = selector.split("*/")[-1].strip()
        if sel in wanted or sel.replace("html", "").strip() in classes:
            values.update((k, v.strip()) for k, v in _DECLARATION.findall(body))
    for _ in range(4):  # values may refer to other values
        css, n = _VAR.subn(lambda m: values.get(m.group(1), m.group(0)), css)
        if not n:
            break
    if "var(" not in css:
        css = re.sub(r"--[\w-]+\s*:[^;}]+;?", "", css)
    return css


def booklet_css(env: jinja2.Environment, paper: str, *, four_colour: bool = False) -> str:
    """The booklet's stylesheet: the shared one, print.css and the paper size.

    :raises RenderError: for an unknown paper.
    """
    if paper not in PAPERS:
        raise RenderError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    css = "\n".join((
        template_source(env, "css/whistbook.css"),
        template_source(env, "css/print.css"),
        f"@page {{ size: {PAPERS[paper]}; }}",
    ))
    return resolve_variables(css, (".four-colour",) if four_colour else ())


def render_booklet_document(
    lessons: Sequence[Lesson],
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(medium="print", analysis=False),
    html: str | None = None,
):
    """Lay the booklet out: a ``weasyprint.Document`` (``.pages``,
    ``.make_bookmark_tree()``, ``.write_pdf()``).

    :raises RenderError: when a template fails or a resource is refused.
    """
    weasyprint, _, FatalURLFetchingError = _weasyprint()
    if html is None:
        html = booklet_html(lessons, env, rules=rules, options=options)
    fetcher = make_fetcher()
    base = ASSETS_DIR.as_uri() + "/"
    try:
        css = weasyprint.CSS(string=booklet_css(env, options.paper, four_colour=options.four_colour),
                             base_url=base, url_fetcher=fetcher)
        doc = weasyprint.HTML(string=html, base_url=base, url_fetcher=fetcher, media_type="print")
        return doc.render(stylesheets=[css])
    except FatalURLFetchingError as err:
        raise RenderError(f"booklet: {err}") from None


def render_booklet(
    lessons: Sequence[Lesson],
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(medium="print", analysis=False),
) -> bytes:
    """The booklet as PDF bytes.

    :raises RenderError: when a template fails or a resource is refused.
    """
    return render_booklet_document(lessons, env, rules=rules, options=options).write_pdf()


__all__ = ["render_booklet", "render_booklet_document", "booklet_html", "booklet_css", "resolve_variables", "make_fetcher",
           "ASSETS_DIR", "PAPERS"]
