"""The conventions as functions from a holding to the cards it allows."""

import pytest

from whistbook.inference import conventions as cv
from whistbook.inference.bits import mask_of, ranks_text, seq_low


def cards_of(s) -> str:
    return ranks_text(sum(1 << i for i in s)) if s is not None else "-"


# ----------------------------------------------------------- opening leads (pp. 64-71, App. A)

@pytest.mark.parametrize("holding, trumps, led", [
    ("AKQJ3", False, "K"), ("AKQJ3", True, "J"),
    ("AKQ43", False, "K"), ("AKQ43", True, "Q"),
    ("AKJ4", False, "K"),
    ("AK743", False, "K"), ("AK743", True, "4"),  # trumps: the fourth-best unless seven
    ("AQJT", False, "A"), ("AQJ84", False, "A"),
    ("A8632", False, "A"), ("A863", False, "3"),  # ace and four small, or the fourth-best
    ("KQJT5", False, "T"), ("KQJ52", False, "J"), ("KQJ5", False, "K"),
    ("KQ753", False, "K"), ("KQ753", True, "5"),
    ("KJT95", False, "9"), ("KJT5", False, "T"),
    ("QJT5", False, "Q"), ("QJ852", False, "5"),
    ("K9742", False, "4"), ("KT972", False, "7"),
])
def test_first_leads(holding, trumps, led):
    assert cards_of(cv.first_leads(mask_of(holding), trumps)) == led


def test_jack_ten_nine_eight_is_led_either_way():
    assert cards_of(cv.first_leads(mask_of("JT98"), False)) == "J 8"


@pytest.mark.parametrize("holding, led", [("K73", "3"), ("JT4", "J"), ("952", "9"), ("AK", "A"), ("KQ", "K"), ("7", "7"),
                                          ("Q5", "5"), ("K", "K")])
def test_weak_leads(holding, led):
    assert cards_of(cv.weak_leads(mask_of(holding))) == led


@pytest.mark.parametrize("holding, first, won, beaten, second", [
    ("KQ653", "K", True, None, "5"),     # K then the original fourth-best (Hand II)
    ("AQ832", "A", True, None, "3"),     # A then the original fourth-best (Hand IX)
    ("AQJ62", "A", True, None, "J"),     # A then J: five or more (Hand X)
    ("AQJ6", "A", True, None, "Q"),      # A then Q: exactly four
    ("AQJT2", "A", True, None, "T"),
    ("KQJT2", "T", True, None, "Q"),     # ten won: Q with five
    ("KQJT", "T", False, "A", "Q"),      # ten forced the ace: Q with four
    ("AKQ2", "K", True, None, "Q"),
    ("QJT2", "Q", True, None, "J"), ("QJT32", "Q", True, None, "T"),
    ("K9742", "4", True, None, "-"),     # a low opening: the table says nothing
])
def test_second_leads(holding, first, won, beaten, second):
    bb = "23456789TJQKA".index(beaten) if beaten else -1
    f = "23456789TJQKA".index(first)
    assert cards_of(cv.second_leads(mask_of(holding), f, won, bb, False, False)) == second


# ----------------------------------------------------------- returns, continuing

def test_return_higher_of_two_lowest_of_more():
    gone = mask_of("AQ3")
    assert cards_of(cv.return_cards(mask_of("72"), gone, False)) == "7"
    assert cards_of(cv.return_cards(mask_of("T72"), gone, False)) == "2"
    # the winning card may be returned whatever the length
    assert cards_of(cv.return_cards(mask_of("K72"), gone, False)) == "K 2"


def test_continue_own_suit_with_losers_lowest():
    assert cards_of(cv.continue_cards(mask_of("KT92"), mask_of("JQ87"))) == "2"
    assert cv.continue_cards(mask_of("A92"), mask_of("KQJ")) is None


# ----------------------------------------------------------- second hand (pp. 82-91)

