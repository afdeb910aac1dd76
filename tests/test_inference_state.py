"""The constraint store against exact enumeration of layouts.

Small positions (three cards a hand, cards of two suits), random facts and
random holding constraints that the true layout satisfies. Propagation must
be sound: every layout that meets the constraints keeps each of its cards
with a seat the store still allows, and each of its lengths. We also count
how often the store is exact (no possibility left that no layout has).
"""

import itertools
import random

import pytest

from whistbook.inference.state import Contradiction, Frame, KState

SEATS = range(4)


def scenario(rng: random.Random, size: int = 3):
    pool = [s * 13 + r for s in (rng.randrange(4), rng.randrange(4)) for r in range(13)]
    pool = sorted(set(pool))
    cards = rng.sample(pool, 4 * size)
    deal = {s: cards[s * size:(s + 1) * size] for s in SEATS}
    return deal


def holding(deal_seat_cards, S):
    m = 0
    for c in deal_seat_cards:
        if c // 13 == S:
            m |= 1 << (c % 13)
    return m


def build(rng, deal, size):
    frame = Frame(0, deal[0], [c for s in SEATS for c in deal[s]], size)
    st = KState(frame, deal[0])
    owner = {c: s for s in SEATS for c in deal[s]}
    unseen = [c for c in owner if owner[c] != 0]
    cons = []  # (seat, suit, allowed masks)
    for c in unseen:
        r = rng.random()
        if r < 0.15:
            st.fix(c, owner[c], 2)
            cons.append(("fix", c, owner[c]))
        elif r < 0.35:
            other = rng.choice([s for s in (1, 2, 3) if s != owner[c]])
            st.remove(c, other, 2)
            cons.append(("remove", c, other))
    st.propagate()
    for _ in range(rng.randrange(1, 4)):
        s = rng.choice((1, 2, 3))
        S = rng.choice(sorted({c // 13 for c in owner}))
        true = holding(deal[s], S)
        dom = st.domain(s, S)
        keep = {m for m in dom if m == true or rng.random() < 0.5}
        st.restrict(s, S, lambda m, k=frozenset(keep): m in k, 4)
        cons.append(("dom", s, S, frozenset(keep)))
        st.propagate()
    return st, cons, unseen


def layouts(deal, size, cons, unseen):
    fixed = {c: s for kind, c, s in [x for x in cons if x[0] == "fix"]}
    banned = {(c, s) for kind, c, s in [x for x in cons if x[0] == "remove"]}
    doms = [x for x in cons if x[0] == "dom"]
    free = [c for c in unseen]
    for combo in itertools.combinations(free, size):
        rest = [c for c in free if c not in combo]
        for combo2 in itertools.combinations(rest, size):
            combo3 = [c for c in rest if c not in combo2]
            hand = {1: combo, 2: combo2, 3: combo3}
            who = {c: s for s, cs in hand.items() for c in cs}
            if any(who[c] != s for c, s in fixed.items()):
                continue
            if any(who[c] == s for c, s in banned):
                continue
            if any(holding(hand[s], S) not in keep for _, s, S, keep in doms):
                continue
            yield hand


@pytest.mark.parametrize("scenarios", [pytest.param(60, id="quick"), pytest.param(300, marks=pytest.mark.slow, id="300")])
def test_propagation_is_sound_against_enumeration(scenarios):
    """The quickest run's slowest test (seconds, and over ten on a busy machine):
    a fifth of the scenarios in the quick run, all of them with the slow sweeps."""
    rng = random.Random(7)
    exact = total = 0
    for _ in range(scenarios):
        size = 3
        deal = scenario(rng, size)
        try:
            st, cons, unseen = build(rng, deal, size)
        except Contradiction:
            raise AssertionError("the true layout meets every constraint, so no contradiction may be found")
        seen_poss = {c: 0 for c in unseen}
        seen_len = {(s, S): 0 for s in (1, 2, 3) for S in range(4)}
        n = 0
        for hand in layouts(deal, size, cons, unseen):
            n += 1
            for s, cs in hand.items():
                for c in cs:
                    seen_poss[c] |= 1 << s
                for S in range(4):
                    seen_len[(s, S)] |= 1 << sum(1 for c in cs if c // 13 == S)
        assert n >= 1
        for c in unseen:
            assert seen_poss[c] & ~st.poss[c] == 0, (c, seen_poss[c], st.poss[c])
        for (s, S), lm in seen_len.items():
            assert lm & ~st.lens[s][S] == 0
        total += 1
        exact += all(seen_poss[c] == st.poss[c] for c in unseen)
    # the store is not complete in general, but it should be exact most of the time
    assert exact / total > 0.8, (exact, total)


def test_contradiction_when_no_layout_exists():
    deal = {0: [0, 1, 2], 1: [3, 4, 5], 2: [6, 7, 8], 3: [9, 10, 11]}
    st = KState(Frame(0, deal[0], range(12), 3), deal[0])
    st.propagate()
    for c in (3, 4, 5, 6):
        st.remove(c, 2, 2)
        st.remove(c, 3, 2)
    try:
        st.propagate()
    except Contradiction:
        return
    raise AssertionError("four cards cannot all be Y's when he holds three")


def tagged(rng, deal, size):
    """Random true constraints, each resting on its own 'trick' (bit k)."""
    frame = Frame(0, deal[0], [c for s in SEATS for c in deal[s]], size)
    owner = {c: s for s in SEATS for c in deal[s]}
    unseen = [c for c in owner if owner[c] != 0]
    cons = []
    for c in unseen:
        r = rng.random()
        if r < 0.15:
            cons.append(("fix", c, owner[c]))
        elif r < 0.35:
            cons.append(("remove", c, rng.choice([s for s in (1, 2, 3) if s != owner[c]])))
    for _ in range(rng.randrange(1, 4)):
        s = rng.choice((1, 2, 3))
        S = rng.choice(sorted({c // 13 for c in owner}))
        true = holding(deal[s], S)
        salt = rng.randrange(1 << 20)
        cons.append(("dom", s, S, true, salt))
    return frame, [(k + 1, x) for k, x in enumerate(cons)]


def store_from(frame, own, cons, bits):
    """The store built from the constraints whose bit is in ``bits``."""
    st = KState(frame, own)
    st.propagate()
    for k, x in cons:
        if not bits >> k & 1:
            continue
        if x[0] == "fix":
            st.fix(x[1], x[2], 1 << k)
        elif x[0] == "remove":
            st.remove(x[1], x[2], 1 << k)
        else:
            # keep the true holding and a pseudo-random half of the others
            st.restrict(x[1], x[2], lambda m, t=x[3], z=x[4]: m == t or (m * 2654435761 + z) >> 9 & 1, 1 << k)
        st.propagate()
    return st


def test_supports_are_sufficient():
    """Each conclusion of the store follows again from the constraints its
    support names, and from nothing else (what rests_on promises)."""
    rng = random.Random(11)
    checked = 0
    for _ in range(150):
        deal = scenario(rng, 3)
        frame, cons = tagged(rng, deal, 3)
        full = store_from(frame, deal[0], cons, -1)
        for c in full.f.universe:
            for s in (1, 2, 3):
                if full.poss[c] >> s & 1:
                    continue
                part = store_from(frame, deal[0], cons, full.rsup[c * 4 + s])
                assert not part.poss[c] >> s & 1, (c, s)
                checked += 1
        for s in (1, 2, 3):
            for S in range(4):
                lo, hi = full.length_range(s, S)
                part = store_from(frame, deal[0], cons, full.bound_support(s, S, lo, hi))
                plo, phi = part.length_range(s, S)
                assert plo >= lo and phi <= hi, (s, S)
                checked += 1
    assert checked > 1000


def test_bounds_support_is_length_support_written_out():
    """The count's hand-inlined support for a set of cells' bounds is the
    union of :meth:`length_support` over those cells, for both bounds."""
    rng = random.Random(5)
    compared = nonzero = 0
    for _ in range(150):
        deal = scenario(rng, 3)
        frame, cons = tagged(rng, deal, 3)
        st = store_from(frame, deal[0], cons, -1)
        cells = [(s, S) for s in (1, 2, 3) for S in range(4)]
        for _ in range(4):
            some = rng.sample(cells, rng.randrange(1, 4))
            masks = [st.lens[s][S] for s, S in some]
            lower = st._bounds_support(some, masks, True)
            upper = st._bounds_support(some, masks, False)
            want_lower = want_upper = 0
            for (s, S), m in zip(some, masks):
                lo, hi = (m & -m).bit_length() - 1, m.bit_length() - 1
                want_lower |= st.length_support(s, S, lo, None)
                want_upper |= st.length_support(s, S, None, hi)
            assert (lower, upper) == (want_lower, want_upper), (some, masks)
            compared += 1
            nonzero += bool(lower or upper)
    assert compared == 600 and nonzero > 50
