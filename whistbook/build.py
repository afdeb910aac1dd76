"""``whistbook build``: every hand file to lesson pages, the booklet and the site.

The build runs as stages, each keyed by what it is made from so that an
unchanged piece is taken from the store (``.whistbook-cache/``) instead of
being made again:

1. *lessons*: each hand file checked, explained, analysed and made into a
   lesson, keyed by the file's bytes and whistbook's code. A hand with a
   problem stops the build before anything is written (every problem of
   every file is reported). With the templates, settings and code the
   lessons' keys make the build's key: when that matches the output's, the
   build is already done.
2. *the book*: the book-wide context (hands by theme and chapter, the
   principles, the glossary), derived once and handed to every writer.
3. *pages*: the site's sources, then the lesson pages while the site is
   built (fast, made each time; the compiled templates are kept).
4. *booklet* (:mod:`whistbook.booklet`): laid out in parts (each lesson, the answers, the back matter's
   three sections), each carrying its own running heads and stored by what
   it is made from: a lesson's part (and the principles and the glossary) by
   the lesson's key and the book's settings, so that its HTML is rendered
   only when it is laid out; a part made from the whole book by its HTML's
   key. Then the front matter and the lessons by theme with the
   page numbers the parts give, side by side, and the parts joined, with the
   page numbers printed over the pages and the links and bookmarks drawn.
5. *write* (:mod:`whistbook.output`): into a temporary folder beside the output, with the site
   (ProperDocs) built there, and the new folder swapped in for the old one.
   The output folder is locked for the whole build; a build killed
   part-way leaves the old output, and the next build tidies what it left.

The stages overlap on one pool of worker processes (:mod:`whistbook.workers`), one a core, which take
jobs by rank, then in the order given: a lesson's part of the booklet is
given to them as soon as the lesson is made (a lesson's part depends on that
lesson and the book's settings only), and the site, the answers and the
measures of the front and the lessons by theme as soon as the whole book is
known, ahead of the lessons' parts still waiting, so that the last jobs are
the short parts and the few that need every page number. When the site is
still being built at the end (after an edit, when little else is made), the
booklet is joined beside it.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .booklet import Booklet
from .buildcache import PACKAGE, Store, code_key, digest, folder_key
from .errors import ConfigError, Diagnostic, WhistbookError
from .lesson import Lesson, build_lesson, viewpoint_of
from .model import page_name
from .output import OutputLock, Stamp, current_stamp, new_folder, tidy_after_interruption, write_output
from .progress import Progress, progress_of
from .project import Book, Chapter, order_files
from .workers import LESSONS, Pool



class BuildFailed(WhistbookError):
    """Raised when hand files have errors; ``diagnostics`` holds every one of them."""

    def __init__(self, diagnostics: Sequence[Diagnostic], files: int) -> None:
        super().__init__(errors_in(diagnostics, files) + ": nothing was written")
        self.diagnostics = list(diagnostics)


def errors_in(diagnostics: Sequence[Diagnostic], files: int) -> str:
    """``3 errors in 2 of 40 hand files``."""
    n = sum(1 for d in diagnostics if d.level == "error")
    bad = len({d.loc.path for d in diagnostics if d.level == "error" and d.loc is not None})
    return f"{n} error{'s' if n != 1 else ''} in {bad} of {files} hand file{'s' if files != 1 else ''}"


@dataclass(frozen=True)
class BuildOptions:
    hands: Path = Path("hands")
    output: Path = Path("output")
    paper: str = "a5"
    four_colour: bool = False
    #: double-dummy marks in the booklet (always on in the pages and the site)
    analysis_in_booklet: bool = False
    #: the most deals the judge weighs for a card (None: its default; 0: no single-dummy verdicts)
    judge_samples: int | None = None
    #: a project's template overrides
    templates: Path = Path("templates")
    #: a project's MkDocs configuration
    mkdocs_config: Path = Path("mkdocs.yml")
    title: str = "Whist lessons"
    subtitle: str = ""
    author: str = ""
    #: the order of lessons and their chapters (see whistbook.project)
    order: tuple[str | Chapter, ...] = ()
    #: where finished pieces are kept between builds (None: keep nothing)
    cache: Path | None = None
    #: processes for the lessons and the booklet (None: one per core)
    workers: int | None = None
    #: lay out the booklet (``serve`` leaves it out until asked)
    booklet: bool = True
    #: build every valid hand when some have errors, each broken file a page of its errors (``--keep-going``)
    keep_going: bool = False

    @classmethod
    def for_book(cls, book: Book, **paths: Any) -> "BuildOptions":
        return cls(paper=book.paper, four_colour=book.four_colour, analysis_in_booklet=book.analysis_in_booklet,
                   judge_samples=book.judge_samples, title=book.title, subtitle=book.subtitle, author=book.author, order=book.order, **paths)

    @property
    def book(self) -> Book:
        return Book(title=self.title, subtitle=self.subtitle, author=self.author, paper=self.paper,
                    four_colour=self.four_colour, analysis_in_booklet=self.analysis_in_booklet,
                    judge_samples=self.judge_samples, order=self.order)


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
    #: nothing had changed since the last build: nothing was written
    up_to_date: bool = False
    #: lessons and booklet parts made anew (the rest came from the store)
    made: int = 0
    reused: int = 0
    #: what the pages were made from, which serve keeps to make one lesson's pages again
    #: (None when nothing was written)
    inputs: "PageInputs | None" = None
    #: the errors of the hand files left out (``keep_going``): the build wrote the others
    broken: list[Diagnostic] = field(default_factory=list)
    #: the hand files read
    files: int = 0


@dataclass
class PageInputs:
    """What a build made its pages from: the hand files in the book's order, their
    keys and lessons, the templates' environment and the site's sources."""

    files: list[Path]
    keys: list[str]
    lessons: list[Lesson]
    env: Any
    sources: Any  # whistbook.render.site.SiteSources


@dataclass
class _Engines:
    explain: Callable[..., Any] | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    analyse: Callable[..., Any] | None = None
    cache: Any = None
    judge: Callable[..., Any] | None = None


def _engines(cache_dir: Path | None = None, *, keep: bool = True) -> _Engines:
    """The inference engine and its rules, and the double-dummy analysis with
    where the solver's answers are kept: in ``cache_dir``, else (with ``keep``)
    in the analysis' default place, else nowhere. Imported here, not at the
    top: only the processes that make lessons load them."""
    from . import analysis, inference, judgement

    cache_dir = cache_dir or (analysis.default_cache_dir() if keep else None)
    return _Engines(inference.explain, dict(inference.RULES), analysis.analyse,
                    analysis.Cache(cache_dir) if cache_dir is not None else None, judgement.judge)


def lesson_slug(path: Path, hands_dir: Path) -> str:
    """A page name from a hand file's path under the hands folder:
    ``cavendish/01-trump-lead.yaml`` -> ``cavendish-01-trump-lead``."""
    try:
        rel = path.resolve().relative_to(hands_dir.resolve())
    except ValueError:
        rel = Path(path.name)
    return page_name("-".join(rel.with_suffix("").parts))


# --- 1. lessons ------------------------------------------------------------------


@dataclass
class Made:
    """One hand file made into its lessons (for the pages, and for print)."""

    title: str
    errors: list[Diagnostic]
    lesson: Lesson | None = None
    printed: Lesson | None = None


def make_lesson(path: Path, data: bytes, slug: str, index: int, analysis_in_booklet: bool,
                cache_dir: Path | None, samples: int | None = None) -> Made:
    """Check, explain, analyse and judge one hand file, from its bytes ``data``
    as they were read when its key was made, and make its lessons (runs in a
    worker). ``samples``: the most deals the judge weighs a card (0: no judge)."""
    from .corpus import check_file
    from .judgement import Budget

    engines = _worker_engines(cache_dir)
    # The infer: statements are checked with the lesson's own explanation, not one made for them alone.
    ch = check_file(path, data=data)
    title = ch.hand.title if ch.hand is not None and ch.hand.title else path.name
    explanation = None
    try:
        if (engines.explain is not None and ch.hand is not None and ch.hand.kind == "hand"
                and not any(d.level == "error" for d in ch.diagnostics)):
            explanation = engines.explain(ch)
        from .inference.statements import check_stated

        ch.diagnostics.extend(check_stated(ch, explanation))  # nothing for a file without infer: lines
        errors = [d for d in ch.diagnostics if d.level == "error"]
        if errors:
            return Made(title, errors)
        viewpoint = viewpoint_of(ch.hand, explanation)
        # every card's cost, and every legal card's worth where the lesson shows it (the quiz at the known hand's cards)
        analysis = (engines.analyse(ch, cache=engines.cache, options_for={viewpoint})
                    if engines.analyse is not None and ch.hand.kind == "hand" else None)
        # the viewer's own cards judged on what he could know: the quiz's grades, the verdict after a trick
        judgement = (engines.judge(ch, seats=[viewpoint], cache=engines.cache, budget=Budget.up_to(samples))
                     if engines.judge is not None and analysis is not None and ch.hand.known_hand is not None
                     and samples != 0 else None)
    except WhistbookError as err:
        return Made(title, [Diagnostic.from_error(err, str(path))])
    common = dict(explanation=explanation, judgement=judgement, rules=engines.rules, index=index, slug=slug)
    lesson = build_lesson(ch, analysis=analysis, **common)
    printed = lesson if analysis_in_booklet or analysis is None else build_lesson(ch, analysis=None, **common)
    return Made(title, [], lesson, printed)


_ENGINES: dict[Path | None, _Engines] = {}


def _worker_engines(cache_dir: Path | None) -> _Engines:
    if cache_dir not in _ENGINES:
        # a build without a store (--no-cache) keeps nothing, the solver's answers included
        _ENGINES[cache_dir] = _engines(cache_dir / "solver" if cache_dir is not None else None, keep=False)
    return _ENGINES[cache_dir]


def lesson_jobs(files: Sequence[Path], options: BuildOptions) -> list[tuple[str, tuple]]:
    """Each file's key (its bytes, place and whistbook's code) and the arguments of :func:`make_lesson`.

    :raises ConfigError: when two files would make pages of the same name.
    """
    seen: dict[str, Path] = {}
    jobs = []
    for k, path in enumerate(files, 1):
        slug = lesson_slug(path, options.hands)
        if slug in seen:
            raise ConfigError(f"{path} and {seen[slug]} would both be written as {slug}.html: rename one")
        seen[slug] = path
        # read once: the lesson is made from the bytes its key is made of, so that a
        # file saved again meanwhile is made again by the next build, never stored stale
        data = _read(path)
        key = digest(code_key(), data, str(path), slug, str(k), str(options.analysis_in_booklet),
                     str(options.judge_samples))
        jobs.append((key, (path, data, slug, k, options.analysis_in_booklet, options.cache, options.judge_samples)))
    return jobs


def store_of(options: BuildOptions) -> Store:
    """The build's store of finished pieces, each kind checked for its type when read."""
    from .render.pdf import PageNumbers, PartLayout

    return Store(options.cache, {"lessons": Made, "booklet": PartLayout, "booklet-length": PartLayout,
                                 "numbers": PageNumbers})


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the hand file ({err.strerror})") from None


