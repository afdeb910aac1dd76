"""Scoring of one hand, short whist (club code) and long whist.

Order of scoring within a hand: tricks, then honours; once a side reaches
game the rest is not scored. Short whist: game is five; four honours count
four and three count two; a side at four when the hand begins cannot score
honours; a game is a treble if the losers have love, a double if they have
one or two, a single if three or four. Long whist: game is ten; a side at
nine when the hand begins cannot score honours. The seeds give no game values
for long whist, so none is reported, and the calling of honours at eight is
not modelled (honours are scored after the play).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from .cards import Card, Suit
from .seats import Seat, Side

GAME_POINTS = {"short": 5, "long": 10}
#: a side at or above this score when a hand begins cannot score honours
HONOURS_BARRED_AT = {"short": 4, "long": 9}
GAME_VALUE_NAMES = {3: "treble", 2: "double", 1: "single"}


@dataclass(frozen=True)
class Score:
    rules: str
    tricks: dict[Side, int]
    by_cards_side: Side
    by_cards: int
    honours_held: dict[Side, int]  # how many of A K Q J of trumps each side held
    honours_points: dict[Side, int]  # what the honours scored this hand
    honours_unscored: dict[Side, str]  # why a side's honours did not score
    before: dict[Side, int]
    after: dict[Side, int]
    game: Side | None
    game_value: int | None  # short whist: 3 treble, 2 double, 1 single

    @property
    def game_value_name(self) -> str | None:
        return GAME_VALUE_NAMES.get(self.game_value) if self.game_value else None


def honours_held(hands: Mapping[Seat, Iterable[Card]], trumps: Suit) -> dict[Side, int]:
    """Honours (ace, king, queen, knave of trumps) held by each side in the deal."""
    out = {Side.AB: 0, Side.YZ: 0}
    for seat, hand in hands.items():
        out[seat.side] += sum(1 for c in hand if c.suit == trumps and c.rank >= 11)
    return out


def score_text(score: Mapping[Side, int] | tuple[int, int] | None) -> str:
    """The score as the book writes it: ``love-all``, ``AB 2, YZ love``."""
    if not score:
        return "not given"
    ab, yz = (score[Side.AB], score[Side.YZ]) if isinstance(score, Mapping) else score
    if ab == yz == 0:
        return "love-all"
    return f"AB {ab or 'love'}, YZ {yz or 'love'}"


def honour_points(count: int) -> int:
    return {4: 4, 3: 2}.get(count, 0)


def score_hand(
    tricks: Mapping[Side, int],
    held: Mapping[Side, int],
    before: Mapping[Side, int] | None,
    rules: str = "short",
) -> Score:
    """Score a hand from tricks won and honours held, given the score before it."""
    game_at = GAME_POINTS[rules]
    start = dict(before) if before else {Side.AB: 0, Side.YZ: 0}
    score = dict(start)
    winner = Side.AB if tricks[Side.AB] > 6 else Side.YZ
    by_cards = tricks[winner] - 6
    points = {Side.AB: 0, Side.YZ: 0}
    unscored: dict[Side, str] = {}
    game: Side | None = None

    score[winner] += by_cards
    if score[winner] >= game_at:
        game = winner
    for side in (Side.AB, Side.YZ):
        pts = honour_points(held[side])
        if not pts:
            continue
        if game is not None:
            unscored[side] = f"{game} had already reached game by tricks"
            continue
        if start[side] >= HONOURS_BARRED_AT[rules]:
            unscored[side] = f"{side} began the hand at {start[side]}, where honours do not count"
            continue
        points[side] = pts
        score[side] += pts
        if score[side] >= game_at:
            game = side
    value = None
    if game is not None and rules == "short":
        loser = start[game.other] + (by_cards if winner == game.other else 0) + points[game.other]
        loser = min(loser, game_at - 1)
        value = 3 if loser == 0 else 2 if loser <= 2 else 1
    return Score(
        rules=rules, tricks=dict(tricks), by_cards_side=winner, by_cards=by_cards,
        honours_held=dict(held), honours_points=points, honours_unscored=unscored,
        before=start, after=score, game=game, game_value=value,
    )
