"""Cards, suits and remarks as HTML.

Remarks are Markdown (CommonMark through markdown-it-py) with three
additions and some things taken away:

* ``{KH}``, ``{10S}``, ``{TD}`` write a card and ``{S}`` a suit; a card or
  suit already written with its symbol (``K♥``, ``♠``) is marked up the same
  way, so every suit on a page carries its symbol and its suit class;
* a page reference such as ``(p. 56)`` or ``pp. 93-94`` becomes a link to the
  principle of play that the page states, when one is known;
* ``[text](rule:lead_strongest_suit)`` links to a principle by its id.

Raw HTML is not parsed (it shows as text), headings are not recognised, an
image shows as its alternative text and nothing is fetched, and a link that
leaves the page set (any ``scheme:``, ``//host``, an absolute path or ``..``)
keeps its text and loses its target. A hand file can therefore never make a
page, the booklet or the site load anything.
"""

from __future__ import annotations

import html
import re
from typing import Any, Iterable, Mapping

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markupsafe import Markup

from ..cards import RANK_LETTERS, RANK_NAMES, Card, Suit

_SUIT_BY_LETTER = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
_SUIT_BY_SYMBOL = {s.symbol: s for s in Suit}
_RANK_BY_TEXT = {**{RANK_LETTERS[r]: r for r in range(2, 15)}, "10": 10}

#: ``{KH}`` ``{10S}`` ``{S}`` (shorthand) and ``K♥`` ``10♠`` ``♠`` (symbols)
CARD_PATTERN = re.compile(
    r"\{(?P<r1>10|[2-9TJQKA])?(?P<s1>[SHDC])\}"
    r"|(?P<r2>10|(?<![\w])[2-9TJQKA])?(?P<s2>[♠♥♦♣])"
)
#: "p. 56", "pp. 93-94", "pp. 119–23"
_PAGE_RE = re.compile(r"\b(?:pp?)\.\s?(\d{1,3})(?:\s?[-–]\s?(\d{1,3}))?")


def rank_text(rank: int) -> str:
    return "10" if rank == 10 else RANK_LETTERS[rank]


def card_html(card: Card) -> str:
    """A card as its rank and symbol, which a screen reader speaks by name ("two of diamonds")."""
    s = card.suit
    return (f'<span class="card suit-{s.plural}" role="img" aria-label="{card.name}" title="{card.name}">'
            f'{rank_text(card.rank)}{s.symbol}</span>')


def rank_html(card: Card) -> str:
    """A card's rank alone (its suit is given by the row or column), spoken by name ("king")."""
    name = RANK_NAMES[card.rank]
    return f'<span class="rank" role="img" aria-label="{name}">{rank_text(card.rank)}</span>'


def suit_html(suit: Suit) -> str:
    return (f'<span class="suit suit-{suit.plural}" role="img" aria-label="{suit.plural}" title="{suit.plural}">'
            f'{suit.symbol}</span>')


def card_of_match(m: re.Match) -> Card | None:
    """The card a match of :data:`CARD_PATTERN` writes (None for a suit alone)."""
    rank, letter = (m.group("r1"), m.group("s1")) if m.group("s1") else (m.group("r2"), None)
    suit = _SUIT_BY_LETTER[letter] if letter else _SUIT_BY_SYMBOL[m.group("s2")]
    return None if rank is None else Card(suit, _RANK_BY_TEXT[rank])


def _card_or_suit(rank: str | None, suit: Suit) -> str:
    if rank is None:
        return suit_html(suit)
    return card_html(Card(suit, _RANK_BY_TEXT[rank]))


_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")


def cards_in_text(text: str) -> str:
    """Escape plain text and mark up the cards and suits in it (HTML string);
    an apostrophe inside a word becomes the typographer's (Y’s)."""
    text = _APOSTROPHE.sub("\u2019", text)
    out = []
    pos = 0
    for m in CARD_PATTERN.finditer(text):
        out.append(html.escape(text[pos:m.start()], quote=False))
        if m.group("s1"):
            out.append(_card_or_suit(m.group("r1"), _SUIT_BY_LETTER[m.group("s1")]))
        else:
            out.append(_card_or_suit(m.group("r2"), _SUIT_BY_SYMBOL[m.group("s2")]))
        pos = m.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


def words_html(words: Iterable[Any]) -> Markup:
    """Wording from :mod:`whistbook.wording` (text, cards and suits) as safe HTML."""
    out = []
    for w in words:
        if isinstance(w, Card):
            out.append(card_html(w))
        elif isinstance(w, Suit):
            out.append(suit_html(w))
        else:
            out.append(html.escape(_APOSTROPHE.sub("\u2019", str(w)), quote=False))
    return Markup("".join(out))


def prose(text: str) -> Markup:
    """Plain text (an inference, an erratum, an account) as safe HTML with its cards marked up."""
    return Markup(cards_in_text(text))


#: what Python-Markdown reads after a backslash as the character itself (its ``ESCAPED_CHARS``);
#: ``<``, ``>``, ``&`` and the quotes are escaped for HTML instead
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!])")


def markdown_text(text: Any) -> Markup:
    """Plain text (a title, a theme, the book's name) written into a Markdown page
    so that it reads as that text and nothing else: on one line (a line break could
    start a block), its HTML escaped and its Markdown punctuation backslashed, so
    that ``[x](javascript:…)`` or ``![x](http://…)`` stays words and fetches nothing.
    Quotes, ampersands and suit symbols come out as they were written."""
    one_line = " ".join(str(text).split())
    return Markup(html.escape(_MARKDOWN_PUNCTUATION.sub(r"\\\1", one_line)))


