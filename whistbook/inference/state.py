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
  Conventions are predicates that filter this set. The holdings a domain
  is built with are listed once (:class:`Holdings`), and the domain is a bit
  set over their positions, so that filtering, intersecting and asking
  which cards or lengths remain are operations on a few integers.
* counts: each other seat was dealt ``size`` cards, and each suit's cards not
  in the viewer's hand are shared among the three other seats. Which lengths
  are still possible for every seat and suit is worked out by a dynamic
  programme over the four suits (bit-parallel, so it is cheap).

**Supports.** Every elementary conclusion the store holds carries a
*support*: a bit mask of the tricks it was derived from (bit 0 stands for
the deal itself: the viewer's hand, the hand sizes, the turned-up card).
The elementary conclusions are "seat s was not dealt card c" (``rsup``),
"seat s was not dealt n cards of suit S" (``lsup``, one per length) and "seat
s's holding of S is not m" (the domain's log). Each propagation step gives
the conclusion it draws the union of the supports of the premises *that
step used* (for a holding ruled out by a card, that card; for a length ruled
out by counting, the bounds of the row or column that ruled it out), not of
everything known about the seat or suit. Supports are kept from the first
derivation found, with two preferences for shorter chains: a holding struck
off by a card or a length is credited to a presumption it also fails if that
rests on fewer new tricks, and a bound on a length (a show-out, the cards a
seat may or must hold) becomes the support of the lengths it rules out when
their older supports name tricks it does not. So a support is a set of
tricks from which the conclusion follows (sufficient: the tests rebuild the
store from those tricks alone and find the conclusion again), and it is the
chain the derivation actually used. It is not always minimal (no trick can
be dropped): the first derivation need not be the cheapest, and the holdings
left out when a domain is built rest on every card (and, for a large
domain, every length) known of the seat and suit at that moment.

