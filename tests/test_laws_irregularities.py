"""The laws in play: irregularities recorded in a hand file, applied as the
club code directs, their penalties in the score, and long whist's call of
honours at eight. Constructed hands are made from the real files in
hands/laws/ by editing their text, so each test changes one thing."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import HANDS, random_deal, write_hand
from whistbook.cards import Card
from whistbook.errors import WhistbookError
from whistbook.handfile import loads, problems_of
from whistbook.laws import check
from whistbook.play import legal_plays, winner_of
from whistbook.scoring import score_hand
from whistbook.seats import SEATS, Seat, Side
from whistbook.textview import render_text, to_json

LAWS = HANDS / "laws"
REVOKE = LAWS / "01-revoke-three-tricks.yaml"


def text_of(name: str) -> str:
    return next(LAWS.glob(name)).read_text(encoding="utf-8")


def checked(text: str, solver: bool = False):
    return check(loads(text, "h.yaml"), solver=solver)


def errors(text: str, solver: bool = False) -> list[tuple[int, int, str]]:
    """Located errors, loader problems included; never a traceback."""
    try:
        hf = loads(text, "h.yaml")
    except WhistbookError as err:
        return [(e.loc.line, e.loc.column, e.message) for e in problems_of(err)]
    ch = check(hf, solver=solver)
    return [(d.loc.line, d.loc.column, d.message) for d in ch.diagnostics if d.level == "error"]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def no_result(text: str) -> str:
    return re.sub(r"(?m)^result:.*\n", "", text)


# --- the bar: a revoke validates only when it is recorded --------------------------------


def test_every_laws_and_clay_file_validates():
    files = sorted(LAWS.glob("*.yaml")) + sorted((HANDS / "clay").glob("*.yaml"))
    assert len(list(LAWS.glob("*.yaml"))) >= 4 and len(list((HANDS / "clay").glob("*.yaml"))) >= 3
    from whistbook.corpus import check_file

    for path in files:
        ch = check_file(path)
        assert ch.ok, (path, [d.message for d in ch.diagnostics])


def test_deleting_the_revoke_record_makes_the_file_fail():
    text = REVOKE.read_text(encoding="utf-8")
    assert errors(text, solver=True) == []
    cut = "\n".join(line for line in text.splitlines() if not line.strip().startswith("revoke:")) + "\n"
    errs = errors(cut)
    assert len(errs) == 1
    line, col, msg = errs[0]
    assert "Y revokes, playing 2C to a spade lead while holding AS" in msg
    assert line == line_of(cut, "4S 2C 2S 6S") and cut.splitlines()[line - 1][col - 1:col + 1] == "2C"


# --- Law 72: the three penalties, scored first ---------------------------------------------


def test_revoke_penalty_three_tricks_gives_the_game():
    ch = checked(REVOKE.read_text(encoding="utf-8"))
    assert ch.ok
    sc = ch.score
    assert sc.penalties == ((Side.YZ, "tricks"),)
    assert sc.tricks_played == {Side.AB: 8, Side.YZ: 5} and sc.tricks == {Side.AB: 11, Side.YZ: 2}
    assert sc.after == {Side.AB: 5, Side.YZ: 0} and sc.game == Side.AB and sc.game_value == 3


@pytest.mark.parametrize("penalty, after, game", [
    ("add", {Side.AB: 5, Side.YZ: 0}, Side.AB),     # three, then two by cards
    ("deduct", {Side.AB: 4, Side.YZ: 0}, None),     # YZ at love lose nothing; AB two by cards and two by honours
    ("none", {Side.AB: 4, Side.YZ: 0}, None),       # not claimed: the play stands as it fell
])
def test_revoke_penalty_each_option(penalty, after, game):
    text = no_result(REVOKE.read_text(encoding="utf-8")).replace("penalty: tricks}", f"penalty: {penalty}}}")
    ch = checked(text)
    assert ch.ok, [d.message for d in ch.diagnostics]
    assert ch.score.after == after and ch.score.game == game
    assert ch.score.tricks == {Side.AB: 8, Side.YZ: 5}


def test_law_72_example_adding_three_ends_the_game_before_the_tricks():
    # claimants at two, revokers at love who took all thirteen tricks and four honours
    sc = score_hand({Side.AB: 0, Side.YZ: 13}, {Side.AB: 0, Side.YZ: 4}, {Side.AB: 2, Side.YZ: 0}, "short", [(Side.YZ, "add")])
    assert sc.after == {Side.AB: 5, Side.YZ: 0} and sc.game == Side.AB and sc.game_value == 3
    assert sc.honours_points == {Side.AB: 0, Side.YZ: 0}


def test_revoking_side_cannot_win_the_game_or_pass_four():
    sc = score_hand({Side.AB: 13, Side.YZ: 0}, {Side.AB: 4, Side.YZ: 0}, {Side.AB: 3, Side.YZ: 0}, "short", [(Side.AB, "deduct")])
    assert sc.after[Side.AB] == 4 and sc.game is None  # 3 - 3 = 0, then seven by cards, held at four
    sc = score_hand({Side.AB: 13, Side.YZ: 0}, {Side.AB: 2, Side.YZ: 2}, None, "short", [(Side.AB, "none")])
    assert sc.after[Side.AB] == 7 and sc.game == Side.AB  # an unclaimed revoke costs nothing


def test_take_three_from_a_side_with_fewer_and_deduct_below_love():
    sc = score_hand({Side.AB: 11, Side.YZ: 2}, {Side.AB: 2, Side.YZ: 2}, None, "short", [(Side.YZ, "tricks")])
    assert sc.tricks == {Side.AB: 13, Side.YZ: 0}  # only the two they won can be taken
    sc = score_hand({Side.AB: 6, Side.YZ: 7}, {Side.AB: 2, Side.YZ: 2}, {Side.AB: 1, Side.YZ: 0}, "short", [(Side.AB, "deduct")])
    assert sc.after == {Side.AB: 0, Side.YZ: 1}


def test_both_sides_revoking_neither_wins_the_game():
    # Law 81: each side pays its own penalty, and neither can win the game on the hand
    sc = score_hand({Side.AB: 13, Side.YZ: 0}, {Side.AB: 4, Side.YZ: 0}, {Side.AB: 2, Side.YZ: 3}, "short",
                    [(Side.AB, "add"), (Side.YZ, "add")])
    assert sc.after == {Side.AB: 4, Side.YZ: 4} and sc.game is None


def test_clays_case_three_a_side_at_four_cannot_recover_its_honours():
    ch = checked(text_of("05-*.yaml"))
    assert ch.ok
    sc = ch.score
    assert sc.before == {Side.AB: 4, Side.YZ: 0} and sc.after == {Side.AB: 1, Side.YZ: 1}
    assert sc.honours_held[Side.AB] == 3 and sc.honours_points[Side.AB] == 0
    assert "began the hand at 4" in sc.honours_unscored[Side.AB]


# --- Laws 71, 73 and 76: what is a revoke, and its correction -------------------------------


def test_an_established_revoke_cannot_take_a_law_76_remedy():
    text = REVOKE.read_text(encoding="utf-8").replace("penalty: tricks}", "penalty: highest}")
    errs = errors(text)
    line = line_of(text, "revoke: {card: 2C")
    assert errs[0][:2] == (line, text.splitlines()[line - 1].index("highest") + 1)
    assert "Law 72" in errs[0][2] and "Law 76" in errs[0][2]


def test_a_recorded_revoke_must_be_one():
    text = REVOKE.read_text(encoding="utf-8").replace("- cards: 5D 2D 3D 4D\n", "- cards: 5D 2D 3D 4D\n    revoke: {card: 2D, penalty: add}\n")
    errs = errors(text)
    line = line_of(text, "card: 2D")
    assert [(ln, m) for ln, _, m in errs] == [(line, "trick 1: Y's 2D is not a revoke: it follows suit to the diamond lead")]


def test_corrected_revoke_and_its_remedies():
    base = text_of("02-*.yaml")
    ch = checked(base)
    assert ch.ok and [r.kind for r in ch.rulings] == ["revoke-corrected"]
    assert ch.rulings[0].penalty == "highest" and ch.score.penalties == ()  # no tricks or points for it
    # lowest: Y must then play the four of spades, not the ace
    errs = errors(base.replace("penalty: highest", "penalty: lowest"))
    assert any("must play 4S, not AS" in m for _, _, m in errs)
    # the three-trick penalty belongs to an established revoke only
    errs = errors(base.replace("penalty: highest", "penalty: tricks"))
    assert any("Law 76" in m and "costs no tricks" in m for _, _, m in errs)
    # left exposed: the diamond is then callable, and a call makes Y play it when he may
    exposed = no_result(base.replace("penalty: highest", "penalty: exposed").replace("cards: 2S 3S 9S AS", "cards: 2S 3S 9S QS"))
    ch = checked(exposed)
    assert ch.ok and "3D" in {str(c) for r in ch.rulings for c in r.cards}


# --- Laws 56, 64, 65: exposed and called cards -----------------------------------------------


def test_called_card_must_be_played():
    base = text_of("04-*.yaml")
    ch = checked(base)
    assert ch.ok and [r.kind for r in ch.rulings] == ["exposed", "call-card"]
    # calling a card that was never exposed
    errs = errors(base.replace("call: QH", "call: 9H").replace("cards: KH 2H 6H QH", "cards: KH 2H 6H 9H"))
    assert any("only an exposed card is liable to be called" in m for _, _, m in errs)


def test_a_call_never_forces_a_revoke():
    base = text_of("04-*.yaml")
    # Z's exposed spade cannot be called to a heart lead while he holds hearts
    text = base.replace("exposed: {cards: QH", "exposed: {cards: JS").replace("call: QH", "call: JS")
    text = text.replace("cards: KH 2H 6H QH", "cards: KH 2H 6H 5H")
    errs = errors(no_result(text))
    line = line_of(text, "call: JS")
    assert any(ln == line and "would force Z to revoke" in m and "Law 64" in m for ln, _, m in errs)


# --- Laws 62, 63, 66: a lead out of turn and a suit called --------------------------------------


def test_suit_called_after_a_lead_out_of_turn():
    base = text_of("03-*.yaml")
    ch = checked(base)
    assert ch.ok and [r.kind for r in ch.rulings] == ["out-of-turn", "call-suit"]
    # a suit called must be led when the leader holds it
    errs = errors(base.replace("call: {suit: H}", "call: {suit: S}"))
    assert any("spades were called, so A must lead one, not 2H" in m for _, _, m in errs)
    # no lead out of turn, no suit to call
    errs = errors(base.replace("    out_of_turn: {card: AS, penalty: suit}\n", ""))
    assert any("no suit may be called from A" in m for _, _, m in errs)
    # the card must be led out of turn, not by the player whose lead it is
    errs = errors(base.replace("card: AS, penalty: suit", "card: KS, penalty: suit"))
    assert any("A has the lead, so KS is not led out of turn" in m for _, _, m in errs)
    # Laws 62-63 give no trick penalty
    errs = errors(base.replace("card: AS, penalty: suit", "card: AS, penalty: tricks"))
    assert any("Laws 62-63" in m for _, _, m in errs)


def test_a_trick_stands_when_all_three_played_to_the_false_lead():
    base = no_result(text_of("03-*.yaml"))
    stood = base.replace("cards: 2H TH AH 4H", "cards: AS 2S 5S 3S").replace(
        "out_of_turn: {card: AS, penalty: suit}\n    call: {suit: H}", "out_of_turn: {card: AS, stands: true}")
    ch = checked(stood)
    assert ch.ok, [d.message for d in ch.diagnostics]
    t3 = ch.replay.tricks[2]
    assert (t3.leader, t3.winner) == (Seat.B, Seat.B)
    assert [(r.kind, r.penalty, r.laws) for r in ch.rulings] == [("out-of-turn", "stands", (63,))]
    # Law 63 leaves no penalty to choose
    errs = errors(stood.replace("stands: true}", "stands: true, penalty: exposed}"))
    assert any("Law 63" in m and "no penalty" in m for _, _, m in errs)
    # without the record, B's ace is simply played out of turn
    errs = errors(stood.replace("    out_of_turn: {card: AS, stands: true}\n", ""))
    assert any("it is A's turn to play, but AS is in B's hand" in m for _, _, m in errs)


def test_unknown_keys_in_an_event_stay_errors():
    text = REVOKE.read_text(encoding="utf-8").replace("revoke: {card: 2C, penalty: tricks}", "revoke: {card: 2C, penality: tricks}")
    errs = errors(text)
    assert any("unknown key 'penality'" in m and "penalty" in m for _, _, m in errs)


# --- show and JSON --------------------------------------------------------------------------


def test_show_and_json_carry_the_irregularity_and_the_penalty():
    ch = checked(REVOKE.read_text(encoding="utf-8"))
    out = render_text(ch)
    assert "Y revokes: he plays 2♣ to a spade lead" in out and "Law 72" in out
    assert "Tricks as played: AB 8, YZ 5." in out
    data = to_json(ch)
    t2 = data["tricks"][1]["irregularities"][0]
    assert (t2["kind"], t2["seat"], t2["cards"], t2["penalty"]) == ("revoke", "Y", ["2C"], "tricks")
    assert 72 in t2["laws"] and "irregularities" not in data["tricks"][0]
    assert data["result"]["penalties"] == [{"revoked": "YZ", "penalty": "tricks"}]
    json.dumps(data)


# --- long whist: calling honours at eight ----------------------------------------------------


def long_hand(score: str, call: str = "", claim: int = 6) -> str:
    """Hand 01's deal at long whist, one trick written and the rest claimed:
    A holds two honours (K J of spades), B one (Q), Y the ace."""
    text = REVOKE.read_text(encoding="utf-8")
    head, _, _ = text.partition("tricks:")
    head = head.replace("score: love-all", f"rules: long\nscore: {score}")
    return head + call + f"tricks:\n  - cards: 5D 2D 3D 4D\nending:\n  claim: {{AB: {claim}}}\n"


def test_long_whist_honours_called_at_eight_score_before_tricks():
    ch = checked(long_hand("{AB: 8, YZ: 3}", "honours_call: {by: A, answer: yes}\n"))
    assert ch.ok, [d.message for d in ch.diagnostics]
    sc = ch.score
    assert sc.honours_called == Side.AB and sc.honours_points[Side.AB] == 2
    assert sc.after == {Side.AB: 10, Side.YZ: 3} and sc.game == Side.AB  # the odd trick is never scored
    assert sc.game_value is None  # the seeds give no long-whist game values
    # not called: the odd trick first, then the honours
    sc = checked(long_hand("{AB: 8, YZ: 3}")).score
    assert sc.honours_called is None and sc.after == {Side.AB: 11, Side.YZ: 3}


def test_long_whist_calling_rules():
    # at nine honours do not count, and there is nothing to call
    errs = errors(long_hand("{AB: 9, YZ: 3}", "honours_call: {by: A, answer: yes}\n"))
    assert any("only at the score of eight" in m and "at nine honours do not count" in m for _, _, m in errs)
    sc = checked(long_hand("{AB: 9, YZ: 3}", claim=5)).score
    assert sc.honours_points[Side.AB] == 0 and "began the hand at 9" in sc.honours_unscored[Side.AB]
    # the partner's answer must be true
    errs = errors(long_hand("{AB: 8, YZ: 3}", "honours_call: {by: A, answer: no}\n"))
    assert any("B holds 1 honour, so his answer is yes" in m for _, _, m in errs)
    # a player with one honour may not call
    errs = errors(long_hand("{AB: 8, YZ: 3}", "honours_call: {by: B, answer: yes}\n"))
    assert any("B holds 1 honour" in m for _, _, m in errs)
    # and short whist has no calling
    text = long_hand("{AB: 3, YZ: 3}", "honours_call: {by: A, answer: yes}\n").replace("rules: long\n", "")
    errs = errors(text)
    line = line_of(text, "honours_call:")
    assert any(ln == line and "belongs to long whist" in m for ln, _, m in errs)


# --- property: one card changed into a revoke ------------------------------------------------

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def play_with_revoke(seed: int):
    """A random legal play in which one follower, once, plays another suit
    while holding the suit led; None if the deal offers no chance."""
    rng = random.Random(seed)
    deal = random_deal(rng)
    turn_up = rng.choice(deal[Seat.Z])
    trumps = turn_up.suit
    hands = {s: list(deal[s]) for s in SEATS}
    at = rng.randrange(12)
    leader, tricks, revoke = Seat.A, [], None
    for ti in range(13):
        played: list[Card] = []
        for seat in leader.iter_from():
            options = legal_plays(hands[seat], played[0].suit if played else None)
            others = [c for c in hands[seat] if played and c.suit != played[0].suit]
            if ti == at and played and revoke is None and others and len(options) < len(hands[seat]) \
                    and options[0].suit == played[0].suit:
                c = rng.choice(others)
                revoke = (ti, c)
            else:
                c = rng.choice(options)
            hands[seat].remove(c)
            played.append(c)
        tricks.append(played)
        leader = Seat(winner_of(played, leader, int(trumps)))
    return (deal, turn_up, tricks, revoke) if revoke else None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(SEEDS, st.sampled_from(["tricks", "add", "deduct", "none"]))
def test_a_revoke_validates_only_when_recorded(seed, penalty):
    made = play_with_revoke(seed)
    if made is None:
        return
    deal, turn_up, tricks, (ti, card) = made
    w = write_hand(deal, turn_up, tricks)
    errs = errors(w.text)
    assert len(errs) == 1 and errs[0][0] == w.trick_line[ti] and "revokes" in errs[0][2]
    lines = w.text.splitlines()
    lines.insert(w.trick_line[ti], f"    revoke: {{card: {card}, penalty: {penalty}}}")
    assert errors("\n".join(lines) + "\n") == []


# --- what the inference engine may conclude from irregular plays ----------------------------


def test_a_recorded_revoke_shows_no_void_and_a_forced_card_no_choice():
    from whistbook.inference import explain

    ex = explain(checked(REVOKE.read_text(encoding="utf-8")))
    t2 = ex.tricks[1]
    # Y threw a club to a spade lead while holding the ace: no certain void in spades
    assert not [i for i in t2.inferences if i.certainty == "certain" and i.seat == Seat.Y and i.kind == "void"]
    ex = explain(checked(text_of("04-*.yaml")))
    # Z's queen of hearts was called: nothing is presumed from his playing it
    assert not [i for i in ex.tricks[2].inferences if i.seat == Seat.Z]
