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
from typing import Any, Callable, Iterable, Sequence

from ..cards import Card, Suit
from ..judgement.position import Decision, Table, before_trick, choices_at, decisions
from ..seats import SEATS, Seat
from .predicates import (
    NOTHING, Found, Spot, counting, discard_strong, discard_weak, finesse, force_strong, grand_coup,
    refuse_force_partner, refuse_overtrump, tenace, trump_lead_defence, trump_lead_strength, unblock, underplay,
)

_SHOW_ALL = False  # the book benchmark reports unconfirmed findings too


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
    from ..players import public_view

    table = table_or_checked if isinstance(table_or_checked, Table) else Table.of(table_or_checked)
    wanted = [THEMES[n] for n in (themes if themes is not None else THEMES)]
    out: list[ThemeFinding] = []
    by_predicate = [t for t in wanted if t.predicate is not None]
    for d in decisions(table):
        if d.played not in d.legal or len(choices_at(table, d)) < 2:
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
    return any(d.played in g and cards & set(g) for g in choices_at(table, d))


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
    from .. import solver

    gone = before_trick(table, d)
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
    from ..inference.engine import PublicEngine

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
