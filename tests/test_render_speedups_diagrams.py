"""The booklet's diagrams drawn straight into the PDF (speedups.diagrams): every
drawing render.diagrams makes is drawn by it, looks exactly as WeasyPrint
draws it and reads the same, in one document and the next, and any other
SVG is left to WeasyPrint."""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from whistbook.render import speedups
from whistbook.render.diagrams import as_image, deal_row_svg, deal_svg, known_svg, trick_svg
from whistbook.render.pdf import lay_out_part, load_weasyprint
from whistbook.render.speedups import diagrams as pictures

from render_support import lesson

load_weasyprint()
pytestmark = pytest.mark.skipif(not speedups.installed(), reason=str(speedups.closed()))
CONTEXT = SimpleNamespace(font_config=None)  # what an image is given of the layout
CSS = "@page { size: A5; margin: 10mm } img { width: 60mm; display: block } img.known-svg { width: 40mm }"


@pytest.fixture(scope="module")
def drawings() -> list[str]:
    """Every kind of drawing, in both palettes: tricks (one with −1 marks), what is known, the deal (round the
    table and in a row)."""
    ls = lesson(analysis=True)
    costly = next(t for t in ls.tricks if any(p.cost for p in t.plays))
    out = []
    for four in (False, True):
        out += [trick_svg(ls.tricks[0], four_colour=four), trick_svg(costly, analysis=True, four_colour=four),
                known_svg(next(t for t in ls.tricks if t.known), four_colour=four),
                deal_svg(ls, centre="A deals", four_colour=four), deal_row_svg(ls, four_colour=four)]
    return out


def _tree(svg: str) -> ET.Element:
    src = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', as_image(svg)).group(1)
    return ET.fromstring(base64.b64decode(src))


def test_every_diagram_is_drawn_straight_at_weasyprints_size(drawings):
    for svg in drawings:
        image = pictures.svg_image(_tree(svg), None, None, CONTEXT)
        assert isinstance(image, pictures.Diagram), svg[:80]
        stock = pictures._stock_image(_tree(svg), None, None, CONTEXT)
        assert image.get_intrinsic_size(1, 12.5) == stock.get_intrinsic_size(1, 12.5)


HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">'
TEXT = '<text x="5" y="20" font-size="10" fill="#1b1b1b">A</text>'


@pytest.mark.parametrize("svg", [
    HEAD + '<circle cx="5" cy="5" r="4"/></svg>',  # another element
    HEAD + '<g transform="rotate(10)">' + TEXT + "</g></svg>",  # a transform
    HEAD + "<style>text { fill: red }</style>" + TEXT + "</svg>",  # a stylesheet
    HEAD + '<rect x="1" y="1" width="5" height="5" fill="url(#shade)"/></svg>',  # a gradient or pattern
    HEAD + '<rect x="1" y="1" width="5mm" height="5" fill="red"/></svg>',  # a unit
    HEAD + '<rect x="1" y="1" width="5" height="5" fill="rgba(0, 0, 0, 0.5)"/></svg>',  # a transparent colour
    HEAD + '<rect x="1" y="1" width="5" height="5" opacity="0.5"/></svg>',  # opacity
    HEAD + '<text x="5" y="20" dx="1 2">AB</text></svg>',  # letters placed one by one
    HEAD + '<text x="5" y="20" stroke="red">A</text></svg>',  # a stroked text
    HEAD + '<text x="5 9" y="20">AB</text></svg>',  # two x
    HEAD + '<text x="50" y="20" text-anchor="middle"><tspan>A</tspan><tspan x="60">B</tspan></text></svg>',
    HEAD + '<text x="5" y="20"><tspan>A</tspan> tail</text></svg>',  # text between tspans
    HEAD + '<text x="5" y="20" xml:space="preserve">A  B</text></svg>',  # another attribute
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' + TEXT + "</svg>",  # no view box
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" preserveAspectRatio="none">' + TEXT + "</svg>",
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="urn:x" viewBox="0 0 9 9"><x:rect width="1" height="1"/></svg>',
    '<html xmlns="http://www.w3.org/1999/xhtml"/>',  # not SVG
    HEAD + "<title><rect width='1' height='1'/></title></svg>",  # WeasyPrint draws a title's children
    HEAD + "<svg viewBox='0 0 1 1'/></svg>",  # an svg inside
])
def test_anything_else_is_left_to_weasyprint(svg):
    image = pictures.svg_image(ET.fromstring(svg), None, None, CONTEXT)
    assert not isinstance(image, pictures.Diagram)


