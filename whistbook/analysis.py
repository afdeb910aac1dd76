"""Double-dummy analysis of every card played in a hand.

For each card laid to a trick, :func:`analyse` asks the solver what every
legal card of that seat would have been worth: the number of tricks the side
to play takes from that point to the end of the hand (the trick in progress
included) if all four players play perfectly afterwards. A card worth less
than the best one *costs* tricks, and the verdict names the better cards.

This is double-dummy judgement: the solver sees all four hands, which no
player at the table can. A card it marks as costly may have been the right
card on what its player could see or infer, and Cavendish's play is often
just that. Every view of these figures says so (:data:`DOUBLE_DUMMY_NOTE`).

Solving is the slow part, so results are cached on disk (:class:`Cache`),
one file per hand keyed by the trumps, the deal and the cards played; a
rebuild with nothing changed solves nothing.

>>> from whistbook.corpus import check_file                     # doctest: +SKIP
>>> a = analyse(check_file("hands/cavendish/01-trump-lead-on-established-suit.yaml"))  # doctest: +SKIP
>>> a.start                                                     # doctest: +SKIP
{Side.AB: 9, Side.YZ: 4}
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any, Collection, Iterable, Sequence

from . import solver
from .cards import Card
from .laws import CheckedHand
from .errors import AnalysisError, SolverError
from .play import Replay, legal_plays
from .seats import SEATS, Seat, Side
from .solvercache import Cache, default_cache_dir

log = logging.getLogger(__name__)

#: One sentence every view of the analysis carries: what the figures assume.
DOUBLE_DUMMY_NOTE = (
    "Double-dummy analysis: every figure assumes that all four hands are seen and that "
    "everyone plays perfectly from then on. No player at the table knows this much, so a "
    "card marked as costing a trick may still have been the right play on the evidence "
    "its player had."
)

#: Bump when the cached data changes meaning; old files are then never read.
CACHE_VERSION = 1



# --------------------------------------------------------------------------- model


@dataclass(frozen=True)
class CardVerdict:
    """What one card played was worth, double-dummy.

    Tricks are counted for the side of ``seat`` from the moment before the
    card is played to the end of the hand, the trick in progress included.
    """

    seat: Seat
    card: Card
    #: tricks the side takes with best play after this card
    tricks_if_played: int
    #: tricks the side takes after the best card it had
    best_tricks: int
    #: every card worth ``best_tricks``, in card order (lowest spade first)
    best_cards: tuple[Card, ...]
    #: every legal card and its tricks, in card order; one entry when the card was forced.
    #: An analysis for a lesson (``analyse(..., options_for=...)``) leaves this and
    #: ``best_cards`` empty for a card that cost nothing, of a seat not asked for.
    options: tuple[tuple[Card, int], ...] = ()

    @property
    def cost(self) -> int:
        """Tricks lost against the best card: 0 for a card as good as any."""
        return self.best_tricks - self.tricks_if_played

    @property
    def forced(self) -> bool:
        """True when the seat had no other legal card."""
        return len(self.options) == 1

    def tricks_with(self, card: Card) -> int:
        """Tricks the side would have taken by playing ``card`` instead.

        :raises KeyError: if ``card`` was not a legal card here.
        """
        return dict(self.options)[card]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": str(self.seat),
            "card": str(self.card),
            "tricks_if_played": self.tricks_if_played,
            "best_tricks": self.best_tricks,
            "best_cards": [str(c) for c in self.best_cards],
            "cost": self.cost,
            "options": {str(c): n for c, n in self.options},
        }


@dataclass(frozen=True)
class TrickAnalysis:
    """The verdicts on the four cards of one trick, in play order."""

    number: int  # 1..13
    cards: list[CardVerdict]
    leader: Seat | None = None
    winner: Seat | None = None
    #: False for a trick the book does not print, written out by the author
    shown: bool = True
    #: tricks still to be played when this trick starts, this one included
    tricks_left: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": str(self.leader) if self.leader is not None else None,
            "winner": str(self.winner) if self.winner is not None else None,
            "shown": self.shown,
            "tricks_left": self.tricks_left,
            "cards": [v.to_json() for v in self.cards],
        }


@dataclass
class Analysis:
    """Double-dummy verdicts on every card played in one hand."""

    #: tricks each side takes with best play by all four, before the opening lead
    start: dict[Side, int]
    tricks: list[TrickAnalysis]
    title: str = ""
    path: str = ""
    trumps: str = ""
    first_leader: Seat = Seat.A
    #: tricks each side took in the whole hand (written tricks plus the claim), if known
    taken: dict[Side, int] | None = None
    #: tricks not written out but claimed; their cards are not analysed
    claimed_tricks: int = 0
    #: the claim's share of those tricks, as the file states it
    claim: dict[Side, int] | None = None
    #: best play from the point of the claim, double-dummy
    claim_dd: dict[Side, int] | None = None

    def verdicts(self) -> Iterable[tuple[int, CardVerdict]]:
        """Every verdict with its trick number, in play order."""
        for t in self.tricks:
            for v in t.cards:
                yield t.number, v

    @property
    def costly(self) -> list[tuple[int, CardVerdict]]:
        """The cards that cost a trick or more, with their trick numbers."""
        return [(n, v) for n, v in self.verdicts() if v.cost > 0]

    @property
    def perfect(self) -> bool:
        """True when no card played cost a trick."""
        return not any(v.cost for _, v in self.verdicts())

    def cost_by_seat(self) -> dict[Seat, int]:
        """Tricks each seat's cards cost, summed over the hand."""
        out = {s: 0 for s in SEATS}
        for _, v in self.verdicts():
            out[v.seat] += v.cost
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "path": self.path,
            "method": "double-dummy",
            "note": DOUBLE_DUMMY_NOTE,
            "trumps": self.trumps,
            "leader": str(self.first_leader),
            "start": _sides_json(self.start),
            "tricks": [t.to_json() for t in self.tricks],
            "claim": None if not self.claimed_tricks else {
                "tricks": self.claimed_tricks,
                "stated": _sides_json(self.claim) if self.claim else None,
                "double_dummy": _sides_json(self.claim_dd) if self.claim_dd else None,
            },
            "taken": _sides_json(self.taken) if self.taken else None,
            "cost_by_seat": {str(s): n for s, n in self.cost_by_seat().items()},
            "perfect": self.perfect,
        }


