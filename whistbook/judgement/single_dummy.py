"""Single-dummy evaluation: what each legal card is worth on what its player knew.

For one decision (:class:`~.position.Decision`) the player's view of the
unseen hands is the set of deals that keep what he knew
(:func:`~.position.knowledge_at`, drawn by :class:`~.sampling.DealSpace`).
Each deal is solved double-dummy from the position of the decision, and a
card's value is the mean over the deals of the tricks its side then takes
from here on (the trick in play included). This is how GIB and the Ben robot
judge a card at bridge (Monte Carlo over deals consistent with what is known,
each solved double-dummy); whist has no dummy, so every unseen hand is drawn.

Where the score makes the hand's tricks decide the game, each card also gets
the chance that its side wins the game on this hand and the chance that the
adversaries do (the honours in each deal counted as the club code scores them).

The draw is deterministic for a seed. Deals are drawn in batches until the
verdict of every card is settled (its loss against the best is clear of the
thresholds by two standard errors) or the most samples are reached; when the
player's view holds no more deals than that, every deal is weighed once and the
figures are exact. Equal positions are solved once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import sqrt
from typing import Callable, Mapping, Sequence

from .. import solver
from ..cards import Card
from ..scoring import honours_held, score_hand
from ..seats import SEATS, Seat, Side
from .position import Decision, Table, before_trick, choices_at, knowledge_at, view_at
from .sampling import DealSpace, NoDeal


@dataclass(frozen=True)
class Budget:
    """How many deals to weigh for one decision."""

    least: int = 16  # drawn before the first look at whether the verdicts are settled
    most: int = 64  # never more than this; a view with no more deals than this is weighed whole
    batch: int = 16
    #: the most for a decision early in the hand (each hand holding ``early_from`` cards or
    #: more), where one deal costs a hundred times what it costs after five tricks
    early_most: int = 32
    early_from: int = 11

    @classmethod
    def up_to(cls, samples: int | None) -> "Budget":
        """A budget of at most ``samples`` deals a card (None: the default one)."""
        if samples is None:
            return cls()
        return cls(least=min(16, samples), most=samples, batch=min(16, samples), early_most=min(32, samples))

    def most_for(self, cards_left: int) -> int:
        return self.early_most if cards_left >= self.early_from else self.most


@dataclass(frozen=True)
class ChoiceValue:
    """One choice (a card, or cards equal in sequence) and what it is worth."""

    cards: tuple[Card, ...]  # high to low
    expected: float  # mean tricks the side takes from here, this trick included
    #: the game's result over the deals, when the score makes it matter: the chance the
    #: side wins the game on this hand, and the chance the adversaries do
    win: float | None = None
    lose: float | None = None

    @property
    def result(self) -> float | None:
        """Chance of winning the game less chance of losing it (-1..1), or None."""
        return None if self.win is None or self.lose is None else self.win - self.lose


@dataclass(frozen=True)
class Evaluation:
    """The single-dummy values of every choice at one decision."""

    trick: int
    index: int
    seat: Seat
    choices: tuple[ChoiceValue, ...]
    samples: int  # deals weighed
    exact: bool  # True when every deal the player could imagine was weighed
    #: "presumed" when the conventions' presumptions were kept, "certain" when they
    #: left no deal and only what the laws prove was used
    basis: str
    #: per choice, the tricks in each deal (same order as ``choices``), for paired errors
    tricks: tuple[tuple[int, ...], ...] = ()
    results: tuple[tuple[int, ...], ...] = ()  # per choice, +1/0/-1 in each deal; empty when the score does not matter

    def value_of(self, card: Card) -> ChoiceValue:
        for v in self.choices:
            if card in v.cards:
                return v
        raise KeyError(card)

    def paired_stderr(self, a: int, b: int, what: str = "tricks") -> float:
        """Standard error of the mean difference between choices ``a`` and ``b``
        over the same deals (0 when exact)."""
        rows = self.tricks if what == "tricks" else self.results
        if self.exact or self.samples < 2 or not rows:
            return 0.0
        diffs = [x - y for x, y in zip(rows[a], rows[b])]
        m = sum(diffs) / len(diffs)
        var = sum((x - m) ** 2 for x in diffs) / (len(diffs) - 1)
        return sqrt(var / len(diffs))

    @property
    def score_matters(self) -> bool:
        return bool(self.results)


def evaluate(table: Table, d: Decision, *, seed: int = 0, budget: Budget = Budget(),
             settled: Callable[[Evaluation], bool] | None = None, view=None) -> Evaluation:
    """Weigh every legal choice of decision ``d`` over the deals its player could imagine.

    ``settled`` tells whether the figures so far are clear enough to stop
    drawing (the verdicts' rule; default: draw ``budget.least`` deals only).
    ``view`` is the seat's view at the decision when the caller has it
    (:func:`~.position.view_at`).

    :raises SolverError: if the double-dummy solver cannot be used.
    """
    groups = choices_at(table, d)
    view = view if view is not None else view_at(table, d)
    most = budget.most_for(table.size - d.trick + 1)
    basis = "presumed"
    try:
        space = DealSpace(knowledge_at(table, d, "presumed", view))
    except NoDeal:
        basis = "certain"
        space = DealSpace(knowledge_at(table, d, "certain", view))
    weigher = _Weigher(table, d, groups)
    if space.total <= most:
        weigher.add(list(space.deals()))
        return weigher.evaluation(basis, exact=True)
    rng = random.Random(_seed(seed, d))
    while True:
        want = min(budget.least if not weigher.count else budget.batch, most - weigher.count)
        weigher.add([space.draw(rng) for _ in range(want)])
        ev = weigher.evaluation(basis, exact=False)
        if weigher.count >= most or settled is None or settled(ev):
            return ev


def _seed(seed: int, d: Decision) -> int:
    """A seed of its own for each decision, the same on every run."""
    return (seed * 1_000_003 + d.trick * 101 + d.index * 7 + int(d.seat)) & 0xFFFFFFFF


class _Weigher:
    """Solves deals for one decision and keeps the tricks of each choice."""

    def __init__(self, table: Table, d: Decision, groups: Sequence[tuple[Card, ...]]) -> None:
        self.table, self.d, self.groups = table, d, groups
        self.gone = before_trick(table, d)
        self.side = d.seat.side
        self.count = 0
        self.rows: list[list[int]] = [[] for _ in groups]
        self.outcomes: list[list[int]] = [[] for _ in groups]
        self.solved: dict[frozenset, dict[Card, int]] = {}
        self.scored = table.score is not None and table.trumps is not None and table.size == 13

    def add(self, deals: Sequence[Mapping[Seat, frozenset[Card]]]) -> None:
        """Weigh ``deals`` (dealt hands): the positions not met before are solved in one batch."""
        rows = []
        todo: dict[frozenset, solver.Position] = {}
        for deal in deals:
            now = {s: frozenset(deal[s] - self.gone) for s in SEATS}
            key = frozenset((s, c) for s in SEATS if s != self.d.seat for c in now[s])
            rows.append((deal, key))
            if key not in self.solved and key not in todo:
                todo[key] = solver.Position(now, self.table.trumps, self.d.leader, self.d.trick_so_far)
        if todo:
            for key, values in zip(todo, solver.card_options_many(list(todo.values()))):
                self.solved[key] = values
        for deal, key in rows:
            self._record(deal, self.solved[key])

    def _record(self, deal: Mapping[Seat, frozenset[Card]], values: Mapping[Card, int]) -> None:
        self.count += 1
        held = honours_held(deal, self.table.trumps) if self.scored else None
        for i, g in enumerate(self.groups):
            n = values[g[0]]
            self.rows[i].append(n)
            if held is not None:
                self.outcomes[i].append(self._outcome(n, held))

    def _outcome(self, tricks_from_here: int, held: Mapping[Side, int]) -> int:
        """+1 if the side wins the game on this hand with these tricks, -1 if the adversaries do, else 0."""
        ours = self.d.won.get(self.side, 0) + tricks_from_here
        tricks = {self.side: ours, self.side.other: self.table.size - ours}
        score = score_hand(tricks, held, self.table.score, self.table.rules)
        return 0 if score.game is None else (1 if score.game == self.side else -1)

    def evaluation(self, basis: str, *, exact: bool) -> Evaluation:
        n = self.count
        matters = self.scored and len({x for row in self.outcomes for x in row}) > 1
        values = []
        for i, g in enumerate(self.groups):
            win = lose = None
            if matters:
                win = sum(1 for x in self.outcomes[i] if x > 0) / n
                lose = sum(1 for x in self.outcomes[i] if x < 0) / n
            values.append(ChoiceValue(g, sum(self.rows[i]) / n, win, lose))
        return Evaluation(
            self.d.trick, self.d.index, self.d.seat, tuple(values), n, exact, basis,
            tuple(tuple(r) for r in self.rows),
            tuple(tuple(r) for r in self.outcomes) if matters else (),
        )


__all__ = ["Budget", "ChoiceValue", "Evaluation", "evaluate"]
