"""The conventions of play as functions from a holding to the cards it allows.

This is the generative half of the engine. Each function answers: *given
this holding of one suit and what every player can see, which cards would a
player who follows Cavendish's rules play here?* The engine turns a card
actually played into a constraint ("the holding must be one that allows this
card") and the set of holdings still possible carries the inference. The
simple rule-following player in :mod:`.player` draws its cards from the same
functions, which is how the tests check the engine against a player who keeps
the rules exactly.

Holdings are rank masks (see :mod:`.bits`); every function returns a set of
rank indices, or ``None`` when the rule says nothing about the holding.
"""

from __future__ import annotations

from functools import lru_cache

from .bits import (
    FULL, HONOURS, A, J, K, N8, N9, Q, T, above, below, has, high, holds_master, low,
    master, next_live_above, next_live_below, nth_highest, popcount, seq_high, seq_low,
)


def _bits(m: int):
    while m:
        b = m & -m
        yield b.bit_length() - 1
        m ^= b


# ---------------------------------------------------------------- opening leads

@lru_cache(maxsize=None)
def first_leads(h: int, trumps: bool) -> frozenset[int]:
    """The card(s) the Analysis of Leads prescribes from a suit of four or more
    (American leads: a low card is the original fourth-best)."""
    n = popcount(h)
    if n < 4:
        return weak_leads(h)
    g = lambda r: bool(h >> r & 1)  # noqa: E731
    fourth = nth_highest(h, 4)
    if g(A) and g(K) and g(Q) and g(J):
        return frozenset({J} if trumps else {K})
    if g(A) and g(K) and g(Q):
        return frozenset({Q} if trumps else {K})
    if g(A) and g(K) and g(J):
        return frozenset({K})
    if g(A) and g(K):
        if trumps:
            return frozenset({K} if n >= 7 else {fourth})
        return frozenset({K})
    if g(A) and g(Q) and g(J):
        return frozenset({A})
    if g(A):
        if trumps:
            return frozenset({A} if n >= 7 else {fourth})
        return frozenset({A} if n >= 5 else {fourth})
    if g(K) and g(Q) and g(J) and g(T):
        return frozenset({T})
    if g(K) and g(Q) and g(J):
        return frozenset({J} if n >= 5 else {K})
    if g(K) and g(Q):
        if trumps and not (n >= 7 or g(T)):
            return frozenset({fourth})
        return frozenset({K})
    if g(K) and g(J) and g(T) and g(N9):
        return frozenset({N9})
    if g(K) and g(J) and g(T):
        return frozenset({T})
    if g(Q) and g(J) and g(T):
        return frozenset({Q})
    if g(J) and g(T) and g(N9) and g(N8):
        return frozenset({J, N8})
    if g(J) and g(T) and g(N9):
        return frozenset({J, fourth})
    return frozenset({fourth})


@lru_cache(maxsize=None)
def weak_leads(h: int) -> frozenset[int]:
    """Opening a suit of three cards or fewer (a forced or weak-suit lead)."""
    n = popcount(h)
    if n == 0:
        return frozenset()
    top = high(h)
    if n == 1:
        return frozenset({top})
    if has(h, A) and has(h, K):
        return frozenset({A} if n == 2 else {K})
    if has(h, top - 1):  # headed by a sequence: lead the top of it
        return frozenset({top})
    if top >= Q:  # an unsupported ace, king or queen: lead the lowest
        return frozenset({low(h)})
    return frozenset({top})


def likely_opened(h: int) -> bool:
    """Whether a player would choose to open this suit at all. An ace, king
    or queen with one small card is among the worst suits to open (p. 73),
    and a single king or queen could only fall to the ace, so a player who
    has a choice opens neither (Hand XVI trick 3, Hand XXXVII trick 6)."""
    n = popcount(h)
    top = high(h)
    if n == 1:
        return top not in (K, Q)
    if n == 2 and top >= Q:
        return has(h, top - 1)
    return True


def low_card_first(h: int, trumps: bool) -> bool:
    """True when the prescribed opening card is a low (count-showing) card."""
    f = first_leads(h, trumps)
    return popcount(h) >= 4 and nth_highest(h, 4) in f and len(f) == 1


