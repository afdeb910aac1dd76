"""The study booklet as PDF, with WeasyPrint.

The booklet is one HTML document (``booklet.html``): a cover, contents with
page numbers, each lesson from a new page, the lessons by theme, the
principles and the glossary. Headings of lessons become PDF bookmarks.

Every resource goes through :class:`AssetFetcher`, which allows ``data:``
URLs and files inside whistbook's own ``assets`` folder and stops the render
for anything else, so nothing a hand file writes can make the build fetch
from the network or read a file elsewhere.
"""

from __future__ import annotations

import re
from base64 import b64decode
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import jinja2

from ..errors import RenderError
from ..lesson import Lesson
from ..project import Book
from .context import BookContext, Links, RenderOptions, book_context
from .environment import render_template, template_source
from .logs import warnings_of

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
PAPERS = {"a5": "A5", "a4": "A4"}
BOOKLET_LINKS = Links(root="", principles="", lesson_pattern="#{slug}-lesson")


def load_weasyprint():
    """WeasyPrint's module, its URL fetcher and its fatal fetching error, with
    whistbook's repairs installed where they apply (:mod:`.speedups`). It
    takes a while to import and only the booklet needs it, so it is imported
    here, when first asked for."""
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError, URLFetcher

    from .speedups import install

    install()
    return weasyprint, URLFetcher, FatalURLFetchingError


def make_fetcher(roots: Sequence[Path] = (ASSETS_DIR,)):
    """An URL fetcher that allows ``data:`` URLs and ``file:`` URLs under ``roots`` only."""
    _, URLFetcher, FatalURLFetchingError = load_weasyprint()
    from weasyprint.urls import URLFetcherResponse

    allowed = tuple(Path(r).resolve() for r in roots)

    class AssetFetcher(URLFetcher):
        """Refuses, fatally, every URL but ``data:`` and whistbook's own assets."""

        def __init__(self) -> None:
            super().__init__(timeout=2, allowed_protocols={"data", "file"}, allow_redirects=False)

        def fetch(self, url, headers=None):
            scheme = url.split(":", 1)[0].lower() if ":" in url else ""
            if scheme == "data":
                # the diagrams' base64 pictures, decoded here: urllib's way costs
                # as much as reading the SVG
                head, _, payload = url.partition(",")
                if head.endswith(";base64") and ";" not in head[5:-7]:
                    return URLFetcherResponse(url, b64decode(payload),
                                              {"Content-Type": head[5:-7] or "text/plain"})
                return super().fetch(url, headers)
            if scheme == "file":
                path = Path(url2pathname(unquote(urlsplit(url).path))).resolve()
                if path.is_file() and any(path.is_relative_to(root) for root in allowed):
                    return super().fetch(url, headers)
            raise FatalURLFetchingError(f"the booklet may use only whistbook's own assets, not {url!r}")

    return AssetFetcher()


def booklet_part_html(
    part: str,
    book: BookContext,
    env: jinja2.Environment,
    *,
    options: RenderOptions = RenderOptions(medium="print", analysis=False),
    lesson: Lesson | None = None,
    pages: Mapping[str, int] | None = None,
) -> str:
    """One part of the booklet as an HTML document: ``front`` (cover and
    contents, with ``pages`` giving each lesson's first page), ``lesson``
    (one lesson or problem), ``answers`` (the problems' solutions), the back
    matter's ``themes`` (lessons by theme, with ``pages``), ``principles`` and
    ``glossary``, or ``back`` (those three as one part). Each part starts a
    new page.

    :raises RenderError: when a template fails.
    """
    return render_template(
        env, "booklet.html", part=part, lesson=lesson, pages=pages or {}, book=book.book,
        hands=book.hands, problems=book.problems, themes=book.themes, chapters=book.chapters,
        rules=book.rules, glossary=book.glossary, options=options, links=BOOKLET_LINKS, title=book.book.title,
    )


def booklet_html(
    lessons: Sequence[Lesson],
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(medium="print", analysis=False),
    title: str = "Whistbook",
) -> str:
    """The whole booklet as one HTML document (what a single-pass layout
    would use; the build lays it out in parts, see :func:`lay_out_part`).

    :raises RenderError: when a template fails.
    """
    book = book_context(lessons, env, rules=rules, book=Book(title=title))
    return render_template(
        env, "booklet.html", part="all", lesson=None, pages={}, book=book.book,
        hands=book.hands, problems=book.problems, themes=book.themes, chapters=book.chapters,
        rules=book.rules, glossary=book.glossary, options=options, links=BOOKLET_LINKS, title=title,
    )


