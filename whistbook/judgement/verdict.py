"""Verdicts: a card's tier from what it lost against the single-dummy best.

A card is judged on what its player could know (:mod:`.single_dummy`): the
expected tricks it gives up against the best choice, and, where the score
makes the hand's tricks decide the game, the chance of the game's result it
gives up. The tiers follow Lichess's "learn from your mistakes": only a real
swing is marked, and a card close to the best is good.

* **Tricks.** Sampling error and the player's own uncertainty make a few
  hundredths of a trick meaningless, and a card that loses less than a quarter
  of a trick on average is as good as the best for teaching: ``good`` below
  :data:`TRICK_STEPS` [0], an ``inaccuracy`` to [1], a ``mistake`` to [2],
  a ``blunder`` from there on (the Ben robot marks "?" from a tenth of a trick
  and "??" from six tenths; whist tricks are coarser than bridge's, a game
  being five points).
* **The result.** The chance of winning the game less the chance of losing
  it on this hand (-1 to 1, Lichess's winning-chance scale): a card that gives
  up a tenth of it is an inaccuracy, a fifth a mistake, three tenths a blunder
  (:data:`RESULT_STEPS`, Lichess's own steps). Where the score matters, the
  best card is the one with the best result; among the cards within a tenth
  of it, the one with the most tricks is the reference for tricks, so that a
  card giving up a trick that cannot be scored to make the game sure is good.

A loss is marked only when it is clear of the sampling error: the tier is the
highest whose step the loss passes by more than :data:`CONFIDENCE` standard
errors, or passes when the figures are exact.

Each deal is solved double-dummy, as if from the next card on everyone saw all
four hands. That favours cashing a winner over a lead that builds up a suit,
and it gives nothing for what a card tells partner (the count a fourth-best
lead shows, a call): a few tenths of a trick at an opening lead are within
what this method cannot see, which is why the first step is a quarter of a
trick and a loss must clear it by one and a half standard errors.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from .single_dummy import Evaluation

TIERS = ("good", "inaccuracy", "mistake", "blunder")
#: expected tricks lost from which a card is an inaccuracy, a mistake, a blunder
TRICK_STEPS = (0.25, 0.5, 1.0)
#: chance of the game's result lost (win less lose) from which a card is an inaccuracy, a mistake, a blunder
RESULT_STEPS = (0.1, 0.2, 0.3)
#: how many standard errors a loss must clear a step by to be marked
CONFIDENCE = 1.5
#: the quiz's margin: a card within this many expected tricks of the best is sound
SOUND_MARGIN = TRICK_STEPS[0]


@dataclass(frozen=True)
class Loss:
    """What one choice gave up against the best, on what its player knew."""

    cards: tuple[Card, ...]
    expected: float  # its mean tricks from here
    best: float  # the reference best choice's mean tricks
    tricks: float  # expected tricks lost against it (never below 0)
    stderr: float  # standard error of ``tricks`` (paired over the same deals)
    result: float | None  # chance of the result lost, when the score matters
    result_stderr: float | None
    tier: str

    @property
    def sound(self) -> bool:
        return self.tier == "good"


def _tier(loss: float, stderr: float, steps: tuple[float, ...]) -> int:
    k = 0
    for i, step in enumerate(steps, 1):
        if loss - CONFIDENCE * stderr >= step:
            k = i
    return k


def losses(ev: Evaluation) -> tuple[Loss, ...]:
    """Every choice's loss and tier, in the order of ``ev.choices``."""
    vals = ev.choices
    if ev.score_matters:
        best_result = max(v.result for v in vals)  # type: ignore[type-var]
        near = [i for i, v in enumerate(vals) if best_result - v.result < RESULT_STEPS[0]]  # type: ignore[operator]
        r_ref = max(range(len(vals)), key=lambda i: (vals[i].result, vals[i].expected))
    else:
        near = list(range(len(vals)))
        r_ref = None
    ref = max(near, key=lambda i: vals[i].expected)
    out = []
    for i, v in enumerate(vals):
        tricks = max(0.0, vals[ref].expected - v.expected)
        se = ev.paired_stderr(ref, i)
        k = _tier(tricks, se, TRICK_STEPS) if tricks > 0 else 0
        res = res_se = None
        if r_ref is not None:
            res = max(0.0, vals[r_ref].result - v.result)  # type: ignore[operator]
            res_se = ev.paired_stderr(r_ref, i, "results")
            k = max(k, _tier(res, res_se, RESULT_STEPS))
        out.append(Loss(v.cards, v.expected, vals[ref].expected, tricks, se, res, res_se, TIERS[k]))
    return tuple(out)


def settled(ev: Evaluation, played: Card | None = None) -> bool:
    """True when more deals would not change what the judge says: the played
    card's loss is clear of every step, and every other choice's of the first
    (sound or not), by two standard errors; or the figures are exact."""
    if ev.exact:
        return True
    for loss in losses(ev):
        mine = played is None or played in loss.cards
        for step in TRICK_STEPS if mine else TRICK_STEPS[:1]:
            if abs(loss.tricks - step) < 2 * loss.stderr:
                return False
        if loss.result is not None and loss.result_stderr is not None:
            for step in RESULT_STEPS if mine else RESULT_STEPS[:1]:
                if abs(loss.result - step) < 2 * loss.result_stderr:
                    return False
    return True


__all__ = ["TIERS", "TRICK_STEPS", "RESULT_STEPS", "SOUND_MARGIN", "CONFIDENCE", "Loss", "losses", "settled"]
