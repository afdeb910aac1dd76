"""Deals consistent with what one seat knows, drawn uniformly.

A player at the table sees his own thirteen cards and the cards played; the
laws prove more (a player who did not follow has none of the suit led, the
dealer holds the turn-up) and the conventions presume more still (a fourth-best
lead shows three cards above it). The inference engine keeps all of that as a
constraint store about the deal *as dealt* (:mod:`whistbook.inference.state`):
for every card the seats that may hold it, for every seat and suit the lengths
still possible, and, where a convention has spoken, the explicit holdings it
allows.

:class:`DealSpace` turns such a store into the set of deals that keep every
constraint, and draws from it uniformly: every consistent deal is equally
likely, as it is before the play (all deals are), so the draw is the player's
own view of the unseen hands. It works suit by suit and then joins the suits:

* For each suit, the ways to share its unseen cards among the three other seats
  are counted by the lengths they give each seat (a *length triple*). Seats with
  explicit holdings are enumerated; the cards left are shared among the others
  by counting (a binomial for two seats, a small dynamic programme for three).
* A dynamic programme over the four suits joins the triples so that every seat
  is dealt its full hand, weighting each by its number of ways.

A draw then picks a triple for each suit (last suit first, by weight), and a
sharing of each suit's cards within its triple, uniformly. When the whole space
is small, :meth:`DealSpace.deals` lists it outright, and an evaluation can
weigh every deal instead of a sample (exact single-dummy figures).

Ranks are indexes 0..12 (two to ace) and a holding is a 13-bit mask, as in the
engine; seats and suits are the ``int`` of :class:`~whistbook.seats.Seat` and
:class:`~whistbook.cards.Suit`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Iterator, Mapping, Sequence

from ..cards import Card, Suit
from ..seats import SEATS, Seat


class NoDeal(Exception):
    """The constraints admit no deal of the unseen cards."""


@dataclass(frozen=True)
class SeatSuit:
    """What is known of one unseen seat's holding of one suit, as dealt."""

    allowed: int  # ranks the seat may have been dealt
    forced: int  # ranks the seat must have been dealt (a subset of ``allowed``)
    lengths: int  # bit n set: n cards of the suit is still possible
    holdings: tuple[int, ...] | None = None  # the explicit holdings a convention allows, if any

    def admits(self, h: int) -> bool:
        return (h & ~self.allowed) == 0 and (h & self.forced) == self.forced and bool(self.lengths >> h.bit_count() & 1)


@dataclass(frozen=True)
class Knowledge:
    """One seat's knowledge of the deal: the input of :class:`DealSpace`.

    ``unseen[S]`` holds the ranks of suit ``S`` in play that the viewer was not
    dealt; ``cells[(seat, S)]`` says what is known of each other seat's share.
    ``size`` is the number of cards each seat was dealt.
    """

    viewer: int
    own: frozenset[int]  # the viewer's dealt cards (card ints)
    size: int
    unseen: tuple[int, int, int, int]
    cells: Mapping[tuple[int, int], SeatSuit]

    @property
    def others(self) -> tuple[int, int, int]:
        a, b, c = (s for s in range(4) if s != self.viewer)
        return a, b, c


def _bits(m: int) -> list[int]:
    out = []
    while m:
        b = m & -m
        out.append(b.bit_length() - 1)
        m ^= b
    return out


def _mask_of(ranks: Sequence[int]) -> int:
    m = 0
    for r in ranks:
        m |= 1 << r
    return m


class _Group:
    """The sharings of one suit that give one length triple: ``count`` of them.
    Parts: (fixed masks, share) pairs, where ``share`` spreads the rest."""

    __slots__ = ("count", "parts")

    def __init__(self) -> None:
        self.count = 0
        self.parts: list[tuple[int, object]] = []  # (weight, part)

    def add(self, weight: int, part: object) -> None:
        if weight:
            self.count += weight
            self.parts.append((weight, part))


class _Pair:
    """Cards left to two seats ``p`` and ``q`` (indexes into the triple): the
    ones each must take and ``free`` ones of which ``p`` takes ``n``."""

    __slots__ = ("base", "p", "q", "fp", "fq", "free", "n")

    def __init__(self, base: tuple[int, int, int], p: int, q: int, fp: int, fq: int, free: int, n: int) -> None:
        self.base, self.p, self.q, self.fp, self.fq, self.free, self.n = base, p, q, fp, fq, free, n

    def draw(self, rng: random.Random) -> tuple[int, int, int]:
        took = _mask_of(rng.sample(_bits(self.free), self.n))
        return self._with(took)

    def every(self) -> Iterator[tuple[int, int, int]]:
        for took in combinations(_bits(self.free), self.n):
            yield self._with(_mask_of(took))

    def _with(self, took: int) -> tuple[int, int, int]:
        out = list(self.base)
        out[self.p] |= self.fp | took
        out[self.q] |= self.fq | (self.free & ~took)
        return out[0], out[1], out[2]


