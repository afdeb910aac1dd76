"""Terminal and JSON views of a hand's analysis (``whistbook analyse``).

Each card played is shown with two judges side by side, kept apart because
they answer different questions:

* the **single-dummy verdict** (:mod:`whistbook.judgement`): on what its player
  could know, how many tricks the card was expected to give up against the
  best choice, its tier, and whether it is the principle's card;
* the **double-dummy figure** (:mod:`whistbook.analysis`): how the cards lay,
  all four hands seen: hindsight.
"""

from __future__ import annotations

import os
import textwrap
from typing import Any, Iterable

from .analysis import DOUBLE_DUMMY_NOTE, Analysis, CorpusSummary, HandSummary
from .cards import Card
from .inference.rules import RULES
from .seats import SEATS, Side
from .wording import TIER_WORDS, tricks_amount

#: One sentence every view of the single-dummy verdicts carries: what they rest on.
SINGLE_DUMMY_NOTE = (
    "Single-dummy verdicts: each card is weighed on what its player could know (his own cards, the cards "
    "played, what the laws prove and what the conventions presume), over deals drawn at random among those "
    "that fit, each solved double-dummy from that card on. A card is good within a quarter of a trick of the "
    "best choice; an inaccuracy, a mistake or a blunder from a quarter, a half or a whole trick lost on average "
    "(or a tenth, a fifth or three tenths of the chance of the game's result, where the score makes it matter)."
)

_ASCII = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "✗": "x", "—": "-", "±": "+/-", "·": "-"}


def _plain(text: str, ascii_only: bool) -> str:
    if ascii_only:
        for k, v in _ASCII.items():
            text = text.replace(k, v)
    return text


def _cards_text(cs: Iterable[Card]) -> str:
    return " ".join(c.symbol for c in cs)


def _sides_text(d: dict[Side, int]) -> str:
    return f"AB {d[Side.AB]}, YZ {d[Side.YZ]}"


def rule_words(rule: str | None) -> str:
    """A rule of play named for a reader: its title and page."""
    if rule is None:
        return "no rule speaks"
    r = RULES.get(rule)
    if r is None:
        return rule.replace("_", " ")
    if not r.page:
        return r.title.lower()
    if not r.page[0].isdigit():
        return f"{r.title.lower()}, {r.page}"
    return f"{r.title.lower()}, {'pp.' if '-' in r.page or ',' in r.page else 'p.'} {r.page}"


# --------------------------------------------------------------------------- JSON

def analysis_json(a: Analysis, judgement: Any = None) -> dict[str, Any]:
    """The analysis as JSON; with a :class:`~whistbook.judgement.Judgement`, each
    played card also carries ``single_dummy``, ``verdict``, ``principle`` and
    ``follows_principle`` (see docs/analysis.md)."""
    data = a.to_json()
    if judgement is None:
        return data
    data["single_dummy_note"] = SINGLE_DUMMY_NOTE
    for t_json, t in zip(data["tricks"], a.tricks):
        for c_json, v in zip(t_json["cards"], t.cards):
            j = judgement.card(t.number, v.seat)
            if j is not None:
                c_json.update(j.to_json())
    return data


# --------------------------------------------------------------------------- text

def render_analysis_text(a: Analysis, judgement: Any = None, *, ascii_only: bool = False, width: int = 78) -> str:
    """The analysis for a terminal: one line per card, costly cards marked; with
    a judgement, a second line per card judged saying what it was worth on what
    its player knew."""
    out: list[str] = []
    title = f"{a.title}: analysis" if a.title else "Analysis"
    out += [title, "=" * min(len(title), width)]
    if judgement is not None:
        out += textwrap.wrap(SINGLE_DUMMY_NOTE, width)
        out.append("")
    out += textwrap.wrap(DOUBLE_DUMMY_NOTE, width)
    out.append("")
    out.append(f"Before the opening lead ({a.first_leader} to lead), best play gives {_sides_text(a.start)}.")
    out += textwrap.wrap(
        "The figure after each card is the number of tricks the side to play takes, from that card to the end "
        "of the hand, with best play afterwards, all four hands seen. ✗ marks a card that loses tricks against "
        "the best card; the better cards follow it.", width)
    out.append("")
    unshown = False
    for t in a.tricks:
        if not t.shown and not unshown:
            out.append("Tricks the book does not show, as written out:")
            out.append("")
            unshown = True
        out.append(f"Trick {t.number}: {t.leader} leads, {t.winner} wins")
        for v in t.cards:
            line = f"  {v.seat}  {v.card.symbol:>3}  {v.tricks_if_played:>2} of {t.tricks_left:<2}"
            if v.cost:
                line += f"  ✗ costs {v.cost} (best: {_cards_text(v.best_cards)}, {v.best_tricks} of {t.tricks_left})"
            elif v.forced:
                line += "  (only card)"
            out.append(line.rstrip())
            j = judgement.card(t.number, v.seat) if judgement is not None else None
            if j is not None and not j.forced:
                out += textwrap.wrap(judged_text(j), width, initial_indent="        ", subsequent_indent="        ")
    if a.claimed_tricks:
        out.append("")
        first = len(a.tricks) + 1
        span = f"Trick {first}" if a.claimed_tricks == 1 else f"Tricks {first} to {first + a.claimed_tricks - 1}"
        text = f"{span} are claimed, not played out"
        if a.claim:
            text += f" ({_sides_text(a.claim)})"
        if a.claim_dd:
            text += f"; best play from there gives {_sides_text(a.claim_dd)}"
        out += textwrap.wrap(text + ".", width)
    out.append("")
    out += textwrap.wrap(_verdict_text(a), width)
    if judgement is not None:
        out += textwrap.wrap(_judgement_summary(judgement), width)
    return _plain("\n".join(out) + "\n", ascii_only)


