"""Players that keep Cavendish's conventions, one for each seat.

A :class:`ConventionPlayer` chooses a card as the book teaches: the cards the
conventions give at the decision (:func:`whistbook.judgement.principle.principle`,
the same rules the inference engine reads the play with), and where they leave
more than one real choice, or say nothing, a search:

* ``search="single-dummy"``: the best of the principle's cards (of all legal
  cards where the principle is silent) over the deals consistent with what the
  seat knows, each solved double-dummy (:mod:`whistbook.judgement.single_dummy`);
  ``margin`` may make the principle's first card (the first rule's) stand
  unless another is better by that much:
  the player of issue 22 and of the move-matching benchmark
  (``benchmarks/move_matching.py``). A second or more a decision early in the
  hand, a few milliseconds late in it.
* ``search="quick"`` (the default): a cheap tie-break instead, for making many
  hands (``whistbook deal``, ``whistbook new``): a choice drawn from the seed
  among the principle's cards, and where the principle is silent a small rule
  of thumb (a winner of a plain suit, partner's suit, the lowest of the longest
  suit). The seat's view is the public history only
  (:func:`~whistbook.inference.view_after` without presumptions), a tenth of
  the work; the principle reads nothing else.

Every choice is deterministic for a seed: the same deal, seed and search play
the same cards on every run.

>>> from whistbook.starter import random_deal
>>> import random
>>> deal = random_deal(random.Random(4))
>>> played = play_hand(deal, deal[Seat.Z][0].suit, seed=4)
>>> len(played.tricks), played.choices[0].how
(13, 'principle')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from .cards import Card, Suit
from .judgement.position import Decision, Table, choices_at, view_at
from .judgement.principle import Principle, principle
from .judgement.single_dummy import Budget, Evaluation, evaluate
from .judgement.verdict import RESULT_STEPS
from .play import Play, Tally, Trick, legal_plays, winner_of
from .seats import SEATS, Seat, Side

SEARCHES = ("quick", "single-dummy")


@dataclass(frozen=True)
class Choice:
    """One card a player chose, and how."""

    card: Card
    principle: Principle
    #: "forced" (one real choice), "principle" (the principle's one choice),
    #: "tie-break" (a quick choice among the principle's), "rule-of-thumb" (the
    #: principle silent, quick), "single-dummy" (the search chose), "given" (the caller chose)
    how: str
    evaluation: Evaluation | None = None


class HandInPlay:
    """A deal being played card by card: the position, the decision to make, the play so far."""

    def __init__(self, hands: Mapping[Seat, Sequence[Card]], trumps: Suit | None, *, leader: Seat = Seat.A,
                 turn_up: Card | None = None, dealer: Seat | None = None,
                 score: Mapping[Side, int] | None = None, rules: str = "short") -> None:
        self.dealt = {s: frozenset(hands[s]) for s in SEATS}
        self.held = {s: set(hands[s]) for s in SEATS}
        self.trumps, self.first_leader, self.turn_up, self.dealer = trumps, leader, turn_up, dealer
        self.score, self.rules = score, rules
        self.size = len(self.dealt[Seat.A])
        self.done: list[Trick] = []
        self.current: list[Play] = []
        self.leader = leader
        self.won = {Side.AB: 0, Side.YZ: 0}
        self.choices: list[Choice] = []

    @property
    def finished(self) -> bool:
        return len(self.done) == self.size

    @property
    def to_play(self) -> Seat:
        s = self.leader
        for _ in self.current:
            s = s.lho
        return s

    def table(self) -> Table:
        """The hand so far as the judge reads it (the trick in play as a partial trick)."""
        tricks = list(self.done)
        if self.current:
            tally = Tally(self.won[Side.AB], self.won[Side.YZ])
            tricks.append(Trick(len(self.done) + 1, self.leader, tuple(self.current), self.leader, tally))
        return Table(self.dealt, self.trumps, self.first_leader, tuple(tricks), self.turn_up, self.dealer,
                     self.score, self.rules)

    def decision(self) -> Decision:
        """The card to choose now. ``played`` is a stand-in (the first legal card): not chosen yet."""
        seat = self.to_play
        so_far = tuple(p.card for p in self.current)
        led = so_far[0].suit if so_far else None
        legal = tuple(sorted(legal_plays(self.held[seat], led), key=lambda c: (c.suit, -c.rank)))
        return Decision(len(self.done) + 1, len(self.current), seat, self.leader, legal[0],
                        frozenset(self.held[seat]), so_far, legal, dict(self.won))

    def play(self, choice: Choice) -> None:
        seat = self.to_play
        if choice.card not in self.held[seat]:
            raise ValueError(f"{seat} does not hold {choice.card}")
        self.held[seat].discard(choice.card)
        self.current.append(Play(seat, choice.card))
        self.choices.append(choice)
        if len(self.current) == 4:
            cards = [int(p.card) for p in self.current]
            win = SEATS[winner_of(cards, int(self.leader), None if self.trumps is None else int(self.trumps))]
            self.won[win.side] += 1
            self.done.append(Trick(len(self.done) + 1, self.leader, tuple(self.current), win,
                                   Tally(self.won[Side.AB], self.won[Side.YZ])))
            self.current = []
            self.leader = win


@dataclass(frozen=True)
class PlayedHand:
    """A deal played through: the table (every trick) and each card's choice, in play order."""

    table: Table
    choices: tuple[Choice, ...]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self.table.tricks)

    def cards(self) -> list[list[Card]]:
        """Each trick's cards from its leader (what a hand file's ``tricks`` holds)."""
        return [list(t.cards) for t in self.table.tricks]


