"""Text from a hand file or the settings is text everywhere (issue 27): a book whose
hand titles, themes, sources and remarks, chapter, ``site_name``, ``copyright``,
``site_author`` and ``site_description`` are written as HTML and Markdown is built
whole, and every page of the site and of ``html/`` is opened in Chromium, with its
search: no dialog, no request outside the output, no live link or script from that
text, and an ordinary title with quotes, an ampersand and suit symbols shown as typed."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from whistbook.cli import main

from render_support import HAND_I, HOSTILE, ORDINARY, hand_i_text, hostile_hand_text, yaml_text

pytestmark = pytest.mark.slow  # a whole build (booklet included) and every page in a browser

#: what a page may hold that points somewhere: every such URL must stay inside the output
_POINTERS = """() => {
  const found = [];
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      if (attr.name.toLowerCase().startsWith("on")) found.push(el.tagName + " " + attr.name + "=" + attr.value);
    }
  }
  for (const el of document.querySelectorAll("iframe, object, embed, frame, base")) found.push(el.tagName);
  for (const a of document.querySelectorAll("a[href], area[href]")) found.push(a.href);
  for (const el of document.querySelectorAll("[src]")) found.push(el.src);
  for (const el of document.querySelectorAll("link[href]")) found.push(el.href);
  for (const el of document.querySelectorAll("image, use")) {
    const href = el.getAttribute("href") || el.getAttribute("xlink:href");
    if (href) found.push(new URL(href, document.baseURI).href);
  }
  for (const s of document.querySelectorAll("script:not([src])")) {
    const type = (s.getAttribute("type") || "text/javascript").toLowerCase();
    // the code outside its string literals (the theme puts the page's title in one, as JSON)
    const code = s.textContent.replace(/"(?:[^"\\\\]|\\\\.)*"/g, '""');
    if (type.includes("javascript") || type === "module") found.push("inline script: " + code);
  }
  return found;
}"""


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    hands = root / "hands"
    hands.mkdir()
    (hands / "hostile.yaml").write_text(hostile_hand_text(), encoding="utf-8")
    (hands / "ordinary.yaml").write_text(hand_i_text(**{"title:": f"title: {yaml_text(ORDINARY)}"}), encoding="utf-8")
    settings = {key: HOSTILE[key] for key in ("site_name", "copyright", "site_author", "site_description")}
    config = yaml.safe_load((Path(__file__).resolve().parents[2] / "whistbook" / "skeleton" / "mkdocs.yml")
                            .read_text(encoding="utf-8"))
    config.update(settings)
    config.setdefault("extra", {}).setdefault("whistbook", {})["lessons"] = [
        {"chapter": HOSTILE["chapter"], "lessons": ["hostile.yaml"]}, "ordinary.yaml"]
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    assert main(["build", "--project", str(root), "-q"]) == 0
    return root / "output"


def _visit(context, book: Path, page_path: Path, query: str = ""):
    """Open a page; what it asked for outside the output, the dialogs it opened, its script errors."""
    inside = book.as_uri() + "/"
    outside: list[str] = []
    dialogs: list[str] = []
    errors: list[str] = []

    def route(r):
        outside.append(r.request.url)
        r.abort()

    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(inside) else route(r))
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda req: None if req.url.startswith((inside, "data:", "about:")) else outside.append(req.url))
    page.goto(page_path.as_uri() + query)
    page.wait_for_load_state("load")
    page.wait_for_timeout(150)  # an image's onerror fires after the load
    pointers = page.evaluate(_POINTERS)
    return page, outside, dialogs, errors, pointers


def _pages(book: Path) -> list[Path]:
    """Every page, but the site's 404 page: it links from the server's root, so it works only when served."""
    site = [p for p in sorted((book / "site").rglob("*.html")) if p.name != "404.html"]
    return site + sorted((book / "html").glob("*.html"))


def test_every_page_runs_nothing_and_fetches_nothing_from_the_text(browser, book):
    inside = book.as_uri() + "/"
    pages = _pages(book)
    assert len(pages) > 10
    for path in pages:
        context = browser.new_context()
        try:
            page, outside, dialogs, errors, pointers = _visit(context, book, path)
            assert not dialogs and not outside and not errors, (path, dialogs, outside, errors)
            strays = [p for p in pointers if not p.startswith(inside)
                      and not (p.startswith("inline script: ") and "alert(" not in p)]
            assert not strays, (path, strays)
            # the text is all there, as text
            shown = page.locator("body").inner_text()
            assert "onerror=alert(1)" in shown or path.parent.name == "html" or "search" in path.name, path
        finally:
            context.close()


def test_titles_are_shown_as_typed_in_nav_tab_heading_and_search(browser, book):
    site = book / "site"
    context = browser.new_context()
    try:
        page, outside, dialogs, errors, _ = _visit(context, book, site / "lessons" / "ordinary.html")
        assert page.title() == f"{ORDINARY} - {HOSTILE['site_name']}"
        assert page.locator("h1").first.inner_text() == ORDINARY
        assert page.locator(".wy-menu-vertical a.current").first.inner_text() == ORDINARY
        assert page.locator("footer [role=contentinfo] p").first.inner_text() == HOSTILE["copyright"]
        assert page.locator("meta[name=author]").get_attribute("content") == HOSTILE["site_author"]
        assert HOSTILE["chapter"] in page.locator(".wy-menu-vertical .caption-text").all_text_contents()

        page, *_ = _visit(context, book, site / "lessons" / "hostile.html")
        assert page.locator("h1").first.inner_text() == HOSTILE["title"]
        assert page.locator(".lesson-source").inner_text() == " ".join(HOSTILE["source"].split())
        assert HOSTILE["theme"] in page.locator(".lesson-theme").first.inner_text()

        page, *_ = _visit(context, book, book / "html" / "ordinary.html")
        assert page.title().startswith(ORDINARY)
        assert page.locator("h1").first.inner_text() == ORDINARY

        for query, title in (("img", HOSTILE["title"]), ("Cavendish 18th", ORDINARY)):
            page, outside, dialogs, errors, _ = _visit(context, book, site / "search.html", f"?q={query}")
            page.locator("#whistbook-search-results li").first.wait_for(timeout=5000)
            found = page.locator("#whistbook-search-results li a").all_inner_texts()
            assert title in found, (query, found)
            assert not dialogs and not outside and not errors
    finally:
        context.close()


def test_the_booklet_holds_the_text_and_no_link_out(book):
    pdf = book / "whistbook.pdf"
    data = pdf.read_bytes()
    # the words are in it (as text); no action that would open, run or fetch anything
    actions = re.findall(rb"/(?:URI|JavaScript|JS|Launch|GoToR|SubmitForm|ImportData)\b", data)
    assert not actions, actions
    if shutil.which("pdftotext"):
        text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                       check=True).stdout.split())
        assert "<img src=x onerror=alert(1)> [a](javascript:alert(2))" in text
