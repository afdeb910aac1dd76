"""A lesson as an exercise for a class: one question, its position and its answer.

A booklet for a class (the book setting ``exercises: true``) prints each hand
as one exercise: the position at one card of the known hand (the tricks
before it, the cards on the trick, the hand he holds) and the question "what
do you play?", with the answer and its explanation at the back of the
booklet, as a puzzle book does.

The question asked is one of the lesson's play quiz (:mod:`whistbook.quiz`,
graded by the judge): the one at the first trick the hand remarks on (an accepted remark or a draft), which
in a hand made by ``whistbook deal`` is the decisive moment, where the
theme's card is clearly the best; where no question is asked at a remarked
trick, the question whose wrong answers cost the most.
"""

from __future__ import annotations

from .views import ExerciseView, HandView, Lesson, SuitHolding


def exercise_of(lesson: Lesson) -> ExerciseView | None:
    """The exercise of ``lesson``, or None when its play quiz asks nothing."""
    quizzes = [q for q in lesson.play_quizzes if q.judged or q.right]
    if not quizzes or lesson.known_hand is None:
        return None
    # A draft counts: a generated hand's only remark is the draft at its decisive trick.
    remarked = {t.number for t in lesson.tricks if t.remark or t.draft}
    q = next((q for q in quizzes if q.trick in remarked), None) or max(quizzes, key=_clearness)
    tricks = {t.number: t for t in lesson.tricks}
    now = tricks[q.trick]
    played = {p.card for t in lesson.tricks if t.number < q.trick for p in t.plays if p.seat == q.seat}
    held = HandView(q.seat, lesson.known_hand.position, True,
                    tuple(SuitHolding(s.suit, tuple(c for c in s.cards if c not in played))
                          for s in lesson.known_hand.suits), lesson.known_hand.dealer)
    costs = _costs(q)
    rule = q.rule or (None, None, None)
    return ExerciseView(
        trick=q.trick, seat=q.seat, before=tuple(t for t in lesson.tricks if t.number < q.trick),
        so_far=now.plays[:q.before], held=held, legal=q.legal, right=q.right, sound=q.sound, costs=costs,
        remark=now.remark or now.draft, rule=rule[0], rule_title=rule[1], page=rule[2],
    )


def _clearness(q) -> float:
    """The least any wrong answer costs (the clearer the question, the more)."""
    accepted = set(q.right) | set(q.sound)
    wrong = [loss for c, loss in q.loss if c not in accepted]
    return min(wrong, default=0.0)


def _costs(q) -> tuple[tuple[tuple, float], ...]:
    """Each wrong choice (cards of equal cost together, high to low) and what it gives up."""
    accepted = set(q.right)
    by_cost: dict[float, list] = {}
    for c, loss in q.loss:
        if c not in accepted:
            by_cost.setdefault(loss, []).append(c)
    return tuple((tuple(cs), loss) for loss, cs in sorted(by_cost.items()))


__all__ = ["exercise_of"]
