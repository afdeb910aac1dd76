"""The records a lesson page is rendered from (:class:`Lesson` and the views it
holds): plain data, no behaviour beyond what the templates ask of them.
:mod:`whistbook.lesson` makes them; templates receive only these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from . import wording
from .cards import Card, Suit
from .play import Tally
from .problem import PlayAt, Refutation
from .seats import Seat, Side
from .wording import Words


@dataclass(frozen=True)
class ThemeRef:
    slug: str
    title: str


@dataclass(frozen=True)
class SuitHolding:
    suit: Suit
    cards: tuple[Card, ...]  # high to low


@dataclass(frozen=True)
class HandView:
    seat: Seat
    position: str  # bottom/left/top/right, relative to the viewpoint
    known: bool
    suits: tuple[SuitHolding, ...]  # spades, hearts, diamonds, clubs
    dealer: bool = False


@dataclass(frozen=True)
class PlayView:
    seat: Seat
    card: Card
    position: str
    order: int  # 1 for the lead .. 4
    leads: bool
    wins: bool
    #: double-dummy tricks this card gave away (0 or None: none, or not analysed)
    cost: int | None = None


@dataclass(frozen=True)
class InferenceView:
    """One new conclusion at a trick, as data; its words come from :mod:`whistbook.wording`."""

    seat: Seat
    kind: str  # "void" | "holds" | "lacks" | "count" | "signal"
    certainty: str  # "certain" | "presumed" | "probable"
    rule: str | None  # rule id, the anchor on the principles page
    rule_title: str | None
    page: str | None  # the book's page for the rule, e.g. "82-84" or "Laws 52-53"
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None
    low: int | None = None
    high: int | None = None
    #: the sentence (without its citation) and the short phrase after the seat's name
    sentence: Words = ()
    phrase: Words = ()
    #: whether the deal bears the conclusion out at its trick (a presumption may not be)
    borne_out: bool = True
    #: the seats the deal shows answering to the same description (for "void": every
    #: player out of the suit then), so that a question on it has one right answer
    fits: tuple[Seat, ...] = ()


@dataclass(frozen=True)
class SeatNews:
    """What is new about one unseen seat at a trick."""

    seat: Seat
    items: tuple[InferenceView, ...]
    #: the same, condensed into a few short clauses, each with its rule (wording.news)
    clauses: tuple[wording.Clause, ...] = ()


class CountRange(NamedTuple):
    """The fewest and the most cards there may be (the templates read ``low`` and ``high``)."""

    low: int
    high: int


@dataclass(frozen=True)
class SuitKnowledge:
    """What the viewer knows of one suit in one unseen hand after a trick."""

    suit: Suit
    certain: tuple[Card, ...]  # cards the laws place in this hand, high to low
    presumed: tuple[Card, ...]  # cards the conventions place here besides, high to low
    count: tuple[int, int]  # cards of the suit still held, fewest and most (laws)
    presumed_count: tuple[int, int]  # the same with the conventions
    #: the most this hand could hold, from what is seen alone: the suit's unseen cards not
    #: placed in the other two hands, and no more than the cards the hand has left
    possible: int = 13

    @property
    def unknown(self) -> bool:
        """Nothing is known: no card placed, and any number from none to every possible card."""
        return not (self.certain or self.presumed) and self.presumed_count == (0, self.possible) and self.possible > 0

    @property
    def void(self) -> bool:
        return self.count[1] == 0

    @property
    def rest(self) -> CountRange:
        """Cards beyond those named (certain and presumed), by the presumed count."""
        named = len(self.certain) + len(self.presumed)
        lo, hi = self.presumed_count
        return CountRange(max(0, lo - named), max(0, hi - named))


@dataclass(frozen=True)
class SeatKnowledge:
    seat: Seat
    position: str  # left/top/right, relative to the viewpoint
    suits: tuple[SuitKnowledge, ...]  # spades, hearts, diamonds, clubs


@dataclass(frozen=True)
class DepartureView:
    """A presumption that later cards overturned: the player did not play to rule."""

    trick: int  # the trick of the play that broke the rule
    found_at: int  # the trick whose cards showed it
    seat: Seat
    rule: str | None
    rule_title: str | None
    words: Words


@dataclass(frozen=True)
class MisledView:
    """A presumption the deal proves false, shown when the hands are revealed:
    the card it was drawn from did not mean what the convention says."""

    trick: int
    seat: Seat
    card: Card  # the seat's card at that trick
    rule: str | None
    rule_title: str | None
    page: str | None
    words: Words


@dataclass(frozen=True)
class AnalysisNote:
    """One card that cost tricks, double-dummy."""

    seat: Seat
    card: Card
    cost: int
    tricks_if_played: int | None
    best_tricks: int | None
    best_cards: tuple[Card, ...]


@dataclass(frozen=True)
class IrregularityView:
    """An irregularity at its trick: what happened and what the law does (words), and the laws applied."""

    kind: str
    seat: Seat
    words: Words
    laws: str  # e.g. "Laws 71-73"


@dataclass(frozen=True)
class VerdictView:
    """The single-dummy verdict on the viewer's own card at a trick: it uses only
    what the viewer could see, so it may be shown once the trick is played."""

    seat: Seat
    card: Card
    tier: str  # "good" | "inaccuracy" | "mistake" | "blunder"
    loss: float  # expected tricks given up against the best choice
    best: tuple[Card, ...]  # the best choice (cards equal in sequence)
    follows_principle: bool | None  # None when the conventions are silent
    principle: tuple[Card, ...]  # the cards the conventions choose
    rule: str | None
    rule_title: str | None
    page: str | None
    samples: int
    exact: bool
    result_loss: float | None = None  # chance of the game's result given up, where the score matters


@dataclass(frozen=True)
class TrickView:
    number: int
    leader: Seat
    winner: Seat
    winning_card: Card
    tally: Tally  # after the trick
    plays: tuple[PlayView, ...]  # in play order
    by_position: Mapping[str, PlayView]
    shown: bool
    remark: str | None  # Markdown source
    inferences: tuple[InferenceView, ...] = ()
    #: a draft remark (Markdown) not yet accepted by the author, shown as a draft; None when there is a remark
    draft: str | None = None
    #: an editor's note (Markdown): ours, beyond the book
    note: str | None = None
    #: the picture of what the viewer knows of the three unseen hands after this trick
    known: tuple[SeatKnowledge, ...] = ()
    analysis: tuple[AnalysisNote, ...] = ()
    #: departures from rule that this trick's cards revealed
    departures: tuple[DepartureView, ...] = ()
    #: what is new at this trick, one line per seat, certain first (empty without the engine)
    news: tuple[SeatNews, ...] = ()
    #: irregularities at this trick (revokes, exposed cards, calls...), as the laws dispose of them
    irregularities: tuple[IrregularityView, ...] = ()
    #: the single-dummy verdict on the viewer's card (None without the judge, or for a forced card)
    verdict: VerdictView | None = None

    def has_notes(self, analysis: bool = False) -> bool:
        """Whether anything is written under the diagram (a remark, inferences, a
        departure, an irregularity, or with ``analysis`` a double-dummy note)."""
        return bool(self.remark or self.draft or self.note or self.inferences or self.departures or self.irregularities
                    or self.flagged or (analysis and self.analysis))

    @property
    def flagged(self) -> bool:
        """Whether the judge marks the viewer's card at this trick (an inaccuracy or worse)."""
        return self.verdict is not None and self.verdict.tier != "good"


