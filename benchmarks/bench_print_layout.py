"""The booklet's lesson parts laid out by WeasyPrint: processor time of layout and drawing.

    python benchmarks/bench_print_layout.py dump DIR [--paper a4] [--four-colour] [--project .]
    python benchmarks/bench_print_layout.py time DIR [DIR ...] [--runs 3] [--parts 12] [--extra CSS]

``dump`` writes the HTML of every lesson part of the booklet (and the problems'
solutions) as the build makes them, with this checkout's code, into DIR
(``000.html``, ...), and the booklet's stylesheet as ``print.css``. Dump the
old code's parts from another checkout of it to compare.

``time`` lays out the first ``--parts`` parts of each DIR with that DIR's
stylesheet (plus ``--extra``, a CSS file appended, for quick experiments),
the DIRs in turn, ``--runs`` times, and prints per DIR the medians of the
processor seconds spent laying out (``render``) and drawing and writing the
PDF (``write_pdf``), and the pages. Runs alternate between the DIRs, so that
a machine shared with other work slows each of them alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def dump(out: Path, project_dir: Path, paper: str | None, four_colour: bool) -> None:
    from dataclasses import replace

    from whistbook.build import BuildOptions, Booklet, hand_files, lesson_slug, make_lesson, _engines
    from whistbook.project import load_project
    from whistbook.render.context import book_context
    from whistbook.render.environment import make_environment

    project = load_project(project_dir.resolve())
    book = project.book
    book = replace(book, paper=paper or book.paper, four_colour=four_colour or book.four_colour)
    options = BuildOptions.for_book(book, hands=project.hands, templates=project.templates, cache=project.cache)
    files, _ = hand_files(options)
    engines = _engines(project.cache / "solver")
    env = make_environment(options.templates, rules=engines.rules, book=options.book)
    base = book_context([], env, rules=engines.rules, book=options.book)
    booklet = Booklet(env, options, base, None, None, None)  # type: ignore[arg-type]
    out.mkdir(parents=True, exist_ok=True)
    printed = []
    for k, path in enumerate(files, 1):
        made = make_lesson(path, lesson_slug(path, options.hands), k, options.analysis_in_booklet, options.cache)
        if made.errors:
            raise SystemExit(f"{path}: {made.errors[0]}")
        printed.append(made.printed)
        (out / f"{k - 1:03d}.html").write_text(booklet.html("lesson", base, lesson=made.printed))
    whole = book_context(printed, env, rules=engines.rules, book=options.book)
    if whole.problems:
        (out / f"{len(files):03d}.html").write_text(booklet.html("answers", whole))
    (out / "print.css").write_text(booklet.css)
    print(f"{out}: {len(files) + bool(whole.problems)} parts, {len(booklet.css)} bytes of CSS")


def lay_out(htmls: list[str], css: str) -> tuple[float, float, int]:
    """Processor seconds laying out and drawing ``htmls``, and their pages."""
    from whistbook.render import pdf as P

    weasyprint, _, _ = P.load_weasyprint()
    base = P.ASSETS_DIR.as_uri() + "/"
    layout = draw = 0.0
    pages = 0
    for html in htmls:
        fetcher = P.make_fetcher()
        style, fonts = P._stylesheet(css + "\n" + P.NO_FURNITURE, base, fetcher)
        a = time.process_time()
        doc = weasyprint.HTML(string=html, base_url=base, url_fetcher=fetcher, media_type="print").render(
            stylesheets=[style], font_config=fonts)
        b = time.process_time()
        doc.write_pdf()
        layout, draw, pages = layout + b - a, draw + time.process_time() - b, pages + len(doc.pages)
    return layout, draw, pages


def time_dirs(dirs: list[Path], runs: int, parts: int, extra: str) -> None:
    inputs = []
    for d in dirs:
        files = sorted(d.glob("[0-9]*.html"))[:parts or None]
        inputs.append(([f.read_text() for f in files], (d / "print.css").read_text() + "\n" + extra))
    for htmls, css in inputs:
        lay_out(htmls[:1], css)  # the fonts and the stylesheet, once
    figures: list[list[tuple[float, float, int]]] = [[] for _ in dirs]
    for _ in range(runs):
        for k, (htmls, css) in enumerate(inputs):
            figures[k].append(lay_out(htmls, css))
    first = None
    for d, (htmls, _), runs_of in zip(dirs, inputs, figures):
        layout = statistics.median(r[0] for r in runs_of)
        draw = statistics.median(r[1] for r in runs_of)
        total = statistics.median(r[0] + r[1] for r in runs_of)
        first = first or total
        print(f"{d}: {len(htmls)} parts, {runs_of[0][2]} pages: layout {layout:.2f} s, drawing {draw:.2f} s, "
              f"total {total:.2f} s ({total / first:.2f}); totals {', '.join(f'{r[0] + r[1]:.2f}' for r in runs_of)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="write the lesson parts' HTML and the stylesheet into DIR")
    d.add_argument("dir", type=Path)
    d.add_argument("--project", type=Path, default=ROOT)
    d.add_argument("--paper", choices=("a5", "a4"))
    d.add_argument("--four-colour", action="store_true")
    t = sub.add_parser("time", help="lay out the parts of each DIR in turn")
    t.add_argument("dirs", type=Path, nargs="+")
    t.add_argument("--runs", type=int, default=3)
    t.add_argument("--parts", type=int, default=12, help="the first N parts of each DIR (0: all)")
    t.add_argument("--extra", type=Path, help="a CSS file appended to each DIR's stylesheet")
    args = ap.parse_args()
    if args.command == "dump":
        dump(args.dir, args.project, args.paper, args.four_colour)
    else:
        time_dirs(args.dirs, args.runs, args.parts, args.extra.read_text() if args.extra else "")


if __name__ == "__main__":
    main()