class _Three:
    """Cards shared among all three seats, each card among the seats it may go
    to: a dynamic programme over the cards counts the ways to reach each pair of
    lengths of the first two seats, and a draw walks it back."""

    __slots__ = ("cards", "options", "ways")

    def __init__(self, cards: list[int], options: list[tuple[int, ...]]) -> None:
        self.cards = cards
        self.options = options
        # ways[i][(a, b)]: ways to share cards i.. so that seats 0 and 1 get a and b more
        ways: list[dict[tuple[int, int], int]] = [dict() for _ in range(len(cards) + 1)]
        ways[len(cards)][(0, 0)] = 1
        for i in range(len(cards) - 1, -1, -1):
            here = ways[i]
            for (a, b), n in ways[i + 1].items():
                for k in options[i]:
                    key = (a + (k == 0), b + (k == 1))
                    here[key] = here.get(key, 0) + n
        self.ways = ways

    def totals(self) -> dict[tuple[int, int], int]:
        return self.ways[0]

    def draw(self, rng: random.Random, a: int, b: int) -> tuple[int, int, int]:
        out = [0, 0, 0]
        for i, r in enumerate(self.cards):
            nxt = self.ways[i + 1]
            choices = [(k, nxt.get((a - (k == 0), b - (k == 1)), 0)) for k in self.options[i]]
            pick = rng.randrange(sum(w for _, w in choices))
            for k, w in choices:
                if pick < w:
                    break
                pick -= w
            out[k] |= 1 << r
            a -= k == 0
            b -= k == 1
        return out[0], out[1], out[2]

    def every(self, a: int, b: int, i: int = 0) -> Iterator[tuple[int, int, int]]:
        if i == len(self.cards):
            yield (0, 0, 0)
            return
        r = self.cards[i]
        for k in self.options[i]:
            a2, b2 = a - (k == 0), b - (k == 1)
            if self.ways[i + 1].get((a2, b2)):
                for rest in self.every(a2, b2, i + 1):
                    out = list(rest)
                    out[k] |= 1 << r
                    yield out[0], out[1], out[2]


class SuitSpace:
    """The ways to share one suit's unseen cards among the three other seats,
    grouped by the lengths they give (seats in the order of ``Knowledge.others``)."""

    def __init__(self, unseen: int, cells: Sequence[SeatSuit]) -> None:
        self.groups: dict[tuple[int, int, int], _Group] = {}
        explicit = [i for i in range(3) if cells[i].holdings is not None]
        rest = [i for i in range(3) if cells[i].holdings is None]
        for base, left in self._explicit(unseen, cells, explicit):
            self._share(base, left, cells, rest)

    def _explicit(self, unseen: int, cells: Sequence[SeatSuit], explicit: list[int]):
        """Every choice of holdings for the seats a convention has spoken about,
        disjoint and within the suit's unseen cards: (masks by seat, cards left)."""
        def walk(k: int, base: tuple[int, int, int], left: int):
            if k == len(explicit):
                yield base, left
                return
            i = explicit[k]
            for h in cells[i].holdings or ():
                if h & ~left or not cells[i].admits(h):
                    continue
                nb = list(base)
                nb[i] = h
                yield from walk(k + 1, (nb[0], nb[1], nb[2]), left & ~h)
        yield from walk(0, (0, 0, 0), unseen)

    def _share(self, base: tuple[int, int, int], left: int, cells: Sequence[SeatSuit], rest: list[int]) -> None:
        if any(cells[p].forced & ~left for p in rest):
            return  # a card one of them must hold went to a seat with explicit holdings
        if not rest:
            if not left:
                self._group(base).add(1, (base, None))
            return
        if len(rest) == 1:
            (p,) = rest
            h = left
            if cells[p].admits(h):
                nb = list(base)
                nb[p] = h
                self._group((nb[0], nb[1], nb[2])).add(1, ((nb[0], nb[1], nb[2]), None))
            return
        if len(rest) == 2:
            p, q = rest
            cp, cq = cells[p], cells[q]
            if left & ~(cp.allowed | cq.allowed):
                return
            fp = (left & ~cq.allowed) | (left & cp.forced)
            fq = (left & ~cp.allowed) | (left & cq.forced)
            if fp & fq:
                return
            free = left & ~fp & ~fq
            k = free.bit_count()
            for n in range(k + 1):
                lp, lq = fp.bit_count() + n, fq.bit_count() + k - n
                if cp.lengths >> lp & 1 and cq.lengths >> lq & 1:
                    lens = [0, 0, 0]
                    lens[p], lens[q] = lp, lq
                    for i in range(3):
                        if i not in rest:
                            lens[i] = base[i].bit_count()
                    self._groups_at(tuple(lens)).add(comb(k, n), (base, _Pair(base, p, q, fp, fq, free, n)))
            return
        cards = _bits(left)
        options = []
        for r in cards:
            opts = tuple(i for i in range(3) if cells[i].allowed >> r & 1)
            forced = tuple(i for i in opts if cells[i].forced >> r & 1)
            options.append(forced if forced else opts)
            if not options[-1] or len(forced) > 1:
                return
        three = _Three(cards, options)
        n_left = len(cards)
        for (a, b), n in three.totals().items():
            c = n_left - a - b
            if cells[0].lengths >> a & 1 and cells[1].lengths >> b & 1 and cells[2].lengths >> c & 1:
                self._groups_at((a, b, c)).add(n, (base, (three, a, b)))

    def _group(self, masks: tuple[int, int, int]) -> _Group:
        return self._groups_at(tuple(m.bit_count() for m in masks))

    def _groups_at(self, lens: tuple) -> _Group:
        g = self.groups.get(lens)  # type: ignore[arg-type]
        if g is None:
            g = self.groups[lens] = _Group()  # type: ignore[index]
        return g

    @staticmethod
    def draw(group: _Group, rng: random.Random) -> tuple[int, int, int]:
        pick = rng.randrange(group.count)
        for w, part in group.parts:
            if pick < w:
                break
            pick -= w
        base, share = part  # type: ignore[misc]
        if share is None:
            return base
        if isinstance(share, _Pair):
            return share.draw(rng)
        three, a, b = share
        got = three.draw(rng, a, b)
        return base[0] | got[0], base[1] | got[1], base[2] | got[2]

    @staticmethod
    def every(group: _Group) -> Iterator[tuple[int, int, int]]:
        for _, (base, share) in group.parts:  # type: ignore[misc]
            if share is None:
                yield base
            elif isinstance(share, _Pair):
                yield from share.every()
            else:
                three, a, b = share
                for got in three.every(a, b):
                    yield base[0] | got[0], base[1] | got[1], base[2] | got[2]


