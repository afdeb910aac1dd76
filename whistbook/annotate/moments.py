"""The teachable moments of a played hand, found in the engines' records.

A :class:`Moment` is data: a trick, the seat and cards concerned, the rule of
the book it illustrates, how much it is worth a remark (``weight``), and the
record it was made from (an inference, a departure from rule, a card's
judgement, a theme's decisive card). Each *source* is a function from the
hand's records (:class:`Records`) to moments; :data:`SOURCES` lists them, and
a new one (the theme detectors, say) is added with :func:`register`.
Nothing here makes words: :mod:`.words` does that, at the edge.

The weights were set by looking at the 39 hands (``benchmarks/annotate_book.py``
measures how often a source's moment falls where Cavendish remarks); they
order the moments of a trick and decide which tricks get a draft at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..cards import Card
from ..seats import Seat

#: tiers of the judge's verdict worth a remark, and their weight (for the known hand's card, and for another's):
#: the reader is taught by his own seat's play first
VERDICT_WEIGHTS = {"blunder": (1.0, 1.0), "mistake": (0.9, 0.9), "inaccuracy": (0.6, 0.3)}
#: a card that is not the one the conventions choose (the known hand's, another's)
PRINCIPLE_WEIGHTS = (0.6, 0.3)
#: signals worth a remark, and their weight (a first discard is common and tells less)
SIGNAL_WEIGHTS = {"call_for_trumps": 1.0, "echo": 1.0, "trump_fourth_best_count": 0.8,
                  "unblock_partners_suit": 0.5, "original_discard": 0.5}
#: a draft is written at a trick whose best moment weighs at least this
THRESHOLD = 0.5


@dataclass(frozen=True)
class Moment:
    """Something teachable at one trick, as the engines recorded it."""

    trick: int  # the trick after which the remark is read (1-based)
    kind: str  # "verdict" | "departure" | "signal" | "inference" | "theme" | ...
    seat: Seat
    weight: float
    cards: tuple[Card, ...] = ()
    rule: str | None = None  # an id of whistbook.inference.RULES, for the citation
    record: Any = field(default=None, compare=False)  # the engine's record it was made from
    page: str | None = None  # the book's page, when the moment is not one of RULES' (a theme's)


@dataclass(frozen=True)
class Records:
    """What the engines made of one hand, read by the sources."""

    checked: Any  # a CheckedHand that replays
    explanation: Any  # whistbook.inference.Explanation, from the known hand
    judgement: Any = None  # whistbook.judgement.Judgement, when the judge ran
    themes: Any = None  # the theme detectors' findings (whistbook.themes.ThemeFinding), when they ran

    @property
    def viewer(self) -> Seat:
        return self.explanation.viewpoint


Source = Callable[[Records], Iterable[Moment]]
SOURCES: list[Source] = []


def register(source: Source) -> Source:
    """Add a source of moments (usable as a decorator)."""
    SOURCES.append(source)
    return source


def moments(records: Records, sources: Iterable[Source] | None = None) -> list[Moment]:
    """Every moment the sources find, by trick and weight (heaviest first)."""
    found = [m for src in (SOURCES if sources is None else sources) for m in src(records)]
    return sorted(found, key=lambda m: (m.trick, -m.weight))


def chosen(found: Iterable[Moment], threshold: float = THRESHOLD, per_trick: int = 2) -> dict[int, list[Moment]]:
    """The tricks worth a draft, each with its heaviest moments (at most ``per_trick``,
    one per kind and seat, and one about a card)."""
    out: dict[int, list[Moment]] = {}
    for m in found:
        keep = out.setdefault(m.trick, [])
        if len(keep) < per_trick and not any((k.kind, k.seat) == (m.kind, m.seat) or (k.cards and k.cards == m.cards)
                                             for k in keep):
            keep.append(m)
    return {t: ms for t, ms in out.items() if ms and ms[0].weight >= threshold}


# --- the sources ---------------------------------------------------------------------------


@register
def verdicts(records: Records) -> Iterable[Moment]:
    """A card its player could have bettered on what he could see (the judge's
    single-dummy verdict: an inaccuracy or worse)."""
    if records.judgement is None:
        return
    for j in records.judgement.cards:
        weights = VERDICT_WEIGHTS.get(j.verdict)
        if weights is not None and not j.revoke:
            yield Moment(j.trick, "verdict", j.seat, weights[j.seat != records.viewer], (j.card,), j.principle.rule, j)


@register
def principles(records: Records) -> Iterable[Moment]:
    """A convention left: a card that is not the one the conventions choose
    there (the judge's principle), judged good all the same (a worse card is
    the verdicts' moment)."""
    if records.judgement is None:
        return
    for j in records.judgement.cards:
        if j.follows_principle is False and j.verdict == "good" and not j.forced:
            weight = PRINCIPLE_WEIGHTS[j.seat != records.viewer]
            yield Moment(j.trick, "principle", j.seat, weight, (j.card,), j.principle.rule, j)


@register
def departures(records: Records) -> Iterable[Moment]:
    """A convention broken: a card that the later play shows was not to rule
    (the inference engine's departures), read where the cards show it."""
    for d in records.explanation.departures:
        if d.layer == "presumed":
            yield Moment(d.found_at, "departure", d.seat, 0.6, (d.card,) if d.card is not None else (), d.rule, d)


@register
def signals(records: Records) -> Iterable[Moment]:
    """A convention shown: a call for trumps, an echo, a first discard."""
    for t in records.explanation.tricks:
        for inf in t.inferences:
            if inf.kind == "signal" and inf.seat != records.viewer:
                yield Moment(t.number, "signal", inf.seat, SIGNAL_WEIGHTS.get(inf.rule, 0.5), inf.cards, inf.rule, inf)


@register
def trump_leads(records: Records) -> Iterable[Moment]:
    """A side's first lead of trumps: the book's great question (lead trumps from
    strength, or when the long suit is made), and what the lead tells partner."""
    rp = records.checked.replay
    led: set = set()
    for t in rp.tricks:
        side = t.leader.side
        if t.led_suit == rp.trumps and side not in led and side == records.viewer.side:
            led.add(side)
            yield Moment(t.number, "trump-lead", t.leader, 0.65, (t.plays[0].card,), "trump_lead_strength", t)


#: a theme's decisive card (the known hand's, another's); the themes found by the inference engine's
#: signals are the signals' moments
THEME_WEIGHTS = (0.7, 0.45)
_SIGNAL_THEMES = {"call", "echo"}


@register
def themes(records: Records) -> Iterable[Moment]:
    """A theme's decisive moment: the card that is the theme's play (the theme
    detectors of :mod:`whistbook.themes`, confirmed by the solver where the
    theme is a matter of result)."""
    from ..themes import THEMES

    for f in records.themes or ():
        if f.theme not in _SIGNAL_THEMES and f.confirmed is not False:
            theme = THEMES[f.theme]
            weight = THEME_WEIGHTS[f.seat != records.viewer]
            yield Moment(f.trick, "theme", f.seat, weight, (f.card,), None, f, theme.page)


@register
def placements(records: Records) -> Iterable[Moment]:
    """An inference that changes what the known hand knows: an honour of the
    unseen hands placed, or denied, by the laws or the conventions."""
    for t in records.explanation.tricks:
        for inf in t.inferences:
            if inf.kind in ("holds", "lacks") and inf.certainty in ("certain", "presumed") and inf.rule != "turn_up_card" \
                    and any(c.rank >= 11 for c in inf.cards):
                weight = 0.45 if inf.certainty == "certain" else 0.35
                yield Moment(t.number, "inference", inf.seat, weight, inf.cards, inf.rule, inf)


__all__ = ["Moment", "Records", "Source", "SOURCES", "register", "moments", "chosen", "THRESHOLD"]
