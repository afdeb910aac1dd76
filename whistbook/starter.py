"""The starter hand file written by ``whistbook new``.

It is a real, valid hand: a random deal, the first three tricks played by
four players who keep Cavendish's conventions (:mod:`whistbook.players`), and
a claim for the rest that the double-dummy solver has checked, so an author
starts from something that validates and edits it into shape. Because the
players keep the conventions, what the lesson presumes from their cards is
true of the deal: a deal where it would not be (a card the conventions read
otherwise than it was meant) is passed over for the next one the seed gives.
"""

from __future__ import annotations

import random

from .cards import DECK, Card
from .handwriter import claim_line, deal_lines, solver_ending
from .play import replay
from .seats import SEATS, Seat

SHOWN = 3

#: the comment at the head of a starter: what it is, and where the format is described for
#: someone who has only the installed command (a new book has no docs/ folder)
STARTER_HEADER = [
    "# A starter hand from whistbook: a random deal, three tricks played to Cavendish's rules, and",
    "# a claim for the rest that the double-dummy solver accepts. Edit it into your own hand, then",
    "# run 'whistbook validate FILE', which checks every card. Every key is described in the",
    "# hand format's schema ('whistbook schema' prints it); an editor that reads the first line",
    "# (VS Code with the YAML extension, or any yaml-language-server) completes and explains",
    "# each key as you type. 'whistbook --help' lists the commands.",
]


def random_deal(rng: random.Random) -> dict[Seat, list[Card]]:
    deck = list(DECK)
    rng.shuffle(deck)
    return {s: sorted(deck[i * 13:(i + 1) * 13], key=lambda c: (c.suit, -c.rank)) for i, s in enumerate(SEATS)}


#: deals tried for a starter whose presumptions all hold, before the last one is taken as it is
TRIES = 40


def starter_play(seed: int | None = None) -> tuple[dict[Seat, list[Card]], Card, list[list[Card]]]:
    """The deal, the turn-up and the first :data:`SHOWN` tricks of a starter hand:
    played by the convention players, the first deal the seed gives on which
    no seat's presumptions are contradicted (see :func:`whistbook.players.presumptions_hold`)."""
    from .players import ConventionPlayer, HandInPlay, play_on, presumptions_hold

    rng = random.Random(seed)
    for k in range(TRIES):
        deal = random_deal(rng)
        turn_up = deal[Seat.Z][rng.randrange(13)]
        hand = HandInPlay(deal, turn_up.suit, turn_up=turn_up, dealer=Seat.Z)
        play_on(hand, ConventionPlayer("quick", k), until=SHOWN)
        tricks = [list(t.cards) for t in hand.done]
        if presumptions_hold(deal, turn_up.suit, tricks, turn_up=turn_up, dealer=Seat.Z):
            break
    return deal, turn_up, tricks


def starter_text(seed: int | None = None, title: str = "My hand", schema_ref: str | None = None) -> str:
    deal, turn_up, tricks = starter_play(seed)
    rp = replay(deal, turn_up.suit, Seat.A, tricks)
    claim, result = solver_ending(rp)
    lines = [f"# yaml-language-server: $schema={schema_ref}"] if schema_ref else []
    lines += STARTER_HEADER + [
        f"title: {title}",
        "theme: One line saying what the hand teaches",
        "source: Your name, where the hand comes from",
        "tags: [leads]",
        "known_hand: A          # the hand the reader holds",
        "score: love-all        # or {AB: 2, YZ: 0}",
        f"turn_up: {turn_up}            # Z deals and turns up his last card; it sets trumps",
    ]
    lines += deal_lines(rp)
    lines.append("tricks:                # each trick's cards in play order, from its leader")
    for t in rp.tricks:
        lines.append(f"  - cards: {' '.join(str(p.card) for p in t.plays)}")
        lines.append(f"    tally: {t.tally[0]}-{t.tally[1]}        # AB-YZ after the trick (optional, checked)")
        if t.number == 1:
            lines.append("    remark: |")
            lines.append("      What the opening lead shows, in your own words. Cards may be written")
            lines.append("      as {KH} or {10S} and suits as {S}, {H}, {D}, {C}.")
    lines.append("ending:")
    lines.append("  account: How the remaining tricks go, in a sentence.")
    lines.append(claim_line(claim) + "   # tricks each side takes of those not written out")
    lines.append(f"result: {result}")
    return "\n".join(lines) + "\n"
