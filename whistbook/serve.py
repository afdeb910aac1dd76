"""``whistbook serve``: the book previewed as it is written.

It stands on a small server of its own (:mod:`whistbook.server`: the
output folder, a script in each page that reloads it after a rebuild, the
booklet's button) and on ``watchfiles`` to see saves.

A save that changes only what hand files say inside their own lessons (a
remark, a card, a note; not a title, a theme, the tags or the set of files)
makes those lessons again and writes their pages (``html/``) straight into
the output, then builds the site again (ProperDocs' whole build, which a
build would make: only its lessons' pages change) and swaps it in. Any other save runs the incremental
build (without the booklet, unless ``--booklet``: then the lesson's pages
first, the booklet after). The build goes on past a hand file with errors
(as ``build --keep-going`` does): that file's page shows its problems,
``path:line:col: message`` as ``whistbook validate`` prints them, and the
other lessons are made as usual. When nothing can be built (every file has
errors, a template fails) every page shows the problems, until the next
good save.

Beside the output it serves the workbench (:mod:`whistbook.workbench`): a
page where a hand is dealt and played by clicking cards, and written into
the hands folder as a new file, which the watcher then builds.

Only the output folder and the workbench are served, to this machine (see
:mod:`whistbook.server`).
"""

from __future__ import annotations

import shutil
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from .build import (BuildFailed, BuildOptions, BuildReport, PageInputs, build, hand_files, lesson_jobs, make_lesson,
                    screen_options, store_of)
from .output import BOOKLET, forget_build, new_folder, swap_in, write_files
from .errors import ConfigError, WhistbookError
from .server import PreviewServer
from . import workbench

Progress = Callable[[str], None]


def _problems(err: WhistbookError) -> list[str]:
    if isinstance(err, BuildFailed):
        return [str(d) for d in err.diagnostics] + [str(err)]
    return [str(err)]


class Preview:
    """The output as ``serve`` keeps it: built whole, then a lesson's pages at a time."""

    def __init__(self, options: BuildOptions) -> None:
        self.options = options
        #: what the last build made the pages from; None until a build succeeds, and after a failed update
        self.inputs: PageInputs | None = None
        #: the site is behind the lesson pages (:meth:`update` wrote these, :meth:`update_site` catches up)
        self.site_behind = False

    def build(self, with_booklet: bool, say: Progress) -> BuildReport:
        self.inputs = None
        report = build(replace(self.options, booklet=with_booklet), say)
        self.inputs, self.site_behind = report.inputs, False
        return report

    def warm_up(self) -> None:
        """Make the first lesson once in this process, thrown away: the first save then
        finds the engines and the double-dummy solver's library loaded (a second or so)."""
        if self.inputs is not None:
            try:
                make_lesson(*lesson_jobs(self.inputs.files[:1], self.options)[0][1])
            except WhistbookError:
                pass  # the save that needs it will report it

    def update(self, changed: set[Path]) -> list[str] | None:
        """Make again the lessons of the hand files in ``changed`` and write their
        pages (``html/``; the site's come after, by :meth:`update_site`). Returns
        the slugs written, or None when the change reaches beyond those pages (a
        title, a theme, a file added or removed, a template, the settings) and
        needs a build.

        :raises BuildFailed: when a changed file has errors (nothing is written).
        """
        from .render.context import split_lessons
        from .render.html import lesson_pages
        from .render.site import lesson_page, lesson_source
        from .render.site import SiteSources

        opts, inputs = self.options, self.inputs
        hands = opts.hands.resolve()
        if inputs is None or not changed or not all(
                p.suffix == ".yaml" and p.resolve().is_relative_to(hands) for p in changed):
            return None
        files, _ = hand_files(opts)
        if files != inputs.files:
            return None
        jobs = lesson_jobs(files, opts)
        todo = [k for k, (key, _) in enumerate(jobs) if key != inputs.keys[k]]
        store, made = store_of(opts), []
        for k in todo:
            key, args = jobs[k]
            made.append(store.get("lessons", key) or make_lesson(*args))
            if not made[-1].errors:
                store.put("lessons", key, made[-1])  # for the next build
        errors = [d for m in made for d in m.errors]
        if errors and opts.keep_going:
            return None  # the build writes the broken file's page of errors, and the others
        if errors:
            raise BuildFailed(errors, len(files))
        lessons = list(inputs.lessons)
        for k, m in zip(todo, made):
            if _listed(m.lesson) != _listed(lessons[k]):
                return None
            lessons[k] = m.lesson
        slugs = frozenset(lessons[k].slug for k in todo)
        in_book, problems, _ = split_lessons(lessons)
        pages = lesson_pages(in_book + problems, inputs.env, options=screen_options(opts, "html"), only=slugs)
        site = screen_options(opts, "site")
        docs = {**inputs.sources.docs, **{lesson_page(lessons[k]): lesson_source(lessons[k], inputs.env, site)
                                          for k in todo}}
        out = opts.output
        self.inputs = None  # until every page is written: a failure part-way asks for a build
        forget_build(out)  # the output is no longer the last build's
        write_files(pages, out / "html")
        sources = SiteSources(docs, inputs.sources.theme, inputs.sources.nav)
        self.inputs = replace(inputs, keys=[key for key, _ in jobs], lessons=lessons, sources=sources)
        self.site_behind = self.site_behind or bool(todo)
        return sorted(slugs)

    def update_site(self) -> None:
        """Build the site again from the lessons :meth:`update` made (ProperDocs'
        whole build, into a folder beside the site's, then swapped in for it).

        :raises RenderError: when ProperDocs fails (the site is left as it was).
        """
        from .render.site import build_site

        if not self.site_behind or self.inputs is None:
            return
        out, opts = self.options.output, self.options
        new = new_folder(out / "site")
        try:
            build_site(self.inputs.sources, out / ".site-src", out / ".site-theme", new,
                       config_file=opts.mkdocs_config, site_name=opts.title)
            swap_in(new, out / "site")
        finally:
            if new.exists():
                shutil.rmtree(new, ignore_errors=True)
        self.site_behind = False


