"""The judge: every card weighed as a teacher would, on what its player could know.

Whist has no dummy: a player decides on his own thirteen cards and what the
play has shown him. Double-dummy figures (:mod:`whistbook.analysis`) know all
four hands and are hindsight. The judge gives each card played three things:

* its **single-dummy** worth (:mod:`.single_dummy`): the expected tricks of
  each legal choice over the deals its player could imagine (his own cards,
  the cards played, what the laws prove and what the conventions presume, as
  the inference engine keeps them), drawn uniformly and solved double-dummy,
  with the chance of the game's result where the score makes it matter;
* the **principle's choice** (:mod:`.principle`): the cards Cavendish's
  conventions choose there, with the rule, or silence;
* a **verdict** (:mod:`.verdict`): good, inaccuracy, mistake or blunder, from
  the expected tricks (and chance of the result) lost against the best.

>>> from whistbook.corpus import check_file
>>> j = judge(check_file("hands/cavendish/03-rule-of-returned-leads.yaml"), seats=[Seat.A],
...           budget=Budget(8, 8, 8))                                      # doctest: +SKIP
>>> j.card(1, Seat.A).verdict                                              # doctest: +SKIP
'good'

Results are kept in the analysis cache (section ``judge``), one entry per hand
and seat, keyed by the deal, the play, the score, the seed, the budget and the
judge's own version: a hand's verdicts are made again only when it changes.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from ..cards import Card
from ..seats import SEATS, Seat
from .position import Decision, Table, choices_at, decisions, view_at
from .principle import SILENT, Principle, principle
from .single_dummy import Budget, Evaluation, evaluate
from .verdict import TIERS, Loss, losses, settled

#: Bump when what the judge stores changes meaning (or its method changes its figures).
JUDGE_VERSION = 3


@dataclass(frozen=True)
class CardJudgement:
    """The judgement of one card played."""

    trick: int
    index: int  # 0: the lead
    seat: Seat
    card: Card
    principle: Principle
    #: every choice the seat had, with its loss (empty when it had one choice only)
    options: tuple[Loss, ...] = ()
    samples: int = 0
    exact: bool = False
    basis: str = "presumed"
    revoke: bool = False  # the card was a revoke, which the laws judge
    #: the laws made the player play it (a called card, highest or lowest on demand): no choice to judge
    by_law: bool = False

    @property
    def forced(self) -> bool:
        """True when every legal card was one choice (one card, or cards equal in sequence)."""
        return not self.options

    @property
    def loss(self) -> Loss | None:
        """The played card's own loss (None when forced or a revoke)."""
        for o in self.options:
            if self.card in o.cards:
                return o
        return None

    @property
    def best(self) -> Loss | None:
        """The reference best choice (the one others are measured against)."""
        return min(self.options, key=lambda o: (o.tricks, o.result or 0.0), default=None)

    @property
    def verdict(self) -> str:
        if self.revoke:
            return "blunder"
        loss = self.loss
        return "good" if loss is None else loss.tier

    @property
    def rule(self) -> str | None:
        """The rule that chooses the card played when it is the principle's, else the principle's first rule."""
        return self.principle.rule_of(self.card, [o.cards for o in self.options])

    @property
    def follows_principle(self) -> bool | None:
        """Whether the card is the principle's (or equal to one); None when the principle is silent."""
        if self.principle.silent:
            return None
        return self.principle.allows(self.card, [o.cards for o in self.options])

    def to_json(self) -> dict[str, Any]:
        """The fields ``whistbook analyse --format json`` adds to a played card."""
        loss = self.loss
        sd = None
        if loss is not None:
            sd = {
                "expected": round(loss.expected, 3), "best": round(loss.best, 3), "loss": round(loss.tricks, 3),
                "samples": self.samples, "stderr": round(loss.stderr, 3), "exact": self.exact, "basis": self.basis,
                "best_cards": [str(c) for c in self.best.cards] if self.best else [],
                "result_loss": None if loss.result is None else round(loss.result, 3),
                "options": [{"cards": [str(c) for c in o.cards], "expected": round(o.expected, 3), "tier": o.tier}
                            for o in self.options],
            }
        out = {
            "single_dummy": sd,
            "verdict": self.verdict,
            "principle": self._principle_json(),
            "follows_principle": self.follows_principle,
        }
        if self.revoke or self.by_law:
            out["laws"] = "revoke" if self.revoke else "called"
        return out


    def _principle_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cards": [str(c) for c in self.principle.cards], "rule": self.principle.rule}
        if self.principle.rules:  # two rules speak: each card's own
            out["rules"] = list(self.principle.rules)
        return out


