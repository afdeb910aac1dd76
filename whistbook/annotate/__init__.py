"""``whistbook annotate``: draft remarks for a hand, from the engines' records.

The stages: the checked hand is explained from the known hand's seat
(:mod:`whistbook.inference`) and its cards judged (:mod:`whistbook.judgement`);
the sources of :mod:`.moments` find the teachable moments in those records;
the tricks whose moments weigh enough get a draft, worded by :mod:`.words`;
:mod:`.splice` writes each draft into the file as ``remark_draft``, at tricks
that have neither a remark nor a draft, changing nothing else.

>>> from whistbook.corpus import check_file
>>> checked = check_file("hands/cavendish/03-rule-of-returned-leads.yaml", solver=False)
>>> draft, = drafts(records_of(checked, judge=False))   # without the judge: the engine and the themes
>>> draft.trick, [m.kind for m in draft.moments]
(6, ['theme', 'inference'])
>>> print(draft.text)
A's {3C}: the trump lead from strength (pp. 119-124). Z presumably does not hold {KC} (fourth hand wins if he can, p. 96).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..cards import Card
from ..errors import WhistbookError
from ..seats import SEATS
from .moments import SOURCES, THRESHOLD, Moment, Records, Source, chosen, moments, register
from .splice import DRAFT_KEY, Unplaceable, splice
from .words import remark


@dataclass(frozen=True)
class Draft:
    """The draft remark of one trick, and the moments it was made from."""

    trick: int
    text: str
    moments: tuple[Moment, ...]


def records_of(checked: Any, *, judge: bool = True, seed: int = 0, budget: Any = None, cache: Any = None,
               progress: Callable[[int, int], None] | None = None) -> Records:
    """The engines' records of a checked hand: its explanation from the known
    hand, and (``judge``) the single-dummy judgement of every seat's cards.

    :raises WhistbookError: when the hand does not replay.
    """
    from ..inference import explain

    explanation = explain(checked)
    judgement = None
    if judge:
        from ..judgement import Budget
        from ..judgement import judge as judge_cards

        judgement = judge_cards(checked, seed=seed, budget=budget or Budget(), cache=cache, progress=progress)
    return Records(checked, explanation, judgement, _themes(checked, judgement))


def _themes(checked: Any, judgement: Any) -> Any:
    """The theme detectors' findings (each confirmed by the solver where it needs it)."""
    from ..themes import detect

    return detect(checked, judgement)


def drafts(records: Records, *, threshold: float = THRESHOLD, sources: Iterable[Source] | None = None) -> list[Draft]:
    """A draft for each trick with a moment worth a remark, in trick order."""
    found = chosen(moments(records, sources), threshold)
    rp = records.checked.replay
    viewer = records.viewer
    out = []
    for number, ms in sorted(found.items()):
        if number > len(rp.tricks):
            continue
        known = set(rp.hands[viewer]) | {p.card for t in rp.tricks[:number] for p in t.plays}
        out.append(Draft(number, remark(ms, known), tuple(ms)))
    return out


def open_tricks(hand: Any) -> set[int]:
    """The tricks (1-based) a draft may be written at: those without a remark or a draft."""
    return {t.number for t in hand.tricks if t.remark is None and t.remark_draft is None}


def write_drafts(text: str, path: str, hand: Any, found: Iterable[Draft]) -> tuple[str, list[Draft]]:
    """``text`` with each draft at an open trick spliced in; the drafts written.

    :raises Unplaceable: for a trick whose form leaves no place for one.
    """
    free = open_tricks(hand)
    written = [d for d in found if d.trick in free]
    crlf = "\r\n" in text  # a file saved with Windows line ends keeps them, the drafts' lines too
    new = splice(text.replace("\r\n", "\n") if crlf else text, {d.trick - 1: d.text for d in written}, path)
    return (new.replace("\n", "\r\n") if crlf else new), written


__all__ = ["Draft", "Moment", "Records", "Source", "SOURCES", "register", "records_of", "drafts", "write_drafts",
           "open_tricks", "DRAFT_KEY", "Unplaceable", "THRESHOLD"]