def _listed(lesson: Any) -> tuple:
    """What other pages show of a lesson (the indexes, the navigation, the next and previous links)."""
    return lesson.slug, lesson.kind, lesson.title, lesson.theme, lesson.tags, lesson.themes


def watched(options: BuildOptions) -> list[Path]:
    """What a rebuild depends on: the hand files, the templates and the settings."""
    return [p for p in (options.hands, options.templates, options.mkdocs_config) if p.exists()]


def serve(options: BuildOptions, *, host: str = "127.0.0.1", port: int = 8000,
          progress: Progress | None = None, ready: threading.Event | None = None,
          stop: threading.Event | None = None) -> int:
    """Build, serve ``options.output`` and rebuild on every save until
    Ctrl-C (or ``stop``, for tests). ``ready`` is set once it listens
    (and given the port as ``ready.port``).

    :raises ConfigError: when the address cannot be listened on.
    """
    import watchfiles

    say = progress or (lambda message: None)
    lock = threading.Lock()
    options.output.mkdir(parents=True, exist_ok=True)
    stop = stop or threading.Event()
    preview = Preview(options)
    saved: set[Path] = set()  # the files saved since the last rebuild (the watcher adds, a rebuild takes)
    wanted = threading.Condition()

    def rebuild(with_booklet: bool) -> None:
        with lock:
            with wanted:
                changed = set(saved)
                saved.clear()
            _rebuild(preview, server, changed, with_booklet, say)

    try:
        server = PreviewServer(options.output, host, port, "/" + BOOKLET, on_booklet=lambda: rebuild(True),
                               pages=workbench.page_file, actions=workbench_actions(options, lock),
                               workbench=workbench.PAGE)
    except OSError as err:
        raise ConfigError(f"cannot listen on {host}:{port}: {err.strerror}") from None
    rebuild(options.booklet)

    def warm_up() -> None:
        with lock:  # a save waits for it rather than sharing the engines' caches with it
            preview.warm_up()

    threading.Thread(target=warm_up, name="whistbook-warm-up", daemon=True).start()

    def watch() -> None:
        for changes in watchfiles.watch(*watched(options), stop_event=stop, debounce=50, step=20,
                                        raise_interrupt=False):
            with wanted:
                saved.update(Path(path) for _, path in changes)
                wanted.notify_all()

    watcher = threading.Thread(target=watch, name="whistbook-watch", daemon=True)
    watcher.start()
    threading.Thread(target=server.serve_forever, name="whistbook-serve", daemon=True).start()
    say(f"serving {options.output}/ on http://{host}:{server.server_address[1]}/ (Ctrl-C stops)")
    if ready is not None:
        setattr(ready, "port", server.server_address[1])
        ready.set()
    try:
        while not stop.is_set():
            with wanted:
                wanted.wait_for(lambda: saved or stop.is_set(), timeout=0.5)
            if saved and not stop.is_set():
                rebuild(options.booklet)
    except KeyboardInterrupt:
        say("stopping")
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
        watcher.join(timeout=2)
    return 0


def workbench_actions(options: BuildOptions, lock: Any) -> dict[str, Callable[[bytes], tuple[int, bytes]]]:
    """The workbench's requests (:mod:`whistbook.workbench`): a card checked, a hand
    written into the book's hands folder, which the watcher then sees. Writing
    solves the claim with the double-dummy solver, which one process may not run
    in two threads at once: it waits for ``lock``, which a rebuild holds."""
    from .project import schema_ref

    def check(body: bytes) -> tuple[int, bytes]:
        return workbench.answer(workbench.CHECK, body, options.hands)

    def write(body: bytes) -> tuple[int, bytes]:
        with lock:
            return workbench.answer(workbench.WRITE, body, options.hands, schema_ref(options.hands / "new.yaml"))

    return {workbench.CHECK: check, workbench.WRITE: write}


def _rebuild(preview: Preview, server: PreviewServer, changed: set[Path], with_booklet: bool, say: Progress) -> None:
    """Make what the saves in ``changed`` touch: a lesson's own pages first when
    that is all they touch (the page reloads at once), then, with the booklet,
    the build that lays it out; else the build. The pages reload after each."""
    started = time.perf_counter()
    try:
        written = preview.update(changed) if changed else None
        if written:
            say(f"wrote the pages of {', '.join(written)} in {time.perf_counter() - started:.2f} s")
            server.problems = None
            server.changed()
            if not with_booklet:  # else the build below makes the site with the booklet
                preview.update_site()
                say(f"built the site again in {time.perf_counter() - started:.2f} s")
        if written is None or with_booklet:
            report = preview.build(with_booklet, say)
            for d in report.broken:
                say(str(d))
            bad = len({d.loc.path for d in report.broken if d.loc})
            say(f"rebuilt in {report.seconds:.1f} s ({report.made} made, {report.reused} reused)"
                + (f"; {bad} file{'s' if bad != 1 else ''} with errors, shown on {'their' if bad != 1 else 'its'} "
                   "page" + ("s" if bad != 1 else "") if bad else ""))
        server.problems = None
    except WhistbookError as err:
        server.problems = _problems(err)
        for line in server.problems:
            say(line)
    server.changed()


__all__ = ["serve", "Preview", "watched"]
