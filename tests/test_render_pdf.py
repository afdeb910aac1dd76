"""The booklet: pages, contents, bookmarks, paper, fonts, and a fetcher that
loads nothing but whistbook's own assets."""

from __future__ import annotations

import base64
import logging
import re
import shutil
import subprocess

import pytest

from whistbook.errors import RenderError
from whistbook.render.context import RenderOptions
from whistbook.render.environment import make_environment
from whistbook.render.pdf import ASSETS_DIR, booklet_html, make_fetcher, render_booklet, render_booklet_document

from render_support import BOSTON, EXTERNAL, checked_text, hand_i_text, lesson

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lessons():
    return [lesson(), lesson(BOSTON, inference=False)]


@pytest.fixture(scope="module")
def env():
    from whistbook.inference import RULES

    return make_environment(None, rules=RULES)


@pytest.fixture(scope="module")
def document(lessons, env):
    from whistbook.inference import RULES

    return render_booklet_document(lessons, env, rules=RULES, options=RenderOptions(medium="print", analysis=False))


def _bookmarks(document):
    return [(label, target[0]) for label, target, *_ in document.make_bookmark_tree()]


def test_page_count_and_bookmarks(document):
    marks = _bookmarks(document)
    labels = [label for label, _ in marks]
    assert labels == ["Contents", "Hand I", "The Boston Double-Dummy Problem", "Solutions to the problems",
                      "Lessons by theme",
                      "Principles of play", "Glossary"]
    pages = [page for _, page in marks]
    assert pages == sorted(pages) and len(set(pages)) == len(pages)  # each lesson starts a new page
    assert pages[0] == 1  # the cover is page 0
    assert len(document.pages) > pages[-1] >= 6


def test_contents_has_an_entry_per_lesson_with_its_page(lessons, env):
    html = booklet_html(lessons, env, options=RenderOptions(medium="print"))
    contents = html[html.index('<nav class="contents"'):html.index("</nav>")]
    for ls in lessons:
        assert f'href="#{ls.slug}-lesson"' in contents
        assert f'id="{ls.slug}-lesson"' in html
    assert "target-counter" in (ASSETS_DIR.parent / "templates" / "css" / "print.css").read_text()


def test_the_pdf_is_a_pdf_with_fonts_embedded(lessons, env, tmp_path):
    pdf = render_booklet(lessons[:1], env, options=RenderOptions(medium="print", analysis=False))
    assert pdf.startswith(b"%PDF-")
    if shutil.which("pdffonts") is None:
        pytest.skip("pdffonts (poppler-utils) is not installed")
    path = tmp_path / "b.pdf"
    path.write_bytes(pdf)
    rows = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert rows and all("Charis-SIL" in row or "DejaVu-Sans" in row for row in rows)  # the text face, the cards'
    assert any("Charis-SIL" in row for row in rows) and not any("Serif" in row for row in rows)
    assert all(row.split()[-5] == "yes" for row in rows)  # the "emb" column


def test_a4_and_a5(lessons, env):
    a5 = render_booklet_document(lessons[:1], env, options=RenderOptions(medium="print", paper="a5"))
    a4 = render_booklet_document(lessons[:1], env, options=RenderOptions(medium="print", paper="a4"))
    mm = 96 / 25.4  # CSS px per mm
    assert round(a5.pages[0].width / mm) == 148 and round(a5.pages[0].height / mm) == 210
    assert round(a4.pages[0].width / mm) == 210 and round(a4.pages[0].height / mm) == 297


def test_the_booklet_lays_out_without_warnings(lessons, env, caplog):
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        render_booklet_document(lessons, env, options=RenderOptions(medium="print", analysis=True, four_colour=True))
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []


def _with_pictures(html: str) -> str:
    """The booklet's HTML and the SVG of its pictures (images with ``data:`` URLs in print)."""
    found = re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", html)
    assert found, "the booklet has no pictures"
    return html + "".join(base64.b64decode(data).decode("utf-8") for data in found)


