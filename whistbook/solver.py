"""Double-dummy solving through endplay (Bo Haglund's DDS).

The solver's encoding stays behind this module: callers pass whistbook
cards and seats. Seat A sits South, Y West, B North, Z East; whist has no
contract, so "the side to play" is simply the side of the seat on lead or
next to play.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple, Sequence

from .cards import Card, Suit
from .errors import SolverError
from .seats import Seat

_PLAYER_OF = {Seat.B: 0, Seat.Z: 1, Seat.A: 2, Seat.Y: 3}  # endplay Player: N E S W

if TYPE_CHECKING:  # pragma: no cover
    from endplay.types import Card as _ECard
    from endplay.types import Deal as _EDeal


class _Endplay(NamedTuple):
    solve_board: Any
    solve_all_boards: Any
    analyse_play: Any
    Card: Any
    Deal: Any
    Denom: Any
    Player: Any


_EP: _Endplay | None = None
_IMPORT_ERROR: Exception | None = None
#: threads DDS may use (None: one per core, its default)
_THREADS: int | None = None
#: DDS has been asked for something since it last gave its memory back
_USED = False


def limit_threads(n: int) -> None:
    """Let DDS use at most ``n`` threads. A process that is one of several
    workers on the machine's cores should take one: DDS's own threads would
    only compete with the other workers, and a single thread solves the
    positions of one hand in order, reusing its transposition table from one
    to the next (about a third less processor time, and half the memory)."""
    global _THREADS
    _THREADS = n
    if _EP is not None:
        import endplay._dds as dds

        dds.SetMaxThreads(n)


def release() -> None:
    """Give back the memory DDS keeps between solves (its transposition
    tables, some tens of MB a thread): a worker that goes on to other work
    calls this. The next solve starts afresh."""
    global _USED
    if _USED and _EP is not None:
        import endplay._dds as dds

        _USED = False
        dds.FreeMemory()
        dds.SetMaxThreads(_THREADS or 0)  # DDS solves nothing more until its threads are set up again


def _endplay_package() -> None:
    """The ``endplay`` package made ready for its solver and types without
    running its ``__init__``, which imports endplay's deal generator and with
    it matplotlib: a second of processor time in every process that solves,
    where the solver and types take a tenth of one. The rest of the package
    is loaded when a name of its own is first asked for."""
    if "endplay" in sys.modules:
        return
    spec = importlib.util.find_spec("endplay")
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return  # not installed (the import below says so) or not a package
    package = importlib.util.module_from_spec(spec)

    def whole(name: str) -> Any:
        del package.__dict__["__getattr__"]
        spec.loader.exec_module(package)  # type: ignore[union-attr]
        return getattr(package, name)

    package.__getattr__ = whole  # type: ignore[method-assign]
    sys.modules["endplay"] = package


def _require() -> _Endplay:
    """endplay, imported on first use (its solver and types only: see
    :func:`_endplay_package`), which a run answered wholly from a cache
    should not have to pay for."""
    global _EP, _IMPORT_ERROR, _USED
    _USED = True
    if _EP is None and _IMPORT_ERROR is None:
        try:
            _endplay_package()
            from endplay.dds import analyse_play, solve_all_boards, solve_board
            from endplay.types import Card as ECard
            from endplay.types import Deal, Denom, Player
        except Exception as err:  # noqa: BLE001 - any import failure means no solver
            _IMPORT_ERROR = err
        else:
            _EP = _Endplay(solve_board, solve_all_boards, analyse_play, ECard, Deal, Denom, Player)
            if _THREADS is not None:
                limit_threads(_THREADS)
    if _EP is None:
        raise SolverError(f"the double-dummy solver (endplay) cannot be loaded: {_IMPORT_ERROR}")
    return _EP


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
    ep = _require()
    deal = ep.Deal(_pbn(hands))
    deal.trump = ep.Denom.nt if trumps is None else ep.Denom(int(trumps))
    deal.first = ep.Player(_PLAYER_OF[leader])
    for c in trick_so_far:
        deal.play(_ecard(c))
    return deal


def _ecard(card: Card) -> "_ECard":
    return _require().Card(str(card)[1] + str(card)[0])  # endplay spells cards suit first


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
        solved = _require().solve_board(deal)
    except Exception as err:  # noqa: BLE001 - the C library's errors are plain RuntimeErrors
        raise SolverError(f"the double-dummy solver failed: {err}") from err
    out: dict[Card, int] = {}
    for ecard, tricks in solved:
        out[Card.parse(f"{_rank_text(ecard)}{'SHDC'[int(ecard.suit)]}")] = int(tricks)
    return out


class Position(NamedTuple):
    """A position to solve: the cards each seat still holds (those of
    ``trick_so_far`` included), trumps, and the leader of the trick in play."""

    hands: Mapping[Seat, Iterable[Card]]
    trumps: Suit | None
    leader: Seat
    trick_so_far: Sequence[Card] = ()


#: endplay's batch call takes at most this many boards (DDS's MAXNOOFBOARDS is
#: 200, and endplay's own bound check lets one too many through).
_BATCH = 100


def card_options_many(positions: Sequence[Position]) -> list[dict[Card, int]]:
    """:func:`card_options` for many positions at once, in order.

    The positions go to DDS in batches, which it solves on all its threads;
    for the forty-odd positions of one hand this is quicker than one call each.
    On one thread (:func:`limit_threads`) they are solved one after another
    in the order given instead: DDS keeps its transposition table from one
    call to the next while the deal changes by a few cards, so positions of
    a play that :func:`play_values` has just followed start from what it
    learned there (a quarter less work for a lesson's positions; a batch on
    one thread gains nothing from it). The answers are the same either way.

    :raises SolverError: if endplay is missing or refuses a position.
    """
    if _THREADS == 1:
        return [card_options(*p) for p in positions]
    out: list[dict[Card, int]] = []
    for i in range(0, len(positions), _BATCH):
        chunk = positions[i:i + _BATCH]
        deals = [make_deal(*p) for p in chunk]
        try:
            solved = _require().solve_all_boards(deals)
        except Exception as err:  # noqa: BLE001 - the C library's errors are plain RuntimeErrors
            raise SolverError(f"the double-dummy solver failed: {err}") from err
        for k in range(len(chunk)):
            out.append({_card_of(ecard): int(tricks) for ecard, tricks in solved[k]})
    return out


def play_values(hands: Mapping[Seat, Iterable[Card]], trumps: Suit | None, leader: Seat,
                plays: Sequence[Card]) -> list[int]:
    """The worth of every position of a play, in one call: for the position
    before each card of ``plays`` (from the deal, ``leader`` leading) and the
    one after the last, the tricks the side of ``leader`` takes in the whole
    play, those already won included, with best play by all four from there.

    DDS solves the positions one after another, each from the last one's
    transposition table: a third to a half of what weighing every legal card
    at each position costs (:func:`card_options_many`).

    :raises SolverError: if endplay is missing or refuses the play.
    """
    deal = make_deal(hands, trumps, leader)
    total = len(list(hands[leader]))
    try:
        solved = _require().analyse_play(deal, [_ecard(c) for c in plays])
    except Exception as err:  # noqa: BLE001 - the C library's errors are plain RuntimeErrors
        raise SolverError(f"the double-dummy solver failed: {err}") from err
    # DDS counts for the side of the leader's right-hand opponent (the declarer, at bridge)
    out = [total - int(n) for n in solved]
    # A play to the last card stops at the last trick's lead: the rest is forced.
    return out + out[-1:] * (len(plays) + 1 - len(out))


def _card_of(ecard: "_ECard") -> Card:
    return Card.parse(f"{_rank_text(ecard)}{'SHDC'[int(ecard.suit)]}")


def _rank_text(ecard: "_ECard") -> str:
    return str(ecard)[1:] if str(ecard)[0] in "SHDC♠♥♦♣" else str(ecard)[:-1]


def dd_tricks(hands: Mapping[Seat, Iterable[Card]], trumps: Suit | None, leader: Seat) -> int:
    """Tricks the leader's side takes from this position with best play by all.

    DDS is asked for one best card only, not the worth of every card: for a
    whole deal that is about a third of the work.
    """
    if not any(list(hands[s]) for s in hands):
        return 0
    deal = make_deal(hands, trumps, leader)  # loads endplay's solver first (see _endplay_package)
    from endplay.dds.solve import SolveMode

    try:
        solved = _require().solve_board(deal, SolveMode.OptimalOne)
        return max((int(tricks) for _card, tricks in solved), default=0)
    except Exception as err:  # noqa: BLE001 - the C library's errors are plain RuntimeErrors
        raise SolverError(f"the double-dummy solver failed: {err}") from err