def make_lessons(jobs: Sequence[tuple[str, tuple]], pool: Pool, progress: Progress,
                 each: Callable[[str, Made], None] | None = None,
                 meanwhile: Callable[[], None] | None = None, keep_going: bool = False) -> list[Made]:
    """Every file's lessons, in order (``jobs`` from :func:`lesson_jobs`),
    each counted as it is made (those from the store are not).
    ``each`` is given each good file's key and lessons as soon as they are
    made, so that what they go into can start while the other files are still
    made; ``meanwhile`` is called once the workers have the jobs.

    :raises BuildFailed: with every problem of every file, if any has an error
        (with ``keep_going``, only when every file has one: the others are made).
    """
    def made_one(k: int, m: Made) -> None:
        if k in batch.made:
            errors = len(m.errors)
            counter.step(m.title + (f": {errors} error{'s' if errors != 1 else ''}" if errors else ""))
        if each is not None and not m.errors:
            each(jobs[k][0], m)

    batch = pool.start("lessons", make_lesson, jobs, rank=LESSONS)
    counter = progress.counter("checking the hand files", len(batch.made))
    if meanwhile is not None:
        meanwhile()
    made = pool.finish(batch, made_one)
    counter.end()
    diagnostics = [d for m in made for d in m.errors]
    if diagnostics and not (keep_going and any(not m.errors for m in made)):
        raise BuildFailed(diagnostics, len(jobs))
    return made


