"""Hands made on a theme: valid, distinct, and graded by the quiz as promised."""

from __future__ import annotations

from pathlib import Path

import pytest

from whistbook.cli import main
from whistbook.corpus import check_file
from whistbook.generate import GENERATED, MARGIN, clearly_best, make
from whistbook.generated import hand_text
from whistbook.judgement import Budget, CardJudgement, Judgement, judge_decision
from whistbook.judgement.position import Table, decisions
from whistbook.judgement.principle import SILENT
from whistbook.judgement.verdict import Loss
from whistbook.cards import Card
from whistbook.quiz import play_quizzes
from whistbook.seats import Seat


def card(text: str) -> Card:
    return Card.parse(text)


def judged(options) -> CardJudgement:
    return CardJudgement(5, 1, Seat.A, card("QH"), SILENT, tuple(options), 16)


def loss(cards, tricks, stderr=0.05, tier="mistake", result=None, result_se=None):
    return Loss(tuple(card(c) for c in cards.split()), 8 - tricks, 8, tricks, stderr, result, result_se, tier)


def test_clearly_best_needs_every_other_card_clear_of_the_sound_margin():
    best = loss("QH", 0.0, 0.0, "good")
    assert clearly_best(judged([best, loss("AH", 0.6), loss("2H", 1.2, tier="blunder")]))
    assert not clearly_best(judged([best, loss("AH", 0.6, stderr=0.2)]))  # 0.6 - 2*0.2 < 0.25
    assert not clearly_best(judged([best, loss("AH", 0.4)]))  # under half a trick
    assert not clearly_best(judged([best, loss("AH", 0.3, tier="good")]))
    assert not clearly_best(judged([loss("QH", 0.1, tier="good"), loss("AH", 0.0, 0.0, "good")]))
    # a choice that gives up the game, not tricks, is clear by the result
    assert clearly_best(judged([best, loss("AH", 0.1, tier="mistake", result=0.4, result_se=0.05)]))
    assert MARGIN.tricks == 0.5


@pytest.fixture(scope="module")
def made():
    return next(make("counting", 1, seed=0, tries=100))


def test_a_made_hand_is_valid_and_its_quiz_asks_at_the_decisive_card(made, tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text(hand_text(made, "Counting 1"), encoding="utf-8")
    checked = check_file(path)
    assert checked.ok, checked.diagnostics
    seat = checked.hand.known_hand
    assert seat == made.decisive.seat and checked.hand.source.endswith(str(made.seed))
    assert made.decisive.played in checked.replay.tricks[made.decisive.trick - 1].cards
    # the remark is a draft for the author, at the decisive trick alone, and validate says so
    drafted = [t.number for t in checked.hand.tricks if t.remark_draft]
    assert drafted == [made.decisive.trick] and not any(t.remark for t in checked.hand.tricks)
    assert any("draft remark" in d.message for d in checked.diagnostics)
    # the judge's verdict on the decisive card as a build makes it (judge() weighs each card so)
    table = Table.of(checked)
    d = next(d for d in decisions(table) if d.trick == made.decisive.trick and d.seat == seat)
    j = Judgement((judge_decision(table, d, budget=Budget()),), 0, Budget())
    quizzes = {q.trick: q for q in play_quizzes(checked, seat, None, range(1, 14), j)}
    q = quizzes[made.decisive.trick]
    assert made.decisive.played in q.right and not q.sound
    assert len(q.right) < len(q.legal)


def test_only_themes_with_a_predicate_are_made():
    assert "call" not in GENERATED and "echo" not in GENERATED and "finesse" in GENERATED
    with pytest.raises(KeyError):
        next(make("echo", 1))


def test_deal_lists_the_themes(capsys):
    assert main(["deal", "--themes"]) == 0
    assert capsys.readouterr().out.split() == list(GENERATED)


def test_deal_writes_hands_and_never_the_same_deal_twice(tmp_path: Path, capsys):
    out = tmp_path / "made"
    assert main(["deal", "--theme", "unblock", "--count", "1", "-o", str(out), "--tries", "100", "--jobs", "1"]) == 0
    assert main(["deal", "--theme", "unblock", "--count", "1", "-o", str(out), "--tries", "100", "--jobs", "1"]) == 0
    files = sorted(out.glob("*.yaml"))
    assert [f.name for f in files] == ["unblock-01.yaml", "unblock-02.yaml"]
    deals = {tuple(sorted(map(str, check_file(f, solver=False).replay.hands[0]))) for f in files}
    assert len(deals) == 2
    assert main(["validate", str(out)]) == 0


def test_deal_refuses_what_it_cannot_do(tmp_path: Path, capsys):
    assert main(["deal", "--theme", "echo", "-o", str(tmp_path)]) == 2
    assert "not a theme that can be made" in capsys.readouterr().err
    assert main(["deal", "--theme", "finesse"]) == 2
    assert main(["deal", "--theme", "finesse", "--count", "0", "-o", str(tmp_path)]) == 2
    assert main(["deal", "--theme", "underplay", "--count", "1", "-o", str(tmp_path / "x"), "--tries", "1",
                 "-q"]) == 1


def test_the_hands_are_the_same_whatever_the_number_of_processes():
    one = [(m.seed, m.decisive.played) for m in make("counting", 2, seed=0, tries=100)]
    two = [(m.seed, m.decisive.played) for m in make("counting", 2, seed=0, tries=100, jobs=2)]
    assert one == two and len(one) == 2
