"""Lay out and write a fixed set of booklet parts, timing layout and drawing apart.

    python benchmarks/bench_parts.py DIR --write [--project .]
    python benchmarks/bench_parts.py DIR [--parts 12] [--skip 0] [--repeat 3] [--profile FILE]
                                         [--without REPAIR,...]

DIR holds the parts' HTML (``*.html``, taken in name order) and the print
stylesheet (``print.css``), as the build hands them to its workers;
``--write`` builds the project once (into a temporary folder, nothing kept)
and saves them there: every lesson's part, the answers, the back matter and
the front. Each part is laid out and written as the booklet's workers do
(whistbook's repairs to WeasyPrint installed, the part's page numbers taken
off); ``--without`` leaves the repairs named out (``all``, or some of
``diagrams``, ``html_reader``, ``styles``, ``leaders``, ``fonts``). The
processor seconds of this process are printed for the layout (``render``)
and for drawing and writing the PDF (``write_pdf``), one line per repeat,
then their medians.

To compare two versions of the code, run the script under each in turn
(``PYTHONPATH=/path/to/other/checkout``): the figures are one process's
processor time, so other work on the machine moves them less than wall time.
On a busy machine count instructions instead: under ``valgrind
--tool=cachegrind --cache-sim=no``, the count with ``--repeat 2`` less the
count with ``--repeat 1`` is one pass over the parts.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def run(htmls: list[str], css: str) -> tuple[float, float, int]:
    """Lay out and write each part once: (layout seconds, drawing seconds, pages)."""
    from whistbook.render import pdf
    from whistbook.render.speedups import take_page_numbers

    weasyprint, _, _ = pdf.load_weasyprint()
    layout = draw = 0.0
    pages = 0
    base = pdf.ASSETS_DIR.as_uri() + "/"
    for html in htmls:
        fetcher = pdf.make_fetcher()
        style, fonts = pdf._stylesheet(css, base, fetcher)
        a = time.process_time()
        doc = weasyprint.HTML(string=html, base_url=base, url_fetcher=fetcher, media_type="print").render(
            stylesheets=[style], font_config=fonts)
        take_page_numbers(doc.pages)
        b = time.process_time()
        doc.write_pdf()
        c = time.process_time()
        layout += b - a
        draw += c - b
        pages += len(doc.pages)
    return layout, draw, pages


def write_parts(folder: Path, project_dir: Path) -> None:
    """Build the project once and save each part's HTML and the stylesheet in ``folder``."""
    import tempfile

    from whistbook import build
    from whistbook.project import load_project

    folder.mkdir(parents=True, exist_ok=True)
    project = load_project(project_dir)
    seen: dict[str, None] = {}
    start = build.Booklet.start

    def keep(self: build.Booklet, jobs: list, **kw) -> Any:
        (folder / "print.css").write_text(self.css, encoding="utf-8")
        for _, args in jobs:  # a lesson's part gives a function that renders its HTML
            html, _css = args() if callable(args) else args
            if html not in seen:
                (folder / f"{len(seen):03d}.html").write_text(html, encoding="utf-8")
                seen[html] = None
        return start(self, jobs, **kw)

    build.Booklet.start = keep
    try:
        with tempfile.TemporaryDirectory() as tmp:
            build.build(build.BuildOptions.for_book(
                project.book, hands=project.hands, output=Path(tmp) / "output", templates=project.templates,
                mkdocs_config=project.config or project.root / "mkdocs.yml", cache=None))
    finally:
        build.Booklet.start = start
    print(f"{len(seen)} parts written to {folder}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, help="folder with the parts' HTML and print.css")
    parser.add_argument("--parts", type=int, default=12, help="how many parts, in name order (default 12)")
    parser.add_argument("--skip", type=int, default=0, help="parts to skip first (default 0)")
    parser.add_argument("--repeat", type=int, default=3, help="runs over the parts (default 3)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of one run here instead")
    parser.add_argument("--write", action="store_true", help="build the project and save its parts in DIR")
    parser.add_argument("--project", type=Path, default=Path("."), help="the book's folder, for --write")
    parser.add_argument("--without", default="", metavar="REPAIR,...",
                        help="leave these repairs to WeasyPrint out (all, or names from speedups.REPAIRS)")
    args = parser.parse_args(argv)
    if args.write:
        write_parts(args.dir, args.project)
        return 0
    files = sorted(args.dir.glob("*.html"))[args.skip:args.skip + args.parts]
    htmls = [f.read_text(encoding="utf-8") for f in files]
    css = (args.dir / "print.css").read_text(encoding="utf-8")
    import whistbook
    from whistbook.render import pdf, speedups

    pdf.load_weasyprint()
    without = [] if not args.without else list(speedups.REPAIRS) if args.without == "all" else args.without.split(",")
    print(f"code: {Path(whistbook.__file__).parent}; {len(htmls)} parts; without {without or 'nothing'}",
          file=sys.stderr)
    with speedups.stock(*without) if without else contextlib.nullcontext():
        return measure(htmls, css, args)


def measure(htmls: list[str], css: str, args: argparse.Namespace) -> int:
    """Lay the parts out once to warm up, then profile a run or time ``--repeat`` runs."""
    run(htmls[:1], css)  # warm: imports, fonts, the stylesheet's caches
    if args.profile:
        cProfile.runctx("run(htmls, css)", globals(), {"run": run, "htmls": htmls, "css": css},
                        str(args.profile))
        return 0
    layouts, draws = [], []
    for _ in range(args.repeat):
        layout, draw, pages = run(htmls, css)
        layouts.append(layout)
        draws.append(draw)
        print(f"{pages} pages  layout {layout:.2f} s  draw {draw:.2f} s  total {layout + draw:.2f} s")
    lm, dm = statistics.median(layouts), statistics.median(draws)
    print(f"median  layout {lm:.2f} s  draw {dm:.2f} s  total {lm + dm:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