def _sides_json(d: dict[Side, int]) -> dict[str, int]:
    return {str(s): d[s] for s in Side if s in d}


# --------------------------------------------------------------------------- cache


def cache_key(rp: Replay) -> str:
    """A hash of everything the solver's answers depend on: trumps, the deal,
    the first leader and every card played in order."""
    data = {
        "v": CACHE_VERSION,
        "trumps": rp.trumps.letter if rp.trumps is not None else "N",
        "deal": {str(s): sorted(str(c) for c in rp.hands[s]) for s in SEATS},
        "leader": str(rp.first_leader),
        "play": [str(c) for t in rp.tricks for c in t.cards],
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- analysis


def analyse(checked: CheckedHand, cache: Cache | None = None, *,
            options_for: Collection[Seat] | None = None) -> Analysis:
    """Judge every card played in ``checked`` double-dummy.

    ``cache`` keeps the solver's answers between runs; without one every
    position is solved afresh.

    With ``options_for`` (the seats whose every legal card a lesson shows
    the worth of: the known hand), every card is still given its worth and
    its cost, but the other cards the seat could have played are weighed only
    for those seats' cards and for the cards that cost tricks: what a lesson
    shows, for about a third of the solver's time (the whole play is solved
    in one call, :func:`whistbook.solver.play_values`). A full analysis
    already in the cache is used as it is.

    :raises AnalysisError: for a problem file, or a hand whose play could not
        be replayed (run ``whistbook validate`` to see why).
    :raises SolverError: if the double-dummy solver cannot be used.
    """
    hf, rp = checked.hand, checked.replay
    if hf is not None and hf.kind == "problem":
        raise AnalysisError(
            "a problem (kind: problem) is not a played hand, so there are no cards to analyse; "
            "'whistbook validate' checks its solutions",
            hf.loc_of("kind"),
        )
    if rp is None:
        raise AnalysisError(
            "the play does not replay, so it cannot be analysed; 'whistbook validate' shows why",
            hf.loc_of("tricks") if hf is not None else None,
        )

    positions = _positions(rp)
    key = cache_key(rp)
    options = None
    if cache is not None:
        options = _from_cache(cache.get(key), key, positions)
    worth = None
    if options is None and options_for is not None:
        try:
            worth, some = _shown(rp, positions, cache, frozenset(options_for))
        except SolverError:
            pass  # a play DDS will not follow card by card (a revoke): every position on its own
    if worth is None:
        if options is None:
            options = solver.card_options_many(positions)
            if cache is not None:
                cache.put(key, _to_cache(key, options))
        worth, some = _worth(rp, options), dict(enumerate(options))

    n_cards = len(rp.hands[0])
    lead_side = rp.first_leader.side
    start = _by_side(lead_side, worth[0][0], n_cards)

    tricks: list[TrickAnalysis] = []
    i = 0
    for t in rp.tricks:
        verdicts = []
        for p in t.plays:
            verdicts.append(_verdict(p.seat, p.card, *worth[i], some.get(i)))
            i += 1
        tricks.append(TrickAnalysis(t.number, verdicts, t.leader, t.winner, t.shown, n_cards - t.number + 1))

    out = Analysis(
        start=start, tricks=tricks,
        title=hf.title if hf is not None else "", path=hf.path if hf is not None else "",
        trumps=rp.trumps.letter if rp.trumps is not None else "N",
        first_leader=rp.first_leader,
        taken=dict(checked.final_tricks) if checked.final_tricks else None,
        claimed_tricks=rp.cards_left,
    )
    if rp.cards_left:
        got = worth[i][0]
        side = rp.next_leader.side
        out.claim_dd = _by_side(side, got, rp.cards_left)
        stated = hf.ending.claim if hf is not None and hf.ending is not None else None
        if stated:
            shares = dict(stated)
            if len(shares) == 1:
                (s, n), = shares.items()
                shares[s.other] = rp.cards_left - n
            out.claim = {s: shares[s] for s in Side}
    return out


def _by_side(side: Side, tricks: int, total: int) -> dict[Side, int]:
    """``tricks`` of ``total`` to ``side``, the rest to the other, keyed AB then YZ."""
    return {s: tricks if s == side else total - tricks for s in Side}


def _verdict(seat: Seat, card: Card, best: int, played: int, opts: dict[Card, int] | None) -> CardVerdict:
    if opts is None:  # a card that cost nothing, of a seat whose options are not asked for
        return CardVerdict(seat, card, played, best, (), ())
    # A recorded revoke is not among the solver's legal cards; the laws, not
    # double-dummy, say what it cost, so it is charged nothing here.
    return CardVerdict(
        seat, card, opts.get(card, best), best,
        tuple(sorted(c for c, n in opts.items() if n == best)),
        tuple(sorted(opts.items())),
    )


def _worth(rp: Replay, options: Sequence[dict[Card, int]]) -> list[tuple[int, int]]:
    """For each position, the tricks the side to play takes from there (the
    trick in progress included) with its best card and with the card played
    (the best, for the claim's position or a revoke)."""
    out = []
    cards = [p.card for t in rp.tricks for p in t.plays]
    for i, opts in enumerate(options):
        best = max(opts.values())
        out.append((best, opts.get(cards[i], best) if i < len(cards) else best))
    return out


def _shown(rp: Replay, positions: Sequence[solver.Position], cache: Cache | None,
           seats: frozenset[Seat]) -> tuple[list[tuple[int, int]], dict[int, dict[Card, int]]]:
    """What a lesson shows (see :func:`analyse`): each position's worth, and
    every legal card's worth where the seat is one of ``seats`` or the card cost tricks."""
    key = hashlib.sha256(f"{cache_key(rp)} shown {sorted(str(s) for s in seats)}".encode("utf-8")).hexdigest()
    found = _shown_from_cache(cache.get(key) if cache is not None else None, key, positions)
    if found is not None:
        return found
    plays = [p for t in rp.tricks for p in t.plays]
    values = solver.play_values({s: rp.hands[s] for s in SEATS}, rp.trumps, rp.first_leader, [p.card for p in plays])
    worth = []
    total = len(rp.hands[0])
    for i, pos in enumerate(positions):
        seat = pos.leader.next(len(pos.trick_so_far))
        won = _won_before(rp, i, seat.side)
        mine = [v if seat.side == rp.first_leader.side else total - v for v in values[i:i + 2]]
        worth.append((mine[0] - won, mine[-1] - won))
    wanted = [i for i, (best, played) in enumerate(worth[:len(plays)]) if plays[i].seat in seats or played < best]
    # a card played alone of its kind (the last trick's, a singleton followed) is worth the position: nothing to solve
    alone = {i for i in wanted if _legal(positions[i]) == [plays[i].card]}
    solved = iter(solver.card_options_many([positions[i] for i in wanted if i not in alone]))
    some = {i: {plays[i].card: worth[i][0]} if i in alone else next(solved) for i in wanted}
    if cache is not None:
        cache.put(key, {"version": CACHE_VERSION, "key": key, "worth": worth,
                        "options": {str(i): {str(c): n for c, n in sorted(o.items())} for i, o in some.items()}})
    return worth, some


def _won_before(rp: Replay, i: int, side: Side) -> int:
    """Tricks ``side`` won before the trick of the ``i``-th card (or before the claim)."""
    done = min(i // 4, len(rp.tricks))
    if done == 0:
        return 0
    tally = rp.tricks[done - 1].tally
    return tally[0] if side == Side.AB else tally[1]


def _positions(rp: Replay) -> list[solver.Position]:
    """The position before every card played, and the position the claim is
    made from when cards are left (or the opening position if nothing is written)."""
    held = [set(h) for h in rp.hands]
    out: list[solver.Position] = []
    for t in rp.tricks:
        so_far: list[Card] = []
        for p in t.plays:
            out.append(solver.Position({s: frozenset(held[s]) for s in SEATS}, rp.trumps, t.leader, tuple(so_far)))
            so_far.append(p.card)
        for p in t.plays:
            held[p.seat].discard(p.card)
    if rp.cards_left:
        out.append(solver.Position({s: rp.remaining[s] for s in SEATS}, rp.trumps, rp.next_leader, ()))
    return out


def _to_cache(key: str, options: Sequence[dict[Card, int]]) -> dict[str, Any]:
    return {
        "version": CACHE_VERSION,
        "key": key,
        "positions": [{str(c): n for c, n in sorted(o.items())} for o in options],
    }


def _from_cache(data: Any, key: str, positions: Sequence[solver.Position]) -> list[dict[Card, int]] | None:
    """The cached options if they fit these positions exactly, else None.

    Every position must list exactly the seat's legal cards with a plausible
    count of tricks: a stale, truncated or hand-edited file is solved again
    rather than trusted.
    """
    if data is None:
        return None
    try:
        if data["version"] != CACHE_VERSION or data["key"] != key:
            raise ValueError("version or key differs")
        raw = data["positions"]
        if not isinstance(raw, list) or len(raw) != len(positions):
            raise ValueError("wrong number of positions")
        return [_cached_options(entry, pos) for entry, pos in zip(raw, positions)]
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        log.info("cache: entry %s does not fit this hand (%s); solving again", key[:12], err)
        return None


def _tricks(n: Any, pos: solver.Position) -> int:
    """A cached count of tricks, if it can be one from ``pos`` (at most the cards each seat holds)."""
    if type(n) is not int or not 0 <= n <= len(pos.hands[pos.leader]):
        raise ValueError("trick counts out of range")
    return n


def _legal(pos: solver.Position) -> list[Card]:
    """The cards the seat to play may play in ``pos``."""
    seat = pos.leader.next(len(pos.trick_so_far))
    return legal_plays(pos.hands[seat], pos.trick_so_far[0].suit if pos.trick_so_far else None)


def _cached_options(entry: Any, pos: solver.Position) -> dict[Card, int]:
    """One position's cached options: exactly the legal cards of the seat to
    play, each with a count of tricks it could take (else ValueError)."""
    opts = {Card.parse(c): _tricks(n, pos) for c, n in entry.items()}
    if set(opts) != set(_legal(pos)):
        raise ValueError("cards differ from the legal ones")
    return opts


def _shown_from_cache(data: Any, key: str, positions: Sequence[solver.Position]
                      ) -> tuple[list[tuple[int, int]], dict[int, dict[Card, int]]] | None:
    """A lesson's analysis from the cache if it fits these positions, else None."""
    if data is None:
        return None
    try:
        if data["version"] != CACHE_VERSION or data["key"] != key or len(data["worth"]) != len(positions):
            raise ValueError("version, key or length differs")
        worth = [(_tricks(best, pos), _tricks(played, pos)) for (best, played), pos in zip(data["worth"], positions)]
        some = {int(i): _cached_options(entry, positions[int(i)]) for i, entry in data["options"].items()}
        return worth, some
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        log.info("cache: entry %s does not fit this hand (%s); solving again", key[:12], err)
        return None


# --------------------------------------------------------------------------- corpus summary


@dataclass(frozen=True)
class HandSummary:
    """One hand's line in the corpus summary."""

    title: str
    path: str
    start: dict[Side, int]
    taken: dict[Side, int] | None
    #: tricks each seat's cards cost
    cost_by_seat: dict[Seat, int]
    #: how many of each seat's cards cost a trick or more
    costly_cards: dict[Seat, int]
    #: for each side, the tricks best play from the claim would add to what the claim gives it
    claim_shortfall: dict[Side, int] | None = None

    @property
    def perfect(self) -> bool:
        return not any(self.cost_by_seat.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "path": self.path,
            "start": _sides_json(self.start),
            "taken": _sides_json(self.taken) if self.taken else None,
            "cost_by_seat": {str(s): n for s, n in self.cost_by_seat.items()},
            "costly_cards": {str(s): n for s, n in self.costly_cards.items()},
            "perfect": self.perfect,
            "claim_shortfall": _sides_json(self.claim_shortfall) if self.claim_shortfall else None,
        }


@dataclass
class CorpusSummary:
    """The corpus at a glance: each hand's double-dummy start against the
    tricks taken, and whose cards cost tricks."""

    hands: list[HandSummary]

    @property
    def perfect(self) -> list[HandSummary]:
        """The hands in which no card cost a trick."""
        return [h for h in self.hands if h.perfect]

    def cost_by_seat(self) -> dict[Seat, int]:
        out = {s: 0 for s in SEATS}
        for h in self.hands:
            for s, n in h.cost_by_seat.items():
                out[s] += n
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "method": "double-dummy",
            "note": DOUBLE_DUMMY_NOTE,
            "hands": [h.to_json() for h in self.hands],
            "perfect": [h.title for h in self.perfect],
            "cost_by_seat": {str(s): n for s, n in self.cost_by_seat().items()},
        }


def summary(analyses: Iterable[Analysis]) -> CorpusSummary:
    """Sum up analysed hands for the corpus report."""
    rows = []
    for a in analyses:
        counts = {s: 0 for s in SEATS}
        for _, v in a.costly:
            counts[v.seat] += 1
        shortfall = None
        if a.claim and a.claim_dd:
            shortfall = {s: a.claim_dd[s] - a.claim[s] for s in Side}
        rows.append(HandSummary(a.title, a.path, dict(a.start), dict(a.taken) if a.taken else None,
                                a.cost_by_seat(), counts, shortfall))
    return CorpusSummary(rows)


__all__ = [
    "analyse", "Analysis", "TrickAnalysis", "CardVerdict", "Cache", "cache_key", "default_cache_dir",
    "summary", "CorpusSummary", "HandSummary",
    "DOUBLE_DUMMY_NOTE", "CACHE_VERSION",
]
