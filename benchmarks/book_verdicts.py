"""How often the judge agrees with Cavendish's own verdicts on particular cards.

The test set is tests/data/book_verdicts.yaml: the cards the book praises,
blames, excuses or leaves open. A blamed card should be flagged (an
inaccuracy, a mistake or a blunder on what its player knew); a praised card
should not. The double-dummy figure (does the card cost a trick against the
best, all four hands seen?) is shown beside it for comparison.

    python benchmarks/book_verdicts.py [--jobs 2] [--json OUT] [--basis explicit]

Prints the agreement table and every disagreement, with the judge's figures,
for docs/beyond-the-book.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))


def _judge_hand(args):
    """Judge the entries of one hand file: (entry index, verdict data) pairs."""
    hand, entries = args
    from whistbook import solver
    from whistbook.analysis import analyse
    from whistbook.corpus import check_file
    from whistbook.judgement import judge_decision
    from whistbook.judgement.position import Table, decisions

    solver.limit_threads(1)
    checked = check_file(str(ROOT / "hands" / hand))
    table = Table.of(checked)
    dd = {(t.number, v.seat): v for t in analyse(checked).tricks for v in t.cards}
    by_place = {(d.trick, d.seat): d for d in decisions(table)}
    out = []
    for i, trick, seat in entries:
        d = by_place[(trick, seat)]
        j = judge_decision(table, d)
        loss = j.loss
        v = dd[(trick, seat)]
        out.append((i, {
            "verdict": j.verdict, "follows_principle": j.follows_principle, "rule": j.principle.rule,
            "principle": [str(c) for c in j.principle.cards],
            "loss": None if loss is None else round(loss.tricks, 2),
            "stderr": None if loss is None else round(loss.stderr, 2),
            "result_loss": None if loss is None or loss.result is None else round(loss.result, 2),
            "best": [str(c) for c in j.best.cards] if j.best else [],
            "samples": j.samples, "basis": j.basis, "dd_cost": v.cost,
        }))
    return out


def main(argv: list[str] | None = None) -> int:
    from book_verdicts import load_book_verdicts

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every entry with the judge's figures to this file")
    ap.add_argument("--basis", choices=("explicit", "argued", "cited"), action="append",
                    help="only entries of this basis (repeatable; default: all)")
    args = ap.parse_args(argv)
    verdicts = [v for v in load_book_verdicts()
                if v.solution is None and not v.ending and v.hand.startswith("cavendish/")
                and (not args.basis or v.basis in args.basis)]
    by_hand: dict[str, list] = defaultdict(list)
    for i, v in enumerate(verdicts):
        by_hand[v.hand].append((i, v.trick, v.seat))
    start = time.perf_counter()
    found: dict[int, dict] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(_judge_hand, sorted(by_hand.items())):
            found.update(part)
    took = time.perf_counter() - start
    table: Counter = Counter()
    lines = []
    for i, v in enumerate(verdicts):
        f = found[i]
        flagged = f["verdict"] != "good"
        table[(v.verdict, flagged)] += 1
        table[(v.verdict, "dd", f["dd_cost"] > 0)] += 1
        agree = (v.verdict == "blamed") == flagged if v.verdict in ("blamed", "praised") else None
        if agree is False:
            lines.append(f"  {v.key:14} {v.card} {v.verdict:8} judge: {f['verdict']:10} loss {f['loss']}"
                         f"±{f['stderr']} result {f['result_loss']} best {' '.join(f['best'])}; "
                         f"principle {f['rule']} {' '.join(f['principle'])}; dd cost {f['dd_cost']}")
    print(f"{len(verdicts)} verdicts of the book judged in {took:.0f} s ({args.jobs} processes)\n")
    print("book says | flagged by the judge | not flagged | double-dummy: costs a trick | does not")
    for kind in ("blamed", "praised", "excused", "doubtful"):
        print(f"{kind:9} | {table[(kind, True)]:20} | {table[(kind, False)]:11} | "
              f"{table[(kind, 'dd', True)]:27} | {table[(kind, 'dd', False)]}")
    blamed = table[("blamed", True)] + table[("blamed", False)]
    praised = table[("praised", True)] + table[("praised", False)]
    agree = table[("blamed", True)] + table[("praised", False)]
    dd_agree = table[("blamed", "dd", True)] + table[("praised", "dd", False)]
    print(f"\nagreement on blamed and praised cards: judge {agree}/{blamed + praised}"
          f" ({agree / max(1, blamed + praised):.0%}), double-dummy {dd_agree}/{blamed + praised}")
    print("\ndisagreements:")
    print("\n".join(lines) or "  none")
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{"key": v.key, "card": str(v.card), "book": v.verdict, "basis": v.basis, **found[i]}
             for i, v in enumerate(verdicts)], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