def test_analysis_is_off_in_print_unless_asked(env):
    ls = [lesson(analysis=True)]
    off = _with_pictures(booklet_html(ls, env, options=RenderOptions(medium="print", analysis=False)))
    on = _with_pictures(booklet_html(ls, env, options=RenderOptions(medium="print", analysis=True)))
    assert "dg-cost" not in off and "cost one trick" not in off
    assert "dg-cost" in on and "cost one trick" in on


@pytest.mark.parametrize("url", [
    "http://example.com/card.png", "https://example.com/card.png", "ftp://example.com/x",
    "file:///etc/passwd", "../../etc/passwd",
])
def test_the_fetcher_refuses_everything_outside_the_assets(env, url):
    from weasyprint import HTML

    html = f'<p>x</p><img src="{url}">'
    with pytest.raises(BaseException) as err:  # FatalURLFetchingError is a BaseException
        HTML(string=html, base_url=ASSETS_DIR.as_uri() + "/", url_fetcher=make_fetcher()).render()
    assert type(err.value).__name__ == "FatalURLFetchingError"


def test_the_fetcher_allows_data_and_the_assets():
    fetcher = make_fetcher()
    assert fetcher.fetch("data:text/plain,hello").read() == b"hello"
    readme = ASSETS_DIR / "README.md"
    assert fetcher.fetch(readme.as_uri()).read() == readme.read_bytes()


def test_a_refused_resource_stops_the_booklet_as_a_render_error(env, tmp_path):
    (tmp_path / "booklet.html").write_text('<p>x</p><img src="https://example.com/x.png">\n', encoding="utf-8")
    with pytest.raises(RenderError, match="example.com"):
        render_booklet_document([lesson(inference=False)], make_environment(tmp_path),
                                options=RenderOptions(medium="print"))


def test_a_remark_cannot_make_the_booklet_fetch_anything(env, monkeypatch):
    remark = ("remark: 'See ![card](http://example.com/c.png), ![x](../../etc/passwd), "
              "[more](https://example.com/) and <img src=\"file:///etc/passwd\">.'")
    text = hand_i_text(**{"    remark: A takes the finesse": "    " + remark})
    ls = [__import__("whistbook.lesson", fromlist=["build_lesson"]).build_lesson(checked_text(text))]
    fetched = []
    import whistbook.render.pdf as pdf

    real = pdf.make_fetcher

    def spy(*args, **kwargs):
        f = real(*args, **kwargs)
        original = f.fetch

        def fetch(url, headers=None):
            fetched.append(url)
            return original(url, headers)

        f.fetch = fetch
        return f

    monkeypatch.setattr(pdf, "make_fetcher", spy)
    html = booklet_html(ls, env, options=RenderOptions(medium="print"))
    ours = 'src="data:image/svg+xml;base64,'  # the diagrams, drawn by whistbook
    assert "See " in html and all(ours in img for img in re.findall(r"<img\b[^>]*>", html))
    assert not EXTERNAL.search(html)
    render_booklet_document(ls, env, options=RenderOptions(medium="print"), html=html)
    assert fetched and all(url.startswith("data:image/svg+xml;base64,") for url in fetched)


def _boxes(box, page, out):
    """Every box of a laid-out page with an element, as (page, box)."""
    if getattr(box, "element", None) is not None:
        out.append((page, box))
    for child in getattr(box, "children", []):
        _boxes(child, page, out)
    return out


