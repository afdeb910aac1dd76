"""A simple player who keeps the conventions, for testing the engine.

:func:`play_deal` plays a whole deal. Every card is drawn from the same
functions the engine reads the play with (:mod:`.conventions`), choosing at
random where the rules leave a choice. The player never signals: no calls,
no echoes, no false cards. Played by four such players, a deal should give
the engine no presumption that the deal contradicts, which is what the
soundness tests check. :func:`random_play` is the opposite: any legal card.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..cards import Card, Suit
from ..play import legal_plays, winner_of
from ..seats import SEATS, Seat
from . import conventions as cv
from .bits import low, popcount


def _mask(cards, S: int) -> int:
    m = 0
    for c in cards:
        if int(c) // 13 == S:
            m |= 1 << (int(c) % 13)
    return m


def _card(S: int, i: int) -> Card:
    return Card(Suit(S), i + 2)


class _Table:
    """The public history, as the engine keeps it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.gone = [0, 0, 0, 0]
        self.rounds = [0, 0, 0, 0]
        self.opener: list[int | None] = [None] * 4
        self.leads: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.any_lead = [False] * 4
        self.trump_led_by = [0] * 4
        self.first_round: dict[int, tuple[int, ...]] = {}  # suit -> trick cards of its first round
        self.first_winner: dict[int, int] = {}
        self.first_win_card: dict[int, int] = {}
        self.h0: dict[tuple[int, int], int] = {}  # holding when a player first led a suit


def _lead(hand: list[Card], s: int, tb: _Table, trumps: int | None, t: int, rng: random.Random) -> Card:
    partner = (s + 2) % 4
    options: list[Card] = []
    # 1. return partner's suit
    for S in range(4):
        h = _mask(hand, S)
        if h and tb.opener[S] == partner and not tb.leads.get((s, S)):
            options += [_card(S, i) for i in cv.return_cards(h, tb.gone[S], S == trumps)]
    if options and rng.random() < 0.8:
        return rng.choice(options)
    # 2. go on with his own suit
    own: list[Card] = []
    for S in range(4):
        h = _mask(hand, S)
        prev = tb.leads.get((s, S), [])
        if not h or tb.opener[S] != s or not prev:
            continue
        rnd = tb.rounds[S] + 1
        if rnd == 2 and len(prev) == 1:
            first_t, f = prev[0]
            r1 = tb.first_round[S]
            won = tb.first_winner[S] == s
            wc = tb.first_win_card[S]
            beaten_by = -1
            if not won and tb.first_winner[S] != partner and wc // 13 == S:
                beaten_by = wc % 13
            queen_fell = (S * 13 + 10) in r1 and r1[0] != S * 13 + 10
            h0 = tb.h0[(s, S)]
            res = cv.second_leads(h0, f, won, beaten_by, queen_fell, S == trumps, True)
            if res is not None:
                own += [_card(S, i) for i in res if h >> i & 1]
                continue
        if rnd >= 3:
            res = cv.continue_cards(h, tb.gone[S])
            if res is not None:
                own += [_card(S, i) for i in res if h >> i & 1]
                continue
        own += [_card(S, i) for i in range(13) if h >> i & 1]
    if own and rng.random() < 0.5:
        return rng.choice(own)
    # 3. open a new suit as the Analysis of Leads directs
    fresh: list[Card] = []
    room = tb.size - t + 1 >= 5
    # after opening with a low trump a player opens his own long suit next,
    # which the engine reads as an original lead
    trump_leads = tb.leads.get((s, trumps), []) if trumps is not None else []
    first = not tb.any_lead[s] or (
        bool(trump_leads) and trump_leads[0][1] <= 7
        and all(not tb.leads.get((s, S)) for S in range(4) if S != trumps))
    for S in range(4):
        h = _mask(hand, S)
        if not h or tb.opener[S] is not None:
            continue
        n = popcount(h)
        if S == trumps and n < 4:
            continue
        if room and first and n < 4 and tb.size - t + 1 >= 8:
            continue
        if room:
            fresh += [_card(S, i) for i in cv.first_leads(h, S == trumps) if h >> i & 1]
        else:
            fresh += [_card(S, i) for i in range(13) if h >> i & 1]
    if fresh:
        return rng.choice(fresh)
    # 4. anything the rules do not speak about: a suit the adversaries opened
    free = [c for c in hand if tb.opener[c.suit] is not None and tb.opener[c.suit] != partner
            and tb.opener[c.suit] != s]
    if free:
        return rng.choice(free)
    pool = own + options
    if pool:
        return rng.choice(pool)
    # a suit nobody has led, opened as a short suit is (the engine reads it so)
    late: list[Card] = []
    for S in range(4):
        h = _mask(hand, S)
        if h and tb.opener[S] is None:
            ok = cv.first_leads(h, S == trumps) if room else range(13)
            late += [_card(S, i) for i in ok if h >> i & 1]
        elif h and tb.opener[S] == partner:
            late += [_card(S, i) for i in range(13) if h >> i & 1]
    return rng.choice(late or hand)


