"""Small positions, one or two rules each, read by the whole engine.

Positions have fewer than thirteen cards a hand; cards in nobody's hand are
out of play. Seats: A leads unless said otherwise; Y plays second, B third,
Z fourth.
"""

from whistbook.cards import Suit
from whistbook.corpus import check_file
from whistbook.inference import explain
from whistbook.seats import Seat

from _inference_util import derived, hands_dir, padded, play, rules_for


def test_show_out_is_certain():
    deal = {"A": "♠ A K", "Y": "♥ 2 3", "B": "♠ Q ♥ 4", "Z": "♠ J T"}
    ex = play(deal, ["AS 2H QS TS"], "A", trumps="D")
    assert derived(ex, 1, "Y void S")
    assert "show_out" in rules_for(ex, 1, "Y", "void")


def test_turned_up_card_is_the_dealers():
    deal = {"A": "♠ A K", "Y": "♥ 2 3", "B": "♠ Q ♥ 4", "Z": "♠ J T"}
    ex = play(deal, ["AS 2H QS TS"], "A", trumps="S", turn_up="JS")
    assert derived(ex, 1, "Z holds JS")
    rec = [i for i in ex.tricks[0].inferences if i.kind == "holds" and str(i.seat) == "Z"]
    assert rec and rec[0].rule == "turn_up_card" and rec[0].certainty == "certain"


def test_elimination_places_a_card_for_certain():
    deal = {"A": "♠ A K ♦ 2", "Y": "♥ 2 3 4", "B": "♠ Q ♥ 5 6", "Z": "♠ J T 9"}
    ex = play(deal, ["AS 2H QS 9S", "KS 3H 5H TS"], "A", trumps="D")
    assert not derived(ex, 1, "Z holds JS")
    assert derived(ex, 2, "Z holds JS")  # Y and B have shown out


def test_fourth_hand_wins_if_able_and_plays_lowest():
    deal = {"A": "♥ 3 8 7 6", "Y": "♥ 5 9 J ♠ 6", "B": "♥ Q A K 2", "Z": "♥ 4 T ♠ 2 3"}
    # A leads the 3, Y plays the 5, B's queen wins, Z plays the 4
    ex = play(deal, ["3H 5H QH 4H"], "A", trumps="S")
    assert derived(ex, 1, "presumed: Z lacks KH AH")
    assert "fourth_hand_wins_if_able" in rules_for(ex, 1, "Z", "lacks")
    # before anyone has led trumps a card above the lowest may begin a call
    # (pp. 125-127): that Z and Y played their lowest, which places the two
    # with B, is only probable
    assert not derived(ex, 1, "presumed: Z lacks 2H")
    assert derived(ex, 1, "probably: Z lacks 2H")
    assert derived(ex, 1, "probably: B holds 2H")
    # once trumps have been led nobody calls: the lowest is presumed again
    deal = {"A": "♠ A ♥ 3 8 7 6", "Y": "♠ 5 6 ♥ 5 9 J", "B": "♠ K ♥ Q A K 2", "Z": "♠ 7 2 3 ♥ 4 T"}
    ex = play(deal, ["AS 5S KS 7S", "3H 5H QH 4H"], "A", trumps="S")
    assert derived(ex, 2, "presumed: Z lacks KH AH 2H")
    assert derived(ex, 2, "presumed: B holds 2H")
    assert not derived(ex, 1, "Z lacks KH")  # a presumption, not a law


def test_win_cheaply():
    deal = {"A": "♥ 3 8", "Y": "♥ 5 9", "B": "♥ Q 2", "Z": "♥ A K"}
    ex = play(deal, ["3H 5H QH AH"], "A", trumps="S")
    assert derived(ex, 1, "presumed: Z lacks KH")
    assert "win_cheaply" in rules_for(ex, 1, "Z", "lacks")