@dataclass
class ConventionPlayer:
    """Chooses a card for whichever seat is to play (see the module's notes).

    ``budget`` bounds the single-dummy search (deals a decision).
    """

    search: str = "quick"
    seed: int = 0
    budget: Budget = field(default_factory=Budget)
    #: how much better (expected tricks) another of the principle's cards must be
    #: for the search to prefer it to the conventions' first choice (0: the best
    #: always; a quarter of a trick matched the book less well, 77.1% against 77.7%)
    margin: float = 0.0

    def __post_init__(self) -> None:
        if self.search not in SEARCHES:
            raise ValueError(f"unknown search {self.search!r} (expected one of {', '.join(SEARCHES)})")

    def choose(self, table: Table, d: Decision, view=None) -> Choice:
        """The card for decision ``d`` of ``table`` (the play so far, the trick in play last).
        ``view``: the seat's view when the caller has it (the public one for the
        quick search, :func:`public_view`; the full one for single-dummy)."""
        groups = choices_at(table, d)
        if view is None:
            view = public_view(table, d) if self.search == "quick" else view_at(table, d)
        p = principle(table, d, view)
        if len(groups) == 1:
            return Choice(groups[0][-1], p, "forced")
        mine = [g for g in groups if any(c in p.cards for c in g)] if not p.silent else []
        if len(mine) == 1:
            return Choice(_pick(mine[0], p), p, "principle")
        if self.search == "quick":
            rng = random.Random(_seed(self.seed, d))
            if mine:
                return Choice(_pick(rng.choice(mine), p), p, "tie-break")
            return Choice(rule_of_thumb(table, d, view, groups), p, "rule-of-thumb")
        ev = evaluate(table, d, seed=self.seed, budget=self.budget, view=view)
        pool = mine or groups
        best = max(pool, key=lambda g: _worth(ev, g))
        if mine and self.margin > 0:
            # the conventions' own order (the first rule's cards first) stands unless
            # another of their cards is better by the margin
            first = min(mine, key=lambda g: min(p.cards.index(c) for c in g if c in p.cards))
            if not _clearly_better(ev, best, first, self.margin):
                best = first
        return Choice(_pick(best, p), p, "single-dummy", ev)


