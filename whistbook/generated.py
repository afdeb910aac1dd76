"""The hand file of a hand made on a theme (:mod:`whistbook.generate`).

An ordinary hand file, written from the records of the making: the deal, the
turn-up, the tricks up to a little after the decisive one, a claim for the
rest that the solver accepts, the theme, a ``source`` naming the seed that
makes the hand again, and a draft remark at the decisive trick, its words
made here from the judge's figures, the principle's rule and the solver's
counterfactual (never read back: the file's remark is for its author to edit).
:func:`write_hands` makes hands on a theme into a folder, each file whole or
not at all (``whistbook deal``, ``whistbook init --exercises``).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from .cards import Card
from .errors import ConfigError
from .files import write_whole
from .handwriter import claim_line, deal_lines, solver_ending, yaml_string
from .inference.rules import RULES
from .wording import tricks_amount
from .seats import SEATS

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

    table, theme, d = made.table, made.theme, made.decisive
    cards = [list(t.cards) for t in table.tricks[:written_tricks(made)]]
    rp = replay(made.deal, table.trumps, table.leader, cards)
    claim, result = solver_ending(rp)
    lines = [
        f"# A hand made by '{command}' on the theme '{theme.name}'. The play is four players",
        "# keeping Cavendish's conventions; the remark_draft is made from the judge's figures:",
        "# read it, edit it as you like and rename it 'remark' to accept it.",
        f"title: {yaml_string(title)}",
        f"theme: {yaml_string(theme.summary)}",
        f"source: {yaml_string(source(made))}",
        f"tags: [{', '.join(theme.tags)}]",
        f"known_hand: {d.seat}",
        "score: love-all",
        f"turn_up: {made.turn_up}",
    ]
    lines += deal_lines(rp)
    lines.append("tricks:")
    for t in rp.tricks:
        lines.append(f"  - cards: {' '.join(str(p.card) for p in t.plays)}")
        lines.append(f"    tally: {t.tally[0]}-{t.tally[1]}")
        if t.number == d.trick:
            lines.append("    remark_draft: |")
            lines += [f"      {line}" for line in _wrapped(remark(made))]
    if claim:
        lines += ["ending:", claim_line(claim)]
    lines.append(f"result: {result}")
    return "\n".join(lines) + "\n"


def source(made) -> str:
    from importlib.metadata import version

    return (f"Made by whistbook {version('whistbook')} (whistbook deal --theme {made.theme.name}), "
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
    # The nearest choice alone: the quiz and the exercise's answer give what every card costs.
    rest = ", and every other card more" if len(others) > 1 else ""
    parts.append(f"On what {d.seat} could know it is the best card: over {deals}, it takes "
                 f"{mine.expected:.1f} tricks from here on average; "
                 + (_loss(others[0]) + rest if others else "no other choice") + ".")
    if j.principle.silent:
        parts.append("The conventions are silent here: the count of the cards decides.")
    elif j.follows_principle:
        parts.append(f"It is the card the conventions choose ({_rule(j.rule)}).")
    else:
        parts.append(f"The conventions would play {_cards(j.principle.cards)} ({_rule(j.principle.rule)}); "
                     "here the theme's card is worth more.")
    return " ".join(parts)


def _loss(o) -> str:
    """What the choice ``o`` gives up, in the words the lessons use."""
    what = "the " + _cards(o.cards)
    if o.result is not None and o.result >= 0.1 and o.tricks < 0.5:
        return f"{what} would give up {o.result:.0%} of the chance of the game"
    return f"{what} would give up {tricks_amount(o.tricks)}"


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


def _wrapped(text: str, width: int = 84) -> list[str]:
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return out + [line] if line else out


def write_hands(theme: str, count: int, out: Path, *, seed: int = 0, tries: int | None = None,
                quiet: bool = False, progress=None, jobs: int | None = None) -> int:
    """Make ``count`` hands on ``theme`` into the folder ``out``, one file each
    as it is made (never over an existing file, never a deal the folder holds
    already), with ``jobs`` processes (default: one a core); 0 when all were
    made, 1 otherwise."""
    from . import solver
    from .generate import make
    from .themes import THEMES

    if out.exists() and not out.is_dir():
        raise ConfigError(f"-o {out}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    seen = _deals_in(out)
    solver.limit_threads(1)  # one deal at a time: DDS's threads would wait on each other
    say = progress or (lambda line: None if quiet else print(line, file=sys.stderr, flush=True))
    start = last = time.monotonic()
    written = 0

    def step(made: int, tried: int, checked: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= 5:
            say(f"whistbook: {theme}: {made} of {count} made, {tried} deals tried ({now - start:.0f} s)")
            last = now

    n = 0
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    for made in make(theme, count, seed=seed, tries=tries, progress=step, seen=seen, jobs=jobs):
        n = _next_free(out, theme, n)
        path = out / f"{theme}-{n:02d}.yaml"
        write_whole(path, hand_text(made, f"{THEMES[theme].title} {n}"))
        written += 1
        say(f"wrote {path} (trick {made.decisive.trick}, {made.decisive.seat} plays {made.decisive.played})")
    took = time.monotonic() - start
    if written < count:
        say(f"whistbook: {theme}: {written} of {count} hands made in {took:.0f} s; try more deals (--tries) "
            "or another --seed")
        return 1
    say(f"whistbook: {written} hands on '{theme}' in {out} ({took:.0f} s)")
    return 0


def _deals_in(out: Path) -> set:
    """The deals of the hand files already in ``out`` (a deal is not made twice)."""
    from .corpus import HAND_SUFFIXES
    from .errors import HandFileError
    from .handfile import load

    seen = set()
    for p in sorted(out.iterdir()):
        if p.suffix in HAND_SUFFIXES and p.is_file():
            try:
                hf = load(p)
            except HandFileError:
                continue  # not ours to judge here: validate reports it
            if all(len(hf.deal.get(s, ())) == 13 for s in SEATS):
                seen.add(frozenset((s, ref.card) for s in SEATS for ref in hf.deal[s]))
    return seen


def _next_free(out: Path, theme: str, n: int) -> int:
    n += 1
    while (out / f"{theme}-{n:02d}.yaml").exists():
        n += 1
    return n


__all__ = ["hand_text", "remark", "source", "written_tricks", "write_hands", "PLAYS"]
