"""The booklet's pages that are left more than a quarter empty at the foot.

    python benchmarks/booklet_pages.py [output/whistbook.pdf] [--share 0.25]

A page that ends a lesson (or any other part of the booklet: the next page
starts an entry of the PDF's outline) may end where its text ends; any other
page should be full. For each page that is not, it prints the page number,
how much of the text area is empty, and what the next page starts with (a
whole deal that cannot be split is the usual reason). Text positions come
from ``pdftotext -bbox`` (poppler-utils), the outline from pypdf.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from html import unescape
from pathlib import Path

from pypdf import PdfReader

WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
MARGIN = 45.0  # points at the top and foot that hold the running head and the page number


def pages(pdf: Path) -> list[list[tuple[float, float, str]]]:
    """Each page's words as (top, bottom, text), running head and page number left out."""
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    out = []
    for m in PAGE.finditer(xml):
        height = float(m.group(2))
        words = [(float(w.group(2)), float(w.group(4)), unescape(w.group(5))) for w in WORD.finditer(m.group(3))]
        out.append([w for w in words if w[0] > MARGIN and w[1] < height - MARGIN])
    return out


def part_starts(pdf: Path) -> set[int]:
    """The 0-based pages on which an outline entry (a lesson, a chapter) starts."""
    reader = PdfReader(str(pdf))
    starts: set[int] = set()

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                starts.add(reader.get_destination_page_number(item))

    walk(reader.outline)
    return starts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pdf", nargs="?", default="output/whistbook.pdf", type=Path)
    ap.add_argument("--share", type=float, default=0.25, help="the empty share of the text area reported")
    args = ap.parse_args(argv)
    if not args.pdf.is_file():
        print(f"no {args.pdf}: run whistbook build first", file=sys.stderr)
        return 1
    words = pages(args.pdf)
    starts = part_starts(args.pdf)
    tops = [min(w[0] for w in p) for p in words if p]
    bottoms = [max(w[1] for w in p) for p in words if p]
    top, foot = min(tops), statistics.quantiles(bottoms, n=20)[-1]  # the text area, from the fullest pages
    short = []
    for i, page in enumerate(words):
        ends_part = i + 1 in starts or i + 1 == len(words)
        if ends_part or not page:
            continue
        empty = (foot - max(w[1] for w in page)) / (foot - top)
        if empty > args.share:
            nxt = " ".join(w[2] for w in sorted(words[i + 1], key=lambda w: w[0])[:8]) if i + 1 < len(words) else ""
            short.append((i + 1, empty, nxt))
    for number, empty, nxt in short:
        print(f"page {number}: {empty:.0%} empty; the next page starts: {nxt}")
    print(f"{len(short)} of {len(words)} pages that do not end a part are more than {args.share:.0%} empty")
    return 0


if __name__ == "__main__":
    sys.exit(main())
