"""English sentences for inference records, from a small table of templates.

Each kind of inference has one template; the certainty adds a word in front
("Presumably", "Probably") and the rule a short reason after. Everything a
template needs is on the record, so a lesson renderer can write its own
sentences from the same fields instead.
"""

from __future__ import annotations

from ..cards import RANK_NAMES, Card, Suit
from .rules import RULES

TEMPLATES: dict[str, str] = {
    "holds": "{who} holds {cards}",
    "lacks": "{who} does not hold {cards}",
    "void": "{who} has no {suits} left",
    "count_exact": "{who} has {n} {suit_word} left",
    "count_min": "{who} has at least {lo} {suit_word} left",
    "count_max": "{who} has at most {hi} {suit_word} left",
    "count_range": "{who} has between {lo} and {hi} {suits} left",
    "call_for_trumps": "{who} has called for trumps ({cards_played}): he holds four trumps with two honours, or five",
    "echo": "{who} has echoed ({cards_played}): he holds four trumps or more",
    "trump_fourth_best_count": "{who} trumped high and then lower ({cards_played}): he held five trumps or more",
    "unblock_partners_suit": "{who} played high and then low in his partner's suit ({cards_played}) to clear it, which is not a call",
    "original_discard": "{who}'s first discard is from {suits}: his weakest suit",
    "original_discard_defensive": "{who}'s first discard is from {suits}: his best-guarded suit, trumps being declared against him",
}

QUALIFIER = {"certain": "", "presumed": "Presumably ", "probable": "Probably "}
NUMBERS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
           8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen"}


def cards_words(cards) -> str:
    """``the king and two of clubs``, ``the ace of hearts and the ten of spades``."""
    by_suit: dict[Suit, list[Card]] = {}
    for c in sorted(cards, key=lambda c: (c.suit, -c.rank)):
        by_suit.setdefault(c.suit, []).append(c)
    parts = []
    for s, cs in by_suit.items():
        names = [RANK_NAMES[c.rank] for c in cs]
        parts.append("the " + _join(names) + " of " + s.plural)
    return _join(parts)


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def sentence(kind: str, certainty: str, rule: str, who: str, *, cards=(), suit: Suit | None = None,
             lo: int | None = None, hi: int | None = None, cards_played=(), tricks=(), template: str | None = None) -> str:
    """The English sentence for one record. For ``count``, ``lo``/``hi`` of
    ``None`` mean that bound is not being stated."""
    suits = suit.plural if suit is not None else ""
    if kind == "count":
        if lo is not None and lo == hi:
            key, n = "count_exact", lo
        elif hi is None:
            key, n = "count_min", lo
        elif lo is None:
            key, n = "count_max", hi
        else:
            key, n = "count_range", hi
        word = suit.singular if n == 1 else suits  # type: ignore[union-attr]
        body = TEMPLATES[key].format(who=who, n=NUMBERS.get(n, n), lo=NUMBERS.get(lo, lo),
                                     hi=NUMBERS.get(hi, hi), suit_word=word, suits=suits)
    elif kind == "signal":
        played = ", then ".join(f"the {RANK_NAMES[c.rank]} at trick {t}" for c, t in zip(cards_played, tricks))
        body = TEMPLATES[template or rule].format(who=who, cards_played=played, suits=suits)
    else:
        body = TEMPLATES[kind].format(who=who, cards=cards_words(cards), suits=suits)
    text = QUALIFIER[certainty] + body
    r = RULES.get(rule)
    if r is not None:
        text += f" ({r.title[0].lower() + r.title[1:]}" + (f", p. {r.page}" if r.page else "") + ")"
    return text + "."
