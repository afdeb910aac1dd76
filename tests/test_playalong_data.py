"""The play-along's data on Hand I: the short news lines, the questions and their answers."""

from __future__ import annotations

import json
import re

import pytest

from whistbook import wording
from whistbook.cards import Card
from whistbook.render.playalong import data, data_json

from render_support import HANDS, ROOT, lesson


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


def test_what_would_you_play_accepts_the_books_card_and_its_double_dummy_equals():
    quizzes = {q.trick: q for q in lesson(analysis=True).play_quizzes}
    t5 = quizzes[5]  # A's finesse with the ten: the only card as good
    assert t5.book == Card.parse("TS") and t5.accepted == (Card.parse("TS"),)
    assert t5.legal == tuple(map(Card.parse, ("QS", "TS", "5S")))  # A must follow to spades
    assert t5.before == 2
    t2 = quizzes[2]  # any club is as good at trick 2
    assert t2.book in t2.accepted and len(t2.accepted) == 4


def test_without_analysis_only_the_books_card_is_accepted():
    assert all(q.accepted == (q.book,) and not q.analysed for q in lesson().play_quizzes)


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
    """The lead's judge will give each question right, sound, lucky, loss and rule;
    until then the quiz gives accepted, and the data carries whichever it has."""
    from dataclasses import dataclass, replace

    l = lesson()
    q = l.play_quizzes[0]
    assert "accepted" in data(l)["play"][str(q.trick)] and "right" not in data(l)["play"][str(q.trick)]

    @dataclass(frozen=True)
    class Judged:
        trick: int
        before: int
        legal: tuple
        book: Card
        analysed: bool
        right: tuple
        sound: tuple
        lucky: tuple
        loss: dict
        rule: dict | None

    judged = Judged(q.trick, q.before, q.legal, q.book, True, (q.book,), q.legal[1:2], (), {q.legal[-1]: 0.5},
                    {"title": "Lead from the strongest suit", "page": "56"})
    out = data(replace(l, play_quizzes=(judged,)))["play"][str(q.trick)]
    assert out["right"] == [str(q.book)] and out["sound"] == [str(q.legal[1])] and out["lucky"] == []
    assert out["loss"] == {str(q.legal[-1]): 0.5} and out["rule"]["page"] == "56" and "accepted" not in out
