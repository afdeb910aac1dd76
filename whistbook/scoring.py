"""Scoring of one hand, short whist (club code) and long whist.

Order of scoring within a hand: revoke penalties first (Laws 5 and 72), then
tricks, then honours; once a side reaches game the rest is not scored. A side
that revoked cannot win the game on that hand and cannot pass four (Law 82;
both sides revoking, Law 81). Short whist: game is five; four honours count
four and three count two; a side at four when the hand begins cannot score
honours; a game is a treble if the losers have love, a double if they have
one or two, a single if three or four. Long whist: game is ten; a side at
nine when the hand begins cannot score honours; a side at eight may call its
honours, and honours properly called score before the tricks (Dick's
Hand-Book). The seeds give no game values for long whist, so none is
reported.

Two points the laws leave open are settled here and documented in
docs/format.md: taking three tricks from a side that won fewer takes what it
won, and deducting three never takes a score below love. In long whist the
revoke penalty is the club code's, and the revoking side is held at nine.
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
    #: revoke penalties paid, in order: (revoking side, "tricks" | "add" | "deduct")
    penalties: tuple[tuple[Side, str], ...] = ()
    tricks_played: dict[Side, int] | None = None  # before any tricks were taken for a revoke
    honours_called: Side | None = None  # long whist: honours called at eight and scored first

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


#: Law 72: the three points or tricks a revoke costs
REVOKE_COST = 3


def score_hand(
    tricks: Mapping[Side, int],
    held: Mapping[Side, int],
    before: Mapping[Side, int] | None,
    rules: str = "short",
    revokes: Iterable[tuple[Side, str]] = (),
    honours_called: Side | None = None,
) -> Score:
    """Score a hand from tricks won and honours held, given the score before it.

    ``revokes`` lists (revoking side, penalty) for each established revoke the
    adversaries claimed: ``tricks`` (three tricks taken), ``add`` (three
    points added to theirs) or ``deduct`` (three taken from the revokers).
    ``honours_called`` is the long-whist side whose honours were called at
    eight: they score before the tricks.
    """
    game_at = GAME_POINTS[rules]
    start = dict(before) if before else {Side.AB: 0, Side.YZ: 0}
    score = dict(start)
    paid = tuple((side, how) for side, how in revokes if how != "none")
    capped = {side for side, _ in paid}
    won = dict(tricks)
    points = {Side.AB: 0, Side.YZ: 0}
    unscored: dict[Side, str] = {}
    game: Side | None = None

    def add(side: Side, n: int) -> None:
        nonlocal game
        score[side] += n
        if side in capped:
            score[side] = min(score[side], game_at - 1)
        if game is None and score[side] >= game_at:
            game = side

    for side, how in paid:  # Law 72: the penalty is scored before anything else
        other = side.other
        if how == "tricks":
            moved = min(REVOKE_COST, won[side])
            won[side] -= moved
            won[other] += moved
        elif how == "deduct":
            score[side] = max(0, score[side] - REVOKE_COST)
        elif how == "add" and game is None:
            add(other, REVOKE_COST)
    if honours_called is not None and game is None:
        pts = honour_points(held[honours_called])
        if pts:
            points[honours_called] = pts
            add(honours_called, pts)
    winner = Side.AB if won[Side.AB] > 6 else Side.YZ
    by_cards = won[winner] - 6
    if game is None:
        add(winner, by_cards)
    for side in (Side.AB, Side.YZ):
        pts = honour_points(held[side])
        if not pts or side == honours_called:
            continue
        if game is not None:
            unscored[side] = f"{game} had already reached game" + ("" if paid or honours_called else " by tricks")
            continue
        if start[side] >= HONOURS_BARRED_AT[rules]:
            unscored[side] = f"{side} began the hand at {start[side]}, where honours do not count"
            continue
        points[side] = pts
        add(side, pts)
    value = None
    if game is not None and rules == "short":
        value = game_value(min(score[game.other], game_at - 1))
    return Score(
        rules=rules, tricks=won, by_cards_side=winner, by_cards=by_cards,
        honours_held=dict(held), honours_points=points, honours_unscored=unscored,
        before=start, after=score, game=game, game_value=value,
        penalties=paid, tricks_played=dict(tricks), honours_called=honours_called,
    )


def game_value(loser: int) -> int:
    """Law 8: a treble if the losers have love, a double if one or two, a single if three or four."""
    return 3 if loser == 0 else 2 if loser <= 2 else 1
