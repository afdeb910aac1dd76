"""Less to type (issue 23, item 1): the fourth hand as ``rest`` or left out,
a missing hand's error naming the cards left, and forced cards left out of a
trick."""

import pytest

from whistbook.cards import Card
from whistbook.corpus import check_hand
from whistbook.errors import HandFileError
from whistbook.handfile import loads, problems_of
from whistbook.seats import Seat


@pytest.fixture
def text(hand1_path):
    return hand1_path.read_text(encoding="utf-8")


Z_LINE = "  Z: ♠ J 9 8 2  ♥ T 3  ♣ K T 8 5 2  ♦ A 3\n"


def errors(text):
    checked = check_hand(loads(text, "h.yaml"))
    return checked, [str(d) for d in checked.diagnostics if d.level == "error"]


def test_the_fourth_hand_written_rest_is_the_cards_the_others_leave(text):
    full = loads(text, "h.yaml")
    checked, errs = errors(text.replace(Z_LINE, "  Z: rest\n"))
    assert errs == [] and checked.hand.rest is Seat.Z
    assert sorted(r.card for r in checked.hand.deal[Seat.Z]) == sorted(r.card for r in full.deal[Seat.Z])
    assert checked.final_tricks == check_hand(full).final_tricks


def test_the_fourth_hand_may_be_left_out_and_may_be_any_seat(text):
    a_line = next(line + "\n" for line in text.splitlines() if line.startswith("  A: "))
    for written in (text.replace(Z_LINE, ""), text.replace(a_line, "  A: Rest\n"), text.replace(a_line, "")):
        assert errors(written)[1] == []


def test_rest_leaves_the_turn_up_to_be_checked(text):
    _, errs = errors(text.replace(Z_LINE, "  Z: rest\n").replace("turn_up: 2S", "turn_up: 4S"))
    assert errs == ["h.yaml:8:10: error: the turned-up card 4S must be in the dealer's hand (Z deals), but it is in Y's hand"]


def test_a_written_hand_at_fault_is_reported_not_the_rest(text):
    short = text.replace(Z_LINE, "  Z: rest\n").replace("B: ♠ K 7  ♥ K Q 6 5", "B: ♠ K 7  ♥ K Q 6")
    _, errs = errors(short)
    assert errs == ["h.yaml:12:8: error: deal: B holds 12 cards; each hand is dealt 13"]


def test_two_hands_missing_name_the_cards_no_hand_holds(text):
    y_line = next(line + "\n" for line in text.splitlines() if line.startswith("  Y: "))
    _, errs = errors(text.replace(Z_LINE, "").replace(y_line, ""))
    assert errs == ["h.yaml:9:1: error: deal: Y's and Z's hands are missing: the 26 cards no hand holds are "
                    "♠ A J 9 8 6 4 2  ♥ J T 9 8 7 4 3 2  ♦ A T 6 4 3  ♣ K Q T 8 5 2; write three hands, and the "
                    "fourth as 'rest' (or leave it out)"]


def test_only_one_hand_may_be_rest(text):
    y_line = next(line + "\n" for line in text.splitlines() if line.startswith("  Y: "))
    with pytest.raises(HandFileError) as err:
        loads(text.replace(Z_LINE, "  Z: rest\n").replace(y_line, "  Y: rest\n"), "h.yaml")
    assert [str(p) for p in problems_of(err.value)] == [
        "h.yaml:13:6: deal: only one hand may be 'rest' (the cards the other three do not hold), not Y and Z"]


def test_a_forced_card_left_out_is_played_and_located_at_its_trick(text):
    # trick 3: Y leads 7H, B QH, Z 3H, and A must play his bare ace
    short = text.replace("cards: 7H QH 3H AH", "cards: 7H QH 3H")
    checked, errs = errors(short)
    assert errs == []
    trick3 = checked.hand.tricks[2]
    assert [r.card for r in trick3.plays] == [Card.parse(c) for c in ("7H", "QH", "3H", "AH")]
    assert trick3.plays[3].loc == trick3.loc
    assert checked.final_tricks == check_hand(loads(text, "h.yaml")).final_tricks


def test_a_card_that_was_a_choice_cannot_be_left_out(text):
    _, errs = errors(text.replace("cards: 7H QH 3H AH", "cards: 7H QH AH"))
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "cards: 7H QH 3H AH" in l)
    assert errs == [f"h.yaml:{line}:18: error: trick 3: Z's card is not written, and only a forced card (a player's "
                    "one legal card) may be left out: Z could play TH 3H"]


def test_the_schema_takes_rest_and_a_short_trick(text):
    import json

    import yaml

    from whistbook.schema import SCHEMA_PATH

    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(yaml.safe_load(text.replace(Z_LINE, "  Z: rest\n").replace("7H QH 3H AH", "7H QH 3H")), schema)
    jsonschema.validate(yaml.safe_load(text.replace(Z_LINE, "")), schema)
