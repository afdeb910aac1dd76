"""A later card that contradicts a presumption retracts it and records who
departed from rule, instead of leaving the engine with a contradiction."""

from whistbook.cards import Card
from whistbook.corpus import check_file
from whistbook.inference import explain
from whistbook.seats import Seat

from _inference_util import HAND_X, HAND_X_TRICKS, derived, hands_dir, play

# A 13-card deal in which Z, last player, wins a heart with the king while
# holding the queen (a false card: the rule is to win as cheaply as possible),
# and plays the queen later.
FALSE_CARD = {
    "A": "♠ A K Q J  ♥ 9 8 7  ♦ A K Q  ♣ A K Q",
    "Y": "♠ T 9 8  ♥ 6 5 4 3  ♦ J T 9  ♣ J T 9",
    "B": "♠ 7 6 5  ♥ J T 2  ♦ 8 7 6 5  ♣ 8 7 6",
    "Z": "♠ 4 3 2  ♥ A K Q  ♦ 4 3 2  ♣ 5 4 3 2",
}
FALSE_CARD_TRICKS = [
    "9H 3H TH KH",   # Z wins with the king, holding the queen
    "2S AS 8S 5S",   # Z leads a spade; A wins
    "7H 4H JH QH",   # the queen appears: Z held it at trick 1
]


def test_false_card_is_a_departure_not_a_contradiction():
    ex = play(FALSE_CARD, FALSE_CARD_TRICKS, "A", trumps="S", leader="A")
    # after trick 1 the rule says Z, winning with the king, has not the queen
    assert derived(ex, 1, "presumed: Z lacks QH")
    # trick 3 shows the queen in Z's hand: the presumption is withdrawn
    assert not derived(ex, 3, "presumed: Z lacks QH")
    deps = ex.departures
    assert len(deps) == 1
    d = deps[0]
    assert (d.trick, str(d.seat), d.rule, d.found_at) == (1, "Z", "win_cheaply", 3)
    from whistbook import wording

    assert wording.text(wording.departure(d)).startswith("Z departed from rule at trick 1 with K♥")
    assert ex.tricks[2].departures == [d]
    # and from then on the presumed layer fits the deal again
    owner = {c: s for s, h in FALSE_CARD.items() for c in _cards(h)}
    for t in ex.tricks[2:]:
        for c, seats in t.knowledge["presumed"].items():
            assert owner[str(c)] in [str(s) for s in seats], (t.number, c)


def _cards(text):
    from _inference_util import hand_of
    return [str(c) for c in hand_of(text)]


def test_hand_x_departure_is_put_on_the_player_who_departed():
    """Hand X, trick 9: Y holds the king of diamonds but does not put it on
    his partner's knave in the second round (the book: he can count the hands,
    and departs from rule). Seen from Z, the clash is laid at Y's door, not at
    B's, whose failure to beat the knave is the firmer presumption."""
    ex = play(HAND_X, HAND_X_TRICKS, "Z", trumps="S", turn_up="6S")
    assert [(d.trick, str(d.seat), d.rule) for d in ex.departures] == [
        (9, "Y", "third_hand_highest")]
    assert all(str(d.seat) != "B" for d in ex.departures)


def test_a_call_is_not_a_departure():
    """Hand VI: B plays the six of hearts, then the five: a call for trumps.
    The presumption that the six was his lowest is withdrawn as a signal."""
    deal = {
        "A": "♠ Q 4  ♥ T 8 4 3  ♦ J 5 3  ♣ K 9 7 2",
        "Y": "♠ A 8 6 5  ♥ A K Q 2  ♦ 8 6 4  ♣ Q J",
        "B": "♠ K  ♥ 7 6 5  ♦ A K T 7  ♣ A 8 6 5 3",
        "Z": "♠ J T 9 7 3 2  ♥ J 9  ♦ Q 9 2  ♣ T 4",
    }
    tricks = ["2C JC AC 4C", "3C TC KC QC", "3H QH 6H 9H", "AH 5H JH 4H"]
    ex = play(deal, tricks, "Y", trumps="D", turn_up="2D")
    assert ex.departures == []
    sig = [i for i in ex.tricks[3].inferences if i.kind == "signal"]
    assert sig and sig[0].rule == "call_for_trumps" and str(sig[0].seat) == "B"
    assert derived(ex, 4, "presumed: B has at least 4 D")
    assert [str(c) for c in sig[0].cards] == ["6H", "5H"]


def test_departure_is_in_json():
    ex = play(FALSE_CARD, FALSE_CARD_TRICKS, "A", trumps="S", leader="A")
    js = ex.to_json()
    assert js["departures"][0]["seat"] == "Z" and js["departures"][0]["trick"] == 1
    assert isinstance(Card.parse("QH"), Card)


def test_a_presumption_given_up_before_a_signal_showed_is_taken_back():
    # Hand XXI, seen by B: Z's knave under his partner's ace at trick 4 looked
    # like his lowest trump, which clashed with his call; his eight at trick 5
    # shows the knave was a signal, so the call stands and Z is not blamed.
    ex = explain(check_file(next(hands_dir().glob("21-*.yaml")), solver=False), Seat.B)
    assert not [d for d in ex.departures if d.seat == Seat.Z]


def test_a_departure_explained_by_a_signal_gives_the_players_presumptions_back():
    # Hand XXI, seen by B: while Z's knave at trick 4 stood as a departure his
    # earlier presumptions were held as probable only; once his eight at trick
    # 5 shows the call, they are presumed again (his length in spades, from
    # his play before trick 4)
    ex = explain(check_file(next(hands_dir().glob("21-*.yaml")), solver=False), Seat.B)
    assert derived(ex, 5, "presumed: Z has at least 2 S")
