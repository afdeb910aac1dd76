"""The data a play-along lesson's script reads: the tricks and the questions, as JSON.

The data sits in the page in a ``<script type="application/json">`` element,
which a browser never shows; it holds the answers, but nothing of them is on
screen until the reader answers or reaches the trick.
"""

from __future__ import annotations

import json
from typing import Any

from ..cards import Card
from ..lesson import Lesson
from .markup import rank_text


def _card(c: Card) -> str:
    return str(c)


def data(lesson: Lesson) -> dict[str, Any]:
    """The play-along's data for one lesson (plain JSON types)."""
    cards: dict[str, list[str]] = {}

    def card(c: Card) -> str:
        cards.setdefault(str(c), [rank_text(c.rank) + c.suit.symbol, c.name, c.suit.plural])
        return str(c)

    tricks = [{
        "n": t.number,
        "plays": [[str(p.seat), card(p.card)] for p in t.plays],
        "winner": str(t.winner),
        "tally": list(t.tally),
        "remark": bool(t.remark),
        "verdict": None if t.verdict is None else {
            "tier": t.verdict.tier, "loss": t.verdict.loss, "follows_principle": t.verdict.follows_principle,
        },
    } for t in lesson.tricks]
    play = {str(q.trick): {
        "before": q.before,
        "legal": [card(c) for c in q.legal],
        "book": card(q.book),
        "right": [card(c) for c in q.right],
        "sound": [card(c) for c in q.sound],
        "lucky": [card(c) for c in q.lucky],
        "loss": {card(c): x for c, x in q.loss},
        "rule": None if q.rule is None else {"id": q.rule[0], "title": q.rule[1], "page": q.rule[2]},
        # what scores, for a script that knows only this key
        "accepted": [card(c) for c in q.accepted],
        "analysed": q.judged,
    } for q in lesson.play_quizzes}
    know = {str(q.trick): {
        "q": q.question,
        "choices": list(q.choices),
        "answer": q.answer,
        "certainty": q.certainty,
    } for q in lesson.know_quizzes}
    return {
        "slug": lesson.slug,
        "viewpoint": str(lesson.viewpoint),
        "hand": [card(c) for s in lesson.known_hand.suits for c in s.cards] if lesson.known_hand else [],
        "tricks": tricks,
        "play": play,
        "know": know,
        "cards": cards,
    }


def data_json(lesson: Lesson) -> str:
    """:func:`data` as JSON that is safe inside a ``<script>`` element."""
    return json.dumps(data(lesson), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


__all__ = ["data", "data_json"]
