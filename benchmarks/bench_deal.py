"""How fast ``whistbook deal`` makes hands on each theme, and whether the quiz grades them as promised.

For each theme (default: every theme that can be made) it makes ``--count``
hands (default 20) into a fresh folder, timing it, then checks every hand
as a build would: it validates, and the lesson's play quiz at the decisive
trick grades the decisive card right and no other card of that decision
right or sound (the judge with a build's seed and budget).

    python benchmarks/bench_deal.py [--count 20] [--seed 0] [--theme T ...] [--json OUT]

One process, one DDS thread: the figures are for one core. Say how loaded
the machine was (``uptime``) when quoting them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def quiz_holds(path: Path) -> tuple[bool, str]:
    """Whether the decisive trick's quiz asks, grades the book's card right and no other card right or sound."""
    from whistbook.corpus import check_file
    from whistbook.judgement import Budget, judge
    from whistbook.quiz import play_quizzes

    checked = check_file(path)
    if not checked.ok:
        return False, "invalid: " + "; ".join(str(d) for d in checked.diagnostics[:2])
    hf = checked.hand
    remark_trick = next(i for i, t in enumerate(hf.tricks, 1) if t.remark)
    seat = hf.known_hand
    j = judge(checked, seats=[seat], budget=Budget.up_to(None))
    shown = [t.number for t in checked.replay.tricks]
    qs = {q.trick: q for q in play_quizzes(checked, seat, None, shown, j)}
    q = qs.get(remark_trick)
    if q is None:
        return False, f"no question at trick {remark_trick}"
    if q.sound or q.book not in q.right or len(q.right) + len(q.sound) >= len(q.legal):
        return False, f"trick {remark_trick}: right {q.right} sound {q.sound}"
    return True, ""


def main(argv: list[str] | None = None) -> int:
    from whistbook.cli_deal import write_hands
    from whistbook.generate import GENERATED

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--theme", action="append", help="a theme (repeatable; default: all)")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args(argv)
    print(f"load before: {os.getloadavg()[0]:.2f} (1-minute average, {os.cpu_count()} cores)")
    rows = []
    for theme in args.theme or GENERATED:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            lines: list[str] = []
            start = time.perf_counter()
            write_hands(theme, args.count, out, seed=args.seed, progress=lines.append)
            took = time.perf_counter() - start
            files = sorted(out.glob("*.yaml"))
            verified = [quiz_holds(f) for f in files]
            ok = sum(v for v, _ in verified)
            bad = [f"{f.name}: {why}" for f, (v, why) in zip(files, verified) if not v]
        row = {"theme": theme, "made": len(files), "seconds": round(took, 1), "quiz_ok": ok, "failures": bad,
               "load": round(os.getloadavg()[0], 2)}
        rows.append(row)
        print(f"{theme:18} {len(files):3} made in {took:6.1f} s; quiz as promised on {ok}/{len(files)}"
              f"; load {row['load']}", flush=True)
        for b in bad:
            print(f"    {b}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