_BLOCK = re.compile(r"([^{}]*)\{([^{}]*)\}")
_DECLARATION = re.compile(r"(--[\w-]+)\s*:\s*([^;}]+)")
_VAR = re.compile(r"var\((--[\w-]+)\)")


def resolve_variables(css: str, classes: tuple[str, ...] = ()) -> str:
    """Replace ``var(--x)`` by the value declared for ``--x`` on ``:root`` (or on
    one of ``classes`` of the root element, such as ``.four-colour`` or
    ``.paper-a4``).

    WeasyPrint resolves custom properties for every element, which costs a
    good share of the booklet's layout time; the booklet sets them once.
    """
    values: dict[str, str] = {}
    wanted = {":root", "html", *classes}
    for selector, body in _BLOCK.findall(css):
        sel = selector.split("*/")[-1].strip()
        if sel in wanted or sel.replace("html", "").strip() in classes:
            values.update((k, v.strip()) for k, v in _DECLARATION.findall(body))
    for _ in range(4):  # values may refer to other values
        css, n = _VAR.subn(lambda m: values.get(m.group(1), m.group(0)), css)
        if not n:
            break
    if "var(" not in css:
        css = re.sub(r"--[\w-]+\s*:[^;}]+;?", "", css)
    return css


def booklet_css(env: jinja2.Environment, paper: str, *, four_colour: bool = False) -> str:
    """The booklet's stylesheet: the shared one, print.css and the paper size.

    :raises RenderError: for an unknown paper.
    """
    if paper not in PAPERS:
        raise RenderError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    css = "\n".join((
        template_source(env, "css/whistbook.css"),
        template_source(env, "css/print.css"),
        f"@page {{ size: {PAPERS[paper]}; }}",
        template_source(env, "css/local.css"),
    ))
    return resolve_variables(css, (f".paper-{paper}",) + ((".four-colour",) if four_colour else ()))


def render_booklet_document(
    lessons: Sequence[Lesson],
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(medium="print", analysis=False),
    html: str | None = None,
):
    """Lay the booklet out: a ``weasyprint.Document`` (``.pages``,
    ``.make_bookmark_tree()``, ``.write_pdf()``).

    :raises RenderError: when a template fails or a resource is refused.
    """
    weasyprint, _, FatalURLFetchingError = load_weasyprint()
    if html is None:
        html = booklet_html(lessons, env, rules=rules, options=options)
    fetcher = make_fetcher()
    base = ASSETS_DIR.as_uri() + "/"
    try:
        css, fonts = _stylesheet(booklet_css(env, options.paper, four_colour=options.four_colour), base, fetcher)
        doc = weasyprint.HTML(string=html, base_url=base, url_fetcher=fetcher, media_type="print")
        return doc.render(stylesheets=[css], font_config=fonts)
    except FatalURLFetchingError as err:
        raise RenderError(f"booklet: {err}") from None


_PT = 0.75  # points per CSS pixel
_FIGURES = re.compile(rb"<([0-9a-fA-F]+)>")  # a glyph's code in a text string of WeasyPrint's PDF


def running_title_css(title: str) -> str:
    """The book's title as the ``book-title`` string from the first page of
    every part (the cover sets it too), so that a part laid out alone prints
    its running heads as the whole booklet would."""
    quoted = title.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'html {{ string-set: book-title "{quoted}"; }}\n'


@dataclass
class PartLayout:
    """One part of the booklet laid out on its own: its PDF (with its running
    heads, without page numbers), and what joining needs to know of it, in
    points from the top-left of its pages."""

    pdf: bytes
    pages: int
    #: anchor name -> (page, x, y)
    anchors: dict[str, tuple[int, float, float]] = field(default_factory=dict)
    #: internal links: (page, (left, top, right, bottom), anchor name)
    links: list[tuple[int, tuple[float, float, float, float], str]] = field(default_factory=list)
    #: bookmarks: (level, label, page, y)
    bookmarks: list[tuple[int, str, int, float]] = field(default_factory=list)
    #: the pages that carry a page number (the join prints it)
    numbered: list[int] = field(default_factory=list)
    #: WeasyPrint's warnings
    warnings: list[str] = field(default_factory=list)


