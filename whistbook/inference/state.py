"""What one seat knows of the unseen cards: a small constraint store.

The store reasons about the *original* deal (the hands as dealt), because
every fact the play gives is timeless in those terms: a player who showed
out of a suit held exactly the cards of it he had played before; a fourth-best
lead said how many cards above it the leader held when he led.

Three kinds of constraint live here and are propagated to a fixpoint:

* ``poss[c]``: the seats that may have been dealt card ``c`` (a 4-bit mask);
  a played card or one of the viewer's own is fixed to its holder.
* ``dom[(seat, suit)]``: when a convention has spoken about a seat's holding
  of a suit, the explicit set of holdings (13-bit rank masks) still allowed.
  Conventions are predicates that filter this set.
* counts: each other seat was dealt ``size`` cards, and each suit's cards not
  in the viewer's hand are shared among the three other seats. Which lengths
  are still possible for every seat and suit is worked out by a dynamic
  programme over the four suits (bit-parallel, so it is cheap).

Every removal carries a *support*: a bit mask of the tricks it rests on (bit
0 stands for the deal itself, e.g. the turned-up card). Supports are unions,
so they over-approximate what an inference needs, never under-approximate.

Propagation is sound: it only removes a possibility when every layout that
keeps all constraints lacks it (tests compare it with exact enumeration).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Callable, Iterable

SUIT_RANGE = range(4)


class Contradiction(Exception):
    """The constraints admit no layout of the unseen cards."""


class Frame:
    """What does not change during one explanation: the viewer, the seats he
    cannot see, the hand size and the cards of each suit in play."""

    __slots__ = ("viewer", "others", "size", "col", "universe", "vmask")

    def __init__(self, viewer: int, own: Iterable[int], universe: Iterable[int], size: int) -> None:
        self.viewer = viewer
        self.others = tuple(s for s in range(4) if s != viewer)
        self.size = size
        self.universe = frozenset(universe)
        own = set(own)
        self.vmask = [0, 0, 0, 0]
        for c in own:
            self.vmask[c // 13] |= 1 << (c % 13)
        self.col = [sum(1 for c in self.universe if c // 13 == s and c not in own) for s in SUIT_RANGE]


def _lenmask(lo: int, hi: int) -> int:
    if hi < lo:
        return 0
    return ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)


def _lens_of(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= 1 << m.bit_count()
    return out


class KState:
    """One layer of knowledge (certain, presumed or probable)."""

    __slots__ = ("f", "poss", "rsup", "dom", "dsup", "dsig", "lens", "lsup", "dirty", "ldirty", "am", "fm", "csup")

    def __init__(self, frame: Frame, own: Iterable[int]) -> None:
        self.f = frame
        full = sum(1 << s for s in frame.others)
        self.poss = [0] * 52
        for c in frame.universe:
            self.poss[c] = full
        for c in own:
            self.poss[c] = 1 << frame.viewer
        self.rsup = [0] * 208  # support of "seat s was not dealt card c", index c*4+s
        # kept in step with poss: per seat*4+suit, the ranks the seat may hold
        # (am), must hold (fm), and the support of the ranks it may not (csup)
        self.am = [0] * 16
        self.fm = [0] * 16
        self.csup = [0] * 16
        for c in frame.universe:
            if c not in own:
                for o in frame.others:
                    self.am[o * 4 + c // 13] |= 1 << (c % 13)
        self.dom: dict[tuple[int, int], tuple[int, ...]] = {}
        self.dsup: dict[tuple[int, int], int] = {}
        self.dsig: dict[tuple[int, int], tuple[int, int, int]] = {}  # what a domain was last checked against
        # possible dealt lengths per (seat, suit) as bit sets over 0..13
        self.lens = [[_lenmask(0, min(frame.size, frame.col[S])) for S in SUIT_RANGE] for _ in range(4)]
        self.lsup = [[0] * 4 for _ in range(4)]
        self.dirty = 15  # suits whose cells need looking at again
        self.ldirty = True  # lengths changed since the last count

    def copy(self) -> "KState":
        k = KState.__new__(KState)
        k.f = self.f
        k.poss = self.poss[:]
        k.rsup = self.rsup[:]
        k.dom = dict(self.dom)
        k.dsup = dict(self.dsup)
        k.dsig = dict(self.dsig)
        k.lens = [row[:] for row in self.lens]
        k.lsup = [row[:] for row in self.lsup]
        k.dirty = self.dirty
        k.ldirty = self.ldirty
        k.am = self.am[:]
        k.fm = self.fm[:]
        k.csup = self.csup[:]
        return k

    # ------------------------------------------------------------ basic edits

    def remove(self, c: int, s: int, sup: int) -> bool:
        """Seat ``s`` was not dealt ``c``. Returns True if that is news."""
        p = self.poss[c]
        b = 1 << s
        if not p & b:
            return False
        p &= ~b
        if not p:
            raise Contradiction(f"no seat can hold card {c}")
        self.poss[c] = p
        self.rsup[c * 4 + s] = sup
        S, bit_ = c // 13, 1 << (c % 13)
        self.am[s * 4 + S] &= ~bit_
        self.csup[s * 4 + S] |= sup
        if not p & (p - 1):
            self.fm[(p.bit_length() - 1) * 4 + S] |= bit_
        self.dirty |= 1 << S
        return True

    def fix(self, c: int, s: int, sup: int) -> bool:
        """Seat ``s`` was dealt ``c``."""
        p = self.poss[c]
        if not p >> s & 1:
            raise Contradiction(f"seat {s} cannot hold card {c}")
        if p == 1 << s:
            return False
        S, bit_ = c // 13, 1 << (c % 13)
        for o in range(4):
            if o != s and p >> o & 1:
                self.rsup[c * 4 + o] = sup
                self.am[o * 4 + S] &= ~bit_
                self.csup[o * 4 + S] |= sup
        self.poss[c] = 1 << s
        self.fm[s * 4 + S] |= bit_
        self.dirty |= 1 << S
        return True

    def allowed(self, s: int, S: int) -> int:
        """Ranks of ``S`` that ``s`` may have been dealt (other seats only)."""
        return self.am[s * 4 + S]

    def forced(self, s: int, S: int) -> int:
        """Ranks of ``S`` that ``s`` was certainly dealt (other seats only)."""
        return self.fm[s * 4 + S]

    def support_of_cell(self, s: int, S: int) -> int:
        """What the possible holdings of ``s`` in ``S`` rest on."""
        return self._card_support(s, S) | self.dsup.get((s, S), 0) | self.lsup[s][S]

    def _card_support(self, s: int, S: int) -> int:
        return self.csup[s * 4 + S]

    def support_of_card(self, c: int, holder: int | None = None) -> int:
        """Support for where ``c`` may be: the removals of the other seats."""
        sup = 0
        for s in range(4):
            if s != holder:
                sup |= self.rsup[c * 4 + s]
        return sup

    # ------------------------------------------------------------ conventions

    def domain(self, s: int, S: int) -> tuple[int, ...]:
        """The explicit holdings of ``s`` in ``S``, built on first use."""
        d = self.dom.get((s, S))
        if d is not None:
            return d
        allowed, forced = self.allowed(s, S), self.forced(s, S)
        free = allowed & ~forced
        fb = [i for i in range(13) if free >> i & 1]
        lm = self.lens[s][S]
        base_n = forced.bit_count()
        out = []
        for k in range(len(fb) + 1):
            if not lm >> (base_n + k) & 1:
                continue
            for combo in combinations(fb, k):
                m = forced
                for i in combo:
                    m |= 1 << i
                out.append(m)
        d = tuple(out)
        self.dom[(s, S)] = d
        self.dsup[(s, S)] = self._card_support(s, S)
        return d

    def restrict(self, s: int, S: int, pred: Callable[[int], bool], sup: int,
                 memo: dict[int, bool] | None = None) -> bool:
        """Keep the holdings of ``s`` in ``S`` (dealt holdings, as rank masks)
        that satisfy ``pred`` (its answers are kept in ``memo`` if given, so a
        presumption applied to several layers asks once per holding). Returns
        True if anything was removed."""
        d = self.domain(s, S)
        if memo is None:
            new = tuple(m for m in d if pred(m))
        else:
            out = []
            get = memo.get
            for m in d:
                r = get(m)
                if r is None:
                    r = memo[m] = pred(m)
                if r:
                    out.append(m)
            new = tuple(out)
        if len(new) == len(d):
            return False
        if not new:
            raise Contradiction(f"no holding of seat {s} in suit {S} fits")
        self.dom[(s, S)] = new
        self.dsup[(s, S)] = self.dsup.get((s, S), 0) | sup
        self.dsig.pop((s, S), None)
        self.dirty |= 1 << S
        return True

    # ------------------------------------------------------------ propagation

    def propagate(self) -> None:
        """Run every constraint to a fixpoint; raises :class:`Contradiction`.
        Only the suits touched since the last fixpoint are looked at again."""
        others = self.f.others
        while self.dirty or self.ldirty:
            while self.dirty:
                d = self.dirty
                S = (d & -d).bit_length() - 1
                self.dirty &= ~(1 << S)
                for s in others:
                    self._cell(s, S)
            if self.ldirty:
                self.ldirty = False
                self._counts()

    def _cell(self, s: int, S: int) -> bool:
        """Bring one seat's holding of one suit into line with the cards and lengths."""
        allowed, forced = self.allowed(s, S), self.forced(s, S)
        lm = self.lens[s][S]
        changed = False
        key = (s, S)
        d = self.dom.get(key)
        sig = (allowed, forced, lm)
        if d is not None and self.dsig.get(key) != sig:
            new = tuple(m for m in d if not m & ~allowed and m & forced == forced)
            if len(new) != len(d):
                self.dsup[key] = self.dsup.get(key, 0) | self._card_support(s, S)
            n1 = len(new)
            new = tuple(m for m in new if lm >> m.bit_count() & 1)
            if len(new) != n1:
                self.dsup[key] = self.dsup.get(key, 0) | self.lsup[s][S]
            if not new:
                raise Contradiction(f"holdings of seat {s} in suit {S} exhausted")
            if len(new) != len(d):
                self.dom[key] = new
                d = new
            union = 0
            inter = -1
            for m in d:
                union |= m
                inter &= m
            sup = self.dsup[key]
            base = S * 13
            gone_bits = allowed & ~union
            for i in range(13):
                if gone_bits >> i & 1:
                    changed |= self.remove(base + i, s, sup)
            new_bits = inter & ~forced
            for i in range(13):
                if new_bits >> i & 1:
                    changed |= self.fix(base + i, s, sup)
            if changed:
                allowed, forced = self.allowed(s, S), self.forced(s, S)
            dl = _lens_of(d)
            if dl & lm != lm:
                lm &= dl
                self.lens[s][S] = lm
                self.lsup[s][S] |= sup
                self.ldirty = True
                changed = True
            if not changed:
                self.dsig[key] = sig
        rng = _lenmask(forced.bit_count(), allowed.bit_count())
        if lm & rng != lm:
            lm &= rng
            if not lm:
                raise Contradiction(f"no length possible for seat {s} in suit {S}")
            self.lens[s][S] = lm
            self.lsup[s][S] |= self.support_of_cell(s, S)
            self.ldirty = True
            changed = True
        # lengths that pin the cards: all allowed cards, or only the forced ones
        lo = (lm & -lm).bit_length() - 1
        hi = lm.bit_length() - 1
        na, nf = allowed.bit_count(), forced.bit_count()
        if lo == na and na != nf:
            sup = self.support_of_cell(s, S)
            base = S * 13
            for i in range(13):
                if allowed >> i & 1 and not forced >> i & 1:
                    changed |= self.fix(base + i, s, sup)
        elif hi == nf and na != nf:
            sup = self.support_of_cell(s, S)
            base = S * 13
            for i in range(13):
                if allowed >> i & 1 and not forced >> i & 1:
                    changed |= self.remove(base + i, s, sup)
        return changed

    def _counts(self) -> bool:
        """The dynamic programme: each other seat holds ``size`` cards and each
        suit's cards are shared among them. Keeps the lengths some complete
        layout of lengths supports."""
        f = self.f
        o = f.others
        lens = self.lens
        key = tuple(lens[s][S] for S in SUIT_RANGE for s in o)
        keep = _shared_lengths(f.size, tuple(f.col), key)
        if keep is None:
            raise Contradiction("the hand sizes and suit lengths cannot be met")
        changed = False
        k = 0
        for S in SUIT_RANGE:
            for s in o:
                if keep[k] != lens[s][S]:
                    lens[s][S] = keep[k]
                    self.lsup[s][S] |= self._row_col_support(s, S)
                    self.dirty |= 1 << S
                    changed = True
                k += 1
        return changed

    def _row_col_support(self, s: int, S: int) -> int:
        """Support for a length the count changed: the constraints on the other
        suits of the same seat and on the other seats' lengths of the suit."""
        sup = 0
        for T in SUIT_RANGE:
            if T != S:
                sup |= self._card_support(s, T) | self.dsup.get((s, T), 0)
        for o in self.f.others:
            if o != s:
                sup |= self._card_support(o, S) | self.dsup.get((o, S), 0)
        return sup

    # ------------------------------------------------------------ queries

    def holders(self, c: int) -> int:
        return self.poss[c]

    def length_range(self, s: int, S: int) -> tuple[int, int]:
        lm = self.lens[s][S]
        return (lm & -lm).bit_length() - 1, lm.bit_length() - 1


@lru_cache(maxsize=1 << 16)
def _shared_lengths(N: int, cols: tuple[int, ...], lens: tuple[int, ...]) -> tuple[int, ...] | None:
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
        for a in _bits_of(l0m):
            for b in _bits_of(l1m):
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
def _bits_of(m: int) -> tuple[int, ...]:
    return tuple(_iter_bits(m))


def _iter_bits(m: int):
    while m:
        b = m & -m
        yield b.bit_length() - 1
        m ^= b
