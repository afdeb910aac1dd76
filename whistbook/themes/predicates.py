"""The themes' predicates: a decision seen from the player's chair
(:class:`Spot`) and, for each theme, the cards that would be its play there
and the cards a plain player would choose instead (see :mod:`whistbook.themes`)."""

from __future__ import annotations

from typing import Any, Iterable

from ..cards import Card, Suit
from ..inference.bits import FULL, above, high, low, master, popcount, seq_high, seq_low
from ..judgement.position import Decision, Table, choices_at
from ..seats import SEATS, Seat

#: what a predicate returns: the theme's cards here, the plain player's cards, and the rule it saw
Found = tuple[frozenset[Card], frozenset[Card], str]
NOTHING: Found = (frozenset(), frozenset(), "")


class Spot:
    """A decision seen from the player's chair, for the predicates: his cards
    by suit (rank masks), the cards gone (the trick so far included), the suit
    led and the card heading the trick, and the public history (``view``: a
    :class:`~whistbook.inference.SeatView`, presumptions not needed)."""

    def __init__(self, table: Table, d: Decision, view: Any) -> None:
        self.table, self.d, self.view = table, d, view
        self.seat = d.seat
        self.T = None if table.trumps is None else int(table.trumps)
        self.held = [0, 0, 0, 0]
        for c in d.hand:
            self.held[int(c.suit)] |= 1 << (c.rank - 2)
        self.gone = tuple(view.gone)  # the cards of the trick so far are in it
        self.pos = d.index + 1
        self.led = int(d.trick_so_far[0].suit) if d.trick_so_far else None
        self.cards_left = table.size - d.trick + 1
        self.win_seat, self.win_card = _heading(d, table.trumps)
        #: whether the player has thrown a plain card on another suit before (his own
        #: discards are not in his view's record, which notes what others show)
        self.has_discarded = any(
            p.seat == d.seat and p.card.suit != t.plays[0].card.suit and p.card.suit != table.trumps
            for t in table.tricks[:d.trick - 1] for p in t.plays)

    # ---------------------------------------------------------------- helpers
    def card(self, S: int, i: int) -> Card:
        return Card(Suit(S), i + 2)

    def cards_of(self, S: int, mask: int) -> frozenset[Card]:
        return frozenset(self.card(S, i) for i in range(13) if mask >> i & 1)

    def live(self, S: int) -> int:
        """Cards of ``S`` still out in the other hands (not gone, not the player's)."""
        return FULL & ~self.gone[S] & ~self.held[S]

    def master(self, S: int) -> int:
        """The best card of ``S`` not yet played (-1 if none)."""
        return master(self.gone[S])

    def group_of(self, S: int, i: int) -> int:
        """The player's cards equal to his card ``i`` of ``S`` (no live card between)."""
        held, gone = self.held[S], self.gone[S]
        lo, hi = seq_low(held, gone, i), seq_high(held, gone, i)
        return held & ((1 << hi + 1) - (1 << lo))

    @property
    def partner_heads(self) -> bool:
        return self.win_seat == self.seat.partner

    @property
    def trumped(self) -> bool:
        return self.win_card is not None and self.led is not None and int(self.win_card.suit) != self.led

    def void_now(self, seat: Seat, S: int) -> bool:
        """Whether ``seat`` is known (for certain) to hold no card of ``S`` now."""
        if seat == self.seat:
            return not self.held[S]
        st = self.view.layers["certain"]
        return st.lens[int(seat)][S] == 1 << popcount(self.view.played[int(seat)][S])

    def trumps_held(self) -> int:
        return popcount(self.held[self.T]) if self.T is not None else 0

    def dealt(self, S: int) -> int:
        """How many cards of ``S`` the player was dealt."""
        return sum(1 for c in self.table.hands[self.seat] if int(c.suit) == S)

    def declared_against(self) -> bool:
        """Whether an adversary has led trumps or called for them."""
        v = self.view
        return any(v.trump_led_by[int(o)] or v.called[int(o)] for o in (self.seat.lho, self.seat.partner.lho))

    def partner_asked(self) -> bool:
        p = int(self.seat.partner)
        return bool(self.view.trump_led_by[p] or self.view.called[p])


