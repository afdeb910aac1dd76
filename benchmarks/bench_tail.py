"""One cold build's timeline: when each pool job ran, and what ran on one core.

    python benchmarks/bench_tail.py [--project .] [--jobs] [--join 7]

Copies the project's ``hands/``, ``templates/`` and ``mkdocs.yml`` into a
temporary folder and builds it there from nothing, as ``whistbook build
--no-cache`` does (the solver runs too), with each job the pool's workers run
logged (seconds from the start of this script). Prints the time to the first
job, the end of the last lesson part, what ran after it, the join and the
write in the main process after the last job, and the workers' idle time
within the pool's span; ``--jobs`` prints every job. With ``--join N`` the
booklet's parts are then joined N more times in this process and the median
printed (the join alone, as the build's last step does it).

Wall times move with the machine's load: compare two versions of the code
in turn (``PYTHONPATH=/path/to/other/checkout``), several runs each.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

T0 = time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", type=Path, default=Path("."))
    parser.add_argument("--jobs", action="store_true", help="print every job")
    parser.add_argument("--join", type=int, default=0, metavar="N", help="then time the join N times")
    args = parser.parse_args()

    import whistbook.build as build
    from whistbook.project import load_project

    log: list[tuple[int, float, float, str]] = []
    laid: list = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in ("hands", "templates"):
            if (args.project / name).is_dir():
                shutil.copytree(args.project / name, root / name)
        if (args.project / "mkdocs.yml").is_file():
            shutil.copy(args.project / "mkdocs.yml", root / "mkdocs.yml")
        jobs_log = root / "jobs.log"
        _log_jobs(build, str(jobs_log))
        join = build.Booklet.join
        build.Booklet.join = lambda self, parts: (laid.append(parts), join(self, parts))[1]
        project = load_project(root)
        options = build.BuildOptions.for_book(project.book, hands=project.hands, templates=project.templates,
                                              output=project.output, mkdocs_config=root / "mkdocs.yml", cache=None)
        build.build(options)
        total = time.perf_counter() - T0
        for line in jobs_log.read_text(encoding="utf-8").splitlines():
            pid, start, end, label = line.split(maxsplit=3)
            log.append((int(pid), float(start), float(end), label))
    _report(sorted(log, key=lambda job: job[1]), total, args.jobs)
    if args.join and laid:
        from whistbook.render.pdf import join_parts

        times = []
        for _ in range(args.join):
            began = time.perf_counter()
            join_parts(*laid[0], title=options.title, author=options.author)
            times.append(time.perf_counter() - began)
        print(f"join: median {statistics.median(times):.3f} s of {args.join}")


def _log_jobs(build, path: str) -> None:
    """Each job the pool gives a worker, added to the file at ``path`` when it ends."""
    from whistbook.workers import Pool

    submit = Pool.submit

    def logged(self, fn, *args, **kw):
        return submit(self, _timed, path, fn, *args, **kw)

    Pool.submit = logged


def _timed(path: str, fn, *args):
    began = time.perf_counter()
    try:
        return fn(*args)
    finally:
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {began - T0:.3f} {time.perf_counter() - T0:.3f} {_label(fn, args)}\n")


def _label(fn, args) -> str:
    import re

    if args and isinstance(args[0], str) and "<" in args[0]:
        found = re.search(r'id="([\w-]+)-lesson"|id="(themes|principles|glossary|answers)"|class="(cover)', args[0])
        return f"{fn.__name__}:{next((g for g in found.groups() if g), '?') if found else '?'}"
    if args and hasattr(args[0], "name"):
        return f"{fn.__name__}:{args[0].name}"
    return fn.__name__


def _report(log: list[tuple[int, float, float, str]], total: float, every: bool) -> None:
    if every:
        for pid, start, end, label in log:
            print(f"{pid} {start:7.2f} {end:7.2f} {label}")
    if not log:
        print(f"no jobs; {total:.2f} s")
        return
    first, last = log[0][1], max(end for _, _, end, _ in log)
    parts = [end for _, _, end, label in log if label.startswith("_lay_out_part:") and label.split(":")[1] not in
             ("themes", "principles", "glossary", "answers", "cover", "?")]
    last_part = max(parts, default=first)
    busy = sum(end - start for _, start, end, _ in log)
    workers = len({pid for pid, *_ in log})
    after = [label.split(":")[-1] for _, _, end, label in log if end > last_part]
    print(f"first job {first:.2f} s; last lesson part ends {last_part:.2f}; then {last - last_part:.2f} s of "
          f"{', '.join(after) or 'nothing'}; join and write {total - last:.2f}; total {total:.2f}")
    print(f"workers idle {workers * (last - first) - busy:.2f} worker-seconds of {workers * (last - first):.1f}")


if __name__ == "__main__":
    sys.exit(main())
