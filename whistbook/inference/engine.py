"""The inference engine: what one seat may conclude after each trick.

The walk is trick by trick, card by card. Every play gives *facts* (the card
was in that player's hand; a player who does not follow has none of the suit
led) and, when the player is not the viewer, *presumptions*: predicates over
the player's holding that say "this holding would have played this card if
he follows the rules". Facts go into all three layers; presumptions into the
presumed layer (conventions) or only the probable one (what the book calls
probable). Each layer is a :class:`~.state.KState` propagated to a fixpoint.

When a fact contradicts the presumed layer, the layer is rebuilt from the
certain one by adding the presumptions back in the order they were made and
dropping each that no longer fits: that player *departed from rule* at the
trick of the dropped presumption. A high card followed later by a lower one
is read as a signal (a call, an echo, an unblock) before that check, so the
presumption of the high card is withdrawn without a departure.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import Card, Suit
from ..seats import SEATS, Seat
from . import conventions as cv
from .bits import master, next_live_above, popcount
from .presumptions import Presumptions, winner_so_far
from .records import Assumption, Departure
from .state import Contradiction, Frame, KState

#: How firmly each convention holds, 0 firmest. When presumptions clash the
#: least firm is given up first (then the newest). Fourth hand winning if he
#: can, winning cheaply, returns and the lead table are seldom broken; the
#: second hand's and the third hand's choices in later rounds often are.
RANK = {
    "second_hand_second_round_wins": 2, "lead_strongest_suit": 2, "continue_own_suit_lowest": 2,
    "discard_top_shows_command": 2, "win_high_return_low": 2, "third_hand_on_honour_led": 1, "answer_to_call_count": 1,
    "high_after_high_count": 1, "second_hand_low": 1, "second_hand_honour_shows_sequence": 1,
    "third_hand_highest": 1, "call_for_trumps": 1, "echo": 1, "trump_fourth_best_count": 1,
}


#: presumptions drawn from a pattern of play rather than from one card
_NO_CARD = frozenset({"call_for_trumps", "echo", "trump_fourth_best_count", "no_call_negative"})


# ------------------------------------------------------------------ the walk

class _Play:
    __slots__ = ("trick", "pos", "seat", "card", "heading", "kind", "gone", "cover")

    def __init__(self, trick, pos, seat, card, heading, kind, gone=0, cover=False):
        self.trick, self.pos, self.seat, self.card, self.heading, self.kind = trick, pos, seat, card, heading, kind
        self.gone = gone  # cards of the suit gone before this play
        self.cover = cover  # a second hand's card over the card led, possibly the foot of a sequence


class Fact(NamedTuple):
    """What the laws say a play shows, for every layer."""

    kind: str  # "play" (the card was the seat's), "turn_up" (the dealer's), "void" (no more of the suit)
    seat: int
    card: int = -1  # for "play" and "turn_up"
    suit: int = -1  # for "void"
    kept: int = 0  # for "void": ranks of the suit the seat has played, which were his


class SignalNote(NamedTuple):
    """A signal read from a pattern of play (a call, an echo, an unblock, a first discard)."""

    seat: int
    rule: str
    suit: int
    tricks: tuple[int, ...]
    cards: tuple[int, ...]
    variant: str | None = None


class Step(NamedTuple):
    """A layer's cells after one step of a trick: the facts, or one presumption."""

    kind: str  # "facts" | "rule"
    assumption: "Assumption | None"
    poss: list[int]
    lens: list[list[int]]


class TrickRun(NamedTuple):
    """The engine's record of one trick: the layers before and after, the steps
    that led from one to the other in each layer, and the signals read."""

    number: int
    before: list[KState]
    after: list[KState]
    steps: list[list[Step]]
    notes: list[SignalNote]


