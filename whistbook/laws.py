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

from .cards import Card, Suit
from .errors import Diagnostics, IllegalPlayError, SourceLocation, WhistbookError
from .model import (
    CORRECTION_PENALTIES,
    EXPOSURES,
    OUT_OF_TURN_PENALTIES,
    REVOKE_PENALTIES,
    CardRef,
    HandFile,
    TrickRecord,
)
from .play import Replay, Trick, replay_hand
from .scoring import Score, honours_held, score_hand
from .seats import SEATS, Seat, Side


@dataclass(frozen=True)
class Ruling:
    """An irregularity as the laws dispose of it: a record, no words.

    ``kind`` is one of ``revoke`` (established), ``revoke-corrected``,
    ``exposed``, ``out-of-turn``, ``call-card``, ``call-play``, ``call-suit``
    and ``honours-call``; ``laws`` the club-code laws applied; ``penalty`` the
    adversaries' choice where the law gives one (``tricks``, ``add``,
    ``deduct``, ``exposed``, ``highest``, ``lowest``, ``suit``, ``none``);
    ``how`` how cards came to be exposed; ``answer`` partner's answer to a
    call of honours.
    """

    trick: int  # 1-based; 0 for the honours call, made before the play
    kind: str
    seat: Seat
    laws: tuple[int, ...]
    cards: tuple[Card, ...] = ()
    penalty: str | None = None
    suit: Suit | None = None
    how: str | None = None
    answer: bool | None = None


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
    #: the irregularities recorded in the file, as the laws dispose of them
    rulings: list[Ruling] = field(default_factory=list)

    def rulings_at(self, trick: int) -> list[Ruling]:
        return [r for r in self.rulings if r.trick == trick]

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
    _check_irregularities(hf, out)
    if hf.kind == "problem":
        return out
    _check_ending(hf, out, solver)
    _check_result(hf, out)
    return out


def _check_deal(hf: HandFile, out: CheckedHand) -> bool:
    deal_loc = hf.loc_of("deal")
    missing = [s for s in SEATS if s not in hf.deal]
    if missing:
        out.error(_missing_hands(hf, missing), deal_loc)
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
            if sizes[s] != 13 and s != hf.rest:  # the rest is wrong only because a written hand is
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


def _missing_hands(hf: HandFile, missing: list[Seat]) -> str:
    """The error for hands not written: which, and the cards no hand holds, so
    that an author can copy them in."""
    from .cards import DECK
    from .deal import hand_line

    held = {r.card for refs in hf.deal.values() for r in refs}
    left = [c for c in DECK if c not in held]
    whose = " and ".join(f"{s}'s" for s in missing)
    hands = "hand is" if len(missing) == 1 else "hands are"
    how = ("; write three hands, and the fourth as 'rest' (or leave it out)" if hf.kind == "hand"
           else "; a problem's position writes every hand")
    return (f"deal: {whose} {hands} missing: the {len(left)} card{'s' if len(left) != 1 else ''} no hand holds "
            f"are {hand_line(left)}{how}")


def _replay(hf: HandFile, out: CheckedHand) -> bool:
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
        out.replay = replay_hand(hf)
    except IllegalPlayError as err:
        out.error(err.message, err.loc)
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


# --- irregularities (Laws 56-82; long whist's call) -----------------------------------------


