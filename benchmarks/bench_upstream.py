"""The WeasyPrint slownesses that whistbook's repairs work round, each on a minimal document.

    python benchmarks/bench_upstream.py [--repeat 5] [CASE ...]

Each case (``svg_text``, ``arrays``, ``styles``, ``leaders``, ``tinyhtml5``)
builds a small document that shows one slowness, as ``docs/weasyprint-upstream.md``
reports it, and times it in this process (processor seconds, the median of
``--repeat`` runs after a warm-up) with WeasyPrint as it is and, where
whistbook has a repair for it, with the repair; then prints the ratio. The
documents use WeasyPrint's public interface only: ``HTML(string=...)`` and
``write_pdf()``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import statistics
import sys
import time
from io import StringIO
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def svg_text(letters: int, texts: int = 400) -> str:
    """``texts`` different SVG texts of ``letters`` letters each, in one image."""
    abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    words = ["".join(abc[(k * 7 + i * 3) % 26] for i in range(letters)) for k in range(texts)]
    body = "".join(f'<text x="{10 + k % 4 * 50}" y="{12 + k // 4 * 12}" font-size="10">{word}</text>'
                   for k, word in enumerate(words))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 220 {20 + texts // 4 * 12}">{body}</svg>'
    data = base64.b64encode(svg.encode()).decode()
    return f'<!doctype html><html><body><img style="width: 150mm" src="data:image/svg+xml;base64,{data}"></body></html>'


def glyph_counts(documents: int = 40) -> list[str]:
    """Documents that each use a different number of glyphs (so a different array length)."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return [f"<!doctype html><html><body><p>{letters[:k + 5]}</p></body></html>" for k in range(documents)]


def many_elements(elements: int = 600) -> str:
    """A document of many short paragraphs with a few inline elements each, every paragraph
    with a style of its own (so that WeasyPrint shares no computed style between them)."""
    item = ('<p style="padding-left: 0.{k:03d}em">Trick <b>{k}</b>: <span>A</span> leads the <i>king</i>, '
            "<span>Y</span> follows.</p>")
    return "<!doctype html><html><body>" + "".join(item.format(k=k) for k in range(elements)) + "</body></html>"


def contents(lines: int = 150) -> str:
    """A contents list whose lines end in leader dots and a page number."""
    style = "<style>a { display: block } a::after { content: leader('. ') ' 12' }</style>"
    items = "".join(f'<a href="#x">Hand {k}: a trump lead</a>' for k in range(lines))
    return f"<!doctype html><html><head>{style}</head><body>{items}</body></html>"


def _time(work: Callable[[], object], repeat: int) -> float:
    work()  # warm
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=["svg_text", "arrays", "styles", "leaders", "tinyhtml5"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    from whistbook.render import pdf, speedups

    weasyprint, _, _ = pdf.load_weasyprint()
    if not speedups.installed():
        print(f"note: {speedups.closed()}; only WeasyPrint as it is is timed", file=sys.stderr)

    def compare(label: str, work: Callable[[], object], repair: str) -> None:
        with speedups.stock(repair) if speedups.installed() else contextlib.nullcontext():
            stock = _time(work, args.repeat)
        repaired = _time(work, args.repeat) if speedups.installed() else float("nan")
        print(f"{label}: as it is {stock:.3f} s, repaired {repaired:.3f} s ({repaired / stock:.2f})")

    def pdf_of(html: str) -> Callable[[], bytes]:
        return lambda: weasyprint.HTML(string=html).write_pdf()

    if "svg_text" in args.cases:
        with speedups.stock() if speedups.installed() else contextlib.nullcontext():
            for letters in (1, 2, 5, 10):
                seconds = _time(pdf_of(svg_text(letters)), args.repeat)
                data = weasyprint.HTML(string=svg_text(letters)).write_pdf(uncompressed_pdf=True)
                print(f"svg_text: 400 texts of {letters:2} letters, as it is {seconds:.3f} s; "
                      f"{data.count(b' Tm')} texts placed, {data.count(b'/Subtype /Form')} forms")

        def fresh() -> bytes:  # no text's layout kept from the run before
            speedups.diagrams._LINES.clear()
            return weasyprint.HTML(string=svg_text(10)).write_pdf()

        compare("svg_text: 400 texts of 10 letters", fresh, "diagrams")
    if "arrays" in args.cases:
        def each_once() -> None:  # a new process's first meeting with each length, as in a build's worker
            from weasyprint.pdf import fonts

            ffi = getattr(fonts.ffi, "_ffi", fonts.ffi)
            for key in [k for k in ffi._parsed_types if k.startswith("hb_codepoint_t[")]:
                del ffi._parsed_types[key]
            for html in glyph_counts():
                weasyprint.HTML(string=html).write_pdf()

        compare("arrays: 40 documents of 5 to 44 glyphs", each_once, "fonts")
    if "styles" in args.cases:
        html = many_elements()
        compare("styles: 600 paragraphs laid out", lambda: weasyprint.HTML(string=html).render(), "styles")
    if "leaders" in args.cases:
        compare("leaders: 150 contents lines", pdf_of(contents()), "leaders")
    if "tinyhtml5" in args.cases:
        import tinyhtml5

        html = many_elements()
        seconds = _time(lambda: tinyhtml5.parse(StringIO(html), namespace_html_elements=False), args.repeat)
        from tinyhtml5 import inputstream

        table = inputstream.characters_until_regex
        keys = {type(key[0]).__name__ for key in table}
        print(f"tinyhtml5: 600 paragraphs parsed, as it is {seconds:.3f} s; its table of expressions holds "
              f"{len(table)} entries keyed by {', '.join(sorted(keys))}")
        original = inputstream.characters_until_regex

        class Kept(dict):
            """The fix's effect: each set of characters' expression found again by its key."""

            def __missing__(self, key: tuple) -> object:
                import re

                characters, opposite = key
                escaped = "".join(f"\\x{ord(c):02x}" for c in characters)
                value = self[key] = re.compile(f"[{'' if opposite else '^'}{escaped}]+")
                return value

        inputstream.characters_until_regex = Kept()
        try:
            kept = _time(lambda: tinyhtml5.parse(StringIO(html), namespace_html_elements=False), args.repeat)
        finally:
            inputstream.characters_until_regex = original
        print(f"tinyhtml5: with the table keyed by the characters, {kept:.3f} s ({kept / seconds:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
