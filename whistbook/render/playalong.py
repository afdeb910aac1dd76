"""The data a play-along lesson's script reads: the table, the tricks and the questions, as JSON.

The data sits in the page in a ``<script type="application/json">`` element,
which a browser never shows; it holds the answers and the hidden hands, but
nothing of them is on screen until the reader answers or reaches the trick
(or the end, where the static page shows the deal too).

A play question has ``before`` (cards played to the trick before the known
hand's), ``legal``, ``book``, ``analysed`` (whether the judge graded it) and
the grades of :mod:`whistbook.quiz`: ``right`` (the book's card and the cards
equal to it), ``sound``, ``lucky``, ``loss`` (card: tricks lost on average
against the single-dummy best) and ``rule`` (``{"id", "title", "page"}`` or
null). A trick may carry ``verdict`` (the known hand's own card judged on what
it knew: ``tier``, ``loss``, ``follows_principle``, ``best``, ``result_loss``).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from ..cards import Card
from ..lesson import Lesson, SeatKnowledge
from .markup import rank_text


def data(lesson: Lesson) -> dict[str, Any]:
    """The play-along's data for one lesson (plain JSON types)."""
    cards: dict[str, list[str]] = {}

    def card(c: Card) -> str:
        cards.setdefault(str(c), [rank_text(c.rank) + c.suit.symbol, c.name, c.suit.plural])
        return str(c)

    tricks = []
    for t in lesson.tricks:
        rec: dict[str, Any] = {
            "n": t.number,
            "plays": [[str(p.seat), card(p.card)] for p in t.plays],
            "winner": str(t.winner),
            "tally": list(t.tally),
            "remark": bool(t.remark or t.draft),
            "known": _known(t.known, card),
        }
        v = t.verdict
        if v is not None:
            rec["verdict"] = {"tier": v.tier, "loss": v.loss, "follows_principle": v.follows_principle,
                              "best": [card(c) for c in v.best], "result_loss": v.result_loss}
        tricks.append(rec)
    know = {str(q.trick): {
        "q": q.question,
        "choices": list(q.choices),
        "answer": q.answer,
        "certainty": q.certainty,
    } for q in lesson.know_quizzes}
    return {
        "slug": lesson.slug,
        "viewpoint": str(lesson.viewpoint),
        "seats": {h.position: str(h.seat) for h in lesson.deal},
        "dealer": str(lesson.dealer) if lesson.dealer is not None else None,
        "turn_up": card(lesson.turn_up) if lesson.turn_up is not None else None,
        "deal": {str(h.seat): [card(c) for s in h.suits for c in s.cards] for h in lesson.deal},
        "hand": [card(c) for s in lesson.known_hand.suits for c in s.cards] if lesson.known_hand else [],
        "tricks": tricks,
        "play": {str(q.trick): _play_question(q, card) for q in lesson.play_quizzes},
        "know": know,
        "cards": cards,
    }


def _play_question(q: Any, card: Callable[[Card], str]) -> dict[str, Any]:
    return {
        "before": q.before,
        "legal": [card(c) for c in q.legal],
        "book": card(q.book),
        "analysed": q.judged,
        "right": [card(c) for c in q.right],
        "sound": [card(c) for c in q.sound],
        "lucky": [card(c) for c in q.lucky],
        "loss": {card(c): float(v) for c, v in q.loss},
        "rule": None if q.rule is None else {"id": q.rule[0], "title": q.rule[1], "page": q.rule[2]},
    }


def _known(known: Iterable[SeatKnowledge], card: Callable[[Card], str]) -> dict[str, list[dict[str, Any]]]:
    """What the known hand knows after a trick, seat by seat and suit by suit (S, H, D, C):
    the cards surely held (``c``), those presumed (``p``), how many more (``r``), none
    left (``v``) or nothing known (``u``)."""
    return {str(sk.seat): [{
        "c": [card(c) for c in s.certain],
        "p": [card(c) for c in s.presumed],
        "r": list(s.rest),
        "v": s.void,
        "u": s.unknown,
    } for s in sk.suits] for sk in known}


def data_json(lesson: Lesson) -> str:
    """:func:`data` as JSON that is safe inside a ``<script>`` element."""
    return json.dumps(data(lesson), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


__all__ = ["data", "data_json"]
