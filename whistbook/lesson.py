"""The view model a lesson page is rendered from: plain data, no behaviour.

:func:`build_lesson` turns a checked hand (and, when they are available, the
inferences of :mod:`whistbook.inference` and the double-dummy verdicts of
:mod:`whistbook.analysis`) into a :class:`Lesson` (the records are in
:mod:`whistbook.views`). Templates receive only these records; every fact a
page shows is decided here, and every word around the facts is chosen by
the templates.

The seats of a trick are placed as the book places them: the known hand
nearest the reader (``bottom``), then clockwise ``left``, ``top`` (its
partner) and ``right``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from . import quiz, wording
from .cards import SUITS, Card, Suit
from .laws import CheckedHand, describe_result
from .model import Solution
from .play import Tally, Trick
from .seats import SEATS, Seat, Side
from .views import (
    AnalysisNote,
    CountRange,
    DepartureView,
    EndingView,
    ErratumView,
    HandView,
    InferenceView,
    IrregularityView,
    Lesson,
    MisledView,
    PlayView,
    ProblemView,
    ResultView,
    SeatKnowledge,
    SeatNews,
    SolutionView,
    SuitHolding,
    SuitKnowledge,
    ThemeRef,
    TrickView,
    VerdictView,
)

if TYPE_CHECKING:  # pragma: no cover: the stages before this one, whose records a lesson reads
    from .analysis import Analysis
    from .inference import Explanation, Rule
    from .judgement import Judgement
    from .model import HandFile
    from .play import Replay

#: Where each seat sits relative to the reader: index = clockwise turns from the viewpoint.
POSITIONS: tuple[str, ...] = ("bottom", "left", "top", "right")

#: The themes of the site and of the booklet's contents, in the order shown,
#: with the hand-file tags that place a lesson under each.
THEMES: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("leads", "Leads", frozenset({
        "leads", "lead", "opening-lead", "original-lead", "returns", "return", "weak-suit",
        "american-leads", "forced-lead",
    })),
    ("second-and-third-hand", "Second and third hand", frozenset({
        "second-hand", "third-hand", "fourth-hand", "finesse", "finessing", "unblocking",
        "covering", "underplay",
    })),
    ("trumps", "Trumps", frozenset({
        "trumps", "trump-lead", "trump-leads", "ruffing", "forcing", "force", "call",
        "echo", "calling", "trumping", "overtrumping", "cross-ruff", "signals",
    })),
    ("discards", "Discards", frozenset({"discards", "discard", "discarding"})),
    ("counting", "Counting and inference", frozenset({
        "counting", "count", "inference", "inferences", "drawing-inferences", "placing-cards",
    })),
    ("coups", "Coups and end play", frozenset({
        "coups", "coup", "end-play", "endplay", "grand-coup", "squeeze", "throw-in",
        "false-card", "false-cards", "deschapelles-coup",
    })),
)


def position_of(seat: Seat, viewpoint: Seat) -> str:
    return POSITIONS[viewpoint.turns_to(seat)]


def themes_of(tags: Iterable[str]) -> tuple[ThemeRef, ...]:
    """The themes a lesson belongs to, from its tags, in theme order."""
    norm = {re.sub(r"[\s_]+", "-", t.strip().lower()) for t in tags}
    return tuple(ThemeRef(slug, title) for slug, title, keys in THEMES if norm & keys)


def _hand_view(cards: Iterable[Card], seat: Seat, viewpoint: Seat, known: bool, dealer: bool = False) -> HandView:
    cs = list(cards)
    suits = tuple(
        SuitHolding(s, tuple(sorted((c for c in cs if c.suit == s), key=lambda c: -c.rank))) for s in SUITS
    )
    return HandView(seat, position_of(seat, viewpoint), known, suits, dealer)


def _play_views(trick: Trick, viewpoint: Seat, costs: Mapping[tuple[Seat, Card], int]) -> tuple[PlayView, ...]:
    return tuple(
        PlayView(
            seat=p.seat, card=p.card, position=position_of(p.seat, viewpoint), order=k + 1,
            leads=k == 0, wins=p.seat == trick.winner, cost=costs.get((p.seat, p.card)),
        )
        for k, p in enumerate(trick.plays)
    )


def _trick_view(trick: Trick, remark: str | None, viewpoint: Seat, inferences: tuple[InferenceView, ...],
                analysis: tuple[AnalysisNote, ...], departures: tuple[DepartureView, ...] = (),
                note: str | None = None, known: tuple[SeatKnowledge, ...] = (),
                news: tuple[SeatNews, ...] = ()) -> TrickView:
    costs = {(n.seat, n.card): n.cost for n in analysis}
    plays = _play_views(trick, viewpoint, costs)
    return TrickView(
        number=trick.number, leader=trick.leader, winner=trick.winner, winning_card=trick.winning_card,
        tally=trick.tally, plays=plays, by_position={p.position: p for p in plays}, shown=trick.shown,
        remark=remark, inferences=inferences, analysis=analysis, departures=departures, note=note, known=known,
        news=news,
    )


# --- the inference and analysis contracts -------------------------------------------------
#
# Both modules are optional: a lesson is complete without them. Only the
# attributes of their public contracts are read here (whistbook.inference:
# Explanation, Inference, Departure, Rule; whistbook.analysis: Analysis,
# CardVerdict).

_CERTAINTY_ORDER = {"certain": 0, "presumed": 1, "probable": 2}


def _seat_news(infs: Sequence[Any], views: Sequence[InferenceView]) -> tuple[SeatNews, ...]:
    """A trick's new inferences, one line per seat (certain ones first), condensed by wording.news."""
    order = sorted(range(len(infs)), key=lambda k: _CERTAINTY_ORDER.get(infs[k].certainty, 1))
    seats: dict[Seat, list[int]] = {}
    for k in order:
        seats.setdefault(infs[k].seat, []).append(k)
    return tuple(SeatNews(seat, tuple(views[k] for k in ks), wording.news([infs[k] for k in ks]))
                 for seat, ks in seats.items())