def _check_irregularities(hf: HandFile, out: CheckedHand) -> None:
    """Apply each recorded irregularity as the club code does, in trick order.

    Exposed cards stay callable until played (Laws 56-58, 64-65); a suit
    called after a lead out of turn is called at the next lead of the
    offender or his partner (Laws 62, 66). A breach is a located error.
    """
    rp = out.replay
    assert rp is not None
    held = {s: set(rp.hands[s]) for s in SEATS}
    exposed: dict[Card, Seat] = {}
    suit_right: Side | None = None  # the side a suit may be called from
    proper = rp.first_leader  # whose lead it is by the rules
    for rec, trick in zip(hf.tricks, rp.tricks):
        owner = {c: s for s in SEATS for c in held[s]}
        n = trick.number
        if rec.out_of_turn is not None and rec.out_of_turn.stands:
            _trick_stands(rec, trick, proper, out)
        elif rec.out_of_turn is not None:
            granted = _out_of_turn(rec, trick, owner, exposed, out)
            if granted is not None:  # Side.AB is 0: test for None, not truth
                suit_right = granted
        for ex in rec.exposed:
            for ref in ex.cards:
                seat = owner.get(ref.card)
                if seat is None:
                    out.error(f"trick {n}: {ref.card} cannot be exposed: nobody holds it any more", ref.loc)
                    continue
                exposed[ref.card] = seat
            for seat in SEATS:  # one ruling per player whose cards are shown
                cards = tuple(r.card for r in ex.cards if owner.get(r.card) == seat)
                if cards:
                    out.rulings.append(Ruling(n, "exposed", seat, (EXPOSURES[ex.how],), cards, how=ex.how))
        for rv in rec.revokes:
            _revoke(rv, rec, trick, held, exposed, out)
        for call in rec.calls:
            if call.suit is not None:
                if suit_right is None or trick.leader.side != suit_right:
                    out.error(
                        f"trick {n}: no suit may be called from {trick.leader}: a suit is called only after a lead "
                        "out of turn by him or his partner (Law 62)", call.loc)
                    continue
                _suit_call(call, trick, held, out)
                suit_right = None
            elif call.card is not None:
                _card_call(call.card, trick, held, exposed, out)
            else:
                _play_call(call, trick, held, out)
        if suit_right is not None and trick.leader.side == suit_right \
                and not any(c.suit is not None for c in rec.calls):
            suit_right = None  # the side led freely: the right to call a suit has lapsed
        for p in trick.plays:
            held[p.seat].discard(p.card)
            exposed.pop(p.card, None)
        proper = trick.winner
    _honours_call(hf, out)


def _trick_stands(rec: TrickRecord, trick: Trick, proper: Seat, out: CheckedHand) -> None:
    """Law 63: all three others played to a lead out of turn, so the trick stands."""
    ev = rec.out_of_turn
    assert ev is not None
    n = trick.number
    if trick.plays[0].card != ev.card.card:
        out.error(f"trick {n}: a trick that stands after a lead out of turn begins with the card led, "
                  f"so its first card must be {ev.card.card}", ev.card.loc)
        return
    if trick.leader == proper:
        out.error(f"trick {n}: the lead is {proper}'s, so {ev.card.card} is not led out of turn", ev.card.loc)
        return
    if ev.penalty != "none":
        out.error(f"trick {n}: when all three others have played to a lead out of turn the trick stands "
                  f"and there is no penalty (Law 63), not {ev.penalty!r}", ev.penalty_loc)
        return
    out.rulings.append(Ruling(n, "out-of-turn", trick.leader, (63,), (ev.card.card,), "stands"))


def _out_of_turn(rec: TrickRecord, trick: Trick, owner: dict[Card, Seat], exposed: dict[Card, Seat], out: CheckedHand) -> Side | None:
    ev = rec.out_of_turn
    assert ev is not None
    n = trick.number
    seat = owner.get(ev.card.card)
    if seat is None:
        out.error(f"trick {n}: nobody holds {ev.card.card} to lead it out of turn", ev.card.loc)
        return None
    if seat == trick.leader:
        out.error(f"trick {n}: {seat} has the lead, so {ev.card.card} is not led out of turn", ev.card.loc)
        return None
    if ev.penalty not in OUT_OF_TURN_PENALTIES:
        out.error(
            f"trick {n}: after a lead out of turn the adversaries may call the card led or call a suit "
            f"(Laws 62-63), not {ev.penalty!r}", ev.penalty_loc)
        return None
    out.rulings.append(Ruling(n, "out-of-turn", seat, (62, 63), (ev.card.card,), ev.penalty))
    if ev.penalty == "exposed":
        exposed[ev.card.card] = seat
    return seat.side if ev.penalty == "suit" else None