def _pick(group: tuple[Card, ...], p: Principle) -> Card:
    """The card of an equal group to play: the principle's where it names one,
    else the lowest (equal cards: the lowest of a sequence is the usual one)."""
    named = [c for c in group if c in p.cards]
    return named[-1] if named else group[-1]


def _clearly_better(ev: Evaluation, a: tuple[Card, ...], b: tuple[Card, ...], margin: float) -> bool:
    va, vb = ev.value_of(a[0]), ev.value_of(b[0])
    if va.result is not None and vb.result is not None and va.result - vb.result >= RESULT_STEPS[0]:
        return True
    return va.expected - vb.expected >= margin


def _worth(ev: Evaluation, group: tuple[Card, ...]) -> tuple[float, float]:
    v = ev.value_of(group[0])
    return (v.result if v.result is not None else 0.0, v.expected)


def _seed(seed: int, d: Decision) -> int:
    return (seed * 1_000_003 + d.trick * 101 + d.index * 7 + int(d.seat) + 17) & 0xFFFFFFFF


def public_view(table: Table, d: Decision):
    """What ``d.seat`` has seen of the play (the public history and the certain
    layer, no presumptions): enough for the principle."""
    from .inference import view_after

    prefix = list(table.tricks[:d.trick - 1])
    if d.index:
        t = table.tricks[d.trick - 1]
        prefix.append(Trick(t.number, t.leader, t.plays[:d.index], t.leader, t.tally, t.shown))
    return view_after({s: table.hands[s] for s in SEATS}, table.trumps, prefix, d.seat, turn_up=table.turn_up,
                      dealer=table.dealer, revokes=table.revokes, forced=table.forced, presumptions=False)


class PublicViews:
    """Each seat's public view of a hand in play (:func:`public_view`), kept
    up to date a trick at a time instead of walked afresh at every card: the
    same views, for a fifth of the work."""

    def __init__(self, hand: HandInPlay) -> None:
        from .inference.engine import PublicEngine

        self.hand = hand
        self.engines = {}
        for s in SEATS:
            e = PublicEngine(hand.dealt, hand.trumps, [], s, hand.turn_up, hand.dealer, hand.size)
            e.begin()
            self.engines[s] = e

    def view(self, table: Table, d: Decision):
        """The view of ``d.seat`` at decision ``d`` of the hand in play (``table`` is its table)."""
        from .inference import LAYERS, seat_view

        if not self.hand.done and d.index == 0:
            return public_view(table, d)  # the turn-up as the dealer's, before any card
        eng = self.engines[d.seat]
        while len(eng.tricks) < len(self.hand.done):
            eng.step(self.hand.done[len(eng.tricks)])
        if d.index == 0:
            return seat_view(dict(zip(LAYERS, eng._layers)), vars(eng))
        t = table.tricks[d.trick - 1]
        run, public = eng.peek(Trick(t.number, t.leader, t.plays[:d.index], t.leader, t.tally, t.shown))
        return seat_view(dict(zip(LAYERS, run.after)), public)


def rule_of_thumb(table: Table, d: Decision, view, groups: Sequence[tuple[Card, ...]]) -> Card:
    """A card where the conventions are silent, by a rule a plain player keeps:
    leading, a winner of a plain suit, else partner's suit, else the lowest of
    the longest plain suit, else the lowest trump; following, the lowest card
    (of a plain suit when void and not trumping)."""
    legal = d.legal
    T = table.trumps
    if d.index:
        plain = [c for c in legal if c.suit != T] or list(legal)
        return min(plain, key=lambda c: (c.rank, c.suit))
    for c in sorted(legal, key=lambda c: (-c.rank, c.suit)):
        if c.suit != T and _is_master(c, view):
            return c
    partner = d.seat.partner
    ours = [c for c in legal if c.suit != T and view.opener[int(c.suit)] == partner]
    if ours:
        return max(ours, key=lambda c: c.rank) if len(ours) <= 2 else min(ours, key=lambda c: c.rank)
    plain = [c for c in legal if c.suit != T]
    if plain:
        n = {S: sum(1 for c in plain if c.suit == S) for S in {c.suit for c in plain}}
        suit = max(n, key=lambda S: (n[S], -int(S)))
        return min((c for c in plain if c.suit == suit), key=lambda c: c.rank)
    return min(legal, key=lambda c: c.rank)


