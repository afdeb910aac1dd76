"""Helpers for the inference tests: deals written the book's way."""

from __future__ import annotations

import os
from pathlib import Path

from whistbook.cards import Card, Suit, cards, tokenize_hand
from whistbook.inference import explain_play
from whistbook.inference.statements import holds_in, parse_statement
from whistbook.seats import Seat

ROOT = Path(__file__).resolve().parent.parent


def hands_dir() -> Path:
    """Where the Cavendish hand files are: $WHISTBOOK_HANDS or hands/cavendish."""
    return Path(os.environ.get("WHISTBOOK_HANDS", ROOT / "hands" / "cavendish"))


def hand_of(text: str) -> list[Card]:
    out = []
    for suit, ranks in tokenize_hand(text):
        out += [Card(suit, r) for r, _ in ranks]
    return out


def play(deal: dict[str, str], tricks: list[str], viewer: str, *, trumps: str, leader: str = "A",
         turn_up: str | None = None, dealer: str | None = "Z"):
    hands = {Seat.parse(s): hand_of(h) for s, h in deal.items()}
    return explain_play(hands, Suit.parse(trumps), Seat.parse(leader), [cards(t) for t in tricks],
                        Seat.parse(viewer), turn_up=Card.parse(turn_up) if turn_up else None,
                        dealer=Seat.parse(dealer) if dealer and turn_up else None)


def derived(ex, trick: int, statement: str) -> bool:
    return holds_in(ex, trick, parse_statement(statement))


def rules_for(ex, trick: int, seat: str, kind: str | None = None) -> set[str]:
    return {i.rule for i in ex.tricks[trick - 1].inferences
            if str(i.seat) == seat and (kind is None or i.kind == kind)}


# Hand III of Part II (A's hand known): the returned-lead chain.
HAND_III = {
    "A": "♠ A Q J T 2  ♥ Q 6  ♦ 9 3  ♣ A 9 8 3",
    "Y": "♠ 9 6 5  ♥ K T 8 4 2  ♦ A K  ♣ K T 6",
    "B": "♠ 8 4  ♥ A 7 5 3  ♦ J 8 5 2  ♣ Q 7 2",
    "Z": "♠ K 7 3  ♥ J 9  ♦ Q T 7 6 4  ♣ J 5 4",
}
HAND_III_TRICKS = ["AS 5S 4S 3S", "TS 6S 8S KS", "6D 3D KD 2D", "AD 5D 4D 9D", "4H 3H JH QH",
                   "3C 6C QC 4C", "7C 5C AC TC", "8C KC 2C JC", "KH AH 9H 6H"]

# Hand X of Part II (Y's hand known): Y departs from rule at trick 9.
HAND_X = {
    "A": "♠ K 2  ♥ J 9 7 4 2  ♦ 4  ♣ K J T 5 2",
    "Y": "♠ A 9 7 4  ♥ Q 6 5 3  ♦ K 9 5  ♣ A 3",
    "B": "♠ Q 8 3  ♥ K T 8  ♦ T 8 7 3  ♣ 8 7 4",
    "Z": "♠ J T 6 5  ♥ A  ♦ A Q J 6 2  ♣ Q 9 6",
}
HAND_X_TRICKS = ["TC 3C 4C QC", "5S 2S AS 3S", "4S 8S TS KS", "JC AC 7C 6C", "7S QS 6S 2H",
                 "8C 9C KC 9S", "3H 8H AH 4H", "AD 4D 5D 3D", "JD 2C 9D 7D", "2D 7H KD 8D"]