def second_leads(h0: int, f: int, won: bool, beaten_by: int, queen_fell: bool,
                 trumps: bool, american: bool = True) -> frozenset[int] | None:
    """The card with which a leader continues his suit in its second round.

    ``h0`` is his holding when he opened it with ``f``; ``won`` says whether
    ``f`` took the first round; ``beaten_by`` is the adverse card of the suit
    that took it (-1 if none); ``queen_fell`` whether the queen was played in
    the first round by another player. ``None``: the Analysis says nothing.
    """
    n = popcount(h0)
    if n < 4 or f not in first_leads(h0, trumps):
        return None
    g = lambda r: bool(h0 >> r & 1)  # noqa: E731
    fourth = nth_highest(h0, 4)

    def orig4() -> frozenset[int]:
        if american:
            return frozenset({fourth})
        # the count need not be shown: the fourth-best or the lowest, but not
        # a higher card, which would read as the top of a sequence (Hand XVIII)
        return frozenset({fourth, low(h0)})

    if g(A) and g(K) and g(Q) and g(J):
        return frozenset({A} if trumps else {J})
    if g(A) and g(K) and g(Q):
        if trumps:
            return frozenset({K} if n > 4 else {A})
        return frozenset({Q})
    if g(A) and g(K) and g(J):
        return frozenset({A, J} if queen_fell else {A})
    if g(A) and g(K):
        if f == K:
            return frozenset({A})
        return None
    if g(A) and g(Q) and g(J) and g(T):
        return frozenset({T})
    if g(A) and g(Q) and g(J):
        return frozenset({J} if n > 4 else {Q})
    if g(A):
        return orig4() if f == A else None
    if g(K) and g(Q) and g(J) and g(T):
        if won:
            return frozenset({J} if n > 5 else {Q} if n == 5 else {K})
        if beaten_by == A:
            return frozenset({J, Q} if n > 4 else {Q})
        return None
    if g(K) and g(Q) and g(J):
        if f == J:
            return frozenset({Q} if n > 5 else {K})
        return frozenset({J})
    if g(K) and g(Q):
        if f == K and won:
            return orig4()
        return None
    if g(K) and g(J) and g(T) and g(N9):
        if won:
            return frozenset({T} if n > 4 else {J})
        if beaten_by == Q or queen_fell:
            return frozenset({T} if n > 5 else {J} if n == 5 else {K})
        if beaten_by == A:
            return frozenset({K})
        return None
    if g(K) and g(J) and g(T):
        if won:
            return orig4()
        if beaten_by == Q or queen_fell:
            return frozenset({J} if n > 4 else {K})
        if beaten_by == A:
            return frozenset({K})
        return None
    if g(Q) and g(J) and g(T) and g(N9):
        return frozenset({N9})
    if g(Q) and g(J) and g(T):
        return frozenset({T} if n > 4 else {J})
    if g(J) and g(T) and g(N9) and g(N8):
        if f == J:
            return frozenset({N8})
        return frozenset({N9} if n > 5 else {T} if n == 5 else {J})
    if g(J) and g(T) and g(N9):
        if f == J:
            return frozenset({N9} if n > 4 else {T})
        return None
    return None


def return_cards(h: int, gone: int, trumps: bool) -> frozenset[int]:
    """Returning partner's suit: the higher of two, the lowest of three or more;
    the winning card whatever the length; in a plain suit the higher of the
    second- and third-best."""
    n = popcount(h)
    top = high(h)
    if n <= 1:
        return frozenset({top}) if n else frozenset()
    out = {top if n == 2 else low(h)}
    m = master(gone)
    if m >= 0 and has(h, m):
        if trumps:
            # returning partner's trumps with the best one left, a player
            # draws with it rather than leading a small one (Hand XIII, trick 3)
            return frozenset({m, seq_low(h, gone, m)})
        out.add(m)
        out.add(seq_low(h, gone, m))
    elif not trumps and m >= 0:
        second = next_live_below(m, gone)
        third = next_live_below(second, gone) if second >= 0 else -1
        if second >= 0 and third >= 0 and has(h, second) and has(h, third):
            out.add(second)
    return frozenset(out)


def continue_cards(h: int, gone: int) -> frozenset[int] | None:
    """Going on with one's own suit holding only losing cards: the lowest."""
    if not h or holds_master(h, gone):
        return None
    return frozenset({low(h)})


