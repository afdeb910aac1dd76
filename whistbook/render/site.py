"""The study site, built by MkDocs from generated Markdown pages.

:func:`render_site_sources` writes nothing: it returns the pages (one per
lesson, one per theme, a home page, the principles and the glossary), the
theme overrides and the navigation. :func:`build_site` writes them into a
sources folder and runs MkDocs (strict) into the site folder.

Lesson pages are Markdown headings around raw HTML blocks rendered by the
same macros as the HTML pages and the booklet, so a lesson looks the same
everywhere; links between pages are Markdown links, which MkDocs checks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import jinja2
import yaml

from ..errors import RenderError
from ..lesson import Lesson
from .context import Links, RenderOptions, rule_views, rules_of, split_lessons
from .environment import PACKAGE_TEMPLATES, render_template, template_source
from .html import LOCAL_STYLESHEET, SCREEN_STYLESHEETS

SITE_LINKS = Links(root="../", principles="../principles.html", lesson_pattern="lessons/{slug}.html")
#: files of the MkDocs theme that whistbook overrides (rendered by MkDocs, not by whistbook)
THEME_FILES = ("footer.html",)
DEFAULT_CONFIG = PACKAGE_TEMPLATES / "site" / "mkdocs.yml"


@dataclass
class SiteSources:
    #: Markdown pages and CSS, relative to the docs folder
    docs: dict[str, str] = field(default_factory=dict)
    #: theme overrides, relative to the theme's custom_dir
    theme: dict[str, str] = field(default_factory=dict)
    #: MkDocs navigation
    nav: list[Any] = field(default_factory=list)


def render_site_sources(
    lessons: Sequence[Lesson],
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(medium="site"),
    title: str = "Whistbook",
) -> SiteSources:
    """The site's pages, theme overrides and navigation.

    :raises RenderError: when a template fails.
    """
    hands, problems, themes = split_lessons(lessons)
    out = SiteSources()
    lesson_ctx = dict(options=options, links=SITE_LINKS)
    for lesson in hands + problems:
        out.docs[f"lessons/{lesson.slug}.md"] = render_template(env, "site/lesson.md", lesson=lesson, **lesson_ctx)
    for theme, members in themes:
        out.docs[f"themes/{theme.slug}.md"] = render_template(env, "site/theme.md", theme=theme, members=members, **lesson_ctx)
    top = Links(root="", principles="principles.html", lesson_pattern="lessons/{slug}.html")
    out.docs["index.md"] = render_template(
        env, "site/index.md", title=title, hands=hands, problems=problems, themes=themes, options=options, links=top,
    )
    out.docs["principles.md"] = render_template(env, "site/principles.md", rules=rule_views(rules_of(env, rules)),
                                                options=options, links=top)
    out.docs["glossary.md"] = render_template(env, "site/glossary.md", options=options, links=top)
    out.docs["css/whistbook.css"] = "\n".join(
        template_source(env, name) for name in (*SCREEN_STYLESHEETS, "css/site.css", LOCAL_STYLESHEET)
    )
    for name in THEME_FILES:
        out.theme[name] = template_source(env, f"site/theme/{name}")
    out.nav = [
        {"Home": "index.md"},
        {"Themes": [{t.title: f"themes/{t.slug}.md"} for t, _ in themes]},
        {"Lessons": [{l.title: f"lessons/{l.slug}.md"} for l in hands]},
    ]
    if problems:
        out.nav.append({"Problems": [{l.title: f"lessons/{l.slug}.md"} for l in problems]})
    out.nav += [{"Principles of play": "principles.md"}, {"Glossary": "glossary.md"}]
    return out


def write_sources(sources: SiteSources, docs_dir: Path, theme_dir: Path) -> None:
    for base, files in ((docs_dir, sources.docs), (theme_dir, sources.theme)):
        for rel, text in files.items():
            path = base / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def build_site(
    sources: SiteSources,
    docs_dir: Path,
    theme_dir: Path,
    site_dir: Path,
    *,
    config_file: Path | None = None,
    site_name: str | None = None,
) -> None:
    """Write ``sources`` and run MkDocs (strict) into ``site_dir``.

    ``config_file`` is the project's ``mkdocs.yml`` (site name, theme
    options, extra settings); whistbook sets its docs_dir, site_dir,
    theme custom_dir and nav, and ``site_name`` when given (the book's title,
    which the command line may override). Without one, whistbook's default is used.

    :raises RenderError: when MkDocs reports a warning or an error.
    """
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, MkDocsException

    write_sources(sources, docs_dir, theme_dir)
    config_file = config_file if config_file is not None and config_file.is_file() else DEFAULT_CONFIG
    try:
        raw = yaml.safe_load(config_file.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as err:
        raise RenderError(f"{config_file}: cannot read the MkDocs configuration: {err}") from err
    theme = raw.get("theme") or {"name": "readthedocs"}
    if isinstance(theme, str):
        theme = {"name": theme}
    theme = {**theme, "custom_dir": str(theme_dir)}

    mk_log = logging.getLogger("mkdocs")
    collect = _Collect()
    saved = (mk_log.level, mk_log.propagate)
    mk_log.addHandler(collect)
    mk_log.setLevel(logging.WARNING)
    mk_log.propagate = False
    try:
        config = load_config(
            str(config_file), docs_dir=str(docs_dir), site_dir=str(site_dir), theme=theme,
            nav=sources.nav, strict=True, **({"site_name": site_name} if site_name else {}),
        )
        mkdocs_build(config)
    except (Abort, MkDocsException, SystemExit) as err:
        detail = "; ".join(collect.messages) or str(err)
        raise RenderError(f"site: MkDocs failed: {detail}") from None
    finally:
        mk_log.removeHandler(collect)
        mk_log.setLevel(saved[0])
        mk_log.propagate = saved[1]


__all__ = ["SiteSources", "render_site_sources", "write_sources", "build_site", "SITE_LINKS"]
