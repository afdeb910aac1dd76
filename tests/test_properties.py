"""Property tests: random legal deals and plays always replay clean; every
single corruption is caught, with the line it was made on."""

from __future__ import annotations

import random
import re

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import random_deal, random_play, write_hand
from whistbook.cards import DECK, Card
from whistbook.laws import check, describe_result
from whistbook.errors import WhistbookError
from whistbook.handfile import loads, problems_of
from whistbook.play import replay
from whistbook.scoring import honours_held, score_hand
from whistbook.seats import SEATS, Seat

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOLVED = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def full_hand(seed: int):
    rng = random.Random(seed)
    deal = random_deal(rng)
    turn_up = rng.choice(deal[Seat.Z])
    tricks, _, _ = random_play(deal, turn_up.suit, rng)
    return rng, deal, turn_up, tricks


def stated_result(deal, turn_up, tricks) -> str:
    rp = replay(deal, turn_up.suit, Seat.A, tricks)
    sc = score_hand(rp.tally, honours_held(deal, turn_up.suit), None)
    return describe_result(sc)


def errors_of(text: str, solver: bool = False) -> list:
    """Located errors of a file's text; a loader failure counts too. Never a traceback."""
    try:
        hf = loads(text, "h.yaml")
    except WhistbookError as err:
        return [(e.loc.line if e.loc else None, e.message) for e in problems_of(err)]
    ch = check(hf, solver=solver)
    return [(d.loc.line if d.loc else None, d.message) for d in ch.diagnostics if d.level == "error"]


@FAST
@given(SEEDS)
def test_random_legal_play_replays_clean(seed):
    _, deal, turn_up, tricks = full_hand(seed)
    rp = replay(deal, turn_up.suit, Seat.A, tricks)
    assert len(rp.tricks) == 13 and sum(rp.tricks[-1].tally) == 13
    played = [p.card for t in rp.tricks for p in t.plays]
    assert sorted(played) == sorted(DECK)
    for prev, t in zip(rp.tricks, rp.tricks[1:]):
        assert t.leader == prev.winner
    # and the same hand written as a file, with every tally and the result stated
    tally = [t.tally for t in rp.tricks]
    w = write_hand(deal, turn_up, tricks, result=stated_result(deal, turn_up, tricks), tally=tally)
    assert errors_of(w.text) == []


@FAST
@given(SEEDS)
def test_card_moved_to_another_hand(seed):
    rng, deal, turn_up, tricks = full_hand(seed)
    giver, taker = rng.sample(SEATS, 2)
    moved = rng.choice([c for c in deal[giver] if c != turn_up])
    bad = {s: list(deal[s]) for s in SEATS}
    bad[giver].remove(moved)
    bad[taker].append(moved)
    w = write_hand(bad, turn_up, tricks, result="AB win the odd trick")
    errs = errors_of(w.text)
    assert errs, "a moved card must be caught"
    assert {line for line, _ in errs} <= {w.deal_line[giver], w.deal_line[taker]}
    assert any(f"{taker} holds 14 cards" in m for _, m in errs)


@FAST
@given(SEEDS)
def test_card_played_twice(seed):
    rng, deal, turn_up, tricks = full_hand(seed)
    i = rng.randrange(12)
    j = rng.randrange(i + 1, 13)
    k = rng.randrange(4)
    # the seat that played position k of trick i: find its position in trick j
    rp = replay(deal, turn_up.suit, Seat.A, tricks)
    seat = rp.tricks[i].plays[k].seat
    pos = next(n for n, p in enumerate(rp.tricks[j].plays) if p.seat == seat)
    bad = [list(t) for t in tricks]
    bad[j][pos] = tricks[i][k]
    w = write_hand(deal, turn_up, bad)
    errs = errors_of(w.text)
    assert errs[0] == (w.trick_line[j], f"trick {j + 1}: {tricks[i][k]} was already played in trick {i + 1}")


