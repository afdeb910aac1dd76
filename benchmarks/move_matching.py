"""Move matching: how often the convention player chooses the book's card.

Over every card of the 39 hands of Cavendish's Part II (every seat; forced
cards aside: a card is forced when all its player's legal cards are one
choice), the convention player (:class:`whistbook.players.ConventionPlayer`,
single-dummy search) is put in the seat's place with the play so far and
asked for a card. It *matches* when it chooses the book's card or one equal
to it in sequence. Chess engines are measured the same way against masters'
games ("move matching").

    python benchmarks/move_matching.py [--jobs 2] [--principle-only] [--json OUT]

``--principle-only`` skips the search: it reports how often the book's card
is among the principle's cards (the player's choice where the principle has
one choice only), in seconds. Prints the rate, the rate by how the player
chose (the principle alone, the search among its cards, the search where it
is silent), the disagreements by rule, and the commonest ones.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _hand(args):
    """The player's choice at every unforced decision of one hand file."""
    path, principle_only, seed = args
    from whistbook import solver
    from whistbook.corpus import check_file
    from whistbook.judgement.position import Table, choices, decisions, played_before, view_at
    from whistbook.judgement.principle import principle
    from whistbook.players import ConventionPlayer

    solver.limit_threads(1)
    checked = check_file(path, solver=False)
    table = Table.of(checked)
    player = ConventionPlayer("single-dummy", seed=seed)
    out = []
    for d in decisions(table):
        if d.played not in d.legal or (d.trick, d.played) in table.forced:
            continue  # a revoke, or a card the laws called: not the player's choice
        groups = choices(d.legal, played_before(table, d))
        if len(groups) < 2:
            continue
        book = next(g for g in groups if d.played in g)
        if principle_only:
            p = principle(table, d, view_at(table, d))
            mine = [g for g in groups if any(c in p.cards for c in g)]
            how = "silent" if p.silent else ("principle" if len(mine) == 1 else "search among the principle's")
            chosen = mine[0] if len(mine) == 1 else None
            match = (book in mine) if len(mine) != 1 else chosen == book
            rule = p.rule_of(d.played, groups)
        else:
            c = player.choose(table, d)
            p = c.principle
            how = {"principle": "principle", "single-dummy": "search among the principle's"
                   if not p.silent else "search, the principle silent"}[c.how]
            match = c.card in book
            chosen = next(g for g in groups if c.card in g)
            rule = p.rule_of(c.card, groups)
        out.append({"hand": checked.hand.title, "trick": d.trick, "seat": str(d.seat), "book": str(d.played),
                    "chosen": [str(x) for x in chosen] if chosen else None, "match": match, "how": how,
                    "rule": rule, "principle": [str(x) for x in p.cards], "choices": len(groups)})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--principle-only", action="store_true", help="no search: is the book's card the principle's?")
    ap.add_argument("--json", help="write every decision with the player's choice to this file")
    args = ap.parse_args(argv)
    files = sorted((ROOT / "hands" / "cavendish").glob("*.yaml"))
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [r for part in pool.map(_hand, [(str(f), args.principle_only, args.seed) for f in files]) for r in part]
    took = time.perf_counter() - start
    n = len(rows)
    hit = sum(r["match"] for r in rows)
    print(f"{n} decisions with a choice in {len(files)} hands (every seat), {took:.0f} s ({args.jobs} processes)")
    label = "book's card among the principle's" if args.principle_only else "the player chose the book's card"
    print(f"{label}: {hit}/{n} = {hit / n:.1%}\n")
    by_how: Counter = Counter()
    for r in rows:
        by_how[(r["how"], r["match"])] += 1
    print("how the player chose            | decisions | matched")
    for how in ("principle", "search among the principle's", "search, the principle silent", "silent"):
        total = by_how[(how, True)] + by_how[(how, False)]
        if total:
            print(f"{how:31} | {total:9} | {by_how[(how, True)]:4} ({by_how[(how, True)] / total:.0%})")
    by_rule: Counter = Counter()
    for r in rows:
        by_rule[(r["rule"], r["match"])] += 1
    print("\ndisagreements by the rule the player followed (matched / not):")
    rules = sorted({r["rule"] for r in rows}, key=lambda x: -by_rule[(x, False)])
    for rule in rules:
        if by_rule[(rule, False)]:
            print(f"  {str(rule):34} {by_rule[(rule, True)]:4} / {by_rule[(rule, False)]}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
