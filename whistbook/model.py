"""The records a hand file is loaded into: plain data, each with its location.

Nothing here checks whist rules; :mod:`whistbook.play` and
:mod:`whistbook.laws` do that with these records and their locations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, Suit
from .errors import SourceLocation
from .seats import Seat, Side


@dataclass(frozen=True)
class CardRef:
    """A card as written in the file, with where it was written."""

    card: Card
    loc: SourceLocation


@dataclass(frozen=True)
class Stated:
    """A value an author stated for checking (a tally, a leader), with its location."""

    value: object
    loc: SourceLocation


@dataclass
class TrickRecord:
    index: int  # 0-based; users see index + 1
    plays: list[CardRef]
    loc: SourceLocation
    shown: bool = True
    tally: Stated | None = None  # value: dict[Side, int], after this trick
    leader: Stated | None = None  # value: Seat
    winner: Stated | None = None  # value: Seat
    remark: str | None = None  # the book's remark, in our words
    remark_loc: SourceLocation | None = None
    note: str | None = None  # an editor's note: ours, beyond what the book says
    infer: list[Stated] = field(default_factory=list)  # author-stated inferences (text)

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass
class StatedResult:
    """The outcome as the file states it, e.g. "AB win three by cards"."""

    side: Side  # the side that wins by cards
    by_cards: int
    honours: dict[Side, int]  # points by honours each side states; absent = not stated
    game: bool | None  # True if "and the game" is stated; None if not mentioned
    text: str
    loc: SourceLocation


@dataclass
class Ending:
    """How the tricks not written out are accounted for."""

    account: str | None
    claim: dict[Side, int] | None  # sides named in the claim and their tricks
    loc: SourceLocation
    claim_loc: SourceLocation | None = None
    note: str | None = None  # an editor's note on the ending: ours, not the book's


@dataclass
class Erratum:
    trick: int | None
    printed: str
    used: str
    reason: str
    loc: SourceLocation


@dataclass
class Task:
    """A problem's task: a side to take so many of the remaining tricks."""

    side: Side
    tricks: int
    text: str
    loc: SourceLocation


@dataclass
class Solution:
    """A line of play a book gives for a problem: the plays in order."""

    title: str
    plays: list[CardRef]
    account: str | None
    loc: SourceLocation


@dataclass
class HandFile:
    """One parsed hand file (``kind: hand``) or problem (``kind: problem``)."""

    path: str
    kind: str  # "hand" | "problem"
    title: str
    theme: str | None
    source: str | None
    tags: list[str]
    rules: str  # "short" | "long"
    known_hand: Seat | None
    dealer: Seat | None
    leader: Seat
    score: dict[Side, int] | None
    turn_up: CardRef | None
    trumps: Suit
    deal: dict[Seat, list[CardRef]]
    tricks: list[TrickRecord]
    ending: Ending | None
    result: StatedResult | None
    errata: list[Erratum]
    task: Task | None = None
    solutions: list[Solution] = field(default_factory=list)
    notes: str | None = None
    #: where each top-level key was written, for messages about the whole file
    key_locs: dict[str, SourceLocation] = field(default_factory=dict)

    def loc_of(self, key: str) -> SourceLocation:
        return self.key_locs.get(key, SourceLocation(self.path, 1, 1))

    @property
    def slug(self) -> str:
        import os

        return os.path.splitext(os.path.basename(self.path))[0]