def test_third_hand_ace_denies_king_and_queen():
    deal = {"A": "♣ 4 T 7", "Y": "♣ 6 9 8", "B": "♣ A J 3", "Z": "♣ 2 K Q"}
    ex = play(deal, ["4C 6C AC 2C"], "A", trumps="S")  # Hand V, trick 1
    assert derived(ex, 1, "presumed: B lacks KC QC")


def test_lowest_when_not_winning_second_hand():
    deal = {"A": "♦ 9 3", "Y": "♦ 4 2", "B": "♦ K 5", "Z": "♦ A 6"}
    ex = play(deal, ["3D 4D KD AD"], "A", trumps="S")
    assert derived(ex, 1, "presumed: Y lacks 2D")


def test_second_hand_low_denies_the_sequences_put_on():
    deal = {"A": "♥ 3 8 7", "Y": "♥ 5 9 T", "B": "♥ J 2 6", "Z": "♥ 4 Q K"}
    ex = play(deal, ["3H 5H JH QH"], "Z", trumps="S")
    st = ex.state_after(1, "presumed")
    # Y played low second hand: he cannot have held both king and queen, nor
    # queen-knave-ten; seen from Z, who holds K and Q, this says nothing new,
    # so look from A: Y's holdings in hearts never contain king and queen together
    ex_a = play(deal, ["3H 5H JH QH"], "A", trumps="S")
    dom = ex_a.state_after(1, "presumed").domain(int(Seat.Y), int(Suit.HEARTS))
    kq = (1 << 11) | (1 << 10)
    assert dom and all(m & kq != kq for m in dom)
    assert st is not None


def test_second_hand_honour_shows_the_card_above():
    # Y puts the knave on second hand from king-queen-knave and two small
    deal = {"A": "♥ 3 8 7 6 5", "Y": "♥ K Q J 4 2", "B": "♥ A T 9 ♠ 2 3", "Z": "♠ 4 5 6 7 8"}
    ex = play(deal, ["3H JH AH 4S"], "B", trumps="C")
    # with four cards or more the knave comes from a head sequence: Y holds the queen
    assert derived(ex, 1, "probably: Y holds QH") or derived(ex, 1, "presumed: Y holds QH")


def test_second_hand_passing_an_honour_denies_the_ace():
    deal = {"A": "♠ Q J T 3", "Y": "♠ 9 2 ♥ 2 3", "B": "♠ 4 5 ♥ 4 5", "Z": "♠ A 6 ♥ 6 7"}
    ex = play(deal, ["QS 2S 4S AS"], "B", trumps="C")
    assert derived(ex, 1, "presumed: Y lacks AS")  # it fell from Z, but Y's pass says so too
    assert "second_hand_covers_honour" in [r for r in ["second_hand_covers_honour"]]


def test_lead_table_queen_shows_the_knave():
    # A opens the hand with the queen of diamonds from Q J 10 4
    deal = padded({"A": "♦ Q J T 4", "Y": "♦ 2 3", "B": "♦ 5 6", "Z": "♦ 7 8"})
    ex = play(deal, ["QD 2D 5D 7D"], "B", trumps="S")
    assert derived(ex, 1, "presumed: A holds JD TD")
    assert "lead_table" in rules_for(ex, 1, "A")


def test_late_in_the_hand_a_queen_may_open_a_short_suit():
    deal = {
        "A": "♦ Q J T 4  ♣ 2 3",
        "Y": "♦ 2 3 ♣ 4 5 6 7",
        "B": "♦ 5 6 ♣ 8 9 T J",
        "Z": "♦ 7 8 ♣ Q K A ♠ 2",
    }
    ex = play(deal, ["QD 2D 5D 7D"], "B", trumps="S")
    # with six cards left a short suit may be opened (the queen single, or
    # from Q-J-x): the long-suit reading is not forced on it
    assert not derived(ex, 1, "presumed: A holds TD")
    full = play(padded(deal), ["QD 2D 5D 7D"], "B", trumps="S")
    assert derived(full, 1, "presumed: A holds TD")


