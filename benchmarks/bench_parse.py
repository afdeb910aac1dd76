"""Read the booklet's parts into trees as WeasyPrint does, with or without speedups.html_reader.

    python benchmarks/bench_parts.py DIR --write          # save the parts first
    python benchmarks/bench_parse.py DIR [--stock] [--repeat 3] [--check]

Each part (``DIR/*.html``) is read by ``weasyprint.HTML(string=...)``, with
whistbook's repairs installed; ``--stock`` takes the HTML reader out, so
that every part is read by tinyhtml5. Prints how many parts the fast path took and the processor
seconds of each run over the parts, then their median. ``--check`` compares
each part's tree with tinyhtml5's instead (tag, attributes in order, text
and tail of every element) and prints the parts that differ.

On a busy machine count instructions instead, which other work does not
move: under ``valgrind --tool=cachegrind --cache-sim=no``, the count with
``--repeat 2`` less the count with ``--repeat 1`` is one pass over the parts.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from io import StringIO
from pathlib import Path


def nodes(root) -> list[tuple]:
    """Every element of a tree, in document order, as what WeasyPrint reads of it."""
    return [(e.tag, list(e.attrib.items()), e.text, e.tail, len(e)) for e in root.iter()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, help="folder with the parts' HTML")
    parser.add_argument("--stock", action="store_true", help="read every part with tinyhtml5")
    parser.add_argument("--repeat", type=int, default=3, help="runs over the parts (default 3)")
    parser.add_argument("--check", action="store_true", help="compare each part's tree with tinyhtml5's")
    args = parser.parse_args(argv)
    htmls = [f.read_text(encoding="utf-8") for f in sorted(args.dir.glob("*.html"))]

    import tinyhtml5

    from whistbook.render import pdf, speedups
    from whistbook.render.speedups import html_reader

    weasyprint, _, _ = pdf.load_weasyprint()
    fast = sum(html_reader.parse(html) is not None for html in htmls)
    print(f"{len(htmls)} parts, {fast} read by the fast path", file=sys.stderr)
    if args.check:
        differ = [k for k, html in enumerate(htmls)
                  if (tree := html_reader.parse(html)) is not None
                  and nodes(tree) != nodes(tinyhtml5.parse(StringIO(html), namespace_html_elements=False))]
        print(f"{len(differ)} parts differ: {differ}")
        return 1 if differ else 0
    with speedups.stock("html_reader") if args.stock else contextlib.nullcontext():
        return _time(weasyprint, htmls, args.repeat)


def _time(weasyprint, htmls: list[str], repeat: int) -> int:
    """Read every part ``repeat`` times, printing each run's processor seconds and their median."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for html in htmls:
            weasyprint.HTML(string=html, base_url="file:///", media_type="print")
        times.append(time.process_time() - start)
        print(f"{times[-1]:.3f} s")
    print(f"median {statistics.median(times):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
