"""The small HTTP server ``whistbook serve`` previews the output with.

It serves one folder (the build's output) to this machine's browser, and
holds each page's poll for changes until the next rebuild (long polling:
the page asks ``/__whistbook/changes?since=N`` and reloads when the
answer is a newer number). It is careful about who asks:

* only ``GET`` and ``HEAD`` read; what changes anything (laying out the
  booklet, the workbench's requests, which write a hand file) is a ``POST``
  from one of its own pages (its ``Origin`` is this server), so no other site
  can make the browser start it;
* the ``Host`` a request names must be this machine (``localhost``, or an
  address written as numbers): a page of another site whose name was made
  to point here (DNS rebinding) cannot read the preview;
* a path is read inside the folder only (``../`` and absolute paths are
  404), and a path or a number that makes no sense is a 400 or a 404, never
  an error of the server's own.
"""

from __future__ import annotations

import html
import ipaddress
import mimetypes
import posixpath
import socket
import threading
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import MappingProxyType
from typing import Callable, Mapping

#: the path of the booklet's button (a form that posts to it)
BOOKLET_ACTION = "/__whistbook/booklet"
#: the path the pages poll for changes
CHANGES = "/__whistbook/changes"
#: how long a poll is held before it is answered with the same number (seconds)
POLL_SECONDS = 30
#: connections waiting to be accepted: a browser opening a site asks for dozens of files at once
LISTEN_QUEUE = 1024

_SCRIPT = """<script>
(function (seen) {
  function poll() {
    if (document.visibilityState !== "visible") return;
    fetch("%(changes)s?since=" + seen, {cache: "no-store"}).then(function (r) {
      return r.ok ? r.text() : Promise.reject(r.status);
    }).then(function (now) {
      if (Number(now) !== seen) location.reload(); else poll();
    }, function () { setTimeout(poll, 2000); });
  }
  document.addEventListener("visibilitychange", poll);
  poll();
})(%(epoch)d);
</script>"""

_STYLE = "background:#14365d;color:#fff;border:0;padding:.3em .7em;border-radius:.3em;font:14px sans-serif;cursor:pointer"
_BUTTON = (f'<form method="post" action="{BOOKLET_ACTION}" style="position:fixed;right:.6em;bottom:.6em;'
           f'z-index:99;margin:0">%(link)s<button type="submit" style="{_STYLE}">Lay out the booklet'
           '</button></form>')
_LINK = f'<a href="%(href)s" style="{_STYLE};text-decoration:none;margin-right:.4em">Deal and play a hand</a>'


