"""Checks on whole files: deal, stated tallies, leaders, claims and results."""

import pytest

from whistbook.laws import describe_result
from whistbook.corpus import check_hand, check_file
from whistbook.handfile import loads
from whistbook.seats import Side


@pytest.fixture
def text(hand1_path):
    return hand1_path.read_text(encoding="utf-8")


def run(text, solver=True):
    ch = check_hand(loads(text, "h.yaml"), solver=solver)
    return ch, [str(d) for d in ch.diagnostics if d.level == "error"]


def line_of(text, needle):
    return next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)


def test_hand1_is_clean(text):
    ch, errors = run(text)
    assert errors == []
    assert ch.final_tricks == {Side.AB: 9, Side.YZ: 4}
    assert ch.claim_dd == {Side.AB: 3, Side.YZ: 0}
    assert describe_result(ch.score) == "AB win three by cards"


def test_wrong_tally(text):
    bad = text.replace("tally: 2-3", "tally: 3-2")
    _, errors = run(bad)
    assert errors == [f"h.yaml:{line_of(bad, 'tally: 3-2')}:12: error: after trick 5 the tricks stand AB 2, YZ 3 (trick won by Y), not AB 3, YZ 2"]


def test_stated_leader_and_winner(text):
    bad = text.replace("  - cards: 7S 8S TS AS\n", "  - cards: 7S 8S TS AS\n    leader: A\n    winner: A\n")
    _, errors = run(bad)
    assert len(errors) == 2
    assert "trick 5 is led by B, who won trick 4, not by A" in errors[0]
    assert "trick 5 is won by Y with AS, not by A" in errors[1]


def test_turn_up_must_be_with_dealer(text):
    bad = text.replace("turn_up: 2S", "turn_up: 3S")
    _, errors = run(bad)
    assert errors == [f"h.yaml:{line_of(bad, 'turn_up')}:10: error: the turned-up card 3S must be in the dealer's hand (Z deals), but it is in A's hand"]


def test_card_in_two_hands(text):
    bad = text.replace("Y: ♠ A 6 4", "Y: ♠ A Q 4")
    _, errors = run(bad)
    ln = line_of(bad, "Y: ♠ A Q 4")
    assert errors == [f"h.yaml:{ln}:10: error: deal: QS is in Y's hand and also in A's hand (line {ln - 1})"]
    # one error, at the card: Y still holds 13 cards, and the missing 6S is not blamed on anyone's count


def test_claim_beyond_best_defence_is_an_error(text):
    bad = text.replace("claim: {AB: 3}", "claim: {AB: 3, YZ: 1}")
    _, errors = run(bad)
    assert "does not share out the 3 tricks left" in errors[0]
    # Drop the whole ending block (account, notes, claim), whatever its wording.
    bad = text[: text.index("\nending:\n") + 1] + text[text.index("\nresult:") + 1 :]
    assert "claim:" not in bad
    _, errors = run(bad)
    assert "the play stops after trick 10 with 3 tricks to go" in errors[0]


def test_claim_checked_by_solver(text):
    # Stop Hand I after trick 8: A leads with five cards left. AB take only
    # four of them against best play, so a claim for five is refused...
    cut = text[: text.index("  - cards: KD TD 8D JS")]
    ending = "ending:\n  claim: {AB: %d}\nresult: AB win three by cards\n"
    _, errors = run(cut + ending % 5)
    assert "the claim gives AB 5 of the last 5 tricks, but best defence holds AB to 4" in errors[0]
    # ... a claim for four is right, and a claim for three is a note, not an error.
    ch, errors = run(cut + ending % 4)
    assert errors == []
    ch, errors = run(cut + "ending:\n  claim: {AB: 3}\nresult: AB win two by cards\n")
    assert errors == [] and any("with best play AB can take 4" in d.message for d in ch.diagnostics)


def test_result_mismatches(text):
    _, errors = run(text.replace("result: AB win three by cards", "result: AB win two by cards"))
    assert "the tricks give AB 3 by cards (AB 9, YZ 4 tricks), not AB 2" in errors[0]
    _, errors = run(text.replace("result: AB win three by cards", "result: AB win three by cards and the game"))
    assert "does not end the game" in errors[0]
    _, errors = run(text.replace("result: AB win three by cards", "result: AB win three by cards and two by honours"))
    assert "AB score 0 by honours, not 2 (AB held 2 honours)" in errors[0]


def test_unshown_tricks_must_follow_shown(text):
    bad = text.replace("  - cards: 5D 3D JD 6D\n", "  - cards: 5D 3D JD 6D\n    shown: false\n")
    _, errors = run(bad)
    assert "trick 8 is shown but trick 7 before it is not" in errors[0]


def test_file_that_cannot_load_gives_diagnostics(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("title: [\n", encoding="utf-8")
    ch = check_file(p)
    assert not ch.ok and str(ch.diagnostics[0]).startswith(f"{p}:2:1: error: a '[' or '{{' is not closed")
