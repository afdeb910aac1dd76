"""The replay engine on small hand-made tricks and on Hand I."""

import pytest

from whistbook.cards import Card, Suit, cards
from whistbook.errors import IllegalPlayError
from whistbook.play import legal_plays, replay, winner_of
from whistbook.seats import Seat


def C(text):
    return cards(text)


HANDS = {
    Seat.A: C("AS 2H 3D"),
    Seat.Y: C("KS 3H 4D"),
    Seat.B: C("QS 4H 5D"),
    Seat.Z: C("JS 5H 2C"),
}


def test_winner_of_follows_suit_and_trumps():
    assert winner_of(C("2H 3H 4H 5H"), 0, None) == 3
    assert winner_of(C("AH 3H 4H 5H"), 1, None) == 1
    assert winner_of(C("AH 2S 4H 5H"), 0, int(Suit.SPADES)) == 1
    assert winner_of(C("AH 2C 4H 5H"), 0, int(Suit.SPADES)) == 0  # a discard never wins
    assert winner_of(C("2S 3S AH KH"), 2, int(Suit.HEARTS)) == 0  # over-ruff: leader+2 = seat 0


def test_replay_derives_leaders_winners_tallies():
    rp = replay(HANDS, Suit.CLUBS, Seat.A, [C("2H 3H 4H 5H"), C("2C 3D 4D 5D")])
    t1, t2 = rp.tricks
    assert (t1.leader, t1.winner, t1.tally) == (Seat.A, Seat.Z, (0, 1))
    assert (t2.leader, t2.winner, t2.tally) == (Seat.Z, Seat.Z, (0, 2))  # Z leads the trump
    assert rp.next_leader is Seat.Z and rp.cards_left == 1
    assert [str(p.card) for p in t2.plays] == ["2C", "3D", "4D", "5D"]
    assert t2.card_of(Seat.B) == Card.parse("5D")


def test_card_not_held_names_turn_and_owner():
    with pytest.raises(IllegalPlayError) as err:
        replay(HANDS, None, Seat.A, [C("2H KS 4H 5H")])
    e = err.value
    assert (e.trick_index, e.play_index) == (0, 1)
    with pytest.raises(IllegalPlayError) as err:
        replay(HANDS, None, Seat.A, [C("2H 4H 3H 5H")])
    assert str(err.value) == "trick 1: it is Y's turn to play, but 4H is in B's hand"


def test_revoke_names_suit_and_card_held():
    with pytest.raises(IllegalPlayError) as err:
        replay(HANDS, None, Seat.A, [C("2H 3H 4H 2C")])
    assert str(err.value) == "trick 1: Z revokes, playing 2C to a heart lead while holding 5H"
    assert err.value.play_index == 3


def test_card_played_twice():
    with pytest.raises(IllegalPlayError) as err:
        replay(HANDS, None, Seat.A, [C("2H 3H 4H 5H"), C("5H 3D 4D 5D")])
    assert "5H was already played in trick 1" in str(err.value)
    assert (err.value.trick_index, err.value.play_index) == (1, 0)


def test_a_forced_card_may_be_left_out():
    # Z's one heart is his only legal card to a heart lead; the replay plays it
    rp = replay(HANDS, None, Seat.A, [C("2H 3H 4H")])
    assert rp.tricks[0].cards == tuple(C("2H 3H 4H 5H")) and rp.filled == ((0, 3),)
    # Y's lead of his king leaves A (to play fourth) his last spade, B his queen: both forced
    rp = replay(HANDS, None, Seat.Y, [C("KS JS")])
    assert rp.tricks[0].cards == tuple(C("KS QS JS AS")) and rp.filled == ((0, 1), (0, 3))
    rp = replay(HANDS, None, Seat.A, [C("2H 3H")])  # B's and Z's one heart each
    assert rp.tricks[0].cards == tuple(C("2H 3H 4H 5H"))


def test_a_card_that_was_a_choice_must_be_written():
    with pytest.raises(IllegalPlayError) as err:
        replay(HANDS, None, Seat.A, [C("3H 4H 5H")])
    assert str(err.value) == ("trick 1: A's card is not written, and only a forced card (a player's one legal card) "
                              "may be left out: A could play AS 2H 3D")
    with pytest.raises(IllegalPlayError) as err:
        replay(HANDS, None, Seat.A, [C("2H 4H 3H")])
    assert str(err.value) == "trick 1: the cards are not in play order from A, who leads it"
    with pytest.raises(IllegalPlayError) as err:
        replay(HANDS, None, Seat.A, [C("2H 3H 4H 5H 2C")])
    assert "has 5 cards" in str(err.value)


def test_legal_plays():
    hand = C("AS 2H 3H")
    assert legal_plays(hand, Suit.HEARTS) == C("2H 3H")
    assert legal_plays(hand, Suit.CLUBS) == hand
    assert legal_plays(hand, None) == hand


def test_an_illegal_play_carries_its_trick_seat_and_card():
    with pytest.raises(IllegalPlayError) as err:
        replay(HANDS, None, Seat.A, [C("2H 3H 4H 2C")])
    assert (err.value.trick_index, err.value.play_index, err.value.seat, err.value.card) == (0, 3, Seat.Z, Card.parse("2C"))


def test_every_bundled_hand_that_checks_also_replays_the_same():
    """whistbook.replay and whistbook.check replay a hand file alike: the laws
    lessons' recorded revokes and leads out of turn included."""
    import whistbook
    from whistbook.corpus import find_hand_files

    from conftest import HANDS as BUNDLED

    checked = 0
    for path in find_hand_files([BUNDLED]):
        hand = whistbook.load(path)
        result = whistbook.check(hand, solver=False)
        if result.replay is None:
            continue
        assert whistbook.replay(hand) == result.replay, path
        checked += 1
    assert checked >= 50
    laws = sorted((BUNDLED / "laws").glob("0[15]-*.yaml"))
    assert len(laws) == 2 and all(whistbook.replay(whistbook.load(p)).tricks for p in laws)
