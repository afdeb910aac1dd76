"""Shared helpers: build hand-file text from a deal and a play, with the
line of every trick and hand known, so tests can assert exact locations."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from whistbook.cards import Card
from whistbook.play import legal_plays, winner_of
from whistbook.seats import SEATS, Seat
from whistbook.deal import hand_line
from whistbook.starter import random_deal  # noqa: F401 - shared with the tests

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"
#: the seed books: beside the project, or beside the worktrees' folder when run from a git worktree
SEEDS = next((p for p in (ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds")
              if p.is_dir()), ROOT.parent / "shared" / "seeds")


@dataclass
class Written:
    text: str
    deal_line: dict = field(default_factory=dict)  # Seat -> line number
    trick_line: list = field(default_factory=list)  # index -> line number of the cards
    claim_line: int = 0
    result_line: int = 0


def random_play(deal, trumps, rng: random.Random, n_tricks: int = 13):
    """Random legal play from A's lead: a list of tricks in play order."""
    hands = {s: list(deal[s]) for s in SEATS}
    leader = Seat.A
    tricks = []
    for _ in range(n_tricks):
        played: list[Card] = []
        for seat in leader.iter_from():
            options = legal_plays(hands[seat], played[0].suit if played else None)
            c = rng.choice(options)
            hands[seat].remove(c)
            played.append(c)
        tricks.append(played)
        leader = Seat(winner_of(played, leader, int(trumps)))
    return tricks, hands, leader


def write_hand(deal, turn_up, tricks, claim=None, result=None, tally=None) -> Written:
    lines = ["title: Test hand", "known_hand: A", "score: love-all", f"turn_up: {turn_up}", "deal:"]
    w = Written("")
    for s in SEATS:
        lines.append(f"  {s}: {hand_line(deal[s])}")
        w.deal_line[s] = len(lines)
    lines.append("tricks:")
    for i, t in enumerate(tricks):
        lines.append(f"  - cards: {' '.join(str(c) for c in t)}")
        w.trick_line.append(len(lines))
        if tally and i < len(tally):
            lines.append(f"    tally: {tally[i][0]}-{tally[i][1]}")
    if claim is not None:
        lines.append("ending:")
        lines.append("  claim: {" + ", ".join(f"{k}: {v}" for k, v in claim.items()) + "}")
        w.claim_line = len(lines)
    if result is not None:
        lines.append(f"result: {result}")
        w.result_line = len(lines)
    w.text = "\n".join(lines) + "\n"
    return w


@pytest.fixture
def hand1_path() -> Path:
    return next((HANDS / "cavendish").glob("01-*.yaml"))