def lay_out_part(html: str, css: str, *, draw: bool = True) -> PartLayout:
    """Lay out one part (in a worker process), with its running heads and
    without its page numbers. Internal links are taken out of the PDF and
    returned as data: the join draws them, across parts too. Without
    ``draw``, the pages are not drawn (no PDF, about half the time): enough
    to learn a part's length and anchors.

    :raises RenderError: when a resource is refused.
    """
    weasyprint, _, FatalURLFetchingError = load_weasyprint()
    from .speedups import take_page_numbers

    fetcher = make_fetcher()
    base = ASSETS_DIR.as_uri() + "/"

    def render(sheet: str) -> Any:
        style, fonts = _stylesheet(sheet, base, fetcher)
        return weasyprint.HTML(string=html, base_url=base, url_fetcher=fetcher,
                               media_type="print").render(stylesheets=[style], font_config=fonts)

    with warnings_of("weasyprint") as logged:
        try:
            doc = render(css)
            if _deal_alone(doc):
                # the deal round the table went over to a page of its own: in a row it may fit before
                compact = render(css + COMPACT_DEAL)
                # kept when it saves the page, or fills the short page and leaves the rest to run on
                if len(compact.pages) < len(doc.pages) or _hands_on_top(compact) is None:
                    doc = compact
        except FatalURLFetchingError as err:
            raise RenderError(f"booklet: {err}") from None
    out = PartLayout(pdf=b"", pages=len(doc.pages), numbered=take_page_numbers(doc.pages), warnings=logged)
    for k, page in enumerate(doc.pages):
        for name, (x, y, *_) in page.anchors.items():
            out.anchors.setdefault(name, (k, x * _PT, y * _PT))
        kept = []
        for link in page.links:
            kind, target, rect, _ = link
            if kind == "internal":
                out.links.append((k, tuple(v * _PT for v in rect), target))
            else:
                kept.append(link)
        page.links[:] = kept
        for level, label, (x, y), _ in page.bookmarks:
            out.bookmarks.append((level, label, k, y * _PT))
        page.bookmarks[:] = []
    out.pdf = doc.write_pdf() if draw else b""
    return out


#: the lesson's deal in a row (``.deal-row``) instead of round the table, and the result under it
COMPACT_DEAL = """
.deal-of-hand { display: none; }
.deal-row { display: block; }
html .deal-of-hand ~ .result { margin-left: 0; padding-top: 0; }  /* over the A4 rule too */
.part-hands { break-inside: auto; }  /* the heading, the deal and the result still hold together */
"""


def _hands_on_top(doc: Any) -> float | None:
    """Where the lesson's hands (the heading "The hands", anchor ``*-hands``)
    start on its last page, when that is in the page's top fifth (the top of
    its text); else None."""
    if len(doc.pages) < 2:
        return None
    last = doc.pages[-1]
    top = min((y for name, (x, y, *_) in last.anchors.items() if name.endswith("-hands")), default=None)
    return top if top is not None and top < last.height / 5 else None


def _deal_alone(doc: Any) -> bool:
    """Whether the lesson's hands start its last page and the page before is
    left short: the deal round the table did not fit there. How full that
    page is comes from the boxes anchored on it (each part of a lesson in
    print is, and each trick); a box's padding makes the page look a little
    fuller than its text, so the mark is a fifth empty where the booklet's
    bar is a quarter."""
    top = _hands_on_top(doc)
    if top is None:
        return False
    # the lesson's box (anchor ``*-lesson``) runs to the foot of the text on every page it crosses
    boxes = doc.pages[-2].anchors
    foot = max((r[3] for name, r in boxes.items() if name.endswith("-lesson")), default=None)
    if foot is None:
        return True
    filled = max((r[3] for name, r in boxes.items() if not name.endswith("-lesson")), default=top)
    return (foot - filled) / (foot - top) > 0.2


_STYLES: dict[str, Any] = {}


def _stylesheet(css: str, base: str | None, fetcher: Any) -> tuple[Any, Any]:
    """The parsed stylesheet and font configuration, kept by the worker from
    one part to the next (every part of a booklet has the same stylesheet)."""
    if css not in _STYLES:
        weasyprint, _, _ = load_weasyprint()
        from weasyprint.text.fonts import FontConfiguration

        fonts = FontConfiguration()
        if len(_STYLES) > 1:
            _STYLES.clear()
        _STYLES[css] = (weasyprint.CSS(string=css, base_url=base, url_fetcher=fetcher, font_config=fonts), fonts)
    return _STYLES[css]


@dataclass
class PageNumbers:
    """Page numbers as the stylesheet's margin boxes show them, laid out once
    by WeasyPrint: a PDF whose k-th page holds only the number ``values[k]``.
    The join prints the others from these (:func:`number_streams`)."""

    pdf: bytes
    values: list[int]