@dataclass(frozen=True)
class Judgement:
    """The judgements of the cards played in one hand, in play order."""

    cards: tuple[CardJudgement, ...]
    seed: int = 0
    budget: Budget = Budget()

    def card(self, trick: int, seat: Seat) -> CardJudgement | None:
        for c in self.cards:
            if c.trick == trick and c.seat == seat:
                return c
        return None

    def of_seat(self, seat: Seat) -> tuple[CardJudgement, ...]:
        return tuple(c for c in self.cards if c.seat == seat)


def judge(checked_or_table: Any, *, seats: Iterable[Seat] | None = None, seed: int = 0,
          budget: Budget = Budget(), cache: Any = None,
          progress: Callable[[int, int], None] | None = None) -> Judgement:
    """Judge every card the ``seats`` (default: all four) played in a hand.

    ``checked_or_table`` is a checked hand (:class:`~whistbook.laws.CheckedHand`)
    that replays, or a :class:`~.position.Table`. ``cache`` (an
    :class:`~whistbook.analysis.Cache`) keeps the verdicts between runs.
    ``progress(done, total)`` is called after each decision judged.

    :raises SolverError: if the double-dummy solver cannot be used.
    """
    table = checked_or_table if isinstance(checked_or_table, Table) else Table.of(checked_or_table)
    wanted = tuple(sorted(set(SEATS if seats is None else seats)))
    all_decisions = decisions(table)
    out: dict[tuple[int, int], CardJudgement] = {}
    todo: list[tuple[Seat, list[Decision]]] = []
    for seat in wanted:
        mine = [d for d in all_decisions if d.seat == seat]
        found = _load(cache, table, seat, seed, budget, mine)
        if found is not None:
            out.update(((j.trick, j.index), j) for j in found)
        else:
            todo.append((seat, mine))
    total = sum(len(m) for _, m in todo)
    done = 0
    for seat, mine in todo:
        made = []
        for d in mine:
            made.append(judge_decision(table, d, seed=seed, budget=budget))
            done += 1
            if progress is not None:
                progress(done, total)
        _store(cache, table, seat, seed, budget, made)
        out.update(((j.trick, j.index), j) for j in made)
    ordered = tuple(out[(d.trick, d.index)] for d in all_decisions if (d.trick, d.index) in out)
    return Judgement(ordered, seed, budget)


def judge_decision(table: Table, d: Decision, *, seed: int = 0, budget: Budget = Budget(),
                   evaluation: Evaluation | None = None) -> CardJudgement:
    """The judgement of one decision (see :func:`judge`)."""
    revoke = d.played not in d.legal
    if revoke or (d.trick, d.played) in table.forced:
        # the laws, not the judge, deal with a revoke and with a card they made him play
        return CardJudgement(d.trick, d.index, d.seat, d.played, SILENT, revoke=revoke, by_law=not revoke)
    view = view_at(table, d)
    groups = choices_at(table, d)
    rule = principle(table, d, view)
    if len(groups) <= 1:
        return CardJudgement(d.trick, d.index, d.seat, d.played, rule)
    ev = evaluation or evaluate(table, d, seed=seed, budget=budget, settled=lambda e: settled(e, d.played),
                                view=view)
    return CardJudgement(d.trick, d.index, d.seat, d.played, rule, losses(ev), ev.samples, ev.exact, ev.basis)


# --------------------------------------------------------------------------- cache

