"""What an inference rests on: the tricks its derivation used, checked by
rebuilding the layer from those tricks alone (whistbook/inference/chain.py).

Hand III seen from A (A holds A 9 8 3 of clubs, trumps; Z turned up the
knave). Trick 6: A 3C, Y 6C, B QC, Z 4C. Trick 7: B 7C, Z 5C, A AC, Y TC.
Trick 8: A 8C, Y KC, B 2C, Z JC. The old supports were unions of everything
known of a seat and suit, so these read "tricks 1-8" and "tricks 1-7".
"""

import pytest

from whistbook.corpus import check_file
from whistbook.inference import explain
from whistbook.inference.chain import Rederiver

from _inference_util import hands_dir


@pytest.fixture(scope="module")
def hand_iii():
    ch = check_file(hands_dir() / "03-rule-of-returned-leads.yaml", solver=False)
    return ch, explain(ch), Rederiver(ch)


def record(ex, trick, seat, kind, suit, certainty):
    found = [i for i in ex.tricks[trick - 1].inferences
             if (str(i.seat), i.kind, i.suit.letter, i.certainty) == (seat, kind, suit, certainty)]
    assert len(found) == 1, ex.tricks[trick - 1].inferences
    return found[0]


def minimal(rd, trick, inf) -> bool:
    """The conclusion follows from its tricks, and from none of them dropped."""
    tricks = set(inf.rests_on)
    return rd.follows(trick, inf, tricks) and not any(rd.follows(trick, inf, tricks - {j}) for j in tricks)


def test_the_last_trumps_rest_on_the_tricks_where_they_fell(hand_iii):
    # The nine clubs A cannot see are K Q J T 7 6 5 4 2: three fell at each of
    # tricks 6, 7 and 8, so after trick 8 Z (like Y and B) has none, by
    # counting alone. Each of the three tricks is needed: drop one and its
    # three clubs could be Z's.
    _, ex, rd = hand_iii
    z = record(ex, 8, "Z", "void", "C", "certain")
    assert z.rule == "count_elimination"
    assert z.rests_on == (6, 7, 8)
    assert minimal(rd, 8, z)


def test_a_count_rests_on_the_two_tricks_that_place_the_other_clubs(hand_iii):
    # After trick 7, Z presumably has one club left. At least one: the knave
    # he turned up (the deal) has not fallen. At most one: of the clubs A
    # cannot see, K J 2 have not fallen. Y and Z played their lowest at trick
    # 6, so the two is B's; B returned the seven at trick 7, the higher of two,
    # so the two is his last; Z let the queen win at trick 6, so the king is
    # Y's. Tricks 1-5 (spades, diamonds, a heart) have nothing to do with it.
    _, ex, rd = hand_iii
    z = record(ex, 7, "Z", "count", "C", "presumed")
    assert (z.low, z.high) == (1, 1)
    assert z.rests_on == (6, 7)
    assert minimal(rd, 7, z)
    y = [i for i in ex.tricks[6].inferences if i.kind == "holds" and str(i.seat) == "Y"][0]
    assert [str(c) for c in y.cards] == ["KC"] and y.rests_on == (6, 7)
    assert minimal(rd, 7, y)


def test_rests_on_is_sufficient_on_a_whole_hand(hand_iii):
    """Every conclusion of the hand follows from the tricks it names."""
    _, ex, rd = hand_iii
    n = 0
    for t in ex.tricks:
        for inf in t.inferences:
            if inf.kind != "signal":
                assert rd.follows(t.number, inf, set(inf.rests_on)), (t.number, inf)
                n += 1
    assert n > 20