def broken_views(files: Sequence[Path], made: Sequence[Made], options: BuildOptions) -> list[Any]:
    """The hand files with errors, as the pages that show them."""
    from .views import BrokenView

    return [BrokenView(m.title, lesson_slug(f, options.hands), f.as_posix(), tuple(str(d) for d in m.errors))
            for f, m in zip(files, made) if m.errors]


# --- 3. the site ------------------------------------------------------------------


def build_site_into(folder: Path, sources: Any, options: BuildOptions) -> None:
    """The site, with ProperDocs, into ``folder/site`` (in a worker, beside the booklet's parts)."""
    from .render import site

    site.build_site(sources, folder / ".site-src", folder / ".site-theme", folder / "site",
                    config_file=options.mkdocs_config, site_name=options.title)


# --- the build ---------------------------------------------------------------------


def _check_options(options: BuildOptions) -> list[Path]:
    from .corpus import find_hand_files
    from .render.pdf import PAPERS

    if options.paper not in PAPERS:
        raise ConfigError(f"--paper must be one of {', '.join(PAPERS)}, not {options.paper!r}")
    if not options.hands.is_dir():
        raise ConfigError(f"{options.hands}: no such folder (the hand files go in hands/)")
    if options.output.exists() and not options.output.is_dir():
        raise ConfigError(f"{options.output} exists and is not a folder")
    files = find_hand_files([str(options.hands)])
    if not files:
        raise ConfigError(f"no hand files (*.yaml) in {options.hands}")
    return files


