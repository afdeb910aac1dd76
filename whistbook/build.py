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
4. *booklet*: laid out in parts (each lesson, the answers, the back matter's
   three sections), each carrying its own running heads and stored by what
   it is made from: a lesson's part (and the principles and the glossary) by
   the lesson's key and the book's settings, so that its HTML is rendered
   only when it is laid out; a part made from the whole book by its HTML's
   key. Then the front matter and the lessons by theme with the
   page numbers the parts give, side by side, and the parts joined, with the
   page numbers printed over the pages and the links and bookmarks drawn.
5. *write*: into a temporary folder beside the output, with the site
   (ProperDocs) built there, and the new folder swapped in for the old one.
   The output folder is locked for the whole build; a build killed
   part-way leaves the old output, and the next build tidies what it left.

The stages overlap on one pool of worker processes, one a core, which take
jobs by rank, then in the order given: a lesson's part of the booklet is
given to them as soon as the lesson is made (a lesson's part depends on that
lesson and the book's settings only), and the site, the answers and the
measures of the front and the lessons by theme as soon as the whole book is
known, ahead of the lessons' parts still waiting, so that the last jobs are
the short parts and the few that need every page number. When the site is
still being built at the end (after an edit, when little else is made), the
booklet is joined beside it.

The inference and analysis modules are optional: when they are present
their inferences, principles and double-dummy verdicts appear in the
lessons; without them the lessons are complete but plainer.
"""

from __future__ import annotations

import heapq
import importlib
import importlib.util
import os
import shutil
import tempfile
import threading
import time
from concurrent.futures import BrokenExecutor, CancelledError, Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .buildcache import PACKAGE, OutputLock, Store, code_key, digest, folder_key, tidy_after_interruption
from .errors import ConfigError, Diagnostic, RenderError, WhistbookError
from .lesson import Lesson, build_lesson, viewpoint_of
from .project import Book, Chapter, order_files

Progress = Callable[[str], None]
STAMP = ".whistbook-build"  # the build's key, inside the output folder
BOOKLET = "whistbook.pdf"


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

    @classmethod
    def for_book(cls, book: Book, **paths: Any) -> "BuildOptions":
        return cls(paper=book.paper, four_colour=book.four_colour, analysis_in_booklet=book.analysis_in_booklet,
                   title=book.title, subtitle=book.subtitle, author=book.author, order=book.order, **paths)

    @property
    def book(self) -> Book:
        return Book(title=self.title, subtitle=self.subtitle, author=self.author, paper=self.paper,
                    four_colour=self.four_colour, analysis_in_booklet=self.analysis_in_booklet, order=self.order)


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


@dataclass
class PageInputs:
    """What a build made its pages from: the hand files in the book's order, their
    keys and lessons, the templates' environment and the site's navigation."""

    files: list[Path]
    keys: list[str]
    lessons: list[Lesson]
    env: Any
    nav: list[Any]


@dataclass
class _Engines:
    explain: Callable[..., Any] | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    analyse: Callable[..., Any] | None = None
    cache: Any = None


def _engines(cache_dir: Path | None = None, *, keep: bool = True) -> _Engines:
    """The inference and analysis modules, when this installation has them.
    A module that exists but fails to import is an error, not an absence.
    The solver's answers are kept in ``cache_dir``, else (with ``keep``) in
    the analysis module's default place, else nowhere."""
    out = _Engines()
    if importlib.util.find_spec("whistbook.inference") is not None:
        mod = importlib.import_module("whistbook.inference")
        out.explain = mod.explain
        out.rules = dict(getattr(mod, "RULES", {}) or {})
    if importlib.util.find_spec("whistbook.analysis") is not None:
        mod = importlib.import_module("whistbook.analysis")
        out.analyse = mod.analyse
        cache_cls = getattr(mod, "Cache", None)
        cache_dir = cache_dir or (getattr(mod, "default_cache_dir", lambda: None)() if keep else None)
        if cache_cls is not None and cache_dir is not None:
            out.cache = cache_cls(cache_dir)
    return out


def lesson_slug(path: Path, hands_dir: Path) -> str:
    """A page name from a hand file's path under the hands folder:
    ``cavendish/01-trump-lead.yaml`` -> ``cavendish-01-trump-lead``."""
    try:
        rel = path.resolve().relative_to(hands_dir.resolve())
    except ValueError:
        rel = Path(path.name)
    return "-".join(rel.with_suffix("").parts)


# --- 1. lessons ------------------------------------------------------------------


@dataclass
class Made:
    """One hand file made into its lessons (for the pages, and for print)."""

    title: str
    errors: list[Diagnostic]
    lesson: Lesson | None = None
    printed: Lesson | None = None


def make_lesson(path: Path, slug: str, index: int, analysis_in_booklet: bool, cache_dir: Path | None) -> Made:
    """Check, explain and analyse one hand file and make its lessons (runs in a worker)."""
    from .corpus import check_file

    engines = _worker_engines(cache_dir)
    # The infer: statements are checked with the lesson's own explanation, not one made for them alone.
    ch = check_file(path, statements=False)
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
        # every card's cost, and every legal card's worth where the lesson shows it (the quiz at the known hand's cards)
        analysis = (engines.analyse(ch, cache=engines.cache, options_for={viewpoint_of(ch.hand, explanation)})
                    if engines.analyse is not None and ch.hand.kind == "hand" else None)
    except WhistbookError as err:
        return Made(title, [Diagnostic.from_error(err, str(path))])
    common = dict(explanation=explanation, rules=engines.rules, index=index, slug=slug)
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
        key = digest(code_key(), path.read_bytes(), str(path), slug, str(k), str(options.analysis_in_booklet))
        jobs.append((key, (path, slug, k, options.analysis_in_booklet, options.cache)))
    return jobs


def make_lessons(jobs: Sequence[tuple[str, tuple]], store: Store, pool: "_Pool", report: BuildReport, say: Progress,
                 each: Callable[[str, Made], None] | None = None,
                 meanwhile: Callable[[], None] | None = None) -> list[Made]:
    """Every file's lessons, in order (``jobs`` from :func:`lesson_jobs`).
    ``each`` is given each good file's key and lessons as soon as they are
    made, so that what they go into can start while the other files are still
    made; ``meanwhile`` is called once the workers have the jobs.

    :raises BuildFailed: with every problem of every file, if any has an error.
    """
    def made_one(k: int, m: Made) -> None:
        if each is not None and not m.errors:
            each(jobs[k][0], m)

    batch = pool.start("lessons", make_lesson, jobs, store, report, rank=LESSONS)
    if meanwhile is not None:
        meanwhile()
    made = pool.finish(batch, made_one)
    diagnostics = []
    for k, m in enumerate(made, 1):
        errors = len(m.errors)
        say(f"[{k}/{len(jobs)}] {m.title}" + (f": {errors} error{'s' if errors != 1 else ''}" if errors else ""))
        diagnostics += m.errors
    if diagnostics:
        raise BuildFailed(diagnostics, len(jobs))
    return made


#: The order in which the workers take jobs (``rank``): the lessons first (the
#: rest of the book waits for them), then the jobs that wait for the whole book
#: (the site, the answers, the measures with stand-ins), and last the parts that
#: only fill the cores meanwhile (each lesson's part, the principles, the glossary).
LESSONS, BOOK, FILL = 0, 1, 2


class _Pool:
    """Worker processes, started only when there is work no stored piece covers.

    Every stage gives its jobs to the same workers: a stage's jobs can be
    given while an earlier stage's are still running, so that no core waits
    for a stage to end. The workers take them by rank, then in the order
    given: only a few jobs are in the executor at a time (which would take
    them in order), so that a job given late but needed soon goes before the
    parts still waiting. A job asked for twice in one build (the same kind
    and key) is done once.
    """

    def __init__(self, workers: int | None, lock: OutputLock | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.lock = lock
        self._executor: Executor | None = None
        #: jobs not yet in the executor, by (rank, order given); how many are in it
        self._waiting: list[tuple[int, int, Callable[..., Any], tuple, Future]] = []
        self._given_count, self._running = 0, 0
        self._mutex = threading.Lock()  # the executor's results come in on its own thread
        #: the keys each kind of piece was asked for (what the store should keep)
        self.used: dict[str, set[str]] = {}
        #: the jobs given to the workers in this build (and the pieces found in the store), by kind and key
        self._given: dict[tuple[str, str], Future] = {}
        #: the pieces in the store (found there, or made in this build and put there)
        self._kept: set[tuple[str, str]] = set()

    def run(self, kind: str, fn: Callable[..., Any], jobs: Sequence[tuple[str, tuple]], store: Store,
            report: BuildReport, weight: Callable[[tuple], int] | None = None, rank: int = BOOK) -> list[Any]:
        """``fn(*args)`` for each ``(key, args)``, from the store when it has the key.
        With ``weight`` (of the arguments), the heaviest jobs are started first,
        so that no long one is left to run alone at the end."""
        return self.finish(self.start(kind, fn, jobs, store, report, weight, rank))

    def start(self, kind: str, fn: Callable[..., Any], jobs: Sequence[tuple[str, Any]], store: Store,
              report: BuildReport, weight: Callable[[tuple], int] | None = None, rank: int = BOOK) -> "_Batch":
        """:meth:`run` begun: the workers take the jobs while the caller
        starts more; :meth:`finish` waits for the results. A job's arguments
        may be given as a function that makes them, called here when the
        job is given, only if the store does not have its piece."""
        self.used.setdefault(kind, set()).update(key for key, _ in jobs)
        batch = _Batch(kind, jobs, store, [None] * len(jobs))
        todo = []
        for k, (key, _) in enumerate(jobs):
            if (kind, key) in self._given:
                batch.futures[k] = self._given[kind, key]
            elif (found := store.get(kind, key)) is not None:
                batch.results[k] = found
                self._given[kind, key] = _resolved(found)  # read once, however often asked for
                self._kept.add((kind, key))
                report.reused += 1
            else:
                todo.append(k)
        report.made += len(todo)
        args = {k: jobs[k][1]() if callable(jobs[k][1]) else jobs[k][1] for k in todo}
        if weight is not None:
            todo.sort(key=lambda k: -weight(args[k]))
        for k in todo:
            batch.futures[k] = self._given[kind, jobs[k][0]] = self.submit(fn, *args[k], rank=rank)
        return batch

    def submit(self, fn: Callable[..., Any], *args: Any, rank: int = BOOK) -> Future:
        """``fn(*args)`` in a worker (here, with one worker), after the jobs of
        a lower rank and those of its rank given before it. Single jobs go to
        the workers too: the main process then never holds a layout's memory,
        and a lone job runs beside the next one given."""
        if self.workers == 1:
            return _done(fn, *args)
        if self._executor is None:
            # Workers must not keep the output's lock open when the build is killed.
            self._executor = ProcessPoolExecutor(self.workers, initializer=_start_worker,
                                                 initargs=(self.lock.fd if self.lock else None,))
        future: Future = Future()
        with self._mutex:
            heapq.heappush(self._waiting, (rank, self._given_count, fn, args, future))
            self._given_count += 1
        self._feed()
        return future

    def _feed(self) -> None:
        """Move the first waiting jobs into the executor, keeping one more than
        there are workers in it: each worker has its next job at hand."""
        while True:
            with self._mutex:
                if not (self._waiting and self._executor is not None and self._running <= self.workers):
                    return
                _, _, fn, args, future = heapq.heappop(self._waiting)
                if not future.set_running_or_notify_cancel():
                    continue
                self._running += 1
                executor = self._executor
            try:  # outside the lock: a job already done calls back at once
                inner = executor.submit(fn, *args)
            except RuntimeError as err:  # closed meanwhile, or broken (a worker killed): said as it is
                inner = Future()
                inner.set_exception(err)
            inner.add_done_callback(partial(self._ended, future))

    def _ended(self, future: Future, inner: Future) -> None:
        """A job's result handed to its future (on the executor's thread), and the next job in."""
        with self._mutex:
            self._running -= 1
        if inner.cancelled():
            future.set_exception(CancelledError())
        elif inner.exception() is not None:
            future.set_exception(inner.exception())
        else:
            future.set_result(inner.result())
        self._feed()

    def finish(self, batch: "_Batch", each: Callable[[int, Any], None] | None = None) -> list[Any]:
        """The batch's results, in order; ``each(k, result)`` is called as each is ready.
        What was made (and has no errors) is put in the store."""
        waiting: dict[Future, list[int]] = {}
        for k in range(len(batch.jobs)):
            if k in batch.futures:
                waiting.setdefault(batch.futures[k], []).append(k)
            elif each is not None:
                each(k, batch.results[k])
        for future in as_completed(waiting):
            for k in waiting[future]:
                try:
                    batch.results[k] = result = future.result()
                except BrokenExecutor as err:  # a worker killed (out of memory, say): no traceback
                    raise RenderError(f"a worker process stopped before its work was done ({err})") from err
                key = (batch.kind, batch.jobs[k][0])
                if key not in self._kept and not getattr(result, "errors", None):
                    batch.store.put(*key, result)
                    self._kept.add(key)
                if each is not None:
                    each(k, result)
        return batch.results

    def close(self) -> None:
        """Stop the workers, after the jobs they are running (those not begun are dropped)."""
        with self._mutex:
            executor, self._executor = self._executor, None
            for *_, future in self._waiting:
                future.cancel()
            self._waiting.clear()
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


@dataclass
class _Batch:
    """Jobs given to the pool: their results so far, and the futures of the rest."""

    kind: str
    jobs: Sequence[tuple[str, Any]]  # (key, arguments or a function that makes them)
    store: Store
    results: list[Any]
    futures: dict[int, Any] = field(default_factory=dict)


def _start_worker(fd: int | None) -> None:
    from . import solver

    if fd is not None:
        os.close(fd)
    solver.limit_threads(1)  # the workers already keep every core busy


def _done(fn: Callable[..., Any], *args: Any) -> Future:
    """``fn(*args)`` run here, as a finished future."""
    return _resolved(fn(*args))


def _resolved(result: Any) -> Future:
    out: Future = Future()
    out.set_result(result)
    return out


# --- 4. the booklet ----------------------------------------------------------------


#: the back matter's parts, in order, each from a new page (see templates/booklet.html)
BACK_MATTER = ("themes", "principles", "glossary")
#: those that print the lessons' page numbers ("back" is the three as one part)
NUMBERED_BACK = ("themes", "back")


class Booklet:
    """The booklet, laid out in parts by the pool's workers: each lesson's part
    as soon as the lesson is made (:meth:`add`), the rest once the whole book
    is known (:meth:`lay_out`).

    :raises RenderError: when a template fails or a resource is refused.
    """

    def __init__(self, env: Any, options: BuildOptions, base: Any, store: Store, pool: "_Pool",
                 report: BuildReport) -> None:
        from .render.context import RenderOptions
        from .render.pdf import booklet_css, running_title_css

        self.env, self.options, self.store, self.pool, self.report = env, options, store, pool, report
        #: the book's context before its lessons are known (enough for a lesson's own part)
        self.base = base
        self.printed = RenderOptions(analysis=options.analysis_in_booklet, four_colour=options.four_colour,
                                     paper=options.paper, medium="print")
        # the title first, so that a project's stylesheet may set the string otherwise
        self.css = running_title_css(options.title) + booklet_css(env, options.paper, four_colour=options.four_colour)
        #: what a lesson's part is made from besides the lesson: the code, the
        #: stylesheet, the templates and the book's settings (see :meth:`lesson_job`)
        self.key = digest(code_key(), self.css, folder_key(PACKAGE / "templates"), folder_key(options.templates),
                          repr(self.printed), repr(options.book))
        #: each lesson's part's job, by the lesson's name
        self.parts: dict[str, tuple[str, Any]] = {}
        #: the jobs of the back matter's parts that need no lessons, by name (see :meth:`begin`)
        self.back: dict[str, tuple[str, Any]] = {}

    def html(self, part: str, book: Any, **kw: Any) -> str:
        from .render.pdf import booklet_part_html

        return booklet_part_html(part, book, self.env, options=self.printed, **kw)

    def jobs(self, htmls: Sequence[str]) -> list[tuple[str, tuple]]:
        """Parts' jobs, each keyed by its HTML."""
        return [(digest(code_key(), self.css, html), (html, self.css)) for html in htmls]

    def lesson_job(self, key: str, lesson: Lesson) -> tuple[str, Any]:
        """A lesson's part's job, keyed by the lesson's key (``key``, from its
        file and the code) and :attr:`key`: its HTML is rendered only when the
        part is not in the store. A lesson's part is made from the lesson and
        the book's settings alone, not from the other lessons."""
        return digest(self.key, "lesson", key), lambda: (self.html("lesson", self.base, lesson=lesson), self.css)

    def start(self, jobs: Sequence[tuple[str, Any]], *, draw: bool = True, rank: int = BOOK) -> "_Batch":
        """The parts laid out by the workers; without ``draw``, only their
        lengths and anchors (stored apart: never joined)."""
        kind, fn = ("booklet", _lay_out_part) if draw else ("booklet-length", _measure_part)
        return self.pool.start(kind, fn, jobs, self.store, self.report, weight=lambda args: len(args[0]), rank=rank)

    def add(self, key: str, made: Made) -> None:
        """Give a lesson's part to the workers, as soon as the lesson is made
        (its part does not change when the other lessons do)."""
        self.parts[made.printed.slug] = job = self.lesson_job(key, made.printed)
        self.start([job], rank=FILL)

    def begin(self) -> None:
        """Give the workers the parts that need no lessons: the principles and
        the glossary (which print no page numbers), made from the book's
        settings alone and keyed by them like a lesson's part."""
        for part in BACK_MATTER:
            if part not in NUMBERED_BACK:
                self.back[part] = digest(self.key, part), lambda part=part: (self.html(part, self.base), self.css)
        self.start(list(self.back.values()), rank=FILL)

    def lay_out(self, book: Any, say: Progress) -> tuple[list[Any], Any]:
        """Every part of the booklet laid out, in order, and the page numbers
        (:meth:`join` makes the PDF of them)."""
        say(f"laying out the booklet ({self.options.paper.upper()}) in parts")
        body = [self.parts.get(l.slug) or self.jobs([self.html("lesson", self.base, lesson=l)])[0]
                for l in book.hands + book.problems]
        if book.problems:
            body += self.jobs([self.html("answers", book)])
        anchors = [f"{l.slug}-lesson" for l in book.hands + book.problems] + ["answers", *BACK_MATTER]
        stand_ins = dict.fromkeys(anchors, 888)

        # The front matter (cover, contents) and the lessons by theme print page
        # numbers, but their lengths do not depend on the numbers: both are
        # measured with stand-ins beside the lessons (laid out, not drawn), then
        # laid out with the numbers, side by side. The principles and the
        # glossary print none: each is a part laid out once (begun by :meth:`begin`).
        def front_html(pages: Mapping[str, int]) -> str:
            return self.html("front", book, pages=pages)

        def back_html(part: str, pages: Mapping[str, int]) -> str:
            return self.html(part, book, pages=pages if part in NUMBERED_BACK else {})

        drawn = self.start([*body, *(self.back.get(part) or self.jobs([back_html(part, {})])[0]
                                     for part in BACK_MATTER[1:])])
        measured = self.start(self.jobs([front_html(stand_ins), back_html("themes", stand_ins)]), draw=False)
        laid = self.pool.finish(drawn)
        parts, back = laid[:len(body)], laid[len(body):]
        front, themes = self.pool.finish(measured)
        back_parts = BACK_MATTER
        if all(name in part.anchors for name, part in zip(BACK_MATTER, [themes, *back])):
            back = [themes, *back]
        else:  # a project's booklet.html that knows the back matter as one part only
            back_parts = ("back",)
            back = self.pool.finish(self.start(self.jobs([back_html("back", stand_ins)]), draw=False))

        def numbers(start: int, laid: Sequence[Any]) -> dict[str, int]:
            out = {}
            for part in laid:
                for name, (page, _, _) in part.anchors.items():
                    out.setdefault(name, start + page + 1)
                start += part.pages
            return out

        for _ in range(3):
            batch = self.start(self.jobs([front_html(numbers(front.pages, [*parts, *back])),
                                          back_html(back_parts[0], numbers(front.pages, parts))]))
            self.numbers(sum(p.pages for p in [front, *parts, *back]))  # beside them, for the stand-ins' length
            again, numbered = self.pool.finish(batch)
            settled = again.pages == front.pages and numbered.pages == back[0].pages
            front, back = again, [numbered, *back[1:]]
            if settled:
                break
        everything = [front, *parts, *back]
        [page_numbers] = self.pool.finish(self.numbers(sum(p.pages for p in everything)))
        for part in everything:
            for message in part.warnings:
                say(f"booklet: {message}")
        return everything, page_numbers

    def join(self, laid: tuple[list[Any], Any]) -> tuple[bytes, int]:
        """The booklet's PDF, joined from its parts, and its page count."""
        from .render.pdf import join_parts

        parts, page_numbers = laid
        book = self.options.book
        return join_parts(parts, page_numbers, title=book.title, author=book.author), sum(p.pages for p in parts)

    def numbers(self, last: int) -> "_Batch":
        """The page numbers of a booklet of ``last`` pages, laid out once (a
        few pages: see :func:`whistbook.render.pdf.lay_out_numbers`)."""
        from .render.pdf import lay_out_numbers

        key = digest(code_key(), self.css, str(last), self.options.paper)
        args = (self.css, last, self.options.paper)
        return self.pool.start("numbers", lay_out_numbers, [(key, args)], self.store, self.report)


def _lay_out_part(html: str, css: str, draw: bool = True) -> Any:
    """One part of the booklet laid out (in a worker that may have made lessons before)."""
    from . import solver
    from .render import pdf

    solver.release()  # the lessons are made: the solver's tables would only add to the layout's memory
    return pdf.lay_out_part(html, css, draw=draw)


def _measure_part(html: str, css: str) -> Any:
    """One part of the booklet laid out but not drawn: its length and anchors."""
    return _lay_out_part(html, css, draw=False)


# --- 5. writing -------------------------------------------------------------------


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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _new_folder(output: Path) -> Path:
    """An empty folder beside ``output`` to build the new output in (the next
    build removes it if this one is killed before the swap)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{output.name}-", dir=output.parent)).resolve()
    os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes it private; the output is not
    return tmp


def build_site_into(folder: Path, sources: Any, options: BuildOptions) -> None:
    """The site, with ProperDocs, into ``folder/site`` (in a worker, beside the booklet's parts)."""
    from .render import site

    site.build_site(sources, folder / ".site-src", folder / ".site-theme", folder / "site",
                    config_file=options.mkdocs_config, site_name=options.title)


def _write(folder: Path, output: Path, pages: Mapping[str, str], pdf: bytes | None, key: str) -> None:
    """The pages and the booklet into ``folder`` (the site is already there), then ``folder`` swapped in whole."""
    write_files(pages, folder / "html")
    if pdf is not None:
        write_files({BOOKLET: pdf}, folder)
    elif (output / BOOKLET).is_file():  # serve: the last booklet stays until one is asked for
        shutil.copy2(output / BOOKLET, folder / BOOKLET)
    (folder / STAMP).write_text(key + "\n", encoding="utf-8")
    _swap_in(folder, output)


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


def _built(options: BuildOptions, key: str) -> bool:
    """True when the output was built, booklet included, from what makes ``key``."""
    stamp = options.output / STAMP
    return options.booklet and stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == key


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


def build(options: BuildOptions = BuildOptions(), progress: Progress | None = None) -> BuildReport:
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

    say = progress or (lambda message: None)
    started = time.perf_counter()
    report = BuildReport(options.output)
    files, chapters = hand_files(options)
    store, lock = Store(options.cache), OutputLock(options.output)
    pool = _Pool(options.workers, lock)
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
            say(f"checking {len(files)} hand files in {options.hands}")
            if _built(options, key):  # the lessons only for the report (from the store, as a rule)
                _count(make_lessons(jobs, store, pool, report, say), report)
                phase("lessons")
                report.up_to_date, report.seconds = True, time.perf_counter() - started
                say(f"{options.output}/ is up to date ({report.seconds:.1f} s)")
                return report

            engines = _worker_engines(options.cache)
            report.inferences, report.analysis = engines.explain is not None, engines.analyse is not None
            env = make_environment(options.templates, rules=engines.rules, book=options.book,
                                   compiled=_compiled_templates(options.cache))
            booklet = None
            if options.booklet:
                booklet = Booklet(env, options, book_context([], env, rules=engines.rules, book=options.book),
                                  store, pool, report)
                if pool.workers > 1:
                    load_weasyprint()  # imported once here, not in each worker the pool forks
            made = make_lessons(jobs, store, pool, report, say, booklet.add if booklet else None,
                                booklet.begin if booklet else None)
            _count(made, report)
            phase("lessons")

            slugs = {m.lesson.slug: chapters[f] for f, m in zip(files, made) if f in chapters}
            book = book_context([m.lesson for m in made], env, rules=engines.rules, book=options.book,
                                chapters=slugs)
            say(f"rendering the site's sources and {len(made)} lesson pages")
            sources = render_site_sources(book, env, options=screen_options(options, "site"), title=options.title)
            folder = _new_folder(options.output)
            say("building the site (ProperDocs)")
            site = pool.submit(build_site_into, folder, sources, options)  # beside the lesson pages
            pages = render_html(book, env, options=screen_options(options, "html"))
            phase("pages")
            pdf = None
            if booklet is not None:
                printed = replace(book, hands=[m.printed for m in made if m.printed.kind == "hand"],
                                  problems=[m.printed for m in made if m.printed.kind == "problem"])
                laid = booklet.lay_out(printed, say)
                if not site.done():  # as after an edit, when the site is the last job: joined beside it
                    pdf, report.pdf_pages = booklet.join(laid)
            site.result()
            pool.close()  # the workers' memory given back before the whole booklet is joined here
            if booklet is not None:
                if pdf is None:
                    pdf, report.pdf_pages = booklet.join(laid)
                phase("booklet")

            say(f"writing into {folder}")
            _write(folder, options.output, pages, pdf, key if options.booklet else "")
            folder = None
            phase("write and site")
        finally:
            pool.close()  # after the jobs running (a site writing into the folder, say)
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        report.inputs = PageInputs(files, [key for key, _ in jobs], [m.lesson for m in made], env, sources.nav)
        for kind, keys in pool.used.items():
            store.prune(kind, keys)
        store.prune("furniture", ())  # the running heads' documents of earlier versions
    report.seconds = time.perf_counter() - started
    say(f"wrote {options.output}/: {report.lessons} lesson{'' if report.lessons == 1 else 's'}"
        + (f", {report.problems} problems" if report.problems else "")
        + (f", a {report.pdf_pages}-page booklet" if options.booklet else "")
        + f" and the site in {report.seconds:.1f} s")
    return report


__all__ = ["build", "BuildOptions", "BuildReport", "BuildFailed", "Made", "PageInputs", "Booklet", "hand_files",
           "make_lesson", "lesson_jobs", "screen_options", "build_site_into", "write_files", "lesson_slug", "STAMP",
           "BOOKLET"]