@dataclass(frozen=True)
class ErratumView:
    trick: int | None
    printed: str
    used: str
    reason: str


@dataclass(frozen=True)
class EndingView:
    first_trick: int  # the first trick the ending covers
    account: str | None  # Markdown source
    claim: tuple[tuple[Side, int], ...]
    note: str | None = None  # an editor's note (Markdown)


@dataclass(frozen=True)
class ResultView:
    text: str  # e.g. "AB win three by cards"
    tricks: Tally  # over the whole hand
    before: tuple[int, int]
    after: tuple[int, int]
    game: Side | None
    game_value: str | None  # "treble", "double", "single"
    rules: str
    #: revoke penalties and called honours, scored before the tricks (empty when none)
    first: Words = ()
    #: the tricks as played, when a revoke penalty moved some (AB, YZ)
    tricks_played: Tally | None = None


@dataclass(frozen=True)
class SolutionView:
    title: str
    tricks: tuple[tuple[PlayView, ...], ...]  # each trick's plays in order
    account: str | None
    sound: bool | None  # None when the solver did not judge it
    #: the solving side's card that gives up the task: (trick, seat, card), and the tricks left to it then
    error_card: PlayAt | None = None
    error_total: int | None = None
    #: the defence that beats the line: (trick, defender, card, tricks the side then takes in all)
    refutation: Refutation | None = None
    refutation_also: tuple[Card, ...] = ()
    #: tricks the side takes in the line as written
    tricks_won: int | None = None
    #: positions in the line (0-based, across tricks) of the error card and of the refuted play
    error_index: int | None = None
    refutation_index: int | None = None
    #: every card of the line that changed the double-dummy result:
    #: (trick, seat, card, tricks for the side before, after, better cards)
    slips: tuple[tuple[int, Seat, Card, int, int, tuple[Card, ...]], ...] = ()


