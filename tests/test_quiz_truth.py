"""No knowledge question marks an answer the deal contradicts: over the bundled book,
the laws lessons and a fresh starter hand, each question's answer is checked
against the cards each player really held after that trick."""

from __future__ import annotations

from pathlib import Path

import pytest

from whistbook.corpus import check_file, find_hand_files
from whistbook.inference import RULES, explain
from whistbook.lesson import build_lesson
from whistbook.seats import SEATS

ROOT = Path(__file__).resolve().parent.parent


def _held_after(rp, seat, trick):
    return set(rp.hands[seat]) - {t.card_of(seat) for t in rp.tricks[:trick]}


def _check(path: Path) -> int:
    ch = check_file(path)
    if not ch.ok or ch.hand.kind != "hand" or ch.hand.known_hand is None:
        return 0
    lesson = build_lesson(ch, explanation=explain(ch), rules=RULES)
    rp = ch.replay
    for q in lesson.know_quizzes:
        inf, n = q.about, q.trick
        held = {s: _held_after(rp, s, n) for s in SEATS}
        unseen = [s for s in SEATS if s != lesson.viewpoint]
        answer = q.choices[q.answer]
        if inf.kind == "holds":
            assert answer == f"Player {inf.seat}" and inf.cards[0] in held[inf.seat], (path, q)
        elif inf.kind == "void":
            void = [f"Player {s}" for s in unseen if not any(c.suit == inf.suit for c in held[s])]
            assert void == [answer], (path, q, void)  # the answer, and no other, is right
        else:
            count = sum(1 for c in held[inf.seat] if c.suit == inf.suit)
            assert q.choices[q.answer] == str(count), (path, q, count)
    return len(lesson.know_quizzes)


def test_the_books_and_the_laws_knowledge_questions_are_true():
    asked = sum(_check(f) for f in find_hand_files([ROOT / "hands"]))
    assert asked >= 150  # the book asks about 200


def test_a_starter_hands_knowledge_questions_are_true(tmp_path):
    from whistbook.cli import main

    path = tmp_path / "mine.yaml"
    assert main(["new", str(path)]) == 0
    _check(path)
