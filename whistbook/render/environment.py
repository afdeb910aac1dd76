"""The one Jinja environment every page, the booklet and the site are rendered with.

Templates are looked up first in the project's ``templates/`` folder, then
in the defaults shipped in ``whistbook/templates/``; an override may extend
the default it replaces with ``{% extends "default/lesson.html" %}``.
Autoescaping is on and undefined names are errors (``StrictUndefined``).
A failing template is reported as a :class:`~whistbook.errors.RenderError`
naming the template file and line.
"""

from __future__ import annotations

import os
import tempfile
import traceback
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import jinja2
import jinja2.bccache
from markupsafe import Markup

from ..buildcache import sign, verified
from ..cards import Card
from ..errors import RenderError
from ..project import Book
from ..scoring import score_text
from ..seats import Side
from .. import wording
from ..wording import citation, number_word
from . import playalong
from .diagrams import as_image, deal_row_svg, deal_svg, known_svg, trick_svg
from .markup import RemarkRenderer, card_html, markdown_text, prose, rank_html, rank_text, suit_html, words_html

PACKAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"



class SignedBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in a folder, each signed with this user's key
    (:func:`whistbook.buildcache.sign`): compiled code is run when loaded, so a
    project's cache from elsewhere is never loaded, only compiled again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, bucket: jinja2.bccache.Bucket) -> Path:
        return self.folder / f"{bucket.key}.cache"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            signed = self._path(bucket).read_bytes()
        except OSError:
            return
        data = verified(f"template/{bucket.key}", signed)
        if data is not None:
            bucket.bytecode_from_string(data)  # Jinja checks it is of this template's source

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=self.folder)
            with os.fdopen(fd, "wb") as f:
                f.write(sign(f"template/{bucket.key}", bucket.bytecode_to_string()))
            os.replace(tmp, self._path(bucket))
        except OSError:
            pass  # not kept: compiled again next time


def _compiled_cache(folder: Path | None) -> jinja2.BytecodeCache | None:
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # a folder that cannot be made: templates compiled each time, as without one
    return SignedBytecodeCache(folder)


def make_environment(override_dir: str | Path | None = None, *,
                     rules: Mapping[str, Any] | None = None, book: Book | None = None,
                     compiled: Path | None = None) -> jinja2.Environment:
    """The environment: project overrides, then the packaged defaults.

    ``rules`` (the principles registry) lets remarks link page references to
    principles; ``book`` (title, author...) is the global ``book`` every
    template may use; ``compiled``, a folder where the compiled templates
    are kept from one build to the next (Jinja checks each against its
    source), which saves compiling them on every build.
    """
    default = jinja2.PackageLoader("whistbook", "templates")
    loaders: list[jinja2.BaseLoader] = []
    if override_dir is not None and Path(override_dir).is_dir():
        loaders.append(jinja2.FileSystemLoader(str(override_dir)))
    loaders += [default, jinja2.PrefixLoader({"default": default})]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "md"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=_compiled_cache(compiled),
    )
    remarks = RemarkRenderer(rules)
    env.globals["remarks"] = remarks
    env.globals["book"] = book or Book()
    env.filters.update(
        card=lambda c: Markup(card_html(c)),
        cards=lambda cs, sep=" ": Markup(sep.join(card_html(c) for c in cs)),
        suit=lambda s: Markup(suit_html(s)),
        rank=lambda c: rank_text(c.rank),
        ranks=_ranks,
        prose=lambda t: prose(str(t)),
        words=words_html,
        score=_score_text,
        number=_number_word,
        tricks=lambda n: f"{_number_word(n)} trick{'' if n == 1 else 's'}",
        tricks_amount=wording.tricks_amount,
        markdown=jinja2.pass_context(_markdown),
        markdown_text=markdown_text,
        rule_href=jinja2.pass_context(_rule_href),
        html_block=_html_block,
        page_ref=_page_ref,
        known_svg=lambda t, four_colour=False: Markup(known_svg(t, four_colour=four_colour)),
        # the pages and the site draw the same tricks and deals, the booklet the same deals
        trick_svg=_drawn_once(lambda t, analysis=False, four_colour=False: Markup(
            trick_svg(t, analysis=analysis, four_colour=four_colour))),
        deal_svg=_drawn_once(lambda lesson, centre="", four_colour=False: Markup(
            deal_svg(lesson, centre=centre, four_colour=four_colour))),
        deal_row_svg=_drawn_once(lambda lesson, four_colour=False: Markup(
            deal_row_svg(lesson, four_colour=four_colour))),
        picture=lambda svg, medium: Markup(as_image(svg)) if medium == "print" else svg,
        rank_html=lambda c: Markup(rank_html(c)),
        citation_text=lambda rule: citation(rule) or "",
        verdict_words=lambda v: words_html(wording.verdict(v)),
        playalong_json=lambda lesson: Markup(playalong.data_json(lesson)),
    )
    return env