def test_our_own_subset_is_drawn_straight():
    svg = HEAD + '<g fill="#1d55a5"><rect x="1" y="1" width="5" height="5" rx="1" stroke="black"/>' + TEXT + (
        '<line x1="0" y1="1" x2="9" y2="1" stroke="#c9c3b5" stroke-width="0.5"/></g><title>t</title></svg>')
    assert isinstance(pictures.svg_image(ET.fromstring(svg), None, None, CONTEXT), pictures.Diagram)


def _pixels(pdf: bytes, tmp_path: Path, name: str) -> list[bytes]:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "100", "-gray", str(path), str(tmp_path / name)], check=True)
    return [p.read_bytes() for p in sorted(tmp_path.glob(f"{name}-*.pgm"))]


def _words(pdf: bytes, tmp_path: Path, name: str) -> Counter:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return Counter(out.split())


def _one_letter(svg: str) -> str:
    """The drawing with each text cut to its first letter, which WeasyPrint, drawing a
    letter at a time, places as a whole text is placed."""
    tree = ET.fromstring(svg)
    for element in tree.iter():
        if element.tag.split("}")[-1] in ("text", "tspan") and element.text:
            element.text = element.text.strip()[:1]
    return ET.tostring(tree, encoding="unicode")


def _page(drawings: list[str]) -> str:
    return "<!doctype html><html><body>" + "".join(as_image(svg) for svg in drawings) + "</body></html>"


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm")
def test_a_diagram_looks_as_weasyprint_draws_it(drawings, tmp_path):
    """The same pixels where WeasyPrint's way of drawing a text a letter at a time
    gives the same glyphs (one letter a text), and the same words anyway."""
    for name, html in (("letters", _page([_one_letter(svg) for svg in drawings])), ("whole", _page(drawings))):
        straight = lay_out_part(html, CSS)
        with speedups.stock():
            stock = lay_out_part(html, CSS)
        assert straight.pages == stock.pages
        assert _words(straight.pdf, tmp_path, f"{name}-straight") == _words(stock.pdf, tmp_path, f"{name}-stock")
        if name == "letters":
            assert _pixels(straight.pdf, tmp_path, "straight") == _pixels(stock.pdf, tmp_path, "stock")


def _layout_text(data: bytes, tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_a_diagram_drawn_in_the_next_document_reads_the_same_and_has_no_forms(drawings, tmp_path):
    html = _page(drawings)
    first = lay_out_part(html, CSS)  # lays the texts out
    again = lay_out_part(html, CSS)  # a new document: the texts' layouts kept, the fonts taught anew
    assert first.pdf == again.pdf
    text = _layout_text(first.pdf, tmp_path, "first")
    assert "Tricks AB" in text and "♦" in text
    # a centred or right-aligned text is drawn in place: no form of its own
    assert b"/Form" not in first.pdf


def test_a_text_in_a_font_of_pictures_leaves_the_whole_image_to_weasyprint(drawings, tmp_path, monkeypatch):
    """draw_first_line hands back the emojis it could not draw as glyphs: what the image
    wrote so far is taken back, and WeasyPrint draws the image."""
    import weasyprint.draw.text as text

    drawn = text.draw_first_line
    asked = []

    def with_emoji(stream, box, *args):
        asked.append(box.text)
        drawn(stream, box, *args)
        return [("an emoji",)] if box.text == "Y" and isinstance(box, pictures._Line) else []

    html = _page(drawings[:1])
    monkeypatch.setattr(text, "draw_first_line", with_emoji)
    fallen = lay_out_part(html, CSS)
    monkeypatch.undo()
    with speedups.stock():
        stock = lay_out_part(html, CSS)
    assert "Y" in asked
    assert _pixels(fallen.pdf, tmp_path, "fallen") == _pixels(stock.pdf, tmp_path, "stock")
