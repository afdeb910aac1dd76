"""``whistbook annotate`` (issue 23, item 3): drafts from the engines' records,
written into the file without losing a comment or an author's remark, shown
as drafts by validate and the lessons."""

from pathlib import Path

import pytest

from whistbook.annotate import DRAFT_KEY, Unplaceable, drafts, open_tricks, records_of, write_drafts
from whistbook.annotate.moments import Moment, Records, chosen
from whistbook.annotate.splice import splice
from whistbook.annotate.words import markup, sentence
from whistbook.cards import Card
from whistbook.cli import main
from whistbook.corpus import check_file, check_hand
from whistbook.handfile import loads
from whistbook.seats import Seat

ROOT = Path(__file__).resolve().parent.parent
HANDS = sorted((ROOT / "hands").rglob("*.yaml"))


def only_added(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with lines added, and at most 'cards: ' put in front of a bare trick:
    the old lines are found in the new, in order."""
    olds = iter(old.splitlines())
    want = next(olds, None)
    for line in new.splitlines():
        if want is not None and line in (want, want.replace("- ", "- cards: ", 1)):
            want = next(olds, None)
    return want is None


def same_but_drafts(a, b) -> bool:
    """Two loaded hand files alike in everything but their draft remarks."""
    def facts(hf):
        return (hf.title, hf.theme, {s: [r.card for r in v] for s, v in hf.deal.items()},
                [([r.card for r in t.plays], t.remark, t.note, [s.value for s in t.infer], t.shown) for t in hf.tricks],
                hf.ending and (hf.ending.account, hf.ending.claim), hf.result and hf.result.text, hf.notes)
    return facts(a) == facts(b)


@pytest.mark.parametrize("path", HANDS, ids=lambda p: p.relative_to(ROOT / "hands").as_posix())
def test_a_draft_at_every_open_trick_loses_no_comment_and_no_remark(path):
    text = path.read_text(encoding="utf-8")
    hand = loads(text, str(path))
    if hand.kind == "problem":
        pytest.skip("a problem has no tricks to remark on")
    free = open_tricks(hand)
    new = splice(text, {n - 1: f"Draft at trick {n}: {{KH}} (p. 82)." for n in free}, str(path))
    assert only_added(text, new)
    for line in text.splitlines():  # every comment is still there, on its line
        if "#" in line:
            assert line in new.splitlines() or line.replace("- ", "- cards: ", 1) in new.splitlines()
    back = loads(new, str(path))
    assert same_but_drafts(hand, back)
    assert {t.number for t in back.tricks if t.remark_draft} == free
    assert all(t.remark_draft.startswith(f"Draft at trick {t.number}: {{KH}} (p. 82).") for t in back.tricks if t.number in free)


def test_the_forms_of_a_trick_each_take_a_draft():
    text = ("title: T\nturn_up: 2S\ndeal: {}\ntricks:\n"
            "  - 2D 4D QD AD   # a bare trick\n"
            "  - [5C, 3C, QC, 4C]\n"
            "  - {cards: 7H QH 3H AH, tally: 1-2}\n"
            "  - cards: 3S 4S KS 2S\n    # a comment inside\n    note: kept\n"
            "  - cards: 7S 8S TS AS\n    tally: 2-3\n")
    new = splice(text, {i: f"Draft {i + 1}, with: a colon." for i in range(5)}, "h.yaml")
    assert new == ("title: T\nturn_up: 2S\ndeal: {}\ntricks:\n"
                   "  - cards: 2D 4D QD AD   # a bare trick\n    remark_draft: |\n      Draft 1, with: a colon.\n"
                   "  - cards: [5C, 3C, QC, 4C]\n    remark_draft: |\n      Draft 2, with: a colon.\n"
                   "  - {cards: 7H QH 3H AH, tally: 1-2, remark_draft: \"Draft 3, with: a colon.\"}\n"
                   "  - cards: 3S 4S KS 2S\n    remark_draft: |\n      Draft 4, with: a colon.\n"
                   "    # a comment inside\n    note: kept\n"
                   "  - cards: 7S 8S TS AS\n    tally: 2-3\n    remark_draft: |\n      Draft 5, with: a colon.\n")


def test_a_file_with_windows_line_ends_keeps_them(hand1_path):
    text = hand1_path.read_text(encoding="utf-8").replace("\n", "\r\n")
    hand = loads(text.replace("\r\n", "\n"), "h.yaml")
    new, written = write_drafts(text, "h.yaml", hand, [type("D", (), {"trick": 6, "text": "New."})()])
    assert [d.trick for d in written] == [6] and "\n" not in new.replace("\r\n", "")
    assert loads(new.replace("\r\n", "\n"), "h.yaml").tricks[5].remark_draft == "New.\n"


def test_a_trick_written_as_a_block_list_is_refused_with_a_reason():
    with pytest.raises(Unplaceable) as err:
        splice("tricks:\n  -\n    - 2D\n    - 4D\n", {0: "x"}, "h.yaml")
    assert "write it as 'cards: ...'" in err.value.message


def test_an_authors_remark_and_an_earlier_draft_are_never_replaced(hand1_path):
    text = hand1_path.read_text(encoding="utf-8").replace(
        "  - cards: 8H KH TH 6C\n", "  - cards: 8H KH TH 6C\n    remark_draft: My own words now.\n")
    hand = loads(text, "h.yaml")
    everything = [type("D", (), {"trick": n, "text": "New."})() for n in range(1, 11)]
    new, written = write_drafts(text, "h.yaml", hand, everything)
    back = loads(new, "h.yaml")
    assert [d.trick for d in written] == [7, 8]  # the others have a remark, trick 6 a draft
    assert [t.remark for t in back.tricks] == [t.remark for t in hand.tricks]
    assert back.tricks[5].remark_draft == "My own words now."


def test_drafts_are_made_from_records_and_cite_the_page(hand1_path):
    checked = check_file(hand1_path, solver=False)
    records = records_of(checked, judge=False)
    found = drafts(records)
    assert found and all(d.moments for d in found)
    for d in found:
        assert "p. " in d.text or "pp. " in d.text or "Laws" in d.text, d.text
        assert d.text == " ".join(sentence(m, frozenset(checked.replay.hands[Seat.A]) | {
            p.card for t in checked.replay.tricks[:d.trick] for p in t.plays}) for m in d.moments)


class _Loss:
    tricks, result = 0.7, None


class _Best:
    cards = (Card.parse("KC"),)


class _Principle:
    rule, cards = "second_hand_low", (Card.parse("4C"),)


class _Judged:
    verdict, loss, best, principle, follows_principle = "mistake", _Loss(), _Best(), _Principle(), False


def test_a_verdict_names_another_seats_better_card_only_once_the_reader_knows_it():
    m = Moment(2, "verdict", Seat.Y, 0.9, (Card.parse("QC"),), "second_hand_low", _Judged())
    hidden = sentence(m, frozenset())
    assert hidden == ("Y's {QC} is a mistake on what Y could see: it gives up about two-thirds of a trick on "
                      "average. It is not the card of the rule (second hand low, pp. 82-84).")
    shown = sentence(m, frozenset({Card.parse("KC"), Card.parse("4C")}))
    assert shown == ("Y's {QC} is a mistake on what Y could see: it gives up about two-thirds of a trick on "
                     "average; {KC} was better. It is not the card of the rule (second hand low, pp. 82-84), which chooses {4C}.")


def test_markup_writes_cards_and_suits_as_the_remarks_do():
    from whistbook.cards import Suit

    assert markup(("Y holds ", Card.parse("TD"), " and no ", Suit.HEARTS, ".")) == "Y holds {TD} and no {H}."


def test_a_trick_gets_a_draft_only_when_its_best_moment_weighs_enough():
    light = Moment(3, "inference", Seat.B, 0.3)
    heavy = Moment(4, "verdict", Seat.Y, 0.9)
    second = Moment(4, "signal", Seat.B, 0.5)
    same = Moment(4, "verdict", Seat.Y, 0.4)
    assert chosen([light, heavy, same, second]) == {4: [heavy, second]}


def test_a_new_source_of_moments_is_used_once_registered(hand1_path):
    checked = check_file(hand1_path, solver=False)
    records = records_of(checked, judge=False)

    def theme(r: Records):
        yield Moment(6, "signal", Seat.B, 1.0, (), "show_out", type("I", (), {"kind": "void", "seat": Seat.B,
                                                                            "suit": Card.parse("2C").suit,
                                                                            "certainty": "certain",
                                                                            "rule": "show_out"})())

    found = drafts(records, sources=[theme])
    assert [(d.trick, d.text) for d in found] == [(6, "B has shown out of clubs (failing to follow suit, Laws 71-73).")]


def test_validate_notes_each_draft_and_counts_them(capsys, tmp_path, hand1_path):
    p = tmp_path / "h.yaml"
    p.write_text(hand1_path.read_text(encoding="utf-8").replace(
        "  - cards: 8H KH TH 6C\n", "  - cards: 8H KH TH 6C\n    remark_draft: A draft.\n"), encoding="utf-8")
    assert main(["validate", str(p)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == "1 file checked: all valid; 1 draft remark to read (--notes lists them)"
    assert main(["validate", "--notes", str(p)]) == 0
    out, err = capsys.readouterr()
    line = next(i for i, l in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if DRAFT_KEY in l)
    assert f"{p}:{line}:5: note: trick 6: a draft remark, shown as a draft: read it, edit it as you like and " \
           "rename 'remark_draft' to 'remark' to accept it" in out


def test_the_lesson_shows_a_draft_as_a_draft_and_a_remark_over_it(hand1_path):
    from whistbook import render_lesson

    text = hand1_path.read_text(encoding="utf-8")
    drafted = text.replace("  - cards: 8H KH TH 6C\n", "  - cards: 8H KH TH 6C\n    remark_draft: A draft about {KH}.\n")
    page = render_lesson(check_hand(loads(drafted, "h.yaml")))
    assert page.count("Draft remark, not yet accepted") == 1 and "remark-draft" in page
    both = drafted.replace("remark_draft: A draft about {KH}.", "remark_draft: A draft.\n    remark: Mine.")
    checked = check_hand(loads(both, "h.yaml"))
    assert "Draft remark" not in render_lesson(checked)
    assert any("has a remark, so its draft is not shown" in d.message for d in checked.diagnostics)


def test_annotate_writes_drafts_then_leaves_the_file_alone(capsys, tmp_path, hand1_path):
    p = tmp_path / "h.yaml"
    text = hand1_path.read_text(encoding="utf-8")
    p.write_text(text, encoding="utf-8")
    assert main(["annotate", "--no-judge", "--dry-run", str(p)]) == 0
    out, err = capsys.readouterr()
    assert p.read_text(encoding="utf-8") == text and "would draft" in err
    assert main(["annotate", "--no-judge", str(p)]) == 0
    once = p.read_text(encoding="utf-8")
    assert only_added(text, once) and DRAFT_KEY in once
    assert main(["annotate", "--no-judge", str(p)]) == 0
    assert p.read_text(encoding="utf-8") == once  # every drafted trick is taken now
    assert main(["validate", str(p)]) == 0


def test_annotate_refuses_a_hand_with_errors(capsys, tmp_path, hand1_path):
    p = tmp_path / "h.yaml"
    p.write_text(hand1_path.read_text(encoding="utf-8").replace("tally: 0-2", "tally: 0-3"), encoding="utf-8")
    assert main(["annotate", "--no-judge", str(p)]) == 1
    assert "after trick 2 the tricks stand" in capsys.readouterr().err