def loopback_name(host: str) -> bool:
    """Whether a request's ``Host`` (without its port) names this machine in a way
    no other site can: ``localhost`` (or a name under it), or an address in numbers."""
    name = host.strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _host_of(header: str) -> str:
    """The host of a ``Host`` header, without its port."""
    if header.startswith("["):
        return header[: header.find("]") + 1] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class PreviewServer(ThreadingHTTPServer):
    """Serves ``root`` and holds the pages' polls until :meth:`changed`.

    ``problems``, when set, is shown instead of every page (the build failed);
    ``on_booklet`` is called (in the request's thread) when the booklet's
    button is pressed, and the browser is then sent to the booklet.
    ``pages`` gives the server's own pages (the workbench: a path's content and
    type, or None), served as they are; ``actions`` answers the ``POST`` of
    those pages: for each path, a function of the request's body that gives a
    status and JSON.
    """

    daemon_threads = True
    request_queue_size = LISTEN_QUEUE

    def __init__(self, root: Path, host: str, port: int, booklet: str,
                 on_booklet: Callable[[], None] = lambda: None,
                 pages: Callable[[str], tuple[bytes, str] | None] = lambda path: None,
                 actions: Mapping[str, Callable[[bytes], tuple[int, bytes]]] = MappingProxyType({}),
                 workbench: str | None = None) -> None:
        self.root = root.resolve()
        #: the path of the workbench's page, linked from every page beside the booklet's button
        self.workbench = workbench
        self.booklet = booklet
        self.on_booklet = on_booklet
        self.pages = pages
        self.actions = actions
        self.problems: list[str] | None = None
        self.epoch = 1
        self._changes = threading.Condition()
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), _Handler, bind_and_activate=True)

    def changed(self) -> None:
        """A rebuild is done: every page's poll is answered, and the page reloads."""
        with self._changes:
            self.epoch += 1
            self._changes.notify_all()

    def wait_for_change(self, since: int, seconds: float) -> int:
        with self._changes:
            self._changes.wait_for(lambda: self.epoch != since, timeout=seconds)
            return self.epoch

    def file(self, url_path: str) -> Path | None:
        """The file a URL path names inside the root (an ``index.html`` for a
        folder), or None for a path that leaves it or names nothing."""
        if "\0" in url_path or "\\" in url_path:
            return None
        clean = posixpath.normpath("/" + url_path.lstrip("/"))
        if clean.startswith("//") or any(part == ".." for part in clean.split("/")):
            return None
        path = self.root.joinpath(*[p for p in clean.split("/") if p])
        try:
            if path.is_dir():
                path = path / "index.html"
            path = path.resolve()
            if not path.is_file() or not path.is_relative_to(self.root):
                return None
        except (OSError, ValueError):
            return None
        return path

    def page(self, content: bytes) -> bytes:
        """An HTML page with the reload script, the booklet's button and the workbench's link."""
        link = _LINK % {"href": html.escape(self.workbench)} if self.workbench else ""
        extra = (_BUTTON % {"link": link} + _SCRIPT % {"changes": CHANGES, "epoch": self.epoch}).encode("utf-8")
        at = content.rfind(b"</body>")
        return content[:at] + extra + content[at:] if at >= 0 else content + extra


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass  # a preview has no use for an access log

    def do_HEAD(self) -> None:
        self._read(body=False)

    def do_GET(self) -> None:
        self._read(body=True)

    def do_POST(self) -> None:
        length = self.headers.get("Content-Length", "0")
        body = b""
        if not (length.isascii() and length.isdigit()) or int(length) > 65536:
            self.close_connection = True  # a body this server will not read: no other request on this connection
        else:
            body = self.rfile.read(int(length))  # read whole, so the connection can be used again
        if not self._from_here():
            return
        url = urllib.parse.urlsplit(self.path)
        if url.path != BOOKLET_ACTION and url.path not in self.server.actions:
            return self._status(HTTPStatus.NOT_FOUND)
        origin = self.headers.get("Origin")
        if origin is None or origin != f"http://{self.headers.get('Host')}":
            return self._status(HTTPStatus.FORBIDDEN, "the preview is changed from its own pages only")
        if url.path == BOOKLET_ACTION:
            self.server.on_booklet()
            return self._redirect(self.server.booklet, HTTPStatus.SEE_OTHER)
        status, answer = self.server.actions[url.path](body)
        self._send(answer, "application/json", True, HTTPStatus(status))

    def _from_here(self) -> bool:
        host = self.headers.get("Host")
        if host is None or not loopback_name(_host_of(host)):
            self._status(HTTPStatus.MISDIRECTED_REQUEST, "this preview answers to localhost and 127.0.0.1 only")
            return False
        return True

    def _read(self, body: bool) -> None:
        if not self._from_here():
            return
        url = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(url.path, errors="strict") if "%" in url.path else url.path
        if path == "/":
            return self._redirect("/html/index.html", HTTPStatus.FOUND)
        if path == CHANGES:
            return self._changes(url.query, body)
        own = self.server.pages(path)
        if own is not None:  # the workbench: served as it is, without the reload script (it keeps a hand)
            return self._send(own[0], own[1], body)
        if self.server.problems is not None and (path.endswith(".html") or path.endswith("/")):
            return self._send(self.server.page(error_page(self.server.problems).encode("utf-8")), "text/html", body)
        file = self.server.file(path)
        if file is None:
            return self._status(HTTPStatus.NOT_FOUND)
        try:
            content = file.read_bytes()
        except OSError:
            return self._status(HTTPStatus.NOT_FOUND)
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if kind == "text/html":
            content = self.server.page(content)
        self._send(content, kind, body)

    def _changes(self, query: str, body: bool) -> None:
        since = urllib.parse.parse_qs(query).get("since", [""])[0]
        if not (since.isascii() and since.isdigit()) or len(since) > 18:
            return self._status(HTTPStatus.BAD_REQUEST, "since must be a page's number")
        now = self.server.wait_for_change(int(since), POLL_SECONDS)
        self._send(str(now).encode("ascii"), "text/plain", body)

    def _send(self, content: bytes, kind: str, body: bool, status: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8" if kind.startswith("text/") else kind)
        self.send_header("Content-Length", str(len(content)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(content)

    def _status(self, status: HTTPStatus, why: str = "") -> None:
        self._send(f"{status.value} {status.phrase}{': ' + why if why else ''}\n".encode("utf-8"), "text/plain",
                   self.command != "HEAD", status)

    def _redirect(self, where: str, status: HTTPStatus) -> None:
        self.send_response(status)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the browser went away
        except (UnicodeError, ValueError):  # a path no file has (bad escapes, a NUL): not the server's fault
            self.close_connection = True
            try:
                self._status(HTTPStatus.BAD_REQUEST)
            except OSError:
                pass


def error_page(problems: list[str]) -> str:
    items = "\n".join(f"<li><code>{html.escape(p)}</code></li>" for p in problems)
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>The build failed</title></head>"
            "<body style=\"font:16px/1.5 sans-serif;max-width:60em;margin:2em auto;padding:0 1em\">"
            "<h1>The build failed</h1><p>Nothing was rebuilt; this page reloads when the files are mended.</p>"
            f"<ul style=\"color:#8b0000\">{items}</ul></body></html>")


__all__ = ["PreviewServer", "error_page", "loopback_name", "BOOKLET_ACTION", "CHANGES"]