def _inference_views(explanation: Explanation | None, rules: Mapping[str, Rule]
                     ) -> tuple[dict[int, tuple[InferenceView, ...]], dict[int, tuple[SeatNews, ...]]]:
    out: dict[int, tuple[InferenceView, ...]] = {}
    news: dict[int, tuple[SeatNews, ...]] = {}
    for et in explanation.tricks if explanation is not None else ():
        views = []
        for inf in et.inferences:
            rule = rules.get(inf.rule)
            views.append(InferenceView(
                seat=inf.seat, kind=inf.kind,
                certainty=inf.certainty if inf.certainty in _CERTAINTY_ORDER else "presumed",
                rule=inf.rule if rule is not None else None,
                rule_title=rule.title if rule is not None else None,
                page=inf.page or (rule.page if rule is not None else None),
                cards=tuple(inf.cards), suit=inf.suit, low=inf.low, high=inf.high,
                sentence=wording.sentence(inf), phrase=wording.phrase(inf),
            ))
        news[et.number] = _seat_news(list(et.inferences), views)
        # certain first, then presumed, then probable: the page reads from facts to guesses
        views.sort(key=lambda v: _CERTAINTY_ORDER[v.certainty])
        out[et.number] = tuple(views)
    return out, news


def _holding_after(rp: Replay, seat: Seat, trick: int) -> frozenset[Card]:
    """The cards ``seat`` still held after ``trick``."""
    played = {t.card_of(seat) for t in rp.tricks[:trick]}
    return frozenset(rp.hands[seat]) - played


def _true_in_deal(v: InferenceView, rp: Replay, trick: int) -> bool:
    """Whether the deal bears out conclusion ``v`` drawn after ``trick``."""
    held = _holding_after(rp, v.seat, trick)
    if v.kind == "holds":
        return all(c in held for c in v.cards)
    if v.kind == "lacks":
        return not any(c in held for c in v.cards)
    if v.kind == "void" and v.suit is not None:
        return not any(c.suit == v.suit for c in held)
    if v.kind == "count" and v.suit is not None:
        n = sum(1 for c in held if c.suit == v.suit)
        return (v.low is None or n >= v.low) and (v.high is None or n <= v.high)
    return True  # a signal says what the play was, not what the hand holds