def _revoke(rv, rec: TrickRecord, trick: Trick, held: dict[Seat, set[Card]], exposed: dict[Card, Seat], out: CheckedHand) -> None:
    n = trick.number
    card = rv.card.card
    led = trick.led_suit
    if not rv.corrected:
        seat = next((p.seat for p in trick.plays if p.card == card), None)
        if seat is None:
            out.error(f"trick {n}: the revoke names {card}, which is not among the trick's cards "
                      "(say 'corrected: true' if it was taken back before the revoke was established)", rv.card.loc)
            return
        if seat == trick.leader or card.suit == led or not any(c.suit == led for c in held[seat]):
            out.error(f"trick {n}: {seat}'s {card} is not a revoke: " + _why_legal(seat, card, trick, held), rv.card.loc)
            return
        if rv.penalty not in REVOKE_PENALTIES:
            out.error(
                f"trick {n}: an established revoke is paid with three tricks or three points (Law 72: "
                f"tricks, add or deduct); {rv.penalty!r} is allowed only when the revoke is corrected in time (Law 76)",
                rv.penalty_loc)
            return
        out.rulings.append(Ruling(n, "revoke", seat, (71, 72, 73, 82), (card,), rv.penalty, led))
        return
    seat = next((s for s in SEATS if card in held[s]), None)
    if seat is None or seat not in {p.seat for p in trick.plays} or seat == trick.leader:
        out.error(f"trick {n}: the corrected revoke names {card}, which no player following to this trick holds", rv.card.loc)
        return
    if card.suit == led or not any(c.suit == led for c in held[seat]):
        out.error(f"trick {n}: {seat}'s {card} would not have been a revoke: " + _why_legal(seat, card, trick, held), rv.card.loc)
        return
    if rv.penalty not in CORRECTION_PENALTIES:
        out.error(
            f"trick {n}: a revoke corrected before it is established costs no tricks or points; the adversaries may "
            f"leave {card} exposed or have {seat} play his highest or lowest {led.singular} (Law 76), not {rv.penalty!r}",
            rv.penalty_loc)
        return
    played = trick.card_of(seat)
    if rv.penalty in ("highest", "lowest"):
        suit_cards = [c for c in held[seat] if c.suit == led]
        want = max(suit_cards) if rv.penalty == "highest" else min(suit_cards)
        if played != want:
            out.error(f"trick {n}: called on to play his {rv.penalty} {led.singular} (Law 76), {seat} must play {want}, not {played}",
                      _play_loc(rec, trick, seat))
            return
    if rv.penalty == "exposed":
        exposed[card] = seat
    out.rulings.append(Ruling(n, "revoke-corrected", seat, (71, 76), (card, played), rv.penalty, led))


def _why_legal(seat: Seat, card: Card, trick: Trick, held: dict[Seat, set[Card]]) -> str:
    led = trick.led_suit
    if seat == trick.leader:
        return "he led it, and a leader may lead any card"
    if card.suit == led:
        return f"it follows suit to the {led.singular} lead"
    return f"he held no {led.singular}"


def _play_loc(rec: TrickRecord, trick: Trick, seat: Seat) -> SourceLocation:
    """Where the file writes ``seat``'s card in this trick."""
    for i, p in enumerate(trick.plays):
        if p.seat == seat and i < len(rec.plays):
            return rec.plays[i].loc
    return rec.loc


