"""The trick diagram as SVG: the four cards round the table as the book draws them.

The known hand is at the foot, its partner at the head, the opponents to
the left and right; an arrow marks the leader, the winning card is boxed,
the running count of tricks is written underneath, and with ``analysis`` a card that cost tricks double-dummy carries a small
``−1``. One SVG element lays out in WeasyPrint many times faster than the
forty boxes of an HTML diagram, and draws the same in every browser.

The SVG is built with :mod:`xml.etree.ElementTree`, so nothing is escaped by
hand. It is inline SVG in HTML, which needs no namespace declaration. Its
classes start with ``dg-`` so that the page's own rules (``.card``,
``.hand-caption``) cannot restyle the drawing in a browser. Colours are presentation attributes (WeasyPrint does not apply the
page's stylesheet inside SVG); every element also has a class, so a
stylesheet can restyle the diagram in a browser.
"""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET
from typing import Mapping

from ..cards import Suit
from ..lesson import HandView, Lesson, PlayView, TrickView
from .markup import rank_text

#: suit colours: two colours (red and black) and the four-colour pack
PALETTES: Mapping[str, Mapping[Suit, str]] = {
    "two": {Suit.SPADES: "#1b1b1b", Suit.HEARTS: "#b3202a", Suit.DIAMONDS: "#b3202a", Suit.CLUBS: "#1b1b1b"},
    "four": {Suit.SPADES: "#1b1b1b", Suit.HEARTS: "#b3202a", Suit.DIAMONDS: "#1d55a5", Suit.CLUBS: "#1c6d35"},
}
INK, MUTED, ACCENT, FELT, RULE = "#1b1b1b", "#5d5d5d", "#7a2e1d", "#f1ede3", "#c9c3b5"
FONT = "DejaVu Sans, Segoe UI Symbol, Arial Unicode MS, sans-serif"

# The drawing's own units; CSS sets its size on the page.
WIDTH, HEIGHT = 200, 142
CARD_SIZE, LABEL_SIZE = 17, 11
#: the tally under the table: at least 7.5 pt in the booklet's narrowest diagram (37 mm for 200 units)
TALLY_SIZE = 15
_CENTRE = (82, 44, 36, 36)  # x, y, w, h of the table
#: anchor point and text-anchor of each seat's card, and of its label
_CARD_AT = {"top": (100, 36, "middle"), "bottom": (100, 101, "middle"), "left": (70, 68, "end"), "right": (130, 68, "start")}
_LABEL_AT = {"top": (100, 13, "middle"), "bottom": (100, 119, "middle"), "left": (8, 67, "start"), "right": (192, 67, "end")}


def _card_width(p: PlayView) -> float:
    """The card's text width in drawing units (DejaVu Sans Bold: letters and
    digits about 0.7 em, suit symbols about 0.8 em)."""
    return (0.70 * len(rank_text(p.card.rank)) + 0.80) * CARD_SIZE


def _text(parent: ET.Element, x: float, y: float, text: str, *, size: float, anchor: str, fill: str,
          cls: str, bold: bool = False) -> ET.Element:
    el = ET.SubElement(parent, "text", {
        "x": f"{x:g}", "y": f"{y:g}", "font-size": f"{size:g}", "text-anchor": anchor, "fill": fill, "class": cls,
    })
    if bold:
        el.set("font-weight", "bold")
    el.text = text
    return el


def _label_width(text: str) -> float:
    """A seat label's width in drawing units (DejaVu Sans Bold; the arrow is wide)."""
    return sum(1.0 if ch == "↷" else 0.78 for ch in text) * LABEL_SIZE


def trick_label(trick: TrickView, *, analysis: bool = False) -> str:
    """The words a screen reader speaks for the diagram: each player's card by
    name, the lead, the winner and the tally; with ``analysis`` the cards that
    cost tricks double-dummy (the drawing's −1 marks)."""
    def play(p: PlayView) -> str:
        said = f"player {p.seat} {'led' if p.leads else 'played'} the {p.card.name}"
        if p.wins:
            said += ", which wins"
        if analysis and p.cost:
            said += f" (double-dummy, it cost {p.cost} trick{'s' if p.cost > 1 else ''})"
        return said
    ab, yz = trick.tally
    return f"Trick {trick.number}: " + "; ".join(play(p) for p in trick.plays) + f". Tricks: AB {ab}, YZ {yz}."


