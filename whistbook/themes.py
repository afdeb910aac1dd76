"""Themes of play: small predicates that find the book's teaching points in a hand.

A *theme* is one of the things Cavendish's hands are written to teach: the
finesse, the underplay, the trump lead from strength, the call for trumps,
forcing the strong trump hand, the first discard, unblocking, the grand coup,
the tenace ending... Each is a small predicate over a decision of a replayed
hand (:class:`Spot`: the seat's cards, what the play has shown, the trick so
far) that names the cards which would make the theme's play there, and the
cards a plain player would play instead. :func:`detect` runs them over every
card played and reports each card that is the theme's play as a
:class:`ThemeFinding`.

Where a theme is a matter of result rather than of form (an underplay, a
discard, a coup: the card is the theme's only if it keeps what the plain
card would lose), the finding is *confirmed by the solver*: with all four
hands seen, the card played keeps the best result there is and the plain
card would have cost a trick. A finding that fails this is not reported
(``solver=False`` reports it unconfirmed instead, ``confirmed=None``).

With a :class:`~whistbook.judgement.Judgement` of the hand, each finding also
carries the judge's verdict on the card (on what its player could know).

>>> from whistbook.corpus import check_file
>>> found = detect(check_file("hands/cavendish/34-echo-of-the-call.yaml"), solver=False)
>>> sorted({(f.theme, f.trick, str(f.seat)) for f in found if f.theme in ("call", "echo")})
[('call', 1, 'Y'), ('echo', 2, 'Z')]

The same predicates, asked at a decision of a hand being made
(:meth:`Theme.cards`), are how ``whistbook deal --theme`` finds the decisive
moment of a new hand (:mod:`whistbook.generate`).

API: :data:`THEMES` (name -> :class:`Theme`), :func:`theme_names`,
:func:`detect` ``(table_or_checked, judgement=None, *, themes=None, solver=True)
-> list[ThemeFinding]``, :class:`Spot`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from .cards import Card, Suit
from .inference.bits import FULL, above, high, low, master, popcount
from .judgement.position import Decision, Table, choices, decisions, played_before
from .seats import SEATS, Seat

#: what a predicate returns: the theme's cards here, the plain player's cards, and the rule it saw
Found = tuple[frozenset[Card], frozenset[Card], str]
NOTHING: Found = (frozenset(), frozenset(), "")
_SHOW_ALL = False


@dataclass(frozen=True)
class ThemeFinding:
    """One card of a hand that is a theme's play."""

    theme: str
    trick: int
    seat: Seat
    card: Card
    #: which form of the theme the predicate saw (e.g. ``"finesse_third_hand"``)
    rule: str
    #: what bears it out, as data: the plain cards, the double-dummy figures, the verdict...
    evidence: tuple[tuple[str, Any], ...] = ()
    #: True when the solver confirmed it; None when not asked (or not needed)
    confirmed: bool | None = None

    def to_json(self) -> dict[str, Any]:
        def plain(v: Any) -> Any:
            if isinstance(v, (Card, Seat, Suit)):
                return str(v)
            if isinstance(v, (tuple, list, frozenset, set)):
                return [plain(x) for x in (sorted(v) if isinstance(v, (set, frozenset)) else v)]
            return v
        return {"theme": self.theme, "trick": self.trick, "seat": str(self.seat), "card": str(self.card),
                "rule": self.rule, "evidence": {k: plain(v) for k, v in self.evidence},
                "confirmed": self.confirmed}


@dataclass(frozen=True)
class Theme:
    """One theme: its name (for ``--theme``), its title and a line on it, the
    book's page, the hand-file tags it belongs to, and its predicate."""

    name: str
    title: str
    summary: str
    page: str
    tags: tuple[str, ...]
    predicate: Callable[["Spot"], Found] | None
    #: the card is the theme's only if the solver confirms it keeps the best result
    counterfactual: bool = False
    #: found from the inference engine's signals (a call, an echo), not by a predicate
    signal: str | None = None

    def cards(self, spot: "Spot") -> Found:
        """The theme's cards at ``spot`` (empty when the theme has no play there),
        the cards a plain player would choose instead, and the rule seen."""
        if self.predicate is None:
            return NOTHING
        return self.predicate(spot)


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
        g = 1 << i
        live = self.live(S)
        for step in (1, -1):
            j = i + step
            while 0 <= j < 13 and not live >> j & 1:
                if self.held[S] >> j & 1:
                    g |= 1 << j
                j += step
        return g

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
    """Second or third hand heads the trick with a card that is not his best,
    a live card lying between it and a higher one he holds (pp. 92-95)."""
    if s.pos not in (2, 3) or s.led is None or not s.held[s.led] or s.trumped:
        return NOTHING
    S, h = s.led, s.held[s.led]
    w = s.win_card.rank - 2
    top = high(h)
    out = []
    for i in range(w + 1, top):
        if not h >> i & 1:
            continue
        between = s.live(S) & above(i) & ~above(top - 1) & ~(1 << top)
        if between and not (s.group_of(S, i) >> top & 1):
            out.append(s.card(S, i))
    best = s.card(S, low(s.group_of(S, top)))
    return _found(out, [best], "finesse_third_hand" if s.pos == 3 else "finesse_second_hand")


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
    from .judgement.principle import principle

    if s.cards_left < 3:
        return NOTHING
    p = principle(s.table, s.d, s.view)
    if p.silent:
        return NOTHING
    groups = choices(s.d.legal, played_before(s.table, s.d))
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