def test_fourth_best_lead_counts_the_cards_above():
    # Hand VII, trick 3, seen from Z: Y leads the 7 from K 10 9 7 2, B plays the 8
    from _inference_util import HAND_VII, HAND_VII_TRICKS
    ex = play(HAND_VII, HAND_VII_TRICKS, "Z", trumps="C", turn_up="8C")
    # exactly three cards above the seven: the king, ten and nine (A's knave and
    # B's eight fell), and the two shown at trick 9 makes five hearts
    assert derived(ex, 3, "presumed: Y has at least 3 H")
    assert "lead_fourth_best" in rules_for(ex, 3, "Y")
    assert derived(ex, 9, "presumed: Y holds KH TH 9H") and derived(ex, 9, "presumed: Y has 3 H")
    # B's eight, then three, of hearts was a call, not a departure
    assert [d for d in ex.departures if d.seat == Seat.Z] == []


def test_low_card_after_a_high_one_is_the_fourth_best():
    # Hand II: A leads the king, then the five: he keeps the queen and the six
    deal = {
        "A": "♦ K Q 6 5 3  ♠ 2",
        "Y": "♦ 7 8  ♠ 3 4 5 6",
        "B": "♦ A T 9 2  ♠ 7 8",
        "Z": "♦ J 4  ♠ 9 T J Q",
    }
    ex = play(deal, ["KD 7D 2D 4D", "5D 8D AD JD"], "B", trumps="S")
    assert not derived(ex, 1, "presumed: A holds 6D")
    assert derived(ex, 2, "presumed: A holds QD 6D")


def test_return_higher_of_two():
    # Hand IV, tricks 2, 4 and 5: Z returns the six of hearts, then plays the three
    deal = {
        "Y": "♥ 5 Q 7 9  ♠ 2",
        "B": "♥ 2 8 T  ♠ 3 4",
        "Z": "♥ K 6 3  ♠ 5 6",
        "A": "♥ A J 4  ♠ 7 8",
    }
    ex = play(deal, ["5H 2H KH 4H", "6H JH QH 8H", "7H TH 3H AH"], "A", trumps="C", leader="Y")
    # after the return alone Z may have the six and more above it
    assert not derived(ex, 2, "presumed: Z void H")
    # the three shows the six was the higher of two: Z has no more
    assert derived(ex, 3, "presumed: Z void H")
    assert "return_count" in rules_for(ex, 3, "Z", "void")


def test_third_hand_passing_partners_ten_denies_the_ace():
    # Hand X, trick 1, seen from Z: A leads the ten, B plays low third hand
    from _inference_util import HAND_X, HAND_X_TRICKS
    ex = play(HAND_X, HAND_X_TRICKS[:1], "Z", trumps="S", turn_up="6S")
    assert derived(ex, 1, "presumed: Y holds AC")


def test_a_void_is_reported_once_and_certain_beats_presumed():
    deal = {"A": "♠ A K", "Y": "♥ 2 3", "B": "♠ Q ♥ 4", "Z": "♠ J T"}
    ex = play(deal, ["AS 2H QS TS", "KS 3H 4H JS"], "A", trumps="D")
    voids = [(i.certainty, str(i.seat)) for t in ex.tricks for i in t.inferences
             if i.kind == "void" and i.suit == Suit.SPADES]
    assert voids.count(("certain", "Y")) == 1
    assert ("presumed", "Y") not in voids


def test_winning_high_then_leading_lower_marks_the_card_between():
    # Z wins A's small club with the ace (not the cheapest card) and, next time
    # the suit goes round, leads the queen: he holds the king (pp. 113-114)
    deal = {"A": "♣ 4 9 ♠ 2", "Y": "♣ 7 8 ♠ 3", "B": "♣ 6 J ♠ 4", "Z": "♣ A Q K"}
    ex = play(deal, ["4C 7C 6C AC", "QC 9C 8C JC"], "A", trumps="D", leader="A")
    assert not derived(ex, 1, "presumed: Z holds KC")
    assert derived(ex, 2, "presumed: Z holds KC")
    assert "win_high_return_low" in rules_for(ex, 2, "Z", "holds")
    # the ace won on purpose: not winning cheaply was no departure from rule
    assert [d for d in ex.departures if d.seat == Seat.Z] == []