def _is_master(c: Card, view) -> bool:
    gone = view.gone[int(c.suit)]
    above = ((1 << 13) - 1) & ~((1 << (c.rank - 1)) - 1)
    return not (above & ~gone & ~(1 << (c.rank - 2)))


def play_hand(hands: Mapping[Seat, Sequence[Card]], trumps: Suit | None, *, leader: Seat = Seat.A,
              turn_up: Card | None = None, dealer: Seat | None = None, score: Mapping[Side, int] | None = None,
              rules: str = "short", seed: int = 0, search: str = "quick", budget: Budget | None = None,
              override: Callable[[HandInPlay, Decision], Card | None] | None = None) -> PlayedHand:
    """Four convention players play the deal through.

    ``override(hand, decision)`` may name the card to play at a decision
    (None: the player chooses), for a caller that tries another line.
    """
    hand = HandInPlay(hands, trumps, leader=leader, turn_up=turn_up, dealer=dealer, score=score, rules=rules)
    player = ConventionPlayer(search, seed, budget or Budget())
    play_on(hand, player, override)
    return PlayedHand(hand.table(), tuple(hand.choices))


def play_on(hand: HandInPlay, player: ConventionPlayer,
            override: Callable[[HandInPlay, Decision], Card | None] | None = None, until: int | None = None,
            views: PublicViews | None = None) -> None:
    """Play ``hand`` on to its end (or until ``until`` tricks are complete)."""
    if views is None and player.search == "quick":
        views = PublicViews(hand)
    while not hand.finished and (until is None or len(hand.done) < until):
        d = hand.decision()
        card = override(hand, d) if override is not None else None
        if card is not None:
            hand.play(Choice(card, Principle((), None), "given"))
        else:
            table = hand.table()
            hand.play(player.choose(table, d, views.view(table, d) if views is not None else None))


def presumptions_hold(hands: Mapping[Seat, Sequence[Card]], trumps: Suit | None, tricks: Sequence[Sequence[Card]], *,
                      leader: Seat = Seat.A, turn_up: Card | None = None, dealer: Seat | None = None,
                      seats: Sequence[Seat] = SEATS) -> bool:
    """Whether what each of ``seats`` presumes from the play (the inference
    engine's presumed layer) is true of the deal, and nobody departs from rule:
    every card's presumed holders include its holder, every presumed count of
    cards left is the true one's range, after every trick."""
    from .inference import explain_play
    from .play import replay

    rp = replay(hands, trumps, leader, tricks)
    owner = {c: s for s in SEATS for c in hands[s]}
    for viewer in seats:
        ex = explain_play(hands, trumps, leader, tricks, viewer, turn_up=turn_up, dealer=dealer)
        if ex.departures:
            return False
        for t in ex.tricks:
            if any(owner[c] not in holders for c, holders in t.knowledge["presumed"].items()):
                return False
            left = {s: set(hands[s]) - {p.card for tr in rp.tricks[:t.number] for p in tr.plays} for s in SEATS}
            for s, per in t.counts["presumed"].items():
                for S, (lo, hi) in per.items():
                    if not lo <= sum(1 for c in left[s] if c.suit == S) <= hi:
                        return False
    return True


__all__ = ["ConventionPlayer", "presumptions_hold", "Choice", "HandInPlay", "PlayedHand", "PublicViews", "play_hand", "play_on",
           "public_view",
           "rule_of_thumb", "SEARCHES"]