def _heading(d: Decision, trumps: Suit | None) -> tuple[Seat | None, Card | None]:
    if not d.trick_so_far:
        return None, None
    best, k = d.trick_so_far[0], 0
    for i, c in enumerate(d.trick_so_far[1:], 1):
        if (c.suit == best.suit and c.rank > best.rank) or (trumps is not None and c.suit == trumps
                                                           and best.suit != trumps):
            best, k = c, i
    s = d.leader
    for _ in range(k):
        s = s.lho
    return s, best


def _found(theme_cards: Iterable[Card], plain: Iterable[Card], rule: str) -> Found:
    tc = frozenset(theme_cards)
    return (tc, frozenset(plain) - tc, rule) if tc else NOTHING


# ======================================================================== predicates

def finesse(s: Spot) -> Found:
    """Third hand (or second, with a ten or better) tries to win with the card
    below a gap in his top cards, a live card lying between it and his best
    (the queen from ace-queen; pp. 92-95)."""
    if s.pos not in (2, 3) or s.led is None or not s.held[s.led] or s.trumped:
        return NOTHING
    S, h = s.led, s.held[s.led]
    top = s.group_of(S, high(h))
    rest = h & ~top
    if not rest or not s.live(S) & ((1 << low(top)) - 1) & ~((2 << high(rest)) - 1):
        return NOTHING  # nothing below his top cards, or no live card in the gap
    w = s.win_card.rank - 2
    heads = s.group_of(S, high(rest)) & ~((2 << w) - 1)
    if not heads or (s.pos == 2 and low(heads) < 8):
        return NOTHING  # it must head the trick; second hand finesses only with a ten or better
    card = low(heads)
    return _found([s.card(S, card)], [s.card(S, low(top))],
                  "finesse_third_hand" if s.pos == 3 else "finesse_second_hand")


def underplay(s: Spot) -> Found:
    """Keeping back the best card: leading a low card of a suit already opened
    while holding its best, or letting an adversary's card win while holding a
    card that beats it (holding up; pp. 101-103)."""
    if s.pos == 1:
        out, plain = [], []
        for S in range(4):
            h, m = s.held[S], s.master(S)
            if popcount(h) < 2 or m < 0 or not h >> m & 1 or not s.view.rounds[S]:
                continue
            top = s.group_of(S, m)
            out += s.cards_of(S, h & ~top)
            plain += s.cards_of(S, top)
        return _found(out, plain, "underplay_lead")
    if s.led is None or not s.held[s.led] or s.trumped or s.partner_heads:
        return NOTHING
    S, h = s.led, s.held[s.led]
    w = s.win_card.rank - 2
    beats = h & above(w)
    m = s.master(S)
    if not beats or m < 0 or not h >> m & 1 or not h & ~above(w):
        return NOTHING
    return _found(s.cards_of(S, h & ~above(w)), s.cards_of(S, beats), "hold_up")


def _first_trump_lead(s: Spot) -> bool:
    T = s.T
    return (s.pos == 1 and T is not None and bool(s.held[T]) and not s.view.trump_led_by[int(s.seat)]
            and not s.partner_asked())


def _trump_lead(s: Spot, strong: bool) -> Found:
    if not _first_trump_lead(s):
        return NOTHING
    n = s.trumps_held()
    long_suit = any(s.dealt(S) >= 4 for S in range(4) if S != s.T)
    if (n >= 5 or (n >= 4 and long_suit)) != strong:
        return NOTHING
    rule = ("trump_lead_five" if n >= 5 else "trump_lead_four") if strong else "trump_lead_defensive"
    others = [c for c in s.d.legal if int(c.suit) != s.T]
    return _found(s.cards_of(s.T, s.held[s.T]), others, rule)


