"""The principle's choice: the cards Cavendish's conventions choose at a decision.

The rules here are the generative side of the same conventions the inference
engine reads the play with (:mod:`whistbook.inference.conventions`): the
Analysis of Leads, returns, second, third and fourth hand, trumping, refusing
to trump and discarding. For a decision they give the set of cards a player
who keeps the rules might play, with the rule that chooses them. Where the
rules leave several cards they are all in the set; where they do not speak
(a lead in a suit the adversaries opened, say, late in a hand) the set is
empty and the rule is None: the principle is *silent*, and says so rather
than guess.

Only public knowledge and the player's own cards are used: the play so far
(:class:`whistbook.inference.SeatView`) and his hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..cards import Card, Suit
from ..inference import SeatView
from ..inference import conventions as cv
from ..inference.bits import high, low, master, popcount
from ..seats import Seat
from .position import Decision, Table

#: the fewest trumps with which a player refuses to trump a doubtful card second hand (p. 129)
STRONG_IN_TRUMPS = 4


@dataclass(frozen=True)
class Principle:
    """The cards the conventions choose at one decision (empty when they are silent).

    Where two rules both speak (return partner's suit, or lead trumps from a
    strong hand), the cards of both are in ``cards`` and ``rules`` gives each
    card's rule, in the same order; ``rule`` is the first one. With one rule,
    ``rules`` is empty.
    """

    cards: tuple[Card, ...]
    rule: str | None
    rules: tuple[str, ...] = ()

    @property
    def silent(self) -> bool:
        return not self.cards

    def allows(self, card: Card, equal: Iterable[tuple[Card, ...]] = ()) -> bool:
        """Whether ``card`` is the principle's card or equal in sequence to one
        (``equal``: the choices of the decision, see :func:`~.position.choices`)."""
        return self._named(card, equal) is not None

    def rule_of(self, card: Card, equal: Iterable[tuple[Card, ...]] = ()) -> str | None:
        """The rule that chooses ``card`` (or a card equal to it); the first rule
        when it is not the principle's card."""
        named = self._named(card, equal)
        if named is None or not self.rules:
            return self.rule
        return self.rules[self.cards.index(named)]

    def by_rule(self) -> tuple[tuple[str | None, tuple[Card, ...]], ...]:
        """The cards grouped by their rule, in order."""
        if not self.rules:
            return ((self.rule, self.cards),) if self.cards else ()
        out: dict[str, list[Card]] = {}
        for c, r in zip(self.cards, self.rules):
            out.setdefault(r, []).append(c)
        return tuple((r, tuple(cs)) for r, cs in out.items())

    def _named(self, card: Card, equal: Iterable[tuple[Card, ...]]) -> Card | None:
        if card in self.cards:
            return card
        for g in equal:
            if card in g:
                return next((c for c in self.cards if c in g), None)
        return None


def _union(*parts: "Principle | None") -> "Principle | None":
    """The principles of several rules that all speak, as one (first rule first;
    a card named twice keeps its first rule)."""
    cards: list[Card] = []
    rules: list[str] = []
    for p in parts:
        if p is None:
            continue
        for c in p.cards:
            if c not in cards:
                cards.append(c)
                rules.append(p.rule_of(c))
    if not cards:
        return None
    if len(set(rules)) == 1:
        return Principle(tuple(cards), rules[0])
    return Principle(tuple(cards), rules[0], tuple(rules))


SILENT = Principle((), None)


def _mask(cards: Iterable[Card], S: int) -> int:
    m = 0
    for c in cards:
        if c.suit == S:
            m |= 1 << (c.rank - 2)
    return m


def _cards(S: int, ranks: Iterable[int]) -> tuple[Card, ...]:
    return tuple(Card(Suit(S), r + 2) for r in sorted(set(ranks), reverse=True))


class _Situation:
    """The decision seen from the player's chair."""

    def __init__(self, table: Table, d: Decision, view: SeatView) -> None:
        self.t, self.d, self.v = table, d, view
        self.s = d.seat
        self.partner = d.seat.partner
        self.trumps = None if table.trumps is None else int(table.trumps)
        self.hand = d.hand
        self.held = [_mask(d.hand, S) for S in range(4)]
        self.tricks_left = table.size - d.trick + 1

    def trump_mask(self) -> int:
        return self.held[self.trumps] if self.trumps is not None else 0

    def trumps_out(self) -> int:
        """Trumps not yet played and not in the player's hand."""
        if self.trumps is None:
            return 0
        return (((1 << 13) - 1) & ~self.v.gone[self.trumps] & ~self.trump_mask()).bit_count()