# ======================================================================== the list

def _t(name, title, summary, page, tags, predicate=None, counterfactual=False, signal=None) -> Theme:
    return Theme(name, title, summary, page, tuple(tags), predicate, counterfactual, signal)


THEMES: dict[str, Theme] = {t.name: t for t in (
    _t("finesse", "The finesse", "Third or second hand tries to win with a card below his best, "
       "a higher card still being out.", "pp. 92-95", ["finesse", "third-hand"], finesse),
    _t("underplay", "The underplay and the hold-up", "Keeping back the winning card: a low card led, "
       "or an adversary's card let go by, while holding the best.", "pp. 101-103",
       ["underplay"], underplay, counterfactual=True),
    _t("trump-lead", "The trump lead from strength", "Trumps led from five, or from four with a suit "
       "to bring in.", "pp. 119-124", ["trumps", "leads"], trump_lead_strength),
    _t("forced-trump-lead", "The forced trump lead", "Trumps led without strength, because every "
       "plain suit would be opened to the adversaries' advantage.", "pp. 72, 120; Hand XX",
       ["trumps", "leads"], trump_lead_defence, counterfactual=True),
    _t("call", "The call for trumps", "A higher card thrown before a lower one in a plain suit, "
       "asking partner to lead trumps.", "pp. 125-127", ["signals", "trumps"], signal="call_for_trumps"),
    _t("echo", "The echo", "Answering partner's trump lead or call with the call's high-low: four "
       "trumps or more.", "pp. 127-129", ["signals", "trumps"], signal="echo"),
    _t("force", "Forcing the strong trump hand", "Leading a suit that the adversary who has shown "
       "strength in trumps must trump.", "p. 131", ["forcing"], force_strong),
    _t("no-force", "Refusing to force partner", "Weak in trumps, leading something other than the "
       "suit partner must trump.", "pp. 132-133", ["forcing"], refuse_force_partner, counterfactual=True),
    _t("discard-weak", "The discard from weakness", "The first discard from the weakest suit, "
       "trumps not declared against the player.", "p. 104", ["discards"], discard_weak,
       counterfactual=True),
    _t("discard-strong", "The discard from strength", "With strength in trumps declared against "
       "him, the first discard from the best protected suit.", "pp. 105-106", ["discards"],
       discard_strong, counterfactual=True),
    _t("unblock", "Unblocking", "A high card of partner's suit played out of his way.", "pp. 96-101",
       ["third-hand", "fourth-hand"], unblock, counterfactual=True),
    _t("counting", "Counting to a certainty", "A card the rules would not play, on a count that "
       "places the suit for certain.", "pp. 134-141", ["counting"], counting, counterfactual=True),
    _t("tenace", "The tenace ending", "With the best and third best of a suit, leading another suit "
       "so that the adversary must lead up to the tenace.", "pp. 146-151", ["coups"], tenace,
       counterfactual=True),
    _t("refuse-overtrump", "Refusing to overtrump", "Throwing a plain card rather than overtrumping "
       "the adversary, to keep the trumps for later.", "pp. 130, 143-147", ["coups", "trumps"],
       refuse_overtrump, counterfactual=True),
    _t("grand-coup", "The grand coup", "Trumping partner's winning card, or under an adversary's "
       "trump, to get rid of a trump too many.", "pp. 151-155", ["coups", "trumps"], grand_coup,
       counterfactual=True),
)}


def theme_names() -> list[str]:
    return list(THEMES)


# ======================================================================== detection

