"""``whistbook build``: every hand file to lesson pages, the booklet and the site.

The pipeline gathers before it writes. It loads and checks every hand file,
explains and analyses them, builds the lessons and renders all the pages and
the booklet in memory; only then does it write, into a temporary folder
beside the output folder, run MkDocs there, and swap the new folder in for
the old one. A hand with a problem stops the build before anything is
written (every problem of every file is reported), and a failure while
writing leaves the previous output as it was.

The inference and analysis modules are optional: when they are present
their inferences, principles and double-dummy verdicts appear in the
lessons; without them the lessons are complete but plainer.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .laws import CheckedHand
from .errors import ConfigError, Diagnostic, WhistbookError
from .lesson import Lesson, build_lesson

Progress = Callable[[str], None]


class BuildFailed(WhistbookError):
    """Raised when hand files have errors; ``diagnostics`` holds every one of them."""

    def __init__(self, diagnostics: Sequence[Diagnostic], files: int) -> None:
        n = sum(1 for d in diagnostics if d.level == "error")
        bad = len({d.loc.path for d in diagnostics if d.level == "error" and d.loc is not None})
        super().__init__(
            f"{n} error{'s' if n != 1 else ''} in {bad} of {files} hand file{'s' if files != 1 else ''}: nothing was written"
        )
        self.diagnostics = list(diagnostics)


@dataclass(frozen=True)
class BuildOptions:
    hands: Path = Path("hands")
    output: Path = Path("output")
    paper: str = "a5"
    four_colour: bool = False
    #: double-dummy marks in the booklet (always on in the pages and the site)
    analysis_in_booklet: bool = False
    #: a project's template overrides
    templates: Path = Path("templates")
    #: a project's MkDocs configuration
    mkdocs_config: Path = Path("mkdocs.yml")
    title: str = "Whistbook"


@dataclass
class BuildReport:
    output: Path
    lessons: int = 0
    problems: int = 0
    pdf_pages: int = 0
    seconds: float = 0.0
    #: seconds per phase, in order
    phases: dict[str, float] = field(default_factory=dict)
    inferences: bool = False
    analysis: bool = False


@dataclass
class _Engines:
    explain: Callable[..., Any] | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    analyse: Callable[..., Any] | None = None
    cache: Any = None


def _engines() -> _Engines:
    """The inference and analysis modules, when this installation has them.
    A module that exists but fails to import is an error, not an absence."""
    out = _Engines()
    if importlib.util.find_spec("whistbook.inference") is not None:
        mod = importlib.import_module("whistbook.inference")
        out.explain = mod.explain
        out.rules = dict(getattr(mod, "RULES", {}) or {})
    if importlib.util.find_spec("whistbook.analysis") is not None:
        mod = importlib.import_module("whistbook.analysis")
        out.analyse = mod.analyse
        cache_cls = getattr(mod, "Cache", None)
        cache_dir = getattr(mod, "default_cache_dir", None)
        if cache_cls is not None and cache_dir is not None:
            out.cache = cache_cls(cache_dir())
    return out


def lesson_slug(path: Path, hands_dir: Path) -> str:
    """A page name from a hand file's path under the hands folder:
    ``cavendish/01-trump-lead.yaml`` -> ``cavendish-01-trump-lead``."""
    try:
        rel = path.resolve().relative_to(hands_dir.resolve())
    except ValueError:
        rel = Path(path.name)
    return "-".join(rel.with_suffix("").parts)


@dataclass
class Gathered:
    """Every hand file checked and explained, in build order."""

    hands_dir: Path
    checked: list[tuple[Path, CheckedHand]] = field(default_factory=list)
    slugs: list[str] = field(default_factory=list)
    explanations: list[Any] = field(default_factory=list)

    def lessons(self, engines: _Engines, analyses: Sequence[Any] | None = None) -> list[Lesson]:
        """The lessons, with the double-dummy verdicts when ``analyses`` is given."""
        return [
            build_lesson(ch, explanation=ex, analysis=analyses[k] if analyses is not None else None,
                         rules=engines.rules, index=k + 1, slug=slug)
            for k, ((_, ch), slug, ex) in enumerate(zip(self.checked, self.slugs, self.explanations))
        ]


def gather(files: Sequence[Path], hands_dir: Path, engines: _Engines, progress: Progress) -> Gathered:
    """Check every file, then explain each hand.

    :raises BuildFailed: with every problem of every file, if any has an error.
    :raises ConfigError: when two files would make pages of the same name.
    """
    from .corpus import check_file

    out = Gathered(hands_dir)
    diagnostics: list[Diagnostic] = []
    n = len(files)
    for k, path in enumerate(files, 1):
        ch = check_file(path)
        name = ch.hand.title if ch.hand is not None and ch.hand.title else path.name
        errors = [d for d in ch.diagnostics if d.level == "error"]
        progress(f"[{k}/{n}] {name}" + (f": {len(errors)} error{'s' if len(errors) != 1 else ''}" if errors else ""))
        diagnostics.extend(errors)
        out.checked.append((path, ch))
    if diagnostics:
        raise BuildFailed(diagnostics, n)

    seen: dict[str, Path] = {}
    for path, ch in out.checked:
        slug = lesson_slug(path, hands_dir)
        if slug in seen:
            raise ConfigError(f"{path} and {seen[slug]} would both be written as {slug}.html: rename one")
        seen[slug] = path
        out.slugs.append(slug)
        try:
            explanation = engines.explain(ch) if engines.explain is not None and ch.hand.kind == "hand" else None
        except WhistbookError as err:
            raise BuildFailed([Diagnostic.from_error(err, str(path))], n) from err
        out.explanations.append(explanation)
    return out


def analyse_all(gathered: Gathered, engines: _Engines) -> list[Any] | None:
    """The double-dummy verdicts of every hand (None for problems), or None
    without the analysis module. Slow only when the cache is cold.

    :raises BuildFailed: when a hand cannot be analysed.
    """
    if engines.analyse is None:
        return None
    out = []
    for path, ch in gathered.checked:
        try:
            out.append(engines.analyse(ch, cache=engines.cache) if ch.hand.kind == "hand" else None)
        except WhistbookError as err:
            raise BuildFailed([Diagnostic.from_error(err, str(path))], len(gathered.checked)) from err
    return out


def write_files(files: Mapping[str, str | bytes], root: Path) -> None:
    """Write ``relative path -> text or bytes`` under ``root`` (the only writer of pages)."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _swap_in(new: Path, output: Path) -> None:
    """Replace ``output`` by ``new`` (both in the same folder) with renames only."""
    old = None
    if output.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{output.name}-old-", dir=output.parent))
        os.rmdir(old)
        os.replace(output, old)
    try:
        os.replace(new, output)
    except OSError:
        if old is not None:
            os.replace(old, output)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname.lower()}: {record.getMessage()}")


