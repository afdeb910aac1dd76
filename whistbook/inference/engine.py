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

from dataclasses import dataclass, field
from typing import Callable

from ..cards import Card, Suit
from ..seats import SEATS, Seat
from . import conventions as cv
from .bits import bit, high, low, master, next_live_above, next_live_below, popcount, seq_high, seq_low
from .state import Contradiction, Frame, KState

LAYERS = ("certain", "presumed", "probable")

#: How firmly each convention holds, 0 firmest. When presumptions clash the
#: least firm is given up first (then the newest). Fourth hand winning if he
#: can, winning cheaply, returns and the lead table are seldom broken; the
#: second hand's and the third hand's choices in later rounds often are.
RANK = {
    "second_hand_second_round_wins": 2, "lead_strongest_suit": 2, "continue_own_suit_lowest": 2,
    "discard_top_shows_command": 2, "third_hand_on_honour_led": 1, "answer_to_call_count": 1,
    "high_after_high_count": 1, "second_hand_low": 1, "second_hand_honour_shows_sequence": 1,
    "third_hand_highest": 1, "call_for_trumps": 1, "echo": 1, "trump_fourth_best_count": 1,
}


# ------------------------------------------------------------------ records

#: presumptions drawn from a pattern of play rather than from one card
_NO_CARD = frozenset({"call_for_trumps", "echo", "trump_fourth_best_count", "no_call_negative"})

@dataclass(frozen=True)
class Inference:
    """One conclusion, with what it rests on."""

    seat: Seat
    kind: str  # "void" | "holds" | "lacks" | "count" | "signal"
    cards: tuple[Card, ...]
    suit: Suit | None
    certainty: str  # "certain" | "presumed" | "probable"
    rule: str
    page: str | None
    rests_on: tuple[int, ...]
    low: int | None = None  # for "count": fewest cards of the suit still held
    high: int | None = None  # for "count": most cards of the suit still held
    #: a variant of the rule that changes what it shows ("defensive" for a first discard
    #: when trumps have been declared against the player)
    variant: str | None = None

    def to_json(self) -> dict:
        return {
            "seat": str(self.seat), "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "suit": self.suit.letter if self.suit is not None else None,
            "certainty": self.certainty, "rule": self.rule,
            "low": self.low, "high": self.high, "rests_on": list(self.rests_on),
        }


@dataclass(frozen=True)
class Departure:
    """A presumption that a later card contradicted: the player did not play to rule."""

    trick: int  # the trick of the play that broke the rule
    seat: Seat
    rule: str
    found_at: int = 0  # the trick whose cards showed it
    key: int = field(default=0, compare=False, repr=False)
    #: the card the presumption was drawn from, when it was drawn from one
    card: Card | None = None
    #: "presumed" for a departure from rule, "probable" for a likelihood given up
    layer: str = "presumed"

    def to_json(self) -> dict:
        return {"trick": self.trick, "seat": str(self.seat), "rule": self.rule, "found_at": self.found_at,
                "card": str(self.card) if self.card is not None else None, "layer": self.layer}


@dataclass
class TrickExplanation:
    number: int
    inferences: list[Inference]
    #: layer -> {card: seats that may hold it}, for every card the viewer cannot
    #: see that is still in play ("certain", "presumed"; "probable" in Python only)
    knowledge: dict[str, dict[Card, tuple[Seat, ...]]]
    #: layer -> {seat: {suit: (fewest, most)}} cards of the suit still held
    counts: dict[str, dict[Seat, dict[Suit, tuple[int, int]]]]
    departures: list[Departure] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "inferences": [i.to_json() for i in self.inferences],
            "knowledge": {layer: {str(c): [str(s) for s in seats] for c, seats in sorted(
                self.knowledge[layer].items(), key=lambda kv: (kv[0].suit, -kv[0].rank))}
                for layer in ("certain", "presumed")},
            "counts": {layer: {str(s): {S.letter: list(r) for S, r in per.items()}
                               for s, per in self.counts[layer].items()}
                       for layer in ("certain", "presumed")},
        }


