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
from typing import Callable, NamedTuple

from ..cards import Card, Suit
from ..seats import SEATS, Seat
from . import conventions as cv
from .bits import bit, high, low, master, next_live_above, next_live_below, popcount, seq_high, seq_low
from .state import Answers, Contradiction, Frame, KState

LAYERS = ("certain", "presumed", "probable")

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
        """The layer's constraint store after ``trick`` (about the deal)."""
        return self._states[trick - 1][LAYERS.index(layer)]

    def played_count(self, trick: int, seat: Seat, suit: Suit) -> int:
        """Cards of ``suit`` that ``seat`` has played by the end of ``trick``."""
        return self._played[trick - 1][int(seat)][int(suit)]

    def holders(self, trick: int, card: Card, layer: str) -> tuple[Seat, ...]:
        """The seats that may hold ``card`` as dealt, in the layer after ``trick``."""
        mask = self.state_after(trick, layer).poss[int(card)]
        return tuple(s for s in SEATS if mask >> int(s) & 1)

    def remaining(self, trick: int, seat: Seat, suit: Suit, layer: str) -> tuple[int, int]:
        """Fewest and most cards of ``suit`` that ``seat`` still holds after ``trick``."""
        lo, hi = self.state_after(trick, layer).length_range(int(seat), int(suit))
        played = self.played_count(trick, seat, suit)
        return lo - played, hi - played


@dataclass
class Assumption:
    id: int
    trick: int
    seat: int
    suit: int
    rule: str
    layer: int  # 1 presumed, 2 probable
    pred: Callable[[int], bool]  # over the seat's dealt holding of the suit (rank mask)
    active: bool = True
    withdrawn: str | None = None
    #: the predicate names the very card played (so a later signal can show
    #: the card was chosen for another reason); otherwise it speaks of the holding only
    about_card: bool = False
    rank: int = 0  # firmness, see RANK
    card_index: int = -1  # rank index of the card whose play gave the presumption
    memo: Answers = field(default_factory=Answers, repr=False)  # the predicate's answers, kept by the store
    #: a presumption held as probable because its player has departed from rule
    demoted: bool = False


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