def trick_svg(trick: TrickView, *, analysis: bool = False, four_colour: bool = False) -> str:
    """One trick as an inline ``<svg>`` element (a string).

    With ``analysis`` the −1 marks are drawn (class ``dg-cost``; a page may
    hide them until asked) and the label that names them is kept in
    ``data-dd-label`` for the page's script to swap in.
    """
    palette = PALETTES["four" if four_colour else "two"]
    label = trick_label(trick)
    svg = ET.Element("svg", {
        "viewBox": f"0 0 {WIDTH} {HEIGHT}", "class": "trick-svg",
        "role": "img", "aria-label": label, "font-family": FONT,
    })
    costly_trick = analysis and any(p.cost for p in trick.plays)
    if costly_trick:
        svg.set("data-dd-label", trick_label(trick, analysis=True))
    x, y, w, h = _CENTRE
    ET.SubElement(svg, "rect", {"x": str(x), "y": str(y), "width": str(w), "height": str(h), "rx": "3",
                                "fill": FELT, "stroke": RULE, "stroke-width": "1", "class": "dg-table"})
    _text(svg, x + w / 2, y + h / 2 + 4, str(trick.number), size=LABEL_SIZE, anchor="middle", fill=MUTED,
          cls="dg-number")
    for p in trick.plays:
        pos = p.position
        cx, cy, anchor = _CARD_AT[pos]
        lx, ly, lanchor = _LABEL_AT[pos]
        cw = _card_width(p)
        left = cx - cw / 2 if anchor == "middle" else cx - cw if anchor == "end" else cx
        g = ET.SubElement(svg, "g", {"class": f"dg-play dg-p{p.order}"})
        if p.wins:
            ET.SubElement(g, "rect", {
                "x": f"{left - 4:g}", "y": f"{cy - CARD_SIZE + 1:g}", "width": f"{cw + 8:g}", "height": f"{CARD_SIZE + 5:g}",
                "rx": "3", "fill": "#ffffff", "stroke": INK, "stroke-width": "1.6", "class": "dg-winner",
            })
        _text(g, cx, cy, rank_text(p.card.rank) + p.card.suit.symbol, size=CARD_SIZE, anchor=anchor,
              fill=palette[p.card.suit], cls=f"dg-card dg-{p.card.suit.plural}", bold=True)
        mark = ("↷" if p.leads else "") + str(p.seat)
        if pos == "left":  # the label just before the card, as the book sets it
            lx, lanchor = left - 8, "end"
        elif pos == "right":
            lx, lanchor = left + cw + 8, "start"
            if lx + _label_width(mark) > WIDTH - 2:  # no room beside the card: under it, flush right
                lx, ly, lanchor = WIDTH - 2, cy + 16, "end"
        bold_label = p.leads or pos == "bottom"
        _text(g, lx, ly, mark, size=LABEL_SIZE, anchor=lanchor, fill=ACCENT if bold_label else MUTED,
              cls="dg-seat" + (" trick-leader" if p.leads else ""), bold=bold_label)
        if analysis and p.cost:
            # a small badge clear of the card (and of the winner's box): above it on the left,
            # beside it at the foot (the table is above), beyond its upper right corner elsewhere
            if pos == "left":
                bx, by = left + cw - 17, cy - CARD_SIZE - 15
            elif pos == "bottom":
                bx, by = left + cw + 6, cy - 12
            else:
                bx, by = left + cw + 3, cy - CARD_SIZE - 12
            ET.SubElement(g, "rect", {"x": f"{bx:g}", "y": f"{by:g}", "width": "17", "height": "12", "rx": "2",
                                      "fill": INK, "class": "dg-cost"})
            _text(g, bx + 8.5, by + 9.5, f"−{p.cost}", size=10, anchor="middle", fill="#ffffff",
                  cls="dg-cost dg-cost-text", bold=True)
    ab, yz = trick.tally
    _text(svg, WIDTH / 2, HEIGHT - 3, f"Tricks\u2002AB\u00a0{ab}\u2003YZ\u00a0{yz}", size=TALLY_SIZE, anchor="middle", fill=MUTED,
          cls="dg-tally")
    return ET.tostring(svg, encoding="unicode")


# The deal: four hands round the table, in the same places as in the tricks.
HAND_SIZE, CAPTION_SIZE, LINE = 14, 10, 18
_CHAR = 0.62 * HAND_SIZE  # the advance of a rank or a space in DejaVu Sans, roughly
_GAP = 70  # room for the table between the left and right hands


def _hand_width(h: HandView, caption: str) -> float:
    rows = [HAND_SIZE * 1.5 + _CHAR * len(" ".join(rank_text(c.rank) for c in s.cards) or "—") for s in h.suits]
    return max(max(rows), 0.74 * CAPTION_SIZE * len(caption))  # the caption is in capitals


