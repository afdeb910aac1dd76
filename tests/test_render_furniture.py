"""The booklet's running heads and page numbers: the heads laid out with each
part, the numbers laid out once and printed over the joined pages."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from whistbook.render.environment import make_environment
from whistbook.render.pdf import (_lay_out_numbers, _number_pages, booklet_css, join_parts, lay_out_numbers,
                                  lay_out_part, number_streams, running_title_css)

CSS = running_title_css('A "Quoted" Book') + booklet_css(make_environment(), "a5")


def _page(html: str) -> str:
    return f'<div class="lesson"><h1 class="lesson-title">{html}</h1><p>Some text.</p></div>'


def _part(*pages: str, cover: bool = False) -> str:
    body = ('<section class="cover"><h1 class="cover-title">A "Quoted" Book</h1></section>' if cover else "")
    return ('<!doctype html><html lang="en" class="booklet paper-a5"><head><meta charset="utf-8"></head><body>'
            + body + "".join(_page(p) for p in pages) + "</body></html>")


def _lines(pdf: bytes, tmp_path: Path, name: str) -> list[list[str]]:
    """Each page's lines of text, as pdftotext lays them out."""
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return [[" ".join(line.split()) for line in page.splitlines() if line.strip()] for page in text.split("\f")[:-1]]


def test_a_part_carries_its_running_heads_but_not_its_numbers(tmp_path):
    part = lay_out_part(_part("Hand I", "Hand II", cover=True), CSS)
    assert part.pages == 3 and part.numbered == [1, 2]  # the cover has no number
    pages = _lines(part.pdf, tmp_path, "part")
    assert not any("Hand" in line for line in pages[0])  # nor a head
    assert pages[1][0] == 'A "Quoted" Book Hand I' and pages[2][0] == 'A "Quoted" Book Hand II'
    assert not any(line.isdigit() for page in pages for line in page)


def test_a_part_leaves_out_every_number_whatever_rule_places_it(tmp_path):
    css = CSS + "@page :left { @bottom-left { content: 'p. ' counter(page); } }"
    part = lay_out_part(_part("Hand I", "Hand II", "Hand III"), css)
    assert part.numbered == [0, 1, 2]
    assert not any(line[-1:].isdigit() for page in _lines(part.pdf, tmp_path, "left") for line in page)


def test_numbers_placed_by_side_are_each_laid_out_on_their_side():
    css = CSS + "@page :left { @bottom-center { color: red; } }"
    numbers = lay_out_numbers(css, 12)
    assert numbers.values == list(range(1, 13))  # page k of the samples is the booklet's page k


def test_numbers_are_drawn_from_the_figures_as_laid_out():
    numbers = lay_out_numbers(CSS, 240)
    assert numbers.values == [*range(10), 10, 100]  # each other number from these
    derived = number_streams(_number_pages(numbers), [7, 57, 123, 240])
    for n in (57, 123, 240):  # byte for byte the page WeasyPrint draws for that number
        assert derived[n] == _number_pages(_lay_out_numbers(CSS, [n]))[n]


def test_numbers_not_in_decimal_figures_are_each_laid_out():
    css = CSS + "@page { @bottom-center { content: counter(page, lower-roman); } }"
    numbers = lay_out_numbers(css, 12)
    assert numbers.values == list(range(1, 13))
    assert set(number_streams(_number_pages(numbers), range(1, 13))) == set(range(1, 13))


def test_a_number_that_cannot_be_drawn_is_an_error():
    from whistbook.errors import RenderError

    with pytest.raises(RenderError):
        number_streams(_number_pages(_lay_out_numbers(CSS, [1, 2])), [31])


def test_the_join_prints_each_numbered_page_its_number(tmp_path):
    front = lay_out_part(_part("Contents", cover=True), CSS)
    lessons = lay_out_part(_part(*(f"Hand {k}" for k in range(1, 12))), CSS)
    pdf = join_parts([front, lessons], lay_out_numbers(CSS, 13), title="T")
    pages = _lines(pdf, tmp_path, "joined")
    assert len(pages) == 13 and pages[0][-1] != "1"
    for k, page in enumerate(pages[1:], 2):
        assert page[-1] == str(k), page  # the number, at the foot
        assert page[0].startswith('A "Quoted" Book')
    assert pages[12][0] == 'A "Quoted" Book Hand 11'


@pytest.mark.parametrize("value", [0.0, -0.0, 1.0, 100.0, 595.275591, 36.8503937, -2e-7, 99.9999996, -412.25])
def test_the_joins_links_write_numbers_as_pikepdf_writes_a_float(value):
    """The links are parsed from text (faster than building them from Python's
    values): their numbers must read as pikepdf would have written them."""
    import pikepdf

    from whistbook.render.pdf import _reals

    assert _reals(value) == pikepdf.Array([value]).unparse().strip(b"[] ")
