"""A draft remark's words, made from moments at the edge.

Each moment becomes one short sentence in plain words with the book's page
(from the rule it rests on), written in the remark markup: a card as
``{KC}``, so that the lesson marks it up as it does the author's remarks. The
sentences say nothing the reader holding the known hand could not know after
the trick: another seat's better card is named only once it is known (the
reader's own, or already played).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from .. import wording
from ..cards import Card
from ..wording import Words
from .moments import Moment


def markup(words: Words) -> str:
    """Words in the remark markup: cards as ``{KC}``, suits as ``{S}``."""
    out = []
    for w in words:
        if isinstance(w, Card):
            out.append("{" + str(w) + "}")
        elif isinstance(w, str):
            out.append(w)
        else:  # a suit
            out.append("{" + w.letter + "}")
    return "".join(out)


def cite(rule: str | None) -> str:
    """`` (second hand low, pp. 82-84)``, or nothing for a rule without a page."""
    ref = wording.citation(rule)
    return f" ({ref})" if ref else ""


def remark(moments: Sequence[Moment], known: Iterable[Card] = ()) -> str:
    """The draft of one trick: a sentence for each moment, heaviest first.
    ``known`` holds the cards the reader knows of by then (his own and those played)."""
    seen = frozenset(known)
    return " ".join(sentence(m, seen) for m in moments)


def sentence(m: Moment, known: frozenset[Card] = frozenset()) -> str:
    make = _SENTENCES.get(m.kind)
    if make is None:
        raise ValueError(f"no words for a moment of kind {m.kind!r}")
    return make(m, known)


def _verdict(m: Moment, known: frozenset[Card]) -> str:
    j = m.record
    loss = j.loss
    seat = str(m.seat)
    words: list = [f"{seat}'s ", m.cards[0], f" is {wording.TIER_WORDS[j.verdict]} on what {seat} could see"]
    if loss is not None:
        words.append(f": it gives up {wording.tricks_amount(loss.tricks)} on average")
        if loss.result is not None and loss.result >= 0.1:
            words.append(f" and {round(loss.result * 100)}% of the chance of the game's result")
    better = [c for c in (j.best.cards if j.best is not None else ()) if c in known]
    if better:
        words += ["; ", *_cards(better, "or"), " was better"]
    rule = j.principle.rule
    if rule is not None and j.follows_principle is False:
        choice = [c for c in j.principle.cards if c in known]
        words += [". It is not the card of the rule", cite(rule), *([", which chooses ", *_cards(choice, "or")]
                                                                     if choice else [])]
    elif rule is not None:
        words.append(f", though it is the card of the rule{cite(rule)}")
    return markup(tuple(words)) + "."


def _principle(m: Moment, known: frozenset[Card]) -> str:
    j = m.record
    seat = str(m.seat)
    choice = [c for c in j.principle.cards if c in known]
    words: list = [f"{seat}'s ", m.cards[0], " leaves the rule", cite(j.principle.rule)]
    if choice:
        words += [", which chooses ", *_cards(choice, "or")]
    loss = j.loss
    if loss is None or loss.tricks < 0.15:
        words.append(f"; on what {seat} could see it is as good a card (single-dummy)")
    else:
        words.append(f"; on what {seat} could see it is within a quarter of a trick of the best (single-dummy)")
    return markup(tuple(words)) + "."


def _departure(m: Moment, known: frozenset[Card]) -> str:
    d = m.record
    rule = wording.citation(d.rule) or "its rule"
    card: Words = (" ", d.card) if d.card is not None else ()
    if d.trick == m.trick:
        return markup((f"{d.seat}'s", *card, f" leaves the rule ({rule})."))
    return markup((f"{d.seat}'s", *card, f" at trick {d.trick} was not played to the rule ({rule}): "
                   "the cards seen by now show it."))


def _inference(m: Moment, known: frozenset[Card]) -> str:
    words = wording.sentence(m.record)
    return markup(words)[:-1] + cite(m.rule) + "."


def _cards(cards: Sequence[Card], last: str) -> list:
    out: list = []
    for k, c in enumerate(cards):
        if k:
            out.append(f" {last} " if k == len(cards) - 1 else ", ")
        out.append(c)
    return out


def _theme(m: Moment, known: frozenset[Card]) -> str:
    from ..themes import THEMES

    title = THEMES[m.record.theme].title
    return markup((f"{m.seat}'s ", m.cards[0], f": {title[0].lower() + title[1:]} ({wording.page_ref(m.page)})."))


def _trump_lead(m: Moment, known: frozenset[Card]) -> str:
    return markup((f"{m.seat} leads a trump, ", m.cards[0], ": a lead of trumps made of one's own accord shows "
                   f"strength in them{cite(m.rule)}."))


_SENTENCES = {"theme": _theme, "trump-lead": _trump_lead, "verdict": _verdict, "principle": _principle, "departure": _departure, "signal": _inference,
              "inference": _inference}


__all__ = ["markup", "cite", "remark", "sentence"]
