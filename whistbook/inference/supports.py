"""Why the store knows what it knows: the supports (the tricks each
conclusion rests on) of a card's holders, a seat's lengths and its
holdings, read off :class:`~.state.KState`'s logs (mixed into it as
:class:`Supports`), and of the lengths the count rules out (:class:`CountWhy`)."""

from __future__ import annotations

from functools import reduce
from operator import or_

from .holdings import ALL_LENGTHS, NL, SUIT_RANGE, Holdings, bits_of, fewer, sums


class Supports:
    """The supports of what a :class:`~.state.KState` holds (see the module
    :mod:`whistbook.inference.state` on supports)."""

    def support_of_card(self, c: int, holder: int | None = None) -> int:
        """Support for where ``c`` may be: the removals of the other seats
        (with ``holder``, that ``holder`` was dealt it)."""
        sup = 0
        for s in range(4):
            if s != holder:
                sup |= self.rsup[c * 4 + s]
        return sup

    def length_support(self, s: int, S: int, lo: int | None, hi: int | None) -> int:
        """Support for "``s`` was dealt at least ``lo`` and at most ``hi`` cards
        of ``S``" (``None``: no bound): the lengths outside that were ruled out."""
        k = (s * 4 + S) * NL
        ls = self.lsup
        sup = 0
        if lo is not None and lo > 0:
            sup = reduce(or_, ls[k:k + min(lo, NL)], 0)
        if hi is not None:
            sup |= reduce(or_, ls[k + max(hi + 1, 0):k + NL], 0)
        return sup

    def bound_support(self, s: int, S: int, lo: int | None, hi: int | None) -> int:
        """Support for "``s`` was dealt at least ``lo`` and at most ``hi`` cards
        of ``S``": for each bound, the lengths ruled out, or the cards he must
        (may) hold when they are enough to give the bound, whichever rests on
        fewer tricks."""
        sup = 0
        if lo is not None:
            sup |= fewer(self.length_support(s, S, lo, None),
                          self._forced_support(s, S) if self.fm[s * 4 + S].bit_count() >= lo else None)
        if hi is not None:
            sup |= fewer(self.length_support(s, S, None, hi),
                          self._absent_support(s, S) if self.am[s * 4 + S].bit_count() <= hi else None)
        return sup

    def _absent_support(self, s: int, S: int, ranks: int | None = None) -> int:
        """Support for "``s`` was dealt none of ``ranks``" (default: every
        card of ``S`` in play he may not hold)."""
        if ranks is None:
            ranks = self.f.umask[S] & ~self.am[s * 4 + S]
        rs = self.rsup
        k = S * 13 * 4 + s
        sup = 0
        while ranks:
            b = ranks & -ranks
            ranks ^= b
            sup |= rs[k + 4 * (b.bit_length() - 1)]
        return sup

    def _forced_support(self, s: int, S: int) -> int:
        """Support for "``s`` was dealt every card of ``S`` he must hold"."""
        ranks = self.fm[s * 4 + S]
        rs = self.rsup
        sup = 0
        while ranks:
            b = ranks & -ranks
            ranks ^= b
            k = (S * 13 + b.bit_length() - 1) * 4
            for o in range(4):
                if o != s:
                    sup |= rs[k + o]
        return sup

    def _domain_support(self, key: tuple[int, int], what: str, x: int) -> int:
        """Support for "no holding still allowed has the property": holds rank
        bit ``x`` (``what`` "has") or lacks it ("lacks"); for lengths see
        :meth:`_lengths_support`. That is what the domain was built on, and
        for each ruled-out holding with the property, what ruled it out. A holding struck off by a
        card or a length may also fail a presumption made later; if that
        presumption rests on fewer new tricks, it is the one counted (Hand
        III: Z's king of clubs goes by fourth hand's rule at trick 6, not by
        the length that struck off one holding a moment earlier)."""
        sup = self.dbase[key]
        log = self._log(key)
        built = self.uni[key]
        rank = x.bit_length() - 1
        with_it = built.has[rank] if what == "has" else built.lacks[rank]
        for gone, gsup, _, _ in log:
            if not gsup & ~sup:
                continue
            sup = self._batch_support(log, built, gone & with_it, gsup, sup)
        return sup

    def _lengths_support(self, key: tuple[int, int], cut: int) -> dict[int, int]:
        """Per length ``n`` in ``cut``, the support for "no holding still
        allowed has ``n`` cards", worked out as :meth:`_domain_support` does
        for a card, for all the lengths in one walk of the log."""
        sup0 = self.dbase[key]
        log = self._log(key)
        built = self.uni[key]
        out = {n: sup0 for n in bits_of(cut)}
        for gone, gsup, _, _ in log:
            for n, sup in out.items():
                hits = gone & built.of_len[n]
                if not hits or not gsup & ~sup:
                    continue
                out[n] = self._batch_support(log, built, hits, gsup, sup)
        return out

    def _log(self, key: tuple[int, int]) -> tuple[tuple, ...]:
        """The domain's log, with the batches struck off by cards and lengths
        sorted by reason (left until now, as few are ever asked about)."""
        log = self.dlog.get(key, ())
        if any([e[1] < 0 for e in log]):
            out: list[tuple] = []
            for e in log:
                if e[1] < 0:
                    out.extend(self._reasons(key, e[0], *e[3]))
                else:
                    out.append(e)
            log = self.dlog[key] = tuple(out)
        return log

    @staticmethod
    def _batch_support(log, built: Holdings, hits: int, gsup: int, sup: int) -> int:
        """``sup`` widened, holding by holding in order, by the reason each
        holding at positions ``hits`` (struck off in the batch resting on
        ``gsup``) was ruled out: the one adding fewest tricks to ``sup``,
        the batch's own or an earlier-logged presumption the holding fails;
        until the batch's own adds nothing. A holding that fails a
        presumption adding nothing leaves ``sup`` as it is, now and later (``sup``
        only grows), so those are set aside at once, with bit-set answers."""
        while hits and gsup & ~sup:
            cost = (gsup & ~sup).bit_count()
            # the presumptions cheaper than the batch's own, cheapest first, then in the order logged
            cheaper = sorted(((psup & ~sup).bit_count(), k, psup, pred, memo)
                             for k, (_, psup, pred, memo) in enumerate(log)
                             if pred is not None and psup != gsup and (psup & ~sup).bit_count() < cost)
            for c, _, _, pred, memo in cheaper:
                if c:
                    break
                hits &= memo.fitting(built, hits, pred)
            if not hits:
                break
            first = hits & -hits
            hits ^= first
            best = gsup
            for _, _, psup, pred, memo in cheaper:
                if not memo.fitting(built, first, pred) & first:
                    best = psup
                    break
            sup |= best
        return sup

    # ------------------------------------------------------------ conventions

    def _bounds_support(self, cells, masks, lower: bool) -> int:
        """Support for the lower (or upper) bounds of the lengths ``masks`` of ``cells``."""
        ls = self.lsup
        sup = 0
        for (a, T), m in zip(cells, masks):
            # length_support(a, T, lowest of m, None) or (a, T, None, highest of m), written out
            k = (a * 4 + T) * NL
            if lower:
                lo = (m & -m).bit_length() - 1
                if lo > 0:
                    sup |= reduce(or_, ls[k:k + min(lo, NL)], 0)
            else:
                sup |= reduce(or_, ls[k + m.bit_length():k + NL], 0)
        return sup

    def _cells_support(self, cells, masks) -> int:
        """Support for "the length of each of ``cells`` is among ``masks``"."""
        sup = 0
        for (a, T), m in zip(cells, masks):
            k = (a * 4 + T) * NL
            gone = ALL_LENGTHS & ~m
            while gone:
                b = gone & -gone
                gone ^= b
                sup |= self.lsup[k + b.bit_length() - 1]
        return sup

    # ------------------------------------------------------------ queries