def trump_lead_strength(s: Spot) -> Found:
    """Trumps led from five or more, or from four with a suit of four or more
    cards to bring in (pp. 119-124; Hands I and II)."""
    return _trump_lead(s, True)


def trump_lead_defence(s: Spot) -> Found:
    """The forced trump lead: trumps led without the strength for it, because
    every plain suit would be opened to the adversaries' advantage (Hand XX)."""
    return _trump_lead(s, False)


def force_strong(s: Spot) -> Found:
    """Leading a suit the strong trump hand of the adversaries must trump (p. 131)."""
    if s.pos != 1 or s.T is None:
        return NOTHING
    out, plain = [], []
    for adv in (s.seat.lho, s.seat.partner.lho):
        strong = s.view.trump_led_by[int(adv)] or s.view.called[int(adv)]
        if not strong or s.void_now(adv, s.T):
            continue
        for S in range(4):
            if S != s.T and s.held[S] and s.void_now(adv, S) and not s.void_now(s.seat.partner, S):
                out += s.cards_of(S, s.held[S])
    if not out:
        return NOTHING
    plain = [c for c in s.d.legal if c not in out]
    return _found(out, plain, "force_strong_hand")


def refuse_force_partner(s: Spot) -> Found:
    """Weak in trumps, a player does not lead the suit his partner must trump (p. 132)."""
    if s.pos != 1 or s.T is None or s.trumps_held() >= 4:
        return NOTHING
    p = s.seat.partner
    if s.void_now(p, s.T) or s.partner_asked():
        return NOTHING
    forcing = [S for S in range(4) if S != s.T and s.held[S] and s.void_now(p, S)
               and not all(s.void_now(a, S) for a in (s.seat.lho, p.lho))]
    if not forcing:
        return NOTHING
    plain = [c for c in s.d.legal if int(c.suit) in forcing]
    out = [c for c in s.d.legal if int(c.suit) not in forcing]
    return _found(out, plain, "refuse_to_force_partner")


def _first_discard(s: Spot) -> bool:
    return (s.pos > 1 and s.led is not None and not s.held[s.led] and not s.has_discarded)


def _discard_worth(s: Spot, S: int) -> tuple[bool, int, int]:
    v = s.view
    return (v.opener[S] in (s.seat, s.seat.partner), popcount(s.held[S]), high(s.held[S]))


def _discards(s: Spot, strongest: bool, rule: str) -> Found:
    plain_suits = [S for S in range(4) if S != s.T and s.held[S]]
    if len(plain_suits) < 2:
        return NOTHING
    pick = (max if strongest else min)(plain_suits, key=lambda S: _discard_worth(s, S))
    chosen = [S for S in plain_suits if _discard_worth(s, S) == _discard_worth(s, pick)]
    out = [s.card(S, low(s.held[S])) for S in chosen]
    plain = [c for c in s.d.legal if int(c.suit) != s.T and int(c.suit) not in chosen]
    return _found(out, plain, rule)


def discard_weak(s: Spot) -> Found:
    """The first discard from the weakest suit, trumps not declared against the player (p. 104)."""
    if not _first_discard(s) or s.declared_against():
        return NOTHING
    return _discards(s, False, "original_discard_weakest")


def discard_strong(s: Spot) -> Found:
    """With great strength in trumps declared against him, the first discard
    from the best protected suit (pp. 105-106)."""
    if not _first_discard(s) or not s.declared_against():
        return NOTHING
    return _discards(s, True, "original_discard_best_protected")


def unblock(s: Spot) -> Found:
    """In partner's suit, a high card played to get out of its way: thrown under
    his winning card, or winning it over him, when a lower card would do (pp. 96-101)."""
    if s.pos == 1 or s.led is None or s.led == s.T or not s.held[s.led] or s.trumped:
        return NOTHING
    S, h = s.led, s.held[s.led]
    if s.view.opener[S] != s.seat.partner or popcount(h) < 2:
        return NOTHING
    top = high(h)
    if top < 8 or s.group_of(S, top) & 1 << low(h):
        return NOTHING  # only a ten or better, and not when all his cards are one
    if not s.partner_heads:
        return NOTHING
    return _found([s.card(S, top)], s.cards_of(S, 1 << low(h)), "unblock_partners_suit")


