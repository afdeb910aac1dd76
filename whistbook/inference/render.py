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
        text += f" ({r.title[0].lower() + r.title[1:]}" + (f", {page_ref(r.page)}" if r.page else "") + ")"
    return text + "."


def page_ref(page: str) -> str:
    """``56`` -> ``p. 56``; ``134-136`` -> ``pp. 134-136``; ``Laws 71-73`` as it is."""
    if not page[:1].isdigit():
        return page
    head, _, tail = page.partition(";")
    first = head.strip()
    ref = ("pp. " if "-" in first or "," in first else "p. ") + first
    return ref + (";" + tail if tail else "")


_LABEL = {"certain": "certain ", "presumed": "presumed", "probable": "probable"}


def explanation_text(checked, ex, trick: int | None = None, ascii_only: bool = False) -> str:
    """The explanation as the ``explain`` command prints it: each trick, then
    what the viewer may conclude, strongest layer first."""
    from ..cards import SUITS, format_holding

    hf, rp = checked.hand, checked.replay
    v = ex.viewpoint
    own = sorted(rp.hands[v], key=lambda c: (c.suit, -c.rank))

    def card(c: Card) -> str:
        return str(c) if ascii_only else c.symbol

    held = "  ".join(
        (s.letter if ascii_only else s.symbol) + " " + format_holding([c for c in own if c.suit == s])
        for s in SUITS)
    lines = [f"{hf.title}: the play as {v} sees it", f"{v} holds  {held}"]
    if hf.turn_up is not None and hf.dealer is not None:
        lines.append(f"{hf.dealer} deals and turns up the {hf.turn_up.card.name}; trumps are {hf.trumps.plural}.")
    lines.append("")
    order = {"certain": 0, "presumed": 1, "probable": 2}
    for te in ex.tricks:
        if trick is not None and te.number != trick:
            continue
        tr = rp.tricks[te.number - 1]
        plays = ", ".join(f"{p.seat} {card(p.card)}" for p in tr.plays)
        lines.append(f"Trick {te.number}: {plays}; {tr.winner} wins.")
        infs = sorted(te.inferences, key=lambda i: (order[i.certainty], i.kind == "signal"))
        if not infs and not te.departures:
            lines.append("  (nothing new)")
        for i in infs:
            rests = f"  [tricks {', '.join(map(str, i.rests_on))}]" if i.rests_on else ""
            lines.append(f"  {_LABEL[i.certainty]}  {i.text}{rests}")
        for d in te.departures:
            lines.append(f"  departure {d.text}.")
        lines.append("")
    text = "\n".join(lines)
    if ascii_only:
        text = text.replace("—", "-")
    return text
