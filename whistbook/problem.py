"""Double-dummy problems: a position, a task, and the book's solution lines.

A problem file holds a position (the same number of cards in each seat, up
to a full deal), trumps and a leader (``kind: problem``), a ``task`` (a side
to take so many of the tricks) and ``solutions``, each a line of play written
card by card in play order.

The checker verifies, with the double-dummy solver:

* that the task can be achieved at all from the position;
* for each solution line, that every card the solving side plays keeps the
  task within reach, and that no card the defenders could play at any step
  (not only the one the book shows) puts it out of reach. A line that fails is
  kept and reported as unsound, with the first card of the solving side that
  gives the task up and the defence that beats the line: the first place
  after it where the line's own defence lets the side back in, and the card
  that should have been played there.

The solver is asked about every card of the line, so each verdict also lists
the *slips*: every card, on either side, that changes the number of tricks
the solving side can make.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from .cards import Card
from .errors import Diagnostics, IllegalPlayError, WhistbookError
from .model import HandFile, Solution
from .play import legal_plays, replay, winner_of
from .seats import SEATS, Seat, Side


@dataclass(frozen=True)
class Slip:
    """A card of the line that changes what the solving side can make."""

    trick: int  # 1-based
    index: int  # 0..3, the card's place in the trick
    seat: Seat
    card: Card
    before: int  # tricks the side takes in all with best play, before this card
    after: int  # and after it
    better: tuple[Card, ...]  # the cards that would have kept ``before``


class PlayAt(NamedTuple):
    """A card of a line: the trick it is played to, who plays it and the card."""

    trick: int  # 1-based
    seat: Seat
    card: Card


class Refutation(NamedTuple):
    """The defence that beats a line: where, by whom, the card, and the tricks the side then takes in all."""

    trick: int  # 1-based
    seat: Seat
    card: Card
    tricks: int


@dataclass
class LineVerdict:
    solution: Solution
    sound: bool
    #: when the solving side itself plays a card that gives up the task
    error_card: PlayAt | None = None
    #: tricks the side can still take in all, with best defence, after that card
    error_total: int | None = None
    #: the defence that beats the line. After an error by the solving side this is
    #: the first place where the line's defence lets the side back in.
    refutation: Refutation | None = None
    #: other cards as good as the refutation's
    refutation_also: tuple[Card, ...] = ()
    #: every card of the line that changes the double-dummy result, either way
    slips: list[Slip] = field(default_factory=list)
    #: tricks the side takes in the line as written
    tricks_won: int = 0
    steps_checked: int = 0
    #: positions in ``solution.plays`` of the error card and of the refuted defender play
    error_index: int | None = None
    refutation_index: int | None = None


@dataclass
class ProblemVerdict:
    side: Side
    needed: int
    achievable: int  # double-dummy tricks for the side from the position
    lines: list[LineVerdict] = field(default_factory=list)


def check_problem(hf: HandFile, *, solver: bool = True) -> tuple[ProblemVerdict | None, Diagnostics]:
    """Check a problem file whose position has passed the laws: its task and
    every solution line. Returns the verdict (None when the solver is off or
    the lines do not replay) and the problems found, located."""
    out = Diagnostics()
    if hf.task is None:
        out.error("a problem needs a task, e.g. 'task: {side: AB, tricks: all}'", hf.loc_of("kind"))
        return None, out
    size = len(hf.deal[Seat.A])
    needed = size if hf.task.tricks == -1 else hf.task.tricks
    if needed > size:
        out.error(f"task asks for {needed} tricks but each seat holds only {size} cards", hf.task.loc)
        return None, out
    hands = {s: frozenset(r.card for r in hf.deal[s]) for s in SEATS}
    lines: list[tuple[Solution, list[list[Card]]]] = []
    for sol in hf.solutions:
        cards = [r.card for r in sol.plays]
        tricks = [cards[i:i + 4] for i in range(0, len(cards) - len(cards) % 4, 4)]
        try:
            replay(hands, hf.trumps, hf.leader, tricks)
        except IllegalPlayError as err:
            idx = err.trick_index * 4 + err.play_index
            out.error(f"{sol.title}: {err.message}", sol.plays[idx].loc)
            continue
        if len(cards) % 4:
            out.error(f"{sol.title}: the line stops in the middle of a trick; write whole tricks", sol.loc)
            continue
        lines.append((sol, tricks))
    if not solver or not out.ok:
        return None, out
    card_options = _remembered()
    side = hf.task.side
    try:
        opts = card_options(hands, hf.trumps, hf.leader)
    except WhistbookError as err:
        out.error(err.message, hf.task.loc)
        return None, out
    best = max(opts.values())
    achievable = best if hf.leader.side == side else size - best
    verdict = ProblemVerdict(side, needed, achievable)
    if achievable < needed:
        out.error(
            f"the task cannot be done: with best defence {side} take {achievable} of the {size} tricks, not {needed}",
            hf.task.loc,
        )
        return verdict, out
    for sol, tricks in lines:
        try:
            v = _verify_line(hands, hf, side, needed, sol, tricks, card_options)
        except WhistbookError as err:
            out.error(f"{sol.title}: {err.message}", sol.loc)
            continue
        verdict.lines.append(v)
        _report(out, side, size, v)
    return verdict, out


def _remembered() -> Callable[..., dict[Card, int]]:
    """The solver's :func:`~whistbook.solver.card_options` for one problem,
    each position solved once: the lines of a problem share their opening
    tricks, and the first position is the task's too (a third of the
    positions of the bundled problems)."""
    from .solver import card_options

    memo: dict[tuple, dict[Card, int]] = {}

    def options(hands, trumps, leader, so_far=()) -> dict[Card, int]:
        key = (tuple(hands[s] for s in SEATS), trumps, leader, tuple(so_far))  # the hands are frozensets
        if key not in memo:
            memo[key] = card_options(hands, trumps, leader, so_far)
        return memo[key]

    return options


def _report(out: Diagnostics, side: Side, size: int, v: LineVerdict) -> None:
    sol = v.solution

    def loc_of(index: int | None):
        return sol.plays[index].loc if index is not None and index < len(sol.plays) else sol.loc

    def defence(verb: str, shown=None) -> str:
        assert v.refutation is not None
        n, seat, card, got = v.refutation
        cards = " or ".join(str(c) for c in (card, *v.refutation_also))
        instead = f" (not {shown})" if shown is not None else ""
        return f"at trick {n} {seat} {verb} {cards}{instead}, holding {side} to {got} of the {size} tricks"

    if v.error_card:
        n, seat, card = v.error_card
        msg = (
            f"{sol.title} is unsound: {seat}'s {card} at trick {n} gives up the task "
            f"(best defence then holds {side} to {v.error_total} of the {size} tricks)"
        )
        if v.refutation:
            shown = sol.plays[v.refutation_index].card if v.refutation_index is not None else None
            msg += f"; the defence shown lets it through: {defence('should play', shown)}"
        out.note(msg, loc_of(v.error_index))
    elif v.refutation:
        n = v.refutation[0]
        if n > len(sol.plays) // 4:
            out.note(f"{sol.title} is unsound: where the line stops, {side} cannot make the rest "
                     f"(best play gives them {v.refutation[3]} of the {size} tricks)", sol.loc)
        else:
            out.note(f"{sol.title} is unsound: {defence('can play')}", loc_of(v.refutation_index))


def _verify_line(hands, hf: HandFile, side: Side, needed: int, sol: Solution, tricks, card_options) -> LineVerdict:
    """Follow the line card by card, asking the solver at every step how many
    tricks the side can still make in all, against best defence, for every
    card the player to move could play there."""
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
            mine = seat.side == side
            # tricks the side takes in all if this card is played, then best play by both
            value = {c: won + (v if mine else left - v) for c, v in opts.items()}
            before = max(value.values()) if mine else min(value.values())
            after = value.get(card, -1)
            if after != before:
                best = tuple(c for c, v in value.items() if v == before)
                verdict.slips.append(Slip(ti + 1, pi, seat, card, before, after, best))
            if mine:
                if after < needed and verdict.error_card is None:
                    verdict.sound = False
                    verdict.error_card = PlayAt(ti + 1, seat, card)
                    verdict.error_total = after
                    verdict.error_index = ti * 4 + pi
            elif verdict.error_card is None:
                if before < needed:  # cannot happen after sound plays; kept as a safeguard
                    worst = min(value, key=value.get)
                    verdict.sound = False
                    verdict.refutation = Refutation(ti + 1, seat, worst, before)
                    verdict.refutation_index = ti * 4 + pi
                    return verdict
            elif verdict.refutation is None and after > before:
                # The book's defence lets the side back in here: the better
                # card is the defence that beats the line.
                best = [c for c, v in value.items() if v == before]
                verdict.refutation = Refutation(ti + 1, seat, best[0], before)
                verdict.refutation_also = tuple(best[1:])
                verdict.refutation_index = ti * 4 + pi
            so_far.append(card)
        # The solver wants the hands as they were before the trick began, the
        # cards of the trick so far included: take them out only now.
        for pi, card in enumerate(trick):
            held[leader.next(pi)].discard(card)
        win = SEATS[winner_of(trick, leader, hf.trumps)]
        if win.side == side:
            won += 1
        leader = win
    verdict.tricks_won = won
    # The book may stop early when the rest is obvious: the side must still
    # be able to take what it needs from where the line stops.
    if verdict.sound and any(held[s] for s in SEATS) and won < needed:
        opts = card_options({s: frozenset(held[s]) for s in SEATS}, hf.trumps, leader)
        left = len(held[Seat.A])
        values = {c: won + (v if leader.side == side else left - v) for c, v in opts.items()}
        best = max(values.values()) if leader.side == side else min(values.values())
        if best < needed:
            verdict.sound = False
            pick = (max if leader.side == side else min)(values, key=values.get)
            verdict.refutation = Refutation(len(tricks) + 1, leader, pick, best)
    return verdict


__all__ = ["check_problem", "ProblemVerdict", "LineVerdict", "Slip", "legal_plays"]
