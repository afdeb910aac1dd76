"""The loader: every schema problem is reported with its line and column."""

import pytest

from whistbook.errors import HandFileError, YamlSyntaxError
from whistbook.handfile import loads, problems_of
from whistbook.handfile_parts import parse_result
from whistbook.seats import Seat, Side

GOOD = """\
title: T
turn_up: 2S
deal:
  A: ♠ Q T 5 3  ♥ A  ♣ A 7 6 3  ♦ K J 9 2
  Y: {S: A64, H: J98742, C: Q, D: T64}
  B: S K7 H KQ65 C J94 D Q875
  Z: ♠ J 9 8 2  ♥ T 3  ♣ K T 8 5 2  ♦ A 3
tricks:
  - 2D 4D QD AD
  - [5C, 3C, QC, 4C]
  - cards: 7H QH 3H AH
    tally: {AB: 1, YZ: 2}
ending:
  claim: {AB: 10}
result: AB win the odd trick
"""


def problems(text):
    with pytest.raises(HandFileError) as err:
        loads(text, "h.yaml")
    return [str(p) for p in problems_of(err.value)]


def test_good_file_and_defaults():
    hf = loads(GOOD, "h.yaml")
    assert hf.dealer is Seat.Z and hf.leader is Seat.A and hf.kind == "hand"
    assert hf.score is None and hf.rules == "short"
    assert len(hf.deal[Seat.Y]) == 13 and len(hf.tricks) == 3
    assert [str(r.card) for r in hf.tricks[1].plays] == ["5C", "3C", "QC", "4C"]
    assert hf.tricks[2].tally.value == {Side.AB: 1, Side.YZ: 2}
    # each card of a one-line trick is located at its own column
    locs = [(r.loc.line, r.loc.column) for r in hf.tricks[0].plays]
    assert locs == [(9, 5), (9, 8), (9, 11), (9, 14)]
    # a card in a hand line is located too
    qs = hf.deal[Seat.A][0]
    assert (str(qs.card), qs.loc.line, qs.loc.column) == ("QS", 4, 8)


def test_unknown_key_is_an_error_with_a_hint():
    out = problems(GOOD.replace("title: T", "title: T\ntheem: x"))
    assert out == ["h.yaml:2:1: the hand file: unknown key 'theem' (did you mean 'theme'?)"]


def test_unknown_trick_key():
    out = problems(GOOD.replace("    tally: {AB: 1, YZ: 2}", "    talley: 1-2"))
    assert out == ["h.yaml:12:5: trick 3: unknown key 'talley' (did you mean 'tally'?)"]


def test_bad_card_in_trick_is_located():
    out = problems(GOOD.replace("  - 2D 4D QD AD", "  - 2D 4D ZD AD"))
    assert len(out) == 1 and out[0].startswith("h.yaml:9:11: 'ZD' is not a card")


def test_bad_rank_in_hand_is_located():
    out = problems(GOOD.replace("♣ K T 8 5 2", "♣ K X 8 5 2"))
    assert len(out) == 1 and out[0].startswith("h.yaml:7:28: 'X")


def test_all_problems_are_collected():
    text = GOOD.replace("title: T\n", "").replace("turn_up: 2S", "turn_up: 2Q").replace("result: AB win the odd trick", "result: AB win lots")
    out = problems(text)
    assert any("missing key 'title'" in p for p in out)
    assert any(p.startswith("h.yaml:1:10: '2Q' is not a card") for p in out)
    assert any("result 'AB win lots'" in p for p in out)
    assert len(out) == 3


def test_yaml_syntax_error_is_located():
    with pytest.raises(YamlSyntaxError) as err:
        loads("title: [unclosed\n", "h.yaml")
    assert str(err.value) == "h.yaml:1:8: this '[' is not closed: end it with ']'"


def test_dealer_and_leader():
    hf = loads(GOOD.replace("title: T", "title: T\ndealer: A"), "h.yaml")
    assert hf.leader is Seat.Y
    out = problems(GOOD.replace("title: T", "title: T\ndealer: A\nleader: B"))
    assert "A deals, so Y leads, not B" in out[0]


def test_empty_and_non_mapping():
    assert problems("") == ["h.yaml:1:1: the file is empty (expected a hand: title, deal, tricks...)"]
    assert problems("- a\n- b\n")[0].startswith("h.yaml:1:1: the hand file must be a mapping")


@pytest.mark.parametrize("text,expected", [
    ("AB win three by cards", (Side.AB, 3, {}, None)),
    ("YZ win the odd trick", (Side.YZ, 1, {}, None)),
    ("AB win two by cards and two by honours, and the game", (Side.AB, 2, {Side.AB: 2}, True)),
    ("AB win the odd trick; YZ score four by honours", (Side.AB, 1, {Side.YZ: 4}, None)),
    ("YZ win 4 by cards and the game", (Side.YZ, 4, {}, True)),
])
def test_results(text, expected):
    assert parse_result(text) == expected