def principle(table: Table, d: Decision, view: SeatView) -> Principle:
    """The cards the conventions choose for ``d`` and the rule that chooses them.

    ``view`` is what the player had seen (:func:`~.position.view_at`).
    """
    if len(d.legal) == 1:
        return Principle(d.legal, None)
    sit = _Situation(table, d, view)
    if d.index == 0:
        p = _lead(sit)
    elif sit.held[d.trick_so_far[0].suit]:
        p = _follow(sit)
    else:
        p = _void(sit)
    legal = set(d.legal)
    keep = [i for i, c in enumerate(p.cards) if c in legal]
    if not keep:
        return SILENT
    cards = tuple(p.cards[i] for i in keep)
    rules = tuple(p.rules[i] for i in keep) if p.rules else ()
    if rules and len(set(rules)) == 1:
        return Principle(cards, rules[0])
    return Principle(cards, rules[0] if rules else p.rule, rules)


# --------------------------------------------------------------------- leads

def _lead(sit: _Situation) -> Principle:
    """A lead (pp. 74-81, 119-124): answer partner's trumps; having had the lead
    before, go on with one's own suit; else return partner's suit, unless great
    strength in a suit of one's own or in trumps makes one play one's own game;
    else open a suit. A strong trump hand may lead trumps at any of these."""
    p = _answer_partner_in_trumps(sit)
    if p is not None:
        return p
    trump = _trump_lead(sit)
    own = _go_on_with_own_suit(sit)
    if own is not None:
        return _union(own, trump, _make_tricks(sit))  # type: ignore[return-value]
    ret = _return_partners_suit(sit)
    if ret is not None:
        return _union(ret, trump, _great_suit(sit), _make_tricks(sit))  # type: ignore[return-value]
    return _union(_open_a_suit(sit), trump, _make_tricks(sit)) or SILENT


def _make_tricks(sit: _Situation) -> Principle | None:
    """With great strength in trumps declared against him, or late in the hand,
    a player makes his winning cards while he can (pp. 105, 134): the best card
    left of a plain suit, which the adversaries may otherwise discard or trump."""
    v, T = sit.v, sit.trumps
    opp = (int(sit.s.lho), int(sit.s.partner.lho))
    declared = any(v.trump_led_by[o] or v.called[o] for o in opp)
    if not declared and sit.tricks_left > 6:
        return None
    cards: list[Card] = []
    for S in range(4):
        m = master(v.gone[S])
        if S != T and m >= 0 and sit.held[S] >> m & 1:
            cards += _cards(S, {m})
    return Principle(tuple(cards), "count_top_cards") if cards else None


def _answer_partner_in_trumps(sit: _Situation) -> Principle | None:
    """Partner led trumps or asked for them: lead trumps back (pp. 120, 126).
    Partner's trump lead that returned one's own is not his to answer."""
    T, v = sit.trumps, sit.v
    if T is None or not sit.trump_mask() or not sit.trumps_out():
        return None
    p, s = int(sit.partner), int(sit.s)
    mine = [t for t, _ in v.leads.get((sit.s, Suit(T)), ())]
    if v.trump_led_by[p] and not any(t > v.trump_led_by[p] for t in mine) and not (
            v.trump_led_by[s] and v.trump_led_by[s] < v.trump_led_by[p]):
        return Principle(_cards(T, cv.return_cards(sit.trump_mask(), v.gone[T], True)), "return_count")
    if v.called[p] and not v.rounds[T] and not v.trump_led_by[s]:
        return Principle(_cards(T, cv.answer_call_cards(sit.trump_mask())), "answer_to_call_count")
    return None


def _trump_lead(sit: _Situation) -> Principle | None:
    """Trumps from a strong hand (pp. 119-124): five or more; four with two
    honours, or with a long or established plain suit to bring in; and going
    on with them once one has opened them, while any are out."""
    T, v = sit.trumps, sit.v
    t = sit.trump_mask()
    if T is None or not t or not sit.trumps_out():
        return None
    if v.opener[T] == sit.s:
        m = master(v.gone[T])
        cards = {low(t)} | ({m} if m >= 0 and t >> m & 1 else set())
        return Principle(_cards(T, cards), "trump_lead_strength")
    if v.rounds[T]:
        return None
    n = popcount(t)
    plain = [S for S in range(4) if S != T]
    backed = any(popcount(sit.held[S]) >= 5 or _established(sit, S) for S in plain)
    # four trumps and no plain suit of four to open: the defensive trump lead (Hand XX)
    nothing_to_open = not any(popcount(sit.held[S]) >= 4 for S in plain)
    if n >= 5 or (n == 4 and (cv.call_strength(t) or backed or nothing_to_open)):
        return Principle(_cards(T, cv.first_leads(t, True)), "trump_lead_strength")
    return None