def continue_after_low_cards(h: int, gone: int) -> frozenset[int] | None:
    """The second round of a suit opened with a low card, holding no winner
    of it: the lowest (p. 112), or the top of a sequence headed by the ten
    or higher, led to drive out the higher cards (p. 60)."""
    if not h or holds_master(h, gone):
        return None
    out = {low(h)}
    for r in range(T, 13):
        if h >> r & 1 and next_live_below(r, gone) >= 0 and h >> next_live_below(r, gone) & 1:
            up = next_live_above(r, gone)
            if up < 0 or not h >> up & 1:
                out.add(r)
    return frozenset(out)


def answer_call_cards(h: int, trumps: bool = True) -> frozenset[int]:
    """Leading trumps in answer to partner's call: the lowest from four or
    more (the top with the ace, three honours or queen-knave-ten); the highest
    from three or fewer."""
    n = popcount(h)
    if n == 0:
        return frozenset()
    strong_top = has(h, A) or popcount(h & HONOURS) >= 3 or (has(h, Q) and has(h, J) and has(h, T))
    if n >= 4:
        if strong_top:
            return frozenset({high(h)}) | first_leads(h, True)
        return frozenset({low(h)})
    return frozenset({high(h)})


# ---------------------------------------------------------------- following

@lru_cache(maxsize=1 << 16)
def second_hand_cards(h: int, gone: int, led: int, rnd: int, trumps: bool) -> frozenset[int]:
    """Second hand: low, unless holding one of the combinations that are put
    on (first round); the best card in the second round of a plain suit."""
    L = low(h)
    beat = h & above(led)
    if not beat:
        return frozenset({L})
    n = popcount(h)
    if rnd == 1:
        if led >= J:  # an honour led: the ace goes on it; otherwise cover or pass
            if has(h, A) and led != A:
                return frozenset({seq_low(h, gone, A, led)})
            return frozenset({L, seq_low(h, gone, low(beat), led)})
        g = lambda r: bool(h >> r & 1)  # noqa: E731
        covers: set[int] = set()
        low_ok = True
        if g(A) and g(K):
            covers.add(seq_low(h, gone, A, led))
            low_ok = trumps
        elif g(K) and g(Q):
            covers.add(seq_low(h, gone, K, led))
            low_ok = trumps and not (g(J) or g(T) or n == 3)
        elif g(A) and g(Q) and g(J):
            covers.add(seq_low(h, gone, Q, led))
            low_ok = False
        elif g(K) and g(J) and g(T):
            covers.add(seq_low(h, gone, J, led))
            low_ok = False
        elif g(Q) and g(J) and g(T):
            covers.add(seq_low(h, gone, Q, led))
            low_ok = False
        elif g(J) and g(T) and g(N9):
            covers.add(seq_low(h, gone, J, led))
            low_ok = False
        elif g(A) and g(Q) and g(T):
            covers.add(seq_low(h, gone, T, led))
            if not trumps:
                covers.add(Q)
            low_ok = False
        elif g(A) and g(J) and g(T):
            covers.add(seq_low(h, gone, T, led))
            low_ok = not trumps
        elif g(A) and g(Q):
            if not trumps and n >= 5:
                covers.add(Q)
        if low_ok and n <= 3:
            for top in (Q, J, T):
                if g(top) and g(top - 1):
                    covers.add(seq_low(h, gone, top, led))
                    low_ok = False
                    break
        if n == 2 and (trumps and high(h) >= J or (led == N9 and g(K))):
            covers.add(high(h))
        covers = {c for c in covers if c > led}
        if low_ok or not covers:
            covers.add(L)
        return frozenset(covers)
    out = {L}
    m = master(gone)
    if m >= 0 and has(h, m):
        ms = seq_low(h, gone, m, led)
        if not trumps and rnd == 2:
            return frozenset({ms})
        out.add(ms)
    if led >= J:
        out.update(seq_low(h, gone, c, led) for c in _bits(beat))
    return frozenset(out)


