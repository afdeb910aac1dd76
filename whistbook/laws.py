"""Check a loaded hand file against the laws: the deal, every play, the
stated tallies, leaders and winners, the claim and the result.

This is the first checking stage. A problem's task and lines
(:mod:`whistbook.problem`) and the author's ``infer:`` statements
(:mod:`whistbook.inference.statements`) are checked after it, by
:func:`whistbook.corpus.check_file`; nothing here imports them.

:func:`check` never raises for problems in the file: it returns a
:class:`CheckedHand` whose ``diagnostics`` list every located error and note.
Replay stops at the first illegal play (later state is meaningless); every
other kind of problem is collected.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .errors import Diagnostics, IllegalPlayError, SourceLocation, WhistbookError
from .model import CardRef, HandFile
from .play import Replay, replay
from .scoring import Score, honours_held, score_hand
from .seats import SEATS, Seat, Side


@dataclass
class CheckedHand:
    """A hand file with its replay, the tricks of the ending and the score."""

    hand: HandFile
    replay: Replay | None = None
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    #: tricks each side takes over the whole hand (written tricks plus the claim)
    final_tricks: dict[Side, int] | None = None
    score: Score | None = None
    #: double-dummy tricks for each side from where the written play stops
    claim_dd: dict[Side, int] | None = None
    #: problem files: the :class:`whistbook.problem.ProblemVerdict`, set by the problem stage
    problem: object | None = None

    @property
    def ok(self) -> bool:
        return self.diagnostics.ok

    def error(self, message: str, loc: SourceLocation | None) -> None:
        self.diagnostics.error(message, loc)

    def note(self, message: str, loc: SourceLocation | None) -> None:
        self.diagnostics.note(message, loc)

    def warning(self, message: str, loc: SourceLocation | None) -> None:
        self.diagnostics.warning(message, loc)


def check(hf: HandFile, *, solver: bool = True) -> CheckedHand:
    """Replay and check everything a hand file states against the laws.

    ``solver=False`` skips the double-dummy check of a claim (its tricks are
    then taken as stated). For a problem file only the position and the
    written tricks are checked here.
    """
    out = CheckedHand(hf)
    if not _check_deal(hf, out):
        return out
    if not _replay(hf, out):
        return out
    _check_stated(hf, out)
    if hf.kind == "problem":
        return out
    _check_ending(hf, out, solver)
    _check_result(hf, out)
    return out


def _check_deal(hf: HandFile, out: CheckedHand) -> bool:
    deal_loc = hf.loc_of("deal")
    missing = [s for s in SEATS if s not in hf.deal]
    for s in missing:
        out.error(f"deal: {s}'s hand is missing (a deal has four hands: A, Y, B, Z)", deal_loc)
    if missing:
        return False
    first_seen: dict[Card, tuple[Seat, CardRef]] = {}
    for seat in SEATS:
        for ref in hf.deal[seat]:
            if ref.card in first_seen:
                other, where = first_seen[ref.card]
                whose = "again in the same hand" if other == seat else f"also in {other}'s hand (line {where.loc.line})"
                out.error(f"deal: {ref.card} is in {seat}'s hand and {whose}", ref.loc)
            else:
                first_seen[ref.card] = (seat, ref)
    sizes = {s: len(hf.deal[s]) for s in SEATS}
    if hf.kind == "hand":
        for s in SEATS:
            if sizes[s] != 13:
                loc = hf.deal[s][0].loc if hf.deal[s] else deal_loc
                out.error(f"deal: {s} holds {sizes[s]} cards; each hand is dealt 13", loc)
    else:
        if len(set(sizes.values())) != 1:
            desc = ", ".join(f"{s} {n}" for s, n in sizes.items())
            out.error(f"position: every seat must hold the same number of cards ({desc})", deal_loc)
        elif sizes[Seat.A] == 0:
            out.error("position: the hands are empty", deal_loc)
    if hf.turn_up is not None and hf.dealer is not None and out.ok:
        holder = first_seen.get(hf.turn_up.card)
        if holder is None or holder[0] != hf.dealer:
            where = f"it is in {holder[0]}'s hand" if holder else "no hand holds it"
            out.error(
                f"the turned-up card {hf.turn_up.card} must be in the dealer's hand ({hf.dealer} deals), but {where}",
                hf.turn_up.loc,
            )
    return out.ok


def _replay(hf: HandFile, out: CheckedHand) -> bool:
    hands = {s: [r.card for r in hf.deal[s]] for s in SEATS}
    seen_unshown = None
    for t in hf.tricks:
        if not t.shown:
            seen_unshown = t
        elif seen_unshown is not None:
            out.error(
                f"trick {t.number} is shown but trick {seen_unshown.number} before it is not: "
                "tricks marked 'shown: false' come after the shown ones",
                t.loc,
            )
            return False
    limit = len(hf.deal[Seat.A])
    if len(hf.tricks) > limit:
        out.error(f"{len(hf.tricks)} tricks are written but each hand holds only {limit} cards", hf.tricks[limit].loc)
        return False
    try:
        out.replay = replay(
            hands, hf.trumps, hf.leader,
            [[r.card for r in t.plays] for t in hf.tricks],
            [t.shown for t in hf.tricks],
        )
    except IllegalPlayError as err:
        t = hf.tricks[err.trick_index]  # type: ignore[attr-defined]
        pi = err.play_index  # type: ignore[attr-defined]
        loc = t.plays[pi].loc if 0 <= pi < len(t.plays) else t.loc
        out.error(err.message, loc)
        return False
    return True


def _check_stated(hf: HandFile, out: CheckedHand) -> None:
    assert out.replay is not None
    for rec, trick in zip(hf.tricks, out.replay.tricks):
        if rec.leader is not None and rec.leader.value != trick.leader:
            why = "leads the first trick" if trick.number == 1 else f"won trick {trick.number - 1}"
            out.error(f"trick {trick.number} is led by {trick.leader}, who {why}, not by {rec.leader.value}", rec.leader.loc)
        if rec.winner is not None and rec.winner.value != trick.winner:
            out.error(
                f"trick {trick.number} is won by {trick.winner} with {trick.winning_card}, not by {rec.winner.value}",
                rec.winner.loc,
            )
        if rec.tally is not None:
            ab, yz = trick.tally
            stated = rec.tally.value
            if (stated[Side.AB], stated[Side.YZ]) != (ab, yz):  # type: ignore[index]
                out.error(
                    f"after trick {trick.number} the tricks stand AB {ab}, YZ {yz} "
                    f"(trick won by {trick.winner}), not AB {stated[Side.AB]}, YZ {stated[Side.YZ]}",  # type: ignore[index]
                    rec.tally.loc,
                )
    total = len(hf.deal[Seat.A])
    for e in hf.errata:
        if e.trick is not None and e.trick > total:
            out.error(f"erratum names trick {e.trick}, but the hand has only {total} tricks", e.loc)


def _check_ending(hf: HandFile, out: CheckedHand, solver: bool) -> None:
    rp = out.replay
    assert rp is not None
    left = rp.cards_left
    tally = rp.tally
    end = hf.ending
    if left == 0:
        if end is not None and end.claim:
            extra = {s: n for s, n in end.claim.items() if n}
            if extra:
                out.error("all thirteen tricks are written out, so there is nothing left to claim", end.claim_loc)
                return
        out.final_tricks = tally
        return
    if end is None or end.claim is None:
        where = hf.tricks[-1].loc if hf.tricks else hf.loc_of("tricks")
        out.error(
            f"the play stops after trick {len(rp.tricks)} with {left} tricks to go: "
            "write the rest out (shown: false) or add an ending with a claim, e.g. 'ending: {claim: {AB: 3}}'",
            where,
        )
        return
    claim = end.claim
    total = sum(claim.values())
    if total > left or (len(claim) == 2 and total != left):
        desc = ", ".join(f"{s} {n}" for s, n in claim.items())
        out.error(f"the claim ({desc}) does not share out the {left} tricks left after trick {len(rp.tricks)}", end.claim_loc)
        return
    shares = dict(claim)
    if len(shares) == 1:
        (side, n), = shares.items()
        shares[side.other] = left - n
    out.final_tricks = {s: tally[s] + shares[s] for s in Side}
    if not solver:
        return
    from .solver import dd_tricks

    hands = {s: rp.remaining[s] for s in SEATS}
    try:
        got = dd_tricks(hands, rp.trumps, rp.next_leader)
    except WhistbookError as err:
        out.error(err.message, end.claim_loc)
        return
    lead_side = rp.next_leader.side
    dd = {lead_side: got, lead_side.other: left - got}
    out.claim_dd = dd
    for side, n in claim.items():
        if n > dd[side]:
            out.error(
                f"the claim gives {side} {n} of the last {left} tricks, but best defence holds {side} to {dd[side]} "
                f"(double-dummy, {rp.next_leader} to lead after trick {len(rp.tricks)}): write out the play the book describes",
                end.claim_loc,
            )
        elif n < dd[side]:
            out.note(
                f"{side} claims {n} of the last {left} tricks; with best play {side} can take {dd[side]} (double-dummy)",
                end.claim_loc,
            )


def _check_result(hf: HandFile, out: CheckedHand) -> None:
    if out.final_tricks is None:
        return
    held = honours_held({s: [r.card for r in hf.deal[s]] for s in SEATS}, hf.trumps)
    sc = score_hand(out.final_tricks, held, hf.score, hf.rules)
    out.score = sc
    res = hf.result
    if res is None:
        out.warning(f"no result is stated; the replay gives {describe_result(sc)}", hf.loc_of("tricks"))
        return
    if (res.side, res.by_cards) != (sc.by_cards_side, sc.by_cards):
        out.error(
            f"result: the tricks give {sc.by_cards_side} {sc.by_cards} by cards "
            f"(AB {sc.tricks[Side.AB]}, YZ {sc.tricks[Side.YZ]} tricks), not {res.side} {res.by_cards}",
            res.loc,
        )
    for side, pts in res.honours.items():
        if sc.honours_points[side] != pts:
            held_n = sc.honours_held[side]
            why = sc.honours_unscored.get(side)
            detail = f"{side} held {held_n} honour{'s' if held_n != 1 else ''}"
            if why:
                detail += f", but {why}"
            out.error(f"result: {side} score {sc.honours_points[side]} by honours, not {pts} ({detail})", res.loc)
    for side in Side:
        if sc.honours_points[side] and side not in res.honours:
            out.note(f"result does not mention that {side} score {sc.honours_points[side]} by honours", res.loc)
    if res.game and sc.game is None:
        out.error(
            f"result: the hand does not end the game (the score after it is AB {sc.after[Side.AB]}, YZ {sc.after[Side.YZ]})",
            res.loc,
        )
    elif res.game and sc.game is not None and sc.game != res.side and not res.honours.get(sc.game):
        out.error(f"result: the game goes to {sc.game}, not {res.side}", res.loc)
    elif sc.game is not None and not res.game:
        out.note(f"result does not mention that {sc.game} win the game", res.loc)


def describe_result(sc: Score) -> str:
    """The result in the book's words, e.g. 'AB win three by cards and the game'."""
    words = ["", "the odd trick", "two by cards", "three by cards", "four by cards",
             "five by cards", "six by cards", "seven by cards"]
    parts = [f"{sc.by_cards_side} win {words[sc.by_cards]}"]
    num = {2: "two", 4: "four"}
    for side in Side:
        pts = sc.honours_points[side]
        if pts:
            if side == sc.by_cards_side:
                parts.append(f"{num[pts]} by honours")
            else:
                parts.append(f"{side} score {num[pts]} by honours")
    text = parts[0]
    for p in parts[1:]:
        text += ("; " if p[:2] in ("AB", "YZ") else " and ") + p
    if sc.game is not None:
        text += f", and {sc.game} win the game" if sc.game != sc.by_cards_side else ", and the game"
    return text

