"""Double-dummy problems: a position, a task, and the book's solution lines.

A problem file holds fewer than 13 cards a seat, trumps and a leader
(``kind: problem``), a ``task`` (a side to take so many of the tricks) and
``solutions``, each a line of play written card by card in play order.

The checker verifies, with the double-dummy solver:

* that the task can be achieved at all from the position;
* for each solution line, that every card the solving side plays keeps the
  task within reach, and that no card the defenders could play at any step
  (not only the one the book shows) puts it out of reach. A line that fails is
  kept and reported as unsound, naming the defence that beats it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .check import CheckedHand
from .errors import IllegalPlayError, SolverError, WhistbookError
from .model import HandFile, Solution
from .replay import legal_plays, replay, winner_of
from .seats import SEATS, Seat, Side


@dataclass
class LineVerdict:
    solution: Solution
    sound: bool
    #: when unsound: (trick number, seat, card that beats the line, tricks the side can then take)
    refutation: tuple[int, Seat, Card, int] | None = None
    #: when the solving side itself plays a card that gives up the task
    error_card: tuple[int, Seat, Card] | None = None
    steps_checked: int = 0


@dataclass
class ProblemVerdict:
    side: Side
    needed: int
    achievable: int  # double-dummy tricks for the side from the position
    lines: list[LineVerdict] = field(default_factory=list)


def check_problem(hf: HandFile, out: CheckedHand, *, solver: bool = True) -> None:
    if hf.task is None:
        out.error("a problem needs a task, e.g. 'task: {side: AB, tricks: all}'", hf.loc_of("kind"))
        return
    size = len(hf.deal[Seat.A])
    needed = size if hf.task.tricks == -1 else hf.task.tricks
    if needed > size:
        out.error(f"task asks for {needed} tricks but each seat holds only {size} cards", hf.task.loc)
        return
    hands = {s: frozenset(r.card for r in hf.deal[s]) for s in SEATS}
    lines: list[tuple[Solution, list[list[Card]]]] = []
    for sol in hf.solutions:
        cards = [r.card for r in sol.plays]
        tricks = [cards[i:i + 4] for i in range(0, len(cards) - len(cards) % 4, 4)]
        try:
            replay(hands, hf.trumps, hf.leader, tricks)
        except IllegalPlayError as err:
            idx = err.trick_index * 4 + err.play_index  # type: ignore[attr-defined]
            out.error(f"{sol.title}: {err.message}", sol.plays[idx].loc)
            continue
        if len(cards) % 4:
            out.error(f"{sol.title}: the line stops in the middle of a trick; write whole tricks", sol.loc)
            continue
        lines.append((sol, tricks))
    if not solver or not out.ok:
        return
    card_options = mid_trick_options

    side = hf.task.side
    try:
        opts = card_options(hands, hf.trumps, hf.leader)
    except WhistbookError as err:
        out.error(err.message, hf.task.loc)
        return
    best = max(opts.values())
    achievable = best if hf.leader.side == side else size - best
    verdict = ProblemVerdict(side, needed, achievable)
    out.problem = verdict
    if achievable < needed:
        out.error(
            f"the task cannot be done: with best defence {side} take {achievable} of the {size} tricks, not {needed}",
            hf.task.loc,
        )
        return
    for sol, tricks in lines:
        v = _verify_line(hands, hf, side, needed, sol, tricks, card_options)
        verdict.lines.append(v)
        if v.error_card:
            n, seat, card = v.error_card
            out.note(f"{sol.title} is unsound: {seat}'s {card} at trick {n} gives up the task", sol.loc)
        elif v.refutation:
            n, seat, card, got = v.refutation
            out.note(
                f"{sol.title} is unsound: if {seat} plays {card} at trick {n}, {side} can take only {got} "
                f"of the tricks still to win",
                sol.loc,
            )


def mid_trick_options(
    hands: dict[Seat, frozenset[Card]], trumps, leader: Seat, so_far: list[Card] | tuple[Card, ...] = ()
) -> dict[Card, int]:
    """:func:`whistbook.solver.card_options` for any point of a trick.

    ``solver.make_deal`` hands the cards already played to the trick to endplay
    rank first (``AC``), which endplay reads as a suit and rejects, so every
    position in the middle of a trick failed. Until that is fixed there, the
    deal is built here without the trick and its cards are played suit first.
    """
    from . import solver

    if not so_far:
        return solver.card_options(hands, trumps, leader)
    deal = solver.make_deal(hands, trumps, leader)
    for c in so_far:
        deal.play(f"{c.suit.letter}{str(c)[0]}")
    try:
        from endplay.dds import solve_board

        solved = solve_board(deal)
    except Exception as err:  # noqa: BLE001 - the C library's errors are plain RuntimeErrors
        raise SolverError(f"the double-dummy solver failed: {err}") from err
    return {
        Card.parse(f"{solver._rank_text(ecard)}{'SHDC'[int(ecard.suit)]}"): int(tricks)
        for ecard, tricks in solved
    }


def _verify_line(hands, hf: HandFile, side: Side, needed: int, sol: Solution, tricks, card_options) -> LineVerdict:
    held = {s: set(hands[s]) for s in SEATS}
    won = 0
    leader = hf.leader
    verdict = LineVerdict(sol, True)
    total = len(held[Seat.A])
    for ti, trick in enumerate(tricks):
        so_far: list[Card] = []
        for pi, card in enumerate(trick):
            seat = leader.next(pi)
            left = total - ti  # tricks still to play, this one included
            opts = card_options({s: frozenset(held[s]) for s in SEATS}, hf.trumps, leader, so_far)
            verdict.steps_checked += 1
            need_now = needed - won
            if seat.side == side:
                if opts.get(card, -1) < need_now:
                    verdict.sound = False
                    verdict.error_card = (ti + 1, seat, card)
                    return verdict
            else:
                for alt, their in opts.items():
                    ours = left - their
                    if ours < need_now:
                        verdict.sound = False
                        verdict.refutation = (ti + 1, seat, alt, ours)
                        return verdict
            so_far.append(card)
        # The solver wants the hands as they were before the trick began, the
        # cards of the trick so far included: take them out only now.
        for pi, card in enumerate(trick):
            held[leader.next(pi)].discard(card)
        win = SEATS[winner_of(trick, leader, hf.trumps)]
        if win.side == side:
            won += 1
        leader = win
    # The book may stop early when the rest is obvious: the side must still
    # be able to take what it needs from where the line stops.
    if any(held[s] for s in SEATS) and won < needed:
        opts = card_options({s: frozenset(held[s]) for s in SEATS}, hf.trumps, leader)
        left = len(held[Seat.A])
        best = max(opts.values())
        ours = best if leader.side == side else left - best
        if ours < needed - won:
            verdict.sound = False
            verdict.refutation = (len(tricks) + 1, leader, max(opts, key=opts.get), ours)
    return verdict


__all__ = ["check_problem", "ProblemVerdict", "LineVerdict", "legal_plays"]