@lru_cache(maxsize=1 << 16)
def third_hand_cards(h: int, gone: int, led: int, w: int, w_partner: bool, rnd: int,
                     w_trumped: bool, trumps: bool = False) -> frozenset[int]:
    """Third hand: high (the lowest of his top sequence, or the A-Q finesse),
    cheapest over a second-hand card that wins, lowest when he cannot head the
    trick or his partner's card is as good as his own (in a plain suit he may
    instead throw his top card to unblock partner's suit, pp. 96-101; in
    trumps he does not overtake, so a king put on partner's queen was single,
    Hand XXXVIII, trick 7)."""
    L = low(h)
    if w_trumped:
        return frozenset({L})
    n = popcount(h)
    top = high(h)
    if w_partner:
        live_above = FULL & ~gone & above(w) & ~h
        if not live_above:
            return frozenset({L, top}) if top > w and not trumps else frozenset({L})
    beat = h & above(w)
    if not beat:
        return frozenset({L})
    if rnd == 1 and w_partner and led == J:
        if has(h, A):
            return frozenset({seq_low(h, gone, A, w)} if n <= 2 else {L})
    if rnd == 1 and w_partner and led == T and has(h, A):
        return frozenset({seq_low(h, gone, A, w)})
    t = seq_low(h, gone, top, w)
    out = {t}
    if master(gone) == seq_high(h, gone, top):
        # the ace-queen finesse: one live card between his top sequence and his
        # next card; in the first round he takes it
        gap = next_live_below(t, gone)
        nxt = next_live_below(gap, gone) if gap >= 0 else -1
        if nxt >= 0 and has(h, nxt) and nxt > w:
            out.add(seq_low(h, gone, nxt, w))
            if rnd == 1:
                out.discard(t)
    if rnd >= 2:
        out.update(seq_low(h, gone, c, w) for c in _bits(beat))
    if not w_partner and w >= T:
        # second hand has put on a high card: win it as cheaply as possible
        out.add(seq_low(h, gone, low(beat), w))
    if rnd == 1 and w_partner and led >= T and led != J:
        out.add(L)
    return frozenset(out)


@lru_cache(maxsize=1 << 16)
def fourth_hand_cards(h: int, gone: int, w: int, w_partner: bool, w_trumped: bool) -> frozenset[int]:
    """Fourth hand: win as cheaply as he can, else play his lowest."""
    L = low(h)
    if w_partner or w_trumped:
        return frozenset({L})
    beat = h & above(w)
    if not beat:
        return frozenset({L})
    return frozenset({seq_low(h, gone, low(beat), w)})


def ruff_cards(t: int, gone: int, w_trump: int, pos: int) -> frozenset[int] | None:
    """Trumping a plain-suit lead: fourth hand trumps with his lowest trump, or
    overtrumps as cheaply as he can; anyone trumps with the lowest of equal
    trumps. ``w_trump`` is the trump already on the trick (-1 if none)."""
    if not t:
        return None
    if w_trump < 0:
        if pos == 4:
            return frozenset({low(t)})
        return frozenset(seq_low(t, gone, c) for c in _bits(t))
    beat = t & above(w_trump)
    if not beat:
        return None
    if pos == 4:
        return frozenset({seq_low(t, gone, low(beat), w_trump)})
    return frozenset(seq_low(t, gone, c, w_trump) for c in _bits(beat))


def cards_between(won: int, led: int, gone: int, seen: int) -> int:
    """Win high, lead lower (pp. 113-114): a player who won a round with ``won``
    when a lower card would have done, and then leads ``led``, a lower card
    that would also have won, holds every live card between the two (``gone``:
    cards played; ``seen``: cards known to be elsewhere). The mask he must hold."""
    return FULL & above(led) & below(won) & ~gone & ~seen


# ---------------------------------------------------------------- trump strength

def call_strength(t: int) -> bool:
    """Strength that justifies asking for trumps: four with two honours, or five
    with one."""
    n = popcount(t)
    hon = popcount(t & HONOURS)
    return (n >= 4 and hon >= 2) or (n >= 5 and hon >= 1)


def follow_low_or_call(h: int) -> frozenset[int]:
    """A card that does not head the trick, in a plain suit, from a player
    who may still call for trumps: his lowest, or the card above it as the
    first card of a call (pp. 125-127). Which one it is shows only when the
    lower card comes."""
    if not h:
        return frozenset()
    rest = h & (h - 1)
    return frozenset({low(h), low(rest)} if rest else {low(h)})


__all__ = [
    "follow_low_or_call", "first_leads", "weak_leads", "second_leads", "return_cards", "continue_cards",
    "answer_call_cards", "continue_after_low_cards", "second_hand_cards", "third_hand_cards", "fourth_hand_cards",
    "ruff_cards", "call_strength", "low_card_first", "cards_between", "likely_opened",
]