def _drawn_once(draw: Callable[..., Markup], keep: int = 4096) -> Callable[..., Markup]:
    """``draw(view, ...)``, made once for the same view (the same object,
    which the entry keeps alive, so that its id is not reused) and arguments;
    at most ``keep`` drawings are kept (``serve`` renders for as long as it runs)."""
    made: dict[tuple, tuple[Any, Markup]] = {}

    def drawn(view: Any, *args: Any, **kwargs: Any) -> Markup:
        key = (id(view), args, tuple(sorted(kwargs.items())))
        hit = made.get(key)
        if hit is None or hit[0] is not view:
            if len(made) >= keep:
                made.clear()
            hit = made[key] = (view, draw(view, *args, **kwargs))
        return hit[1]

    return drawn


def _ranks(cards: Iterable[Card]) -> str:
    """Ranks of one suit, high to low: ``K J 9 2``; a dash for a void."""
    cs = list(cards)
    return " ".join(rank_text(c.rank) for c in cs) if cs else "—"


def _html_block(text: str) -> Markup:
    """Raw HTML made safe to sit in Markdown: no blank lines (which could end
    the block) and no indentation (which could make it code)."""
    return Markup("\n".join(line.strip() for line in str(text).splitlines() if line.strip()))


def _page_ref(page: str | int) -> str:
    """A rule's page as a citation: ``p. 56``, ``pp. 82–84``; ``Laws 52-53`` stays as it is."""
    text = str(page).strip()
    if not text[:1].isdigit():
        return text.replace("-", "–")
    return ("pp.\u00a0" if any(c in text for c in "-–,") else "p.\u00a0") + text.replace("-", "–")


_number_word = number_word


def _score_text(score: tuple[int, int] | Mapping[Side, int] | None) -> str:
    """The score for a heading cell: ``Love-all``, ``AB 2, YZ love``."""
    text = score_text(score)
    return text[:1].upper() + text[1:]


def _principles(ctx: Any) -> str:
    links = ctx.get("links")
    return links.principles if links is not None else "principles.html"


def _markdown(ctx: Any, text: str | None, anchor: str = "") -> Markup:
    return ctx["remarks"].render(text, _principles(ctx), anchor=anchor)


def _rule_href(ctx: Any, rule_id: str) -> str:
    return f"{_principles(ctx)}#rule-{rule_id}"


def template_source(env: jinja2.Environment, name: str) -> str:
    """The text of a non-template file (a stylesheet) found through the same loaders,
    so a project can override it like a template.

    :raises RenderError: when no loader has it.
    """
    try:
        source, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
    except jinja2.TemplateNotFound:
        raise RenderError(f"template file {name!r} not found (looked in templates/ and the packaged defaults)") from None
    return source


def render_template(env: jinja2.Environment, name: str, **context: Any) -> str:
    """Render one template.

    :raises RenderError: for a syntax error, an undefined name or any failure
        inside the template, naming the template file and line.
    """
    try:
        return env.get_template(name).render(**context)
    except jinja2.TemplateSyntaxError as err:
        where = f"{_display(err.filename or err.name or name)}:{err.lineno}"
        raise RenderError(f"{where}: template syntax: {err.message}") from err
    except jinja2.TemplateNotFound as err:
        raise RenderError(f"template {err.name!r} not found (needed by {name})") from err
    except (jinja2.TemplateError, TypeError, AttributeError, KeyError, ValueError, IndexError) as err:
        where = _template_frame(err) or name
        kind = "undefined" if isinstance(err, jinja2.UndefinedError) else type(err).__name__
        raise RenderError(f"{where}: {kind}: {err}") from err


def _template_frame(err: BaseException) -> str | None:
    """``file:line`` of the innermost template frame in the traceback (Jinja
    rewrites tracebacks so template frames carry the template's file and line)."""
    found = None
    for frame, lineno in traceback.walk_tb(err.__traceback__):
        filename = frame.f_code.co_filename
        if frame.f_globals.get("__jinja_template__") is not None or filename.endswith((".html", ".md", ".xml", ".css")):
            found = f"{_display(filename)}:{lineno}"
    return found


def _display(filename: str) -> str:
    """A template path as a user would type it: relative to the working
    directory when under it, else relative to the package."""
    path = Path(filename)
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        pass
    try:
        return "whistbook/templates/" + path.resolve().relative_to(PACKAGE_TEMPLATES).as_posix()
    except (ValueError, OSError):
        return filename


__all__ = ["make_environment", "render_template", "template_source", "PACKAGE_TEMPLATES"]