def cache_key(table: Table, seat: Seat, seed: int, budget: Budget) -> str:
    """A hash of everything a seat's verdicts depend on."""
    from .verdict import CONFIDENCE, RESULT_STEPS, TRICK_STEPS

    data = {
        "v": JUDGE_VERSION, "code": _code_hash(),
        "seat": str(seat), "seed": seed, "budget": [budget.least, budget.most, budget.batch, budget.early_most, budget.early_from],
        "steps": [TRICK_STEPS, RESULT_STEPS, CONFIDENCE],
        "trumps": table.trumps.letter if table.trumps is not None else "N",
        "deal": {str(s): sorted(str(c) for c in table.hands[s]) for s in SEATS},
        "leader": str(table.leader),
        "play": [str(c) for t in table.tricks for c in t.cards],
        "turn_up": str(table.turn_up) if table.turn_up is not None else None,
        "dealer": str(table.dealer) if table.dealer is not None else None,
        "score": {str(s): n for s, n in table.score.items()} if table.score else None,
        "rules": table.rules,
        "revokes": sorted(f"{t}:{c}" for t, c in table.revokes),
        "forced": sorted(f"{t}:{c}" for t, c in table.forced),
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=1)
def _code_hash() -> str:
    """A hash of the code the verdicts come from (the judge, the inference engine it
    reads knowledge from, the replay and the scoring) and of the solver's version,
    so that stored verdicts never outlive a change of method."""
    from importlib.metadata import PackageNotFoundError, version

    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for f in sorted([*root.joinpath("judgement").glob("*.py"), *root.joinpath("inference").glob("*.py"),
                     root / "play.py", root / "scoring.py", root / "solver.py"]):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    try:
        h.update(version("endplay").encode())
    except PackageNotFoundError:
        pass
    return h.hexdigest()


def _store(cache: Any, table: Table, seat: Seat, seed: int, budget: Budget, made: Sequence[CardJudgement]) -> None:
    if cache is None:
        return
    key = cache_key(table, seat, seed, budget)
    cache.put(key, {"key": key, "cards": [_to_data(j) for j in made]}, section="judge")


def _load(cache: Any, table: Table, seat: Seat, seed: int, budget: Budget,
          mine: Sequence[Decision]) -> list[CardJudgement] | None:
    """The stored judgements of ``seat``, or None when absent or not as expected
    (a damaged or foreign entry counts as missing)."""
    if cache is None:
        return None
    key = cache_key(table, seat, seed, budget)
    data = cache.get(key, section="judge")
    try:
        if not isinstance(data, dict) or data.get("key") != key or len(data["cards"]) != len(mine):
            return None
        out = [_from_data(x) for x in data["cards"]]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if any((j.trick, j.index, j.seat, j.card) != (d.trick, d.index, d.seat, d.played) for j, d in zip(out, mine)):
        return None
    return out


def _to_data(j: CardJudgement) -> dict[str, Any]:
    return {
        "t": j.trick, "i": j.index, "s": str(j.seat), "c": str(j.card),
        "p": [[str(c) for c in j.principle.cards], j.principle.rule, list(j.principle.rules)],
        "o": [[[str(c) for c in o.cards], o.expected, o.best, o.tricks, o.stderr, o.result, o.result_stderr, o.tier]
              for o in j.options],
        "n": j.samples, "x": j.exact, "b": j.basis, "r": j.revoke, "l": j.by_law,
    }


def _from_data(x: dict[str, Any]) -> CardJudgement:
    def num(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError("not a number")
        return float(v)

    def opt(v: Any) -> float | None:
        return None if v is None else num(v)

    options = []
    for cards, expected, best, tricks, stderr, result, result_se, tier in x["o"]:
        if tier not in TIERS:
            raise ValueError(f"unknown tier {tier!r}")
        options.append(Loss(tuple(Card.parse(c) for c in cards), num(expected), num(best), num(tricks), num(stderr),
                            opt(result), opt(result_se), tier))
    cards, rule, rules = x["p"]
    if rule is not None and not isinstance(rule, str):
        raise TypeError("rule")
    if not all(isinstance(r, str) for r in rules) or (rules and len(rules) != len(cards)):
        raise TypeError("rules")
    if x["b"] not in ("presumed", "certain"):
        raise ValueError("basis")
    return CardJudgement(
        int(x["t"]), int(x["i"]), Seat[x["s"]], Card.parse(x["c"]),
        Principle(tuple(Card.parse(c) for c in cards), rule, tuple(rules)), tuple(options),
        int(x["n"]), bool(x["x"]), x["b"], bool(x["r"]), bool(x.get("l", False)),
    )


__all__ = ["judge", "judge_decision", "Judgement", "CardJudgement", "Budget", "Principle", "Loss", "Table",
           "JUDGE_VERSION", "cache_key"]
