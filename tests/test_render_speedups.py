"""The repairs to WeasyPrint (render.speedups): one place holds every reach into
WeasyPrint's, pydyf's and tinyhtml5's internals; the gate installs the repairs
only on the releases they were checked against (or not at all when asked) and
says why; each repair lays out and draws what WeasyPrint does, compared with
WeasyPrint's own code on the same document; and a part's page numbers are
taken off its pages whichever way it was laid out."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

import pytest

from whistbook.render import pdf, speedups
from whistbook.render.logs import warnings_of

ROOT = Path(__file__).resolve().parent.parent
weasyprint, _, _ = pdf.load_weasyprint()
installed = pytest.mark.skipif(not speedups.installed(), reason=str(speedups.closed()))

#: what whistbook may import from these libraries outside render/speedups: their public interfaces
PUBLIC = {"weasyprint": {"HTML", "CSS"}, "weasyprint.urls": {"URLFetcher", "URLFetcherResponse", "FatalURLFetchingError"},
          "weasyprint.text.fonts": {"FontConfiguration"}}


def _imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) for every import of WeasyPrint, pydyf or tinyhtml5 in a file, and each
    attribute the file reads of the module it imported whole."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, whole = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in (
                "weasyprint", "pydyf", "tinyhtml5"):
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("weasyprint", "pydyf", "tinyhtml5"):
                    whole.add(alias.asname or alias.name)
                    found.append((alias.name, ""))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in whole:
            found.append((node.value.id, node.attr))
    return found


def test_only_render_speedups_reaches_into_weasyprint_pydyf_or_tinyhtml5():
    outside = {}
    for path in sorted((ROOT / "whistbook").rglob("*.py")):
        if "speedups" in path.relative_to(ROOT / "whistbook").parts:
            continue
        private = [(module, name) for module, name in _imports(path)
                   if name and name not in PUBLIC.get(module, set()) and name != "__version__"]
        if private:
            outside[str(path.relative_to(ROOT))] = private
    assert outside == {}


def test_the_gate_opens_only_on_the_releases_checked(monkeypatch):
    from importlib.metadata import version

    assert speedups.closed() is None and speedups.installed()  # this environment: the releases checked
    assert all(version(name).startswith(tested) for name, tested in speedups.TESTED.items())
    monkeypatch.setenv(speedups.STOCK, "1")
    assert "WHISTBOOK_STOCK_WEASYPRINT is set" in speedups.closed()
    monkeypatch.setenv(speedups.STOCK, "0")
    assert speedups.closed() is None
    monkeypatch.setattr(speedups, "version", lambda name: "71.0" if name == "weasyprint" else version(name))
    assert speedups.closed().startswith("weasyprint 71.0 is not the release")
    monkeypatch.setattr(speedups, "version", lambda name: "70.1" if name == "weasyprint" else version(name))
    assert "(weasyprint 70.0)" in speedups.closed()  # a point release may mend what a repair replaces
    monkeypatch.setattr(speedups, "version", lambda name: "0.14.0" if name == "pydyf" else version(name))
    assert speedups.closed().startswith("pydyf 0.14.0")
    monkeypatch.setattr(speedups, "version", lambda name: "2.1.7" if name == "tinyhtml5" else version(name))
    assert speedups.closed() is None


#: every name the repairs replace, read in a fresh process before and after install()
NAMES = """
import weasyprint, weasyprint.images as images, weasyprint.layout.inline as inline, weasyprint.pdf.fonts as fonts
from weasyprint.css import ComputedStyle
def now():
    return (images.SVGImage, weasyprint.tinyhtml5, ComputedStyle.__missing__, inline.handle_leader, fonts.ffi)
"""


def _fresh(code: str, **env: str) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-c", NAMES + code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **env})


def test_nothing_is_replaced_when_the_gate_is_closed():
    code = """
before = now()
from whistbook.render import pdf, speedups
pdf.load_weasyprint()
assert before == now() and not speedups.installed(), [a for a, b in zip(now(), before) if a is not b]
print(speedups.closed())
"""
    out = _fresh(code, WHISTBOOK_STOCK_WEASYPRINT="1")
    assert out.stdout.startswith("WHISTBOOK_STOCK_WEASYPRINT is set"), out.stderr
    # another release: its internals are never imported, so one that moved cannot break the build
    code = """
import importlib.metadata as metadata
found = metadata.version
metadata.version = lambda name: "71.0" if name == "weasyprint" else found(name)
import weasyprint.css.computed_values as computed
del computed.PHYSICAL_FUNCTIONS
""" + code
    out = _fresh(code)
    assert out.stdout.startswith("weasyprint 71.0 is not the release"), out.stderr


def test_five_names_are_replaced_and_stock_puts_weasyprints_back():
    code = """
before = now()
from whistbook.render import pdf, speedups
pdf.load_weasyprint()
after = now()
assert all(a is not b for a, b in zip(after, before)), after
with speedups.stock():
    assert now() == before