def _void_play(s: Spot) -> bool:
    return (s.pos > 1 and s.led is not None and s.T is not None and s.led != s.T and not s.held[s.led]
            and bool(s.held[s.T]) and any(s.held[S] for S in range(4) if S != s.T))


def grand_coup(s: Spot) -> Found:
    """Getting rid of a trump too many: trumping partner's winning card, or
    trumping under an adversary's trump, when a plain card could be thrown (pp. 151-155)."""
    if not _void_play(s):
        return NOTHING
    t = s.held[s.T]
    discards = [c for c in s.d.legal if int(c.suit) != s.T]
    if s.partner_heads and not s.trumped:
        # partner's card must be the best left of its suit: trumping it gains no trick, it sheds a trump
        w = s.win_card.rank - 2
        if s.live(s.led) & ~((2 << w) - 1):
            return NOTHING
        return _found([s.card(s.T, low(t))], discards, "ruff_partners_winner")
    if s.trumped:
        under = t & ~above(s.win_card.rank - 2)
        if under:
            rule = "underruff_partner" if s.partner_heads else "underruff"
            return _found(s.cards_of(s.T, under), discards, rule)
    return NOTHING


def refuse_overtrump(s: Spot) -> Found:
    """Declining to overtrump the adversary, to keep the trumps for later (pp. 130, 143-147)."""
    if not _void_play(s) or not s.trumped or s.partner_heads:
        return NOTHING
    over = s.held[s.T] & above(s.win_card.rank - 2)
    if not over:
        return NOTHING
    discards = [c for c in s.d.legal if int(c.suit) != s.T]
    return _found(discards, s.cards_of(s.T, over), "refuse_to_overtrump")


def tenace(s: Spot) -> Found:
    """In the ending, a player on lead with a major tenace (the best and the
    third best card of a suit) leads another suit, leaving the adversary to
    lead up to it (pp. 146-151; Clay)."""
    if s.pos != 1 or s.cards_left > 6:
        return NOTHING
    for S in range(4):
        h, m = s.held[S], s.master(S)
        if m < 0 or not h >> m & 1:
            continue
        top = s.group_of(S, m)
        live_below = s.live(S) & ((1 << low(top)) - 1)
        if not live_below:
            continue
        second = high(live_below)  # the adversaries' best, below his
        mine_below = h & ((1 << second) - 1)
        if not mine_below:
            continue
        third = high(mine_below)
        if s.live(S) & ((1 << second) - 1) & ~((2 << third) - 1):
            continue  # a live card between: not the third best
        others = [c for c in s.d.legal if int(c.suit) != S]
        return _found(others, s.cards_of(S, h), "tenace_kept")
    return NOTHING


def counting(s: Spot) -> Found:
    """A card the conventions would not play, chosen on a count of the hands:
    the player knows for certain how the suit played lies among the others."""
    from ..judgement.principle import principle

    if s.cards_left < 3:
        return NOTHING
    p = principle(s.table, s.d, s.view)
    if p.silent:
        return NOTHING
    groups = choices_at(s.table, s.d)
    off = [c for c in s.d.legal if not p.allows(c, groups)]
    counted = []
    for c in off:
        S = int(c.suit)
        if all(s.void_now(o, S) or _length_known(s, o, S) for o in SEATS if o != s.seat):
            counted.append(c)
    return _found(counted, p.cards, "departure_on_a_count")


def _length_known(s: Spot, seat: Seat, S: int) -> bool:
    lm = s.view.layers["certain"].lens[int(seat)][S]
    return lm != 0 and not lm & (lm - 1)