class CountWhy:
    """Why the count rules out lengths of one seat in one suit, given the
    lengths ``lens`` it started from. A length too long or too short for the
    bounds of the other seats in the suit (the column) rests on those
    bounds; else for the seat's other suits (the row); else on the exact
    lengths left in the column, or the row; else (the count needed the whole
    table) on every length ruled out anywhere. Each answer is worked out
    once per count."""

    __slots__ = ("st", "lens", "s", "S", "col", "row", "lim", "memo")

    def __init__(self, st: Supports, lens, s: int, S: int) -> None:
        f = st.f
        self.st, self.lens, self.s, self.S = st, lens, s, S
        self.col = a, b = [lens[o][S] for o in f.others if o != s]
        self.row = row = lens[s][:]
        del row[S]
        x, y, z = row
        # a length n is too long for the column if n > col_hi, too short if n
        # < col_lo (the column's other cells at their shortest, longest); same
        # for the row. Written out: this runs for every cell the count cuts.
        nc, nr = f.col[S] + 2, f.size + 3
        self.lim = (nc - (a & -a).bit_length() - (b & -b).bit_length(),
                    nc - a.bit_length() - b.bit_length(),
                    nr - (x & -x).bit_length() - (y & -y).bit_length() - (z & -z).bit_length(),
                    nr - x.bit_length() - y.bit_length() - z.bit_length())
        self.memo: dict[int, int] = {}

    @property
    def ccells(self) -> list[tuple[int, int]]:
        return [(o, self.S) for o in self.st.f.others if o != self.s]

    @property
    def rcells(self) -> list[tuple[int, int]]:
        return [(self.s, T) for T in SUIT_RANGE if T != self.S]

    def support(self, n: int) -> int:
        c_hi, c_lo, r_hi, r_lo = self.lim
        why = 0 if n > c_hi else 1 if n < c_lo else 2 if n > r_hi else 3 if n < r_lo else None
        if why is None:
            c, r = self.st.f.col[self.S] - n, self.st.f.size - n
            why = 4 if not sums(self.col) >> c & 1 else 5 if not sums(self.row) >> r & 1 else 6
        sup = self.memo.get(why)
        if sup is None:
            sup = self.memo[why] = self._make(why)
        return sup

    def _make(self, why: int) -> int:
        st = self.st
        if why < 2:
            return st._bounds_support(self.ccells, self.col, why == 0)
        if why < 4:
            return st._bounds_support(self.rcells, self.row, why == 2)
        if why == 4:
            return st._cells_support(self.ccells, self.col)
        if why == 5:
            return st._cells_support(self.rcells, self.row)
        cells = [(a, T) for a in st.f.others for T in SUIT_RANGE if (a, T) != (self.s, self.S)]
        return st._cells_support(cells, [self.lens[a][T] for a, T in cells])
