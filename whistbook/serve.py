"""``whistbook serve``: the book previewed as it is written.

It stands on the live-reload server of ProperDocs (MkDocs 1.x continued) (which serves a folder, injects a
small script into each HTML page and holds the browser's poll until a
rebuild is done) and on ``watchfiles`` to see saves.

A save that changes only what hand files say inside their own lessons (a
remark, a card, a note; not a title, a theme, the tags or the set of files)
makes those lessons again and writes their two pages (``html/`` and the
site's) straight into the output, the site's page by ProperDocs' own steps
on the site held open (:class:`~whistbook.render.site.SitePages`), so it is
the page a whole build would write. Any other save runs the incremental
build (without the booklet, unless ``--booklet``). A build that fails does
not stop the server: every page shows the problems, ``path:line:col:
message`` as ``whistbook validate`` prints them, until the next good save.

Only the output folder is served: a path is normalised inside it, so
``../`` and absolute paths cannot leave it, and anything else is 404.
"""

from __future__ import annotations

import html
import logging
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from .build import BuildFailed, BuildOptions, BuildReport, PageInputs, build, hand_files, lesson_jobs, make_lesson, screen_options
from .buildcache import Store
from .output import BOOKLET, STAMP
from .errors import WhistbookError

Progress = Callable[[str], None]
ACTION = "/__whistbook/booklet"


def _server_class() -> type:
    from properdocs.livereload import LiveReloadServer

    class PreviewServer(LiveReloadServer):
        """The site generator's server, with whistbook's error page and booklet button."""

        problems: list[str] | None = None
        on_booklet: Callable[[], None] = staticmethod(lambda: None)

        def _serve_request(self, environ: dict, start_response: Any):
            path = environ["PATH_INFO"]
            if path == "/":
                start_response("302 Found", [("Location", "/html/index.html")])
                return []
            if path == ACTION:
                self.on_booklet()
                start_response("302 Found", [("Location", "/" + BOOKLET)])
                return []
            if self.problems is not None and (path.endswith(".html") or path.endswith("/")):
                with self._epoch_cond:
                    epoch = self._visible_epoch
                body = self._inject_js_into_html(error_page(self.problems).encode("utf-8"), epoch)
                start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                          ("Content-Length", str(len(body)))])
                return [body]
            return super()._serve_request(environ, start_response)

        def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
            button = (f'<a href="{ACTION}" style="position:fixed;right:.6em;bottom:.6em;z-index:99;'
                      'background:#14365d;color:#fff;padding:.3em .7em;border-radius:.3em;font:14px sans-serif;'
                      'text-decoration:none">Lay out the booklet</a>').encode("utf-8")
            if b"</body>" in content:
                content = content.replace(b"</body>", button + b"</body>", 1)
            return super()._inject_js_into_html(content, epoch)

    return PreviewServer


