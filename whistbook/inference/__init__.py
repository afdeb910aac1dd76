"""The inference engine: what the fall of the cards proves and makes likely.

>>> from whistbook.corpus import check_file
>>> ex = explain(check_file("hands/cavendish/01-trump-lead-on-established-suit.yaml"))
>>> ex.viewpoint
Seat.A
>>> from whistbook import wording
>>> [wording.sentence_text(i) for i in ex.tricks[1].inferences
...  if i.seat == Seat.B and i.rule == "fourth_hand_wins_if_able"]
['B presumably does not hold K♣ (fourth hand wins if he can, p. 96).']

Public API (kept stable for the rest of whistbook):

* :func:`explain` ``(checked, seat=None) -> Explanation``
* :class:`Explanation` (``viewpoint``, ``tricks``, ``departures``, ``to_json()``)
* :class:`TrickExplanation` (``number``, ``inferences``, ``knowledge``, ``counts``)
* :class:`Inference` (``seat, kind, cards, suit, certainty, rule, page, rests_on, low, high, variant``);
  :mod:`whistbook.wording` makes its words
* :class:`Departure` (``trick, seat, rule, found_at, card, layer``)
* :data:`RULES` (id -> :class:`Rule`: ``id, title, page, description``)

See ``docs/inference.md`` for how it reasons.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass

from ..cards import Suit

from ..laws import CheckedHand
from ..errors import WhistbookError
from ..seats import SEATS, Seat
from .engine import Engine, PublicEngine
from .records import LAYERS, Departure, Explanation, Inference, TrickExplanation
from .state import KState
from .rules import RULES, Rule


def explain(checked: CheckedHand, seat: Seat | None = None) -> Explanation:
    """Explain a checked hand trick by trick from ``seat``'s knowledge (default:
    the file's ``known_hand``, else A).

    :raises WhistbookError: if the hand has no valid replay.
    """
    from .report import build

    hf, rp = checked.hand, checked.replay
    if hf is None or rp is None:
        raise WhistbookError("the hand has errors, so its play cannot be explained")
    viewer = seat if seat is not None else (hf.known_hand if hf.known_hand is not None else Seat.A)
    size = len(rp.hands[0])
    turn_up = hf.turn_up.card if hf.turn_up is not None else None
    revokes = frozenset((r.trick, r.cards[0]) for r in checked.rulings if r.kind == "revoke")
    forced = frozenset((r.trick, r.cards[-1]) for r in checked.rulings
                       if r.kind in ("call-card", "call-play")
                       or (r.kind == "revoke-corrected" and r.penalty in ("highest", "lowest")))
    eng = Engine({s: rp.hands[s] for s in SEATS}, rp.trumps, rp.tricks, viewer, turn_up, hf.dealer, size,
                 revokes, forced)
    with _no_cyclic_gc():
        return build(eng, eng.run())


def explain_play(hands, trumps, leader: Seat, tricks, viewer: Seat, *, turn_up=None, dealer: Seat | None = None,
                 ) -> Explanation:
    """Explain a play given as plain data, without a hand file: ``hands`` maps
    each seat to its cards as dealt, ``tricks`` lists each trick's cards from
    its leader. Raises :class:`~whistbook.errors.IllegalPlayError` for an
    illegal play."""
    from ..play import replay
    from .report import build

    rp = replay(hands, trumps, leader, tricks)
    eng = Engine({s: rp.hands[s] for s in SEATS}, rp.trumps, rp.tricks, viewer, turn_up, dealer,
                 len(rp.hands[0]))
    with _no_cyclic_gc():
        return build(eng, eng.run())


@dataclass(frozen=True)
class SeatView:
    """What one seat has seen of the play and made of it, at some moment of it:
    the public history (which the conventions read) and the engine's layers."""

    #: per layer ("certain", "presumed", "probable"), the constraint store about the deal as dealt
    layers: dict[str, KState]
    #: per suit, the seat that first led it (None: not led yet)
    opener: tuple[Seat | None, ...]
    #: per suit, the numbers of the tricks in which it was led (the trick in play included)
    rounds: tuple[tuple[int, ...], ...]
    #: per seat and suit, the (trick, rank index) of each of his leads of it
    leads: dict[tuple[Seat, Suit], tuple[tuple[int, int], ...]]
    #: per seat, the trick of his first call for trumps (0: none)
    called: tuple[int, ...]
    #: per seat, the first trick in which he led trumps (0: none)
    trump_led_by: tuple[int, ...]
    #: per suit, the ranks played so far (a rank mask), and per seat and suit the ranks he played
    gone: tuple[int, ...]
    played: tuple[tuple[int, ...], ...]
    #: per seat, whether he has discarded yet
    discarded: tuple[bool, ...]