@pytest.mark.parametrize("paper", ["a5", "a4"])
def test_a_tricks_diagram_sits_beside_its_notes_and_never_overlaps(lessons, env, paper):
    """The diagram stays in the flow (not floated, which is slow) and its notes
    are pulled up beside it: they must start level with it, keep right of it,
    and the trick must hold the whole diagram on its page, on A5 and on A4."""
    from whistbook.inference import RULES

    doc = render_booklet_document(lessons[:1], env, rules=RULES,
                                  options=RenderOptions(medium="print", analysis=False, paper=paper))
    found = [pb for k, p in enumerate(doc.pages) for pb in _boxes(p._page_box, k, [])]
    tricks = [(k, b) for k, b in found if b.element_tag == "section" and "trick" in b.element.get("class", "").split()
              and "trick-bare" not in b.element.get("class", "")]
    assert len(tricks) >= 5
    seen = set()
    for k, trick in tricks:
        inside = [b for b in trick.children if getattr(b, "element", None) is not None]
        notes = [b for b in inside if "trick-notes" in b.element.get("class", "")]
        diagram = [b for b in inside if "trick-diagram" in b.element.get("class", "")]
        if trick.element.get("id") in seen:
            assert not diagram  # the rest of notes run on to the next page
            continue
        seen.add(trick.element.get("id"))
        assert len(notes) == 1 and len(diagram) == 1, trick.element.get("id")
        (n,), (d,) = notes, diagram
        assert d.position_y == pytest.approx(n.border_box_y(), abs=1)  # side by side
        assert d.position_x + d.margin_width() < n.content_box_x()  # left of the notes
        assert d.position_y + d.margin_height() <= trick.content_box_y() + trick.height + 0.01  # inside its trick
        assert trick.position_y + trick.margin_height() <= doc.pages[k].height  # on its page


def _pt(px: float) -> float:
    return px * 0.75


def test_the_booklet_is_set_like_a_book(document, lessons, env):
    """Justified and hyphenated text in the book face; the tally of a trick and
    the picture of what is known at 7.5 pt or more; the lessons by theme with
    their titles; the author on the cover."""
    from whistbook.render.diagrams import TALLY_SIZE, WIDTH

    found = [b for p in document.pages for _, b in _boxes(p._page_box, 0, [])]
    remark = next(b for b in found if "remark" in (b.element.get("class") or "").split())
    assert remark.style["text_align_all"] == "justify" and remark.style["hyphens"] == "auto"
    assert remark.style["font_family"][0] == "Charis SIL"
    tricks = [b for b in found if b.element_tag == "img" and "trick-svg" in (b.element.get("class") or "")]
    assert tricks and min(_pt(b.width) * TALLY_SIZE / WIDTH for b in tricks) >= 7.5
    known = [b for b in found if b.element_tag == "img" and "known-svg" in (b.element.get("class") or "")]
    assert known
    for b in known:  # the picture's text is 9 units high in a drawing of the image's width
        view_width = float(re.search(r"viewBox%3D%220%200%20([\d.]+)|viewBox=\"0 0 ([\d.]+)",
                                     _svg_of(b.element.get("src"))).group(2))
        assert _pt(b.width) * 9 / view_width >= 7.5
    html = booklet_html(lessons, env, options=RenderOptions(medium="print"))
    themes = html[html.index('id="themes"'):]
    assert 'class="toc-theme"' in themes[:themes.index("</section>")]


def _svg_of(src: str) -> str:
    return base64.b64decode(src.split(",", 1)[1]).decode()


def test_the_cover_names_the_author_from_the_settings(env):
    from whistbook.project import Book
    from whistbook.render.context import book_context
    from whistbook.render.environment import render_template
    from whistbook.render.pdf import BOOKLET_LINKS

    book = book_context([lesson()], env, book=Book(title="Whistbook", author="A. Player"))
    html = render_template(env, "booklet.html", part="front", lesson=None, pages={}, book=book.book,
                           hands=book.hands, problems=book.problems, themes=book.themes, chapters=book.chapters,
                           rules=book.rules, glossary=book.glossary, options=RenderOptions(medium="print"),
                           links=BOOKLET_LINKS, title="Whistbook")
    assert '<p class="cover-author">A. Player</p>' in html
