"""What the booklet's running heads and page numbers cost (processor seconds).

    python benchmarks/bench_furniture.py [--hands hands] [--paper a5] [--runs 3] [--parts 8]

Builds a copy of the project once (in this process, the parts laid out by
the workers as usual) and keeps the booklet's parts and their HTML, then
times, ``--runs`` times each, in this process:

* *numbers*: the page numbers laid out once (``lay_out_numbers``);
* *join*: the parts joined with every page's number printed over it;
* *heads*: the first ``--parts`` lessons' parts laid out as the build lays
  them out, with the running heads alone and with no margin box, timing
  WeasyPrint's making of the margin boxes (``make_margin_boxes``): what the
  heads, and the number box a part lays out and the join drops, add to the
  parts, per page and scaled to the whole booklet.

Figures are medians, in processor seconds (user and system) of this process.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import whistbook.build as build_module  # noqa: E402
from whistbook.cli import main  # noqa: E402
from whistbook.render import pdf  # noqa: E402

NO_BOXES = "@page { " + " ".join(f"@{box} {{ content: none; }}" for box in (
    "top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right")) + " }"
NO_NUMBER = "@page { @bottom-center { content: none; } }"
MARGIN_BOXES = [0.0]  # processor seconds in WeasyPrint's make_margin_boxes


def time_margin_boxes() -> None:
    import weasyprint.layout as layout

    make = layout.make_margin_boxes

    def timed(*args):
        start = time.process_time()
        boxes = list(make(*args))
        MARGIN_BOXES[0] += time.process_time() - start
        return boxes

    layout.make_margin_boxes = timed


def captured_build(hands: Path, paper: str) -> tuple[list, object, list[str], str]:
    """Build a copy of the project; its laid-out parts, page numbers, the parts' HTML and stylesheet."""
    kept: dict = {"html": []}
    start, join = build_module.Booklet.start, build_module.Booklet.join

    def start_and_keep(self, jobs, **kw):
        # a job's arguments are (html, css), or for a lesson's part a function that renders them
        kept["html"] += [(args() if callable(args) else args)[0] for _, args in jobs]
        kept["css"] = self.css
        return start(self, jobs, **kw)

    def join_and_keep(self, laid):
        kept["laid"] = laid
        return join(self, laid)

    build_module.Booklet.start, build_module.Booklet.join = start_and_keep, join_and_keep
    try:
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp) / "book"
            shutil.copytree(hands, project / "hands")
            shutil.copytree(ROOT / "templates", project / "templates")
            shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
            if main(["build", "-q", "--no-cache", "--project", str(project), "--paper", paper]):
                raise SystemExit("the build failed")
    finally:
        build_module.Booklet.start, build_module.Booklet.join = start, join
    parts, numbers = kept["laid"]
    return parts, numbers, kept["html"], kept["css"]


def cpu(fn, *args, **kw) -> float:
    start = time.process_time()
    fn(*args, **kw)
    return time.process_time() - start


def main_(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=Path, default=ROOT / "hands")
    ap.add_argument("--paper", default="a5")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--parts", type=int, default=8)
    args = ap.parse_args(argv)
    parts, numbers, htmls, css = captured_build(args.hands.resolve(), args.paper)
    pages = sum(p.pages for p in parts)
    lessons = [h for h in htmls if 'class="lesson' in h][:args.parts]
    sample = [pdf.lay_out_part(h, css) for h in lessons]  # also warms the worker's caches
    sample_pages = sum(p.pages for p in sample)
    time_margin_boxes()
    sheets = {"heads and number": css, "heads": css + NO_NUMBER, "none": css + NO_BOXES}
    times: dict[str, list[float]] = {"numbers": [], "join": [], **{name: [] for name in sheets}}
    for _ in range(args.runs):
        times["numbers"].append(cpu(pdf.lay_out_numbers, css, pages))
        times["join"].append(cpu(pdf.join_parts, parts, numbers, title="T"))
        for name, sheet in sheets.items():
            MARGIN_BOXES[0] = 0.0
            for h in lessons:
                pdf.lay_out_part(h, sheet)
            times[name].append(MARGIN_BOXES[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"booklet: {pages} pages in {len(parts)} parts; {args.runs} runs, medians in processor seconds")
    print(f"numbers laid out ({len(numbers.values)} samples): {med['numbers']:.3f} s")
    print(f"join, numbers printed: {med['join']:.3f} s")
    print(f"margin boxes of {len(lessons)} lessons' parts ({sample_pages} pages):")
    for name in ("heads", "heads and number"):
        per_page = (med[name] - med["none"]) / sample_pages
        print(f"  {name}: {1000 * per_page:.1f} ms a page more than none, {per_page * pages:.2f} s a booklet")


if __name__ == "__main__":
    main_()
