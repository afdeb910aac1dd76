"""Rendering speed: the whole ``whistbook build`` of the corpus, and one lesson's HTML.

    python benchmarks/bench_build.py [--hands hands] [--builds 3] [--repeats 20]

* *build*: ``whistbook.build.build`` from ``--hands`` into a temporary folder
  (checking, inferences, double-dummy analysis, every page, the booklet and
  the MkDocs site), run ``--builds`` times in this process. The first run may
  fill the analysis cache (``.whistbook-cache``); the median is over all runs.
* *lesson HTML*: ``render_lesson`` for each lesson of the corpus, ``--repeats``
  times each, from lessons already built (the template environment is made
  once, as the build makes it); the median over lessons of each lesson's
  median, and the slowest lesson's median.
* *phases*: the median of each build phase, to see where the time goes.

Figures are medians, in seconds or milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.build import BuildOptions, _engines, build, gather  # noqa: E402
from whistbook.corpus import find_hand_files  # noqa: E402
from whistbook.render.context import RenderOptions  # noqa: E402
from whistbook.render.environment import make_environment  # noqa: E402
from whistbook.render.html import render_lesson  # noqa: E402


def bench_builds(hands: Path, runs: int) -> None:
    seconds, pages, phases = [], 0, {}
    for k in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            options = BuildOptions(hands=hands, output=Path(tmp) / "output", templates=ROOT / "templates",
                                   mkdocs_config=ROOT / "mkdocs.yml")
            start = time.perf_counter()
            report = build(options)
            seconds.append(time.perf_counter() - start)
            pages = report.pdf_pages
            for name, t in report.phases.items():
                phases.setdefault(name, []).append(t)
        print(f"  build {k + 1}: {seconds[-1]:.1f} s", flush=True)
    print(f"full build: median {statistics.median(seconds):.1f} s over {runs} "
          f"(min {min(seconds):.1f}, max {max(seconds):.1f}); {report.lessons} lessons, "
          f"{report.problems} problems, {pages}-page booklet")
    print("  phases (median s): " + ", ".join(f"{n} {statistics.median(v):.2f}" for n, v in phases.items()))


def bench_lessons(hands: Path, repeats: int) -> None:
    engines = _engines()
    gathered = gather(find_hand_files([str(hands)]), hands, engines, lambda message: None)
    from whistbook.build import analyse_all

    lessons = gathered.lessons(engines, analyse_all(gathered, engines))
    env = make_environment(ROOT / "templates", rules=engines.rules)
    options = RenderOptions(analysis=True)
    per_lesson = []
    for lesson in lessons:
        render_lesson(lesson, env, options=options)  # compile the templates first
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            render_lesson(lesson, env, options=options)
            times.append(time.perf_counter() - start)
        per_lesson.append((statistics.median(times), lesson.title))
    slowest = max(per_lesson)
    print(f"one lesson's HTML: median {1000 * statistics.median(t for t, _ in per_lesson):.1f} ms over "
          f"{len(lessons)} lessons; slowest {1000 * slowest[0]:.1f} ms ({slowest[1]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", default=str(ROOT / "hands"))
    parser.add_argument("--builds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    hands = Path(args.hands)
    bench_lessons(hands, args.repeats)
    if args.builds:
        bench_builds(hands, args.builds)


if __name__ == "__main__":
    main()