@FAST
@given(SEEDS)
def test_revoke(seed):
    rng, deal, turn_up, tricks = full_hand(seed)
    rp = replay(deal, turn_up.suit, Seat.A, tricks)
    # a follower who followed suit, and still holds a card of another suit
    options = []
    for t in rp.tricks:
        for pos in range(1, 4):
            p = t.plays[pos]
            if p.card.suit != t.led_suit:
                continue
            later = [q.card for u in rp.tricks[t.number:] for q in u.plays if q.seat == p.seat and q.card.suit != t.led_suit]
            if later:
                options.append((t.number - 1, pos, later))
    if not options:
        return
    ti, pos, later = rng.choice(options)
    bad = [list(t) for t in tricks]
    bad[ti][pos] = rng.choice(later)
    w = write_hand(deal, turn_up, bad)
    errs = errors_of(w.text)
    assert errs[0][0] == w.trick_line[ti]
    seat = rp.tricks[ti].plays[pos].seat
    assert re.match(rf"trick {ti + 1}: {seat} revokes, playing {bad[ti][pos]} to a \w+ lead while holding ..$", errs[0][1])


@SOLVED
@given(SEEDS, st.integers(min_value=1, max_value=11))
def test_impossible_claim(seed, shown):
    rng, deal, turn_up, tricks = full_hand(seed)
    from whistbook.solver import dd_tricks

    rp = replay(deal, turn_up.suit, Seat.A, tricks[:shown])
    left = 13 - shown
    side = rp.next_leader.side
    best = dd_tricks({s: rp.remaining[s] for s in SEATS}, turn_up.suit, rp.next_leader)
    good = write_hand(deal, turn_up, tricks[:shown], claim={side.name: best})
    assert [m for m in errors_of(good.text, solver=True) if "claim" in m[1]] == []
    if best < left:
        bad = write_hand(deal, turn_up, tricks[:shown], claim={side.name: best + 1})
        errs = [e for e in errors_of(bad.text, solver=True) if "claim" in e[1]]
        assert errs and errs[0][0] == bad.claim_line
        assert f"best defence holds {side} to {best}" in errs[0][1]


@pytest.mark.slow
def test_every_single_card_corruption_of_hand1_is_located(hand1_path):
    """Replace each card written in Hand I by each other card: the result is a
    located error (never a traceback), unless the new card is one the same
    seat could legally have played there, which is a different legal hand."""
    text = hand1_path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    hf = loads(text, "h.yaml")
    hands = {s: [r.card for r in hf.deal[s]] for s in SEATS}
    rp = replay(hands, hf.trumps, hf.leader, [[r.card for r in t.plays] for t in hf.tricks])
    checked = 0
    # deal cards: any other card of the same suit line makes a duplicate
    for seat in SEATS:
        for ref in hf.deal[seat]:
            for other in DECK:
                if other == ref.card or other.suit != ref.card.suit:
                    continue
                new = _replace(lines, ref.loc, ref.card, other)
                if new is None:
                    continue
                errs = errors_of(new)
                assert errs and all(line is not None for line, _ in errs), (ref, other)
                checked += 1
    # trick cards: any card the seat did not legally hold there
    for rec, trick in zip(hf.tricks, rp.tricks):
        for ref, play in zip(rec.plays, trick.plays):
            for other in DECK:
                if other == ref.card:
                    continue
                new = " ".join(str(other) if r is ref else str(r.card) for r in rec.plays)
                bad = text.replace(" ".join(str(r.card) for r in rec.plays), new, 1)
                errs = errors_of(bad)
                if not errs:
                    # must have been a legal alternative for that seat
                    assert other in hands[play.seat]
                else:
                    assert errs[0][0] is not None
                checked += 1
    assert checked > 2000


def _replace(lines, loc, card: Card, other: Card):
    line = lines[loc.line - 1]
    col = loc.column - 1
    rank = "T" if card.rank == 10 else str(card)[0]
    if line[col:col + 1] != rank:
        return None
    new_rank = "T" if other.rank == 10 else str(other)[0]
    new_line = line[:col] + new_rank + line[col + 1:]
    return "".join(lines[: loc.line - 1] + [new_line] + lines[loc.line:])
