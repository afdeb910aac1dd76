"""The four hands of a deal, as a value.

A :class:`Deal` compares and hashes by its cards, and its ``repr`` is a
call that evaluates back to an equal deal, in a dotted form close to PBN's
(spades, hearts, diamonds, clubs, each high to low):

>>> from whistbook import Deal, Seat
>>> deal = Deal("A:AQJT2.Q6.93.A983 Y:965.KT842.AK.KT6 B:84.A753.J852.Q72 Z:K73.J9.QT764.J54")
>>> deal[Seat.B][:3]
(Card.parse('8S'), Card.parse('4S'), Card.parse('AH'))
>>> deal.holder(Card.parse("JC"))
Seat.Z
>>> eval(repr(deal)) == deal
True
>>> print(deal)
A: ♠ A Q J T 2  ♥ Q 6  ♦ 9 3  ♣ A 9 8 3
Y: ♠ 9 6 5  ♥ K T 8 4 2  ♦ A K  ♣ K T 6
B: ♠ 8 4  ♥ A 7 5 3  ♦ J 8 5 2  ♣ Q 7 2
Z: ♠ K 7 3  ♥ J 9  ♦ Q T 7 6 4  ♣ J 5 4

The text a hand file writes (``A: ♠ A Q J T 2  ♥ Q 6 ...``, one seat a line
or seats separated by ``;``) is read too. A deal may hold fewer than 13
cards a hand (a problem's position); it never holds a card twice.

Bridge programs seat the whist players at the compass points: A sits South,
Y West, B North and Z East (:data:`COMPASS`), so that the whist leader A is
the bridge opening leader and the dealer Z the declarer.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator, Mapping

from .cards import SUITS, Card, Suit, format_holding, sort_cards, tokenize_hand, tokenize_holding
from .errors import DealError, InvalidCardError
from .seats import SEATS, Seat

#: the compass point of each seat in bridge programs
COMPASS: dict[Seat, str] = {Seat.A: "S", Seat.Y: "W", Seat.B: "N", Seat.Z: "E"}
#: PBN writes hands clockwise from a compass point; this is the order from North
_CLOCKWISE = "NESW"
_SEAT_OF_COMPASS = {v: k for k, v in COMPASS.items()}
_SEAT_LABEL = re.compile(r"(?:^|(?<=[\s;]))([AYBZ])\s*:")


class Deal:
    """The cards each of A, Y, B and Z holds, sorted suit by suit, high to low."""

    __slots__ = ("_hands",)

    def __init__(self, text: str) -> None:
        hands = _parse(text)
        self._hands = _checked(hands)

    @classmethod
    def from_hands(cls, hands: Mapping[Seat, Iterable[Card]]) -> "Deal":
        """A deal from each seat's cards in any order; the cards may also be
        a hand file's (``hand.deal``), which carry their place in the file.

        :raises DealError: when a card is dealt twice or a seat is missing.
        """
        deal = cls.__new__(cls)
        deal._hands = _checked({s: [getattr(c, "card", c) for c in hands[s]] for s in SEATS if s in hands})
        return deal

    @classmethod
    def from_pbn(cls, text: str) -> "Deal":
        """A deal from PBN's ``[Deal]`` value, e.g. ``N:84.A753.J852.Q72 K73... ...``,
        with the compass points read as in :data:`COMPASS`.

        :raises DealError: for text that is not a PBN deal.
        """
        m = re.fullmatch(r"\s*([NESW])\s*:\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*", text, re.I)
        if not m:
            raise DealError(f"{text!r} is not a PBN deal (expected e.g. 'N:AK.Q.J.T ...', four hands clockwise)")
        start = _CLOCKWISE.index(m.group(1).upper())
        hands: dict[Seat, list[Card]] = {}
        for k in range(4):
            seat = _SEAT_OF_COMPASS[_CLOCKWISE[(start + k) % 4]]
            hands[seat] = _dotted(m.group(k + 2))
        return cls.from_hands(hands)

    def __getitem__(self, seat: Seat) -> tuple[Card, ...]:
        return self._hands[seat]

    def __iter__(self) -> Iterator[Seat]:
        return iter(SEATS)

    @property
    def hands(self) -> dict[Seat, tuple[Card, ...]]:
        return dict(zip(SEATS, self._hands))

    def holder(self, card: Card) -> Seat | None:
        """The seat dealt ``card``, or None when no hand holds it."""
        for seat in SEATS:
            if card in self._hands[seat]:
                return seat
        return None

    def holding(self, seat: Seat, suit: Suit) -> tuple[Card, ...]:
        return tuple(c for c in self._hands[seat] if c.suit == suit)

    def dotted(self, seat: Seat) -> str:
        """One hand as PBN writes it: ``AQJT2.Q6.93.A983``."""
        return ".".join(
            "".join("23456789TJQKA"[c.rank - 2] for c in self.holding(seat, s)) for s in SUITS
        )

    def to_pbn(self) -> str:
        """The PBN ``[Deal]`` value, starting from North (B)."""
        order = [_SEAT_OF_COMPASS[p] for p in _CLOCKWISE]
        return "N:" + " ".join(self.dotted(s) for s in order)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self._hands == other._hands

    def __hash__(self) -> int:
        return hash(self._hands)

    def __repr__(self) -> str:
        return "Deal(" + repr(" ".join(f"{s}:{self.dotted(s)}" for s in SEATS)) + ")"

    def __str__(self) -> str:
        return "\n".join(f"{s}: {hand_line(self._hands[s])}" for s in SEATS)


def hand_line(cards: Iterable[Card]) -> str:
    """One hand on one line as a hand file writes it: ``♠ Q T 5 3  ♥ A  ♦ -  ♣ K 2``."""
    cs = list(cards)
    return "  ".join(
        f"{s.symbol} {format_holding([c for c in cs if c.suit == s], ten='T')}".replace("—", "-") for s in SUITS
    )


def _parse(text: str) -> dict[Seat, list[Card]]:
    parts = _SEAT_LABEL.split(text.strip())
    if parts[0].strip(" ;\n") or len(parts) < 3:
        raise DealError(f"{text!r} is not a deal (expected 'A:AQJT2.Q6.93.A983 Y:...' or 'A: ♠ A Q J T 2 ...')")
    hands: dict[Seat, list[Card]] = {}
    for label, body in zip(parts[1::2], parts[2::2]):
        seat = Seat.parse(label)
        if seat in hands:
            raise DealError(f"{seat} is given twice")
        body = body.strip(" ;\n")
        try:
            if "." in body or not body:
                hands[seat] = _dotted(body)
            else:
                hands[seat] = [Card(s, r) for s, ranks in tokenize_hand(body) for r, _ in ranks]
        except InvalidCardError as err:
            raise DealError(f"{seat}'s hand: {err.message}") from None
    return hands


def _dotted(text: str) -> list[Card]:
    holdings = text.split(".") if text else ["", "", "", ""]
    if len(holdings) != 4:
        raise DealError(f"{text!r} is not a hand (expected four suits separated by dots, spades first)")
    try:
        return [Card(s, r) for s, h in zip(SUITS, holdings) for r, _ in tokenize_holding(h)]
    except InvalidCardError as err:
        raise DealError(f"{text!r}: {err.message}") from None


def _checked(hands: dict[Seat, list[Card]]) -> tuple[tuple[Card, ...], ...]:
    missing = [str(s) for s in SEATS if s not in hands]
    if missing:
        raise DealError(f"the deal has no hand for {', '.join(missing)}")
    seen: dict[Card, Seat] = {}
    for seat in SEATS:
        for c in hands[seat]:
            if c in seen:
                where = "twice" if seen[c] == seat else f"and in {seen[c]}'s"
                raise DealError(f"{c} is in {seat}'s hand {where}")
            seen[c] = seat
    return tuple(tuple(sort_cards(hands[s])) for s in SEATS)