def _borne_out(inferences: Mapping[int, tuple[InferenceView, ...]], rp: Replay) -> dict[int, tuple[InferenceView, ...]]:
    """Each conclusion checked against the deal: whether it is true, and who else it is true of."""
    def checked(v: InferenceView, n: int) -> InferenceView:
        fits = tuple(s for s in SEATS if _true_in_deal(replace(v, seat=s), rp, n))
        return replace(v, borne_out=v.seat in fits, fits=fits)

    return {n: tuple(checked(v, n) for v in views) for n, views in inferences.items()}


#: rules that draw conclusions from others rather than from one card
_COUNTING = frozenset({"count_elimination", "count_top_cards"})


def _misled(inferences: Mapping[int, tuple[InferenceView, ...]], rp: Replay,
            departures: Sequence[DepartureView]) -> tuple[MisledView, ...]:
    """The presumptions the deal proves false, one line per card they were drawn
    from, leaving out those a later card already showed (the departures)."""
    shown = {(d.seat, d.trick) for d in departures}
    out: dict[tuple[int, Seat, str | None], list[InferenceView]] = {}
    for n, views in sorted(inferences.items()):
        for v in views:
            # a conclusion of counting rests on some presumption of another card: that one is named
            if (not v.borne_out and v.certainty == "presumed" and (v.seat, n) not in shown
                    and v.rule not in _COUNTING):
                out.setdefault((n, v.seat, v.rule), []).append(v)
    views_out = []
    for (n, seat, rule), vs in out.items():
        card = rp.tricks[n - 1].card_of(seat)
        held = _holding_after(rp, seat, n)
        views_out.append(MisledView(n, seat, card, rule, vs[0].rule_title, vs[0].page,
                                    wording.misled(seat, card, n, vs, held)))
    return tuple(views_out)


def _unseen_after(tricks: Sequence[Trick], viewpoint: Seat, held: Iterable[Card]) -> dict[int, dict[Suit, int]]:
    """After each trick, how many cards of each suit the viewer has not yet seen."""
    seen = {s: sum(1 for c in held if c.suit == s) for s in SUITS}
    out: dict[int, dict[Suit, int]] = {}
    for t in tricks:
        for p in t.plays:
            if p.seat != viewpoint:
                seen[p.card.suit] += 1
        out[t.number] = {s: 13 - n for s, n in seen.items()}
    return out


def _placed(knowledge: Mapping[Card, tuple[Seat, ...]]) -> dict[tuple[Seat, Suit], tuple[Card, ...]]:
    """The cards placed in one seat's hand, by seat and suit, highest first."""
    out: dict[tuple[Seat, Suit], list[Card]] = {}
    for c, who in knowledge.items():
        if len(who) == 1:
            out.setdefault((who[0], c.suit), []).append(c)
    return {k: tuple(sorted(cs, key=lambda c: -c.rank)) for k, cs in out.items()}


def _knowledge_views(explanation: Explanation | None, replay: Replay) -> dict[int, tuple[SeatKnowledge, ...]]:
    """After each trick, what the viewer knows of each unseen hand, suit by suit."""
    out: dict[int, tuple[SeatKnowledge, ...]] = {}
    if explanation is None:
        return out
    viewpoint = explanation.viewpoint
    unseen = _unseen_after(replay.tricks, viewpoint, replay.hands[viewpoint])
    others = list(viewpoint.iter_from())[1:]
    for et in explanation.tricks:
        certain_of, presumed_of = _placed(et.knowledge["certain"]), _placed(et.knowledge["presumed"])
        cells = {}
        for seat in others:
            for suit in SUITS:
                certain = certain_of.get((seat, suit), ())
                cells[seat, suit] = certain, tuple(c for c in presumed_of.get((seat, suit), ()) if c not in certain)
        left = 13 - et.number
        # the suit's unseen cards not placed in any unseen hand
        free = {s: unseen[et.number][s] - sum(len(c) + len(p) for (_, suit), (c, p) in cells.items() if suit == s)
                for s in SUITS}
        out[et.number] = tuple(
            SeatKnowledge(seat, position_of(seat, viewpoint), tuple(
                SuitKnowledge(suit, c, p, tuple(et.counts["certain"][seat][suit]), tuple(et.counts["presumed"][seat][suit]),
                              possible=min(left, free[suit] + len(c) + len(p)))
                for suit in SUITS for c, p in (cells[seat, suit],)))
            for seat in others)
    return out


