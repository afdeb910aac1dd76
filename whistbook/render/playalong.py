"""The data a play-along lesson's script reads: the table, the tricks and the questions, as JSON.

The data sits in the page in a ``<script type="application/json">`` element,
which a browser never shows; it holds the answers and the hidden hands, but
nothing of them is on screen until the reader answers or reaches the trick
(or the end, where the static page shows the deal too).

A play question has ``before`` (cards played to the trick before the known
hand's), ``legal``, ``book`` and ``analysed``, and either the judged sets of
the single-dummy contract, ``right`` (the book's card and the cards equal to
it), ``sound``, ``lucky``, ``loss`` (card: tricks lost on average against the
best) and ``rule`` (``{"title", "page"}`` or null), or, from a quiz without
them, ``accepted`` (the book's card and its double-dummy equals), which the
script takes as ``right``. A trick may carry ``verdict`` (the known hand's own
card judged on what it knew: ``tier``, ``loss``, ``follows_principle``).
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
            "remark": bool(t.remark),
            "known": _known(t.known, card),
        }
        verdict = getattr(t, "verdict", None)
        if verdict is not None:
            rec["verdict"] = _plain(verdict)
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
    out: dict[str, Any] = {
        "before": q.before,
        "legal": [card(c) for c in q.legal],
        "book": card(q.book),
        "analysed": q.analysed,
    }
    right = getattr(q, "right", None)
    if right is None:  # the double-dummy quiz: its accepted cards are the right ones
        out["accepted"] = [card(c) for c in q.accepted]
        return out
    out["right"] = [card(c) for c in right]
    out["sound"] = [card(c) for c in getattr(q, "sound", ())]
    out["lucky"] = [card(c) for c in getattr(q, "lucky", ())]
    out["loss"] = {card(c): float(v) for c, v in dict(getattr(q, "loss", {}) or {}).items()}
    rule = getattr(q, "rule", None)
    out["rule"] = None if rule is None else _plain(rule)
    return out


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


def _plain(value: Any) -> Any:
    """A record (a mapping, a dataclass or a named tuple) as plain JSON types."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "_asdict"):
        return _plain(value._asdict())
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(getattr(value, k)) for k in value.__dataclass_fields__}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def data_json(lesson: Lesson) -> str:
    """:func:`data` as JSON that is safe inside a ``<script>`` element."""
    return json.dumps(data(lesson), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


__all__ = ["data", "data_json"]