@pytest.mark.parametrize("holding, led, trumps, play", [
    ("AK4", "3", False, "K"), ("AK4", "3", True, "K 4"),
    ("KQ4", "3", False, "Q"), ("AQJ4", "3", False, "J"), ("KJT4", "3", False, "T"),
    ("QJ4", "3", False, "J"), ("QJ54", "3", False, "4"),  # moderate sequence only with three cards
    ("K74", "3", False, "4"), ("A74", "3", False, "4"),
    ("A74", "Q", False, "A"),            # the ace goes on an honour led
    ("K74", "Q", False, "K 4"),          # without the ace: cover or pass
])
def test_second_hand_first_round(holding, led, trumps, play):
    i = "23456789TJQKA".index(led)
    assert cards_of(cv.second_hand_cards(mask_of(holding), 1 << i, i, 1, trumps)) == play


def test_second_hand_second_round_plays_the_best_card():
    gone = mask_of("A52")
    assert cards_of(cv.second_hand_cards(mask_of("K94"), gone | mask_of("3"), 1, 2, False)) == "K"
    assert cards_of(cv.second_hand_cards(mask_of("Q94"), gone | mask_of("3"), 1, 2, False)) == "4"


# ----------------------------------------------------------- third and fourth hand

def test_third_hand_high_and_the_finesse():
    # partner led the 4, second hand the 5
    gone = mask_of("45")
    assert cards_of(cv.third_hand_cards(mask_of("AQ7"), gone, 2, 3, False, 1, False)) == "Q"
    assert cards_of(cv.third_hand_cards(mask_of("AK7"), gone, 2, 3, False, 1, False)) == "K"
    assert cards_of(cv.third_hand_cards(mask_of("K87"), gone, 2, 3, False, 1, False)) == "K"
    # cannot beat the second hand's queen: lowest
    assert cards_of(cv.third_hand_cards(mask_of("T87"), mask_of("4Q"), 2, 10, False, 1, False)) == "7"
    # second hand put on the knave: win it as cheaply as possible
    assert cards_of(cv.third_hand_cards(mask_of("AQ7"), mask_of("4J"), 2, 9, False, 1, False)) == "Q"
    # partner's card as good as his own: lowest, or the top to unblock
    assert cards_of(cv.third_hand_cards(mask_of("Q87"), mask_of("2K3"), 12, 12, True, 1, False)) == "7"
    assert cards_of(cv.third_hand_cards(mask_of("K87"), mask_of("2Q3"), 12, 10, True, 1, False)) == "K 7"


def test_third_hand_on_partners_ten_puts_on_the_ace():
    assert cards_of(cv.third_hand_cards(mask_of("A84"), mask_of("T3"), 8, 8, True, 1, False)) == "A"


def test_fourth_hand_wins_cheaply_or_plays_lowest():
    gone = mask_of("4J")
    assert cards_of(cv.fourth_hand_cards(mask_of("KQ7"), gone, 9, False, False)) == "Q"
    assert cards_of(cv.fourth_hand_cards(mask_of("KQ7"), gone, 9, True, False)) == "7"
    assert cards_of(cv.fourth_hand_cards(mask_of("T87"), gone, 9, False, False)) == "7"


def test_cheapest_winner_does_not_count_the_card_on_the_table_as_gone():
    # A Q over the king on the table: the queen does not beat it
    assert cards_of(cv.fourth_hand_cards(mask_of("AQ43"), mask_of("2K"), 11, False, False)) == "A"
    assert seq_low(mask_of("AQ"), mask_of("K"), 12) == 10
    assert seq_low(mask_of("AQ"), mask_of("K"), 12, 11) == 12


def test_ruffing():
    assert cards_of(cv.ruff_cards(mask_of("J93"), 0, -1, 4)) == "3"
    assert cards_of(cv.ruff_cards(mask_of("J93"), mask_of("8"), 6, 4)) == "9"
    assert cv.ruff_cards(mask_of("32"), mask_of("8"), 6, 4) is None


def test_call_strength():
    assert cv.call_strength(mask_of("AKT7"))      # four, two honours (Hand VI)
    assert cv.call_strength(mask_of("QJT52"))     # five, honours
    assert not cv.call_strength(mask_of("K743"))
    assert not cv.call_strength(mask_of("98743"))