def _departure_views(explanation: Explanation | None, rules: Mapping[str, Rule]) -> tuple[DepartureView, ...]:
    out = []
    for d in explanation.departures if explanation is not None else ():
        rule = rules.get(d.rule)
        out.append(DepartureView(
            trick=d.trick, found_at=d.found_at or d.trick, seat=d.seat,
            rule=d.rule if rule is not None else None,
            rule_title=rule.title if rule is not None else None,
            words=wording.departure(d),
        ))
    return tuple(out)


def _analysis_notes(analysis: Analysis | None) -> dict[int, tuple[AnalysisNote, ...]]:
    out: dict[int, tuple[AnalysisNote, ...]] = {}
    for at in analysis.tricks if analysis is not None else ():
        out[at.number] = tuple(
            AnalysisNote(seat=v.seat, card=v.card, cost=v.cost, tricks_if_played=v.tricks_if_played,
                         best_tricks=v.best_tricks, best_cards=tuple(v.best_cards))
            for v in at.cards if v.cost > 0
        )
    return out


def _analysis_note() -> str | None:
    try:
        from .analysis import DOUBLE_DUMMY_NOTE
    except ImportError:
        return None
    return DOUBLE_DUMMY_NOTE


def _analysis_start(analysis: Analysis | None) -> Tally | None:
    start = getattr(analysis, "start", None) if analysis is not None else None
    if isinstance(start, Mapping):
        try:
            return Tally(int(start[Side.AB]), int(start[Side.YZ]))
        except (KeyError, TypeError, ValueError):
            return None
    return None


# --- building --------------------------------------------------------------------------


def viewpoint_of(hf: HandFile, explanation: Explanation | None = None) -> Seat:
    """The seat whose cards the reader holds: the explanation's, else the file's known hand, else A."""
    if explanation is not None and getattr(explanation, "viewpoint", None) is not None:
        return explanation.viewpoint
    return hf.known_hand if hf.known_hand is not None else Seat.A


