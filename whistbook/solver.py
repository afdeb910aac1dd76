"""Double-dummy solving through endplay (Bo Haglund's DDS).

The solver's encoding stays behind this module: callers pass whistbook
cards and seats. Seat A sits South, Y West, B North, Z East; whist has no
contract, so "the side to play" is simply the side of the seat on lead or
next to play.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from .cards import Card, Suit
from .errors import SolverError
from .seats import Seat

_PLAYER_OF = {Seat.B: 0, Seat.Z: 1, Seat.A: 2, Seat.Y: 3}  # endplay Player: N E S W

try:  # pragma: no cover - import guard only
    from endplay.dds import solve_board as _solve_board
    from endplay.types import Card as _ECard
    from endplay.types import Deal as _EDeal
    from endplay.types import Denom as _EDenom
    from endplay.types import Player as _EPlayer
except Exception as _err:  # noqa: BLE001 - any import failure means no solver
    _IMPORT_ERROR: Exception | None = _err
else:
    _IMPORT_ERROR = None


def _require() -> None:
    if _IMPORT_ERROR is not None:
        raise SolverError(f"the double-dummy solver (endplay) cannot be loaded: {_IMPORT_ERROR}")


def _pbn(hands: Mapping[Seat, Iterable[Card]]) -> str:
    parts = []
    for seat in (Seat.B, Seat.Z, Seat.A, Seat.Y):  # N E S W
        cs = list(hands[seat])
        suits = []
        for suit in Suit:
            ranks = sorted((c.rank for c in cs if c.suit == suit), reverse=True)
            suits.append("".join("23456789TJQKA"[r - 2] for r in ranks))
        parts.append(".".join(suits))
    return "N:" + " ".join(parts)


def make_deal(
    hands: Mapping[Seat, Iterable[Card]],
    trumps: Suit | None,
    leader: Seat,
    trick_so_far: Sequence[Card] = (),
) -> "_EDeal":
    """An endplay ``Deal`` for the position: ``hands`` hold the cards not yet
    played, including those of ``trick_so_far`` (played from ``leader``)."""
    _require()
    deal = _EDeal(_pbn(hands))
    deal.trump = _EDenom.nt if trumps is None else _EDenom(int(trumps))
    deal.first = _EPlayer(_PLAYER_OF[leader])
    for c in trick_so_far:
        deal.play(_ECard(str(c)[1] + str(c)[0]))  # endplay spells cards suit first
    return deal


def card_options(
    hands: Mapping[Seat, Iterable[Card]],
    trumps: Suit | None,
    leader: Seat,
    trick_so_far: Sequence[Card] = (),
) -> dict[Card, int]:
    """For each legal card of the seat to play, the tricks its side takes from
    here (this trick included) with best play by all four.

    :raises SolverError: if endplay is missing or refuses the position.
    """
    deal = make_deal(hands, trumps, leader, trick_so_far)
    try:
        solved = _solve_board(deal)
    except Exception as err:  # noqa: BLE001 - the C library's errors are plain RuntimeErrors
        raise SolverError(f"the double-dummy solver failed: {err}") from err
    out: dict[Card, int] = {}
    for ecard, tricks in solved:
        out[Card.parse(f"{_rank_text(ecard)}{'SHDC'[int(ecard.suit)]}")] = int(tricks)
    return out


def _rank_text(ecard: "_ECard") -> str:
    return str(ecard)[1:] if str(ecard)[0] in "SHDC♠♥♦♣" else str(ecard)[:-1]


def dd_tricks(hands: Mapping[Seat, Iterable[Card]], trumps: Suit | None, leader: Seat) -> int:
    """Tricks the leader's side takes from this position with best play by all."""
    opts = card_options(hands, trumps, leader)
    return max(opts.values()) if opts else 0