def _hand(parent: ET.Element, h: HandView, x: float, y: float, caption: str, palette: Mapping[Suit, str]) -> None:
    g = ET.SubElement(parent, "g", {"class": f"dg-hand dg-{h.position}" + (" dg-known" if h.known else "")})
    _text(g, x, y + CAPTION_SIZE, caption.upper(), size=CAPTION_SIZE, anchor="start",
          fill=ACCENT if h.known else MUTED, cls="dg-caption", bold=h.known)
    for k, holding in enumerate(h.suits):
        ty = y + CAPTION_SIZE + 6 + LINE * (k + 1) - 4
        t = _text(g, x, ty, "", size=HAND_SIZE, anchor="start", fill=INK, cls=f"dg-row dg-{holding.suit.plural}")
        sym = ET.SubElement(t, "tspan", {"fill": palette[holding.suit], "class": "dg-suit"})
        sym.text = holding.suit.symbol
        ranks = ET.SubElement(t, "tspan", {"x": f"{x + HAND_SIZE * 1.5:g}", "class": "dg-ranks"})
        ranks.text = " ".join(rank_text(c.rank) for c in holding.cards) or "—"


def deal_svg(lesson: Lesson, *, centre: str = "", four_colour: bool = False) -> str:
    """The four hands as dealt, the known hand at the foot (an inline ``<svg>``)."""
    palette = PALETTES["four" if four_colour else "two"]
    by = lesson.deal_by_position
    captions = {pos: f"{h.seat}’s hand" + (" (known)" if h.known else "") + (", dealer" if h.dealer else "")
                for pos, h in by.items()}
    widths = {pos: _hand_width(h, captions[pos]) for pos, h in by.items()}
    block = CAPTION_SIZE + 6 + LINE * 4 + 2
    side = max(widths["left"], widths["right"])
    width = max(2 * side + _GAP, widths["top"] + 40, widths["bottom"] + 40)
    height = 3 * block + 16
    desc = "; ".join(
        f"{h.seat}: " + ", ".join(f"{s.suit.plural} " + (" ".join(rank_text(c.rank) for c in s.cards) or "none")
                                  for s in h.suits)
        for h in lesson.deal)
    svg = ET.Element("svg", {"viewBox": f"0 0 {width:g} {height:g}", "class": "deal-svg", "role": "img",
                             "aria-label": f"The deal. {desc}", "font-family": FONT})
    ET.SubElement(svg, "title").text = f"The deal. {desc}"
    mid_y = block + 8
    cx = width / 2
    ET.SubElement(svg, "rect", {"x": f"{cx - 28:g}", "y": f"{mid_y + 12:g}", "width": "56", "height": "56", "rx": "3",
                                "fill": FELT, "stroke": RULE, "stroke-width": "1", "class": "dg-table"})
    words = centre.split()
    for k, line in enumerate((words[0], " ".join(words[1:])) if len(words) > 1 else words):
        _text(svg, cx, mid_y + 38 + 13 * k, line, size=CAPTION_SIZE, anchor="middle", fill=MUTED, cls="dg-centre")
    top_x = cx - 28  # the top and bottom hands line up with the table's left edge
    _hand(svg, by["top"], min(top_x, width - widths["top"]), 0, captions["top"], palette)
    _hand(svg, by["left"], 0, mid_y, captions["left"], palette)
    _hand(svg, by["right"], width - widths["right"], mid_y, captions["right"], palette)
    _hand(svg, by["bottom"], min(top_x, width - widths["bottom"]), 2 * block + 16, captions["bottom"], palette)
    return ET.tostring(svg, encoding="unicode")


#: the hands of a deal in a row, clockwise round the table from the left
ROW_ORDER = ("left", "top", "right", "bottom")


def deal_row_svg(lesson: Lesson, *, four_colour: bool = False) -> str:
    """The four hands side by side, clockwise from the left hand (an inline
    ``<svg>``): a third of the height of :func:`deal_svg`, for a booklet page
    where the deal round the table would not fit."""
    palette = PALETTES["four" if four_colour else "two"]
    by = lesson.deal_by_position
    captions = {pos: f"{h.seat}" + (" (known)" if h.known else "") + (", dealer" if h.dealer else "")
                for pos, h in by.items()}
    widths = [_hand_width(by[pos], captions[pos]) for pos in ROW_ORDER]
    gap = 18
    width = sum(widths) + gap * (len(widths) - 1)
    height = CAPTION_SIZE + 6 + LINE * 4 + 2
    desc = "; ".join(f"{h.seat}: " + ", ".join(f"{s.suit.plural} " + (" ".join(rank_text(c.rank) for c in s.cards)
                                                                     or "none") for s in h.suits)
                     for h in lesson.deal)
    svg = ET.Element("svg", {"viewBox": f"0 0 {width:g} {height:g}", "class": "deal-svg deal-row-svg", "role": "img",
                             "aria-label": f"The deal. {desc}", "font-family": FONT})
    ET.SubElement(svg, "title").text = f"The deal. {desc}"
    x = 0.0
    for pos, w in zip(ROW_ORDER, widths):
        _hand(svg, by[pos], x, 0, captions[pos], palette)
        x += w + gap
    return ET.tostring(svg, encoding="unicode")


