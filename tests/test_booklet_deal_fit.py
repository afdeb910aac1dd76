"""The deal at the end of a lesson in the booklet: round the table where it
fits, in a row where the table would go over to a page of its own and leave
the page before it short."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from whistbook.inference import RULES
from whistbook.render import pdf
from whistbook.render.context import RenderOptions, book_context
from whistbook.render.diagrams import ROW_ORDER, deal_row_svg, deal_svg
from whistbook.render.environment import make_environment

from render_support import ROOT, lesson

REVOKE = ROOT / "hands" / "laws" / "02-revoke-corrected.yaml"  # its deal goes over to a page of its own on A5
PRINT = RenderOptions(medium="print", analysis=False)


def test_the_row_holds_the_four_hands_clockwise_from_the_left_in_a_third_of_the_height():
    ls = lesson(REVOKE, inference=False)
    row, table = ET.fromstring(deal_row_svg(ls)), ET.fromstring(deal_svg(ls, centre="Z deals"))
    height = lambda svg: float(svg.get("viewBox").split()[3])  # noqa: E731
    assert height(row) * 2.5 < height(table)
    hands = row.findall("g")
    assert [h.get("class").split()[1] for h in hands] == [f"dg-{pos}" for pos in ROW_ORDER]
    assert row.get("aria-label") == table.get("aria-label")  # the same words for a screen reader


def _alone(part, slug: str) -> bool:
    """The hands start the part's last page, at its head (anchors are in points; the top margin is 15 mm)."""
    page, _, y = part.anchors[f"{slug}-hands"]
    return page == part.pages - 1 and y < 60


@pytest.mark.slow
def test_a_deal_that_would_stand_alone_on_the_last_page_is_set_in_a_row(monkeypatch):
    """Less and less room left for the deal (a margin above it, which a page break takes away) until
    it goes over to a page of its own: set in a row, it stays on the page before."""
    env = make_environment(None, rules=RULES)
    ls = lesson(REVOKE)
    html = pdf.booklet_part_html("lesson", book_context([ls], env, rules=RULES), env, options=PRINT, lesson=ls)
    assert html.count('class="deal-row"') == 1  # printed, and hidden unless needed
    for margin in range(0, 700, 25):
        css = pdf.booklet_css(env, "a5") + f".part-hands {{ margin-top: {margin}px }}"
        with monkeypatch.context() as m:
            m.setattr(pdf, "COMPACT_DEAL", "")  # the deal round the table, whatever happens
            plain = pdf.lay_out_part(html, css, draw=False)
        if _alone(plain, ls.slug):
            break
    else:
        pytest.fail("the deal never went over to a page of its own")
    fitted = pdf.lay_out_part(html, css, draw=False)
    assert fitted.pages == plain.pages - 1 and not _alone(fitted, ls.slug)


@pytest.mark.slow
def test_a_deal_after_a_full_page_stays_round_the_table(monkeypatch):
    """Hand I's deal starts a page too, but the page before is full: nothing is tried."""
    env = make_environment(None, rules=RULES)
    ls = lesson()
    html = pdf.booklet_part_html("lesson", book_context([ls], env, rules=RULES), env, options=PRINT, lesson=ls)
    css = pdf.booklet_css(env, "a5")
    fitted = pdf.lay_out_part(html, css, draw=False)
    monkeypatch.setattr(pdf, "COMPACT_DEAL", "")
    plain = pdf.lay_out_part(html, css, draw=False)
    assert (fitted.pages, fitted.anchors) == (plain.pages, plain.anchors)