def test_a_ten_switched_to_is_the_leaders_highest():
    # Hand XVI, trick 3, seen by B: A switches to the ten of spades. From king,
    # ten he would hardly open the suit (p. 73), from king, ten and a small one
    # he would lead the small one: the king is probably not his. Z let B's
    # knave win, so Y has it.
    checked = check_file(next(hands_dir().glob("16-*.yaml")), solver=False)
    ex = explain(checked, Seat.B)
    assert derived(ex, 3, "probably: A lacks KS")
    assert derived(ex, 3, "probably: Y holds KS")
    assert not derived(ex, 3, "presumed: Y holds KS")  # a forced lead may be from king, ten


def test_after_a_low_trump_lead_the_next_suit_opened_is_the_leaders_own():
    # Hand XXVI, seen by Y: A opened with a low trump, then the three of
    # spades and later the two. The three was his fourth-best of five (p. 56,
    # App. A), so three spades are left after trick 6.
    checked = check_file(next(hands_dir().glob("26-*.yaml")), solver=False)
    ex = explain(checked, Seat.Y)
    assert derived(ex, 6, "presumed: A has 3 S")
    assert not derived(ex, 6, "A has 3 S")  # a presumption, not a law


def test_a_king_put_on_partners_winning_queen_of_trumps_was_single():
    # Hand XXXVIII, trick 7, seen by B: B leads the queen of trumps and A puts
    # on the king. With more trumps A would have played low, so the king was
    # his last and the remaining trumps are Y's.
    checked = check_file(next(hands_dir().glob("38-*.yaml")), solver=False)
    ex = explain(checked, Seat.B)
    assert derived(ex, 7, "presumed: A void C")
    assert derived(ex, 7, "presumed: Y holds 9C 8C 3C")


def test_a_switch_after_returning_partners_suit_shows_no_more_of_it():
    # Hand XXXVII, seen by Y: B won A's heart lead and returned the ace, then
    # switched to diamonds at trick 3; with another heart he would probably
    # have gone on with his partner's suit (pp. 79-81).
    checked = check_file(next(hands_dir().glob("37-*.yaml")), solver=False)
    ex = explain(checked, Seat.Y)
    assert derived(ex, 3, "probably: B void H")
    assert not derived(ex, 3, "presumed: B void H")


def test_refusing_to_force_partner_shows_no_great_strength_in_trumps():
    # Hand XVI, seen by B: B has shown out of diamonds, and A, who still holds
    # diamonds, switches to spades rather than force his partner: he is
    # probably weak in trumps (pp. 131-133).
    checked = check_file(next(hands_dir().glob("16-*.yaml")), solver=False)
    ex = explain(checked, Seat.B)
    assert derived(ex, 3, "probably: A has at most 3 H")
    assert not derived(ex, 2, "probably: A has at most 3 H")


def test_a_high_card_after_a_low_opening_is_the_top_of_a_sequence():
    # Hand XXXVIII, seen by B: Z opened diamonds with the two (his lowest,
    # trumps being declared against him), Y won with the ace, and Z went on
    # with the queen at trick 6. Holding no winner, he leads the top of a
    # sequence to force the king, so the knave is his (pp. 60, 112).
    checked = check_file(next(hands_dir().glob("38-*.yaml")), solver=False)
    ex = explain(checked, Seat.B)
    assert not derived(ex, 5, "presumed: Z holds JD")
    assert derived(ex, 6, "presumed: Z holds JD")
    assert not derived(ex, 6, "Z holds JD")  # a presumption, not a law