def build_lesson(
    checked: CheckedHand,
    *,
    explanation: Explanation | None = None,
    analysis: Analysis | None = None,
    judgement: Judgement | None = None,
    rules: Mapping[str, Rule] | None = None,
    index: int = 0,
    slug: str | None = None,
) -> Lesson:
    """The view model of one checked hand or problem.

    ``checked`` must be free of errors (``checked.ok``) and replayed.
    ``explanation`` and ``analysis`` follow the contracts of
    :func:`whistbook.inference.explain` and :func:`whistbook.analysis.analyse`;
    ``judgement`` is :func:`whistbook.judgement.judge`'s (the viewer's cards at least);
    ``rules`` is :data:`whistbook.inference.RULES`. ``slug`` names the
    lesson's page (default: the file's name without its extension).
    """
    hf, rp = checked.hand, checked.replay
    if rp is None or not checked.ok:
        raise ValueError(f"{hf.path if hf else '?'}: a lesson needs a hand that checks without errors")
    viewpoint = viewpoint_of(hf, explanation)
    inferences, news = _inference_views(explanation, rules or {})
    inferences = _borne_out(inferences, rp)
    departures = _departure_views(explanation, rules or {})
    known = _knowledge_views(explanation, rp)
    notes = _analysis_notes(analysis)

    shown: list[TrickView] = []
    unshown: list[TrickView] = []
    for rec, trick in zip(hf.tricks, rp.tricks):
        view = _trick_view(trick, rec.remark, viewpoint, inferences.get(trick.number, ()), notes.get(trick.number, ()),
                           tuple(d for d in departures if d.found_at == trick.number), rec.note,
                           known.get(trick.number, ()), news.get(trick.number, ()))
        verdict = _verdict_view(judgement, trick.number, viewpoint, rules or {})
        if verdict is not None:
            view = replace(view, verdict=verdict)
        if rec.remark is None and rec.remark_draft:
            view = replace(view, draft=rec.remark_draft)
        rulings = checked.rulings_at(trick.number)
        if rulings:
            view = replace(view, irregularities=tuple(
                IrregularityView(r.kind, r.seat, wording.ruling(r), wording.law_ref(r.laws)) for r in rulings))
        (shown if trick.shown else unshown).append(view)

    known = None
    if hf.kind == "hand" and hf.known_hand is not None:
        known = _hand_view(rp.hands[viewpoint], viewpoint, viewpoint, True, hf.dealer == viewpoint)
    deal = tuple(
        _hand_view(rp.hands[s], s, viewpoint, s == hf.known_hand, s == hf.dealer)
        for s in viewpoint.iter_from()
    )

    ending = None
    if hf.ending is not None and (hf.ending.account or hf.ending.claim or hf.ending.note):
        ending = EndingView(
            first_trick=len(rp.tricks) + 1,
            account=hf.ending.account,
            claim=tuple((s, n) for s, n in (hf.ending.claim or {}).items()),
            note=hf.ending.note,
        )

    result = None
    sc = checked.score
    if sc is not None:
        result = ResultView(
            text=describe_result(sc),
            tricks=Tally(sc.tricks[Side.AB], sc.tricks[Side.YZ]),
            before=(sc.before[Side.AB], sc.before[Side.YZ]),
            after=(sc.after[Side.AB], sc.after[Side.YZ]),
            game=sc.game, game_value=sc.game_value_name, rules=sc.rules,
            first=wording.penalty_words(sc),
            tricks_played=Tally(sc.tricks_played[Side.AB], sc.tricks_played[Side.YZ])
            if sc.tricks_played and sc.tricks_played != sc.tricks else None,
        )

    problem = _problem_view(checked, viewpoint) if hf.kind == "problem" else None
    play_q: tuple[Any, ...] = ()
    know_q: tuple[Any, ...] = ()
    if hf.kind == "hand" and hf.known_hand is not None:

        play_q = quiz.play_quizzes(checked, viewpoint, analysis, [t.number for t in shown], judgement, rules or {})
        know_q = quiz.know_quizzes(shown)
    misled = _misled(inferences, rp, departures) if hf.kind == "hand" else ()
    score_before = (hf.score[Side.AB], hf.score[Side.YZ]) if hf.score else None
    return Lesson(
        slug=slug or hf.slug, path=hf.path, kind=hf.kind, title=hf.title, theme=hf.theme, source=hf.source,
        tags=tuple(hf.tags), themes=themes_of(hf.tags), viewpoint=viewpoint, known_hand=known,
        score_before=score_before, rules=hf.rules,
        turn_up=hf.turn_up.card if hf.turn_up else None, trumps=hf.trumps, dealer=hf.dealer, leader=hf.leader,
        tricks=tuple(shown), unshown=tuple(unshown), ending=ending,
        errata=tuple(ErratumView(e.trick, e.printed, e.used, e.reason) for e in hf.errata),
        deal=deal, result=result, problem=problem,
        analysis_start=_analysis_start(analysis), analysed=analysis is not None,
        inferred=explanation is not None, departures=departures, index=index,
        analysis_note=_analysis_note() if analysis is not None else None,
        play_quizzes=play_q, know_quizzes=know_q, misled=misled,
    )