def judged_text(j: Any) -> str:
    """One card's single-dummy verdict in words."""
    loss = j.loss
    if j.revoke:
        return "A revoke: the laws, not the judge, say what it costs."
    parts = [f"On what {j.seat} knew: {TIER_WORDS[j.verdict]}"]
    if loss is not None:
        deals = "every deal he could imagine" if j.exact else f"{j.samples} deals"
        figure = f"{loss.expected:.2f} tricks expected"
        if loss.tricks > 0.005:
            best = j.best
            figure += f" against {loss.best:.2f} with {_cards_text(best.cards)}" if best else ""
            figure += f" ({tricks_amount(loss.tricks)} lost" + (f", ±{loss.stderr:.2f}" if not j.exact else "") + ")"
        else:
            figure += ", as good as any"
        if loss.result is not None and loss.result >= 0.005:
            figure += f"; {loss.result:.0%} of the chance of the game's result given up"
        if j.basis == "certain":
            deals += " (the conventions' presumptions left no deal, so only what is certain was kept)"
        parts.append(f"{figure}, over {deals}")
    if j.principle.silent:
        parts.append("the conventions are silent here")
    elif j.follows_principle:
        parts.append(f"the principle's card ({rule_words(j.rule)})")
    else:
        parts.append("the principle would play " + " or ".join(
            f"{_cards_text(cards)} ({rule_words(rule)})" for rule, cards in j.principle.by_rule()))
    return "; ".join(parts) + "."


def _judgement_summary(judgement: Any) -> str:
    counts: dict[str, dict[str, int]] = {}
    for j in judgement.cards:
        if j.verdict != "good":
            counts.setdefault(str(j.seat), {}).setdefault(j.verdict, 0)
            counts[str(j.seat)][j.verdict] += 1
    if not counts:
        return "On what each player knew, every card judged was good."
    bits = []
    for seat in SEATS:
        c = counts.get(str(seat))
        if c:
            bits.append(f"{seat} " + ", ".join(_count(n, tier) for tier, n in c.items()))
    return "On what each player knew: " + "; ".join(bits) + "."


def _count(n: int, tier: str) -> str:
    if n == 1:
        return f"1 {tier}"
    return f"{n} inaccuracies" if tier == "inaccuracy" else f"{n} {tier}s"


def _verdict_text(a: Analysis) -> str:
    parts = []
    if a.taken:
        parts.append(f"AB took {a.taken[Side.AB]} tricks and YZ {a.taken[Side.YZ]}, "
                     f"against {a.start[Side.AB]} and {a.start[Side.YZ]} with best play from the start.")
    if a.claim and a.claim_dd:
        for side in Side:
            gap = a.claim_dd[side] - a.claim[side]
            if gap > 0:
                parts.append(f"The claim gives {side} {gap} trick{'s' if gap != 1 else ''} fewer than best play from there.")
    if a.perfect:
        parts.append("Double-dummy, no card played cost a trick.")
    else:
        costs = a.cost_by_seat()
        bits = [f"{s} {n} trick{'s' if n != 1 else ''}" for s, n in costs.items() if n]
        n = len(a.costly)
        parts.append(f"Double-dummy, {n} card{'s' if n != 1 else ''} cost tricks: " + ", ".join(bits) + ".")
    return " ".join(parts)


def render_summary_text(cs: CorpusSummary, *, ascii_only: bool = False, width: int = 78) -> str:
    """The corpus summary as a table: double-dummy tricks at the start, tricks
    taken, and the tricks each seat's cards cost."""
    out: list[str] = []
    if not cs.hands:
        return "No played hands to sum up.\n"
    out += textwrap.wrap(DOUBLE_DUMMY_NOTE, width)
    out.append("")
    name_w = max([len(_short(h)) for h in cs.hands] + [4])
    out.append(f"{'':<{name_w}}  {'start':<6} {'taken':<6}  tricks cost by")
    out.append(f"{'hand':<{name_w}}  AB YZ  AB YZ    A  Y  B  Z")
    out.append("-" * (name_w + 28))
    for h in cs.hands:
        taken = f"{h.taken[Side.AB]:>2} {h.taken[Side.YZ]:>2}" if h.taken else " ?  ?"
        costs = " ".join(f"{h.cost_by_seat[s]:>2}" if h.cost_by_seat[s] else " ." for s in SEATS)
        mark = "   perfect" if h.perfect else ""
        out.append(f"{_short(h):<{name_w}}  {h.start[Side.AB]:>2} {h.start[Side.YZ]:>2}  {taken}   {costs}{mark}")
    out.append("")
    n = len(cs.hands)
    perfect = cs.perfect
    text = (f"{len(perfect)} of {n} hand{'s' if n != 1 else ''} played without a costly card"
            + (": " + ", ".join(_short(h) for h in perfect) if perfect else "") + ".")
    out += textwrap.wrap(text, width)
    totals = cs.cost_by_seat()
    out.append("Tricks cost over all hands: " + ", ".join(f"{s} {totals[s]}" for s in SEATS) + ".")
    for h in cs.hands:
        for side, n in (h.claim_shortfall or {}).items():
            if n > 0:
                out += textwrap.wrap(
                    f"{_short(h)}: the claim gives {side} {n} trick{'s' if n != 1 else ''} fewer than best "
                    f"play from there; the tricks taken include this.", width)
    return _plain("\n".join(out) + "\n", ascii_only)


def _short(h: HandSummary) -> str:
    return h.title or os.path.basename(h.path)


__all__ = ["SINGLE_DUMMY_NOTE", "analysis_json", "render_analysis_text", "render_summary_text", "judged_text",
           "rule_words"]