def _established(sit: _Situation, S: int) -> bool:
    """A suit of three cards or more, already led, of which the player holds the best card left."""
    h, m = sit.held[S], master(sit.v.gone[S])
    return popcount(h) >= 3 and m >= 0 and bool(h >> m & 1) and bool(sit.v.rounds[S])


#: the ace-king, king-queen-knave and ace-queen-knave heads (bits of the ace, king, queen, knave)
_GREAT_HEADS = frozenset({0b1100, 0b1101, 0b1110, 0b1111, 0b0111, 0b1011})


def _great_suit(sit: _Situation) -> Principle | None:
    """A fresh suit of great strength, opened rather than partner's suit by a
    player who has not had the lead before (p. 76): five cards with two
    honours, or four headed by ace-king, king-queen-knave or ace-queen-knave."""
    v = sit.v
    cards: list[Card] = []
    for S in range(4):
        h = sit.held[S]
        if S == sit.trumps or v.opener[S] is not None or popcount(h) < 4:
            continue
        head = h >> 9
        if (popcount(h) >= 5 and popcount(head) >= 2) or head in _GREAT_HEADS:
            cards += _cards(S, cv.first_leads(h, False))
    return Principle(tuple(cards), "lead_strongest_suit") if cards else None


def _return_partners_suit(sit: _Situation) -> Principle | None:
    """Return partner's suit at the first chance (pp. 79-81)."""
    v = sit.v
    for S in range(4):
        h = sit.held[S]
        if not h or S == sit.trumps or v.opener[S] != sit.partner or v.leads.get((sit.s, Suit(S))):
            continue
        return Principle(_cards(S, cv.return_cards(h, v.gone[S], False)), "return_count")
    return None


def _go_on_with_own_suit(sit: _Situation) -> Principle | None:
    """Go on with the suit one opened (the Analysis of Leads' second card, pp. 64-71;
    the lowest when one holds only losing cards of it, p. 112)."""
    v = sit.v
    for S in range(4):
        h = sit.held[S]
        prev = v.leads.get((sit.s, Suit(S)), ())
        if not h or v.opener[S] != sit.s or not prev or S == sit.trumps:
            continue
        first_trick, f = prev[0]
        h0 = h | v.played[int(sit.s)][S]
        if len(v.rounds[S]) == 1 and len(prev) == 1:
            won, beaten_by, queen_fell = _first_round(sit, S, first_trick)
            res = cv.second_leads(h0, f, won, beaten_by, queen_fell, False, True)
            if res is not None and res & _ranks(h):
                return Principle(_cards(S, res & _ranks(h)), "lead_table")
        cont = cv.continue_after_low_cards(h, v.gone[S]) if f < 8 else cv.continue_cards(h, v.gone[S])
        if cont:
            return Principle(_cards(S, cont), "continue_own_suit_lowest")
        if master(v.gone[S]) >= 0 and h >> master(v.gone[S]) & 1:
            # winners of one's own suit are led from the top of the sequence
            return Principle(_cards(S, {master(v.gone[S])}), "count_top_cards")
    return None


def _ranks(h: int) -> frozenset[int]:
    return frozenset(i for i in range(13) if h >> i & 1)


def _first_round(sit: _Situation, S: int, trick: int) -> tuple[bool, int, bool]:
    """Of the first round of ``S`` (trick ``trick``): did the leader win it, the
    adverse card of the suit that beat it (-1), and did another player drop the queen."""
    tr = sit.t.tricks[trick - 1]
    won = tr.winner == sit.s
    wc = tr.winning_card
    beaten_by = -1
    if not won and tr.winner != sit.partner and wc.suit == S:
        beaten_by = wc.rank - 2
    queen_fell = any(p.card.suit == S and p.card.rank == 12 and p.seat != sit.s for p in tr.plays)
    return won, beaten_by, queen_fell


