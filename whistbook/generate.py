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
from .seats import SEATS, Seat, Side
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
LOVE_ALL = {Side.AB: 0, Side.YZ: 0}
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
         seen: set | None = None, jobs: int = 1) -> Iterator[Made]:
    """Hands on ``theme_name``, up to ``count`` of them, trying deals from ``seed``.

    ``tries`` bounds the deals tried (default: 1,000 a hand asked for).
    ``progress(made, tried, checked)`` is called after every deal (every
    :data:`CHUNK` deals with ``jobs``). ``seen`` holds the deals met before
    (updated), so that no deal is made twice. ``jobs`` processes try the
    deals side by side; the hands are the same, in the same order, whatever
    the number (the first ``count`` the seed gives).

    :raises KeyError: for a theme that is not made (see :data:`GENERATED`).
    """
    theme = THEMES[theme_name]
    if theme.predicate is None:
        raise KeyError(theme_name)
    seen = set() if seen is None else seen
    total = tries if tries is not None else 1000 * count
    chunks = [range(k, min(k + CHUNK, total)) for k in range(0, total, CHUNK)]
    made = checked = tried = 0
    for part in _chunks_tried(theme_name, seed, chunks, budget, margin, jobs):
        for k, found, n in part:
            tried, checked = k + 1, checked + n
            if found is None or made >= count:
                continue
            key = frozenset((p, c) for p in SEATS for c in found.deal[p])
            if key in seen:
                continue
            seen.add(key)
            made += 1
            yield found
        if progress is not None:
            progress(made, tried, checked)
        if made >= count:
            return


#: deals a process tries at a time
CHUNK = 8


def _chunks_tried(theme_name: str, seed: int, chunks, budget: Budget, margin: Margin, jobs: int):
    """Each chunk's results, in order: tried here, or by ``jobs`` processes (a
    few chunks ahead, so that little is tried past the last hand needed)."""
    if jobs <= 1:
        for ks in chunks:
            yield try_deals(theme_name, seed, ks, budget, margin)
        return
    from concurrent.futures import ProcessPoolExecutor

    from . import solver

    with ProcessPoolExecutor(jobs, initializer=solver.limit_threads, initargs=(1,)) as pool:
        pending = []
        it = iter(chunks)
        for ks in it:
            pending.append(pool.submit(try_deals, theme_name, seed, ks, budget, margin))
            if len(pending) >= 2 * jobs:
                break
        while pending:
            part = pending.pop(0).result()
            nxt = next(it, None)
            if nxt is not None:
                pending.append(pool.submit(try_deals, theme_name, seed, nxt, budget, margin))
            yield part
            # (a consumer that stops early leaves the pool to cancel what is pending)


def try_deals(theme_name: str, seed: int, ks, budget: Budget = Budget(),
              margin: Margin = MARGIN) -> list[tuple[int, Made | None, int]]:
    """Try the deals ``ks`` of ``seed`` on a theme: (k, the hand or None, the judge's checks spent) each."""
    theme = THEMES[theme_name]
    out = []
    for k in ks:
        s = deal_seed(seed, k)
        deal, turn_up = random_table(s)
        found, n = _try_deal(theme, s, deal, turn_up, budget, margin)
        out.append((k, found, n))
    return out


def _try_deal(theme: Theme, s: int, deal, turn_up: Card, budget: Budget,
              margin: Margin) -> tuple[Made | None, int]:
    """Play one deal, looking for the theme's decisive moment; (the hand, the judge's checks spent)."""
    # love-all, as the file says: the judge weighs the game's result as a build will
    hand = HandInPlay(deal, turn_up.suit, leader=Seat.A, turn_up=turn_up, dealer=Seat.Z, score=LOVE_ALL)
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
