"""``whistbook serve``: the book previewed as it is written.

It stands on the live-reload server of ProperDocs (MkDocs 1.x continued) (which serves a folder, injects a
small script into each HTML page and holds the browser's poll until a
rebuild is done) and on ``watchfiles`` to see saves. Each save runs the
incremental build (without the booklet, unless ``--booklet``): only the
changed lessons are made again. A build that fails does not stop the
server: every page shows the problems, ``path:line:col: message`` as
``whistbook validate`` prints them, until the next good save.

Only the output folder is served: a path is normalised inside it, so
``../`` and absolute paths cannot leave it, and anything else is 404.
"""

from __future__ import annotations

import html
import logging
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from .build import BOOKLET, BuildFailed, BuildOptions, build
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

    def rebuild(with_booklet: bool = options.booklet) -> None:
        with lock:
            try:
                report = build(replace(options, booklet=with_booklet), say)
                server.problems = None
                say(f"rebuilt in {report.seconds:.1f} s ({report.made} made, {report.reused} reused)")
            except WhistbookError as err:
                server.problems = _problems(err)
                for line in server.problems:
                    say(line)

    server.builder = rebuild
    server.on_booklet = lambda: rebuild(True)
    rebuild()

    def watch() -> None:
        for _ in watchfiles.watch(*watched(options), stop_event=stop, debounce=50, step=20,
                                  raise_interrupt=False):
            with server._rebuild_cond:
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


__all__ = ["serve", "error_page", "watched"]