def _verdict_view(judgement: Judgement, trick: int, seat: Seat, rules: Mapping[str, Rule]) -> VerdictView | None:
    j = judgement.card(trick, seat) if judgement is not None else None
    if j is None or j.forced or j.revoke or j.loss is None:
        return None
    r = rules.get(j.rule) if j.rule else None
    best = j.best
    return VerdictView(
        seat, j.card, j.verdict, round(j.loss.tricks, 2), best.cards if best else (), j.follows_principle,
        j.principle.cards, j.rule, getattr(r, "title", None), getattr(r, "page", None), j.samples, j.exact,
        None if j.loss.result is None else round(j.loss.result, 2),
    )


def _problem_view(checked: CheckedHand, viewpoint: Seat) -> ProblemView | None:
    hf = checked.hand
    if hf.task is None:
        return None
    size = len(hf.deal[Seat.A])
    needed = size if hf.task.tricks == -1 else hf.task.tricks
    verdict = checked.problem  # a ProblemVerdict, or None when the solver did not run
    by_solution = {id(v.solution): v for v in verdict.lines} if verdict is not None else {}
    sols = []
    for sol in hf.solutions:
        tricks = _solution_tricks(hf, sol, viewpoint)
        v = by_solution.get(id(sol))
        if v is None:
            sols.append(SolutionView(title=sol.title, tricks=tricks, account=sol.account, sound=None))
            continue
        sols.append(SolutionView(
            title=sol.title, tricks=tricks, account=sol.account, sound=bool(v.sound),
            error_card=v.error_card, error_total=v.error_total,
            refutation=v.refutation, refutation_also=tuple(v.refutation_also),
            tricks_won=v.tricks_won, error_index=v.error_index, refutation_index=v.refutation_index,
            slips=tuple((sl.trick, sl.seat, sl.card, sl.before, sl.after, tuple(sl.better)) for sl in v.slips),
        ))
    return ProblemView(
        side=hf.task.side, needed=needed, size=size, text=hf.task.text,
        achievable=verdict.achievable if verdict is not None else None, solutions=tuple(sols),
    )


def _solution_tricks(hf, sol: Solution, viewpoint: Seat) -> tuple[tuple[PlayView, ...], ...]:
    from .play import winner_of

    cards = [r.card for r in sol.plays]
    out = []
    leader = hf.leader
    for i in range(0, len(cards) - len(cards) % 4, 4):
        four = cards[i:i + 4]
        win = SEATS[winner_of(four, leader, hf.trumps)]
        out.append(tuple(
            PlayView(seat=leader.next(k), card=c, position=position_of(leader.next(k), viewpoint),
                     order=k + 1, leads=k == 0, wins=leader.next(k) == win)
            for k, c in enumerate(four)
        ))
        leader = win
    return tuple(out)


def themes_index(lessons: Sequence[Lesson]) -> list[tuple[ThemeRef, list[Lesson]]]:
    """Each theme with its lessons (hands only), in theme order; a lesson may be under several.
    Hands with no theme are gathered under 'Other hands'."""
    out: list[tuple[ThemeRef, list[Lesson]]] = []
    for slug, title, _ in THEMES:
        members = [l for l in lessons if l.kind == "hand" and any(t.slug == slug for t in l.themes)]
        if members:
            out.append((ThemeRef(slug, title), members))
    rest = [l for l in lessons if l.kind == "hand" and not l.themes]
    if rest:
        out.append((ThemeRef("other", "Other hands"), rest))
    return out


__all__ = [
    # the records, kept in whistbook.views and read from here as well
    "Lesson", "TrickView", "PlayView", "HandView", "SuitHolding", "InferenceView", "SeatNews", "CountRange",
    "SuitKnowledge", "SeatKnowledge", "DepartureView", "MisledView", "AnalysisNote", "IrregularityView",
    "VerdictView", "ErratumView", "EndingView", "ResultView", "ProblemView", "SolutionView", "ThemeRef",
    "THEMES", "POSITIONS", "build_lesson", "themes_of", "themes_index", "position_of",
]
