"""The records a hand file is loaded into: plain data, each with its location.

Nothing here checks whist rules; :mod:`whistbook.play` and
:mod:`whistbook.laws` do that with these records and their locations.
"""

from __future__ import annotations

import re
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


#: Law 72: what the adversaries of a revoking side may take, per revoke
REVOKE_PENALTIES = ("tricks", "add", "deduct", "none")
#: Law 76: what they may require when a revoke is corrected before it is established
CORRECTION_PENALTIES = ("exposed", "highest", "lowest", "none")
#: how a card came to be exposed, and the law that makes it so
EXPOSURES = {"dropped": 56, "played-in-error": 56, "claim": 58, "concession": 58, "named": 60}
#: Laws 62-63: what the adversaries may do after a lead out of turn
OUT_OF_TURN_PENALTIES = ("exposed", "suit", "none")


@dataclass(frozen=True)
class Revoke:
    """A revoke recorded at a trick (Laws 71-82).

    Established (the default): ``card`` is among the trick's cards and the
    adversaries' choice under Law 72 is ``penalty``. Corrected before it was
    established (Law 76): ``card`` was played and taken back, the trick's cards
    hold the proper card, and ``penalty`` is the choice under Law 76.
    """

    card: CardRef
    penalty: str
    corrected: bool
    loc: SourceLocation
    penalty_loc: SourceLocation


@dataclass(frozen=True)
class Exposure:
    """Cards exposed during a trick (dropped, played in error, shown in a claim)."""

    cards: tuple[CardRef, ...]
    how: str  # a key of EXPOSURES
    loc: SourceLocation


@dataclass(frozen=True)
class LeadOutOfTurn:
    """A card led out of turn at this trick (Laws 62-63).

    Usually the card is taken back and the trick's cards are the play from the
    proper leader. With ``stands`` all three others played to the false lead,
    so the trick stands as played (Law 63): its cards begin with this card.
    """

    card: CardRef
    penalty: str  # one of OUT_OF_TURN_PENALTIES
    loc: SourceLocation
    penalty_loc: SourceLocation
    stands: bool = False


@dataclass(frozen=True)
class Call:
    """A call the adversaries make at this trick (Laws 61, 64-66, 76, 86).

    Exactly one of: ``card`` (an exposed card, to be played when legal),
    ``seat`` with ``play`` ``highest``/``lowest`` (of the suit led), or
    ``suit`` (to be led by this trick's leader if he holds it).
    """

    loc: SourceLocation
    card: CardRef | None = None
    seat: Seat | None = None
    play: str | None = None
    suit: Suit | None = None


@dataclass(frozen=True)
class HonoursCall:
    """Long whist: a player at eight calls honours (Dick's Hand-Book)."""

    by: Seat
    answer: bool | None  # partner's answer to "can you one?"; None when the caller shows three or four
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
    #: a remark drafted by ``whistbook annotate`` and not yet accepted (renamed ``remark``) by the author
    remark_draft: str | None = None
    remark_draft_loc: SourceLocation | None = None
    note: str | None = None  # an editor's note: ours, beyond what the book says
    infer: list[Stated] = field(default_factory=list)  # author-stated inferences (text)
    # irregularities recorded at this trick, applied by the replay as the laws direct
    revokes: list[Revoke] = field(default_factory=list)
    exposed: list[Exposure] = field(default_factory=list)
    out_of_turn: LeadOutOfTurn | None = None
    calls: list[Call] = field(default_factory=list)

    @property
    def irregular(self) -> bool:
        return bool(self.revokes or self.exposed or self.out_of_turn or self.calls)

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
    honours_call: HonoursCall | None = None  # long whist only
    #: where each top-level key was written, for messages about the whole file
    key_locs: dict[str, SourceLocation] = field(default_factory=dict)
    #: the seat whose hand is the rest of the pack (written ``rest``, or left out), if any
    rest: Seat | None = None

    def loc_of(self, key: str) -> SourceLocation:
        return self.key_locs.get(key, SourceLocation(self.path, 1, 1))

    def play_loc(self, trick_index: int, play_index: int) -> SourceLocation:
        """Where the card ``play_index`` of trick ``trick_index`` is written
        (both 0-based; the trick's own place when it has no such card)."""
        t = self.tricks[trick_index]
        return t.plays[play_index].loc if 0 <= play_index < len(t.plays) else t.loc

    @property
    def slug(self) -> str:
        import os

        return page_name(os.path.splitext(os.path.basename(self.path))[0])


def page_name(name: str) -> str:
    """A file's name made safe as a page's name, which links, URLs and the site's
    Markdown take as it is: letters, digits, ``_``, ``-`` and ``.``; any run of other
    characters (a space, ``#``, ``?``, ``%``, a quote...) becomes ``-``, and a
    leading dot (a hidden file, which the site leaves out) is dropped."""
    return re.sub(r"[^\w.-]+", "-", name).lstrip(".-").rstrip("-") or "lesson"