def _open_a_suit(sit: _Situation) -> Principle | None:
    """A lead of one's own choosing: trumps from five or more (pp. 119-124),
    else the strongest (longest) suit, four cards or more, as the Analysis of
    Leads directs (pp. 56-71); with no such suit, the top of a weak suit not
    opened by the adversaries (pp. 72-74)."""
    v, T = sit.v, sit.trumps
    fresh = [S for S in range(4) if sit.held[S] and v.opener[S] is None and S != T]
    if T is not None and popcount(sit.trump_mask()) >= 5 and not v.rounds[T]:
        return Principle(_cards(T, cv.first_leads(sit.trump_mask(), True)), "trump_lead_strength")
    fresh = _unforcing(sit, fresh)
    long = [S for S in fresh if popcount(sit.held[S]) >= 4]
    if long and sit.tricks_left >= 5:
        n = max(popcount(sit.held[S]) for S in long)
        best = [S for S in long if popcount(sit.held[S]) == n]
        cards: list[Card] = []
        low_card = True
        for S in best:
            picks = cv.first_leads(sit.held[S], False)
            cards += _cards(S, picks)
            low_card &= cv.low_card_first(sit.held[S], False)
        return Principle(tuple(cards), "lead_fourth_best" if low_card else "lead_strongest_suit")
    weak = [S for S in fresh if cv.likely_opened(sit.held[S])]
    if weak and sit.tricks_left >= 5:
        cards = [c for S in weak for c in _cards(S, cv.weak_leads(sit.held[S]))]
        return Principle(tuple(cards), "lead_weak_suit_highest")
    return None


def _unforcing(sit: _Situation, suits: list[int]) -> list[int]:
    """Leave out suits that would force partner to trump when the player is
    weak in trumps (pp. 131-133), unless nothing else is left."""
    T = sit.trumps
    if T is None or popcount(sit.trump_mask()) >= STRONG_IN_TRUMPS or not sit.trumps_out():
        return suits
    st = sit.v.layers["certain"]
    p = int(sit.partner)
    keep = [S for S in suits if st.lens[p][S] != 1 << popcount(sit.v.played[p][S])]
    return keep or suits


# --------------------------------------------------------------------- following

def _winning(sit: _Situation) -> tuple[int, Card]:
    """The index in the trick of the card heading it so far, and the card."""
    cards = sit.d.trick_so_far
    best, k = cards[0], 0
    for i, c in enumerate(cards[1:], 1):
        if (c.suit == best.suit and c.rank > best.rank) or (sit.trumps is not None and c.suit == sit.trumps
                                                           and best.suit != sit.trumps):
            best, k = c, i
    return k, best


def _follow(sit: _Situation) -> Principle:
    d, v = sit.d, sit.v
    LS = d.trick_so_far[0].suit
    h = sit.held[LS]
    gone = v.gone[LS]
    pos = d.index + 1
    k, wc = _winning(sit)
    w_partner = _seat_at(d.leader, k) == sit.partner
    w_trumped = wc.suit != LS
    w_i = wc.rank - 2
    rnd = len(v.rounds[LS])
    trumps = LS == sit.trumps
    L = low(h)
    beats = h >> (w_i + 1) if not w_trumped else 0
    if pos == 2:
        acc = cv.second_hand_cards(h, gone, d.trick_so_far[0].rank - 2, rnd, trumps)
        rule = _second_hand_rule(acc, L, d.trick_so_far[0].rank - 2, rnd)
    elif pos == 3:
        acc = cv.third_hand_cards(h, gone, d.trick_so_far[0].rank - 2, w_i, w_partner, rnd, w_trumped, trumps)
        rule = ("third_hand_on_honour_led" if w_partner and rnd == 1 and d.trick_so_far[0].rank in (10, 11)
                else "third_hand_highest" if beats and not w_partner else "follow_lowest_when_not_winning")
    else:
        acc = cv.fourth_hand_cards(h, gone, w_i, w_partner, w_trumped)
        rule = "fourth_hand_wins_if_able" if beats and not w_partner else "follow_lowest_when_not_winning"
    acc = set(acc)
    if acc == {L} and _may_call(sit, LS, w_i, w_trumped):
        acc |= cv.follow_low_or_call(h)
        rule = "call_for_trumps"
    return Principle(_cards(LS, acc), rule)


def _seat_at(leader: Seat, k: int) -> Seat:
    s = leader
    for _ in range(k):
        s = s.lho
    return s


def _second_hand_rule(acc, L: int, led: int, rnd: int) -> str:
    if set(acc) == {L}:
        return "second_hand_low" if rnd == 1 else "follow_lowest_when_not_winning"
    if rnd == 1 and led >= 9:
        return "second_hand_covers_honour"
    if rnd == 1:
        return "second_hand_honour_shows_sequence"
    return "second_hand_second_round_wins"


