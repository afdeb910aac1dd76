"""The decisions of a hand and what each player knew when he made them.

A *decision* is one card laid to a trick: the seat to play, the cards he held,
the legal ones among them, the cards already on the trick. :func:`decisions`
lists them for a replayed hand. :func:`knowledge_at` asks the inference engine
what that seat could know at that moment (the play up to his card, read with
the same conventions the lessons explain) and returns it as the
:class:`~.sampling.Knowledge` the deal sampler takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..cards import Card, Suit
from ..play import Trick, legal_plays
from ..seats import SEATS, Seat, Side
from .sampling import Knowledge, SeatSuit


@dataclass(frozen=True)
class Table:
    """A hand as the judge needs it: the deal and the play, without the file.

    ``tricks`` are the replayed tricks (complete, in order); ``score`` is the
    score before the hand (None when the file does not give it).
    """

    hands: Mapping[Seat, frozenset[Card]]  # as dealt
    trumps: Suit | None
    leader: Seat
    tricks: Sequence[Trick]
    turn_up: Card | None = None
    dealer: Seat | None = None
    score: Mapping[Side, int] | None = None
    rules: str = "short"
    #: (trick number, card) of revokes and of cards the laws made a player play
    revokes: frozenset = frozenset()
    forced: frozenset = frozenset()

    @property
    def size(self) -> int:
        return len(self.hands[Seat.A])

    @classmethod
    def of(cls, checked) -> "Table":
        """The table of a checked hand file (one that replays)."""
        hf, rp = checked.hand, checked.replay
        revokes = frozenset((r.trick, r.cards[0]) for r in checked.rulings if r.kind == "revoke")
        forced = frozenset((r.trick, r.cards[-1]) for r in checked.rulings
                           if r.kind in ("call-card", "call-play")
                           or (r.kind == "revoke-corrected" and r.penalty in ("highest", "lowest")))
        return cls(
            hands={s: frozenset(rp.hands[s]) for s in SEATS}, trumps=rp.trumps, leader=hf.leader,
            tricks=tuple(rp.tricks), turn_up=hf.turn_up.card if hf.turn_up is not None else None,
            dealer=hf.dealer, score=hf.score, rules=hf.rules, revokes=revokes, forced=forced,
        )


@dataclass(frozen=True)
class Decision:
    """One card to choose: ``seat`` plays the ``index``-th card (0: the lead) of trick ``trick``."""

    trick: int  # 1..13
    index: int  # 0..3
    seat: Seat
    leader: Seat
    played: Card  # the card the record shows
    hand: frozenset[Card]  # the seat's cards before it plays
    trick_so_far: tuple[Card, ...]
    legal: tuple[Card, ...] = field(default=())
    #: tricks each side had won before this trick
    won: Mapping[Side, int] = field(default_factory=dict)

    @property
    def forced(self) -> bool:
        """True when the seat had only one legal card (or cards all equal: see :func:`choices`)."""
        return len(self.legal) == 1


def decisions(table: Table) -> list[Decision]:
    """Every card laid in the written tricks, as a decision, in play order."""
    held = {s: set(table.hands[s]) for s in SEATS}
    won = {Side.AB: 0, Side.YZ: 0}
    out = []
    for trick in table.tricks:
        so_far: list[Card] = []
        for k, p in enumerate(trick.plays):
            led = so_far[0].suit if so_far else None
            # a recorded revoke is not among the legal cards: the laws, not the judge, deal with it
            legal = tuple(sorted(legal_plays(held[p.seat], led), key=lambda c: (c.suit, -c.rank)))
            out.append(Decision(trick.number, k, p.seat, trick.leader, p.card, frozenset(held[p.seat]),
                                tuple(so_far), legal, dict(won)))
            so_far.append(p.card)
            held[p.seat].discard(p.card)
        won[trick.winner.side] += 1
    return out


def choices(legal: Sequence[Card], gone: frozenset[Card] | set[Card]) -> list[tuple[Card, ...]]:
    """The legal cards grouped into real choices: cards of one suit with no
    card between them still out (every card between in ``gone``, the earlier
    tricks, or held by the same player) are equal, and playing either is one
    choice. Groups are given
    high to low within each suit, cards of a group high to low."""
    by_suit: dict[Suit, list[Card]] = {}
    for c in sorted(legal, key=lambda c: (c.suit, -c.rank)):
        by_suit.setdefault(c.suit, []).append(c)
    mine = set(legal)
    out: list[tuple[Card, ...]] = []
    for suit, cards in by_suit.items():
        group = [cards[0]]
        for c in cards[1:]:
            between = [Card(suit, r) for r in range(c.rank + 1, group[-1].rank)]
            if all(b in gone or b in mine for b in between):
                group.append(c)
            else:
                out.append(tuple(group))
                group = [c]
        out.append(tuple(group))
    return out


def played_before(table: Table, d: Decision) -> frozenset[Card]:
    """The cards played before decision ``d`` (earlier tricks and this trick's)."""
    return before_trick(table, d) | set(d.trick_so_far)


def before_trick(table: Table, d: Decision) -> frozenset[Card]:
    """The cards of the tricks before ``d``'s: what makes two cards equal in
    sequence (a card on the trick in play still divides them: with the queen
    led, the king and the knave are not equal)."""
    return frozenset(c for t in table.tricks[:d.trick - 1] for c in t.cards)


def choices_at(table: Table, d: Decision) -> list[tuple[Card, ...]]:
    """The real choices of decision ``d`` (see :func:`choices`)."""
    return choices(d.legal, before_trick(table, d))


def view_at(table: Table, d: Decision):
    """What ``d.seat`` had seen and concluded when he chose his card: the
    inference engine run over the play up to that card (a
    :class:`~whistbook.inference.SeatView`)."""
    from ..inference import view_after

    prefix = list(table.tricks[:d.trick - 1])
    if d.index:
        t = table.tricks[d.trick - 1]
        prefix.append(Trick(t.number, t.leader, t.plays[:d.index], t.leader, t.tally, t.shown))
    return view_after({s: table.hands[s] for s in SEATS}, table.trumps, prefix, d.seat,
                      turn_up=table.turn_up, dealer=table.dealer, revokes=_revokes_known(table, prefix, d.seat),
                      forced=table.forced)


def _revokes_known(table: Table, prefix: Sequence[Trick], seat: Seat) -> frozenset:
    """The recorded revokes ``seat`` knows of by the end of ``prefix``: his own,
    and another's once the revoker has played a card of the suit he failed to
    follow (until then the table can only take him to be out of it)."""
    known = set()
    for t, card in table.revokes:
        if t > len(prefix):
            continue
        trick = prefix[t - 1]
        revoker = next((p.seat for p in trick.plays if p.card == card), None)
        led = trick.plays[0].card.suit
        if revoker == seat or any(p.seat == revoker and p.card.suit == led for later in prefix[t:] for p in later.plays):
            known.add((t, card))
    return frozenset(known)


def knowledge_at(table: Table, d: Decision, layer: str = "presumed", view=None) -> Knowledge:
    """What ``d.seat`` knew of the unseen hands when he chose his card, in the
    engine's ``layer`` ("certain": the laws and the cards seen; "presumed": the
    conventions too), as the deal sampler takes it."""
    st = (view if view is not None else view_at(table, d)).layers[layer]
    viewer = int(d.seat)
    frame = st.f
    cells = {}
    for o in frame.others:
        for S in range(4):
            cells[(o, S)] = SeatSuit(st.allowed(o, S), st.forced(o, S), st.lens[o][S],
                                     st.explicit_holdings(o, S))
    own = frozenset(int(c) for c in table.hands[d.seat])
    u = frame.umask
    return Knowledge(viewer, own, frame.size, (u[0], u[1], u[2], u[3]), cells)


__all__ = ["Table", "Decision", "decisions", "choices", "choices_at", "before_trick", "view_at", "knowledge_at", "played_before"]
