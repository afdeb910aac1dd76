"""New teaching hands made to order: ``whistbook deal --theme THEME``.

Like Lichess's puzzle generator (positions mined from real play, kept only
when one move is clearly best, tagged by theme) and Bridge Master (the wrong
line always fails), a hand on a theme is found, not composed:

1. **A random deal** (seeded: the hand file names the seed that makes it
   again), Z dealing and turning up a card of his, A leading, love-all.
2. **Four convention players** (:mod:`whistbook.players`, the quick search:
   the principle's cards with a seeded tie-break) play it through.
3. **The decisive moment.** At each card the theme's predicate
   (:mod:`whistbook.themes`) names the cards that would be the theme's play
   there, whether or not the player would choose them. Where it names some,
   a cheap filter first asks the solver, on the actual deal: is one theme card
   (or cards equal to it) the only choice that keeps the best result? Only
   then does the single-dummy judge weigh the decision on what that player
   could know (:func:`whistbook.judgement.judge_decision`, the seed and the
   budget a build uses, so the lesson's quiz grades from the same figures).
4. **Kept** only when the theme's card is clearly best single-dummy
   (:data:`MARGIN`): every other choice gives up at least half a trick on
   average, and is clear of the quiz's margin for a sound card
   (:data:`~whistbook.judgement.verdict.SOUND_MARGIN`) by two standard errors;
   the theme's card itself is the best choice. Where the score matters, the
   chance of the game's result must agree (no other choice within a tenth of it).
   The theme card is then played (by the seat: he becomes the known hand) and
   the players go on to the end.
5. **Not trivial, not twice**: a deal where one side takes eleven tricks
   whatever is done, or a decisive card in the last two tricks, is passed
   over, and so is a deal met before.

The single-dummy judge is the expensive part (a second or more early in a
hand); the rest costs about a tenth of a second a deal. So the judge is asked
only where the solver's filter has found a candidate, at most
:data:`CHECKS_PER_DEAL` times a deal.

Each hand is written as an ordinary hand file (:func:`hand_text`): the deal,
the turn-up, the tricks up to a little after the decisive one, a claim for
the rest that the solver accepts, the theme, a ``source`` naming the seed,
and a draft remark at the decisive trick made from the records.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterator

from .cards import Card
from .judgement import CardJudgement, judge_decision
from .judgement.position import Decision, Table, choices_at
from .judgement.single_dummy import Budget
from .judgement.verdict import RESULT_STEPS, SOUND_MARGIN
from .judgement.single_dummy import evaluate
from .players import Choice, ConventionPlayer, HandInPlay, PublicViews, play_on
from .seats import SEATS, Seat
from .themes import THEMES, Spot, Theme, ThemeFinding


@dataclass(frozen=True)
class Margin:
    """How clearly best the theme's card must be at the decisive moment."""

    #: every other choice gives up at least this many expected tricks (twice the sound margin)
    tricks: float = 2 * SOUND_MARGIN
    #: ... and clears the quiz's sound margin by this many standard errors
    sigmas: float = 2.0
    #: where the score matters, no other choice comes within this of the result's chance
    result: float = RESULT_STEPS[0]


MARGIN = Margin()
#: the most single-dummy checks spent on one deal
CHECKS_PER_DEAL = 3
#: the first look at a candidate: this many deals, before the judge's own count
FIRST_LOOK = Budget(least=8, most=8, batch=8, early_most=8)
#: a deal where one side takes this many tricks double-dummy from the start is too one-sided to teach
LOPSIDED = 11
#: themes ``whistbook deal`` makes: those whose decisive card single-dummy can tell apart
#: (a call or an echo is worth nothing to a solver that sees every card)
GENERATED = tuple(n for n, t in THEMES.items() if t.predicate is not None)


@dataclass(frozen=True)
class Made:
    """One hand made on a theme: everything its file is written from."""

    theme: Theme
    seed: int  # the deal's own seed
    deal: dict[Seat, tuple[Card, ...]]
    turn_up: Card
    table: Table  # every trick, as the players played it
    decisive: Decision  # the decisive card is ``decisive.played``
    judgement: CardJudgement  # the judge's figures at the decisive moment
    finding: ThemeFinding


