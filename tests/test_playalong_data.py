"""The play-along's data on Hand I: the short news lines, the questions and their answers."""

from __future__ import annotations

import json
import re

import pytest

from whistbook import wording
from whistbook.cards import Card
from whistbook.render.playalong import data, data_json

from render_support import HANDS, ROOT, judged, lesson


def line(trick, seat):
    t = next(t for t in lesson().tricks if t.number == trick)
    n = next(n for n in t.news if str(n.seat) == seat)
    return "".join((c.sep if k else "") + wording.text(c.words) for k, c in enumerate(n.clauses))


def test_a_seats_lacks_run_together_and_counts_are_left_to_the_picture():
    # trick 2: B does not win (presumed) and follows low, which before trumps
    # are led may be the first card of a call (probable): one line, two layers
    assert line(2, "B") == "presumably no K♣; perhaps no 2♣"
    # trick 9: Y's two voids in one phrase
    assert line(9, "Y") == "no ♠ or ♦ left"
    # trick 10: exact counts stay, ranges go (the picture shows them)
    assert line(10, "Y").startswith("3 ♥;") and "–" not in line(10, "Y")


def test_the_news_is_shorter_than_the_sentences_it_replaces():
    l = lesson()
    before = sum(wording.words_count(i.sentence) for t in l.tricks for i in t.inferences)
    after = sum(wording.words_count(c.words) for t in l.tricks for n in t.news for c in n.clauses)
    remarks = sum(len(t.remark.split()) for t in l.tricks if t.remark)
    assert after < before / 2 and after <= remarks


def test_what_would_you_play_grades_like_a_teacher():
    """The book's card (and its equals) is right; other cards within the margin of
    the single-dummy best are sound; a question where every card scores is not asked."""
    judged_cards = {j.trick: j for j in judged().cards}
    quizzes = lesson(analysis=True, judge=True).play_quizzes
    assert quizzes
    for q in quizzes:
        j = judged_cards[q.trick]
        assert q.judged and q.book in q.right and set(q.right) <= set(q.legal)
        assert q.book == j.card
        sound = {c for o in j.options if o.tier == "good" for c in o.cards} - set(q.right)
        assert set(q.sound) == sound
        assert set(q.accepted) < set(q.legal)  # something is wrong, or the question would not be asked
        assert dict(q.loss).keys() == set(q.legal)
        assert not set(q.lucky) & set(q.accepted)
    asked = {q.trick for q in quizzes}
    for j in judged_cards.values():
        everything = all(o.tier == "good" for o in j.options)
        if everything and j.options:
            assert j.trick not in asked


def test_without_the_judge_the_books_card_and_its_equals_are_right():
    for q in lesson().play_quizzes:
        assert not q.judged and q.book in q.right and not q.sound and not q.lucky
        assert set(q.right) < set(q.legal)
        assert all(c.suit == q.book.suit for c in q.right)


def test_what_do_you_know_asks_from_the_engines_new_conclusions():
    quizzes = lesson().know_quizzes
    assert quizzes
    for q in quizzes:
        assert 0 <= q.answer < len(q.choices) and len(set(q.choices)) == len(q.choices) >= 3
    t10 = next(q for q in quizzes if q.trick == 10)
    assert t10.question == "How many hearts does Y hold now?" and t10.choices[t10.answer] == "3"


def test_the_data_is_json_that_cannot_end_its_script_element():
    l = lesson(analysis=True)
    text = data_json(l)
    assert "<" not in text and json.loads(text) == data(l)
    d = data(l)
    assert [t["n"] for t in d["tricks"]] == list(range(1, 11)) and d["viewpoint"] == "A"
    assert d["cards"]["2D"] == ["2♦", "two of diamonds", "diamonds"]
    assert not re.search(r"AB take|cost", text)  # no double-dummy figure rides along


@pytest.mark.slow
def test_no_lesson_says_more_in_inferences_than_the_book_in_remarks():
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from inference_words import measure

    from whistbook.corpus import find_hand_files

    rows = [r for r in map(measure, find_hand_files([HANDS])) if r is not None]
    assert len(rows) >= 39
    over = [(name, remarks, after) for name, remarks, _, after in rows if after > remarks]
    assert not over, over


def test_the_table_has_its_seats_the_deal_and_what_is_known_after_each_trick():
    d = data(lesson())
    assert d["seats"] == {"bottom": "A", "left": "Y", "top": "B", "right": "Z"}
    assert sorted(len(cards) for cards in d["deal"].values()) == [13, 13, 13, 13]
    assert d["dealer"] == "Z" and d["turn_up"] == "2S"
    after_1 = d["tricks"][0]["known"]
    assert set(after_1) == {"Y", "B", "Z"}
    z_spades = after_1["Z"][0]  # the suits in the order S H D C: Z holds the turned-up two
    assert z_spades["c"] == ["2S"] and not z_spades["v"] and not z_spades["u"]


def test_a_judged_play_question_passes_through_in_the_single_dummy_contract():
    """The page's data carries each question's grades and each trick's verdict on the
    known hand's own card, as the quiz and the judge made them."""
    l = lesson(analysis=True, judge=True)
    d = data(l)
    assert d["play"] and set(d["play"]) == {str(q.trick) for q in l.play_quizzes}
    for q in l.play_quizzes:
        out = d["play"][str(q.trick)]
        assert out["analysed"] is True
        assert out["right"] == [str(c) for c in q.right] and out["sound"] == [str(c) for c in q.sound]
        assert out["lucky"] == [str(c) for c in q.lucky]
        assert set(out["loss"]) == {str(c) for c in q.legal}
        assert out["rule"] is None or set(out["rule"]) == {"id", "title", "page"}
    judged_tricks = [t for t in d["tricks"] if "verdict" in t]
    assert judged_tricks  # the known hand had real choices in Hand I
    for t in judged_tricks:
        assert t["verdict"]["tier"] in ("good", "inaccuracy", "mistake", "blunder")
    assert "verdict" not in data(lesson())["tricks"][0]  # no judge, no verdict