"""The holdings of one seat in one suit that the conventions have left,
as integers: :class:`Holdings` lists a domain's holdings once and a domain
is a bit set over their positions; :class:`Answers` keeps a predicate's
answers over them (used by :class:`~.state.KState`)."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, compress
from typing import Callable, Iterable

SUIT_RANGE = range(4)
NL = 14  # lengths 0..13: one support per length per (seat, suit)
ALL_LENGTHS = (1 << NL) - 1


def _lens_of(masks: Iterable[int]) -> int:
    out = 0
    for n in set(map(int.bit_count, masks)):
        out |= 1 << n
    return out


class Holdings:
    """The holdings a domain was built with, in a fixed order, so that a
    domain is one int: bit ``k`` set while the ``k``-th holding is allowed.
    For each rank and each length it keeps the positions of the holdings
    that have it, so that filtering a domain, summing it up and finding the
    holdings struck off for a card or a length are integer operations, not
    loops over the holdings. Made once per (free cards, forced cards,
    lengths) for the whole run (see :func:`holdings_for`)."""

    __slots__ = ("masks", "full", "bits", "forced", "free", "lens", "has", "lacks", "of_len")

    def __init__(self, masks: tuple[int, ...], free: int, forced: int) -> None:
        self.masks = masks
        self.full = full = (1 << len(masks)) - 1
        self.bits = tuple(map((1).__lshift__, range(len(masks))))  # the position k as a bit set
        self.forced, self.free = forced, free
        # the binary digits of a position set are written out, highest
        # position first, by translating one byte per holding (in C); the
        # leading "0" stands for no holding
        low8 = b"\0" + bytes(map((255).__and__, reversed(masks)))
        high5 = b"\0" + bytes(map((8).__rrshift__, reversed(masks)))
        #: per rank, the positions of the holdings with it (without it)
        self.has = [full if forced >> i & 1 else
                    int((low8 if i < 8 else high5).translate(_RANK_DIGITS[i & 7]), 2) if free >> i & 1 else 0
                    for i in range(13)]
        self.lacks = [full & ~h for h in self.has]
        #: per length, the positions of the holdings of that length
        sizes = b"\xff" + bytes(map(int.bit_count, reversed(masks)))
        self.lens = _lens_of(masks)
        self.of_len = [int(sizes.translate(_LENGTH_DIGITS[n]), 2) if self.lens >> n & 1 else 0 for n in range(NL)]

    def at(self, positions: int) -> Iterable[int]:
        """The holdings at ``positions``, in order (lazily, in C)."""
        return compress(self.masks, _flags(positions))

    def summary(self, d: int, sums: dict) -> tuple[int, int, int]:
        """The cards some holding of domain ``d`` has, those every one has,
        and the lengths they have; kept in ``sums`` (the frame's)."""
        out = sums.get((self, d))
        if out is None:
            has = self.has
            union = inter = self.forced
            for i in bits_of(self.free):
                some = has[i] & d
                if some:
                    union |= 1 << i
                    if some == d:
                        inter |= 1 << i
            of_len, lens = self.of_len, 0
            for n in bits_of(self.lens):
                if of_len[n] & d:
                    lens |= 1 << n
            out = sums[(self, d)] = (union, inter, lens)
        return out

    def within(self, d: int, absent: int, present: int, lengths: int) -> int:
        """The holdings of domain ``d`` with none of the ranks ``absent``,
        all of ``present`` and none of the ``lengths``."""
        for i in bits_of(absent):
            d &= self.lacks[i]
        for i in bits_of(present):
            d &= self.has[i]
        for n in bits_of(lengths):
            d &= ~self.of_len[n]
        return d


class Answers:
    """A presumption's answers, kept across the layers and rebuilds it is
    applied to: per set of holdings met, the positions asked and those that
    fit. (A holding met again in another set is asked again: keeping the
    answers per holding as well cost more than the few questions it saved.)"""

    __slots__ = ("on",)

    def __init__(self) -> None:
        self.on: dict[Holdings, tuple[int, int]] = {}

    def fitting(self, built: Holdings, d: int, pred: Callable[[int], bool]) -> int:
        """The positions of ``built`` whose holdings satisfy ``pred``, at least
        among domain ``d``: each holding of a set is asked once."""
        asked, fit = self.on.get(built, (0, 0))
        new = d & ~asked
        if new:
            # map and compress loop in C: this runs for every presumption on every layer
            flags = _flags(new)
            verdicts = map(pred, compress(built.masks, flags))
            fit |= sum(compress(compress(built.bits, flags), verdicts))
            self.on[built] = (asked | new, fit)
        return fit


def _flags(positions: int) -> bytes:
    """One byte per position, 1 where ``positions`` has the bit, lowest first
    (for ``compress``)."""
    return format(positions, "b")[::-1].encode().translate(_TO_FLAGS)


def first_position(batch: tuple[int, int]) -> int:
    """Sort key for (support, positions): where the batch's first holding is."""
    return batch[1] & -batch[1]


_TO_FLAGS = bytes.maketrans(b"01", b"\x00\x01")
#: per bit of a byte, and per length: the binary digit each byte stands for
_RANK_DIGITS = [bytes(48 + (b >> i & 1) for b in range(256)) for i in range(8)]
_LENGTH_DIGITS = [bytes(48 + (b == n) for b in range(256)) for n in range(NL)]


def fewer(a: int, b: int | None) -> int:
    """Of two supports, the one resting on fewer tricks (bit 0, the deal, is free)."""
    if b is None or (a >> 1).bit_count() <= (b >> 1).bit_count():
        return a
    return b


def sums(masks) -> int:
    """The totals some choice of one length from each of ``masks`` reaches."""
    acc = 1
    for m in masks:
        nxt = 0
        for a in bits_of(m):
            nxt |= acc << a
        acc = nxt
    return acc


@lru_cache(maxsize=1 << 14)
def holdings_for(free: int, forced: int, lm: int) -> Holdings:
    """Every holding made of ``forced`` and some of ``free`` whose length is in ``lm``."""
    cards = [1 << i for i in range(13) if free >> i & 1]
    base_n = forced.bit_count()
    out: list[int] = []
    for k in range(len(cards) + 1):
        if lm >> (base_n + k) & 1:  # the k-card choices of the free cards, in order (in C)
            out.extend(map(forced.__or__, map(sum, combinations(cards, k))))
    return Holdings(tuple(out), free, forced)


@lru_cache(maxsize=1 << 16)
def shared_lengths(N: int, cols: tuple[int, ...], lens: tuple[int, ...]) -> tuple[int, ...] | None:
    """For three seats of ``N`` cards sharing suits of ``cols`` cards, and the
    possible lengths ``lens`` (bit sets, suit by suit, seat by seat), the
    lengths that some complete sharing supports; ``None`` if there is none.

    Forward and backward reachability over (cards of seat 0, cards of seat 1)
    after each suit, as bit sets: bit ``32 * r0 + r1``."""
    W = 32
    valid = _valid_mask(N)
    triples: list[list[tuple[int, int, int, int]]] = []
    for S in range(4):
        col = cols[S]
        l0m, l1m, l2m = lens[3 * S], lens[3 * S + 1], lens[3 * S + 2]
        ts = []
        for a in bits_of(l0m):
            for b in bits_of(l1m):
                c = col - a - b
                if c >= 0 and l2m >> c & 1:
                    ts.append((a, b, c, a * W + b))
        if not ts:
            return None
        triples.append(ts)
    fwd = [1]
    for S in range(4):
        cur = fwd[-1]
        nxt = 0
        for t in triples[S]:
            nxt |= cur << t[3]
        fwd.append(nxt & valid)
    target = 1 << (N * W + N)
    if not fwd[4] & target:
        return None
    bwd = [0] * 5
    bwd[4] = target
    for S in (3, 2, 1, 0):
        cur = bwd[S + 1]
        prv = 0
        for t in triples[S]:
            prv |= cur >> t[3]
        bwd[S] = prv & valid
    out = []
    for S in range(4):
        k0 = k1 = k2 = 0
        fs = fwd[S]
        bs = bwd[S + 1]
        for a, b, c, sh in triples[S]:
            if (fs << sh) & bs:
                k0 |= 1 << a
                k1 |= 1 << b
                k2 |= 1 << c
        out += (k0, k1, k2)
    return tuple(out)


@lru_cache(maxsize=None)
def _valid_mask(N: int) -> int:
    valid = 0
    for r0 in range(N + 1):
        valid |= ((1 << (N + 1)) - 1) << (r0 * 32)
    return valid


@lru_cache(maxsize=None)
def bits_of(m: int) -> tuple[int, ...]:
    return tuple(_iter_bits(m))


def _iter_bits(m: int):
    while m:
        b = m & -m
        yield b.bit_length() - 1
        m ^= b