def _follow(hand: list[Card], s: int, trick: list[int], leader: int, tb: _Table, trumps: int | None,
            rng: random.Random) -> Card:
    pos = len(trick) + 1
    LS = trick[0] // 13
    # the card heading the trick so far
    best = trick[0]
    wk = 0
    for k in range(1, len(trick)):
        c = trick[k]
        if (c // 13 == best // 13 and c > best) or (trumps is not None and c // 13 == trumps and best // 13 != trumps):
            best, wk = c, k
    w_seat = (leader + wk) % 4
    w_partner = w_seat == (s + 2) % 4
    h = _mask(hand, LS)
    gone = tb.gone[LS]
    if h:
        w_trumped = best // 13 != LS
        w_i = best % 13
        rnd = tb.rounds[LS]
        if pos == 2:
            acc = cv.second_hand_cards(h, gone, trick[0] % 13, rnd, LS == trumps)

        elif pos == 3:
            acc = cv.third_hand_cards(h, gone, trick[0] % 13, w_i, w_partner, rnd, w_trumped, LS == trumps)
        else:
            acc = cv.fourth_hand_cards(h, gone, w_i, w_partner, w_trumped)
        beats = lambda i: not w_trumped and i > w_i  # noqa: E731
        if tb.opener[LS] == (s + 2) % 4 and LS != trumps:
            # the engine reads a high card here as unblocking; keep to the lowest
            acc = {i for i in acc if beats(i) or i == low(h)}
        acc = [i for i in acc if h >> i & 1] or [low(h)]
        return _card(LS, rng.choice(acc))
    # void: trump (cheaply) or discard
    t_mask = _mask(hand, trumps) if trumps is not None else 0
    if t_mask and not w_partner and rng.random() < 0.8:
        w_trump = best % 13 if best // 13 == trumps else -1
        res = cv.ruff_cards(t_mask, tb.gone[trumps], w_trump, pos)
        if res is not None:
            return _card(trumps, low(t_mask) if w_trump < 0 else min(res))
    # discard the lowest card of some plain suit (never a high card: that could read as command)
    suits = [S for S in range(4) if S != trumps and _mask(hand, S)]
    if not suits:
        w_trump = best % 13 if best // 13 == trumps else -1
        res = cv.ruff_cards(t_mask, tb.gone[trumps], w_trump, pos)
        return _card(trumps, min(res) if res and w_trump >= 0 else low(t_mask))
    S = rng.choice(suits)
    return _card(S, low(_mask(hand, S)))


def play_deal(deal: dict[Seat, Sequence[Card]], trumps: Suit | None, leader: Seat = Seat.A,
              seed: int | None = None) -> list[list[Card]]:
    """The thirteen tricks (each from its leader) four conventional players make."""
    rng = random.Random(seed)
    hands = {int(s): list(deal[s]) for s in SEATS}
    size = len(hands[0])
    tr = None if trumps is None else int(trumps)
    tb = _Table(size)
    lead = int(leader)
    out: list[list[Card]] = []
    for t in range(1, size + 1):
        trick: list[int] = []
        for k in range(4):
            s = (lead + k) % 4
            hand = hands[s]
            if k == 0:
                c = _lead(hand, s, tb, tr, t, rng)
            else:
                c = _follow(hand, s, trick, lead, tb, tr, rng)
                if c not in legal_plays(hand, Suit(trick[0] // 13)):
                    c = min(legal_plays(hand, Suit(trick[0] // 13)), key=lambda x: x.rank)
            hand.remove(c)
            trick.append(int(c))
            S = int(c) // 13
            if k == 0:
                tb.rounds[S] += 1
                if (s, S) not in tb.h0:
                    tb.h0[(s, S)] = _mask(hand, S) | 1 << (int(c) % 13)
                if tb.opener[S] is None:
                    tb.opener[S] = s
                tb.leads.setdefault((s, S), []).append((t, int(c) % 13))
                tb.any_lead[s] = True
            tb.gone[S] |= 1 << (int(c) % 13)
        S0 = trick[0] // 13
        win = winner_of(trick, lead, tr)
        if S0 not in tb.first_round:
            tb.first_round[S0] = tuple(trick)
            tb.first_winner[S0] = win
            tb.first_win_card[S0] = trick[(win - lead) % 4]
        out.append([Card(Suit(c // 13), c % 13 + 2) for c in trick])
        lead = win
    return out


def random_play(deal: dict[Seat, Sequence[Card]], trumps: Suit | None, leader: Seat = Seat.A,
                seed: int | None = None) -> list[list[Card]]:
    """Thirteen tricks of legal cards chosen at random."""
    rng = random.Random(seed)
    hands = {int(s): list(deal[s]) for s in SEATS}
    tr = None if trumps is None else int(trumps)
    lead = int(leader)
    out = []
    for _ in range(len(hands[0])):
        trick: list[Card] = []
        for k in range(4):
            s = (lead + k) % 4
            opts = legal_plays(hands[s], trick[0].suit if trick else None)
            c = rng.choice(opts)
            hands[s].remove(c)
            trick.append(c)
        out.append(trick)
        lead = winner_of([int(c) for c in trick], lead, tr)
    return out


__all__ = ["play_deal", "random_play"]