Propagation is sound: it only removes a possibility when every layout that
keeps all constraints lacks it (tests compare it with exact enumeration).
"""

from __future__ import annotations

from typing import Callable, Iterable

from .holdings import ALL_LENGTHS, NL, SUIT_RANGE, Answers, Holdings, bits_of, first_position, holdings_for, shared_lengths
from .supports import CountWhy, Supports

#: a domain over at most this many free cards is built with every length, so
#: the presumptions filter holdings the known lengths would also rule out and
#: get the credit for them (a shorter chain); a larger one (up to 2**13
#: holdings) is built with the known lengths only, which is much cheaper
WIDE_DOMAIN = 8


class Contradiction(Exception):
    """The constraints admit no layout of the unseen cards."""


class Frame:
    """What does not change during one explanation: the viewer, the seats he
    cannot see, the hand size and the cards of each suit in play. It also
    keeps the summaries of the domains met, so a layer rebuilt from the
    certain one repeats no work."""

    __slots__ = ("viewer", "others", "size", "col", "universe", "vmask", "umask", "sums")

    def __init__(self, viewer: int, own: Iterable[int], universe: Iterable[int], size: int) -> None:
        self.viewer = viewer
        self.others = tuple(s for s in range(4) if s != viewer)
        self.size = size
        self.universe = frozenset(universe)
        own = set(own)
        self.vmask = [0, 0, 0, 0]
        for c in own:
            self.vmask[c // 13] |= 1 << (c % 13)
        #: per suit, the ranks in play that the viewer does not hold
        self.umask = [0, 0, 0, 0]
        for c in self.universe:
            if c not in own:
                self.umask[c // 13] |= 1 << (c % 13)
        self.col = tuple(m.bit_count() for m in self.umask)  # a tuple: a key of shared_lengths' cache
        self.sums: dict = {}  # (holdings, domain) -> its summary, see Holdings.summary


def _lenmask(lo: int, hi: int) -> int:
    if hi < lo:
        return 0
    return ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)


class KState(Supports):
    """One layer of knowledge (certain, presumed or probable)."""

    __slots__ = ("f", "poss", "rsup", "uni", "dom", "dlog", "dbase", "dsig", "lens", "lsup", "dirty", "ldirty",
                 "am", "fm")

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
        # (am) and must hold (fm)
        self.am = [0] * 16
        self.fm = [0] * 16
        for o in frame.others:
            for S in SUIT_RANGE:
                self.am[o * 4 + S] = frame.umask[S]
        #: per (seat, suit) with a domain, the holdings it was built with, and
        #: the domain itself: the positions among them still allowed (a bit set)
        self.uni: dict[tuple[int, int], Holdings] = {}
        self.dom: dict[tuple[int, int], int] = {}
        #: per domain, the holdings ruled out since it was built, each batch
        #: (positions) with its support and, for a presumption's batch, the
        #: presumption (its predicate and answers): a tuple of (positions, support, pred, memo)
        self.dlog: dict[tuple[int, int], tuple[tuple, ...]] = {}
        #: per domain, the support of what ruled out the holdings left out when it was built
        self.dbase: dict[tuple[int, int], int] = {}
        self.dsig: dict[tuple[int, int], tuple[int, int, int]] = {}  # what a domain was last checked against
        # possible dealt lengths per (seat, suit) as bit sets over 0..13
        self.lens = [[_lenmask(0, min(frame.size, frame.col[S])) for S in SUIT_RANGE] for _ in range(4)]
        self.lsup = [0] * (16 * NL)  # support of "seat s was not dealt n of suit S", index (s*4+S)*14+n
        self.dirty = 15  # suits whose cells need looking at again
        self.ldirty = True  # lengths changed since the last count

    def copy(self) -> "KState":
        k = KState.__new__(KState)
        k.f = self.f
        k.poss = self.poss[:]
        k.rsup = self.rsup[:]
        k.uni = self.uni.copy()
        k.dom = self.dom.copy()
        k.dlog = self.dlog.copy()
        k.dbase = self.dbase.copy()
        k.dsig = self.dsig.copy()
        k.lens = list(map(list.copy, self.lens))
        k.lsup = self.lsup[:]
        k.dirty = self.dirty
        k.ldirty = self.ldirty
        k.am = self.am[:]
        k.fm = self.fm[:]
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
        self.poss[c] = 1 << s
        self.fm[s * 4 + S] |= bit_
        self.dirty |= 1 << S
        return True

    def show_out(self, s: int, S: int, kept: int, sup: int) -> None:
        """Seat ``s`` did not follow to ``S``: he was dealt no card of it but
        the ranks in ``kept`` (those he had played). One fact: the lengths it
        rules out rest on that trick alone, not on where the other cards are."""
        base = S * 13
        for i in range(13):
            if not kept >> i & 1 and self.poss[base + i] >> s & 1:
                self.remove(base + i, s, sup)
        if s != self.f.viewer:
            self._bound(s, S, _lenmask(0, kept.bit_count()), sup)

    def _cut_lengths(self, s: int, S: int, gone: int, sup: int) -> None:
        """Rule out the lengths in ``gone`` for ``s`` in ``S``, resting on ``sup``."""
        lm = self.lens[s][S]
        gone &= lm
        if not gone:
            return
        if lm == gone:
            raise Contradiction(f"no length possible for seat {s} in suit {S}")
        self.lens[s][S] = lm & ~gone
        k = (s * 4 + S) * NL
        while gone:
            b = gone & -gone
            gone ^= b
            self.lsup[k + b.bit_length() - 1] = sup
        self.ldirty = True

    def _bound(self, s: int, S: int, keep: int, sup: int) -> None:
        """A bound on the length (the lengths in ``keep`` are the only ones it
        allows), resting on ``sup``: rule out the others, and let it be the
        support of lengths it rules out that were ruled out before on more
        tricks, so that the bound reads as the one fact it is."""
        self._cut_lengths(s, S, ~keep, sup)
        k = (s * 4 + S) * NL
        gone = ALL_LENGTHS & ~keep
        ls = self.lsup
        while gone:
            b = gone & -gone
            gone ^= b
            j = k + b.bit_length() - 1
            if ls[j] & ~sup & ~1:  # rests on a trick the bound does not
                ls[j] = sup

    def allowed(self, s: int, S: int) -> int:
        """Ranks of ``S`` that ``s`` may have been dealt (other seats only)."""
        return self.am[s * 4 + S]

    def forced(self, s: int, S: int) -> int:
        """Ranks of ``S`` that ``s`` was certainly dealt (other seats only)."""
        return self.fm[s * 4 + S]

    # ------------------------------------------------------------ supports

    def explicit_holdings(self, s: int, S: int) -> tuple[int, ...] | None:
        """The holdings of ``s`` in ``S`` a convention still allows, when one has
        spoken about them (None otherwise); unlike :meth:`domain` it builds nothing."""
        built = self.uni.get((s, S))
        return None if built is None else tuple(built.at(self.dom[(s, S)]))

    def domain(self, s: int, S: int) -> tuple[int, ...]:
        """The explicit holdings of ``s`` in ``S`` still allowed, built on first use."""
        built, d = self._domain(s, S)
        return tuple(built.at(d))

    def _domain(self, s: int, S: int) -> tuple[Holdings, int]:
        """The holdings the domain of ``s`` in ``S`` was built with, and the
        positions among them still allowed; built on first use."""
        key = (s, S)
        built = self.uni.get(key)
        if built is not None:
            return built, self.dom[key]
        # what the holdings left out rest on: the cards he may not and must
        # hold, and (unless every length is in, see WIDE_DOMAIN) the lengths ruled out
        base = self._absent_support(s, S) | self._forced_support(s, S)
        built = self._new_domain(s, S)
        if not self._every_length(s, S):
            base |= self.length_support(s, S, NL, -1)
        self.uni[key] = built
        self.dom[key] = built.full
        self.dbase[key] = base
        return built, built.full

    def _new_domain(self, s: int, S: int) -> Holdings:
        """The holdings a domain of ``s`` in ``S`` built now would have."""
        allowed, forced = self.am[s * 4 + S], self.fm[s * 4 + S]
        return holdings_for(allowed & ~forced, forced, ALL_LENGTHS if self._every_length(s, S) else self.lens[s][S])

    def _every_length(self, s: int, S: int) -> bool:
        """Whether a domain of ``s`` in ``S`` built now holds every length (few
        cards are open, see WIDE_DOMAIN), not only the lengths still allowed."""
        return (self.am[s * 4 + S] & ~self.fm[s * 4 + S]).bit_count() <= WIDE_DOMAIN

    def strikes_off(self, s: int, S: int, pred: Callable[[int], bool], memo: Answers) -> bool:
        """Whether :meth:`restrict` would strike off a holding (the store is
        left as it is; the answers are kept for ``restrict`` to find)."""
        key = (s, S)
        built = self.uni.get(key)
        if built is None:
            built = self._new_domain(s, S)
            d = built.full
        else:
            d = self.dom[key]
        return bool(d & ~memo.fitting(built, d, pred))

    def restrict(self, s: int, S: int, pred: Callable[[int], bool], sup: int,
                 memo: Answers | None = None) -> bool:
        """Keep the holdings of ``s`` in ``S`` (dealt holdings, as rank masks)
        that satisfy ``pred`` (its answers are kept in ``memo`` if given, so a
        presumption applied to several layers asks once per holding of a set). The
        holdings ruled out rest on ``sup``. Returns True if anything was removed."""
        built, d = self._domain(s, S)
        if memo is None:
            memo = Answers()
        fit = memo.fitting(built, d, pred)
        gone = d & ~fit
        if not gone:
            return False
        if not d & fit:
            raise Contradiction(f"no holding of seat {s} in suit {S} fits")
        key = (s, S)
        self.dom[key] = d & fit
        self.dlog[key] = self.dlog.get(key, ()) + ((gone, sup, pred, memo),)
        self.dsig.pop(key, None)
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

    def _cell(self, s: int, S: int) -> None:
        """Bring one seat's holding of one suit into line with the cards and lengths."""
        i = s * 4 + S
        allowed, forced = self.am[i], self.fm[i]
        lm = self.lens[s][S]
        key = (s, S)
        if key in self.dom and self.dsig.get(key) != (allowed, forced, lm):
            if self._check_domain(s, S, allowed, forced, lm):
                allowed, forced = self.am[i], self.fm[i]
            lm = self.lens[s][S]
        na, nf = allowed.bit_count(), forced.bit_count()
        if lm >> (na + 1):
            # more cards than he may hold: ruled out by the cards he may not hold
            self._bound(s, S, _lenmask(0, na), self._absent_support(s, S))
            lm = self.lens[s][S]
        if lm & ((1 << nf) - 1):
            # fewer than he must hold: ruled out by the cards he must hold
            self._bound(s, S, _lenmask(nf, NL - 1), self._forced_support(s, S))
            lm = self.lens[s][S]
        # lengths that pin the cards: all allowed cards, or only the forced ones
        if na == nf:
            return
        lo = (lm & -lm).bit_length() - 1
        hi = lm.bit_length() - 1
        if lo == na:  # he holds every card he may: rests on the length and the cards he may not
            place, sup = self.fix, self.length_support(s, S, na, None) | self._absent_support(s, S)
        elif hi == nf:  # he holds no card beyond those he must: the length and the cards he must
            place, sup = self.remove, self.length_support(s, S, None, nf) | self._forced_support(s, S)
        else:
            return
        rest, base = allowed & ~forced, S * 13
        while rest:
            b = rest & -rest
            rest ^= b
            place(base + b.bit_length() - 1, s, sup)

    def _check_domain(self, s: int, S: int, allowed: int, forced: int, lm: int) -> bool:
        """Rule out the holdings the cards and lengths forbid, then draw from
        what is left the cards and lengths every holding agrees on. Returns
        True if cards were placed or struck off."""
        key = (s, S)
        built, d = self.uni[key], self.dom[key]
        union, inter, dl = built.summary(d, self.f.sums)
        if union & ~allowed or inter & forced != forced or dl & ~lm:
            new = built.within(d, union & ~allowed, forced & ~inter, dl & ~lm)
            if not new:
                raise Contradiction(f"holdings of seat {s} in suit {S} exhausted")
            self.dom[key] = new
            # why each went is worked out only if a conclusion needs it (support -1 until then)
            self.dlog[key] = self.dlog.get(key, ()) + ((d & ~new, -1, None, (allowed, forced, lm)),)
            d = new
            union, inter, dl = built.summary(d, self.f.sums)
        base = S * 13
        moved = False
        gone_bits = allowed & ~union
        while gone_bits:
            b = gone_bits & -gone_bits
            gone_bits ^= b
            moved |= self.remove(base + b.bit_length() - 1, s, self._domain_support(key, "has", b))
        new_bits = inter & ~forced
        while new_bits:
            b = new_bits & -new_bits
            new_bits ^= b
            moved |= self.fix(base + b.bit_length() - 1, s, self._domain_support(key, "lacks", b))
        cut = lm & ~dl
        if cut:
            k = (s * 4 + S) * NL
            self.lens[s][S] = lm & ~cut
            self.ldirty = True
            for n, sup in self._lengths_support(key, cut).items():
                self.lsup[k + n] = sup
        elif not moved:
            self.dsig[key] = (allowed, forced, lm)
        return moved

    def _reasons(self, key: tuple[int, int], gone: int, allowed: int, forced: int, lm: int):
        """The holdings ``gone`` (positions) that the cards and lengths rule
        out, in batches by the one fact that rules each out, each batch
        where its first holding was."""
        batches: dict[int, int] = {}  # support -> positions
        for sup, sel in self._faults(key, gone, allowed, forced, lm):
            hit = gone & sel
            if hit:
                batches[sup] = batches.get(sup, 0) | hit
                gone ^= hit
                if not gone:
                    break
        return tuple((ms, sup, None, None) for sup, ms in sorted(batches.items(), key=first_position))

    def _faults(self, key: tuple[int, int], gone: int, allowed: int, forced: int, lm: int):
        """What may rule out holdings of ``gone``, each with its support and
        the positions of the holdings it rules out, in the order that decides
        which one a holding is credited to: a card he may not hold, the
        earliest-supported first, else a card he must hold, likewise, else
        the length."""
        s, S = key
        built, base = self.uni[key], S * 13
        has, lacks = built.has, built.lacks
        yield from sorted((self.rsup[(base + i) * 4 + s], has[i]) for i in bits_of(built.free & ~allowed)
                          if gone & has[i])
        yield from sorted((self.support_of_card(base + i, s), lacks[i]) for i in bits_of(built.free & forced)
                          if gone & lacks[i])
        k = (s * 4 + S) * NL
        for n in bits_of(built.lens & ~lm):
            yield self.lsup[k + n], built.of_len[n]

    def _counts(self) -> None:
        """The dynamic programme: each other seat holds ``size`` cards and each
        suit's cards are shared among them. Keeps the lengths some complete
        layout of lengths supports."""
        f = self.f
        o = f.others
        lens = self.lens
        a, b, c = [lens[s] for s in o]
        key = (a[0], b[0], c[0], a[1], b[1], c[1], a[2], b[2], c[2], a[3], b[3], c[3])
        keep = shared_lengths(f.size, f.col, key)
        if keep is None:
            raise Contradiction("the hand sizes and suit lengths cannot be met")
        if keep == key:  # the usual case: nothing to cut
            return
        old = list(map(list.copy, lens))
        for k, (was, now) in enumerate(zip(key, keep)):
            if was == now:
                continue
            S, s = k // 3, o[k % 3]  # the key runs suit by suit, seat by seat
            cut = was & ~now
            lens[s][S] = now
            self.dirty |= 1 << S
            why = CountWhy(self, old, s, S)
            base = (s * 4 + S) * NL
            for n in bits_of(cut):
                self.lsup[base + n] = why.support(n)

    def holders(self, c: int) -> int:
        return self.poss[c]

    def length_range(self, s: int, S: int) -> tuple[int, int]:
        return length_bounds(self.lens[s][S])


def length_bounds(lm: int) -> tuple[int, int]:
    """The fewest and most cards a length mask allows (bit n set: n cards possible)."""
    return (lm & -lm).bit_length() - 1, lm.bit_length() - 1