class DealSpace:
    """Every deal of the unseen cards that keeps ``knowledge``.

    :raises NoDeal: if there is none.
    """

    def __init__(self, knowledge: Knowledge) -> None:
        self.k = knowledge
        others = knowledge.others
        self.suits = [SuitSpace(knowledge.unseen[S], [knowledge.cells[(o, S)] for o in others]) for S in range(4)]
        # reach[S][(a, b)]: weighted ways for suits S.. to give seats 0 and 1 (of the
        # others) a and b more cards, the third taking the rest
        need = knowledge.size
        reach: list[dict[tuple[int, int], int]] = [dict() for _ in range(5)]
        reach[4][(0, 0)] = 1
        for S in range(3, -1, -1):
            here = reach[S]
            for (a, b, _c), g in self.suits[S].groups.items():
                for (x, y), n in reach[S + 1].items():
                    key = (a + x, b + y)
                    if key[0] <= need and key[1] <= need:
                        here[key] = here.get(key, 0) + g.count * n
        self.reach = reach
        total_unseen = sum(m.bit_count() for m in knowledge.unseen)
        if total_unseen != 3 * need:
            raise NoDeal("the unseen cards do not make three full hands")
        #: how many deals keep every constraint
        self.total = reach[0].get((need, need), 0)
        if not self.total:
            raise NoDeal("no deal of the unseen cards keeps every constraint")

    def _triples(self, rng: random.Random) -> list[tuple[int, int, int]]:
        a = b = self.k.size
        out = []
        for S in range(4):
            opts = []
            for lens, g in self.suits[S].groups.items():
                w = g.count * self.reach[S + 1].get((a - lens[0], b - lens[1]), 0)
                if w:
                    opts.append((w, lens))
            pick = rng.randrange(sum(w for w, _ in opts))
            for w, lens in opts:
                if pick < w:
                    break
                pick -= w
            out.append(lens)
            a -= lens[0]
            b -= lens[1]
        return out

    def draw(self, rng: random.Random) -> dict[Seat, frozenset[Card]]:
        """One deal, every consistent deal equally likely: the dealt hands of all four seats."""
        masks = [(0, 0, 0)] * 4
        for S, lens in enumerate(self._triples(rng)):
            masks[S] = SuitSpace.draw(self.suits[S].groups[lens], rng)
        return self._hands(masks)

    def deals(self) -> Iterator[dict[Seat, frozenset[Card]]]:
        """Every consistent deal once (use when :attr:`total` is small)."""
        def walk(S: int, a: int, b: int, masks: list):
            if S == 4:
                if a == b == 0:
                    yield self._hands(masks)
                return
            for lens, g in self.suits[S].groups.items():
                if self.reach[S + 1].get((a - lens[0], b - lens[1])):
                    for m in SuitSpace.every(g):
                        yield from walk(S + 1, a - lens[0], b - lens[1], masks + [m])
        yield from walk(0, self.k.size, self.k.size, [])

    def _hands(self, masks: Sequence[tuple[int, int, int]]) -> dict[Seat, frozenset[Card]]:
        out: dict[Seat, frozenset[Card]] = {}
        for i, o in enumerate(self.k.others):
            out[SEATS[o]] = frozenset(Card(Suit(S), r + 2) for S in range(4) for r in _bits(masks[S][i]))
        out[SEATS[self.k.viewer]] = frozenset(Card(Suit(c // 13), c % 13 + 2) for c in self.k.own)
        return out


__all__ = ["DealSpace", "Knowledge", "NoDeal", "SeatSuit", "SuitSpace"]