def lay_out_numbers(css: str, last: int, paper: str = "a5") -> PageNumbers:
    """The page numbers of a booklet of ``last`` pages: 0 to 9 and 10, 100...
    (each other number is drawn from their glyphs), or, when the ten figures
    are not all alike but for their glyph (not decimal, or not of one width),
    every number from 1 to ``last``."""
    numbers = _lay_out_numbers(css, [*range(10), *(10 ** k for k in range(1, len(str(last))))], paper)
    if _figures(_number_pages(numbers)) is None:
        numbers = _lay_out_numbers(css, list(range(1, last + 1)), paper)
    return numbers


def _lay_out_numbers(css: str, values: Sequence[int], paper: str = "a5") -> PageNumbers:
    weasyprint, _, _ = load_weasyprint()
    from .speedups import take_page_numbers

    style, fonts = _stylesheet(css, ASSETS_DIR.as_uri() + "/", make_fetcher())  # the fonts are assets
    counters = "".join(f"@page :nth({k + 1}) {{ counter-reset: page {v}; }}" for k, v in enumerate(values))
    html = (f'<!doctype html><html lang="en" class="booklet paper-{paper}"><head><meta charset="utf-8">'
            f"<style>{counters}</style></head><body>"
            + '<div style="break-before: page"></div>' * len(values) + "</body></html>")
    doc = weasyprint.HTML(string=html, media_type="print").render(stylesheets=[style], font_config=fonts)
    take_page_numbers(doc.pages, keep=True)
    return PageNumbers(doc.write_pdf(), list(values))


def _number_pages(numbers: PageNumbers) -> dict[int, bytes]:
    """Each sample's content stream, by its number."""
    from io import BytesIO

    import pikepdf

    with pikepdf.open(BytesIO(numbers.pdf)) as pdf:
        return {v: page.obj.Contents.read_bytes() for v, page in zip(numbers.values, pdf.pages)}


def _figures(streams: Mapping[int, bytes]) -> dict[str, bytes] | None:
    """Each figure's glyph code, when the pages numbered 0 to 9 differ in
    that code alone (the figures are of one width, so any number can be
    drawn where the sample of its length is); else None."""
    if not all(d in streams for d in range(10)):
        return None
    split = [_FIGURES.split(streams[d]) for d in range(10)]
    if len({len(s) for s in split}) != 1:
        return None
    differ = [i for i in range(len(split[0])) if len({s[i] for s in split}) > 1]
    if len(differ) != 1 or differ[0] % 2 == 0:  # odd items are the glyph codes
        return None
    codes = {str(d): split[d][differ[0]] for d in range(10)}
    return codes if len(set(codes.values())) == 10 else None


def number_streams(streams: Mapping[int, bytes], wanted: Sequence[int]) -> dict[int, bytes]:
    """The content stream that prints each number in ``wanted``: its own
    sample, or the sample 1, 10, 100... of its length with the figures' glyphs
    replaced.

    :raises RenderError: when neither is there.
    """
    figures = _figures(streams)
    out = {}
    for n in wanted:
        if n in streams:
            out[n] = streams[n]
            continue
        text = str(n)
        sample = _FIGURES.split(streams.get(10 ** (len(text) - 1), b""))
        at = None
        if figures is not None:  # where the sample's figures 1 0 0... are
            codes, want = sample[1::2], [figures["1"]] + [figures["0"]] * (len(text) - 1)
            at = next((i for i in range(len(codes) - len(want) + 1) if codes[i:i + len(want)] == want), None)
        if at is None:
            raise RenderError(f"booklet: page number {n} could not be drawn from the stylesheet's numbers")
        for k, figure in enumerate(text):
            sample[2 * (at + k) + 1] = figures[figure]
        out[n] = b"".join(part if i % 2 == 0 else b"<" + part + b">" for i, part in enumerate(sample))
    return out


def join_parts(parts: Sequence[PartLayout], numbers: PageNumbers, *, title: str, author: str = "") -> bytes:
    """The booklet: the parts' pages in order, each numbered page with its
    number printed over it (a Form XObject drawn from ``numbers``), the links
    and bookmarks of every part pointing into the joined pages (with pikepdf,
    which is qpdf: a join takes a fraction of a second)."""
    from io import BytesIO

    import pikepdf

    book = pikepdf.new()
    starts, anchors, sources = [], {}, []
    for part in parts:
        start = len(book.pages)
        starts.append(start)
        src = pikepdf.open(BytesIO(part.pdf))
        sources.append(src)
        book.pages.extend(src.pages)
        for name, (k, x, y) in part.anchors.items():
            anchors.setdefault(name, (start + k, x, y))
    _print_numbers(book, [start + k for part, start in zip(parts, starts) for k in part.numbered], numbers)
    _draw_links(book, parts, starts, anchors)
    height = float(book.pages[0].mediabox[3])
    with book.open_outline() as outline:
        parents: list[Any] = []
        for part, start in zip(parts, starts):
            for level, label, k, y in part.bookmarks:
                del parents[level - 1:]
                item = pikepdf.OutlineItem(label, start + k, "XYZ", top=height - y)
                (parents[-1].children if parents else outline.root).append(item)
                parents.append(item)
    book.docinfo["/Title"] = title
    if author:
        book.docinfo["/Author"] = author
    book.docinfo["/Creator"] = "whistbook"
    out = BytesIO()
    book.save(out, deterministic_id=True)  # its /ID made from its bytes, not the time
    return out.getvalue()


