"""Suits, ranks and cards.

The canonical text of a card is its rank then its suit letter: ``QS``, ``TD``,
``2H``. Parsing accepts the common spellings an author types or a book
prints: ``10`` or ``T`` for the ten, Unicode suits (``♠ ♥ ♦ ♣`` and the open
``♤ ♡ ♢ ♧``), suit first or rank first, and Cavendish's abbreviations ``Kg``,
``Qn`` and ``Knv``.

>>> Card.parse("Qn♡")
Card.parse('QH')
>>> str(Card.parse("10 of clubs"))
'TC'
>>> [str(c) for c in parse_holding("Q1053", Suit.SPADES)]
['QS', 'TS', '5S', '3S']

A card is an ``int`` (0..51, suit-major in the order spades, hearts,
diamonds, clubs, two low) so that sets and comparisons of cards are as cheap
as Python allows: the replay engine checks every card an author writes.
"""

from __future__ import annotations

import enum
import re
from typing import Iterable

from .errors import InvalidCardError


class Suit(enum.IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def plural(self) -> str:
        return self.name.lower()

    @property
    def singular(self) -> str:
        return self.name.lower()[:-1]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __str__(self) -> str:
        return self.letter

    @classmethod
    def parse(cls, text: str) -> "Suit":
        key = text.strip().lower()
        try:
            return _SUIT_WORDS[key]
        except KeyError:
            raise InvalidCardError(
                f"{text!r} is not a suit (expected S, H, D, C or ♠ ♥ ♦ ♣)"
            ) from None


SUITS: tuple[Suit, ...] = tuple(Suit)

_SUIT_WORDS: dict[str, Suit] = {}
for _s, _words in zip(
    SUITS,
    (
        ("s", "♠", "♤", "spade", "spades"),
        ("h", "♥", "♡", "heart", "hearts"),
        ("d", "♦", "♢", "diamond", "diamonds"),
        ("c", "♣", "♧", "club", "clubs"),
    ),
):
    for _w in _words:
        _SUIT_WORDS[_w] = _s

#: Rank values run 2..14 so that ``max()`` finds the best card.
RANKS: tuple[int, ...] = tuple(range(2, 15))
RANK_LETTERS = {r: "23456789TJQKA"[r - 2] for r in RANKS}
#: numbers as words, 0 to 13, as the book writes counts of cards and tricks
NUMBER_WORDS: tuple[str, ...] = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                 "ten", "eleven", "twelve", "thirteen")


def number_word(n: int) -> str:
    """``3`` -> ``three`` (0 is ``no``; beyond thirteen, digits)."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def parse_number_word(word: str) -> int | None:
    """``"three"`` or ``"3"`` -> 3; ``"zero"``, ``"no"`` and ``"none"`` -> 0; None for anything else."""
    w = word.strip().lower()
    if w.isdecimal():  # not isdigit(), which takes "²", a digit int() refuses
        return int(w) if len(w) <= 6 else None  # a count in whist has two digits; int() refuses 4,300
    if w in ("zero", "none"):
        return 0
    return NUMBER_WORDS.index(w) if w in NUMBER_WORDS else None


RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "knave", 12: "queen", 13: "king", 14: "ace",
}

_RANK_WORDS: dict[str, int] = {
    "a": 14, "ace": 14,
    "k": 13, "kg": 13, "king": 13,
    "q": 12, "qn": 12, "queen": 12,
    "j": 11, "kn": 11, "knv": 11, "knave": 11, "jack": 11,
    "t": 10, "10": 10, "ten": 10,
}
for _r in range(2, 10):
    _RANK_WORDS[str(_r)] = _r
    _RANK_WORDS[RANK_NAMES[_r]] = _r

# Longest spellings first so that "knv" is not read as "k" then "nv".
_RANK_PATTERN = "|".join(
    sorted((re.escape(w) for w in _RANK_WORDS), key=len, reverse=True)
)
_SUIT_PATTERN = "|".join(
    sorted((re.escape(w) for w in _SUIT_WORDS), key=len, reverse=True)
)
_RANK_RE = re.compile(rf"(?i)({_RANK_PATTERN})")
_CARD_RE = re.compile(
    rf"(?i)^\s*(?:(?P<r1>{_RANK_PATTERN})\s*(?:of\s+)?(?P<s1>{_SUIT_PATTERN})"
    rf"|(?P<s2>{_SUIT_PATTERN})\s*(?P<r2>{_RANK_PATTERN}))\s*$"
)


def parse_rank(text: str) -> int:
    """Return the rank 2..14 named by ``text`` (``A``, ``Kg``, ``10``, ``T``...)."""
    try:
        return _RANK_WORDS[text.strip().lower()]
    except KeyError:
        raise InvalidCardError(
            f"{text!r} is not a rank (expected A K Q J T 9..2, 10, Kg, Qn or Knv)"
        ) from None


class Card(int):
    """One of the 52 cards; compare ranks with :attr:`rank`, suits with :attr:`suit`."""

    __slots__ = ()

    def __new__(cls, suit: Suit | int, rank: int) -> "Card":  # pragma: no cover - via _DECK
        return _DECK[int(suit) * 13 + rank - 2]

    def __reduce__(self):  # pickled as its place in the deck (lessons are cached and sent to workers)
        return _card_at, (int(self),)

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        return int(self) % 13 + 2

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_TEXT[self]!r})"

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, as a lesson shows it: ``Q♠``, ``10♦``."""
        rank = "10" if self.rank == 10 else RANK_LETTERS[self.rank]
        return rank + self.suit.symbol

    @property
    def name(self) -> str:
        """The card in words: ``queen of spades``."""
        return f"{RANK_NAMES[self.rank]} of {self.suit.plural}"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse one card in any accepted spelling.

        :raises InvalidCardError: if ``text`` names no card.
        """
        card = _PARSED.get(text)
        if card is not None:
            return card
        m = _CARD_RE.match(text)
        if not m:
            raise InvalidCardError(
                f"{text!r} is not a card (expected a rank 2-9/T/J/Q/K/A and a suit S/H/D/C, e.g. 'QS')"
            )
        rank = m.group("r1") or m.group("r2")
        suit = m.group("s1") or m.group("s2")
        return _DECK[_SUIT_WORDS[suit.lower()] * 13 + _RANK_WORDS[rank.lower()] - 2]


def _make_deck() -> tuple[Card, ...]:
    deck = []
    for i in range(52):
        c = int.__new__(Card, i)
        deck.append(c)
    return tuple(deck)


_DECK = _make_deck()


def _card_at(index: int) -> Card:
    return _DECK[index]
DECK: tuple[Card, ...] = _DECK
_SUIT_OF = tuple(Suit(i // 13) for i in range(52))
_TEXT = tuple(RANK_LETTERS[i % 13 + 2] + "SHDC"[i // 13] for i in range(52))
# Fast path for the canonical spellings, which are what most files use.
_PARSED: dict[str, Card] = {}
for _c in _DECK:
    _PARSED[_TEXT[_c]] = _c
    _PARSED[_TEXT[_c].lower()] = _c
    if _c.rank == 10:
        _PARSED["10" + "SHDC"[_c.suit]] = _c


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas: ``cards("QS 10D 2h")``."""
    return [Card.parse(t) for t in re.split(r"[\s,]+", text.strip()) if t]