@dataclass(frozen=True)
class ProblemView:
    side: Side
    needed: int
    size: int  # cards in each hand
    text: str
    achievable: int | None
    solutions: tuple[SolutionView, ...]


@dataclass(frozen=True)
class Lesson:
    """Everything one lesson page (or problem page) shows."""

    slug: str
    path: str
    kind: str  # "hand" | "problem"
    title: str
    theme: str | None
    source: str | None
    tags: tuple[str, ...]
    themes: tuple[ThemeRef, ...]
    viewpoint: Seat
    known_hand: HandView | None
    score_before: tuple[int, int] | None
    rules: str
    turn_up: Card | None
    trumps: Suit
    dealer: Seat | None
    leader: Seat
    tricks: tuple[TrickView, ...]  # the shown tricks
    unshown: tuple[TrickView, ...]  # tricks written out but not shown in the book
    ending: EndingView | None
    errata: tuple[ErratumView, ...]
    deal: tuple[HandView, ...]  # bottom, left, top, right
    result: ResultView | None
    problem: ProblemView | None = None
    #: how the double-dummy analysis saw the start, e.g. {AB: 7, YZ: 6}; None if not analysed
    analysis_start: Tally | None = None
    analysed: bool = False
    inferred: bool = False
    departures: tuple[DepartureView, ...] = ()
    #: what double-dummy figures assume, shown with them (from the analysis module)
    analysis_note: str | None = None
    #: position in the build (1-based), for "[12/39]" and the contents
    index: int = 0
    #: the play-along's questions (whistbook.quiz.PlayQuiz and KnowQuiz records)
    play_quizzes: tuple[Any, ...] = ()
    know_quizzes: tuple[Any, ...] = ()
    #: presumptions the deal proves false, for the reveal
    misled: tuple[MisledView, ...] = ()

    @property
    def deal_by_position(self) -> dict[str, HandView]:
        return {h.position: h for h in self.deal}

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts this lesson has, in page order (templates give each its heading)."""
        if self.kind == "problem":
            keys = ["problem"]
            if self.problem is not None and self.problem.solutions:
                keys.append("solutions")
        else:
            keys = ["intro", "play"]
            if self.unshown or self.ending is not None:
                keys.append("ending")
            if self.errata:
                keys.append("errata")
            keys.append("hands")
        return tuple(keys)

    def has_trick(self, number: int) -> bool:
        """Whether the page shows trick ``number`` (as a diagram or in the compact list)."""
        return any(t.number == number for t in self.tricks + self.unshown)

    def trick_groups(self, analysis: bool = False) -> list[list[TrickView]]:
        """The shown tricks in runs: a trick with notes alone, consecutive bare
        tricks together (the book sets such runs of diagrams side by side)."""
        groups: list[list[TrickView]] = []
        for t in self.tricks:
            if t.has_notes(analysis) or not groups or groups[-1][-1].has_notes(analysis):
                groups.append([t])
            else:
                groups[-1].append(t)
        return groups


__all__ = ["ThemeRef", "SuitHolding", "HandView", "PlayView", "InferenceView", "SeatNews", "CountRange", "SuitKnowledge", "SeatKnowledge", "DepartureView", "MisledView", "AnalysisNote", "IrregularityView", "VerdictView", "TrickView", "ErratumView", "EndingView", "ResultView", "SolutionView", "ProblemView", "Lesson"]


@dataclass(frozen=True)
class BrokenView:
    """A hand file with errors, which a build that goes on shows as a page of its errors."""

    title: str
    slug: str
    path: str
    problems: tuple[str, ...]  # each as validate prints it
