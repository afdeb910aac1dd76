import pytest

from whistbook.cards import DECK, Card, Suit, cards, parse_holding, parse_rank, tokenize_hand
from whistbook.errors import InvalidCardError


def test_all_52_round_trip():
    assert len(set(DECK)) == 52
    for c in DECK:
        assert Card.parse(str(c)) is c
        assert eval(repr(c)) is c
        assert Card.parse(c.symbol) is c


@pytest.mark.parametrize("text,expected", [
    ("QS", "QS"), ("qs", "QS"), ("10D", "TD"), ("TD", "TD"), ("D10", "TD"), ("♦10", "TD"),
    ("10♦", "TD"), ("Qn♡", "QH"), ("Knv♢", "JD"), ("Kg♣", "KC"), ("A♠", "AS"), ("♤A", "AS"),
    ("ten of clubs", "TC"), ("knave of hearts", "JH"), ("2♧", "2C"), ("JS", "JS"),
])
def test_spellings(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["1S", "ZH", "QX", "", "Q", "S", "11S", "QSS"])
def test_not_a_card(text):
    with pytest.raises(InvalidCardError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value)
    assert isinstance(err.value, ValueError)


def test_order_and_attributes():
    ace, two = Card.parse("AS"), Card.parse("2S")
    assert ace.rank == 14 and two.rank == 2 and ace.suit is Suit.SPADES
    assert max(cards("2S KS AS QS"), key=lambda c: c.rank) == ace
    assert Card.parse("TH").symbol == "10♥"
    assert Card.parse("QS").name == "queen of spades"


@pytest.mark.parametrize("text", ["Q T 5 3", "QT53", "Q1053", "Qn, 10, 5, 3", "q t 5 3"])
def test_holdings(text):
    assert [str(c) for c in parse_holding(text, Suit.SPADES)] == ["QS", "TS", "5S", "3S"]


def test_void_and_bad_rank():
    assert parse_holding("-", Suit.HEARTS) == []
    assert parse_holding("", Suit.HEARTS) == []
    with pytest.raises(InvalidCardError) as err:
        parse_holding("Q X 5", Suit.HEARTS)
    assert err.value.offset == 2
    assert parse_rank("Knv") == 11


def test_hand_line_offsets():
    parts = tokenize_hand("♠ Q1053 ♥ A ♣ A763 ♦ KJ92")
    assert [s for s, _ in parts] == [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS]
    assert parts[0][1] == [(12, 2), (10, 3), (5, 5), (3, 6)]
    parts = tokenize_hand("S: QT53 H: A C: A763 D: KJ92")
    assert [r for r, _ in parts[3][1]] == [13, 11, 9, 2]
    with pytest.raises(InvalidCardError):
        tokenize_hand("QT53")