def parse_holding(text: str, suit: Suit) -> list[Card]:
    """The cards of one suit written as ranks: ``Q T 5 3``, ``QT53``, ``Q1053``,
    ``Qn, 10, 5, 3``; ``-`` or an empty string is a void.

    :raises InvalidCardError: naming the offending text and its offset.
    """
    return [Card(suit, r) for r, _ in tokenize_holding(text)]


def tokenize_holding(text: str) -> list[tuple[int, int]]:
    """Split a run of ranks into ``(rank, offset)`` pairs; see :func:`parse_holding`."""
    out: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in ",-—–·." or ch.isspace():  # any space: a no-break or thin one pasted from a document too
            i += 1
            continue
        m = _RANK_RE.match(text, i)
        if not m:
            raise InvalidCardError(f"{text[i:].split()[0]!r} is not a rank (expected A K Q J T 9..2, 10, Kg, Qn or Knv)",
                                   offset=i)
        word = m.group(1)
        # A bare "1" never starts a rank; "10" is matched whole above.
        out.append((_RANK_WORDS[word.lower()], i))
        i = m.end()
    return out


def tokenize_hand(text: str) -> list[tuple[Suit, list[tuple[int, int]]]]:
    """Split a one-line hand such as ``♠ Q1053 ♥ A ♣ A763 ♦ KJ92`` or
    ``S: QT53 H: A C: A763 D: KJ92`` into suits with ``(rank, offset)`` pairs."""
    parts = list(re.finditer(rf"(?i)(?<![a-z])({_SUIT_PATTERN})(?![a-z])\s*:?", text))
    if not parts or text[: parts[0].start()].strip():
        raise InvalidCardError(
            f"{text!r} is not a hand (expected each suit's ranks after its suit, e.g. '♠ Q1053 ♥ A ♣ A763 ♦ KJ92')"
        )
    out: list[tuple[Suit, list[tuple[int, int]]]] = []
    for k, m in enumerate(parts):
        end = parts[k + 1].start() if k + 1 < len(parts) else len(text)
        body = text[m.end():end]
        try:
            ranks = tokenize_holding(body)
        except InvalidCardError as err:
            err.offset += m.end()
            raise
        out.append((_SUIT_WORDS[m.group(1).lower()], [(r, m.end() + o) for r, o in ranks]))
    return out


def sort_cards(cs: Iterable[Card]) -> list[Card]:
    """Suit by suit (spades, hearts, diamonds, clubs), high to low."""
    return sorted(cs, key=lambda c: (c.suit, -c.rank))


def format_holding(cs: Iterable[Card], ten: str = "10") -> str:
    """Ranks of one suit high to low, e.g. ``Q 10 5 3``; ``—`` for a void."""
    ranks = sorted((c.rank for c in cs), reverse=True)
    if not ranks:
        return "—"
    return " ".join(ten if r == 10 else RANK_LETTERS[r] for r in ranks)