def _lay_out_booklet(lessons: Sequence[Lesson], env: Any, engines: _Engines, options: Any, title: str,
                     say: Progress) -> Any:
    """The booklet laid out; WeasyPrint's warnings (a bad CSS value in an
    override, a broken link) are passed on as progress lines."""
    from .render.pdf import booklet_html, render_booklet_document

    say(f"laying out the booklet ({options.paper.upper()})")
    html = booklet_html(lessons, env, rules=engines.rules, options=options, title=title)
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    try:
        return render_booklet_document(lessons, env, rules=engines.rules, options=options, html=html)
    finally:
        logger.removeHandler(collect)
        for message in collect.messages:
            say(f"booklet: {message}")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def build(options: BuildOptions = BuildOptions(), progress: Progress | None = None) -> BuildReport:
    """Build the lesson pages, the booklet and the site into ``options.output``.

    :raises BuildFailed: when hand files have errors (nothing is written).
    :raises ConfigError: for a missing hands folder or bad options.
    :raises RenderError: when a template, WeasyPrint or MkDocs fails (the
        previous output is left as it was).
    """
    from .corpus import find_hand_files
    from .render.context import RenderOptions
    from .render.environment import make_environment
    from .render.html import render_html
    from .render.pdf import PAPERS
    from .render.site import build_site, render_site_sources

    say = progress or (lambda message: None)
    started = time.perf_counter()
    report = BuildReport(options.output)
    if options.paper not in PAPERS:
        raise ConfigError(f"--paper must be one of {', '.join(PAPERS)}, not {options.paper!r}")
    if not options.hands.is_dir():
        raise ConfigError(f"{options.hands}: no such folder (the hand files go in hands/)")
    output = options.output
    if output.exists() and not output.is_dir():
        raise ConfigError(f"{output} exists and is not a folder")
    files = find_hand_files([str(options.hands)])
    if not files:
        raise ConfigError(f"no hand files (*.yaml) in {options.hands}")

    def phase(name: str, t0: float) -> float:
        now = time.perf_counter()
        report.phases[name] = now - t0
        return now

    # First gather and check everything; nothing is written before all of it is known.
    t = time.perf_counter()
    engines = _engines()
    report.inferences, report.analysis = engines.explain is not None, engines.analyse is not None
    say(f"checking {len(files)} hand files in {options.hands}")
    gathered = gather(files, options.hands, engines, say)
    report.lessons = sum(1 for _, ch in gathered.checked if ch.hand.kind == "hand")
    report.problems = len(gathered.checked) - report.lessons
    t = phase("check", t)

    env = make_environment(options.templates, rules=engines.rules)
    printed = RenderOptions(analysis=options.analysis_in_booklet, four_colour=options.four_colour,
                            paper=options.paper, medium="print")
    if engines.analyse is not None:
        say("analysing every card double-dummy")
    analyses = analyse_all(gathered, engines)
    lessons = gathered.lessons(engines, analyses)
    t = phase("analysis", t)

    # The booklet shows the double-dummy marks only when asked to.
    printed_lessons = lessons if options.analysis_in_booklet else gathered.lessons(engines)
    document = _lay_out_booklet(printed_lessons, env, engines, printed, options.title, say)
    report.pdf_pages = len(document.pages)
    pdf = document.write_pdf()
    t = phase("pdf", t)

    say(f"rendering {len(lessons)} lesson pages")
    screen = RenderOptions(analysis=True, four_colour=options.four_colour, paper=options.paper, medium="html")
    pages = render_html(lessons, env, rules=engines.rules, options=screen)
    say("generating the site pages")
    site_opts = RenderOptions(analysis=True, four_colour=options.four_colour, paper=options.paper, medium="site")
    sources = render_site_sources(lessons, env, rules=engines.rules, options=site_opts, title=options.title)
    t = phase("html and site sources", t)

    # Start writing now that everything is gathered, into a folder beside the output.
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{output.name}-", dir=output.parent)).resolve()
    try:
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes it private; the output is not
        say(f"writing into {tmp}")
        write_files(pages, tmp / "html")
        write_files({"whistbook.pdf": pdf}, tmp)
        say("building the site (MkDocs)")
        build_site(sources, tmp / ".site-src", tmp / ".site-theme", tmp / "site", config_file=options.mkdocs_config)
        t = phase("write and site", t)
        _swap_in(tmp, output)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    report.seconds = time.perf_counter() - started
    say(f"wrote {output}/: {report.lessons} lessons"
        + (f", {report.problems} problems" if report.problems else "")
        + f", a {report.pdf_pages}-page booklet and the site in {report.seconds:.1f} s")
    return report


__all__ = ["build", "BuildOptions", "BuildReport", "BuildFailed", "Gathered", "gather", "analyse_all",
           "write_files", "lesson_slug"]
