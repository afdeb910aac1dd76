"""The lessons stage of a cold build: ``build.make_lesson`` for every hand file, in one process.

    python benchmarks/bench_lessons.py                  # this repository's project, CPU seconds
    python benchmarks/bench_lessons.py --project DIR --repeat 3
    python benchmarks/bench_lessons.py --startup-only   # imports and job list only (see below)
    python benchmarks/bench_lessons.py --profile out.prof

This is what each worker of ``whistbook build --no-cache`` does with the files it is given (the solver
on one thread, no solver cache). It prints the processor time of each repeat and their median.

For instruction counts, which other load on the machine does not move, run it under cachegrind and
subtract a run with ``--startup-only``::

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python benchmarks/bench_lessons.py --repeat 1 2>&1 | grep 'I *refs'

This is a report, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", type=Path, default=ROOT, help="book project folder (default: this repository)")
    ap.add_argument("--repeat", type=int, default=1, help="times to make every lesson (default 1)")
    ap.add_argument("--startup-only", action="store_true", help="stop before the first lesson")
    ap.add_argument("--profile", type=Path, help="write a cProfile of the first repeat here")
    args = ap.parse_args()

    from whistbook import build, solver
    from whistbook.corpus import find_hand_files
    from whistbook.project import load_project

    p = load_project(args.project.resolve())
    opts = build.BuildOptions.for_book(p.book, hands=p.hands, templates=p.templates, output=p.output,
                                       mkdocs_config=p.root / "mkdocs.yml", cache=None)
    jobs = build.lesson_jobs(find_hand_files([p.hands]), opts)
    solver.limit_threads(1)  # as in a build's workers
    if args.startup_only:
        return
    times = []
    for k in range(args.repeat):
        prof = None
        if args.profile and k == 0:
            import cProfile

            prof = cProfile.Profile()
            prof.enable()
        t = time.process_time()
        for _, job in jobs:
            build.make_lesson(*job)
        times.append(time.process_time() - t)
        if prof is not None:
            prof.disable()
            prof.dump_stats(args.profile)
    print(f"{len(jobs)} files, CPU s per repeat: {', '.join(f'{t:.2f}' for t in times)}; "
          f"median {statistics.median(times):.2f}")


if __name__ == "__main__":
    main()