@dataclass
class Explanation:
    viewpoint: Seat
    tricks: list[TrickExplanation]
    departures: list[Departure]
    #: probable presumptions given up because later cards did not bear them out
    retracted: list[Departure] = field(default_factory=list)
    #: the layer states after each trick (internal; for checking statements)
    _states: list[tuple[KState, KState, KState]] = field(default_factory=list, repr=False)
    _played: list[dict[int, int]] = field(default_factory=list, repr=False)

    def to_json(self) -> dict:
        return {
            "viewpoint": str(self.viewpoint),
            "tricks": [t.to_json() for t in self.tricks],
            "departures": [d.to_json() for d in self.departures],
        }

    def state_after(self, trick: int, layer: str) -> KState:
        return self._states[trick - 1][LAYERS.index(layer)]


@dataclass
class Assumption:
    id: int
    trick: int
    seat: int
    suit: int
    rule: str
    layer: int  # 1 presumed, 2 probable
    pred: Callable[[int], bool]  # over the seat's dealt holding of the suit (rank mask)
    claim: str  # what it says, for departure messages
    active: bool = True
    withdrawn: str | None = None
    #: the predicate names the very card played (so a later signal can show
    #: the card was chosen for another reason); otherwise it speaks of the holding only
    about_card: bool = False
    rank: int = 0  # firmness, see RANK
    card_index: int = -1  # rank index of the card whose play gave the presumption
    memo: dict = field(default_factory=dict, repr=False)  # holding -> verdict


# ------------------------------------------------------------------ the walk

class _Play:
    __slots__ = ("trick", "pos", "seat", "card", "heading", "kind", "gone", "cover")

    def __init__(self, trick, pos, seat, card, heading, kind, gone=0, cover=False):
        self.trick, self.pos, self.seat, self.card, self.heading, self.kind = trick, pos, seat, card, heading, kind
        self.gone = gone  # cards of the suit gone before this play
        self.cover = cover  # a second hand's card over the card led, possibly the foot of a sequence


