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

# Hand VII of Part II (Z's hand known): Y's fourth-best lead and B's peters.
HAND_VII = {
    "A": "♠ K J 8 4 3 2  ♥ J  ♦ Q 9 8 7  ♣ A K",
    "Y": "♠ A 5  ♥ K T 9 7 2  ♦ A T  ♣ 7 6 4 3",
    "B": "♠ 9 7 6  ♥ 8 3  ♦ K 4 2  ♣ Q J T 5 2",
    "Z": "♠ Q T  ♥ A Q 6 5 4  ♦ J 6 5 3  ♣ 9 8",
}
HAND_VII_TRICKS = ["4S 5S 9S TS", "QS KS AS 7S", "7H 8H QH JH", "3D 7D AD 4D", "TD KD 5D 8D",
                   "QC 8C KC 3C", "AC 4C 2C 9C", "JS 6C 6S 4H", "2H 3H 5H 2S", "6D 9D 7C 2D"]

# Hand X of Part II (Y's hand known): Y departs from rule at trick 9.
HAND_X = {
    "A": "♠ K 2  ♥ J 9 7 4 2  ♦ 4  ♣ K J T 5 2",
    "Y": "♠ A 9 7 4  ♥ Q 6 5 3  ♦ K 9 5  ♣ A 3",
    "B": "♠ Q 8 3  ♥ K T 8  ♦ T 8 7 3  ♣ 8 7 4",
    "Z": "♠ J T 6 5  ♥ A  ♦ A Q J 6 2  ♣ Q 9 6",
}
HAND_X_TRICKS = ["TC 3C 4C QC", "5S 2S AS 3S", "4S 8S TS KS", "JC AC 7C 6C", "7S QS 6S 2H",
                 "8C 9C KC 9S", "3H 8H AH 4H", "AD 4D 5D 3D", "JD 2C 9D 7D", "2D 7H KD 8D"]


def remaining(deal: dict, tricks, seat: int, suit: int, after: int) -> int:
    """Cards of ``suit`` that ``seat`` still holds after trick ``after``."""
    held = sum(1 for c in deal[seat] if int(c) // 13 == suit)
    played = sum(1 for t in tricks[:after] for p in t.plays if int(p.seat) == seat and int(p.card) // 13 == suit)
    return held - played


def audit(ex, replay) -> dict:
    """Check an explanation against the deal. Returns counts of wrong
    statements per layer, and of presumed/probable records made."""
    deal = {int(s): {int(c) for c in replay.hands[s]} for s in range(4)}
    owner = {c: s for s, cs in deal.items() for c in cs}
    out = {"certain_wrong": 0, "presumed": 0, "presumed_wrong": 0, "probable": 0, "probable_wrong": 0,
           "knowledge_wrong": {"certain": 0, "presumed": 0}}
    for t in ex.tricks:
        for layer in ("certain", "presumed"):
            for c, seats in t.knowledge[layer].items():
                if owner[int(c)] not in [int(s) for s in seats]:
                    out["knowledge_wrong"][layer] += 1
        for i in t.inferences:
            ok = _true(i, deal, owner, replay.tricks, t.number)
            if ok is None:
                continue
            if i.certainty == "certain":
                out["certain_wrong"] += not ok
            else:
                out[i.certainty] += 1
                out[i.certainty + "_wrong"] += not ok
    return out


def _true(i, deal, owner, tricks, after):
    s = int(i.seat)
    if i.kind == "holds":
        return all(owner[int(c)] == s for c in i.cards)
    if i.kind == "lacks":
        return all(owner[int(c)] != s for c in i.cards)
    if i.kind in ("void", "count"):
        n = remaining(deal, tricks, s, int(i.suit), after)
        if i.kind == "void":
            return n == 0
        return (i.low is None or n >= i.low) and (i.high is None or n <= i.high)
    return None


def padded(deal: dict[str, str], first: str = "YBZA") -> dict[str, str]:
    """A thirteen-card deal from a partial one: the cards nobody was given are
    handed out, highest first, to the seats (in the order ``first``) that are
    short. Lets a test write only the cards that matter."""
    from whistbook.cards import DECK, format_holding, SUITS

    hands = {s: hand_of(t) for s, t in deal.items()}
    for s in "AYBZ":
        hands.setdefault(s, [])
    used = {c for h in hands.values() for c in h}
    rest = sorted((c for c in DECK if c not in used), key=lambda c: (c.suit, -c.rank))
    k = 0
    for c in rest:
        while len(hands[first[k % 4]]) >= 13:
            k += 1
        hands[first[k % 4]].append(c)
        k += 1
    return {s: "  ".join(f"{S.letter} " + format_holding([c for c in h if c.suit == S], ten="T").replace("—", "")
                         for S in SUITS) for s, h in hands.items()}
