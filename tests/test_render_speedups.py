"""The booklet's speed-ups draw what WeasyPrint draws: a diagram's texts shaped
once (speedups.shaping.shaped_text) and written again by render.pictures, in
the same document and in the next, in place rather than in PDF forms; and the
diagrams' data: URLs decoded by the fetcher."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from whistbook.render.diagrams import as_image, known_svg, trick_svg
from whistbook.render.pdf import lay_out_part, make_fetcher

from render_support import lesson

CSS = "@page { size: A5; margin: 10mm } img { width: 60mm; display: block }"


@pytest.fixture(scope="module")
def images():
    tricks = lesson().tricks
    return [as_image(trick_svg(t)) + as_image(known_svg(t)) for t in tricks[:3] if t.known]


def _text(pdf: bytes, tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_a_diagram_drawn_again_has_the_same_text_and_no_forms(images, tmp_path):
    html = "<!doctype html><html><body>" + "".join(images) + "</body></html>"
    first = lay_out_part(html, CSS)  # shapes the texts
    again = lay_out_part(html, CSS)  # a new document: every text replayed
    assert first.pages == again.pages
    text = _text(first.pdf, tmp_path, "first")
    assert text == _text(again.pdf, tmp_path, "again")
    assert "Tricks AB" in text and "♠" in text
    # a centred or right-aligned text is drawn in place: no form of its own
    assert b"/Form" not in first.pdf and b"/Form" not in again.pdf


def test_a_repeated_diagram_reads_the_same_both_times(images, tmp_path):
    html = "<!doctype html><html><body>" + images[0] + images[0] + "</body></html>"
    text = _text(lay_out_part(html, CSS).pdf, tmp_path, "twice")
    once = _text(lay_out_part("<!doctype html><html><body>" + images[0] + "</body></html>", CSS).pdf,
                 tmp_path, "once")
    lines = [line.strip() for line in once.splitlines() if line.strip()]
    assert lines and all(text.count(line) >= 2 for line in lines)


def test_the_fetcher_decodes_base64_data_urls():
    fetcher = make_fetcher()
    response = fetcher.fetch("data:image/svg+xml;base64,PHN2Zy8+")
    assert response.read() == b"<svg/>"
    assert response.content_type == "image/svg+xml"
    assert fetcher.fetch("data:text/plain,hello").read() == b"hello"


LEADERS = ("<!doctype html><html><body><ol>"
           + "".join(f'<li><a href="#x">Hand {n}</a></li>' for n in ("I", "XXII", "XXXVIII"))
           + "</ol><p>ab</p></body></html>")
LEADER_CSS = CSS + " a { display: block } a::after { content: leader('. ') '888' }" \
                   " p { width: 18mm } p::after { content: leader('. ') '8' }"


def _leaders(html: str, css: str) -> list[int]:
    """How many boxes each leader of a one-page document is drawn as."""
    from weasyprint.layout.leader import leader_index

    from whistbook.render import pdf

    weasyprint, _, _ = pdf.load_weasyprint()
    page = weasyprint.HTML(string=html).render(stylesheets=[weasyprint.CSS(string=css)]).pages[0]
    found = []

    def walk(box):
        if type(box).__name__ == "LineBox":
            _, leader = leader_index(box)
            if leader is not None:
                found.append(len(leader.children))
        for child in getattr(box, "children", ()):
            walk(child)

    walk(page._page_box)
    return found


def test_a_leader_is_drawn_as_three_texts_with_the_same_dots(tmp_path, monkeypatch):
    """The dots of a contents line: the first and last as WeasyPrint places them,
    those between as one text; pdftotext reads the same as from WeasyPrint's copies."""
    import weasyprint.layout.inline as inline

    from whistbook.render import speedups

    fast = _leaders(LEADERS, LEADER_CSS)
    text = _text(lay_out_part(LEADERS, LEADER_CSS).pdf, tmp_path, "fast")
    monkeypatch.setattr(inline, "handle_leader", speedups.leaders._stock_leader)  # WeasyPrint's own
    stock = _leaders(LEADERS, LEADER_CSS)
    assert text == _text(lay_out_part(LEADERS, LEADER_CSS).pdf, tmp_path, "stock")
    assert ". . . . 888" in text
    assert fast[:3] == [3, 3, 3] and all(n > 20 for n in stock[:3])
    # a leader of a few dots is left as WeasyPrint placed it
    assert fast[3] == stock[3] == 2