class Engine:
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
        self.seen_follow: dict[tuple[int, int], list[_Play]] = {}
        self.assumptions: list[Assumption] = []
        self.departures: list[Departure] = []
        self.retracted: list[Departure] = []
        self._next_id = 0
        self._card_now = -1
        self._pres_prev: KState | None = None

    # -------------------------------------------------- helpers

    def _hold_at(self, s: int, S: int) -> int:
        """Mask of ranks ``s`` has played of ``S`` so far (to strip from a dealt holding)."""
        return self.played[s][S]

    def _new(self, trick, seat, suit, rule, layer, pred, claim, rank: int | None = None) -> Assumption:
        self._next_id += 1
        a = Assumption(self._next_id, trick, seat, suit, rule, layer, pred, claim)
        a.rank = RANK.get(rule, 0) if rank is None else rank
        a.card_index = self._card_now
        self.assumptions.append(a)
        return a

    def _declared_against(self, s: int) -> bool:
        opp = ((s + 1) % 4, (s + 3) % 4)
        return any(self.trump_led_by[o] or self.called[o] for o in opp)

    # -------------------------------------------------- presumptions of one play

    def _presume(self, t: int, pos: int, s: int, c: int, trick_cards, new: list[Assumption]) -> None:
        S, i = c // 13, c % 13
        self._card_now = i
        led = trick_cards[0]
        LS = led // 13
        tr = self.trumps
        trumps = S == tr
        strip = self.played[s][S]
        gone = self.gone[S]
        partner = (s + 2) % 4
        name = SEATS[s].name
        cs = str(Card(Suit(S), i + 2))
        if pos == 1:
            rnd = len(self.rounds[S]) + 1
            prev = self.leads[s][S]
            opener = self.opener[S]
            if trumps and self.called[partner] and not prev:
                new.append(self._new(t, s, S, "answer_to_call_count", 1,
                                     _pred_in(strip, lambda h: cv.answer_call_cards(h), i),
                                     f"{name}'s {cs} at trick {t} answered his partner's call as the rule directs"))
            elif opener is None:
                declared = self._declared_against(s)
                room = self.size - t + 1 >= 5
                if not self.any_lead[s] and room:
                    if self.size - t + 1 >= 8:
                        new.append(self._new(t, s, S, "lead_strongest_suit", 1,
                                             lambda m, st=strip: popcount(m & ~st) >= 4,
                                             f"{name} opened {Suit(S).plural} at trick {t} from four or more"))
                    rid = "lead_fourth_best" if i <= 7 else "lead_table"
                    new.append(self._new(t, s, S, rid, 1,
                                         _pred_first(strip, trumps, i, declared,
                                                     not trumps and self.size - t + 1 >= 8),
                                         f"{name}'s {cs} at trick {t} was the card the Analysis of Leads prescribes"))
                elif room:
                    rid = "lead_fourth_best" if i <= 7 else "lead_table"
                    new.append(self._new(t, s, S, rid, 1,
                                         _pred_first(strip, trumps, i, declared, False),
                                         f"{name}'s {cs} at trick {t} was the card his holding calls for"))
                if trumps and not self.trump_led_by[s]:
                    new.append(self._new(t, s, S, "trump_lead_strength", 2,
                                         lambda m, st=strip: popcount(m & ~st) >= 4,
                                         f"{name} led trumps at trick {t} holding four or more"))
            elif opener == partner and not prev:
                new.append(self._new(t, s, S, "return_count", 1,
                                     _pred_in(strip, lambda h, g=gone, tt=trumps: cv.return_cards(h, g, tt), i),
                                     f"{name}'s {cs} at trick {t} was the right card to return"))
            elif opener == s and prev:
                first_t, f = prev[0]
                strip0 = self._strip_at(s, S, first_t)
                if rnd == 2 and len(prev) == 1:
                    r1 = self.tricks[first_t - 1]
                    won = int(r1.winner) == s
                    win_card = int(r1.winning_card)
                    beaten_by = win_card % 13 if (not won and win_card // 13 == S
                                                  and int(r1.winner) != partner) else -1
                    qcard = S * 13 + 10
                    queen_fell = qcard in r1.cards and int(r1.card_of(SEATS[s])) != qcard
                    # the American count is not kept when trumps are declared
                    # against the leader, nor late in the hand (App. A)
                    american = not self._declared_against(s) and t < 8
                    rid = "lead_low_after_high" if (f >= 8 and i < 8) else "high_after_high_count" if f >= 8 else "lead_table"

                    def p2(m, st0=strip0, st=strip, f=f, won=won, bb=beaten_by, qf=queen_fell, tt=trumps, am=american, i=i):
                        res = cv.second_leads(m & ~st0, f, won, bb, qf, tt, am)
                        return res is None or i in res
                    new.append(self._new(t, s, S, rid, 1, p2,
                                         f"{name}'s {cs} at trick {t} was the card the Analysis of Leads prescribes second"))
                if rnd >= 3:
                    def p3(m, st=strip, g=gone, i=i):
                        res = cv.continue_cards(m & ~st, g)
                        return res is None or i in res
                    new.append(self._new(t, s, S, "continue_own_suit_lowest", 1, p3,
                                         f"{name}'s {cs} at trick {t} was his lowest, holding no winner"))
            return
        # following, trumping or discarding
        w_seat, w_card = _winner(trick_cards, pos - 1, self.tricks[t - 1].leader, tr)
        w_partner = w_seat == partner
        LS_trumps = LS == tr
        if S == LS:
            w_trumped = w_card // 13 != LS
            w_i = w_card % 13
            heading = not w_trumped and i > w_i
            rank_low = None
            rnd = len(self.rounds[LS])  # the current round is already counted
            led_i = led % 13
            if pos == 2:
                acc = lambda h, g=gone, li=led_i, r=rnd, tt=LS_trumps: cv.second_hand_cards(h, g, li, r, tt)  # noqa: E731
                rid_head = ("second_hand_honour_shows_sequence" if rnd == 1 else
                            "second_hand_second_round_wins" if rnd == 2 else "lowest_of_sequence")
                rid_low = ("second_hand_low" if rnd == 1 else
                           "second_hand_second_round_wins" if rnd == 2 else "follow_lowest_when_not_winning")
            elif pos == 3:
                acc = lambda h, g=gone, li=led_i, wi=w_i, wp=w_partner, r=rnd, wt=w_trumped: cv.third_hand_cards(h, g, li, wi, wp, r, wt)  # noqa: E731
                rid_head = "third_hand_highest"
                if rnd >= 2:
                    rank_low = 2
                rid_low = "third_hand_on_honour_led" if (rnd == 1 and w_partner and led_i in (9, 8)) else "third_hand_highest"
            else:
                acc = lambda h, g=gone, wi=w_i, wp=w_partner, wt=w_trumped: cv.fourth_hand_cards(h, g, wi, wp, wt)  # noqa: E731
                rid_head = "win_cheaply"
                rid_low = "fourth_hand_wins_if_able"
            if heading:
                if pos == 2 and i < 8 and rnd == 1:
                    rid_head = "second_hand_low"
                a = self._new(t, s, S, rid_head, 1, _pred_in(strip, acc, i),
                              f"{name}'s {cs} at trick {t} was the card the rules of play call for")
                a.about_card = True
                new.append(a)
                if pos == 2 and rnd == 1 and i >= 8 and not (led_i >= 9):
                    new.append(self._new(t, s, S, "second_hand_honour_shows_sequence", 2,
                                         lambda m, st=strip: popcount(m & ~st) >= 2,
                                         f"{name}'s {cs} at trick {t} was not a single card"))
            else:
                if self.opener[S] == partner and not LS_trumps:
                    # in partner's suit a high card may be thrown to unblock it
                    pl0 = lambda m, st=strip, i=i: low(m & ~st) == i or high(m & ~st) == i  # noqa: E731
                else:
                    pl0 = lambda m, st=strip, i=i: low(m & ~st) == i  # noqa: E731
                a = self._new(t, s, S, "follow_lowest_when_not_winning", 1, pl0,
                              f"{name}'s {cs} at trick {t} was his lowest {Suit(S).singular}")
                a.about_card = True
                new.append(a)
                trivial = (pos == 4 and (w_partner or w_trumped)) or (pos == 3 and w_trumped)
                if not trivial:
                    def pl(m, st=strip, acc=acc):
                        h = m & ~st
                        return low(h) in acc(h)
                    new.append(self._new(t, s, S, rid_low, 1, pl,
                                         f"{name} could not properly have done better than his {cs} at trick {t}",
                                         rank_low))
            return
        # not following
        if S == tr:
            w_trump = w_card % 13 if w_card // 13 == tr else -1
            rid = "win_cheaply" if (pos == 4 or w_trump >= 0) else "lowest_of_sequence"

            def pr(m, st=strip, g=gone, wt=w_trump, p=pos, i=i):
                res = cv.ruff_cards(m & ~st, g, wt, p)
                return res is None or i in res
            a = self._new(t, s, S, rid, 1, pr, f"{name} trumped at trick {t} with the card the rules call for")
            a.about_card = True
            new.append(a)
            return
        # a discard
        m_i = master(gone)
        if i < 8:
            return
        if i == m_i:
            def pd(m, st=strip, g=gone, i=i):
                h = m & ~st
                return _run_mask(h, g, i) == h
            new.append(self._new(t, s, S, "discard_top_shows_command", 1, pd,
                                 f"{name}'s discard of the {cs} at trick {t} showed the command of the suit"))
        elif m_i >= 0 and next_live_below(m_i, gone) == i and not (self.V == s):
            new.append(self._new(t, s, S, "discard_top_shows_command", 1,
                                 lambda m, st=strip, i=i, mi=m_i: (m & ~st) == bit(i) or bool((m & ~st) >> mi & 1),
                                 f"{name}'s discard of the {cs} at trick {t} was his last of the suit"))

    def _opened_high(self, s: int, S: int) -> bool:
        leads = self.leads[s][S]
        return bool(leads) and leads[0][1] >= 8

    def _strip_at(self, s: int, S: int, trick: int) -> int:
        m = 0
        for p in self.history:
            if p.seat == s and p.card // 13 == S and p.trick < trick:
                m |= 1 << (p.card % 13)
        return m

    # -------------------------------------------------- signals: calls and echoes

    def _signals(self, t: int, pos: int, s: int, c: int, kind: str, withdraw: list[Assumption],
                 new: list[Assumption], notes: list[tuple]) -> None:
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
            if sig in ("call_for_trumps", "echo") and tr is not None and not self.called[s]:
                self.called[s] = t
                need = 4
                if sig == "call_for_trumps":
                    pred = cv.call_strength
                    claim = f"{SEATS[s].name}'s call for trumps (tricks {p.trick} and {t}) showed strength in them"
                else:
                    pred = lambda m, n=need: popcount(m) >= n  # noqa: E731
                    claim = f"{SEATS[s].name}'s echo (tricks {p.trick} and {t}) showed four trumps or more"
                new.append(self._new(t, s, tr, sig, 1, pred, claim))
                notes.append((s, sig, S, (p.trick, t), (p.card, c), sig))
            elif sig == "trump_fourth_best_count" and p.card % 13 <= 5:
                new.append(self._new(t, s, tr, sig, 1, lambda m: popcount(m) >= 5,
                                     f"{SEATS[s].name} trumped high and then low, so he held five trumps or more"))
                notes.append((s, sig, S, (p.trick, t), (p.card, c), sig))
            elif sig == "unblock_partners_suit":
                notes.append((s, sig, S, (p.trick, t), (p.card, c), sig))
            break

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
                new.append(self._new(t, s, tr, "no_call_negative", 2,
                                     lambda m: not cv.call_strength(m),
                                     f"{SEATS[s].name}, having had the chance to call and not calling, is not strong in trumps"))

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

    def _resolve(self, layer: int, certain: KState, t: int) -> None:
        """Find which presumptions survive together with the certain facts."""
        st = certain.copy()
        for a in self._ordered(layer):
            snap = st.copy()
            try:
                self._apply(st, a)
            except Contradiction:
                st = snap
                self._drop(a, t)

    def _advance(self, L: int, base: KState, facts, t: int, new_l: list[Assumption], withdrawn: bool,
                 snaps: list, certain: KState) -> KState:
        """The layer after this trick: the cheap way when nothing clashes, else
        resolve which presumptions survive and rebuild."""
        trial: list = []
        if not withdrawn:
            st = base.copy()
            try:
                _apply_facts(st, facts, t)
                st.propagate()
                trial.append(("facts", None, _snap(st)))
                for a in new_l:
                    self._apply(st, a)
                    trial.append(("rule", a, _snap(st)))
                snaps.extend(trial)
                return st
            except Contradiction:
                pass
        self._resolve(L, certain, t)
        fresh = {a.id for a in new_l}
        st = certain.copy()
        for a in self._ordered(L):
            if a.id not in fresh:
                self._apply(st, a)
        snaps.append(("facts", None, _snap(st)))
        for a in new_l:
            if a.active:
                self._apply(st, a)
                snaps.append(("rule", a, _snap(st)))
        return st

    def _drop(self, a: Assumption, t: int) -> None:
        a.active = False
        a.withdrawn = "departure"
        seat = SEATS[a.seat]
        card = Card(Suit(a.suit), a.card_index + 2) if a.card_index >= 0 and a.rule not in _NO_CARD else None
        if a.layer == 1:
            self.departures.append(Departure(a.trick, seat, a.rule, t, a.id, card))
        else:
            self.retracted.append(Departure(a.trick, seat, a.rule, t, card=card, layer="probable"))

    # -------------------------------------------------- main loop

    def run(self):
        V = self.V
        certain = KState(self.frame, self.hands[SEATS[V]])
        certain.propagate()
        layers = [certain, certain.copy(), certain.copy()]
        out = []
        for trick in self.tricks:
            t = trick.number
            prev = list(layers)
            self._pres_prev = layers[1]
            new: list[Assumption] = []
            withdraw: list[Assumption] = []
            notes: list[tuple] = []
            facts: list[tuple] = []
            cards = [int(p.card) for p in trick.plays]
            if t == 1 and self.turn_up is not None and self.dealer is not None and self.dealer != V:
                facts.append(("turnup", int(self.turn_up), self.dealer))
            LS = cards[0] // 13
            for pos, p in enumerate(trick.plays, start=1):
                s, c = int(p.seat), int(p.card)
                S = c // 13
                if pos == 1:
                    kind = "lead"
                elif S == LS:
                    kind = "follow"
                elif S == self.trumps:
                    kind = "ruff"
                else:
                    kind = "discard"
                chosen = (t, c) not in self.forced
                if s != V and chosen:
                    self._presume(t, pos, s, c, cards[:pos], new)
                if chosen:
                    self._signals(t, pos, s, c, kind, withdraw, new, notes)
                facts.append(("play", c, s))
                if pos > 1 and S != LS and (t, c) not in self.revokes:
                    facts.append(("void", LS, s, self.played[s][LS]))
                if pos == 1:
                    heading = True
                elif kind == "follow":
                    _, wc = _winner(cards[:pos], pos - 1, trick.leader, self.trumps)
                    heading = _heading(pos, c % 13, wc % 13, wc // 13 != LS, self.gone[S], len(self.rounds[S]))
                elif kind == "ruff":
                    # "heading" marks an overtrump here (a ruff over another trump)
                    heading = any(x // 13 == self.trumps for x in cards[1:pos - 1])
                else:
                    heading = _winner(cards[:pos], pos, trick.leader, self.trumps)[0] == s
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
                if kind == "discard" and not self.discarded[s] and s != V:
                    self.discarded[s] = True
                    notes.append((s, "original_discard", S, (t,), (c,),
                                  "original_discard_defensive" if self._declared_against(s) else "original_discard"))
                self.gone[S] |= 1 << (c % 13)
                self.played[s][S] |= 1 << (c % 13)
                self.played_at[c] = t
            self._no_call(t, new)
            for a in withdraw:
                if a.active:
                    a.active = False
                    a.withdrawn = "signal"
            # certain layer
            snaps: list[list] = [[], [], []]
            layers[0] = layers[0].copy()
            _apply_facts(layers[0], facts, t)
            layers[0].propagate()
            snaps[0].append(("facts", None, _snap(layers[0])))
            # presumed and probable layers
            for L in (1, 2):
                new_l = [a for a in new if a.active and a.layer <= L]
                withdrawn = any(a.layer <= L for a in withdraw)
                layers[L] = self._advance(L, prev[L], facts, t, new_l, withdrawn, snaps[L], layers[0])
            out.append((t, prev, list(layers), snaps, notes))
        return out


# ------------------------------------------------------------------ small helpers

def _pred_in(strip: int, acc, i: int):
    def p(m: int) -> bool:
        return i in acc(m & ~strip)
    return p


def _pred_first(strip: int, trumps: bool, i: int, declared: bool, long_only: bool):
    """The opening card fits the holding: from four or more as the Analysis of
    Leads directs; from three or fewer (unless ``long_only``) as a weak suit is
    opened. With trumps declared against the leader his low card may be his
    lowest rather than the fourth-best."""
    def p(m: int) -> bool:
        h = m & ~strip
        if popcount(h) < 4:
            return not long_only and i in cv.weak_leads(h)
        f = cv.first_leads(h, trumps)
        if i in f:
            return True
        return declared and i == low(h)
    return p


def _run_mask(h: int, gone: int, i: int) -> int:
    """The cards of ``h`` equal to ``i`` (a run through gone cards)."""
    lo = seq_low(h | (1 << i), gone, i)
    hi = seq_high(h | (1 << i), gone, i)
    m = 0
    for r in range(lo, hi + 1):
        m |= 1 << r
    return m & h


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


def _winner(cards, n: int, leader, trumps) -> tuple[int, int]:
    """Seat and card heading the trick after its first ``n`` cards."""
    best = cards[0]
    win = 0
    for k in range(1, n):
        c = cards[k]
        s = c // 13
        bs = best // 13
        if (s == bs and c > best) or (trumps is not None and s == trumps and bs != trumps):
            best = c
            win = k
    return (int(leader) + win) % 4, best


def _apply_facts(st: KState, facts, t: int) -> None:
    sup = 1 << t
    for f in facts:
        if f[0] == "play":
            st.fix(f[1], f[2], sup)
        elif f[0] == "turnup":
            st.fix(f[1], f[2], 1)
        else:
            S, s, keep = f[1], f[2], f[3]
            base = S * 13
            for i in range(13):
                if not keep >> i & 1 and st.poss[base + i] >> s & 1:
                    st.remove(base + i, s, sup)


def _snap(st: KState):
    return (st.poss[:], [row[:] for row in st.lens])
