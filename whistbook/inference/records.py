"""The inference engine's records: conclusions (:class:`Inference`),
departures from rule, each trick's explanation and the whole
:class:`Explanation`, and the presumptions the walk keeps (:class:`Assumption`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..cards import Card, Suit
from ..seats import SEATS, Seat
from .state import Answers, KState

LAYERS = ("certain", "presumed", "probable")


@dataclass(frozen=True)
class Inference:
    """One conclusion, with what it rests on."""

    seat: Seat
    kind: str  # "void" | "holds" | "lacks" | "count" | "signal"
    cards: tuple[Card, ...]
    suit: Suit | None
    certainty: str  # "certain" | "presumed" | "probable"
    rule: str
    page: str | None
    rests_on: tuple[int, ...]
    low: int | None = None  # for "count": fewest cards of the suit still held
    high: int | None = None  # for "count": most cards of the suit still held
    #: a variant of the rule that changes what it shows ("defensive" for a first discard
    #: when trumps have been declared against the player)
    variant: str | None = None

    def to_json(self) -> dict:
        return {
            "seat": str(self.seat), "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "suit": self.suit.letter if self.suit is not None else None,
            "certainty": self.certainty, "rule": self.rule,
            "low": self.low, "high": self.high, "rests_on": list(self.rests_on),
        }


@dataclass(frozen=True)
class Departure:
    """A presumption that a later card contradicted: the player did not play to rule."""

    trick: int  # the trick of the play that broke the rule
    seat: Seat
    rule: str
    found_at: int = 0  # the trick whose cards showed it
    key: int = field(default=0, compare=False, repr=False)
    #: the card the presumption was drawn from, when it was drawn from one
    card: Card | None = None
    #: "presumed" for a departure from rule, "probable" for a likelihood given up
    layer: str = "presumed"

    def to_json(self) -> dict:
        return {"trick": self.trick, "seat": str(self.seat), "rule": self.rule, "found_at": self.found_at,
                "card": str(self.card) if self.card is not None else None, "layer": self.layer}


@dataclass
class TrickExplanation:
    number: int
    inferences: list[Inference]
    #: layer -> {card: seats that may hold it}, for every card the viewer cannot
    #: see that is still in play ("certain", "presumed"; "probable" in Python only)
    knowledge: dict[str, dict[Card, tuple[Seat, ...]]]
    #: layer -> {seat: {suit: (fewest, most)}} cards of the suit still held
    counts: dict[str, dict[Seat, dict[Suit, tuple[int, int]]]]
    departures: list[Departure] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "inferences": [i.to_json() for i in self.inferences],
            "knowledge": {layer: {str(c): [str(s) for s in seats] for c, seats in sorted(
                self.knowledge[layer].items(), key=lambda kv: (kv[0].suit, -kv[0].rank))}
                for layer in ("certain", "presumed")},
            "counts": {layer: {str(s): {S.letter: list(r) for S, r in per.items()}
                               for s, per in self.counts[layer].items()}
                       for layer in ("certain", "presumed")},
        }


@dataclass
class Explanation:
    viewpoint: Seat
    tricks: list[TrickExplanation]
    departures: list[Departure]
    #: probable presumptions given up because later cards did not bear them out
    retracted: list[Departure] = field(default_factory=list)
    #: the layer states after each trick (internal; for checking statements)
    _states: list[tuple[KState, KState, KState]] = field(default_factory=list, repr=False)
    _played: list[dict[int, int]] = field(default_factory=list, repr=False)

    def to_json(self) -> dict:
        return {
            "viewpoint": str(self.viewpoint),
            "tricks": [t.to_json() for t in self.tricks],
            "departures": [d.to_json() for d in self.departures],
        }

    def state_after(self, trick: int, layer: str) -> KState:
        """The layer's constraint store after ``trick`` (about the deal)."""
        return self._states[trick - 1][LAYERS.index(layer)]

    def played_count(self, trick: int, seat: Seat, suit: Suit) -> int:
        """Cards of ``suit`` that ``seat`` has played by the end of ``trick``."""
        return self._played[trick - 1][int(seat)][int(suit)]

    def holders(self, trick: int, card: Card, layer: str) -> tuple[Seat, ...]:
        """The seats that may hold ``card`` as dealt, in the layer after ``trick``."""
        mask = self.state_after(trick, layer).poss[int(card)]
        return tuple(s for s in SEATS if mask >> int(s) & 1)

    def remaining(self, trick: int, seat: Seat, suit: Suit, layer: str) -> tuple[int, int]:
        """Fewest and most cards of ``suit`` that ``seat`` still holds after ``trick``."""
        lo, hi = self.state_after(trick, layer).length_range(int(seat), int(suit))
        played = self.played_count(trick, seat, suit)
        return lo - played, hi - played


@dataclass
class Assumption:
    id: int
    trick: int
    seat: int
    suit: int
    rule: str
    layer: int  # 1 presumed, 2 probable
    pred: Callable[[int], bool]  # over the seat's dealt holding of the suit (rank mask)
    active: bool = True
    withdrawn: str | None = None
    #: the predicate names the very card played (so a later signal can show
    #: the card was chosen for another reason); otherwise it speaks of the holding only
    about_card: bool = False
    rank: int = 0  # firmness, see RANK
    card_index: int = -1  # rank index of the card whose play gave the presumption
    memo: Answers = field(default_factory=Answers, repr=False)  # the predicate's answers, kept by the store
    #: a presumption held as probable because its player has departed from rule
    demoted: bool = False
