"""The questions a play-along lesson asks before it shows a trick, as data.

Two kinds, both answered in the browser (the page's script reads them as
JSON; nothing of an answer is shown before it is given or the trick reached):

* **What would you play?** at each card of the known hand, graded as a
  teacher would (from the judge's records, :mod:`whistbook.judgement`):

  - *right*: the book's card, the cards equal to it in sequence, and the
    principle's cards where they are as sound;
  - *sound*: any other card the judge rates good (within a quarter of a trick
    of the single-dummy best on what the known hand could know, allowing for
    the sampling error; see :mod:`whistbook.judgement.verdict`);
  - *lucky*: a card that takes as many tricks as the book's with all four hands
    seen, but is worse on what the player knew ("it works here, but only
    because of how the cards lay");
  - *wrong*: any other, with its expected cost.

  A question where every legal card is right or sound teaches nothing and is
  not asked; nor is one where the judge finds the book's card unsound (the
  verdict under the trick and the book's remark say why); nor a card the laws
  made the player play. Without the judge (a build without the solver), only the book's
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
    #: the conclusion itself (an :class:`~whistbook.views.InferenceView`)
    about: Any = None


def play_quizzes(checked: Any, viewpoint: Seat, analysis: Any, shown: Sequence[int],
                 judgement: Any = None, rules: Any = None) -> tuple[PlayQuiz, ...]:
    """One question per shown trick, at the known hand's card, where the choice matters."""
    from .judgement.position import Table, choices_at, decisions

    dd = {at.number: v for at in (analysis.tricks if analysis is not None else ()) for v in at.cards
          if v.seat == viewpoint}
    table = Table.of(checked)
    out = []
    for d in decisions(table):
        if d.seat != viewpoint or d.trick not in shown or len(d.legal) < 2:
            continue
        if d.played not in d.legal or (d.trick, d.played) in table.forced:
            continue  # a revoke, or a card the laws made him play: the laws' lesson, not a choice
        j = judgement.card(d.trick, viewpoint) if judgement is not None else None
        q = (_judged_question(d, j, dd.get(d.trick), rules) if j is not None
             else _book_question(d, choices_at(table, d)))
        if q is not None:
            out.append(q)
    return tuple(out)


def _book_question(d: Any, groups: Sequence[tuple[Card, ...]]) -> PlayQuiz | None:
    """Without the judge: the book's card and its equals are right."""
    group = next(g for g in groups if d.played in g)
    if len(group) == len(d.legal):
        return None
    return PlayQuiz(d.trick, d.seat, d.index, d.legal, d.played, group)


def _judged_question(d: Any, j: Any, dd: Any, rules: Any) -> PlayQuiz | None:
    if j.forced:
        return None  # every legal card is one choice
    book = next(o for o in j.options if d.played in o.cards)
    if not book.sound:
        return None  # the judge and the book disagree: the remark and the verdict after the trick say why
    # right: the book's card and its equals, and any of the principle's cards that is as sound
    principled = [o for o in j.options if o is not book and o.sound and set(o.cards) & set(j.principle.cards)]
    right = book.cards + tuple(c for o in principled for c in o.cards)
    sound = tuple(c for o in j.options if o.sound for c in o.cards if c not in right)
    if len(right) + len(sound) >= len(d.legal):
        return None  # every card is as good as the best: nothing to learn
    lucky: tuple[Card, ...] = ()
    if dd is not None and dd.options:
        worth = dict(dd.options)
        lucky = tuple(c for o in j.options if not o.sound for c in o.cards
                      if c in worth and worth[c] >= dd.tricks_if_played)
    loss = tuple((c, round(o.tricks, 2)) for o in j.options for c in o.cards)
    rule = None
    if j.follows_principle and j.rule is not None:
        r = (rules or {}).get(j.rule)
        rule = (j.rule, r.title if r is not None else j.rule, r.page if r is not None else None)
    return PlayQuiz(d.trick, d.seat, d.index, d.legal, d.played, right, sound, lucky, loss, rule, True)


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
                        unseen.index(inf.seat), inf.certainty, inf.rule, inf.phrase, inf)
    if inf.kind == "void" and inf.suit is not None:
        void = [sk.seat for sk in known for s in sk.suits if s.suit == inf.suit and s.presumed_count[1] == 0]
        if void != [inf.seat] or [s for s in inf.fits if s in unseen] != [inf.seat]:
            return None  # one right answer only, in what the viewer knows and in the deal
        return KnowQuiz(trick, f"Who {likely}has no {inf.suit.plural} left?", _players(unseen),
                        unseen.index(inf.seat), inf.certainty, inf.rule, inf.phrase, inf)
    if inf.kind == "count" and inf.suit is not None and inf.low is not None and inf.low == inf.high:
        n = inf.low
        options = sorted({max(0, n - 1), n, n + 1, n + 2} | ({n + 3} if n == 0 else set()))[:4]
        return KnowQuiz(trick, f"How many {inf.suit.plural} does {inf.seat} {likely}hold now?",
                        tuple(str(o) for o in options), options.index(n), inf.certainty, inf.rule, inf.phrase, inf)
    return None


def know_quizzes(tricks: Sequence[TrickView]) -> tuple[KnowQuiz, ...]:
    """A question after each trick where the book stops for a remark (after any trick
    with news, when the remarks give fewer than three)."""
    asked = tuple(q for t in tricks if t.remark or t.draft for q in [know_quiz(t)] if q is not None)
    return asked if len(asked) >= 3 else tuple(q for t in tricks for q in [know_quiz(t)] if q is not None)


__all__ = ["PlayQuiz", "KnowQuiz", "play_quizzes", "know_quiz", "know_quizzes"]
