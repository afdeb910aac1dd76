"""Holdings of one suit as 13-bit masks.

Bit ``i`` stands for rank ``i + 2``: bit 0 is the two, bit 12 the ace. A
card (an ``int`` 0..51, suit-major) has suit ``c // 13`` and bit ``c % 13``.
Every convention in :mod:`.conventions` is written with these masks so that
testing a holding against a rule is a few integer operations.

``gone`` is always the mask of cards of the suit that every player knows are
out of play at that moment (played earlier, or in the current trick before
the player's turn). Two cards are *equal* for a player when every card
between them is gone or in his own hand.
"""

from __future__ import annotations

FULL = (1 << 13) - 1
A, K, Q, J, T, N9, N8 = 12, 11, 10, 9, 8, 7, 6
HONOURS = (1 << A) | (1 << K) | (1 << Q) | (1 << J)


def bit(i: int) -> int:
    return 1 << i


popcount = int.bit_count  # a C call, no Python frame (it is called very often)


def low(m: int) -> int:
    """Index of the lowest card (``-1`` for an empty mask)."""
    return (m & -m).bit_length() - 1


def high(m: int) -> int:
    return m.bit_length() - 1


def has(m: int, i: int) -> bool:
    return bool(m >> i & 1)


def above(i: int) -> int:
    """Mask of the ranks strictly above ``i``."""
    return FULL & ~((2 << i) - 1)


def below(i: int) -> int:
    """Mask of the ranks strictly below ``i``."""
    return (1 << i) - 1


def nth_highest(m: int, n: int) -> int:
    """Index of the ``n``-th highest card (1-based); -1 when there are fewer."""
    for _ in range(n - 1):
        if not m:
            return -1
        m &= ~(1 << high(m))
    return high(m) if m else -1


def next_live_below(i: int, gone: int) -> int:
    """The highest rank below ``i`` that is not gone (-1 if none)."""
    j = i - 1
    while j >= 0 and gone >> j & 1:
        j -= 1
    return j


def next_live_above(i: int, gone: int) -> int:
    j = i + 1
    while j <= 12 and gone >> j & 1:
        j += 1
    return j if j <= 12 else -1


def seq_low(h: int, gone: int, i: int, floor: int = -1) -> int:
    """The lowest card of ``h`` equal to card ``i`` (walking down through gone
    cards), never going down to ``floor`` or below: a card still on the table
    in the current trick must be beaten, even though it is gone for later."""
    while True:
        j = next_live_below(i, gone)
        if j > floor and h >> j & 1:
            i = j
        else:
            return i


def seq_high(h: int, gone: int, i: int) -> int:
    while True:
        j = next_live_above(i, gone)
        if j >= 0 and h >> j & 1:
            i = j
        else:
            return i


def master(gone: int) -> int:
    """Index of the best card of the suit still in play (-1 if none)."""
    live = FULL & ~gone
    return high(live) if live else -1


def holds_master(h: int, gone: int) -> bool:
    m = master(gone)
    return m >= 0 and bool(h >> m & 1)


def ranks_text(m: int) -> str:
    return " ".join("23456789TJQKA"[i] for i in range(12, -1, -1) if m >> i & 1)


def mask_of(text: str) -> int:
    """``mask_of("AQ5")`` — for tests and tables."""
    m = 0
    for ch in text.replace(" ", ""):
        m |= 1 << "23456789TJQKA".index(ch.upper())
    return m
