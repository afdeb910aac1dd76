"""Remarks as HTML: the card shorthand, page references, and what a remark may not do."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from whistbook.render.markup import RemarkRenderer, cards_in_text, pages_of

RULES = {
    "lead_strongest_suit": SimpleNamespace(id="lead_strongest_suit", title="Opening the strongest suit", page="56"),
    "second_hand_low": SimpleNamespace(id="second_hand_low", title="Second hand low", page="82-84"),
    "show_out": SimpleNamespace(id="show_out", title="Failing to follow suit", page="Laws 71-73"),
}


@pytest.fixture
def md() -> RemarkRenderer:
    return RemarkRenderer(RULES)


@pytest.mark.parametrize("source, text, suit", [
    ("{KH}", "K♥", "hearts"), ("{10S}", "10♠", "spades"), ("{TD}", "10♦", "diamonds"),
    ("{2C}", "2♣", "clubs"), ("{AS}", "A♠", "spades"),
])
def test_card_shorthand(md, source, text, suit):
    html = md.render(f"A plays {source} here.")
    assert re.search(rf'<span class="card suit-{suit}"[^>]*>{re.escape(text)}</span>', html), html


def test_suit_shorthand_and_symbols_in_text(md):
    html = md.render("He leads {S}, then K♥ and the 10♦.")
    assert '<span class="suit suit-spades" role="img" aria-label="spades" title="spades">♠</span>' in html
    assert ">K♥</span>" in html and ">10♦</span>" in html
    assert 'class="card suit-hearts"' in html and 'class="card suit-diamonds"' in html


def test_shorthand_is_left_alone_in_code_and_when_not_a_card(md):
    html = md.render("`{KH}` and {XY} and {1S}")
    assert "<code>{KH}</code>" in html
    assert "{XY}" in html and "{1S}" in html


def test_page_references_link_to_the_principle_set_out_there(md):
    html = md.render("He leads the lowest (p. 56) and plays low second hand (pp. 83-84).")
    assert 'href="principles.html#rule-lead_strongest_suit"' in html
    assert 'href="principles.html#rule-second_hand_low"' in html
    # a page no rule covers is left as text
    assert "principles.html" not in md.render("See p. 300.")


def test_rule_links_and_fragments(md):
    html = md.render("[the rule](rule:second_hand_low), [trick 3](#trick-3)", "../principles.html", anchor="h1-")
    assert 'href="../principles.html#rule-second_hand_low"' in html
    assert 'href="#h1-trick-3"' in html
    # an unknown rule keeps its text, not its link
    assert "href" not in md.render("[x](rule:no_such_rule)")


@pytest.mark.parametrize("remark", [
    "![a card](http://example.com/card.png)",
    "![a card](https://example.com/card.png)",
    "![secret](../../etc/passwd)",
    "![secret](file:///etc/passwd)",
    "[read more](https://example.com/)",
    "[up](../../etc/passwd)",
    "[abs](/etc/passwd)",
    "[net](//example.com/x)",
    "<https://example.com/>",
    '<img src="http://example.com/x.png"> <script>alert(1)</script>',
    "[js](javascript:alert(1))",
])
def test_a_remark_can_neither_load_nor_link_outside(md, remark):
    html = md.render(remark)
    assert "<img" not in html and "<script" not in html
    assert not re.search(r'(src|href)="', html), html


def test_raw_html_and_headings_are_text(md):
    html = md.render("# not a heading\n\n<b>bold</b>")
    assert "<h1" not in html and "<b>" not in html
    assert "&lt;b&gt;" in html


def test_images_show_their_alternative_text(md):
    assert "a card" in md.render("![a card](http://example.com/card.png)")


def test_plain_text_is_escaped_and_apostrophes_are_typographic():
    assert cards_in_text("Y's <b> & K♥") == ('Y’s &lt;b&gt; &amp; <span class="card suit-hearts" role="img" '
                                             'aria-label="king of hearts" title="king of hearts">K♥</span>')


@pytest.mark.parametrize("page, pages", [
    ("56", [56]), ("82-84", [82, 83, 84]), ("134–6", [134, 135, 136]), ("**64–71**, 76", list(range(64, 72)) + [76]),
    ("Laws 71-73", []), (None, []), (92, [92]),
])
def test_pages_of(page, pages):
    assert pages_of(page) == pages
