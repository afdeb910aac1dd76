"""The public API, the JSON contract, the command, and stated inferences."""

import gc
import json
import re
from pathlib import Path

import pytest

from whistbook.cards import Card, Suit
from whistbook.cli import main
import whistbook
from whistbook.corpus import check_file
from whistbook.handfile import loads
from whistbook import wording
from whistbook.inference import RULES, Departure, Explanation, Inference, TrickExplanation, explain
from whistbook.inference.statements import StatementError, parse_statement
from whistbook.seats import Seat

ROOT = Path(__file__).resolve().parent.parent
HAND_I = ROOT / "hands" / "cavendish" / "01-trump-lead-on-established-suit.yaml"


@pytest.fixture(scope="module")
def checked():
    return check_file(HAND_I, solver=False)


def test_explain_defaults_to_the_known_hand(checked):
    ex = explain(checked)
    assert isinstance(ex, Explanation) and ex.viewpoint == Seat.A
    assert len(ex.tricks) == len(checked.replay.tricks)
    assert all(isinstance(t, TrickExplanation) for t in ex.tricks)
    assert [t.number for t in ex.tricks] == list(range(1, len(ex.tricks) + 1))
    assert explain(checked, Seat.B).viewpoint == Seat.B


def test_inference_records(checked):
    ex = explain(checked)
    infs = [i for t in ex.tricks for i in t.inferences]
    assert infs and all(isinstance(i, Inference) for i in infs)
    for i in infs:
        assert i.kind in ("void", "holds", "lacks", "count", "signal")
        assert i.certainty in ("certain", "presumed", "probable")
        assert i.rule in RULES and i.page == RULES[i.rule].page
        assert all(isinstance(c, Card) for c in i.cards)
        assert i.suit is None or isinstance(i.suit, Suit)
        assert isinstance(i.rests_on, tuple) and all(isinstance(t, int) for t in i.rests_on)
        said = wording.sentence_text(i)
        assert said.endswith(").") and said.startswith(str(i.seat)) and RULES[i.rule].title.lower()[:10] in said.lower()
    # the book's conclusion at trick 2
    lacks = [i for i in ex.tricks[1].inferences if i.kind == "lacks" and i.seat == Seat.B]
    assert any(Card.parse("KC") in i.cards and i.certainty == "presumed" for i in lacks)


def test_json_contract(checked):
    js = explain(checked).to_json()
    json.dumps(js)
    assert js["viewpoint"] == "A"
    t = js["tricks"][0]
    assert set(t) == {"number", "inferences", "knowledge", "counts"}
    for inf in t["inferences"]:
        assert set(inf) == {"seat", "kind", "cards", "suit", "certainty", "rule", "low", "high", "rests_on"}
    assert set(t["knowledge"]) == {"certain", "presumed"}
    assert set(t["counts"]) == {"certain", "presumed"}
    assert t["knowledge"]["certain"]["2S"] == ["Z"]  # the turned-up card
    for layer in ("certain", "presumed"):
        for card, seats in t["knowledge"][layer].items():
            Card.parse(card)
            assert len(card) == 2 and seats and set(seats) <= {"Y", "B", "Z"}
        assert set(t["counts"][layer]) == {"Y", "B", "Z"}
        for per in t["counts"][layer].values():
            assert set(per) == {"S", "H", "D", "C"}
            assert all(len(r) == 2 and 0 <= r[0] <= r[1] <= 13 for r in per.values())
    # a card the viewer holds, or one already played, is not listed
    assert "KD" not in t["knowledge"]["certain"] and "QD" not in t["knowledge"]["certain"]
    assert isinstance(js["departures"], list)