def view_after(hands, trumps, tricks, viewer: Seat, *, turn_up=None, dealer: Seat | None = None,
               revokes: frozenset = frozenset(), forced: frozenset = frozenset(),
               presumptions: bool = True) -> SeatView:
    """What ``viewer`` knows after the play ``tricks`` (each from its leader;
    the last may stop part-way through, at the card he is about to choose).
    ``revokes`` and ``forced`` hold (trick number, card) of recorded revokes and
    of cards the laws made a player play.

    Without ``presumptions`` only the public history and the certain layer are
    kept (every layer is the certain one): about a tenth of the work, for a
    player who reads the conventions from the history (a call, an echo, who
    opened what) but has no use for what they presume of the hidden cards."""
    size = len(hands[viewer])
    kind = Engine if presumptions else PublicEngine
    eng = kind(hands, trumps, tricks, viewer, turn_up, dealer, size, revokes, forced)
    with _no_cyclic_gc():
        runs = eng.run()
    if runs:
        layers = dict(zip(LAYERS, runs[-1].after))
    else:
        st = eng.start()
        if turn_up is not None and dealer is not None and dealer != viewer:
            st.fix(int(turn_up), int(dealer), 1)  # the turned-up card is the dealer's (Laws 52-53)
            st.propagate()
        layers = {layer: st for layer in LAYERS}
    return seat_view(layers, vars(eng))


def seat_view(layers, public) -> SeatView:
    """A :class:`SeatView` from an engine's layers and its public history
    (``public``: the engine's attributes, or a copy of them)."""
    return SeatView(
        layers=layers,
        opener=tuple(None if o is None else SEATS[o] for o in public["opener"]),
        rounds=tuple(tuple(r) for r in public["rounds"]),
        leads={(SEATS[s], Suit(S)): tuple(public["leads"][s][S]) for s in range(4) for S in range(4)
               if public["leads"][s][S]},
        called=tuple(public["called"]), trump_led_by=tuple(public["trump_led_by"]), gone=tuple(public["gone"]),
        played=tuple(tuple(p) for p in public["played"]), discarded=tuple(public["discarded"]),
    )


@contextmanager
def _no_cyclic_gc():
    """An explanation makes a great many small lists, tuples and dicts that
    live until it ends; the cyclic collector would walk them again and again
    (about a tenth of the time). Pause it while the explanation is made.

    On resuming, the first collection would walk everything made meanwhile
    once more (another tenth), to find nothing: an explanation makes no
    reference cycles (a test checks it), so what it leaves is freed by
    reference counting. So move it straight to the oldest generation
    instead: ``gc.freeze()`` then ``gc.unfreeze()`` splices the lists of
    tracked objects without walking them (every tracked object, the
    caller's young ones too, which then wait for a full collection). Not done when the program has
    frozen objects of its own, which ``unfreeze`` would release."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if was:
            gc.enable()


__all__ = ["explain", "explain_play", "view_after", "seat_view", "SeatView", "Explanation", "TrickExplanation", "Inference", "Departure",
           "RULES", "Rule"]
