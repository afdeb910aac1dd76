"""The hand file of a hand made on a theme (:mod:`whistbook.generate`).

An ordinary hand file, written from the records of the making: the deal, the
turn-up, the tricks up to a little after the decisive one, a claim for the
rest that the solver accepts, the theme, a ``source`` naming the seed that
makes the hand again, and a draft remark at the decisive trick, its words
made here from the judge's figures, the principle's rule and the solver's
counterfactual (never read back: the file's remark is for its author to edit).
"""

from __future__ import annotations

from . import __version__
from .cards import Card
from .deal import hand_line
from .inference.rules import RULES
from .laws import describe_result
from .scoring import honours_held, score_hand
from .seats import SEATS, Side

#: tricks written out after the decisive one (the rest is claimed)
AFTER = 2
#: written out at least this far, so that the play leading to a late decision is seen
AT_LEAST = 6

#: the decisive play, in words, by the rule the theme's predicate saw
PLAYS = {
    "finesse_third_hand": "{seat} finesses the {card}",
    "finesse_second_hand": "{seat}, second hand, finesses the {card}",
    "underplay_lead": "{seat} underplays: he leads the {card}, keeping back the best card of the suit",
    "hold_up": "{seat} holds up: the {card}, letting the adversary's card win though he could beat it",
    "trump_lead_five": "{seat} leads trumps from five or more: the {card}",
    "trump_lead_four": "{seat} leads trumps from four, with a suit to bring in: the {card}",
    "trump_lead_defensive": "{seat} leads trumps without strength, every plain suit being worse: the {card}",
    "force_strong_hand": "{seat} forces the strong trump hand with the {card}",
    "refuse_to_force_partner": "{seat}, weak in trumps, does not force his partner: the {card}",
    "original_discard_weakest": "{seat} discards from his weakest suit: the {card}",
    "original_discard_best_protected": "{seat}, trumps declared against him, discards from his best protected suit: the {card}",
    "unblock_partners_suit": "{seat} unblocks his partner's suit with the {card}",
    "departure_on_a_count": "{seat} leaves the rule on a count of the hands: the {card}",
    "tenace_kept": "{seat} keeps his tenace and leads the {card}",
    "refuse_to_overtrump": "{seat} declines to overtrump and throws the {card}",
    "ruff_partners_winner": "{seat} trumps his partner's winning card with the {card}, a trump too many",
    "underruff_partner": "{seat} trumps under his partner's trump with the {card}, a trump too many",
    "underruff": "{seat} trumps under the adversary's trump with the {card}, a trump too many",
}


def written_tricks(made) -> int:
    """How many tricks the file writes out."""
    return min(made.table.size, max(made.decisive.trick + AFTER, AT_LEAST))


def hand_text(made, title: str, command: str = "whistbook deal") -> str:
    """The hand file of ``made`` (a :class:`~whistbook.generate.Made`)."""
    from .play import replay
    from .solver import dd_tricks

    table, theme, d = made.table, made.theme, made.decisive
    n = written_tricks(made)
    cards = [list(t.cards) for t in table.tricks[:n]]
    rp = replay(made.deal, table.trumps, table.leader, cards)
    left = table.size - n
    claim = {}
    if left:
        got = dd_tricks({s: rp.remaining[s] for s in SEATS}, table.trumps, rp.next_leader)
        claim = {rp.next_leader.side: got, rp.next_leader.side.other: left - got}
    final = {s: rp.tally[s] + claim.get(s, 0) for s in Side}
    result = describe_result(score_hand(final, honours_held(made.deal, table.trumps), None, "short"))
    lines = [
        f"# A hand made by '{command}' on the theme '{theme.name}'. The play is four players",
        "# keeping Cavendish's conventions; the remark is a draft made from the judge's figures.",
        f"title: {_quoted(title)}",
        f"theme: {_quoted(theme.summary)}",
        f"source: {_quoted(source(made))}",
        f"tags: [{', '.join(theme.tags)}]",
        f"known_hand: {d.seat}",
        "score: love-all",
        f"turn_up: {made.turn_up}",
        "deal:",
    ]
    lines += [f"  {s}: {hand_line(made.deal[s])}" for s in SEATS]
    lines.append("tricks:")
    for t in rp.tricks:
        lines.append(f"  - cards: {' '.join(str(p.card) for p in t.plays)}")
        lines.append(f"    tally: {t.tally[0]}-{t.tally[1]}")
        if t.number == d.trick:
            lines.append("    remark: |")
            lines += [f"      {line}" for line in _wrapped(remark(made))]
    if left:
        lines.append("ending:")
        lines.append("  claim: {" + ", ".join(f"{s}: {claim[s]}" for s in Side) + "}")
    lines.append(f"result: {result}")
    return "\n".join(lines) + "\n"


def source(made) -> str:
    return (f"Made by whistbook {__version__} (whistbook deal --theme {made.theme.name}), "
            f"from deal seed {made.seed}")


def remark(made) -> str:
    """The draft remark at the decisive trick, from the records."""
    j, d, theme = made.judgement, made.decisive, made.theme
    card = d.played
    play = PLAYS.get(made.finding.rule, "{seat} plays the {card}").format(seat=d.seat, card=_card(card))
    parts = [f"{play} ({theme.title.lower()}, {_page(theme.page)})."]
    mine = j.loss
    others = sorted((o for o in j.options if card not in o.cards), key=lambda o: o.tricks)
    deals = "every deal he could imagine" if j.exact else f"{j.samples} deals he could imagine"
    parts.append(f"On what {d.seat} could know it is the best card: over {deals}, it takes "
                 f"{mine.expected:.1f} tricks from here on average, and "
                 + _losses(others) + ".")
    if j.principle.silent:
        parts.append("The conventions are silent here: the count of the cards decides.")
    elif j.follows_principle:
        parts.append(f"It is the card the conventions choose ({_rule(j.rule)}).")
    else:
        parts.append(f"The conventions would play {_cards(j.principle.cards)} ({_rule(j.principle.rule)}); "
                     "here the theme's card is worth more.")
    return " ".join(parts)


def _losses(others) -> str:
    out = []
    for o in others:
        what = "the " + _cards(o.cards)
        if o.result is not None and o.result >= 0.1 and o.tricks < 0.5:
            out.append(f"{what} would give up {o.result:.0%} of the chance of the game")
        else:
            out.append(f"{what} would give up {o.tricks:.1f} of a trick" if o.tricks < 1
                       else f"{what} would give up {o.tricks:.1f} tricks")
    return "; ".join(out)


def _card(c: Card) -> str:
    return "{" + str(c) + "}"


def _cards(cs) -> str:
    cs = list(cs)
    return " or ".join(_card(c) for c in cs) if len(cs) <= 3 else ", ".join(_card(c) for c in cs)


def _rule(rule: str | None) -> str:
    r = RULES.get(rule) if rule else None
    if r is None:
        return (rule or "no rule").replace("_", " ")
    return f"{r.title.lower()}, {_page(r.page)}"


def _page(page: str | None) -> str:
    if not page:
        return ""
    return page if not page[0].isdigit() else ("pp. " if "-" in page or "," in page else "p. ") + page


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wrapped(text: str, width: int = 84) -> list[str]:
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return out + [line] if line else out


__all__ = ["hand_text", "remark", "source", "written_tricks", "PLAYS"]
