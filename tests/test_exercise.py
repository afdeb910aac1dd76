"""Exercises for a class: a lesson's question, its position and answer, and the booklet's parts."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from whistbook.errors import ConfigError
from whistbook.exercise import exercise_of
from whistbook.inference import RULES
from whistbook.project import Book, load_project
from whistbook.render.context import RenderOptions, book_context
from whistbook.render.environment import make_environment
from whistbook.render.pdf import booklet_part_html

from render_support import BOSTON, HAND_I, lesson
from test_render_html_reader import read_alike

PRINT = RenderOptions(medium="print", analysis=False)


@pytest.fixture(scope="module")
def hand_i():
    return replace(lesson(HAND_I, judge=True), index=1)  # the first lesson of its book, as a build numbers it


def test_the_exercise_is_the_question_at_the_first_remarked_trick(hand_i):
    x = hand_i.exercise
    assert x is not None and x == exercise_of(hand_i)
    first = min(q.trick for q in hand_i.play_quizzes if any(t.remark for t in hand_i.tricks if t.number == q.trick))
    assert x.trick == first and str(x.seat) == "A"
    q = next(q for q in hand_i.play_quizzes if q.trick == x.trick)
    assert x.right == q.right and q.book in x.right and x.legal == q.legal
    held = [c for s in x.held.suits for c in s.cards]
    gone = {p.card for t in x.before for p in t.plays if p.seat == x.seat}
    assert len(held) == 14 - x.trick and not gone & set(held)
    assert all(set(cs).isdisjoint(x.right) and loss >= 0 for cs, loss in x.costs)
    assert [t.number for t in x.before] == list(range(1, x.trick))


def test_a_problem_has_no_exercise_and_an_unjudged_hand_asks_for_the_books_card():
    assert lesson(BOSTON).exercise is None
    x = lesson(HAND_I).exercise  # without the judge, the book's card and its equals are right
    assert x is not None and not x.costs and not x.sound


def test_the_booklet_sets_each_hand_as_an_exercise_with_the_answers_at_the_back(hand_i):
    env = make_environment(None, rules=RULES)
    book = book_context([hand_i], env, rules=RULES)
    book = replace(book, book=Book(title="A class", exercises=True))
    page = booklet_part_html("lesson", book, env, options=PRINT, lesson=hand_i)
    assert "What do you play, and why?" in page and 'class="trick-diagram"' not in page
    pages = defaultdict(lambda: 7)
    answers = booklet_part_html("answers", book, env, options=PRINT, pages=pages)
    front = booklet_part_html("front", book, env, options=PRINT, pages=pages)
    assert "Answers to the exercises" in answers and f'id="{hand_i.slug}-answer"' in answers
    assert "Exercise 1" in front and "One exercise" in front
    assert all(read_alike(html) for html in (page, answers, front))
    plain = booklet_part_html("lesson", replace(book, book=Book(title="A class")), env, options=PRINT, lesson=hand_i)
    assert "What do you play, and why?" not in plain


def test_the_setting_is_read_and_checked(tmp_path: Path):
    (tmp_path / "mkdocs.yml").write_text("site_name: X\nextra:\n  whistbook:\n    exercises: true\n")
    assert load_project(tmp_path).book.exercises is True
    (tmp_path / "mkdocs.yml").write_text("site_name: X\nextra:\n  whistbook:\n    exercises: sometimes\n")
    with pytest.raises(ConfigError, match="exercises must be true or false"):
        load_project(tmp_path)


@pytest.mark.slow
def test_init_exercises_starts_a_book_of_hands_made_on_the_theme_that_builds(tmp_path: Path, monkeypatch):
    from whistbook.cli import main

    root = tmp_path / "class"
    assert main(["init", str(root), "--exercises", "tenace", "--count", "2", "-q"]) == 0
    assert sorted(p.name for p in (root / "hands").glob("*.yaml")) == ["tenace-01.yaml", "tenace-02.yaml"]
    assert load_project(root).book.exercises
    monkeypatch.chdir(root)
    assert main(["build", "-q"]) == 0
    import subprocess

    text = subprocess.run(["pdftotext", "output/whistbook.pdf", "-"], capture_output=True, text=True).stdout
    assert text.count("What do you play, and why?") == 2 and "Answers to the exercises" in text
    # each answer explains from the hand's draft remark (the judge's figures for every choice)
    assert text.count("deals he could imagine") + text.count("every deal he could imagine") >= 2


def test_init_refuses_a_theme_it_cannot_make(tmp_path: Path, capsys):
    from whistbook.cli import main

    assert main(["init", str(tmp_path / "c"), "--exercises", "echo"]) == 2
    assert "not a theme that can be made" in capsys.readouterr().err