class Engine(Presumptions):
    """The walk over the tricks, keeping the three layers (the presumptions of
    each play are :class:`~.presumptions.Presumptions`')."""

    def __init__(self, hands, trumps: Suit | None, tricks, viewer: Seat, turn_up: Card | None,
                 dealer: Seat | None, size: int, revokes: frozenset = frozenset(),
                 forced: frozenset = frozenset()) -> None:
        self.hands = hands  # dealt hands by seat (only the viewer's are looked at)
        # (trick number, card) of each recorded revoke: failing to follow there shows no void
        self.revokes = frozenset((t, int(c)) for t, c in revokes)
        # (trick number, card) of each card the laws made a player play (a called card,
        # highest or lowest on demand): it says nothing of the player's choice
        self.forced = frozenset((t, int(c)) for t, c in forced)
        self.trumps = None if trumps is None else int(trumps)
        self.tricks = tricks
        self.V = int(viewer)
        self.turn_up = turn_up
        self.dealer = None if dealer is None else int(dealer)
        universe = set()
        for s in SEATS:
            universe |= set(hands[s])
        self.frame = Frame(self.V, hands[viewer], universe, size)
        self.size = size
        # public history
        self.gone = [0, 0, 0, 0]  # cards of each suit played
        self.gone_before_universe = [0, 0, 0, 0]
        for c in range(52):
            if c not in universe:
                self.gone_before_universe[c // 13] |= 1 << (c % 13)
        self.gone = self.gone_before_universe[:]
        self.rounds = [[], [], [], []]  # trick numbers in which each suit was led
        self.opener = [None, None, None, None]
        self.leads: list[list[list[tuple[int, int]]]] = [[[] for _ in range(4)] for _ in range(4)]  # seat, suit -> [(trick, idx)]
        self.any_lead = [False] * 4
        self.played = [[0, 0, 0, 0] for _ in range(4)]  # ranks played by seat, suit
        self.played_at: dict[int, int] = {}  # card -> trick
        self.history: list[_Play] = []
        self.called = [0] * 4  # trick of each seat's first call (0 none)
        self.trump_led_by = [0] * 4  # first trick each seat led trumps (0 none)
        self.discarded = [False] * 4
        self.nocall_done = [False] * 4
        self.refused = [False] * 4  # a refusal to force partner has been read
        self.seen_follow: dict[tuple[int, int], list[_Play]] = {}
        self.assumptions: list[Assumption] = []
        self.departures: list[Departure] = []
        self.retracted: list[Departure] = []
        self._next_id = 0
        self._card_now = -1
        self._pres_prev: KState | None = None
        self._withdraw: list[Assumption] = []  # presumptions this trick shows were signals

    # -------------------------------------------------- helpers

    def _hold_at(self, s: int, S: int) -> int:
        """Mask of ranks ``s`` has played of ``S`` so far (to strip from a dealt holding)."""
        return self.played[s][S]

    def _new(self, trick, seat, suit, rule, layer, pred, rank: int | None = None) -> Assumption:
        self._next_id += 1
        a = Assumption(self._next_id, trick, seat, suit, rule, layer, pred)
        a.rank = RANK.get(rule, 0) if rank is None else rank
        a.card_index = self._card_now
        self.assumptions.append(a)
        return a

    def _call_open(self, s: int) -> bool:
        """Whether a card of ``s`` above his lowest may be the first card of a
        call for trumps (pp. 125-127): there are trumps, nobody has led them
        yet and he has not called. (Hands VII, XI, XXXIV, XXXIX: every call
        in the book begins so, before the lower card shows it.)"""
        return self.trumps is not None and not self.rounds[self.trumps] and not self.called[s]

    def _declared_against(self, s: int) -> bool:
        opp = ((s + 1) % 4, (s + 3) % 4)
        return any(self.trump_led_by[o] or self.called[o] for o in opp)

    # -------------------------------------------------- signals: calls and echoes

    def _signals(self, t: int, pos: int, s: int, c: int, kind: str, withdraw: list[Assumption],
                 new: list[Assumption], notes: list[SignalNote]) -> None:
        S, i = c // 13, c % 13
        if pos == 1:
            return
        own = s == self.V  # the viewer's own signals matter to what the others do
        partner = (s + 2) % 4
        tr = self.trumps
        for p in self.history:
            if p.seat != s or p.card // 13 != S or p.pos == 1 or p.card % 13 <= i:
                continue
            if S == tr and p.kind == "ruff":
                if p.heading:  # an overtrump, made as cheaply as the rules ask
                    continue
                sig = "echo" if (self.trump_led_by[partner] or self.called[partner]) else "trump_fourth_best_count"
            elif p.heading or p.kind == "ruff":
                continue
            elif p.cover and self._may_be_cover(p):
                # a second hand's small card over the card led may be the foot
                # of a covering sequence (knave-ten-nine...): no call unless the
                # card above it is known to be elsewhere (p. 127)
                continue
            elif self.opener[S] == partner and S != tr and (p.card % 13 >= 8 or self._opened_high(partner, S)):
                sig = "unblock_partners_suit"
            else:
                sig = "echo" if (self.trump_led_by[partner] or self.called[partner]) else "call_for_trumps"
            if own:
                if sig in ("call_for_trumps", "echo") and not self.called[s]:
                    self.called[s] = t
                break
            for a in self.assumptions:
                if a.trick == p.trick and a.seat == s and a.suit == S and a.about_card:
                    if a.active:
                        withdraw.append(a)
                    elif a.withdrawn == "departure":
                        # it was a signal after all, not a departure from rule
                        a.withdrawn = "signal"
                        self.departures = [d for d in self.departures if d.key != a.id]
            self._revive(s, p.trick, withdraw)
            self._restore(s)
            if sig in ("call_for_trumps", "echo") and tr is not None and not self.called[s]:
                self.called[s] = t
                need = 4
                if sig == "call_for_trumps":
                    pred = cv.call_strength
                else:
                    pred = lambda m, n=need: popcount(m) >= n  # noqa: E731
                new.append(self._new(t, s, tr, sig, 1, pred))
                notes.append(SignalNote(s, sig, S, (p.trick, t), (p.card, c)))
            elif sig == "trump_fourth_best_count" and p.card % 13 <= 5:
                new.append(self._new(t, s, tr, sig, 1, lambda m: popcount(m) >= 5))
                notes.append(SignalNote(s, sig, S, (p.trick, t), (p.card, c)))
            elif sig == "unblock_partners_suit":
                notes.append(SignalNote(s, sig, S, (p.trick, t), (p.card, c)))
            break

    def _revive(self, s: int, since: int, withdraw: list[Assumption]) -> None:
        """Presumptions of ``s`` given up since ``since`` were given up while his
        signal was read as an ordinary card: take them back, so the layer is
        rebuilt without that card's presumption and keeps those that now fit
        (Hand XXI: Z's call survives his knave under partner's ace)."""
        keys = {d.key for d in self.departures if int(d.seat) == s and d.found_at >= since}
        if not keys or not any(a.seat == s for a in withdraw):
            return
        for a in self.assumptions:
            if a.id in keys and not a.active and a.withdrawn == "departure":
                a.active = True
                a.withdrawn = None
        self.departures = [d for d in self.departures if d.key not in keys]

    def _may_be_cover(self, p: _Play) -> bool:
        up = next_live_above(p.card % 13, p.gone)
        if up < 0:
            return False
        c = p.card // 13 * 13 + up
        st = self._pres_prev
        return st is None or bool(st.poss[c] >> p.seat & 1)

    def _no_call(self, t: int, new: list[Assumption]) -> None:
        """A player who followed in a plain suit with a card that did not head
        the trick, while holding a higher one he played later, could have
        called; if he has not, and nobody has yet led trumps, he is probably
        not strong in trumps (Hand V, trick 4)."""
        tr = self.trumps
        if tr is None or self.rounds[tr]:
            return
        for s in range(4):
            if s == self.V or self.called[s] or self.nocall_done[s]:
                continue
            by_suit: dict[int, list[_Play]] = {}
            for p in self.history:
                if p.seat == s and p.kind == "follow" and p.card // 13 != tr:
                    by_suit.setdefault(p.card // 13, []).append(p)
            if any(len(ps) >= 2 and not ps[0].heading and ps[1].card > ps[0].card and not ps[0].cover
                   for ps in by_suit.values()):
                self.nocall_done[s] = True
                new.append(self._new(t, s, tr, "no_call_negative", 2, lambda m: not cv.call_strength(m)))

    # -------------------------------------------------- layers

    def _apply(self, st: KState, a: Assumption) -> None:
        st.restrict(a.seat, a.suit, a.pred, 1 << a.trick, a.memo)
        st.propagate()

    def _ordered(self, layer: int) -> list[Assumption]:
        """Active presumptions of this layer and below, in the order a rebuild
        admits them: firmer layers first, then firm rules before weak ones,
        then oldest first. A presumption that no longer fits is the one given up."""
        acts = [a for a in self.assumptions if a.active and a.layer <= layer]
        acts.sort(key=lambda a: (a.layer, a.rank, a.trick, a.id))
        return acts

    def _resolve(self, layer: int, certain: KState, t: int, fresh: set[int]) -> tuple[list[int], KState]:
        """Find which presumptions survive together with the certain facts.
        Returns the ids of those applied before the first of this trick's
        (``fresh``) ones took hold, and the state they built: the part of the
        work a rebuild that admits this trick's presumptions last can keep."""
        st = certain.copy()
        applied: list[int] = []
        kept = None
        for a in self._ordered(layer):
            if a.layer > layer or not a.active:
                continue  # demoted or given up meanwhile (see _drop)
            # st is at a fixpoint, so a presumption that strikes nothing off
            # cannot clash: no copy to go back to (most of them, in a rebuild)
            first_fresh = kept is None and a.id in fresh
            snap = st.copy() if first_fresh or st.strikes_off(a.seat, a.suit, a.pred, a.memo) else None
            try:
                self._apply(st, a)
            except Contradiction:
                st = snap
                self._drop(a, t)
                continue
            if kept is None:
                if a.id in fresh:
                    kept = applied, snap
                else:
                    applied.append(a.id)
        return kept if kept is not None else (applied, st)

    def _advance(self, L: int, base: KState, facts, t: int, new_l: list[Assumption], withdrawn: bool,
                 snaps: list, certain: KState) -> KState:
        """The layer after this trick: the cheap way when nothing clashes, else
        resolve which presumptions survive and rebuild, this trick's last (so
        that the steps show them)."""
        trial: list = []
        if not withdrawn:
            st = base.copy()
            try:
                _apply_facts(st, facts, t)
                st.propagate()
                trial.append(_step("facts", None, st))
                for a in new_l:
                    self._apply(st, a)
                    trial.append(_step("rule", a, st))
                snaps.extend(trial)
                return st
            except Contradiction:
                pass
        fresh = {a.id for a in new_l}
        done, st = self._resolve(L, certain, t, fresh)
        old = [a for a in self._ordered(L) if a.id not in fresh]
        k = len(done)
        if [a.id for a in old[:k]] != done:  # a demotion reordered them: start afresh
            st, k = certain.copy(), 0
        for a in old[k:]:
            self._apply(st, a)
        snaps.append(_step("facts", None, st))
        for a in new_l:
            if a.active and a.layer <= L:
                self._apply(st, a)
                snaps.append(_step("rule", a, st))
        return st

    def _has_departed(self, seat: int) -> bool:
        return any(int(d.seat) == seat for d in self.departures)

    def _demote(self, broken: Assumption, found_at: int) -> None:
        """A player found departing from rule is no longer presumed to have
        played his earlier cards to rule either: his other presumptions so far
        are held as probable only, so that counting builds no presumed
        placement on them (Hands XXVII and XXXIII, where one early departure
        otherwise spreads), nor the cards of the trick that shows it. His later
        cards are read afresh."""
        for b in self.assumptions:
            if (b.seat == broken.seat and b.layer == 1 and b.active
                    and b.trick <= found_at):
                b.layer = 2
                b.demoted = True

    def _restore(self, seat: int) -> None:
        """His departure was a signal after all: presume his play again."""
        if self._has_departed(seat):
            return
        for b in self.assumptions:
            if b.seat == seat and b.demoted:
                b.layer = 1
                b.demoted = False

    def _drop(self, a: Assumption, t: int) -> None:
        a.active = False
        a.withdrawn = "departure"
        seat = SEATS[a.seat]
        card = Card(Suit(a.suit), a.card_index + 2) if a.card_index >= 0 and a.rule not in _NO_CARD else None
        if a.layer == 1 or a.demoted:
            self.departures.append(Departure(a.trick, seat, a.rule, t, a.id, card))
            self._demote(a, t)
        else:
            self.retracted.append(Departure(a.trick, seat, a.rule, t, card=card, layer="probable"))

    # -------------------------------------------------- main loop

    def start(self) -> KState:
        """What the viewer knows before the first card: his own hand and the hand sizes."""
        certain = KState(self.frame, self.hands[SEATS[self.V]])
        certain.propagate()
        return certain

    def run(self) -> list[TrickRun]:
        """Walk the play trick by trick; one :class:`TrickRun` a trick."""
        certain = self.start()
        layers = [certain, certain.copy(), certain.copy()]
        out = []
        for trick in self.tricks:
            prev = list(layers)
            self._pres_prev = layers[1]
            new: list[Assumption] = []
            withdraw: list[Assumption] = []
            self._withdraw = withdraw
            notes: list[SignalNote] = []
            facts = self._read_trick(trick, new, withdraw, notes)
            self._no_call(trick.number, new)
            for a in withdraw:
                if a.active:
                    a.active = False
                    a.withdrawn = "signal"
            out.append(self._advance_layers(trick.number, layers, prev, facts, new, withdraw, notes))
        return out

    def _read_trick(self, trick, new: list[Assumption], withdraw: list[Assumption],
                    notes: list[SignalNote]) -> list[Fact]:
        """The facts of one trick, gathering its presumptions and signals on the way."""
        t, V = trick.number, self.V
        facts: list[Fact] = []
        cards = [int(p.card) for p in trick.plays]
        if t == 1 and self.turn_up is not None and self.dealer is not None and self.dealer != V:
            facts.append(Fact("turn_up", self.dealer, card=int(self.turn_up)))
        LS = cards[0] // 13
        for pos, p in enumerate(trick.plays, start=1):
            s, c = int(p.seat), int(p.card)
            S = c // 13
            kind = ("lead" if pos == 1 else "follow" if S == LS else "ruff" if S == self.trumps
                    else "discard")
            chosen = (t, c) not in self.forced  # a card the laws made him play says nothing
            if s != V and chosen:
                self._presume(t, pos, s, c, cards[:pos], new)
            if chosen:
                self._signals(t, pos, s, c, kind, withdraw, new, notes)
            facts.append(Fact("play", s, card=c))
            if pos > 1 and S != LS and (t, c) not in self.revokes:
                facts.append(Fact("void", s, suit=LS, kept=self.played[s][LS]))
            self._record(trick, pos, s, c, kind, cards, notes)
        return facts

    def _record(self, trick, pos: int, s: int, c: int, kind: str, cards: list[int],
                notes: list[SignalNote]) -> None:
        """Keep the public history of one card: how it stood in the trick, the
        rounds and leads of its suit, a first discard, the cards gone."""
        t, S, LS = trick.number, c // 13, cards[0] // 13
        if pos == 1:
            heading = True
        elif kind == "follow":
            _, wc = winner_so_far(cards[:pos], pos - 1, trick.leader, self.trumps)
            heading = _heading(pos, c % 13, wc % 13, wc // 13 != LS, self.gone[S], len(self.rounds[S]))
        elif kind == "ruff":
            # "heading" marks an overtrump here (a ruff over another trump)
            heading = any(x // 13 == self.trumps for x in cards[1:pos - 1])
        else:
            heading = winner_so_far(cards[:pos], pos, trick.leader, self.trumps)[0] == s
        cover = (kind == "follow" and pos == 2 and not heading
                 and c % 13 > cards[0] % 13 and len(self.rounds[S]) == 1)
        self.history.append(_Play(t, pos, s, c, heading, kind, self.gone[S], cover))
        if pos == 1:
            self.rounds[S].append(t)
            if self.opener[S] is None:
                self.opener[S] = s
            self.leads[s][S].append((t, c % 13))
            self.any_lead[s] = True
            if S == self.trumps and not self.trump_led_by[s]:
                self.trump_led_by[s] = t
        if kind == "discard" and not self.discarded[s] and s != self.V:
            self.discarded[s] = True
            notes.append(SignalNote(s, "original_discard", S, (t,), (c,),
                                    "defensive" if self._declared_against(s) else None))
        self.gone[S] |= 1 << (c % 13)
        self.played[s][S] |= 1 << (c % 13)
        self.played_at[c] = t

    def _advance_layers(self, t: int, layers: list[KState], prev: list[KState], facts: list[Fact],
                        new: list[Assumption], withdraw: list[Assumption], notes: list[SignalNote]) -> TrickRun:
        """Bring the three layers past trick ``t``: the facts into the certain
        layer, the facts and presumptions into the presumed and probable ones."""
        steps: list[list[Step]] = [[], [], []]
        layers[0] = layers[0].copy()
        _apply_facts(layers[0], facts, t)
        layers[0].propagate()
        steps[0].append(_step("facts", None, layers[0]))
        for L in (1, 2):
            new_l = [a for a in new if a.active and a.layer <= L]
            withdrawn = any(a.layer <= L for a in withdraw)
            layers[L] = self._advance(L, prev[L], facts, t, new_l, withdrawn, steps[L], layers[0])
        return TrickRun(t, prev, list(layers), steps, notes)


# ------------------------------------------------------------------ small helpers

def _heading(pos: int, i: int, w_i: int, w_trumped: bool, gone: int, rnd: int) -> bool:
    """Whether a card played in the suit led tries to win the trick (so it is
    not read as a call). A second player's small card that merely beats the
    card led in a first round is not counted: only a ten or better, or the
    best card left."""
    if w_trumped or i <= w_i:
        return False
    if pos == 2 and rnd == 1:
        return i >= 8 or i == master(gone)
    return True


def _apply_facts(st: KState, facts: list[Fact], t: int) -> None:
    sup = 1 << t
    for f in facts:
        if f.kind == "play":
            st.fix(f.card, f.seat, sup)
        elif f.kind == "turn_up":
            st.fix(f.card, f.seat, 1)
        else:
            st.show_out(f.seat, f.suit, f.kept, sup)


def _step(kind: str, a: Assumption | None, st: KState) -> Step:
    return Step(kind, a, st.poss[:], list(map(list.copy, st.lens)))


class PublicEngine(Engine):
    """The walk without presumptions: the public history (openers, leads,
    calls and echoes, discards) and the certain layer only, which every
    layer then is. What a player needs to apply the conventions himself
    (:func:`~whistbook.inference.view_after` with ``presumptions=False``).

    It may also be walked a trick at a time, for a player at the table
    (:meth:`step`), and asked about a trick in play without keeping it
    (:meth:`peek`)."""

    #: the public history a trick changes (restored after :meth:`peek`)
    _KEPT = ("gone", "rounds", "opener", "leads", "any_lead", "played", "played_at", "history", "called",
             "trump_led_by", "discarded", "nocall_done", "refused", "seen_follow")

    def begin(self) -> None:
        """Start a walk a trick at a time (instead of :meth:`run`)."""
        self.tricks = []
        self._layers = [self.start()] * 3

    def step(self, trick) -> TrickRun:
        """Walk one more trick (complete, or the trick in play)."""
        self.tricks.append(trick)
        prev = list(self._layers)
        self._pres_prev = self._layers[1]
        new: list[Assumption] = []
        withdraw: list[Assumption] = []
        self._withdraw = withdraw
        notes: list[SignalNote] = []
        facts = self._read_trick(trick, new, withdraw, notes)
        run = self._advance_layers(trick.number, self._layers, prev, facts, new, withdraw, notes)
        return run

    def peek(self, trick) -> tuple[TrickRun, dict]:
        """:meth:`step` over ``trick`` (a trick in play), then back as before;
        the run and the public history as it was with the trick."""
        saved = {k: _copied(getattr(self, k)) for k in self._KEPT}
        layers = list(self._layers)
        try:
            run = self.step(trick)
            after = {k: getattr(self, k) for k in self._KEPT}
        finally:
            for k, v in saved.items():
                setattr(self, k, v)
            self._layers = layers
            self.tricks.pop()
        return run, after

    def _presume(self, t, pos, s, c, trick_cards, new) -> None:
        self._card_now = c % 13

    def _no_call(self, t, new) -> None:
        return

    def _advance_layers(self, t, layers, prev, facts, new, withdraw, notes) -> TrickRun:  # type: ignore[override]
        certain = layers[0].copy()
        _apply_facts(certain, facts, t)
        certain.propagate()
        layers[0] = layers[1] = layers[2] = certain
        return TrickRun(t, prev, list(layers), [[], [], []], notes)


def _copied(v):
    """A copy of a piece of public history deep enough that a trick walked over it leaves it alone."""
    if isinstance(v, list):
        return [_copied(x) for x in v]
    if isinstance(v, dict):
        return {k: list(x) if isinstance(x, list) else x for k, x in v.items()}
    return v