def _may_call(sit: _Situation, S: int, w_i: int, w_trumped: bool) -> bool:
    """Whether the player, strong enough in trumps and not heading the trick,
    may ask for them with the card above his lowest (pp. 125-127; the echo,
    after partner has led or asked for trumps, pp. 127-129)."""
    T, v = sit.trumps, sit.v
    if T is None or S == T or v.called[int(sit.s)] or popcount(sit.held[S]) < 2:
        return False
    p = int(sit.partner)
    partner_asked = bool(v.trump_led_by[p] or v.called[p])
    if v.rounds[T] and not partner_asked:
        return False
    t = sit.trump_mask()
    strong = popcount(t) >= 4 if partner_asked else cv.call_strength(t)
    second = low(sit.held[S] & (sit.held[S] - 1))
    return strong and (w_trumped or second < w_i)


# --------------------------------------------------------------------- void in the suit led

def _void(sit: _Situation) -> Principle:
    d, v, T = sit.d, sit.v, sit.trumps
    pos = d.index + 1
    k, wc = _winning(sit)
    w_partner = _seat_at(d.leader, k) == sit.partner
    t = sit.trump_mask()
    if T is None or not t:
        return _discard(sit)
    w_trump = wc.rank - 2 if wc.suit == T else -1
    partner_sure = w_partner and (pos == 4 or _is_master(sit, wc))
    if partner_sure:
        return _discard(sit)
    if pos == 2 and popcount(t) >= STRONG_IN_TRUMPS and w_trump < 0:
        # a doubtful card second hand: strong in trumps, he may pass it (p. 129),
        # though the book's players as often trump it
        return _union(_discard(sit, "refuse_to_trump_shows_strength"),
                      Principle(_cards(T, {low(t)}), "win_cheaply")) or SILENT
    res = cv.ruff_cards(t, v.gone[T], w_trump, pos)
    if res is None:
        return _discard(sit)
    if w_partner and _is_master(sit, wc, certain=False):
        # partner's card is the best of its suit but the last player may trump
        # it: throw a card and trust it, or trump to make sure (p. 130)
        return _union(_discard(sit), Principle(_cards(T, {min(res)}), "win_cheaply")) or SILENT
    if pos == 2:
        return Principle(_cards(T, {low(t)} if w_trump < 0 else res), "ruff_doubtful_shows_weakness")
    return Principle(_cards(T, {min(res)}), "fourth_hand_wins_if_able" if pos == 4 else "win_cheaply")


def _is_master(sit: _Situation, c: Card, certain: bool = True) -> bool:
    """Whether ``c`` (partner's card on the trick) must win: the best card left of
    its suit, and (``certain``) no player after the next can trump it for all
    the player sees."""
    v, S = sit.v, int(c.suit)
    gone = v.gone[S] | sit.held[S]
    above = ((1 << 13) - 1) & ~((1 << (c.rank - 1)) - 1)
    if above & ~gone & ~(1 << (c.rank - 2)):
        return False
    if sit.trumps is None or S == sit.trumps or not certain:
        return True
    nxt = sit.s.lho
    if sit.d.index == 3 or nxt == sit.d.leader:
        return True
    st = v.layers["certain"]
    lho = int(nxt)
    # the left-hand adversary plays after him: he may trump if he may be void and hold trumps
    may_be_void = st.lens[lho][S] & 1 << popcount(v.played[lho][S])
    return not may_be_void


def _discard(sit: _Situation, rule: str | None = None) -> Principle:
    """A discard: from the weakest suit, or from the best protected when trumps
    have been declared against the player (pp. 104-107), the lowest card of
    it. The book's players keep to this after the first discard too: with
    trumps declared against them they go on guarding their weak suits."""
    v, T = sit.v, sit.trumps
    plain = [S for S in range(4) if sit.held[S] and S != T]
    if not plain:
        return SILENT
    opp = (int(sit.s.lho), int(sit.s.partner.lho))
    declared = any(v.trump_led_by[o] or v.called[o] for o in opp)
    # a suit's worth to its holder: his own or partner's suit first, then its length, then its top card
    def worth(S: int) -> tuple[bool, int, int]:
        return (v.opener[S] in (sit.s, sit.partner), popcount(sit.held[S]), high(sit.held[S]))
    if declared:
        S_best = max(plain, key=worth)
        choice = [S for S in plain if worth(S) == worth(S_best)]
    else:
        S_worst = min(plain, key=worth)
        choice = [S for S in plain if worth(S) == worth(S_worst)]
    cards = tuple(c for S in choice for c in _cards(S, {low(sit.held[S])}))
    return Principle(cards, rule or "original_discard")


__all__ = ["Principle", "SILENT", "principle", "STRONG_IN_TRUMPS"]
