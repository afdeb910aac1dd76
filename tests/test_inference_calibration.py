"""Presumptions kept honest: what the corpus showed often wrong is held as
probable, and a player found departing from rule no longer carries presumed
conclusions on his earlier cards (docs/inference.md, "How well it does")."""

from whistbook.cards import Card
from whistbook.corpus import check_file
from whistbook.inference import explain
from whistbook.seats import Seat

from _inference_util import derived, hands_dir


def _hand(n: int, seat: Seat | None = None):
    return explain(check_file(next(hands_dir().glob(f"{n:02d}-*.yaml")), solver=False), seat)


def test_a_card_above_the_lowest_may_begin_a_call_until_the_lower_card_shows():
    # Hand VII, seen by Z: B's four of diamonds at trick 4 (from K 4 2) is the
    # first card of a call; the two comes at trick 10
    ex = _hand(7)
    assert Seat.B in ex.holders(4, Card.parse("2D"), "presumed")
    assert not derived(ex, 4, "presumed: Y holds 2D")
    assert derived(ex, 4, "probably: B lacks 2D")  # the probable layer reads the four as his lowest
    # B's hearts go the same way (8, then 3 at trick 9), and Y's fourth-best
    # lead is then counted as the book counts it
    assert derived(ex, 9, "presumed: Y holds KH 10H 9H")


def test_a_trump_lead_is_not_read_as_the_strongest_plain_suit():
    # Hand XVII, seen by Y: Z opens trumps with the four from A K 4 at trick 3;
    # that a trump lead comes from four is probable (pp. 120-124), not presumed
    ex = _hand(17)
    assert not derived(ex, 3, "presumed: Z has at least 3 C")
    assert derived(ex, 3, "probably: Z has at least 3 C")


def test_a_high_card_opened_after_the_adversaries_opened_may_be_a_weak_suit():
    # Hand XXXIII, seen by A: A has opened Y's strong suit, so Y opens the
    # best of his weak ones with the knave of spades (J 8 7)
    ex = _hand(33)
    assert not derived(ex, 2, "presumed: Y has at least 3 S")
    assert derived(ex, 2, "probably: Y has at least 3 S")
    # a low card opened in the same position is still read as the fourth best
    ex = _hand(7)
    assert derived(ex, 3, "presumed: Y has at least 3 H")


def test_a_departure_takes_the_players_earlier_presumptions_out_of_the_presumed_layer():
    # Hand XXVII, seen by Z: Y's knave of spades at trick 4 breaks the lead
    # table at once; that it came from his strongest suit goes with it
    ex = _hand(27)
    d = next(d for d in ex.departures if d.seat == Seat.Y)
    assert (d.trick, d.rule, d.found_at, str(d.card)) == (4, "lead_table", 4, "JS")
    assert not derived(ex, 4, "presumed: Y has 3 S")
    assert derived(ex, 4, "probably: Y has at least 3 S")


def test_a_demoted_presumption_does_not_take_part_in_the_presumed_rebuild():
    # Hand XXXII, seen by A: Z's departure shows at trick 4 and his earlier
    # presumptions leave the presumed layer; the rebuild of that layer must
    # not try them again (they would make it give up sound ones instead)
    ex = _hand(32)
    assert derived(ex, 4, "presumed: Z holds 9C")
    assert derived(ex, 4, "presumed: Y void C")
