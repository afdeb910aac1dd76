"""Hand III, trick 7: the king of clubs is placed by four separate facts.

A (whose hand is known) sees B return the seven of trumps. The two has not
fallen; the adversaries, not winning, played their lowest, so B has it; B
returned the higher of two, so the two is his last; Z has the knave (turned
up) and could not take the queen at trick 6, so has not the king: Y has it.
"""

from whistbook.inference.statements import holds_in, parse_statement

from _inference_util import HAND_III, HAND_III_TRICKS, derived, play


def explain_iii(viewer="A"):
    return play(HAND_III, HAND_III_TRICKS, viewer, trumps="C", turn_up="JC")


def test_each_link_of_the_chain():
    ex = explain_iii()
    assert derived(ex, 1, "Z holds JC")  # law: the turned-up card
    assert derived(ex, 6, "presumed: Z lacks KC")  # fourth hand does not let the queen win
    assert derived(ex, 7, "presumed: B holds 2C")  # nobody else can hold the two
    assert derived(ex, 7, "presumed: B has 1 C")  # the seven was the higher of two
    assert derived(ex, 7, "presumed: Y holds KC")  # so the king is Y's


def test_the_king_is_not_placed_a_trick_early_nor_by_the_laws_alone():
    ex = explain_iii()
    assert not derived(ex, 6, "presumed: Y holds KC")
    assert not derived(ex, 7, "Y holds KC")
    st = parse_statement("Y holds KC")
    assert holds_in(ex, 7, st, "presumed") and not holds_in(ex, 7, st, "certain")


def test_the_inference_record_names_the_tricks_it_rests_on():
    ex = explain_iii()
    rec = [i for i in ex.tricks[6].inferences if i.kind == "holds" and str(i.seat) == "Y"]
    assert rec, ex.tricks[6].inferences
    k = rec[0]
    assert [str(c) for c in k.cards] == ["KC"]
    assert k.certainty == "presumed"
    assert {6, 7} <= set(k.rests_on)
    from whistbook import wording

    assert wording.text(wording.sentence(k)) == "Y presumably holds K♣."
    ret = [i for i in ex.tricks[6].inferences if i.kind == "count" and str(i.seat) == "B" and i.suit.letter == "C"]
    assert ret and ret[0].rule == "return_count" and ret[0].low == ret[0].high == 1


def test_knowledge_and_counts_after_trick_7():
    ex = explain_iii()
    t7 = ex.tricks[6]
    names = {str(c): [str(s) for s in seats] for c, seats in t7.knowledge["presumed"].items()}
    assert names["KC"] == ["Y"] and names["2C"] == ["B"] and names["JC"] == ["Z"]
    certain = {str(c): [str(s) for s in seats] for c, seats in t7.knowledge["certain"].items()}
    assert certain["JC"] == ["Z"] and set(certain["KC"]) == {"Y", "B", "Z"}
    from whistbook.cards import Suit
    from whistbook.seats import Seat
    assert t7.counts["presumed"][Seat.Y][Suit.CLUBS] == (1, 1)
    assert t7.counts["certain"][Seat.Y][Suit.CLUBS][0] == 0


def test_no_departure_in_hand_iii():
    assert explain_iii().departures == []