class _Seen(NamedTuple):
    """One card of another player, as the presumptions read it."""

    trick: int
    pos: int  # 1 leads, 4 plays last
    seat: int
    card: int
    led: int  # the card led to the trick

    @property
    def suit(self) -> int:
        return self.card // 13

    @property
    def rank(self) -> int:
        return self.card % 13

    @property
    def led_suit(self) -> int:
        return self.led // 13


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

    # -------------------------------------------------- presumptions of one play

    def _presume(self, t: int, pos: int, s: int, c: int, trick_cards, new: list[Assumption]) -> None:
        """The presumptions one card of another player gives, by situation."""
        self._card_now = c % 13
        play = _Seen(t, pos, s, c, trick_cards[0])
        if pos == 1:
            self._presume_lead(play, new)
        elif play.suit == play.led_suit:
            self._presume_follow(play, trick_cards, new)
        elif play.suit == self.trumps:
            self._presume_ruff(play, trick_cards, new)
        else:
            self._presume_discard(play, new)

    def _presume_lead(self, p: _Seen, new: list[Assumption]) -> None:
        t, s, suit, rank = p.trick, p.seat, p.suit, p.rank
        trumps = suit == self.trumps
        strip = self.played[s][suit]
        partner = (s + 2) % 4
        earlier_leads = self.leads[s][suit]
        opener = self.opener[suit]
        left = self.size - t + 1  # cards each hand held before this trick
        self._presume_win_high_lead_low(p, new)
        self._presume_switch_after_return(p, new)
        self._presume_refusal_to_force(p, new)
        if trumps and self.called[partner] and not earlier_leads:
            new.append(self._new(t, s, suit, "answer_to_call_count", 1,
                                 _pred_in(strip, lambda h: cv.answer_call_cards(h), rank)))
        elif opener is None:
            self._presume_opening(p, strip, trumps, left, new)
        elif opener == partner and not earlier_leads:
            gone = self.gone[suit]
            new.append(self._new(t, s, suit, "return_count", 1,
                                 _pred_in(strip, lambda h: cv.return_cards(h, gone, trumps), rank)))
        elif opener == s and earlier_leads:
            self._presume_own_suit_again(p, strip, trumps, new)

    def _presume_win_high_lead_low(self, p: _Seen, new: list[Assumption]) -> None:
        """A player who won the last round of the suit higher than he needed
        and now leads a lower card that would also have won it holds the cards
        between (pp. 113-114)."""
        rounds = self.rounds[p.suit]
        if not rounds:
            return
        last = self.tricks[rounds[-1] - 1]
        won = int(last.winning_card)
        if int(last.winner) != p.seat or won // 13 != p.suit:
            return
        plays = [int(x.card) for x in last.plays]
        if plays.index(won) != 3:
            return  # second and third hands play high for other reasons; the fourth only to win
        beaten = max((c % 13 for c in plays[:plays.index(won)] if c // 13 == p.suit), default=-1)
        if not (beaten < p.rank < won % 13 and p.rank >= 8):
            return  # only a high card led can be the foot of the winner's sequence
        seen = sum(1 << (int(c) % 13) for c in self.hands[SEATS[self.V]] if int(c) // 13 == p.suit)
        need = cv.cards_between(won % 13, p.rank, self.gone[p.suit], seen)
        if need and not need & (need - 1):  # one card between: ace then queen marks the king
            new.append(self._new(p.trick, p.seat, p.suit, "win_high_return_low", 1,
                                 lambda m: m & need == need))
            # the high card won on purpose: not winning cheaply was no departure
            self._withdraw.extend(a for a in self.assumptions if a.trick == rounds[-1] and a.seat == p.seat
                                  and a.suit == p.suit and a.rule == "win_cheaply" and a.active)

    def _presume_switch_after_return(self, p: _Seen, new: list[Assumption]) -> None:
        """A player who returned his partner's suit on his last lead and now
        leads another suit has probably no more of partner's suit: with one he
        would have gone on with it (pp. 79-81; Hand XXXVII, trick 3)."""
        partner = (p.seat + 2) % 4
        last = max(((t, x) for x in range(4) for t, _ in self.leads[p.seat][x]), default=None)
        if last is None:
            return
        _, suit = last
        if suit == p.suit or suit == self.trumps or self.opener[suit] != partner:
            return
        if self.leads[p.seat][suit][0][0] != last[0]:
            return  # only the return itself, not a later lead of the suit
        strip = self.played[p.seat][suit]
        new.append(self._new(p.trick, p.seat, suit, "return_count", 2, lambda m: not m & ~strip))

    def _presume_refusal_to_force(self, p: _Seen, new: list[Assumption]) -> None:
        """A player who could force his partner (lead a plain suit the partner
        has shown out of, while he still holds some) and leads something else
        instead is probably not strong in trumps: three or fewer (pp. 131-133;
        Hand XVI, trick 3). Read once per player."""
        tr, state = self.trumps, self._pres_prev
        if tr is None or p.suit == tr or state is None or self.refused[p.seat]:
            return
        partner = (p.seat + 2) % 4
        for suit in range(4):
            if suit in (tr, p.suit) or not self.rounds[suit]:
                continue
            if self._left(state, partner, suit)[1] > 0 or self._left(state, partner, tr)[1] <= 0:
                continue
            if self._left(state, p.seat, suit)[0] <= 0:
                continue
            self.refused[p.seat] = True
            new.append(self._new(p.trick, p.seat, tr, "force_signals_trump_strength", 2,
                                 lambda m: popcount(m) <= 3))
            return

    def _left(self, state: KState, seat: int, suit: int) -> tuple[int, int]:
        """Fewest and most cards of ``suit`` that ``seat`` still holds, before this trick."""
        if seat == self.V:
            n = sum(1 for c in self.hands[SEATS[seat]] if int(c) // 13 == suit) - popcount(self.played[seat][suit])
            return n, n
        lo, hi = state.length_range(seat, suit)
        n = popcount(self.played[seat][suit])
        return lo - n, hi - n

    def _presume_opening(self, p: _Seen, strip: int, trumps: bool, left: int, new: list[Assumption]) -> None:
        """The first lead of a suit: from strength if it is the player's first
        lead, as the Analysis of Leads or the weak-suit rule directs."""
        t, s, suit, rank = p.trick, p.seat, p.suit, p.rank
        declared = self._declared_against(s)
        rule = "lead_fourth_best" if rank <= 7 else "lead_table"
        if left < 5:
            pass
        elif not self.any_lead[s] or self._opened_low_trump_only(s):
            long_only = not trumps and left >= 8
            # his strongest suit may be one the adversaries have already opened
            # (Hand XXXIII, trick 2): then that he leads from four is only probable
            firm = 2 if rank >= 8 and self._adversary_opened(s) else 1
            if left >= 8 and not trumps:  # a trump lead's length is trump_lead_strength's
                new.append(self._new(t, s, suit, "lead_strongest_suit", firm,
                                     lambda m: popcount(m & ~strip) >= 4))
            if long_only and firm == 2:
                new.append(self._new(t, s, suit, rule, 1, _pred_first(strip, trumps, rank, declared, False)))
            new.append(self._new(t, s, suit, rule, firm, _pred_first(strip, trumps, rank, declared, long_only)))
        else:
            new.append(self._new(t, s, suit, rule, 1, _pred_first(strip, trumps, rank, declared, False)))
        if not trumps and left >= 5:
            new.append(self._new(t, s, suit, "lead_weak_suit_highest", 2,
                                 lambda m: cv.likely_opened(m & ~strip)))
        if trumps and not self.trump_led_by[s]:
            new.append(self._new(t, s, suit, "trump_lead_strength", 2, lambda m: popcount(m & ~strip) >= 4))

    def _adversary_opened(self, s: int) -> bool:
        """Whether an adversary of ``s`` has opened a plain suit before his first lead."""
        return any(self.opener[x] in ((s + 1) % 4, (s + 3) % 4) for x in range(4) if x != self.trumps)

    def _opened_low_trump_only(self, s: int) -> bool:
        """A player whose leads so far are a low trump from strength opens his
        own long suit next, as after an original lead (p. 56, App. A)."""
        tr = self.trumps
        if tr is None or not self.leads[s][tr]:
            return False
        _, first_rank = self.leads[s][tr][0]
        return first_rank <= 7 and all(not self.leads[s][x] for x in range(4) if x != tr)

    def _presume_own_suit_again(self, p: _Seen, strip: int, trumps: bool, new: list[Assumption]) -> None:
        """The second round of a player's own suit (the Analysis of Leads) and
        later rounds (going on with the lowest when he holds no winner)."""
        t, s, suit, rank = p.trick, p.seat, p.suit, p.rank
        earlier_leads = self.leads[s][suit]
        first_trick, first_rank = earlier_leads[0]
        round_no = len(self.rounds[suit]) + 1
        if round_no == 2 and len(earlier_leads) == 1:
            dealt = self._strip_at(s, suit, first_trick)
            first = self.tricks[first_trick - 1]
            won = int(first.winner) == s
            win_card = int(first.winning_card)
            beaten_by = win_card % 13 if (not won and win_card // 13 == suit
                                          and int(first.winner) != (s + 2) % 4) else -1
            queen = suit * 13 + 10
            queen_fell = queen in first.cards and int(first.card_of(SEATS[s])) != queen
            # the American count is not kept when trumps are declared
            # against the leader, nor late in the hand (App. A)
            american = not self._declared_against(s) and t < 8
            rule = ("lead_low_after_high" if (first_rank >= 8 and rank < 8) else
                    "high_after_high_count" if first_rank >= 8 else "lead_table")

            def second_lead_fits(m: int) -> bool:
                allowed = cv.second_leads(m & ~dealt, first_rank, won, beaten_by, queen_fell, trumps, american)
                return allowed is None or rank in allowed
            new.append(self._new(t, s, suit, rule, 1, second_lead_fits))
            if first_rank < 8 and rank >= 8:  # a high card after a low opening
                gone = self.gone[suit]

                def low_opener_goes_on(m: int) -> bool:
                    if cv.second_leads(m & ~dealt, first_rank, won, beaten_by, queen_fell, trumps,
                                       american) is not None:
                        return True  # the Analysis of Leads speaks (above)
                    allowed = cv.continue_after_low_cards(m & ~strip, gone)
                    return allowed is None or rank in allowed
                new.append(self._new(t, s, suit, "continue_own_suit_lowest", 1, low_opener_goes_on))
        if round_no >= 3:
            gone = self.gone[suit]

            def lowest_loser_fits(m: int) -> bool:
                allowed = cv.continue_cards(m & ~strip, gone)
                return allowed is None or rank in allowed
            new.append(self._new(t, s, suit, "continue_own_suit_lowest", 1, lowest_loser_fits))

    def _presume_follow(self, p: _Seen, trick_cards, new: list[Assumption]) -> None:
        """Following suit: second, third or fourth hand, heading the trick or not."""
        t, pos, s, suit, rank = p.trick, p.pos, p.seat, p.suit, p.rank
        strip = self.played[s][suit]
        gone = self.gone[suit]
        win_seat, win_card = _winner(trick_cards, pos - 1, self.tricks[t - 1].leader, self.trumps)
        partner_winning = win_seat == (s + 2) % 4
        trumps_led = p.led_suit == self.trumps
        trumped = win_card // 13 != p.led_suit
        win_rank = win_card % 13
        heading = not trumped and rank > win_rank
        round_no = len(self.rounds[suit])  # the current round is already counted
        led_rank = p.led % 13
        low_firmness = None
        if pos == 2:
            def allowed(h: int) -> frozenset[int]:
                return cv.second_hand_cards(h, gone, led_rank, round_no, trumps_led)
            rule_head = ("second_hand_honour_shows_sequence" if round_no == 1 else
                         "second_hand_second_round_wins" if round_no == 2 else "lowest_of_sequence")
            rule_low = ("second_hand_low" if round_no == 1 else
                        "second_hand_second_round_wins" if round_no == 2 else "follow_lowest_when_not_winning")
            if heading and rank < 8 and round_no == 1:
                rule_head = "second_hand_low"
        elif pos == 3:
            def allowed(h: int) -> frozenset[int]:
                return cv.third_hand_cards(h, gone, led_rank, win_rank, partner_winning, round_no, trumped,
                                           trumps_led)
            rule_head = "third_hand_highest"
            if round_no >= 2:
                low_firmness = 2
            rule_low = ("third_hand_on_honour_led" if (round_no == 1 and partner_winning and led_rank in (9, 8))
                        else "third_hand_highest")
        else:
            def allowed(h: int) -> frozenset[int]:
                return cv.fourth_hand_cards(h, gone, win_rank, partner_winning, trumped)
            rule_head = "win_cheaply"
            rule_low = "fourth_hand_wins_if_able"
        if heading:
            a = self._new(t, s, suit, rule_head, 1, _pred_in(strip, allowed, rank))
            a.about_card = True
            new.append(a)
            if pos == 2 and round_no == 1 and rank >= 8 and led_rank < 9:
                new.append(self._new(t, s, suit, "second_hand_honour_shows_sequence", 2,
                                     lambda m: popcount(m & ~strip) >= 2))
            return
        unblock = self.opener[suit] == (s + 2) % 4 and not trumps_led
        may_call = round_no == 1 and not trumps_led and self._call_open(s)

        def lowest_fits(m: int) -> bool:
            h = m & ~strip
            # in partner's suit a high card may be thrown to unblock it
            return low(h) == rank or (unblock and high(h) == rank)

        def lowest_or_call_fits(m: int) -> bool:
            h = m & ~strip
            return rank in cv.follow_low_or_call(h) or (unblock and high(h) == rank)
        a = self._new(t, s, suit, "follow_lowest_when_not_winning", 1,
                      lowest_or_call_fits if may_call else lowest_fits)
        a.about_card = True
        new.append(a)
        if may_call:  # that it is his lowest, not the start of a call, is only probable
            a = self._new(t, s, suit, "follow_lowest_when_not_winning", 2, lowest_fits)
            a.about_card = True
            new.append(a)
        if (pos == 4 and (partner_winning or trumped)) or (pos == 3 and trumped):
            return  # nothing better was called for

        def could_not_do_better(m: int) -> bool:
            h = m & ~strip
            return low(h) in allowed(h)
        new.append(self._new(t, s, suit, rule_low, 1, could_not_do_better, low_firmness))

    def _presume_ruff(self, p: _Seen, trick_cards, new: list[Assumption]) -> None:
        """Trumping: with the lowest trump that will do, or the lowest of equal ones."""
        t, pos, s, suit, rank = p.trick, p.pos, p.seat, p.suit, p.rank
        strip = self.played[s][suit]
        gone = self.gone[suit]
        _, win_card = _winner(trick_cards, pos - 1, self.tricks[t - 1].leader, self.trumps)
        trump_on = win_card % 13 if win_card // 13 == self.trumps else -1
        rule = "win_cheaply" if (pos == 4 or trump_on >= 0) else "lowest_of_sequence"

        def ruff_fits(m: int) -> bool:
            allowed = cv.ruff_cards(m & ~strip, gone, trump_on, pos)
            return allowed is None or rank in allowed
        a = self._new(t, s, suit, rule, 1, ruff_fits)
        a.about_card = True
        new.append(a)

    def _presume_discard(self, p: _Seen, new: list[Assumption]) -> None:
        """Throwing a high card: the master shows the command of the suit; the
        second best shows it was the last card of the suit."""
        t, s, suit, rank = p.trick, p.seat, p.suit, p.rank
        strip = self.played[s][suit]
        gone = self.gone[suit]
        top = master(gone)
        if rank < 8:
            return
        if rank == top:
            def commands(m: int) -> bool:
                h = m & ~strip
                return _run_mask(h, gone, rank) == h
            new.append(self._new(t, s, suit, "discard_top_shows_command", 1, commands))
        elif top >= 0 and next_live_below(top, gone) == rank and s != self.V:
            def last_or_master(m: int) -> bool:
                h = m & ~strip
                return h == bit(rank) or bool(h >> top & 1)
            new.append(self._new(t, s, suit, "discard_top_shows_command", 1, last_or_master))

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