def test_an_explanation_leaves_no_reference_cycles(checked):
    """explain() moves what it made straight to the oldest generation of the
    cyclic collector, which is sound only while nothing it makes needs that
    collector to be freed (Hand XXVII has departures, so rebuilt layers)."""
    hands = [checked, check_file(ROOT / "hands" / "cavendish" / "27-leading-from-weakest-suit.yaml", solver=False)]
    gc.collect()
    for ch in hands:
        for seat in Seat:
            explain(ch, seat)
    assert gc.collect() == 0


def test_rules_catalogue():
    assert len(RULES) >= 44
    for rid, r in RULES.items():
        assert r.id == rid and r.title and r.description and r.description.endswith(".")
        assert r.page is None or isinstance(r.page, str)


def test_departure_fields():
    d = Departure(5, Seat.Y, "win_cheaply", "Y departed from rule at trick 5", 7)
    assert (d.trick, d.seat, d.rule) == (5, Seat.Y, "win_cheaply")


# ----------------------------------------------------------------- the command

def test_cli_text(capsys):
    assert main(["explain", str(HAND_I), "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "Trick 2:" in out and "B presumably does not hold KC" in out and "presumed" in out


def test_cli_json_as_and_trick(capsys):
    assert main(["explain", str(HAND_I), "--as", "B", "--trick", "3", "--format", "json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["viewpoint"] == "B" and [t["number"] for t in js["tricks"]] == [3]


def test_cli_bad_trick(capsys):
    assert main(["explain", str(HAND_I), "--trick", "40"]) == 2


# ----------------------------------------------------------------- statements

@pytest.mark.parametrize("text, kind, certainty", [
    ("B lacks KC", "lacks", "certain"),
    ("presumed: Y holds KC", "holds", "presumed"),
    ("probably: B holds KH", "holds", "probable"),
    ("as Z: presumed: Y holds AC", "holds", "presumed"),
    ("Y void H", "void", "certain"),
    ("Y has no hearts", "void", "certain"),
    ("presumed: B has 1 C", "count", "presumed"),
    ("B has at least 4 D", "count", "certain"),
    ("Z has at most one spade", "count", "certain"),
    ("B does not hold KC QC", "lacks", "certain"),
])
def test_parse_statement(text, kind, certainty):
    st = parse_statement(text)
    assert (st.kind, st.certainty) == (kind, certainty)


@pytest.mark.parametrize("text", ["B hodls KC", "Q holds KC", "B holds KX", "B has at least x D", "B"])
def test_parse_statement_errors(text):
    with pytest.raises(StatementError):
        parse_statement(text)


HAND_I_TEXT = HAND_I.read_text(encoding="utf-8")
#: Hand I without its own infer: lines, so a test states only its own
HAND_I_BARE = re.sub(r"\n    infer:\n(?:      - .*\n)+", "\n", HAND_I_TEXT)


def with_infer(trick: int, statements: list[str]) -> str:
    lines = HAND_I_BARE.splitlines()
    out = []
    count = 0
    for line in lines:
        out.append(line)
        if line.startswith("  - cards:"):
            count += 1
            if count == trick:
                out.append("    infer: [" + ", ".join(json.dumps(s) for s in statements) + "]")
    return "\n".join(out) + "\n"


def diags(text):
    ch = whistbook.check(loads(text, "hand.yaml"), solver=False)
    return [(d.level, d.message) for d in ch.diagnostics if "trick" in d.message and "infer" not in d.message
            or "inference" in d.message or "follow" in d.message or "derive" in d.message]


def test_stated_inferences_in_validation():
    d = diags(with_infer(2, ["presumed: B lacks KC", "B lacks KC", "presumed: Y lacks QC", "B hodls KC",
                             "presumed: Y holds KH"]))
    levels = [lvl for lvl, _ in d]
    msgs = " | ".join(m for _, m in d)
    assert "'presumed: B lacks KC'" not in msgs.replace("so write 'presumed: B lacks KC'", "")  # derived
    assert any(lvl == "error" and "'B lacks KC' does not follow" in m and "presumed: B lacks KC" in m for lvl, m in d)
    assert any(lvl == "error" and "cannot be true" in m for lvl, m in d)  # Y played the QC
    assert any(lvl == "error" and "hodls" in m for lvl, m in d)
    assert any(lvl == "warning" and "Y holds KH" in m for lvl, m in d)
    assert levels.count("error") == 3


def test_stated_inference_location_points_at_the_statement():
    ch = whistbook.check(loads(with_infer(2, ["B lacks KC"]), "hand.yaml"), solver=False)
    d = [x for x in ch.diagnostics if "does not follow" in x.message][0]
    assert d.loc.line == 23 and d.loc.column > 10


# ----------------------------------------------------------------- rendering

def _inf(kind, certainty, rule, seat, *, suit=None, cards=(), lo=None, hi=None):
    return Inference(Seat.parse(seat), kind, tuple(Card.parse(c) for c in cards), suit, certainty, rule,
                     RULES[rule].page, (), lo, hi)


def test_sentences_and_phrases_from_records():
    assert wording.cards_words([Card.parse("2C"), Card.parse("KC")]) == "the king and two of clubs"
    assert wording.cards_words([Card.parse("AH"), Card.parse("TS")]) == "the ten of spades and the ace of hearts"
    assert wording.page_ref("56") == "p. 56" and wording.page_ref("79-81") == "pp. 79-81"
    assert wording.page_ref("Laws 71-73") == "Laws 71-73"
    one_club = _inf("count", "presumed", "return_count", "B", suit=Suit.CLUBS, lo=1, hi=1)
    assert wording.sentence_text(one_club) == "B presumably has one club left (returning partner's suit, pp. 79-81)."
    assert wording.text(wording.phrase(one_club)) == "presumably 1 ♣ left"
    shown = _inf("void", "certain", "show_out", "Y", suit=Suit.HEARTS)
    assert wording.sentence_text(shown, cite=False) == "Y has shown out of hearts."
    counted = _inf("void", "certain", "count_elimination", "Y", suit=Suit.HEARTS)
    assert wording.sentence_text(counted, cite=False) == "Y has no hearts left."
    four = _inf("count", "probable", "trump_lead_strength", "Z", suit=Suit.SPADES, lo=4)
    assert wording.sentence_text(four, cite=False) == "Z probably has at least four spades left."
    lacks = _inf("lacks", "presumed", "second_hand_low", "B", cards=("QD", "JD"))
    assert wording.text(wording.phrase(lacks)) == "presumably no Q♦ or J♦"
    assert wording.text(wording.sentence(lacks), symbols=False) == "B presumably does not hold QD or JD."


HAND_VII = ROOT / "hands" / "cavendish" / "07-fourth-best-lead-counting.yaml"


@pytest.mark.parametrize("statement, wrong", [
    ("Z showed out of S at trick 3", "trick 3 is led in hearts"),
    ("A showed out of H at trick 3", "A follows with JH at trick 3"),
    ("Z showed out of S at trick 8", None),
    ("B showed out of H at trick 9", "not played yet"),
    ("AH is the best heart", None),
    ("KH is best", "AH is still to be played"),
    ("AC is best", "AC has been played"),
    ("JC is the best club", None),
    ("TC is best", "JC is still to be played"),
    ("4 trumps remain", None),
    ("5 trumps remain", "4 clubs remain in all four hands"),
    ("as Y: 3 clubs are out", None),
    ("2 trumps are out", "4 clubs remain outside Z's hand"),
])
def test_facts_of_the_play_are_checked_on_the_replay(statement, wrong):
    text = HAND_VII.read_text(encoding="utf-8").replace(
        "    tally: 3-5\n", "    tally: 3-5\n    infer: [" + json.dumps(statement) + "]\n", 1)
    found = [d.message for d in whistbook.check(loads(text, "h.yaml"), solver=False).diagnostics]
    if wrong is None:
        assert found == []
    else:
        assert len(found) == 1 and wrong in found[0], found