def test_without_the_american_count_the_ace_is_followed_by_the_fourth_best_or_the_lowest():
    # trumps declared against the leader: the count need not be shown, but a
    # higher card would read as the top of a sequence (Hand XVIII, trick 4)
    ace = "23456789TJQKA".index("A")
    assert cards_of(cv.second_leads(mask_of("AJT53"), ace, True, -1, False, False, american=False)) == "5 3"
    assert cards_of(cv.second_leads(mask_of("AQJT3"), ace, True, -1, False, False, american=False)) == "T"


def test_cards_between_a_high_win_and_a_lower_lead():
    # won with the ace, leads the queen: the king is marked (pp. 113-114)
    a, q = "23456789TJQKA".index("A"), "23456789TJQKA".index("Q")
    assert ranks_text(cv.cards_between(a, q, 0, 0)) == "K"
    assert cv.cards_between(a, q, 0, mask_of("K")) == 0  # the king is seen elsewhere: nothing to mark


def test_third_hand_does_not_overtake_partners_winning_trump():
    # partner's queen is as good as the king (the ace is gone): in a plain suit
    # the king may be thrown to unblock, in trumps only the lowest is played
    q, a = "23456789TJQKA".index("Q"), "23456789TJQKA".index("A")
    gone = 1 << a
    assert cards_of(cv.third_hand_cards(mask_of("K94"), gone, q, q, True, 1, False)) == "K 4"
    assert cards_of(cv.third_hand_cards(mask_of("K94"), gone, q, q, True, 1, False, trumps=True)) == "4"


def test_second_hand_in_a_later_round_of_trumps_plays_low_or_the_best():
    # Hand XIV, trick 4: Z, holding king and ten of trumps with the ace still
    # out, plays the ten second hand only because the king was then single
    five, ten = "23456789TJQKA".index("5"), "23456789TJQKA".index("T")
    gone = mask_of("QJ6")
    assert cards_of(cv.second_hand_cards(mask_of("KT3"), gone, five, 2, True)) == "3"
    assert cards_of(cv.second_hand_cards(mask_of("KT"), gone, five, 2, True)) == "T"


def test_returning_trumps_with_the_best_one_draws_with_it():
    # Hand XIII, trick 3: A returned a small trump after his queen, so he had
    # not the ace (the best trump left), with which he would have drawn
    gone = mask_of("Q542")
    assert cards_of(cv.return_cards(mask_of("AT8"), gone, True)) == "A"
    assert cards_of(cv.return_cards(mask_of("AT8"), gone, False)) == "A 8"


@pytest.mark.parametrize("holding, opened", [
    ("Q5", False), ("K8", False), ("A9", False), ("K", False), ("Q", False),  # p. 73
    ("A", True), ("KQ", True), ("AK", True), ("J4", True), ("K73", True), ("Q8532", True),
])
def test_honour_and_one_other_is_not_opened_by_choice(holding, opened):
    assert cv.likely_opened(mask_of(holding)) is opened


@pytest.mark.parametrize("holding, gone, allowed", [
    ("QJ87", "", "Q 7"),     # the lowest, or the queen from the top of queen-knave
    ("Q874", "", "4"),       # no sequence at the top: the queen is not led
    ("QT87", "J", "Q 7"),    # the knave gone, queen and ten are equal
    ("AQJ7", "", None),      # holding the ace the rule says nothing
])
def test_going_on_after_a_low_opening(holding, gone, allowed):
    got = cv.continue_after_low_cards(mask_of(holding), mask_of(gone) if gone else 0)
    assert (cards_of(got) if got is not None else None) == allowed


def test_a_card_above_the_lowest_may_begin_a_call():
    # pp. 125-127: the lowest, or the card next above it (Hand VII: B's 8 from 8 3)
    assert cv.follow_low_or_call(mask_of("83")) == {1, 6}
    assert cv.follow_low_or_call(mask_of("K42")) == {0, 2}
    assert cv.follow_low_or_call(mask_of("5")) == {3}
