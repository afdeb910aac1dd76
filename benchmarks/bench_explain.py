"""Time the inference engine on the corpus.

    python benchmarks/bench_explain.py [FOLDER] [--repeat N] [--all-seats]

Loads and checks every hand file first (not timed), then times explaining
all of them (from each file's known hand, or from all four seats with
--all-seats) N times and prints the median and the best run, in wall-clock
time and in CPU time (the figure to compare when the machine is shared). The brief for
the engine: all 39 hands from every seat (--all-seats) in under 2 s of CPU time.
Run ``benchmarks/explain_dump.py`` before and after a change meant only to
make the engine faster: its output must not change.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.corpus import check_file  # noqa: E402
from whistbook.inference import explain  # noqa: E402
from whistbook.seats import SEATS  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT / "hands" / "cavendish"))
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--all-seats", action="store_true")
    args = ap.parse_args()
    files = sorted(Path(args.folder).glob("*.yaml"))
    checked = [c for c in (check_file(f, solver=False) for f in files) if c.replay is not None]
    if not checked:
        print(f"no hand files that replay in {args.folder}", file=sys.stderr)
        return 1
    seats = list(SEATS) if args.all_seats else [None]
    times, cpu = [], []
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        for ch in checked:
            for s in seats:
                explain(ch, s)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    n = len(checked) * len(seats)
    print(f"explained {len(checked)} hands ({n} explanations) {args.repeat} times: "
          f"median {statistics.median(times):.3f} s, best {min(times):.3f} s "
          f"({1000 * statistics.median(times) / n:.1f} ms per explanation); "
          f"CPU time median {statistics.median(cpu):.3f} s (less affected by other jobs on the machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
