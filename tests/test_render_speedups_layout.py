"""The booklet's speed-ups to WeasyPrint's styles and layout (render.speedups'
styles, pseudo, layout and margins: quick style look-ups, used values in one
function, pseudo-elements cascaded when asked for, idle margin boxes passed
over, the normal flow at one look) lay out what WeasyPrint lays out: each
is compared with WeasyPrint's own code on documents that take both its quick
path and its way back to WeasyPrint (math functions, variables, logical
properties, list markers, anchors, margin boxes of every kind, floats and
flex items); the fonts' subsets, whose glyph arrays are allocated without
parsing their types anew (speedups.fonts), are the same bytes; and none is
installed on another WeasyPrint."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from whistbook.render import pdf, speedups
from whistbook.render.logs import warnings_of

HTML = """<!doctype html><html><head><style>
:root { --gap: 3mm }
body { font: 10pt "DejaVu Serif", serif; margin: 0 }
h1 { margin-inline-start: 12%; padding-block-start: var(--gap); text-decoration: underline }
h1 span { text-decoration: line-through }
p.calc { width: calc(50% + 2mm); min-width: 10%; max-height: 40mm; border: 1px solid; box-sizing: border-box }
p.pad { padding: 5%; margin: 2em auto; width: 70% }
ul li::marker { color: #a00 }
ol { list-style: upper-roman inside }
h2 { string-set: running content() }
h2::before { content: "§ " } #three::before { -weasy-anchor: "third" }
a::after { content: " (" target-counter(attr(href), page) ")" }
table { border-collapse: collapse; width: 80% } td { border: 2px solid; padding: 3% }
div.float { float: right; width: 30%; height: 10mm }
div.abs { position: absolute; top: 5mm; right: 5mm; width: 20mm }
header { position: running(head) }
div.flex { display: flex } div.flex > div { float: left; width: 20% }
.page2 { page: wide; break-before: page }
@page { size: A6; margin: 15mm 12mm;
  @top-left { content: string(running) } @top-center { content: element(head) }
  @top-right { content: "Head" }
  @bottom-center { content: counter(page) } }
@page :first { @bottom-center { content: none } @left-middle { content: "side" } }
@page wide { @bottom-right-corner { content: "c" } @bottom-center { content: "p. " counter(page) }
  @right-top { content: counter(page) } }
</style></head><body>
<h1 id="top">Title <span>struck</span></h1>
<p class="calc">A paragraph with a width in calc() and a minimum in percent, and enough words to break
over several lines inside its box.</p>
<header>Running head</header>
<div class="float">floated</div><div class="abs">placed</div>
<div class="flex"><div>flex one</div><div>flex two</div>loose text</div>
<p class="pad">Padded in percent. <a href="#two">to two</a>, <a href="#third">to a pseudo-element</a></p>
<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>
<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>
<h2 id="two" class="page2">Second</h2><p>On a page of its own kind.</p>
<h2 id="three">Third</h2><p>""" + "More words. " * 120 + """</p>
</body></html>"""


def _render(html: str = HTML) -> list:
    """What the layout gives: each box's kind, place and used values, page by page, and each
    page's anchors, links and bookmarks; then WeasyPrint's warnings."""
    weasyprint, _, _ = pdf.load_weasyprint()
    with warnings_of("weasyprint") as logged:
        doc = weasyprint.HTML(string=html, media_type="print").render()
    names = ("position_x", "position_y", "width", "height", "margin_top", "margin_right", "margin_bottom",
             "margin_left", "padding_top", "padding_left", "border_top_width", "border_left_width",
             "min_width", "max_height")
    pages = []
    for page in doc.pages:
        boxes = [(type(box).__name__, getattr(box, "at_keyword", None) or getattr(box, "element_tag", ""), getattr(box, "text", None),
                  *(getattr(box, name, None) for name in names)) for box in page._page_box.descendants()]
        pages.append((boxes, page.anchors, [link[:3] for link in page.links], page.bookmarks))
    return pages + [logged]


def _stock(monkeypatch: pytest.MonkeyPatch, patch: str) -> None:
    """Put WeasyPrint's own code back in place of one speed-up."""
    from weasyprint.css import ComputedStyle, StyleFor

    if patch == "styles":
        monkeypatch.setattr(ComputedStyle, "__missing__", speedups.styles._stock_missing)
    elif patch == "percentages":
        for module in list(sys.modules.values()):
            if getattr(module, "resolve_percentages", None) is speedups.layout.resolve_percentages:
                monkeypatch.setattr(module, "resolve_percentages", speedups.layout._stock_percentages)
    elif patch == "flow":
        from weasyprint.formatting_structure.boxes import Box

        monkeypatch.setattr(Box, "is_in_normal_flow", speedups.layout._stock_in_flow)
    elif patch == "pseudo":
        monkeypatch.setattr(StyleFor, "__init__", speedups.pseudo._stock_cascade)
        monkeypatch.setattr(StyleFor, "__call__", speedups.pseudo._stock_style_for)
    else:
        import weasyprint.layout as layout
        import weasyprint.layout.page as page

        monkeypatch.setattr(page, "make_margin_boxes", speedups.margins._stock_margin_boxes)
        monkeypatch.setattr(layout, "make_margin_boxes", speedups.margins._stock_margin_boxes)


@pytest.fixture(scope="module")
def fast() -> list:
    return _render()


@pytest.mark.parametrize("patch", ["styles", "percentages", "pseudo", "margins", "flow"])
def test_each_speedup_lays_out_what_weasyprint_lays_out(fast, patch, monkeypatch):
    pdf.load_weasyprint()
    assert speedups.styles._stock_missing is not None  # installed: the test compares two ways
    _stock(monkeypatch, patch)
    assert _render() == fast


def test_the_sample_takes_the_quick_paths_and_the_ways_back(fast):
    *pages, logged = fast
    # a target in a pseudo-element is collected (WeasyPrint then finds no box for it, but does not
    # call it undefined)
    assert not any("undefined anchor" in line for line in logged)
    text = [box[2] for page in pages for box in page[0] if box[2]]
    assert any("§" in t for t in text) and "I." in " ".join(text)  # a ::before and markers
    assert len(pages) >= 3 and all(page[0] for page in pages)
    margin_tags = {box[1] for page in pages for box in page[0] if box[0] == "MarginBox"}
    assert {"@top-left", "@top-center", "@top-right", "@bottom-center", "@left-middle", "@bottom-right-corner",
            "@right-top"} <= margin_tags
    assert any(page[2] for page in pages)
    assert any("third" in page[1] for page in pages)  # a pseudo-element's anchor: cascaded at once


def test_a_style_read_quickly_equals_weasyprints_for_every_property():
    """Every property of every element's style, read by speedups.styles.missing and by
    WeasyPrint's method on the same rules."""
    weasyprint, _, _ = pdf.load_weasyprint()
    from weasyprint.css import ComputedStyle
    from weasyprint.css.properties import INITIAL_VALUES

    class Stock(ComputedStyle):
        __missing__ = speedups.styles._stock_missing

    doc = weasyprint.HTML(string=HTML, media_type="print")
    from weasyprint.css import get_all_computed_styles

    style_for = get_all_computed_styles(doc)
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


def test_a_part_learns_its_numbered_pages_without_laying_out_the_numbers():
    css = ("@page { size: A6; @bottom-center { content: counter(page) } @top-left { content: 'T' } }"
           " @page :first { @bottom-center { content: none } } h1 { break-before: page }")
    html = "<!doctype html><html><body>" + "<h1>a</h1><p>x</p>" * 4 + "</body></html>"
    part = pdf.lay_out_part(html, css)
    weasyprint, _, _ = pdf.load_weasyprint()
    doc = weasyprint.HTML(string=html, media_type="print").render(stylesheets=[weasyprint.CSS(string=css)])
    assert part.pages == len(doc.pages) == 4
    assert part.numbered == pdf._take_numbers(doc.pages) == [1, 2, 3]
    # left out while laid out for a part, laid out otherwise
    assert not any(getattr(page._page_box, speedups.LEFT_OUT) for page in doc.pages)


def test_nothing_is_installed_on_another_weasyprint():
    code = """
import weasyprint
weasyprint.__version__ = "71.0"
import weasyprint.layout as layout, weasyprint.layout.page as page
from weasyprint.css import ComputedStyle, StyleFor
import weasyprint.layout.block as block
import weasyprint.pdf.fonts as fonts
import weasyprint.layout.inline as inline, weasyprint.svg as svg, weasyprint.images as images
from weasyprint.formatting_structure.boxes import Box
import weasyprint.css.computed_values as computed
del computed.PHYSICAL_FUNCTIONS  # an internal another release may have moved: the repairs must not reach for it
def now():
    return (ComputedStyle.__missing__, StyleFor.__init__, StyleFor.__call__, page.make_margin_boxes,
            layout.make_margin_boxes, block.resolve_percentages, Box.is_in_normal_flow, fonts.ffi,
            inline.handle_leader, svg.TAGS["text"], images.SVGImage, weasyprint.tinyhtml5)
before = now()
from whistbook.render import speedups
speedups.install()
after = now()
assert before == after, [a for a, b in zip(after, before) if a is not b]
print("untouched")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip() == "untouched", out.stderr


def test_an_array_of_a_given_length_is_allocated_without_parsing_its_type():
    pdf.load_weasyprint()
    import weasyprint.pdf.fonts as fonts

    ffi = fonts.ffi
    assert isinstance(ffi, speedups.fonts._Arrays)
    stock = speedups.fonts._stock_fonts_ffi
    array = ffi.new("hb_codepoint_t[1237]", list(range(3, 1240)))
    assert list(array) == list(range(3, 1240)) and len(array) == 1237
    assert "hb_codepoint_t[1237]" not in stock._parsed_types  # "hb_codepoint_t[]", parsed once
    # anything else is the FFI's own: no contents, or contents of another length
    assert len(ffi.new("hb_tag_t[5]")) == 5 and list(ffi.new("char[4]", b"ab")) == [b"a", b"b", b"\x00", b"\x00"]
    assert list(ffi.new("hb_codepoint_t[4]", [1, 2])) == [1, 2, 0, 0]
    assert ffi.NULL == stock.NULL and ffi.gc is not None
    assert {"hb_tag_t[5]", "char[4]", "hb_codepoint_t[4]"} <= set(stock._parsed_types)


def _font_files(data: bytes) -> list[bytes]:
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as document:
        return sorted(o.read_bytes() for o in document.objects
                      if isinstance(o, pikepdf.Stream) and "/Length1" in o)


def test_the_fonts_subsets_are_the_same_bytes(monkeypatch):
    weasyprint, _, _ = pdf.load_weasyprint()
    import weasyprint.pdf.fonts as fonts

    html = "<p style='font-family: DejaVu Serif'>Whist: ♠ ♥ ♦ ♣ A K Q J 10</p><p><i>Trumps</i> <b>led</b></p>"
    fast = _font_files(weasyprint.HTML(string=html).write_pdf())
    monkeypatch.setattr(fonts, "ffi", speedups.fonts._stock_fonts_ffi)
    stock = _font_files(weasyprint.HTML(string=html).write_pdf())
    assert len(fast) >= 2 and fast == stock
