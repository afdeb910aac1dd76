"""Build speed: cold, unchanged and after one edit, and at scale; and one lesson's HTML.

    python benchmarks/bench_build.py [--hands hands] [--builds 3] [--repeats 20] [--scale 200]

Each build runs ``whistbook build -q`` in a fresh process on a copy of the
project in a temporary folder (hands, templates, mkdocs.yml), and is timed
from outside; the peak memory is the largest sum of the proportional set sizes of
the build and its workers, sampled every 50 ms.

* *cold*: empty output and an empty build cache (``.whistbook-cache/``);
  the double-dummy solver's results are copied in from this repository's
  cache when it has them, as a clone that has run ``analyse`` once would.
* *unchanged*: the same build again.
* *one edit*: a word added to one remark of one hand, booklet included.
* *scale*: ``--scale`` starter hands (``whistbook new``), cold.
* *lesson HTML*: ``render_lesson`` for each lesson, ``--repeats`` times each.

Figures are medians over ``--builds`` runs, in seconds (and MB).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.build import _engines  # noqa: E402
from whistbook.corpus import find_hand_files  # noqa: E402
from whistbook.render.context import RenderOptions  # noqa: E402
from whistbook.render.environment import make_environment  # noqa: E402
from whistbook.render.html import render_lesson  # noqa: E402


def _pss(pid: int) -> int:
    """Proportional set size: resident bytes, with pages shared by forked
    workers counted once across them (plain RSS would count them in each)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _tree_rss(pid: int) -> int:
    """Memory of ``pid`` and its descendants (their proportional set sizes)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
            rss[int(entry)] = 0
        except (OSError, IndexError, ValueError):
            continue
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += _pss(p) if p in rss else 0
        todo += children.get(p, [])
    return total


#: processor seconds (user and system) of each build and its workers: on a machine other
#: work shares, wall times vary and these do not
CPU: list[float] = []


def timed_build(project: Path) -> tuple[float, float]:
    """Seconds and peak MB of one ``whistbook build`` in ``project``."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "whistbook", "build", "-q"], cwd=project)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    CPU.append(usage.ru_utime + usage.ru_stime)
    done.set()
    sampler.join()
    if code:
        raise SystemExit(f"build failed in {project} (exit {code})")
    return seconds, peak / 2**20


def new_project(tmp: Path, hands: Path) -> Path:
    project = tmp / "book"
    shutil.copytree(hands, project / "hands")
    shutil.copytree(ROOT / "templates", project / "templates")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    # the build keeps the solver's results in .whistbook-cache/solver/ (`analyse` in .whistbook-cache/analysis/)
    for solver in (ROOT / ".whistbook-cache" / "solver", ROOT / ".whistbook-cache"):
        if (solver / "analysis").is_dir():
            shutil.copytree(solver / "analysis", project / ".whistbook-cache" / "solver" / "analysis")
            break
    return project


def edit_one_remark(project: Path, k: int) -> None:
    hand = sorted((project / "hands").rglob("*.yaml"))[0]
    text = hand.read_text(encoding="utf-8")
    hand.write_text(text.replace("remark: |\n", f"remark: |\n      Edit {k}.\n", 1), encoding="utf-8")


def bench_builds(hands: Path, runs: int) -> None:
    cold, unchanged, edited, peaks, cpu = [], [], [], [], []
    for k in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            project = new_project(Path(tmp), hands)
            seconds, peak = timed_build(project)
            cold.append(seconds)
            peaks.append(peak)
            unchanged.append(timed_build(project)[0])
            edit_one_remark(project, k)
            edited.append(timed_build(project)[0])
            cpu.append(CPU[-3:])
        print(f"  run {k + 1}: cold {cold[-1]:.1f} s ({peaks[-1]:.0f} MB), unchanged {unchanged[-1]:.2f} s, "
              f"one edit {edited[-1]:.2f} s; processor seconds " + ", ".join(f"{t:.1f}" for t in cpu[-1]),
              flush=True)
    c, u, e = (statistics.median(x) for x in (cold, unchanged, edited))
    print(f"bundled book ({len(find_hand_files([str(hands)]))} files), medians over {runs}: cold {c:.1f} s "
          f"(peak {statistics.median(peaks):.0f} MB); unchanged {u:.2f} s = {u / c:.2f} of cold; "
          f"one edit {e:.2f} s = {e / c:.2f} of cold")
    pc, pu, pe = (statistics.median(run[i] for run in cpu) for i in range(3))
    print(f"  processor seconds (all cores): cold {pc:.1f}, unchanged {pu:.2f} = {pu / pc:.2f}, "
          f"one edit {pe:.2f} = {pe / pc:.2f}")


def bench_scale(n: int, runs: int) -> None:
    from whistbook.starter import starter_text

    times, peaks = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            hands = Path(tmp) / "starters"
            hands.mkdir()
            for k in range(n):
                (hands / f"hand-{k:03d}.yaml").write_text(starter_text(seed=k, title=f"Hand {k + 1}"), encoding="utf-8")
            project = new_project(Path(tmp), hands)
            (project / ".whistbook-cache").mkdir(exist_ok=True)
            seconds, peak = timed_build(project)
            times.append(seconds)
            peaks.append(peak)
        print(f"  {n} hands: {times[-1]:.1f} s, peak {peaks[-1]:.0f} MB, {CPU[-1]:.1f} processor seconds", flush=True)
    print(f"{n} starter hands, cold, medians over {runs}: {statistics.median(times):.1f} s, "
          f"peak {statistics.median(peaks):.0f} MB")


def bench_lessons(hands: Path, repeats: int) -> None:
    from whistbook.build import lesson_slug, make_lesson

    engines = _engines()
    files = find_hand_files([str(hands)])
    lessons = [make_lesson(f, f.read_bytes(), lesson_slug(f, hands), k, False, None).lesson
               for k, f in enumerate(files, 1)]
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
    parser.add_argument("--scale", type=int, default=0, help="also build this many starter hands, cold")
    args = parser.parse_args()
    hands = Path(args.hands)
    if args.repeats:
        bench_lessons(hands, args.repeats)
    if args.builds:
        bench_builds(hands, args.builds)
    if args.scale:
        bench_scale(args.scale, 1)


if __name__ == "__main__":
    main()