def error_page(problems: list[str]) -> str:
    items = "\n".join(f"<li><code>{html.escape(p)}</code></li>" for p in problems)
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>The build failed</title></head>"
            "<body style=\"font:16px/1.5 sans-serif;max-width:60em;margin:2em auto;padding:0 1em\">"
            "<h1>The build failed</h1><p>Nothing was rebuilt; this page reloads when the files are mended.</p>"
            f"<ul style=\"color:#8b0000\">{items}</ul></body></html>")


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
        self._site: Any = None  # the site held open (SitePages), opened on the first update

    def build(self, with_booklet: bool, say: Progress) -> BuildReport:
        self.inputs, self._site = None, None
        report = build(replace(self.options, booklet=with_booklet), say)
        self.inputs = report.inputs
        return report

    def _open_site(self) -> Any:
        from .render.site import SitePages

        if self._site is None:
            out = self.options.output
            self._site = SitePages(self.inputs.nav, out / ".site-src", out / ".site-theme", out / "site",
                                   config_file=self.options.mkdocs_config, site_name=self.options.title)
        return self._site

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
        pages. Returns the slugs written, or None when the change reaches beyond
        those pages (a title, a theme, a file added or removed, a template, the
        settings) and needs a build.

        :raises BuildFailed: when a changed file has errors (nothing is written).
        """
        from .render.context import split_lessons
        from .render.html import lesson_pages
        from .render.site import lesson_page, lesson_source

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
        store, made = Store(opts.cache), []
        for k in todo:
            key, args = jobs[k]
            made.append(store.get("lessons", key) or make_lesson(*args))
            if not made[-1].errors:
                store.put("lessons", key, made[-1])  # for the next build
        errors = [d for m in made for d in m.errors]
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
        out, site_pages = opts.output, self._open_site()
        self.inputs = None  # until every page is written: a failure part-way asks for a build
        (out / STAMP).write_text("\n", encoding="utf-8")  # the output no longer matches the last build's key
        site = screen_options(opts, "site")
        for k in todo:
            site_pages.write(lesson_page(lessons[k]), lesson_source(lessons[k], inputs.env, site))
        for name, text in pages.items():
            (out / "html" / name).write_text(text, encoding="utf-8")
        self.inputs = replace(inputs, keys=[key for key, _ in jobs], lessons=lessons)
        return sorted(slugs)


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
    Ctrl-C (or ``stop``, for tests). ``ready`` is set once it listens."""
    import watchfiles

    say = progress or (lambda message: None)
    lock = threading.Lock()
    options.output.mkdir(parents=True, exist_ok=True)
    server = _server_class()(builder=lambda: None, host=host, port=port, root=str(options.output))
    stop = stop or threading.Event()

    preview = Preview(options)
    saved: set[Path] = set()  # the files saved since the last rebuild (the watcher adds, a rebuild takes)

    def rebuild(with_booklet: bool = options.booklet) -> None:
        with lock:
            with server._rebuild_cond:
                changed = set(saved)
                saved.clear()
            started = time.perf_counter()
            try:
                written = None if with_booklet else preview.update(changed)
                if written is None:
                    report = preview.build(with_booklet, say)
                    say(f"rebuilt in {report.seconds:.1f} s ({report.made} made, {report.reused} reused)")
                elif written:
                    say(f"wrote the pages of {', '.join(written)} in {time.perf_counter() - started:.2f} s")
                server.problems = None
            except WhistbookError as err:
                server.problems = _problems(err)
                for line in server.problems:
                    say(line)

    server.builder = rebuild
    server.on_booklet = lambda: rebuild(True)
    rebuild()

    def warm_up() -> None:
        with lock:  # a save waits for it rather than sharing the engines' caches with it
            preview.warm_up()

    threading.Thread(target=warm_up, name="whistbook-warm-up", daemon=True).start()

    def watch() -> None:
        for changes in watchfiles.watch(*watched(options), stop_event=stop, debounce=50, step=20,
                                        raise_interrupt=False):
            with server._rebuild_cond:
                saved.update(Path(path) for _, path in changes)
                server._want_rebuild = True
                server._rebuild_cond.notify_all()

    server._watched_paths = {str(p): 1 for p in watched(options)}  # makes the server inject its reload script
    watcher = threading.Thread(target=watch, name="whistbook-watch", daemon=True)
    watcher.start()
    logging.getLogger("properdocs.livereload").setLevel(logging.WARNING)
    server.server_bind()
    server.server_activate()
    server.serve_thread.start()
    say(f"serving {options.output}/ on http://{host}:{server.server_address[1]}/ (Ctrl-C stops)")
    if ready is not None:
        ready.port = server.server_address[1]  # type: ignore[attr-defined]
        ready.set()
    stopper = threading.Thread(target=lambda: (stop.wait(), server.shutdown()), daemon=True)
    stopper.start()
    try:
        server._build_loop()
    except KeyboardInterrupt:
        say("stopping")
    finally:
        stop.set()
        server.shutdown()
        watcher.join(timeout=2)
    return 0


__all__ = ["serve", "Preview", "error_page", "watched"]
