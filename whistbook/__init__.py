"""whistbook: whist hands in YAML, replayed, checked, explained and rendered as lessons.

The public API is what this module exports (``__all__``); ``docs/api.md``
shows it at work. Modules are nouns (:mod:`whistbook.cards`,
:mod:`whistbook.play`, :mod:`whistbook.laws`...), functions verbs. Importing
whistbook loads no engine: the inference engine, the double-dummy solver and
the renderers are imported by the functions that need them.

>>> import whistbook
>>> hand = whistbook.load("hands/cavendish/03-rule-of-returned-leads.yaml")
>>> checked = whistbook.check(hand, solver=False)
>>> checked.ok, checked.final_tricks
(True, {Side.AB: 9, Side.YZ: 4})
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Iterable

from .cards import DECK, SUITS, Card, Suit
from .deal import Deal
from .errors import (
    AnalysisError,
    ConfigError,
    DealError,
    Diagnostic,
    HandFileError,
    IllegalPlayError,
    InvalidCardError,
    RecordError,
    RenderError,
    ResultError,
    SchemaError,
    SolverError,
    SourceLocation,
    WhistbookError,
    YamlSyntaxError,
)
from .handfile import load, loads
from .laws import CheckedHand
from .model import HandFile
from .play import Play, Replay, Trick
from .scoring import Score, honours_held, score_hand
from .seats import SEATS, Seat, Side

if TYPE_CHECKING:  # pragma: no cover
    from .analysis import Analysis, Cache
    from .inference import Explanation
    from .judgement import Budget, Judgement


def check(hand: HandFile, *, solver: bool = True) -> CheckedHand:
    """Check a loaded hand through every stage (the laws, a problem's task,
    the ``infer:`` statements). Problems in the file are returned as
    ``diagnostics``, never raised; ``solver=False`` takes a claim as stated
    instead of checking it double-dummy."""
    from .corpus import check_hand
    from .inference.statements import check_stated

    checked = check_hand(hand, solver=solver)
    checked.diagnostics.extend(check_stated(checked))  # explains the hand only when it states inferences
    return checked


def replay(hand: HandFile) -> Replay:
    """Play the hand's written tricks card by card, as :func:`check` does
    (the revokes and the leads out of turn the file records included).

    :raises DealError: when the deal is not 52 distinct cards, 13 a hand.
    :raises IllegalPlayError: at the first illegal play, located at its card.
    """
    from .play import replay_hand

    Deal.from_hands(hand.deal)  # the deal itself first: a replay of a wrong deal says nothing useful
    return replay_hand(hand)


def explain(checked: CheckedHand, seat: Seat | None = None) -> "Explanation":
    """What ``seat`` (default: the file's known hand) may conclude after each
    trick: records of what is certain, presumed and probable, with their rules.

    :raises WhistbookError: if the hand does not replay.
    """
    from .inference import explain as run

    return run(checked, seat)


def analyse(checked: CheckedHand, cache: "Cache | None" = None) -> "Analysis":
    """Judge every card played double-dummy: the tricks its side could still
    take, against the best card it had.

    :raises AnalysisError: for a problem file or a hand that does not replay.
    """
    from .analysis import analyse as run

    return run(checked, cache)


def judge(checked: CheckedHand, seats: "Iterable[Seat] | None" = None, *, samples: int | None = None,
          seed: int = 0, cache: "Cache | None" = None) -> "Judgement":
    """Judge every card the ``seats`` (default: all four) played, as a teacher
    would: its single-dummy worth on what its player could know (deals
    consistent with his knowledge, drawn and solved; at most ``samples`` a
    card), the card the conventions choose there, and a verdict (good,
    inaccuracy, mistake, blunder). The same ``seed`` gives the same verdicts.

    :raises WhistbookError: if the hand does not replay.
    :raises SolverError: if the double-dummy solver cannot be used.
    """
    from .judgement import Budget, judge as run

    if checked.replay is None:
        raise WhistbookError("the hand has errors ('whistbook validate' lists them), so its cards cannot be judged")
    return run(checked, seats=seats, seed=seed, budget=Budget.up_to(samples), cache=cache)


def render_lesson(checked: CheckedHand) -> str:
    """One hand's lesson page as HTML, with its inferences (the page links to
    ``whistbook.css``, which ``whistbook build`` writes beside it).

    :raises WhistbookError: if the hand has errors; RenderError if a template fails.
    """
    from .inference import RULES
    from .lesson import build_lesson
    from .render.environment import make_environment
    from .render.html import render_lesson as render_page

    if checked.replay is None or not checked.ok:
        raise WhistbookError("the hand has errors ('whistbook validate' lists them), so it has no lesson")
    explanation = explain(checked) if checked.hand.kind == "hand" else None
    lesson = build_lesson(checked, explanation=explanation, rules=RULES)
    return render_page(lesson, make_environment())


__all__ = [
    "__version__",
    # cards, seats and deals
    "Card", "Suit", "SUITS", "DECK", "Seat", "Side", "SEATS", "Deal",
    # hand files and what the stages make of them
    "load", "loads", "HandFile", "check", "CheckedHand", "replay", "Replay", "Trick", "Play",
    "explain", "analyse", "judge", "render_lesson", "score_hand", "honours_held", "Score",
    # errors
    "WhistbookError", "HandFileError", "YamlSyntaxError", "SchemaError", "InvalidCardError", "DealError",
    "IllegalPlayError", "ResultError", "SolverError", "AnalysisError", "RenderError", "RecordError",
    "ConfigError", "Diagnostic", "SourceLocation",
]
