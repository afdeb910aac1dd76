"""The questions a play-along lesson asks before it shows a trick, as data.

Two kinds, both answered in the browser (the page's script reads them as
JSON; nothing of an answer is shown before it is given or the trick reached):

* **What would you play?** at each card of the known hand: the cards it may
  legally play, the book's card, and the cards accepted with it, which are
  the book's card and every card double-dummy equal to it (when the hand was
  analysed);
* **What do you know now?** after a trick where the book stops for a remark:
  one multiple-choice question drawn from the inference engine's new
  conclusions (who holds a card, who is out of a suit, how many cards of a
  suit a player has left).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .cards import Card
from .lesson import InferenceView, SeatKnowledge, TrickView
from .seats import Seat


@dataclass(frozen=True)
class PlayQuiz:
    trick: int
    seat: Seat
    before: int  # cards played to the trick before the known hand's
    legal: tuple[Card, ...]  # high to low, by suit
    book: Card
    accepted: tuple[Card, ...]  # the book's card and the cards double-dummy equal to it
    analysed: bool


@dataclass(frozen=True)
class KnowQuiz:
    trick: int
    question: str
    choices: tuple[str, ...]
    answer: int  # index into choices
    certainty: str
    rule: str | None
    #: the conclusion the question rests on, as the lesson words it
    said: Any = ()


def play_quizzes(checked: Any, viewpoint: Seat, analysis: Any, shown: Sequence[int]) -> tuple[PlayQuiz, ...]:
    """One question per shown trick, at the known hand's card."""
    rp = checked.replay
    verdicts = {}
    for at in analysis.tricks if analysis is not None else ():
        for v in at.cards:
            if v.seat == viewpoint:
                verdicts[at.number] = v
    held = set(rp.hands[viewpoint])
    out = []
    for trick in rp.tricks:
        k = next(i for i, p in enumerate(trick.plays) if p.seat == viewpoint)
        book = trick.plays[k].card
        led = trick.plays[0].card.suit if k else None
        follow = [c for c in held if c.suit == led]
        legal = tuple(sorted(follow or held, key=lambda c: (c.suit, -c.rank)))
        v = verdicts.get(trick.number)
        accepted: tuple[Card, ...] = (book,)
        if v is not None and v.options:
            accepted = tuple(c for c, n in v.options if n == v.tricks_if_played)
        if trick.number in shown and len(legal) > 1:
            out.append(PlayQuiz(trick.number, viewpoint, k, legal, book, accepted, v is not None))
        held.discard(book)
    return tuple(out)


def know_quiz(t: TrickView) -> KnowQuiz | None:
    """A question from the trick's new conclusions, certain ones first; None if none makes a fair question."""
    unseen = tuple(sk.seat for sk in t.known)
    for inf in sorted(t.inferences, key=lambda i: i.certainty != "certain"):
        q = _question(inf, t.number, unseen, t.known)
        if q is not None:
            return q
    return None


def _players(seats: Sequence[Seat]) -> tuple[str, ...]:
    return tuple(f"Player {s}" for s in seats)


def _question(inf: InferenceView, trick: int, unseen: Sequence[Seat], known: Sequence[SeatKnowledge]) -> KnowQuiz | None:
    likely = "" if inf.certainty == "certain" else "most likely "
    if inf.seat not in unseen or inf.certainty == "probable":
        return None
    if inf.kind == "holds" and len(inf.cards) == 1 and inf.rule != "turn_up_card":
        return KnowQuiz(trick, f"Who {likely}holds the {inf.cards[0].name}?", _players(unseen),
                        unseen.index(inf.seat), inf.certainty, inf.rule, inf.phrase)
    if inf.kind == "void" and inf.suit is not None:
        void = [sk.seat for sk in known for s in sk.suits if s.suit == inf.suit and s.presumed_count[1] == 0]
        if void != [inf.seat]:
            return None
        return KnowQuiz(trick, f"Who {likely}has no {inf.suit.plural} left?", _players(unseen),
                        unseen.index(inf.seat), inf.certainty, inf.rule, inf.phrase)
    if inf.kind == "count" and inf.suit is not None and inf.low is not None and inf.low == inf.high:
        n = inf.low
        options = sorted({max(0, n - 1), n, n + 1, n + 2} | ({n + 3} if n == 0 else set()))[:4]
        return KnowQuiz(trick, f"How many {inf.suit.plural} does {inf.seat} {likely}hold now?",
                        tuple(str(o) for o in options), options.index(n), inf.certainty, inf.rule, inf.phrase)
    return None


def know_quizzes(tricks: Sequence[TrickView]) -> tuple[KnowQuiz, ...]:
    """A question after each trick where the book stops for a remark (after any trick
    with news, when the remarks give fewer than three)."""
    asked = tuple(q for t in tricks if t.remark for q in [know_quiz(t)] if q is not None)
    return asked if len(asked) >= 3 else tuple(q for t in tricks for q in [know_quiz(t)] if q is not None)


__all__ = ["PlayQuiz", "KnowQuiz", "play_quizzes", "know_quiz", "know_quizzes"]