def detect(table_or_checked: Any, judgement: Any = None, *, themes: Iterable[str] | None = None,
           solver: bool = True) -> list[ThemeFinding]:
    """Every card of a hand that is one of ``themes``' plays (default: all), in play order.

    ``table_or_checked`` is a :class:`~whistbook.judgement.position.Table` or a
    checked hand that replays. ``judgement`` (a
    :class:`~whistbook.judgement.Judgement`) adds the judge's verdict to each
    finding. With ``solver`` (the default) a theme that needs it is confirmed
    with the double-dummy solver and dropped when the solver does not bear it
    out.

    :raises KeyError: for an unknown theme name.
    :raises SolverError: when the solver is asked for and cannot be used.
    """
    from .players import public_view

    table = table_or_checked if isinstance(table_or_checked, Table) else Table.of(table_or_checked)
    wanted = [THEMES[n] for n in (themes if themes is not None else THEMES)]
    out: list[ThemeFinding] = []
    by_predicate = [t for t in wanted if t.predicate is not None]
    for d in decisions(table):
        if d.played not in d.legal or len(choices(d.legal, played_before(table, d))) < 2:
            continue
        spot = None
        for theme in by_predicate:
            spot = spot or Spot(table, d, public_view(table, d))
            cards, plain, rule = theme.cards(spot)
            if not _is_theirs(d, cards, table):
                continue
            f = _finding(theme, table, d, rule, plain, solver)
            if f is not None:
                out.append(f)
    signals = [t for t in wanted if t.signal is not None]
    if signals:
        out += _signal_findings(table, signals)
    if judgement is not None:
        out = [_with_verdict(f, judgement) for f in out]
    return sorted(out, key=lambda f: (f.trick, _index(table, f), f.theme))


def _is_theirs(d: Decision, cards: frozenset[Card], table: Table) -> bool:
    if not cards:
        return False
    if d.played in cards:
        return True
    return any(d.played in g and cards & set(g) for g in choices(d.legal, played_before(table, d)))


def _index(table: Table, f: ThemeFinding) -> int:
    t = table.tricks[f.trick - 1]
    return next(i for i, p in enumerate(t.plays) if p.seat == f.seat)


def _finding(theme: Theme, table: Table, d: Decision, rule: str, plain: frozenset[Card],
             solver: bool) -> ThemeFinding | None:
    evidence: list[tuple[str, Any]] = [("plain", tuple(sorted(plain, key=lambda c: (c.suit, -c.rank))))]
    confirmed = None
    if theme.counterfactual and solver:
        dd = dd_values(table, d)
        best = max(dd.values())
        alt = max((dd[c] for c in plain if c in dd), default=None)
        evidence += [("dd_played", dd[d.played]), ("dd_best", best), ("dd_plain", alt)]
        confirmed = alt is None or dd[d.played] >= alt
        if not confirmed and not _SHOW_ALL:
            return None
    outcome = _outcome(table, d)
    if outcome is not None:
        evidence.append(("won", outcome))
    return ThemeFinding(theme.name, d.trick, d.seat, d.played, rule, tuple(evidence), confirmed)


def dd_values(table: Table, d: Decision) -> dict[Card, int]:
    """Double-dummy tricks for the seat's side from decision ``d`` on, for each
    legal card, on the actual deal (the trick in play included)."""
    from . import solver

    gone = played_before(table, d) - set(d.trick_so_far)
    hands = {s: frozenset(table.hands[s]) - gone for s in SEATS}
    return solver.card_options(hands, table.trumps, d.leader, d.trick_so_far)


def _outcome(table: Table, d: Decision) -> bool | None:
    t = table.tricks[d.trick - 1]
    if len(t.plays) < 4:
        return None
    return t.winner.side == d.seat.side


def _signal_findings(table: Table, wanted: Sequence[Theme]) -> list[ThemeFinding]:
    """Calls and echoes, as the inference engine reads them (from two chairs,
    since a seat's own signals are not noted from his own)."""
    from .inference.engine import PublicEngine

    by_rule = {t.signal: t for t in wanted}
    seen: dict[tuple[str, Seat, int], ThemeFinding] = {}
    for viewer in (Seat.A, Seat.Y):
        eng = PublicEngine({s: table.hands[s] for s in SEATS}, table.trumps, table.tricks, viewer,
                           table.turn_up, table.dealer, table.size, table.revokes, table.forced)
        for run in eng.run():
            for n in run.notes:
                theme = by_rule.get(n.rule)
                if theme is None:
                    continue
                seat = SEATS[n.seat]
                first_trick, first_card = n.tricks[0], Card(Suit(n.cards[0] // 13), n.cards[0] % 13 + 2)
                key = (theme.name, seat, first_trick)
                if key not in seen:
                    seen[key] = ThemeFinding(theme.name, first_trick, seat, first_card, n.rule,
                                             (("completed", n.tricks[-1]),
                                              ("cards", tuple(Card(Suit(c // 13), c % 13 + 2) for c in n.cards))))
    return list(seen.values())


def _with_verdict(f: ThemeFinding, judgement: Any) -> ThemeFinding:
    j = judgement.card(f.trick, f.seat)
    if j is None:
        return f
    extra = [("verdict", j.verdict), ("follows_principle", j.follows_principle)]
    if j.loss is not None:
        extra += [("loss", round(j.loss.tricks, 3)), ("stderr", round(j.loss.stderr, 3))]
    return ThemeFinding(f.theme, f.trick, f.seat, f.card, f.rule, f.evidence + tuple(extra), f.confirmed)


__all__ = ["THEMES", "Theme", "ThemeFinding", "Spot", "detect", "theme_names", "dd_values"]
