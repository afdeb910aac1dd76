"""The questions a play-along lesson asks before it shows a trick, as data.

Two kinds, both answered in the browser (the page's script reads them as
JSON; nothing of an answer is shown before it is given or the trick reached):

* **What would you play?** at each card of the known hand, graded as a
  teacher would (from the judge's records, :mod:`whistbook.judgement`):

  - *right*: the book's card, and the cards equal to it in sequence;
  - *sound*: any other card within the judge's margin of the single-dummy best
    (on what the known hand could know, :data:`whistbook.judgement.verdict.SOUND_MARGIN`);
  - *lucky*: a card that takes as many tricks as the book's with all four hands
    seen, but is worse on what the player knew ("it works here, but only
    because of how the cards lay");
  - *wrong*: any other, with its expected cost.

  A question where every legal card is right or sound teaches nothing and is
  not asked. Without the judge (a build without the solver), only the book's
  card and its equals are right.
* **What do you know now?** after a trick where the book stops for a remark:
  one multiple-choice question drawn from the inference engine's new
  conclusions (who holds a card, who is out of a suit, how many cards of a
  suit a player has left), asked only when the deal bears the answer out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .cards import Card
from .views import InferenceView, SeatKnowledge, TrickView
from .seats import Seat


@dataclass(frozen=True)
class PlayQuiz:
    trick: int
    seat: Seat
    before: int  # cards played to the trick before the known hand's
    legal: tuple[Card, ...]  # high to low, by suit
    book: Card
    right: tuple[Card, ...]  # the book's card and the cards equal to it in sequence
    sound: tuple[Card, ...] = ()  # other cards within the margin of the single-dummy best
    lucky: tuple[Card, ...] = ()  # double-dummy as good as the book's card, worse on what the player knew
    #: expected tricks each legal card gives up against the single-dummy best (empty when not judged)
    loss: tuple[tuple[Card, float], ...] = ()
    #: the principle's rule, when the book's card is the principle's: (id, title, page)
    rule: tuple[str, str, str | None] | None = None
    judged: bool = False

    @property
    def accepted(self) -> tuple[Card, ...]:
        """The answers that score: right and sound."""
        return self.right + self.sound


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


def play_quizzes(checked: Any, viewpoint: Seat, analysis: Any, shown: Sequence[int],
                 judgement: Any = None, rules: Any = None) -> tuple[PlayQuiz, ...]:
    """One question per shown trick, at the known hand's card, where the choice matters."""
    rp = checked.replay
    dd = {}
    for at in analysis.tricks if analysis is not None else ():
        for v in at.cards:
            if v.seat == viewpoint:
                dd[at.number] = v
    held = set(rp.hands[viewpoint])
    gone: set[Card] = set()
    out = []
    for trick in rp.tricks:
        k = next(i for i, p in enumerate(trick.plays) if p.seat == viewpoint)
        book = trick.plays[k].card
        led = trick.plays[0].card.suit if k else None
        follow = [c for c in held if c.suit == led]
        legal = tuple(sorted(follow or held, key=lambda c: (c.suit, -c.rank)))
        j = judgement.card(trick.number, viewpoint) if judgement is not None else None
        if trick.number in shown and len(legal) > 1:
            q = _play_question(trick.number, viewpoint, k, legal, book, j, dd.get(trick.number), rules,
                               gone | set(trick.cards[:k]))
            if q is not None:
                out.append(q)
        held.discard(book)
        gone |= set(trick.cards)
    return tuple(out)


def _play_question(trick: int, seat: Seat, before: int, legal: tuple[Card, ...], book: Card, j: Any, dd: Any,
              rules: Any, gone: set[Card]) -> PlayQuiz | None:
    from .judgement.position import choices

    if j is None or j.revoke:
        group = next(g for g in choices(legal, gone) if book in g)
        if len(group) == len(legal):
            return None
        return PlayQuiz(trick, seat, before, legal, book, group)
    if j.forced:
        return None  # every legal card is one choice
    right = next(o.cards for o in j.options if book in o.cards)
    sound = tuple(c for o in j.options if o.sound and book not in o.cards for c in o.cards)
    if len(right) + len(sound) >= len(legal):
        return None  # every card is as good as the best: nothing to learn
    lucky: tuple[Card, ...] = ()
    if dd is not None and dd.options:
        worth = dict(dd.options)
        lucky = tuple(c for o in j.options if not o.sound and book not in o.cards for c in o.cards
                      if c in worth and worth[c] >= dd.tricks_if_played)
    loss = tuple((c, round(o.tricks, 2)) for o in j.options for c in o.cards)
    rule = None
    if j.follows_principle and j.principle.rule is not None:
        r = (rules or {}).get(j.principle.rule)
        rule = (j.principle.rule, r.title if r is not None else j.principle.rule, r.page if r is not None else None)
    return PlayQuiz(trick, seat, before, legal, book, right, sound, lucky, loss, rule, True)


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
    if inf.seat not in unseen or inf.certainty == "probable" or not inf.borne_out:
        return None  # a guess, or a presumption the deal contradicts: never the answer to a question
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