assert now() == after
print("replaced")
"""
    out = _fresh(code)
    assert out.stdout.strip() == "replaced", out.stderr


def test_build_v_says_once_why_the_repairs_are_left_out(tmp_path):
    import os

    run = [sys.executable, "-m", "whistbook", "build", "--hands", str(tmp_path / "none"), "-v"]
    (tmp_path / "none").mkdir()
    out = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "WHISTBOOK_STOCK_WEASYPRINT": "1"})
    assert out.stderr.count("whistbook: warning: WHISTBOOK_STOCK_WEASYPRINT is set") == 1, out.stderr
    quiet = subprocess.run(run[:-1], capture_output=True, text=True, cwd=tmp_path,
                           env={**os.environ, "WHISTBOOK_STOCK_WEASYPRINT": "1"})
    assert "warning" not in quiet.stderr
    opened = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path)
    assert "warning" not in opened.stderr


# --- each repair against WeasyPrint's own code ----------------------------------------------------

HTML = """<!doctype html><html><head><style>
:root { --gap: 3mm }
body { font: 10pt "DejaVu Serif", serif; margin: 0 }
h1 { margin-inline-start: 12%; padding-block-start: var(--gap); text-decoration: underline }
h1 span { text-decoration: line-through }
p.calc { width: calc(50% + 2mm); min-width: 10%; max-height: 40mm; border: 1px solid; box-sizing: border-box }
p.pad { padding: 5%; margin: 2em auto; width: 70%; direction: rtl }
ul li::marker { color: #a00 }
ol { list-style: upper-roman inside }
h2 { string-set: running content() }
h2::before { content: "§ " }
a::after { content: " (" target-counter(attr(href), page) ")" }
table { border-collapse: collapse; width: 80% } td { border: 2px solid; padding: 3% }
div.float { float: right; width: 30%; height: 10mm }
div.abs { position: absolute; top: 5mm; right: 5mm; width: 20mm }
header { position: running(head) }
.page2 { page: wide; break-before: page }
@page { size: A6; margin: 15mm 12mm;
  @top-left { content: string(running) } @top-center { content: element(head) }
  @bottom-center { content: counter(page) } }
@page wide { @bottom-right-corner { content: "c" } }
</style></head><body>
<h1 id="top">Title <span>struck</span></h1>
<p class="calc">A paragraph with a width in calc() and a minimum in percent, and enough words to break
over several lines inside its box.</p>
<header>Running head</header>
<div class="float">floated</div><div class="abs">placed</div>
<p class="pad">Padded in percent, written right to left. <a href="#two">to two</a></p>
<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>
<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>
<h2 id="two" class="page2">Second</h2><p>""" + "More words. " * 120 + """</p>
</body></html>"""


def _layout(html: str = HTML) -> list:
    """What the layout gives: each box's kind, place and used values, page by page, and each
    page's anchors, links and bookmarks; then WeasyPrint's warnings."""
    with warnings_of("weasyprint") as logged:
        doc = weasyprint.HTML(string=html, media_type="print").render()
    names = ("position_x", "position_y", "width", "height", "margin_top", "margin_left", "padding_top",
             "border_top_width", "min_width", "max_height")
    pages = []
    for page in doc.pages:
        boxes = [(type(box).__name__, getattr(box, "element_tag", ""), getattr(box, "text", None),
                  *(getattr(box, name, None) for name in names)) for box in page._page_box.descendants()]
        pages.append((boxes, page.anchors, [link[:3] for link in page.links], page.bookmarks))
    return pages + [logged]


@installed
def test_the_repairs_lay_out_what_weasyprint_lays_out():
    fast = _layout()
    with speedups.stock():
        stock = _layout()
    assert fast == stock
    assert len(fast) >= 3 and any("§" in (box[2] or "") for page in fast[:-1] for box in page[0])


@installed
def test_a_style_read_quickly_equals_weasyprints_for_every_property():
    """Every property of every element's style, read by styles.missing and by WeasyPrint's
    method on the same rules."""
    from weasyprint.css import ComputedStyle, get_all_computed_styles
    from weasyprint.css.properties import INITIAL_VALUES

    class Stock(ComputedStyle):
        __missing__ = speedups.styles._stock_missing

    style_for = get_all_computed_styles(weasyprint.HTML(string=HTML, media_type="print"))
    checked = 0
    for (element, pseudo), style in list(style_for._computed_styles.items()):
        if isinstance(element, tuple) or pseudo is not None or style.parent_style is None:
            continue
        args = (style.parent_style, style.cascaded, None, style.root_style, style.base_url,
                style.font_config, style.initial_page_sizes)
        quick, stock = ComputedStyle(*args), Stock(*args)
        for key in sorted(INITIAL_VALUES):
            assert quick[key] == stock[key], (element.tag, key)
            checked += 1
    assert checked > 1000


@installed
def test_an_array_of_a_given_length_is_allocated_without_parsing_its_type():
    import weasyprint.pdf.fonts as fonts

    ffi = fonts.ffi
    assert isinstance(ffi, speedups.fonts._Arrays)
    stock = ffi._ffi
    array = ffi.new("hb_codepoint_t[1237]", list(range(3, 1240)))
    assert list(array) == list(range(3, 1240)) and len(array) == 1237
    assert "hb_codepoint_t[1237]" not in stock._parsed_types  # "hb_codepoint_t[]", parsed once
    # anything else is the FFI's own: no contents, or contents of another length
    assert len(ffi.new("hb_tag_t[5]")) == 5 and list(ffi.new("char[4]", b"ab")) == [b"a", b"b", b"\x00", b"\x00"]
    assert list(ffi.new("hb_codepoint_t[4]", [1, 2])) == [1, 2, 0, 0]
    assert ffi.NULL == stock.NULL and ffi.gc is not None
    assert {"hb_tag_t[5]", "char[4]", "hb_codepoint_t[4]"} <= set(stock._parsed_types)


def _font_files(data: bytes) -> list[bytes]:
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as document:
        return sorted(o.read_bytes() for o in document.objects
                      if isinstance(o, pikepdf.Stream) and "/Length1" in o)


@installed
def test_the_fonts_subsets_are_the_same_bytes():
    html = "<p style='font-family: DejaVu Serif'>Whist: ♠ ♥ ♦ ♣ A K Q J 10</p><p><i>Trumps</i> <b>led</b></p>"
    fast = _font_files(weasyprint.HTML(string=html).write_pdf())
    with speedups.stock():
        stock = _font_files(weasyprint.HTML(string=html).write_pdf())
    assert len(fast) >= 2 and fast == stock


CSS = "@page { size: A5; margin: 10mm }"
LEADERS = ("<!doctype html><html><body><ol>"
           + "".join(f'<li><a href="#x">Hand {n}</a></li>' for n in ("I", "XXII", "XXXVIII"))
           + "</ol><p>ab</p></body></html>")
LEADER_CSS = CSS + " a { display: block } a::after { content: leader('. ') '888' }" \
                   " p { width: 18mm } p::after { content: leader('. ') '8' }"


def _text(data: bytes, tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def _leaders(html: str, css: str) -> list[int]:
    """How many boxes each leader of a one-page document is drawn as."""
    from weasyprint.layout.leader import leader_index

    page = weasyprint.HTML(string=html).render(stylesheets=[weasyprint.CSS(string=css)]).pages[0]
    found = []

    def walk(box):
        if type(box).__name__ == "LineBox":
            _, leader = leader_index(box)
            if leader is not None:
                found.append(len(leader.children))
        for child in getattr(box, "children", ()):
            walk(child)

    walk(page._page_box)
    return found


@installed
def test_a_leader_is_drawn_as_three_texts_with_the_same_dots(tmp_path):
    """The dots of a contents line: the first and last as WeasyPrint places them,
    those between as one text; pdftotext reads the same as from WeasyPrint's copies."""
    fast = _leaders(LEADERS, LEADER_CSS)
    text = _text(pdf.lay_out_part(LEADERS, LEADER_CSS).pdf, tmp_path, "fast")
    with speedups.stock():
        stock = _leaders(LEADERS, LEADER_CSS)
        assert text == _text(pdf.lay_out_part(LEADERS, LEADER_CSS).pdf, tmp_path, "stock")
    assert ". . . . 888" in text
    assert fast[:3] == [3, 3, 3] and all(n > 20 for n in stock[:3])
    # a leader of a few dots is left as WeasyPrint placed it
    assert fast[3] == stock[3] == 2


def test_the_fetcher_decodes_base64_data_urls():
    fetcher = pdf.make_fetcher()
    response = fetcher.fetch("data:image/svg+xml;base64,PHN2Zy8+")
    assert response.read() == b"<svg/>"
    assert response.content_type == "image/svg+xml"
    assert fetcher.fetch("data:text/plain,hello").read() == b"hello"


# --- the page numbers ----------------------------------------------------------------------------

NUMBERED = ("@page { size: A6; @bottom-center { content: counter(page) } @top-left { content: 'T' } }"
            " @page :first { @bottom-center { content: none } } h1 { break-before: page }")


@pytest.mark.parametrize("repaired", [True, False])
def test_a_part_knows_its_numbered_pages_and_prints_no_number(repaired, tmp_path):
    html = "<!doctype html><html><body>" + "<h1>a</h1><p>x</p>" * 4 + "</body></html>"
    if repaired:
        part = pdf.lay_out_part(html, NUMBERED)
    else:
        with speedups.stock():
            part = pdf.lay_out_part(html, NUMBERED)
    assert part.pages == 4 and part.numbered == [1, 2, 3]
    text = _text(part.pdf, tmp_path, "part")
    assert text.count("T") == 4 and not any(ch.isdigit() for ch in text)
