"""Rebuild a layer from the tricks an inference rests on, to check them.

An inference's ``rests_on`` claims that the conclusion follows from the deal
(the viewer's hand, the hand sizes, the turned-up card) and the facts and
presumptions of those tricks alone. :class:`Rederiver` tests that claim: it
replays the engine to trick t to learn each trick's facts and which
presumptions were standing then, builds a fresh store from the chosen tricks
only, and asks whether the conclusion holds in it. Used by the tests and by
``benchmarks/rests_on.py``; the engine itself does not need it.
"""

from __future__ import annotations

from ..laws import CheckedHand
from ..seats import SEATS, Seat
from .engine import Engine, _apply_facts
from .records import LAYERS, Inference
from .state import Contradiction, KState


class _Recording(Engine):
    """The engine, keeping each trick's facts."""

    def run(self):
        self.facts_of: dict[int, list] = {}
        return super().run()

    def _advance_layers(self, t, layers, prev, facts, new, withdraw, notes):
        self.facts_of[t] = facts
        return super()._advance_layers(t, layers, prev, facts, new, withdraw, notes)


class Rederiver:
    """Rebuilds layers of one hand, seen from one seat, from chosen tricks."""

    def __init__(self, checked: CheckedHand, seat: Seat | None = None) -> None:
        hf, rp = checked.hand, checked.replay
        self.viewer = seat if seat is not None else (hf.known_hand if hf.known_hand is not None else Seat.A)
        self.hands = {s: rp.hands[s] for s in SEATS}
        self.args = (rp.trumps, rp.tricks, self.viewer,
                     hf.turn_up.card if hf.turn_up is not None else None, hf.dealer, len(rp.hands[0]))
        self.revokes = frozenset((r.trick, r.cards[0]) for r in checked.rulings if r.kind == "revoke")
        self.forced = frozenset((r.trick, r.cards[-1]) for r in checked.rulings
                                if r.kind in ("call-card", "call-play")
                                or (r.kind == "revoke-corrected" and r.penalty in ("highest", "lowest")))
        self._at: dict[int, _Recording] = {}

    def _engine_at(self, t: int) -> _Recording:
        """The engine run to the end of trick ``t`` (its presumptions as they stood then)."""
        eng = self._at.get(t)
        if eng is None:
            trumps, tricks, viewer, turn_up, dealer, size = self.args
            eng = _Recording(self.hands, trumps, tricks[:t], viewer, turn_up, dealer, size,
                             self.revokes, self.forced)
            eng.run()
            self._at[t] = eng
        return eng

    def state(self, t: int, layer: int, tricks: set[int]) -> KState | None:
        """The layer after trick ``t`` rebuilt from the deal and ``tricks`` only
        (``None`` if they contradict each other, which they should not)."""
        eng = self._engine_at(t)
        st = KState(eng.frame, eng.hands[SEATS[eng.V]])
        try:
            st.propagate()
            for k in sorted(tricks | {1}):
                facts = eng.facts_of[k] if k in tricks else [f for f in eng.facts_of[k] if f.kind == "turn_up"]
                _apply_facts(st, facts, k)
            st.propagate()
            for a in eng._ordered(layer):
                if a.trick in tricks:
                    st.restrict(a.seat, a.suit, a.pred, 1 << a.trick, a.memo)
                    st.propagate()
        except Contradiction:
            return None
        return st

    def follows(self, t: int, inf: Inference, tricks: set[int]) -> bool:
        """Whether ``inf``, reported after trick ``t``, follows from ``tricks``."""
        st = self.state(t, LAYERS.index(inf.certainty), {k for k in tricks if 1 <= k <= t})
        if st is None:
            return False
        eng = self._engine_at(t)
        s, S = int(inf.seat), int(inf.suit)
        played = sum(1 for tr in eng.tricks for p in tr.plays if int(p.seat) == s and int(p.card) // 13 == S)
        lo, hi = st.length_range(s, S)
        if inf.kind == "holds":
            return all(st.poss[int(c)] == 1 << s for c in inf.cards)
        if inf.kind == "lacks":
            return all(not st.poss[int(c)] >> s & 1 for c in inf.cards)
        if inf.kind == "void":
            return hi <= played
        if inf.kind == "count":
            return ((inf.low is None or lo - played >= inf.low)
                    and (inf.high is None or hi - played <= inf.high))
        raise ValueError(f"cannot check an inference of kind {inf.kind!r}")