def pages_of(page: Any) -> list[int]:
    """The book pages a rule's ``page`` field names: ``56``, ``"56-59"``,
    ``"**134–6**, 116–17"`` (a short second number keeps the first's hundreds).
    Law numbers (``"Laws 71-73"``) are not pages."""
    if page is None:
        return []
    if isinstance(page, int):
        return [page]
    text = str(page)
    if text.strip().lower().startswith("law"):
        return []
    out: list[int] = []
    for m in re.finditer(r"(\d+)(?:\s?[-–]\s?(\d+))?", text):
        lo = int(m.group(1))
        hi = lo
        if m.group(2):
            tail = m.group(2)
            hi = int(m.group(1)[: len(m.group(1)) - len(tail)] + tail) if len(tail) < len(m.group(1)) else int(tail)
        if hi < lo or hi - lo > 40:
            hi = lo
        out.extend(range(lo, hi + 1))
    return out


def page_index(rules: Mapping[str, Any]) -> dict[int, str]:
    """Book page -> id of the first rule that covers it (rules in registry order)."""
    index: dict[int, str] = {}
    for rule_id, rule in rules.items():
        for p in pages_of(getattr(rule, "page", None)):
            index.setdefault(p, rule_id)
    return index


class RemarkRenderer:
    """Markdown of remarks, accounts and notes to safe HTML, as described above.

    ``rules`` is the registry of principles (id -> rule with ``page``); the
    link to a principle is ``principles_href + "#rule-" + id``.
    """

    def __init__(self, rules: Mapping[str, Any] | None = None) -> None:
        self.rules = dict(rules or {})
        self.pages = page_index(self.rules)
        md = MarkdownIt("commonmark", {"html": False, "typographer": True})
        md.enable(["replacements", "smartquotes"])
        md.disable(["heading", "lheading", "html_block", "html_inline"])
        md.core.ruler.push("whistbook", self._rewrite)
        self.md = md

    def render(self, text: str | None, principles_href: str = "principles.html", *, anchor: str = "") -> Markup:
        """``anchor`` prefixes the targets of ``#fragment`` links (the booklet
        holds every lesson in one document, so its ids carry the lesson's slug)."""
        if not text:
            return Markup("")
        return Markup(self.md.render(text.strip(), {"principles": principles_href, "anchor": anchor}))

    def rule_href(self, rule_id: str, principles_href: str) -> str | None:
        return f"{principles_href}#rule-{rule_id}" if rule_id in self.rules else None

    # -- the core rule ------------------------------------------------------------------

    def _rewrite(self, state: StateCore) -> None:
        principles = state.env.get("principles", "principles.html")
        anchor = state.env.get("anchor", "")
        for block in state.tokens:
            if block.type == "inline" and block.children:
                block.children = list(self._rewrite_inline(block.children, principles, anchor))

    def _rewrite_inline(self, tokens: list[Token], principles: str, anchor: str) -> Iterable[Token]:
        dropped: list[bool] = []  # one entry per open link: was its target dropped?
        in_link = 0
        for tok in tokens:
            if tok.type == "link_open":
                href = self._safe_href(str(tok.attrGet("href") or ""), principles, anchor)
                dropped.append(href is None)
                if href is None:
                    continue
                tok.attrSet("href", href)
                in_link += 1
                yield tok
            elif tok.type == "link_close":
                if dropped.pop():
                    continue
                in_link -= 1
                yield tok
            elif tok.type == "image":
                # never an <img>: nothing in a remark may be fetched
                alt = tok.content or "".join(c.content for c in tok.children or [])
                yield self._html(f'<span class="image-alt">{cards_in_text(alt)}</span>')
            elif tok.type == "text":
                yield self._html(self._text_html(tok.content, principles, link=not in_link))
            else:
                yield tok

    def _text_html(self, text: str, principles: str, *, link: bool) -> str:
        if not link or not self.pages:
            return cards_in_text(text)
        out = []
        pos = 0
        for m in _PAGE_RE.finditer(text):
            first = int(m.group(1))
            last = pages_of(f"{m.group(1)}-{m.group(2)}")[-1] if m.group(2) else first
            rule_id = next((self.pages[p] for p in range(first, last + 1) if p in self.pages), None)
            if rule_id is None:
                continue
            out.append(cards_in_text(text[pos:m.start()]))
            title = html.escape(str(getattr(self.rules[rule_id], "title", rule_id)))
            out.append(f'<a class="page-ref" href="{html.escape(principles)}#rule-{rule_id}" '
                       f'title="{title}">{html.escape(m.group(0))}</a>')
            pos = m.end()
        out.append(cards_in_text(text[pos:]))
        return "".join(out)

    def _safe_href(self, href: str, principles: str, anchor: str) -> str | None:
        if href.startswith("rule:"):
            return self.rule_href(href[5:], principles)
        if href.startswith("#") and len(href) > 1:
            return "#" + anchor + href[1:]
        return None

    @staticmethod
    def _html(content: str) -> Token:
        tok = Token("html_inline", "", 0)
        tok.content = content
        return tok


__all__ = ["RemarkRenderer", "markdown_text", "CARD_PATTERN", "card_of_match", "card_html", "suit_html", "prose", "cards_in_text", "rank_text", "pages_of", "page_index"]
