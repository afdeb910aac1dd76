"""How long the judge takes over the book, cold and from the cache.

    python benchmarks/bench_judge.py                 # the known hand's cards in the 39 hands
    python benchmarks/bench_judge.py --seats all     # every card of every seat
    python benchmarks/bench_judge.py --hands 5       # the first five hands only (a quick look)

Cold: a fresh cache, the hands shared among ``--jobs`` worker processes (DDS on
one thread each, as in the build). Warm: the same verdicts read back from the
cache, in this process. Prints the wall time of each, the decisions judged,
the deals weighed per decision (mean and median), how many were weighed
exactly, the mean standard error of the played card's loss, and the time
spent per trick number (the first tricks cost most).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _hands(n: int | None) -> list[Path]:
    files = sorted((ROOT / "hands" / "cavendish").glob("*.yaml"))
    return files[:n] if n else files


def _seats(checked, which: str):
    from whistbook.seats import SEATS

    return list(SEATS) if which == "all" else [checked.hand.known_hand]


def _judge_one(args):
    """Judge one hand (in a worker): its figures per decision, and the seconds per trick."""
    path, which, cache_dir = args
    from whistbook import solver
    from whistbook.analysis import Cache
    from whistbook.corpus import check_file
    from whistbook.judgement import judge

    solver.limit_threads(1)
    checked = check_file(str(path))
    times: dict[int, float] = defaultdict(float)
    last = [time.perf_counter()]
    cards = []

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        cards.append(now - last[0])
        last[0] = now

    j = judge(checked, seats=_seats(checked, which), cache=Cache(cache_dir), progress=progress)
    rows = []
    # the judge works seat by seat, each seat's cards in play order: the order of the progress calls
    for c, took in zip(sorted(j.cards, key=lambda c: (int(c.seat), c.trick, c.index)), cards):
        times[c.trick] += took
        loss = c.loss
        rows.append((c.forced, c.samples, c.exact, loss.stderr if loss is not None else None))
    return rows, dict(times)


def _warm(files: list[Path], which: str, cache_dir: str) -> tuple[float, int]:
    from whistbook.analysis import Cache
    from whistbook.corpus import check_file
    from whistbook.judgement import judge

    checked = [check_file(str(f)) for f in files]  # loading the hands is not the judge's time
    start = time.perf_counter()
    n = 0
    for ch in checked:
        n += len(judge(ch, seats=_seats(ch, which), cache=Cache(cache_dir),
                       progress=lambda *_: (_ for _ in ()).throw(RuntimeError("not cached"))).cards)
    return time.perf_counter() - start, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", choices=("known", "all"), default="known")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--hands", type=int, default=None, help="only the first N hands")
    ap.add_argument("--keep", metavar="DIR", help="keep the verdicts in this (empty) cache folder afterwards")
    args = ap.parse_args(argv)
    files = _hands(args.hands)
    with tempfile.TemporaryDirectory() as tmp:
        cache_dir = args.keep or tmp
        start = time.perf_counter()
        rows, per_trick = [], defaultdict(float)
        with ProcessPoolExecutor(args.jobs) as pool:
            for r, t in pool.map(_judge_one, [(f, args.seats, cache_dir) for f in files]):
                rows += r
                for k, v in t.items():
                    per_trick[k] += v
        cold = time.perf_counter() - start
        warm, n_warm = _warm(files, args.seats, cache_dir)
    judged = [r for r in rows if not r[0]]
    samples = [r[1] for r in judged]
    errors = [r[3] for r in judged if r[3] is not None and not r[2]]
    print(f"{len(files)} hands, {args.seats} seats, {args.jobs} processes")
    print(f"cold: {cold:.1f} s for {len(rows)} cards ({len(judged)} with a real choice)")
    print(f"warm: {warm:.2f} s for {n_warm} cards, from the cache")
    print(f"deals weighed per decision: mean {statistics.mean(samples):.1f}, median {statistics.median(samples):.0f}; "
          f"{sum(1 for r in judged if r[2])} decisions weighed exactly (every deal)")
    if errors:
        print(f"standard error of the played card's loss (sampled decisions): mean {statistics.mean(errors):.3f}, "
              f"median {statistics.median(errors):.3f}, largest {max(errors):.3f} tricks")
    total = sum(per_trick.values())
    print("processor seconds by trick: " + ", ".join(f"{k}: {v:.0f}" for k, v in sorted(per_trick.items())
                                                      if v >= 0.5) + f" (of {total:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
