"""``serve``'s HTTP server on its own (quick: a folder of two pages, no build):
reads by GET only, the booklet by a POST from its own pages, this machine's
names only, a browser's burst of requests, and no server error from an odd request."""

from __future__ import annotations

import http.client
import socket
import threading
import time

import pytest

from whistbook.server import CHANGES, PreviewServer, loopback_name


@pytest.fixture
def server(tmp_path):
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "index.html").write_text("<html><body><p>Hand I</p></body></html>", encoding="utf-8")
    (tmp_path / "whistbook.pdf").write_bytes(b"%PDF-")
    (tmp_path.parent / "secret.txt").write_text("not served", encoding="utf-8")
    calls: list[int] = []
    srv = PreviewServer(tmp_path, "127.0.0.1", 0, "/whistbook.pdf", on_booklet=lambda: calls.append(1))
    srv.calls = calls
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _ask(srv, method: str, path: str, headers: dict | None = None) -> tuple[int, bytes, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=10)
    conn.putrequest(method, path, skip_host="Host" in (headers or {}))
    for name, value in (headers or {}).items():
        conn.putheader(name, value)
    conn.endheaders()
    r = conn.getresponse()
    out = r.status, r.read(), dict(r.getheaders())
    conn.close()
    return out


def test_a_page_is_served_with_its_reload_script_and_the_booklet_button(server):
    status, body, _ = _ask(server, "GET", "/html/index.html")
    assert status == 200 and b"Hand I" in body and CHANGES.encode() in body and b'method="post"' in body
    status, _, headers = _ask(server, "GET", "/")
    assert status == 302 and headers["Location"] == "/html/index.html"
    assert _ask(server, "HEAD", "/html/index.html")[:2] == (200, b"")


def test_only_the_output_is_served(server):
    for path in ("/../secret.txt", "/html/../../secret.txt", "//secret.txt", "/%2e%2e/secret.txt", "/html/%00.html",
                 "/nowhere.html"):
        assert _ask(server, "GET", path)[0] == 404, path


def test_another_host_name_is_refused(server):
    """DNS rebinding: a page of another site whose name points here cannot read the preview."""
    assert _ask(server, "GET", "/html/index.html", {"Host": "evil.example:8000"})[0] == 421
    assert _ask(server, "GET", "/html/index.html", {"Host": "localhost:8000"})[0] == 200
    assert loopback_name("[::1]") and loopback_name("127.0.0.1") and not loopback_name("127.0.0.1.nip.io")


def test_the_booklet_is_laid_out_by_a_post_from_the_preview_only(server):
    port = server.server_address[1]
    assert _ask(server, "GET", "/__whistbook/booklet")[0] == 404
    assert _ask(server, "POST", "/__whistbook/booklet")[0] == 403  # no Origin: not from a page of ours
    assert _ask(server, "POST", "/__whistbook/booklet", {"Origin": "http://evil.example"})[0] == 403
    assert server.calls == []
    status, _, headers = _ask(server, "POST", "/__whistbook/booklet", {"Origin": f"http://127.0.0.1:{port}"})
    assert status == 303 and headers["Location"] == "/whistbook.pdf" and server.calls == [1]
    assert _ask(server, "PUT", "/html/index.html")[0] == 501


def test_odd_requests_are_refused_without_a_server_error(server):
    for path in ("/html/%ff.html", f"{CHANGES}?since=" + "9" * 400, f"{CHANGES}?since=-1", f"{CHANGES}?since=x", f"{CHANGES}?since=%C2%B2"):
        status = _ask(server, "GET", path)[0]
        assert 400 <= status < 500, (path, status)
    for raw in (b"GET /html/\x00.html HTTP/1.1", b"GET /html/\xff\x7f.html HTTP/1.1", b"\x00\x01 / HTTP/1.1"):
        with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=10) as s:
            s.sendall(raw + b"\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = s.recv(100)
        assert answer.startswith(b"HTTP/") and int(answer.split()[1]) in (*range(400, 500), 501), (raw, answer)


def test_a_poll_is_answered_when_a_rebuild_is_done(server):
    epoch = server.epoch
    threading.Timer(0.2, server.changed).start()
    began = time.monotonic()
    status, body, _ = _ask(server, "GET", f"{CHANGES}?since={epoch}")
    assert status == 200 and int(body) == epoch + 1 and time.monotonic() - began < 5
    assert int(_ask(server, "GET", f"{CHANGES}?since=0")[1]) == epoch + 1  # an older page: at once


@pytest.mark.slow
def test_a_burst_of_connections_is_held_not_dropped(server):
    """A browser opening the site asks for many files at once: 3,000 connections
    made together all wait their turn (the listen queue), none is refused."""
    port, socks = server.server_address[1], []
    try:
        for _ in range(3000):
            s = socket.socket()
            s.settimeout(30)
            s.connect(("127.0.0.1", port))
            socks.append(s)
        for s in socks:
            s.sendall(b"GET /html/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answered = 0
        for s in socks:
            data = b""
            while chunk := s.recv(65536):
                data += chunk
            answered += data.startswith(b"HTTP/1.1 200")
    finally:
        for s in socks:
            s.close()
    assert answered == 3000