def _draw_links(book: Any, parts: Sequence[PartLayout], starts: Sequence[int],
                anchors: Mapping[str, tuple[int, float, float]]) -> None:
    """Every part's internal links, as link annotations into the joined pages
    (after the page's own, in the part's order)."""
    import pikepdf

    pages = [page.obj for page in book.pages]
    height = float(book.pages[0].mediabox[3])
    on: dict[int, list[Any]] = {}
    for part, start in zip(parts, starts):
        for k, (x1, y1, x2, y2), target in part.links:
            if target not in anchors:
                continue  # WeasyPrint, too, drops a link to nowhere (it warns while laying out)
            page, ax, ay = anchors[target]
            # parsed from text: a third of the time of building it from Python's values
            link = pikepdf.Object.parse(b"<< /Type /Annot /Subtype /Link /Border [0 0 0] /Rect [%s] /Dest [0 /XYZ %s 0] >>"
                                        % (_reals(x1, height - y2, x2, height - y1), _reals(ax, height - ay)))
            link.Dest[0] = pages[page]
            on.setdefault(start + k, []).append(book.make_indirect(link))
    for k, links in on.items():
        if "/Annots" in pages[k]:
            pages[k].Annots.extend(links)
        else:
            pages[k].Annots = book.make_indirect(pikepdf.Array(links))


def _reals(*values: float) -> bytes:
    """Numbers as PDF reals, written as pikepdf writes a float (six places, no trailing zeros)."""
    return " ".join(f"{v:.6f}".rstrip("0").rstrip(".") for v in values).encode()


def _print_numbers(book: Any, numbered: Sequence[int], numbers: PageNumbers) -> None:
    """Page ``k + 1``'s number over page k, for each k in ``numbered``: one
    Form XObject a number, its fonts (copied once) those of the samples.
    The page's own content streams are kept as they are, between a ``q`` and
    a ``Q`` with the number drawn after (what pikepdf's ``add_overlay``
    draws, without joining the streams into one that saving would compress
    again: that took most of the join's time)."""
    from io import BytesIO

    import pikepdf

    samples = pikepdf.open(BytesIO(numbers.pdf))
    first = samples.pages[0]
    resources = book.copy_foreign(first.obj.Resources)
    box = [float(v) for v in first.mediabox]
    streams = number_streams(_number_pages(numbers), [k + 1 for k in numbered])
    push = book.make_stream(b"q\n")
    for k in numbered:
        form = book.make_stream(streams[k + 1], Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                                BBox=box, Resources=resources)
        page = book.pages[k]
        name = page.add_resource(form, pikepdf.Name.XObject, pikepdf.Name(f"/WhistbookNumber{k + 1}"))
        place = page.calc_form_xobject_placement(form, name, pikepdf.Rectangle(*box))
        own = page.obj.Contents
        page.obj.Contents = pikepdf.Array(
            [push, *(own if isinstance(own, pikepdf.Array) else [own]), book.make_stream(b"Q\n" + place)])


def render_booklet(
    lessons: Sequence[Lesson],
    env: jinja2.Environment,
    *,
    rules: Mapping[str, Any] | None = None,
    options: RenderOptions = RenderOptions(medium="print", analysis=False),
) -> bytes:
    """The booklet as PDF bytes.

    :raises RenderError: when a template fails or a resource is refused.
    """
    return render_booklet_document(lessons, env, rules=rules, options=options).write_pdf()


__all__ = ["booklet_part_html", "load_weasyprint", "lay_out_part", "join_parts", "lay_out_numbers", "number_streams",
           "running_title_css", "PartLayout", "PageNumbers",
           "render_booklet", "render_booklet_document", "booklet_html", "booklet_css", "resolve_variables", "make_fetcher",
           "ASSETS_DIR", "PAPERS"]