def hand_files(options: BuildOptions) -> tuple[list[Path], dict[Path, str]]:
    """The hand files in the book's order, and the chapter of each that has one.

    :raises ConfigError: for bad options, a missing hands folder or no hand files.
    """
    return order_files(_check_options(options), options.hands, options.order)


def _build_key(lesson_keys: Sequence[str], options: BuildOptions) -> str:
    config = options.mkdocs_config.read_bytes() if options.mkdocs_config.is_file() else b""
    return digest(code_key(), folder_key(PACKAGE / "templates"), folder_key(options.templates), config, repr(replace(options, cache=None, workers=None)),
                  *lesson_keys)


def _built(options: BuildOptions, key: str) -> Stamp | None:
    """The output's stamp when it was built, booklet included, from what makes
    ``key`` and is still as that build wrote it; None when anything in it is
    missing or changed, or the build keeps nothing (``--no-cache``: everything
    is made anew)."""
    if not options.booklet or options.cache is None:
        return None
    return current_stamp(options.output, key)


def _compiled_templates(cache: Path | None) -> Path | None:
    """Where the compiled templates are kept: a folder for this code (Jinja
    checks a template's source, not the settings it was compiled with, which
    the code sets), the folders of other versions removed."""
    if cache is None:
        return None
    folder = cache / "templates" / code_key()[:16]
    if folder.parent.is_dir():
        for old in folder.parent.iterdir():
            if old != folder:
                shutil.rmtree(old, ignore_errors=True)
    return folder


def _count(made: Sequence[Made], report: BuildReport) -> None:
    report.lessons = sum(1 for m in made if m.lesson.kind == "hand")
    report.problems = len(made) - report.lessons


def screen_options(options: BuildOptions, medium: str) -> Any:
    """How the pages (``html``) and the site (``site``) are rendered: with the analysis, always."""
    from .render.context import RenderOptions

    return RenderOptions(analysis=True, four_colour=options.four_colour, paper=options.paper, medium=medium)