def as_image(svg: str) -> str:
    """A drawing of this module as an ``<img>`` holding the SVG in a ``data:``
    URL, for print. WeasyPrint treats an inline ``<svg>`` as part of the page:
    its pure-Python HTML parser reads every element, the page's selectors are
    matched against each, and then the drawing is written out and read again
    as SVG; an image it reads once, with ElementTree. The picture on the page
    is the same. The image keeps the drawing's class and width, and its
    spoken label as the ``alt`` text."""
    el = ET.fromstring(svg)
    el.set("xmlns", "http://www.w3.org/2000/svg")
    data = base64.b64encode(ET.tostring(el, encoding="utf-8")).decode("ascii")
    img = ET.Element("img", {"class": el.get("class", ""), "alt": el.get("aria-label", ""),
                             "src": f"data:image/svg+xml;base64,{data}"})
    if el.get("width"):
        img.set("style", f"width: {el.get('width')}")
    return ET.tostring(img, encoding="unicode", method="html")


__all__ = ["deal_row_svg", "trick_svg", "trick_label", "deal_svg", "as_image", "PALETTES"]


# --- what is known, for print ----------------------------------------------------------------
#
# In the booklet the picture of what is known after a trick is drawn as SVG:
# WeasyPrint lays out a small HTML table far more slowly than one SVG element
# (measured: the tables took 45% of a lesson's layout). The page on screen
# keeps the HTML table, which a screen reader can walk.

_KNOWN_SIZE = 9  # the font size, in drawing units
_KNOWN_ROW = 12


def _holding_text(s) -> str:
    """``K J (Q 10) +1–2``, a dash for none left, ``(—)`` for presumably none, a dot where nothing is known."""
    if s.void:
        return "—"
    if s.unknown:
        return "·"
    if not s.certain and not s.presumed and not s.rest.high:
        return "(—)"  # presumably none left
    parts = [rank_text(c.rank) for c in s.certain]
    if s.presumed:
        parts.append("(" + " ".join(rank_text(c.rank) for c in s.presumed) + ")")
    lo, hi = s.rest
    if hi:
        more = str(lo) if lo == hi else f"{lo}–{hi}"
        parts.append(("+" if s.certain or s.presumed else "") + more)
    return " ".join(parts)


def known_svg(trick: TrickView, *, four_colour: bool = False) -> str:
    """The picture of what is known after ``trick`` as an inline ``<svg>``: a
    row per unseen hand, a column per suit (the same content as the page's
    table; its label says it in words)."""
    palette = PALETTES["four" if four_colour else "two"]
    seats = trick.known
    suits = [s.suit for s in seats[0].suits]
    cells = [[_holding_text(s) for s in sk.suits] for sk in seats]
    # column widths from the longest text (DejaVu Sans: about 0.62 em a character)
    widths = [max(1.6, max(len(row[k]) for row in cells)) * 0.62 * _KNOWN_SIZE + 8 for k in range(len(suits))]
    seat_w = 14
    width = seat_w + sum(widths)
    height = _KNOWN_ROW * (len(seats) + 1) + 3
    label = f"What you know after trick {trick.number}: " + "; ".join(
        f"player {sk.seat}: " + ", ".join(f"{s.suit.plural} {text}" for s, text in zip(sk.suits, row))
        for sk, row in zip(seats, cells))
    svg = ET.Element("svg", {
        "viewBox": f"0 0 {width:g} {height:g}", "class": "known-svg", "role": "img", "aria-label": label,
        # sized so that its text is nearly the surrounding text's size (in the booklet, 7.5 pt or more)
        "font-family": FONT, "width": f"{width / _KNOWN_SIZE * 0.95:.2f}em",
    })
    x = seat_w
    for k, suit in enumerate(suits):
        _text(svg, x + 2, _KNOWN_SIZE, suit.symbol, size=_KNOWN_SIZE, anchor="start", fill=palette[suit],
              cls=f"dg-suit dg-{suit.plural}")
        x += widths[k]
    for r, (sk, row) in enumerate(zip(seats, cells), start=1):
        y = _KNOWN_ROW * r + _KNOWN_SIZE
        ET.SubElement(svg, "line", {"x1": "0", "x2": f"{width:g}", "y1": f"{y - _KNOWN_SIZE - 1.5:g}",
                                    "y2": f"{y - _KNOWN_SIZE - 1.5:g}", "stroke": RULE, "stroke-width": "0.5"})
        _text(svg, 0, y, str(sk.seat), size=_KNOWN_SIZE, anchor="start", fill=INK, cls="dg-seat", bold=True)
        x = seat_w
        for k, text in enumerate(row):
            _text(svg, x + 2, y, text, size=_KNOWN_SIZE, anchor="start", fill=MUTED if text in "·—" else INK,
                  cls="dg-holding")
            x += widths[k]
    return ET.tostring(svg, encoding="unicode")
