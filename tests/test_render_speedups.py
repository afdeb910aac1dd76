"""The booklet's speed-ups draw what WeasyPrint draws: a diagram's texts shaped
once (speedups.shaped_text) and written again by render.pictures, in the same
document and in the next, in place rather than in PDF forms; and the diagrams'
data: URLs decoded by the fetcher."""

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