def build(options: BuildOptions = BuildOptions(), progress: Progress | Callable[[str], None] | None = None) -> BuildReport:
    """Build the lesson pages, the booklet and the site into ``options.output``.

    The stages overlap on the workers: a lesson's part of the booklet is laid
    out as soon as the lesson is made, and the site is built while the booklet
    is laid out.

    :raises BuildFailed: when hand files have errors (nothing is written).
    :raises ConfigError: for a missing hands folder, bad options, or another
        build holding the output folder.
    :raises RenderError: when a template, WeasyPrint or MkDocs fails (the
        previous output is left as it was).
    """
    from .render.context import book_context
    from .render.environment import make_environment
    from .render.html import render_html
    from .render.pdf import load_weasyprint
    from .render.site import render_site_sources

    progress = progress_of(progress)  # a function of a line is given each line, plainly
    say = progress.say
    started = time.perf_counter()
    report = BuildReport(options.output)
    files, chapters = hand_files(options)
    store, lock = store_of(options), OutputLock(options.output)
    pool = Pool(options.workers, store, lock)
    last = started

    def phase(name: str) -> None:
        nonlocal last
        now = time.perf_counter()
        report.phases[name], last = now - last, now

    with lock:
        tidy_after_interruption(options.output)
        folder = None
        try:
            jobs = lesson_jobs(files, options)
            key = _build_key([key for key, _ in jobs], options)
            done = _built(options, key)
            if done is not None:
                report.lessons, report.problems, report.pdf_pages = done.lessons, done.problems, done.pdf_pages
                report.up_to_date, report.seconds = True, time.perf_counter() - started
                say(f"{options.output}/ is up to date ({report.seconds:.1f} s)")
                return report

            engines = _worker_engines(options.cache)
            report.inferences, report.analysis = engines.explain is not None, engines.analyse is not None
            env = make_environment(options.templates, rules=engines.rules, book=options.book,
                                   compiled=_compiled_templates(options.cache))
            booklet = None
            if options.booklet:
                booklet = Booklet(env, options.book, options.templates,
                                  book_context([], env, rules=engines.rules, book=options.book), pool)
                if pool.workers > 1:
                    load_weasyprint()  # imported once here, not in each worker the pool forks
            made = make_lessons(jobs, pool, progress, (lambda key, m: booklet.add(key, m.printed)) if booklet else None,
                                booklet.begin if booklet else None, options.keep_going)
            broken = broken_views(files, made, options)
            report.broken, report.files = [d for m in made for d in m.errors], len(files)
            if broken:  # the book is made of the good files; the broken ones are pages of their errors
                files, jobs, made = zip(*[(f, j, m) for f, j, m in zip(files, jobs, made) if not m.errors])
            _count(made, report)
            phase("lessons")

            slugs = {m.lesson.slug: chapters[f] for f, m in zip(files, made) if f in chapters}
            book = book_context([m.lesson for m in made], env, rules=engines.rules, book=options.book,
                                chapters=slugs)
            say(f"rendering the site's sources and {len(made)} lesson page{'' if len(made) == 1 else 's'}")
            sources = render_site_sources(book, env, options=screen_options(options, "site"), title=options.title)
            folder = new_folder(options.output)
            say("building the site (ProperDocs)")
            site = pool.submit(build_site_into, folder, sources, options)  # beside the lesson pages
            pages = render_html(book, env, options=screen_options(options, "html"), broken=broken)
            phase("pages")
            pdf = None
            if booklet is not None:
                printed = replace(book, hands=[m.printed for m in made if m.printed.kind == "hand"],
                                  problems=[m.printed for m in made if m.printed.kind == "problem"])
                laid = booklet.lay_out(printed, progress)
                if not site.done():  # as after an edit, when the site is the last job: joined beside it
                    pdf, report.pdf_pages = booklet.join(laid)
            site.result()
            pool.close()  # the workers' memory given back before the whole booklet is joined here
            if booklet is not None:
                if pdf is None:
                    pdf, report.pdf_pages = booklet.join(laid)
                phase("booklet")

            # a build with broken files is never up to date: the next one reports them again
            write_output(folder, options.output, pages, pdf,
                         Stamp(key if options.booklet and not broken else "", report.lessons, report.problems,
                               report.pdf_pages))
            folder = None
            phase("write and site")
        finally:
            pool.close()  # after the jobs running (a site writing into the folder, say)
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        report.made, report.reused = pool.made, pool.reused
        report.inputs = PageInputs(list(files), [key for key, _ in jobs], [m.lesson for m in made], env, sources)
        for kind, keys in pool.used.items():
            store.prune(kind, keys)
        store.prune("furniture", ())  # the running heads' documents of earlier versions
    report.seconds = time.perf_counter() - started
    say(f"wrote {options.output}/: {report.lessons} lesson{'' if report.lessons == 1 else 's'}"
        + (f", {report.problems} problem{'' if report.problems == 1 else 's'}" if report.problems else "")
        + (f", {len(broken)} page{'' if len(broken) == 1 else 's'} of errors" if broken else "")
        + (f", a {report.pdf_pages}-page booklet" if options.booklet else "")
        + f" and the site in {report.seconds:.1f} s")
    return report


__all__ = ["build", "BuildOptions", "BuildReport", "BuildFailed", "errors_in", "Made", "PageInputs", "hand_files",
           "make_lesson", "lesson_jobs", "screen_options", "build_site_into", "lesson_slug"]