def _card_call(ref: CardRef, trick: Trick, held: dict[Seat, set[Card]], exposed: dict[Card, Seat], out: CheckedHand) -> None:
    n, card = trick.number, ref.card
    seat = exposed.get(card)
    if seat is None:
        out.error(f"trick {n}: {card} may not be called: only an exposed card is liable to be called (Laws 56, 64)", ref.loc)
        return
    led = trick.led_suit
    if seat != trick.leader and card.suit != led and any(c.suit == led for c in held[seat]):
        out.error(f"trick {n}: calling {card} would force {seat} to revoke, since he holds a {led.singular}; "
                  "a called card is played only when it is legal (Law 64)", ref.loc)
        return
    played = trick.card_of(seat)
    if played != card:
        out.error(f"trick {n}: {card} was called, so {seat} must play it, not {played} (Law 64)", ref.loc)
        return
    out.rulings.append(Ruling(n, "call-card", seat, (64, 65), (card,)))


def _play_call(call, trick: Trick, held: dict[Seat, set[Card]], out: CheckedHand) -> None:
    n, seat, led = trick.number, call.seat, trick.led_suit
    if seat == trick.leader:
        out.error(f"trick {n}: {seat} leads this trick; a call of highest or lowest applies to the suit led", call.loc)
        return
    suit_cards = [c for c in held[seat] if c.suit == led]
    played = trick.card_of(seat)
    if suit_cards:
        want = max(suit_cards) if call.play == "highest" else min(suit_cards)
        if played != want:
            out.error(f"trick {n}: {seat} was called on to play his {call.play} {led.singular} and must play {want}, "
                      f"not {played}; disobeying the call is a revoke (Law 61)", call.loc)
            return
    out.rulings.append(Ruling(n, "call-play", seat, (61, 86), (played,), call.play, led))


def _suit_call(call, trick: Trick, held: dict[Seat, set[Card]], out: CheckedHand) -> None:
    n, seat, suit = trick.number, trick.leader, call.suit
    lead = trick.plays[0].card
    holds = any(c.suit == suit for c in held[seat])
    if holds and lead.suit != suit:
        out.error(f"trick {n}: {suit.plural} were called, so {seat} must lead one, not {lead} (Laws 61, 66)", call.loc)
        return
    out.rulings.append(Ruling(n, "call-suit", seat, (62, 66), (lead,), None if holds else "spent", suit))


def _honours_call(hf: HandFile, out: CheckedHand) -> None:
    """Long whist: a player at eight may call honours before he plays his first card."""
    hc = hf.honours_call
    if hc is None:
        return
    side = hc.by.side
    at = (hf.score or {}).get(side, 0)
    if at != 8:
        why = "at nine honours do not count" if at == 9 else f"{side} are at {at}"
        out.error(f"honours_call: honours are called only at the score of eight ({why})", hc.loc)
        return
    own = sum(1 for r in hf.deal[hc.by] if r.card.suit == hf.trumps and r.card.rank >= 11)
    partner = sum(1 for r in hf.deal[hc.by.partner] if r.card.suit == hf.trumps and r.card.rank >= 11)
    if own < 2:
        out.error(f"honours_call: {hc.by} holds {own} honour{'s' if own != 1 else ''}; a player calls only with two or more", hc.loc)
        return
    if own == 2:
        if hc.answer is None:
            out.error(f"honours_call: {hc.by} holds two honours, so record {hc.by.partner}'s answer (answer: yes or no)", hc.loc)
            return
        if hc.answer != (partner > 0):
            out.error(f"honours_call: {hc.by.partner} holds {partner} honour{'s' if partner != 1 else ''}, "
                      f"so his answer is {'yes' if partner else 'no'}", hc.loc)
            return
    scored = own >= 3 or bool(hc.answer)
    out.rulings.append(Ruling(0, "honours-call", hc.by, (), penalty="scored" if scored else "failed", answer=hc.answer))


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
            out.final_tricks = None  # the result is not checked against tricks that cannot be made
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
    revokes = [(r.seat.side, r.penalty or "none") for r in out.rulings if r.kind == "revoke"]
    called = next((r.seat.side for r in out.rulings if r.kind == "honours-call" and r.penalty == "scored"), None)
    sc = score_hand(out.final_tricks, held, hf.score, hf.rules, revokes, called)
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