def deal_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th deal tried from ``seed`` (what a hand file's source names)."""
    return (seed * 1_000_003 + k * 7_919 + 12_345) & 0x7FFFFFFF


def random_table(seed: int) -> tuple[dict[Seat, tuple[Card, ...]], Card]:
    """The deal and Z's turned-up card for a deal seed."""
    from .starter import random_deal

    rng = random.Random(seed)
    deal = random_deal(rng)
    turn_up = deal[Seat.Z][rng.randrange(13)]
    return {s: tuple(deal[s]) for s in SEATS}, turn_up


def make(theme_name: str, count: int, *, seed: int = 0, tries: int | None = None, budget: Budget = Budget(),
         margin: Margin = MARGIN, progress: Callable[[int, int, int], None] | None = None,
         seen: set | None = None) -> Iterator[Made]:
    """Hands on ``theme_name``, up to ``count`` of them, trying deals from ``seed``.

    ``tries`` bounds the deals tried (default: 400 a hand asked for).
    ``progress(made, tried, checked)`` is called after every deal. ``seen``
    holds the deals met before (updated), so that no deal is made twice.

    :raises KeyError: for a theme that is not made (see :data:`GENERATED`).
    """
    theme = THEMES[theme_name]
    if theme.predicate is None:
        raise KeyError(theme_name)
    seen = set() if seen is None else seen
    made = checked = 0
    for k in range(tries if tries is not None else 400 * count):
        if made >= count:
            return
        s = deal_seed(seed, k)
        deal, turn_up = random_table(s)
        key = frozenset((p, c) for p in SEATS for c in deal[p])
        if key in seen:
            continue
        seen.add(key)
        found, n = _try_deal(theme, s, deal, turn_up, budget, margin)
        checked += n
        if found is not None:
            made += 1
            yield found
        if progress is not None:
            progress(made, k + 1, checked)


def _try_deal(theme: Theme, s: int, deal, turn_up: Card, budget: Budget,
              margin: Margin) -> tuple[Made | None, int]:
    """Play one deal, looking for the theme's decisive moment; (the hand, the judge's checks spent)."""
    hand = HandInPlay(deal, turn_up.suit, leader=Seat.A, turn_up=turn_up, dealer=Seat.Z)
    views = PublicViews(hand)
    player = ConventionPlayer("quick", s)
    checks = 0
    while not hand.finished:
        table, d = hand.table(), hand.decision()
        view = views.view(table, d)
        if checks < CHECKS_PER_DEAL and hand.size - d.trick >= 2:
            card = _candidate(theme, table, d, view)
            if card is not None and _likely(table, d, card, margin):
                checks += 1
                j = _judged(table, d, card, budget)
                if clearly_best(j, margin):
                    rule = theme.cards(Spot(table, d, view))[2]
                    hand.play(Choice(card, j.principle, "given"))
                    play_on(hand, player, views=views)
                    if _lopsided(deal, turn_up):
                        return None, checks
                    finding = ThemeFinding(theme.name, d.trick, d.seat, card, rule, (("loss", _least_loss(j)),),
                                           True if theme.counterfactual else None)
                    return Made(theme, s, deal, turn_up, hand.table(), _replace_played(d, card), j, finding), checks
        hand.play(player.choose(table, d, view))
    return None, checks


def _lopsided(deal, turn_up: Card) -> bool:
    from . import solver

    ab = solver.dd_tricks(deal, turn_up.suit, Seat.A)
    return max(ab, 13 - ab) >= LOPSIDED


def _likely(table: Table, d: Decision, card: Card, margin: Margin) -> bool:
    """A first look on a few deals (:data:`FIRST_LOOK`) before the judge's own
    count: the card is the best there and every other choice gives up at least
    the sound margin. Most candidates fail here, at a fraction of the cost."""
    ev = evaluate(table, d, seed=1, budget=FIRST_LOOK)
    mine = ev.value_of(card).expected
    return all(mine - v.expected >= SOUND_MARGIN for v in ev.choices if card not in v.cards)


def _candidate(theme: Theme, table: Table, d: Decision, view) -> Card | None:
    """The theme's card at ``d`` when the solver's filter passes: one choice of
    the theme's cards keeps the best result on the actual deal, and every other
    choice (theme's or not) loses a trick there."""
    from .themes import dd_values

    cards, _plain, _rule = theme.cards(Spot(table, d, view))
    cards = frozenset(c for c in cards if c in d.legal)
    groups = choices_at(table, d)
    if not cards or len(groups) < 2:
        return None
    dd = dd_values(table, d)
    best = max(dd.values())
    top = [g for g in groups if dd[g[0]] == best]
    if len(top) != 1 or not cards & set(top[0]):
        return None
    mine = [c for c in top[0] if c in cards]
    return mine[-1]


def _judged(table: Table, d: Decision, card: Card, budget: Budget) -> CardJudgement:
    """The judge's verdict at ``d`` with ``card`` played, as a build makes it."""
    tricks = list(table.tricks)
    from .play import Play, Trick

    if d.index:
        t = tricks[-1]
        tricks[-1] = Trick(t.number, t.leader, t.plays + (Play(d.seat, card),), t.leader, t.tally)
    else:
        tricks.append(Trick(d.trick, d.leader, (Play(d.seat, card),), d.leader, tricks[-1].tally if tricks
                            else (0, 0)))
    played = Table(table.hands, table.trumps, table.leader, tuple(tricks), table.turn_up, table.dealer,
                   table.score, table.rules)
    return judge_decision(played, _replace_played(d, card), seed=0, budget=budget)


def _replace_played(d: Decision, card: Card) -> Decision:
    from dataclasses import replace

    return replace(d, played=card)


def clearly_best(j: CardJudgement, margin: Margin = MARGIN) -> bool:
    """Whether the card judged is the best choice and every other choice is
    clearly worse (see :class:`Margin`): the quiz then grades it right and
    every other card not sound."""
    mine = j.loss
    if mine is None or mine.tricks > 0 or (mine.result or 0.0) > 0 or mine.tier != "good":
        return False
    return all(_clear(o, margin) for o in j.options if j.card not in o.cards)


def _clear(o, margin: Margin) -> bool:
    if o.tier == "good":
        return False
    by_tricks = o.tricks >= margin.tricks and o.tricks - margin.sigmas * o.stderr >= SOUND_MARGIN
    by_result = (o.result is not None and o.result_stderr is not None
                 and o.result - margin.sigmas * o.result_stderr >= margin.result)
    return by_tricks or by_result


def _least_loss(j: CardJudgement) -> float:
    return round(min(o.tricks for o in j.options if j.card not in o.cards), 3)


__all__ = ["Made", "Margin", "MARGIN", "GENERATED", "make", "clearly_best", "deal_seed", "random_table"]
