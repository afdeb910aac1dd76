"""The deal sampler: exactly the deals that keep what a seat knows, each equally likely."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whistbook.cards import DECK
from whistbook.seats import Seat
from whistbook.judgement.sampling import DealSpace, Knowledge, NoDeal, SeatSuit


def _brute(k: Knowledge):
    """Every deal of the unseen cards, by brute force, that keeps ``k``."""
    unseen = [S * 13 + r for S in range(4) for r in range(13) if k.unseen[S] >> r & 1]
    others = k.others
    out = set()
    for first in itertools.combinations(unseen, k.size):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, k.size):
            third = tuple(c for c in rest if c not in second)
            hands = dict(zip(others, (first, second, third)))
            ok = True
            for (o, S), cell in k.cells.items():
                h = sum(1 << (c % 13) for c in hands[o] if c // 13 == S)
                if not cell.admits(h) or (cell.holdings is not None and h not in cell.holdings):
                    ok = False
                    break
            if ok:
                out.add(tuple(frozenset(hands[o]) for o in others))
    return out


def _as_key(k: Knowledge, deal):
    return tuple(frozenset(int(c) for c in deal[Seat(o)]) for o in k.others)


@st.composite
def knowledge(draw):
    """A small deal (three cards a seat) and random constraints on the unseen hands."""
    rng = random.Random(draw(st.integers(0, 10**9)))
    cards = rng.sample(range(52), 12)
    viewer = rng.randrange(4)
    own = frozenset(cards[:3])
    unseen = [0, 0, 0, 0]
    for c in cards[3:]:
        unseen[c // 13] |= 1 << (c % 13)
    cells = {}
    for o in range(4):
        if o == viewer:
            continue
        for S in range(4):
            allowed = unseen[S] & (rng.getrandbits(13) | rng.getrandbits(13))  # most cards allowed
            forced = allowed & rng.getrandbits(13) & rng.getrandbits(13) & rng.getrandbits(13)
            lengths = rng.getrandbits(5) | rng.getrandbits(5)
            holdings = None
            if rng.random() < 0.3:
                subsets = [h for h in range(1 << 13) if h & ~unseen[S] == 0][:64]
                holdings = tuple(h for h in subsets if rng.random() < 0.6)
            cells[(o, S)] = SeatSuit(allowed, forced, lengths, holdings)
    return Knowledge(viewer, own, 3, tuple(unseen), cells)


@settings(max_examples=60, deadline=None)
@given(knowledge())
def test_the_space_is_exactly_the_deals_that_keep_the_constraints(k):
    expected = _brute(k)
    try:
        space = DealSpace(k)
    except NoDeal:
        assert not expected
        return
    listed = [_as_key(k, d) for d in space.deals()]
    assert len(listed) == len(set(listed)) == space.total
    assert set(listed) == expected
    drawn = _as_key(k, space.draw(random.Random(1)))
    assert drawn in expected


def test_draws_are_uniform():
    """A space of a few dozen deals, drawn 12,000 times: every deal about equally often."""
    rng = random.Random(5)
    cards = [0, 1, 2, 13, 14, 15, 26, 27, 28, 39, 40, 41]  # the three lowest of each suit
    own = frozenset(cards[:3])  # the viewer (seat 0) has the three lowest spades
    unseen = (0, 0b111, 0b111, 0b111)
    cells = {(o, S): SeatSuit(unseen[S], 0, 0b1111, None) for o in (1, 2, 3) for S in range(4)}
    # seat 1 must hold the two of hearts, seat 2 the two of diamonds, seat 3 the two of clubs
    for o, S in ((1, 1), (2, 2), (3, 3)):
        cells[(o, S)] = SeatSuit(unseen[S], 0b1, 0b1111, None)
    # and a convention allows seat 2 only some holdings of hearts
    cells[(2, 1)] = SeatSuit(unseen[1], 0, 0b1111, (0b000, 0b010, 0b110))
    k = Knowledge(0, own, 3, unseen, cells)
    space = DealSpace(k)
    assert space.total == len(_brute(k))
    assert 20 <= space.total <= 200
    draws = Counter(_as_key(k, space.draw(rng)) for _ in range(12000))
    assert len(draws) == space.total
    expected = 12000 / space.total
    chi2 = sum((n - expected) ** 2 / expected for n in draws.values())
    # well above the 99.9% point of chi-squared with up to 199 degrees of freedom
    assert chi2 < 300


def test_no_deal_is_said():
    unseen = (0b111111111, 0, 0, 0)  # nine spades, three for each other seat
    cells = {(o, S): SeatSuit(unseen[S], 0, (1 << 14) - 1, None) for o in (1, 2, 3) for S in range(4)}
    cells[(1, 0)] = SeatSuit(unseen[0], 0b1, 1 << 3, None)
    cells[(2, 0)] = SeatSuit(unseen[0], 0b1, 1 << 3, None)  # both must hold the two of spades
    with pytest.raises(NoDeal):
        DealSpace(Knowledge(0, frozenset(range(13, 16)), 3, unseen, cells))


@pytest.mark.parametrize("seed", range(3))
def test_a_full_deal_with_no_constraint_counts_every_deal(seed):
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    own = frozenset(int(c) for c in deck[:13])
    unseen = [0, 0, 0, 0]
    for c in deck[13:]:
        unseen[int(c) // 13] |= 1 << (int(c) % 13)
    cells = {(o, S): SeatSuit(unseen[S], 0, (1 << 14) - 1, None) for o in (1, 2, 3) for S in range(4)}
    space = DealSpace(Knowledge(0, own, 13, tuple(unseen), cells))
    from math import factorial
    assert space.total == factorial(39) // factorial(13) ** 3
    deal = space.draw(rng)
    assert sorted(int(c) for s in deal for c in deal[s]) == list(range(52))
    assert all(len(h) == 13 for h in deal.values())
