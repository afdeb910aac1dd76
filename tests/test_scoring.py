"""Scoring, table-driven from the worked examples of the club code."""

from whistbook.cards import Suit, cards
from whistbook.scoring import honours_held, score_hand
from whistbook.seats import Seat, Side

AB, YZ = Side.AB, Side.YZ


def sc(ab_tricks, held_ab, before=(0, 0), rules="short"):
    return score_hand({AB: ab_tricks, YZ: 13 - ab_tricks}, {AB: held_ab, YZ: 4 - held_ab},
                      {AB: before[0], YZ: before[1]}, rules)


def test_love_all_tricks_then_honours():
    s = sc(9, 1)  # AB three by cards, YZ three honours
    assert (s.by_cards_side, s.by_cards) == (AB, 3)
    assert s.honours_points == {AB: 0, YZ: 2}
    assert s.after == {AB: 3, YZ: 2} and s.game is None


def test_game_by_tricks_stops_honours_treble():
    s = sc(8, 0, before=(3, 0))  # AB two by cards from 3; YZ four honours never score
    assert s.game is AB and s.game_value == 3 and s.game_value_name == "treble"
    assert s.honours_points == {AB: 0, YZ: 0} and "already reached game" in s.honours_unscored[YZ]


def test_honours_win_the_game_double():
    s = sc(7, 0, before=(1, 2))  # AB odd trick -> 2; YZ four honours -> 6
    assert s.after == {AB: 2, YZ: 6} and s.game is YZ and s.game_value == 2


def test_no_honours_at_four():
    s = sc(7, 0, before=(3, 4))  # YZ at 4 hold four honours; AB odd trick
    assert s.after == {AB: 4, YZ: 4} and s.honours_points[YZ] == 0
    assert "began the hand at 4" in s.honours_unscored[YZ]


def test_drayson_nine_tricks_and_three_honours_is_a_treble():
    s = sc(4, 1)  # YZ nine tricks (3 by cards) and three honours
    assert s.after == {AB: 0, YZ: 5} and s.game is YZ and s.game_value == 3


def test_single_when_losers_have_three():
    s = sc(10, 2, before=(2, 3))
    assert s.game is AB and s.game_value == 1


def test_long_whist_game_of_ten():
    s = sc(10, 4, before=(2, 0), rules="long")  # 4 by cards + 4 honours = 10
    assert s.after[AB] == 10 and s.game is AB and s.game_value is None
    s = sc(7, 4, before=(9, 0), rules="long")
    assert s.honours_points[AB] == 0 and s.after[AB] == 10


def test_honours_held_counts_the_turn_up_holder():
    hands = {Seat.A: cards("AS KS"), Seat.Y: cards("QS"), Seat.B: cards("2S"), Seat.Z: cards("JS")}
    assert honours_held(hands, Suit.SPADES) == {AB: 2, YZ: 2}
