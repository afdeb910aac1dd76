"""Repairs to WeasyPrint 70's speed, for the booklet.

*HTML parsing.* tinyhtml5 2.1 (WeasyPrint's HTML parser) means to keep the
regular expression it builds for each set of stop characters, but its
chained assignment stores it under the compiled expression instead of the
characters, so every call builds and compiles it again: that took about half
of the parsing. :func:`install` gives it a table that keeps what it builds.

*SVG text.* WeasyPrint lays out and draws an SVG ``<text>`` one character at
a time (a Pango layout and a PDF text object per letter), so that each letter
can take its own ``x``, ``dx`` or ``rotate``. The booklet's diagrams never
place single letters: each text has at most one ``x`` and one ``y``. Laid out
and drawn whole, such a text costs one layout instead of one per letter; the
glyphs are shaped as a browser shapes them. :func:`text` takes WeasyPrint's
place for the elements it draws (``text``, ``tspan``, ``textPath``, ``a``);
anything it does not cover (several coordinates, ``dx``, ``dy``, ``rotate``,
``letter-spacing``, ``textLength``) goes to WeasyPrint's own function.

*Texts shaped once.* A diagram's texts are short and few: about a thousand
different strings (a card, a seat, ``0–5``) make the booklet's thirteen
thousand. :func:`shaped_text` shapes each with Pango once per worker and
keeps its glyph runs as PDF operators, which :mod:`.pictures` writes.

*The diagrams whole.* An SVG image made only of what the booklet's diagrams
use is read once into PDF operators and written in one piece
(:mod:`.pictures`); any other SVG image is WeasyPrint's.

*Leaders in one piece.* WeasyPrint fills a ``leader()`` with one copy of its
text per step (a contents line's dots are some seventy boxes), and draws each
as a text of its own: the lessons by theme and the contents drew about six
thousand. :func:`one_leader` lays the dots between the first and the last
out as one text, which Pango places at the same steps (the dots drift by up
to 0.1 pt along a line: WeasyPrint writes each glyph's advance truncated to
a thousandth of an em); where it would not (the one text is not exactly as
wide as the copies), WeasyPrint's copies stay.

*Styles and layout.* WeasyPrint's bookkeeping, read for the booklet's
parts: a style property no rule sets is read directly (:func:`missing`);
a box's used margins, paddings and sizes are set in one function
(:func:`resolve_percentages`); pseudo-elements are cascaded only when the
box builder asks for them (:func:`cascade`); idle margin boxes are passed
over, and a part's page numbers are not laid out (:func:`make_margin_boxes`,
:class:`margin_boxes_left_out`); whether a box is in the normal flow is
read at one look (:func:`is_in_normal_flow`); a font's glyph arrays are
allocated without cffi parsing a new type for each length (:class:`_Arrays`).

All are installed only on the versions they were written against; on any
other, nothing changes (the booklet is the same, only slower). The numbers
are in ``docs/rendering.md`` (Speed).
"""

from __future__ import annotations

import re
from math import inf
from typing import Any

from . import html_tree

#: the WeasyPrint major version whose ``svg/text.py`` :func:`text` follows
WEASYPRINT_MAJOR = 70
#: the tinyhtml5 version (major, minor) whose ``chars_until`` keeps nothing
TINYHTML5_BROKEN = ("2", "1")
#: attributes that place or size letters one by one
_PER_LETTER = ("dx", "dy", "rotate", "letter-spacing", "textLength")

_stock: Any = None
_stock_leader: Any = None


def install() -> None:
    """Put the repairs in place (once; where the versions fit)."""
    _keep_regexes()
    html_tree.install()
    _whole_svg_text()
    _diagrams_direct()
    _leaders_whole()
    _quick_styles()
    _quick_percentages()
    _lazy_pseudo_styles()
    _quiet_margins()
    _quick_flow()
    _arrays_unparsed()


class _Regexes(dict):
    """tinyhtml5's table of stop-character expressions, which keeps what it builds."""

    def __missing__(self, key: tuple[Any, bool]) -> "re.Pattern[str]":
        characters, opposite = key
        chars = "".join(f"\\x{ord(c):02x}" for c in characters)
        pattern = self[key] = re.compile(f"[{'' if opposite else '^'}{chars}]+")
        return pattern


def _keep_regexes() -> None:
    from importlib.metadata import version

    import tinyhtml5.inputstream as stream

    table = getattr(stream, "characters_until_regex", None)
    if tuple(version("tinyhtml5").split(".")[:2]) == TINYHTML5_BROKEN and type(table) is dict:
        stream.characters_until_regex = _Regexes(table)


def _whole_svg_text() -> None:
    global _stock
    import weasyprint
    import weasyprint.svg as svg

    if _stock is not None or int(weasyprint.__version__.split(".")[0]) != WEASYPRINT_MAJOR:
        return
    _stock = svg.text
    for tag, fn in list(svg.TAGS.items()):
        if fn is _stock:
            svg.TAGS[tag] = text
    svg.text = text


def _diagrams_direct() -> None:
    import weasyprint

    if int(weasyprint.__version__.split(".")[0]) == WEASYPRINT_MAJOR:
        from .pictures import install as install_pictures

        install_pictures()


def _leaders_whole() -> None:
    global _stock_leader
    import weasyprint
    import weasyprint.layout.inline as inline

    if _stock_leader is not None or int(weasyprint.__version__.split(".")[0]) != WEASYPRINT_MAJOR:
        return
    _stock_leader = inline.handle_leader
    inline.handle_leader = one_leader


def one_leader(context: Any, line: Any, containing_block: Any) -> None:
    """WeasyPrint's ``handle_leader`` (the leader's copies placed, what follows
    it moved), then the copies between the first and the last (they lie side
    by side, from right to left) made into one text as wide as they are,
    starting where the leftmost of them does. The first and the last stay
    apart, as WeasyPrint places them, so that a text extractor reads the
    line as before (with the first dot in the one text, pdftotext joined it
    to the title on some lines)."""
    from weasyprint.formatting_structure.boxes import TextBox
    from weasyprint.layout.leader import leader_index
    from weasyprint.text.line_break import split_first_line

    _stock_leader(context, line, containing_block)
    _, leader = leader_index(line)
    copies = leader.children if leader is not None else ()
    if len(copies) < 4 or not all(type(box) is TextBox for box in copies):
        return
    last, step, text = copies[0], copies[0].width, copies[0].text
    if any(box.text != text or box.width != step or box.pango_layout is not last.pango_layout
           or abs(box.position_x - (last.position_x - k * step)) > 1e-6 for k, box in enumerate(copies)):
        return  # not the copies of one text, one step apart
    inner = copies[1:-1]
    dots = text * len(inner)
    layout, length, _, width, _, _ = split_first_line(
        dots, last.style, context, None, last.justification_spacing, is_line_start=False)
    if length != len(dots.encode()) or abs(width - step * len(inner)) > 1e-6:
        return
    whole = inner[-1].copy_with_text(layout.text)
    whole.pango_layout, whole.width = layout, width
    leader.children = (last, whole, copies[-1])


def _one(node: Any, name: str) -> bool:
    from weasyprint.svg.utils import normalize

    return " " not in normalize(node.attrib.get(name, "")).strip()


def _style(svg: Any, node: Any, font_size: float) -> Any:
    """The text's style, as WeasyPrint's own function makes it."""
    return text_style(svg.font_config, node.get("font-family", "sans-serif"), node.get("font-style", "normal"),
                      node.get("font-weight", 400), font_size, node.get("direction"))


def text_style(font_config: Any, family: str, font_style: str, weight: Any, font_size: float,
               direction: str | None = None) -> Any:
    """An SVG text's style from its attributes' values, as WeasyPrint's ``text`` makes it."""
    from weasyprint.css.properties import INITIAL_VALUES
    from weasyprint.svg.text import Style

    style = Style()
    style.update(INITIAL_VALUES)
    style.font_config = font_config
    style["font_family"] = [font.strip("\"'") for font in family.split(",")]
    style["font_style"] = font_style
    style["font_size"] = font_size
    if direction in ("ltr", "rtl"):
        style["direction"] = direction
    if weight == "normal":
        weight = 400
    elif weight == "bold":
        weight = 700
    else:
        try:
            weight = int(weight)
        except ValueError:
            weight = 400
    style["font_weight"] = weight
    return style


def _y_align(node: Any, height: float, font_size: float) -> float:
    """The vertical shift for ``display-anchor`` and the baselines (as WeasyPrint)."""
    ascent, descent = font_size * 0.8, font_size * 0.2
    display_anchor = node.get("display-anchor")
    baseline = node.get("dominant-baseline", node.get("alignment-baseline"))
    if display_anchor == "middle":
        return -height / 2
    if display_anchor == "top":
        return 0
    if display_anchor == "bottom":
        return -height
    if baseline in ("central", "middle"):
        return (ascent + descent) / 2 - descent
    if baseline in ("text-before-edge", "before_edge", "top", "hanging", "text-top"):
        return ascent
    if baseline in ("text-after-edge", "after_edge", "bottom", "text-bottom"):
        return -descent
    return 0


def text(svg: Any, node: Any, font_size: float) -> None:
    """Draw a text node whole when no letter has a place of its own."""
    if (not node.text or any(name in node.attrib for name in _PER_LETTER)
            or not _one(node, "x") or not _one(node, "y")):
        return _stock(svg, node, font_size)
    from weasyprint.draw.text import draw_emojis, draw_first_line
    from weasyprint.matrix import Matrix
    from weasyprint.svg.bounding_box import extend_bounding_box
    from weasyprint.svg.text import TextBox
    from weasyprint.svg.utils import size
    from weasyprint.text.line_break import split_first_line

    style = _style(svg, node, font_size)
    layout, _, _, width, height, baseline = split_first_line(node.text, style, svg.context, inf, 0)
    x = size(node.attrib["x"], font_size, svg.inner_width) if "x" in node.attrib else None
    y = size(node.attrib["y"], font_size, svg.inner_height) if "y" in node.attrib else None
    # WeasyPrint's per-letter loop, for its first letter (the only one placed)
    if x:
        svg.cursor_d_position[0] = 0
    if y:
        svg.cursor_d_position[1] = 0
    x = svg.cursor_position[0] if x is None else x
    y = svg.cursor_position[1] if y is None else y
    svg.cursor_position = x + width, y
    x_position = x + svg.cursor_d_position[0]
    y_position = y + svg.cursor_d_position[1] + _y_align(node, height, font_size)
    node.text_bounding_box = extend_bounding_box(node.text_bounding_box, (
        (x_position, y_position - baseline), (x_position + width, y_position - baseline + height)))

    svg.stream.push_state()
    fill, stroke = svg.set_graphical_state(node, font_size)
    svg.stream.begin_text()
    layout.reactivate(style)
    svg.fill_stroke(fill, stroke, text=True)
    text_box = TextBox(layout, style)
    text_box.baseline = baseline
    emojis = draw_first_line(svg.stream, text_box, "none", "none", Matrix(d=-1, e=x_position, f=y_position))
    svg.stream.end_text()
    svg.stream.pop_state()
    draw_emojis(svg.stream, style, x, y, emojis)


# --- plain texts, shaped once -----------------------------------------------------------------

#: (font configuration, text, families, style, weight, size) -> Shaped, or None where the runs cannot be replayed
_SHAPED: dict[tuple, Any] = {}


class Shaped:
    """A text's size and glyph runs, as WeasyPrint's ``draw_first_line`` writes them."""

    def __init__(self, layout: Any, width: float, height: float, baseline: float) -> None:
        self.layout = layout  # keeps Pango's fonts (which the runs name) alive
        self.width, self.height, self.baseline = width, height, baseline
        #: ("font", pango font, size) | ("show", string) | ("rise", height)
        self.ops: list[tuple] = []
        #: pango font -> {glyph id: (text, width)}: what a new document's font must learn
        self.glyphs: dict[Any, dict[int, tuple[str | None, int]]] = {}
        #: the same runs as PDF operators, for a text object written whole
        self.data = b""


def teach(stream: Any, texts: Any) -> None:
    """Teach the stream's document's fonts the glyphs that ``texts`` (Shaped) use,
    each font looked up once."""
    fonts: dict[Any, Any] = {}
    for shaped in texts:
        for pango_font, glyphs in shaped.glyphs.items():
            font = fonts.get(pango_font)
            if font is None:
                font = fonts[pango_font] = stream.add_font(pango_font)[0]
            _teach(font, glyphs)


def _teach(font: Any, glyphs: dict[int, tuple[str | None, int]]) -> None:
    """A document's font learns glyphs' widths and characters (as ``draw_first_line`` teaches it)."""
    to_unicode, widths = font.to_unicode, font.widths
    for gid, (chars, width) in glyphs.items():
        if chars is not None:
            to_unicode.setdefault(gid, chars)
        widths.setdefault(gid, width)


class _Touched(dict):
    """A font's glyph table that notes the glyphs a text uses."""

    def __init__(self, table: dict, seen: set) -> None:
        super().__init__()
        self.table, self.seen = table, seen

    def __contains__(self, key: object) -> bool:
        self.seen.add(key)
        return key in self.table

    def __getitem__(self, key: Any) -> Any:
        self.seen.add(key)
        return self.table[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        self.seen.add(key)
        self.table[key] = value


class _FontProbe:
    """A document's font as ``draw_first_line`` sees it, noting the glyphs used."""

    def __init__(self, font: Any, seen: set) -> None:
        self.font, self.seen = font, seen
        self.to_unicode = _Touched(font.to_unicode, seen)
        self.widths = _Touched(font.widths, seen)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.font, name)


class _Recorder:
    """The page's stream as ``draw_first_line`` sees it: fonts are added to the
    document, the text operators are only noted."""

    def __init__(self, stream: Any, shaped: Shaped) -> None:
        self.stream, self.shaped = stream, shaped
        self.fonts: list[tuple[Any, Any, set]] = []  # (pango font, document font, glyphs seen)
        self.plain = True  # False when a font draws pictures (emoji) the runs cannot hold

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    def add_font(self, pango_font: Any) -> tuple[Any, float]:
        font, size = self.stream.add_font(pango_font)
        seen: set = set()
        self.fonts.append((pango_font, font, seen))
        if font.svg or font.png or font.colr or font.bitmap:
            self.plain = False
        return _FontProbe(font, seen), size

    def set_text_matrix(self, *values: float) -> None:
        pass  # the caller places the text

    def set_font_size(self, font: str, size: float) -> None:
        self.shaped.ops.append(("font", self.fonts[-1][0], size))

    def show_text(self, string: str) -> None:
        self.shaped.ops.append(("show", string))

    def set_text_rise(self, height: float) -> None:
        self.shaped.ops.append(("rise", height))

    def learn(self) -> None:
        from pydyf import _to_bytes

        names = {}
        for pango_font, font, seen in self.fonts:
            names[pango_font] = font.hash.encode()
            glyphs = self.shaped.glyphs.setdefault(pango_font, {})
            for gid in seen:
                if gid in font.widths:
                    glyphs[gid] = (font.to_unicode.get(gid), font.widths[gid])
        data = []
        for op in self.shaped.ops:
            if op[0] == "font":
                data.append(b"/" + names[op[1]] + b" " + _to_bytes(op[2]) + b" Tf")
            elif op[0] == "show":
                data.append(b"[" + op[1].encode("ascii") + b"] TJ")
            else:
                data.append(_to_bytes(op[1]) + b" Ts")
        self.shaped.data = b"\n".join(data)


def shaped_text(stream: Any, context: Any, font_config: Any, text: str, family: str, font_style: str,
                weight: Any, font_size: float) -> "Shaped | None":
    """``text`` shaped in the font its attributes' values give (as
    :func:`text_style` reads them), once per worker; None where its runs
    cannot be replayed (a font of pictures). ``stream`` is the page's: the
    first time, its document's fonts learn the glyphs."""
    key = (font_config, text, family, font_style, weight, font_size)
    shaped = _SHAPED.get(key, False)
    if shaped is False:
        style = text_style(font_config, family, font_style, weight, font_size)
        shaped = _SHAPED[key] = _shape(stream, context, style, text)
    return shaped


def _shape(stream: Any, context: Any, style: Any, text: str) -> "Shaped | None":
    from weasyprint.draw.text import draw_first_line
    from weasyprint.matrix import Matrix
    from weasyprint.svg.text import TextBox
    from weasyprint.text.line_break import split_first_line

    layout, _, _, width, height, baseline = split_first_line(text, style, context, inf, 0)
    shaped = Shaped(layout, width, height, baseline)
    layout.reactivate(style)
    text_box = TextBox(layout, style)
    text_box.baseline = baseline
    recorder = _Recorder(stream, shaped)
    if draw_first_line(recorder, text_box, "none", "none", Matrix(d=-1)) or not recorder.plain:
        return None
    recorder.learn()
    return shaped


def shift(anchor: str, width: float) -> float:
    """How far left of its ``x`` a text of ``width`` starts, for its ``text-anchor``."""
    return width / 2 if anchor == "middle" else width if anchor == "end" else 0


# --- styles and used values -------------------------------------------------------------------

#: properties whose value ComputedStyle.__missing__ treats apart (specified values kept, 'page' taken from
#: above), as it does the text decorations (propagated) and custom properties ("__name", inherited)
_SPECIAL_KEYS = frozenset(("float", "display", "position", "page"))

_stock_missing: Any = None


def _quick_styles() -> None:
    """Most style look-ups are of a property no rule sets: its value is then
    the parent's (inherited) or the initial one. WeasyPrint's
    ``ComputedStyle.__missing__`` goes through every case first (variables,
    logical properties, math functions) for about a million look-ups per
    booklet. :func:`missing` answers those two cases directly."""
    global _stock_missing, _check_math, _INHERITED, _INITIAL_VALUES
    import weasyprint
    from weasyprint.css import ComputedStyle
    from weasyprint.css.computed_values import PHYSICAL_FUNCTIONS
    from weasyprint.css.functions import check_math
    from weasyprint.css.properties import INHERITED, INITIAL_NOT_COMPUTED, INITIAL_VALUES

    if _stock_missing is not None or int(weasyprint.__version__.split(".")[0]) != WEASYPRINT_MAJOR:
        return
    if any(key in _SPECIAL_KEYS or key[:16] == "text_decoration_" for key in INHERITED):
        return  # missing() takes every inherited property for a plain one
    _check_math, _INHERITED, _INITIAL_VALUES = check_math, INHERITED, INITIAL_VALUES
    _PLAIN_INITIAL.update(key for key, value in INITIAL_VALUES.items()
                          if key not in INITIAL_NOT_COMPUTED and key not in _SPECIAL_KEYS
                          and key[:16] != "text_decoration_" and not check_math(value))
    _LOGICAL.update({key: tuple({function(block="ttb", inline=inline): None for inline in ("ltr", "rtl")})
                     for key, function in PHYSICAL_FUNCTIONS.items()})
    _stock_missing = ComputedStyle.__missing__
    ComputedStyle.__missing__ = missing


#: physical property -> the logical properties that may stand for it (either direction)
_LOGICAL: dict[str, tuple[str, ...]] = {}
# WeasyPrint's tables and ``check_math``, bound when :func:`_quick_styles` installs
_check_math: Any = None
_INHERITED: Any = frozenset()
#: properties whose initial value is their computed value (and no math function)
_PLAIN_INITIAL: set[str] = set()
_INITIAL_VALUES: dict[str, Any] = {}


def missing(style: Any, key: str) -> Any:
    """``ComputedStyle.__missing__`` for a property set by no rule (nor any
    logical property standing for it): the parent's value for an inherited
    property, the initial value for another one whose initial value needs no
    computing. Anything else is WeasyPrint's own method."""
    cascaded = style.cascaded
    if key not in cascaded:
        for name in _LOGICAL.get(key, ()):
            if name in cascaded:
                break
        else:
            if key in _INHERITED:
                parent = style.parent_style
                if parent is not None:
                    value = parent[key]
                    # check_math is false at once for anything but a tuple or a function token
                    if ((type(value) is not tuple and getattr(value, "type", None) != "function")
                            or not _check_math(value)):
                        style[key] = value
                        return value
            elif key in _PLAIN_INITIAL:
                value = style[key] = _INITIAL_VALUES[key]
                return value
    return _stock_missing(style, key)


_stock_percentages: Any = None


def _quick_percentages() -> None:
    """``resolve_percentages`` sets a box's used margins, paddings, sizes and
    borders: about fifty thousand boxes a booklet, each through fourteen calls
    of ``resolve_one_percentage``, each calling ``percentage``.
    :func:`resolve_percentages` does the same in one function, lengths in
    pixels and percentages directly, anything else (math functions) through
    WeasyPrint's ``percentage``. WeasyPrint's layout modules import the
    function by name, so each of them gets it."""
    global _stock_percentages, _Box, _PageBox, _percentage, _adjust_box_sizing, _check_math
    import sys

    import weasyprint
    import weasyprint.layout  # noqa: F401  (every layout module, each holding its own name for the function)
    import weasyprint.layout.percent as percent
    from weasyprint.css.functions import check_math
    from weasyprint.formatting_structure.boxes import Box, PageBox

    if _stock_percentages is not None or int(weasyprint.__version__.split(".")[0]) != WEASYPRINT_MAJOR:
        return
    _Box, _PageBox, _percentage, _adjust_box_sizing, _check_math = (
        Box, PageBox, percent.percentage, percent.adjust_box_sizing, check_math)
    _stock_percentages = percent.resolve_percentages
    for name, module in list(sys.modules.items()):
        if name.startswith("weasyprint.") and getattr(module, "resolve_percentages", None) is _stock_percentages:
            module.resolve_percentages = resolve_percentages


#: the used values resolve_percentages sets, and whether each refers to the width (else to maybe_height)
_BOX_SIDES = (("margin_left", True), ("margin_right", True), ("margin_top", False), ("margin_bottom", False),
              ("padding_left", True), ("padding_right", True), ("padding_top", False),
              ("padding_bottom", False))
_BORDERS = ("border_top_width", "border_right_width", "border_bottom_width", "border_left_width")
# WeasyPrint's, bound when :func:`_quick_percentages` installs
_Box: Any = None
_PageBox: Any = None
_percentage: Any = None
_adjust_box_sizing: Any = None


def _used(box: Any, style: Any, name: str, refer_to: Any) -> Any:
    """WeasyPrint's ``resolve_one_percentage`` (without its ``min_*`` rule)."""
    value = style[name]
    if value is not None and value != "auto":
        unit = getattr(value, "unit", None)
        if unit == "px":
            value = value.value
        elif unit == "%":
            value = refer_to * value.value / 100
        else:
            value = _percentage(value, style, refer_to)
    setattr(box, name, value)
    return value


def resolve_percentages(box: Any, containing_block: Any) -> None:
    """WeasyPrint 70's ``layout.percent.resolve_percentages``, in one function."""
    if isinstance(containing_block, _Box):
        cb_width, cb_height = containing_block.width, containing_block.height
    else:
        cb_width, cb_height = containing_block
    maybe_height = cb_height if isinstance(box, _PageBox) else cb_width
    style = box.style
    for name, horizontal in _BOX_SIDES:
        _used(box, style, name, cb_width if horizontal else maybe_height)
    _used(box, style, "width", cb_width)
    if _used(box, style, "min_width", cb_width) == "auto":
        box.min_width = 0
    _used(box, style, "max_width", cb_width)
    if cb_height == "auto":
        # the containing block's height depends on its content
        height = style["height"]
        if height == "auto" or _check_math(height) or height.unit == "%":
            box.height = "auto"
        else:
            assert height.unit.lower() == "px"
            box.height = height.value
        if _used(box, style, "min_height", 0) == "auto":
            box.min_height = 0
        _used(box, style, "max_height", inf)
    else:
        _used(box, style, "height", cb_height)
        if _used(box, style, "min_height", cb_height) == "auto":
            box.min_height = 0
        _used(box, style, "max_height", cb_height)
    collapse = style["border_collapse"] == "collapse"
    for name in _BORDERS:
        # a collapsed border's width was set when the table's borders were resolved
        if not (collapse and hasattr(box, name)):
            setattr(box, name, style[name])
    _adjust_box_sizing(box, "width")
    _adjust_box_sizing(box, "height")


_stock_cascade: Any = None
_stock_style_for: Any = None


def _lazy_pseudo_styles() -> None:
    """WeasyPrint's own stylesheet gives every element six pseudo-elements
    (``::marker``, ``::footnote-call``, ``::footnote-marker``, ``::note-call``,
    ``::note-marker``, ``::note-callback``): WeasyPrint cascades their rules
    and makes their styles at once, more cascading than for the elements
    themselves, though only list items, footnotes and notes ever ask for
    them. :func:`cascade` keeps a pseudo-element's rules and leaves the
    cascade and its style until the box builder asks (:func:`style_for`),
    unless its rules set ``anchor`` (the one value read when a style is
    made); and it cascades an element's own rules only when its style is not
    shared with an element cascaded before."""
    global _stock_cascade, _stock_style_for
    import weasyprint
    from weasyprint.css import StyleFor

    if _stock_cascade is not None or int(weasyprint.__version__.split(".")[0]) != WEASYPRINT_MAJOR:
        return
    _stock_cascade, _stock_style_for = StyleFor.__init__, StyleFor.__call__
    StyleFor.__init__ = cascade
    StyleFor.__call__ = style_for


#: id of a declaration block -> (the block, whether it sets ``anchor``)
_SETS_ANCHOR: dict[int, tuple[Any, bool]] = {}


def _sets_anchor(declarations: Any) -> bool:
    known = _SETS_ANCHOR.get(id(declarations))
    if known is None or known[0] is not declarations:
        known = _SETS_ANCHOR[id(declarations)] = (
            declarations, any(name == "anchor" for name, _, _ in declarations))
    return known[1]


def _apply(style: dict, rules: list) -> None:
    """Cascade ``rules`` ((origin, layer order, specificity, declarations), in
    WeasyPrint's order) into ``style``, as WeasyPrint's ``StyleFor`` does."""
    from weasyprint.css import declaration_precedence

    for origin, layer_order, specificity, declarations in rules:
        for name, values, importance in declarations:
            weight = (declaration_precedence(origin, importance), layer_order, specificity)
            old_weight = style.get(name, (None, None))[1]
            if old_weight is None or old_weight <= weight:
                style[name] = values, weight


def _style_attributes(html: Any, presentational_hints: Any, cascaded_styles: dict) -> dict:
    """Cascade the elements' ``style`` attributes (and presentational hints)
    as WeasyPrint's ``StyleFor`` does; each element's declarations."""
    from weasyprint.css import declaration_precedence, find_style_attributes
    from weasyprint.css.validation import preprocess_declarations

    elements_declarations = {}
    for specificity, element, declarations, base_url in find_style_attributes(
            html.etree_element, presentational_hints, html.base_url):
        style = cascaded_styles.setdefault((element, None), {})
        elements_declarations[element] = tuple(declarations)
        for name, values, importance in preprocess_declarations(base_url, declarations):
            weight = (declaration_precedence("author", importance), inf, specificity)
            old_weight = style.get(name, (None, None))[1]
            if old_weight is None or old_weight <= weight:
                style[name] = values, weight
    return elements_declarations


def _match(element: Any, sheets: Any) -> tuple[list, list, dict]:
    """The stylesheets' rules that match ``element``, in WeasyPrint's order:
    the keys by which WeasyPrint shares a style, the element's own rules, and
    each pseudo-element's (rules as :func:`_apply` takes them)."""
    selectors_keys: list = []
    own: list = []
    pseudos: dict = {}
    for sheet, origin, sheet_specificity in sheets:
        for specificity, _, pseudo_type, (declarations, layer) in sheet.matcher.match(element):
            layer_order = inf if layer is None else sheet.layers.index(layer)
            selectors_keys.append((sheet, specificity, id(declarations), layer_order))
            rule = (origin, layer_order, sheet_specificity or specificity, declarations)
            if pseudo_type is None:
                own.append(rule)
            else:
                pseudos.setdefault(pseudo_type, []).append(rule)
    return selectors_keys, own, pseudos


def cascade(self: Any, html: Any, sheets: Any, presentational_hints: Any, font_config: Any,
            target_collector: Any) -> None:
    """WeasyPrint 70's ``StyleFor.__init__``, keeping pseudo-elements' rules
    for later (:func:`_lazy_pseudo_styles`)."""
    from weasyprint.css import PROGRESS_LOGGER

    self._cascaded_styles = cascaded_styles = {}
    self._computed_styles = computed_styles = {}
    self.initial_page_sizes = {"box": None, "area": None}
    self._sheets = sheets
    self.font_config = font_config
    #: (element, pseudo-element) -> (its rules, root element, base URL)
    self._pending_pseudo = pending = {}

    PROGRESS_LOGGER.info("Step 3 - Applying CSS")
    elements_declarations = _style_attributes(html, presentational_hints, cascaded_styles)

    # elements in tree order: a parent's style is made before its children's
    computed_cache = {}
    root = html.etree_element
    for element in html.wrapper_element.iter_subtree():
        etree_element = element.etree_element
        parent = element.parent.etree_element if element.parent else None
        parent_id = id(computed_styles[parent, None]) if element.parent else None
        element_declarations = elements_declarations.get(etree_element)
        selectors_keys, own, pseudos = _match(element, sheets)
        for pseudo_type, rules in pseudos.items():
            if any(_sets_anchor(rule[3]) for rule in rules):
                _apply(cascaded_styles.setdefault((etree_element, pseudo_type), {}), rules)
            else:
                pending[etree_element, pseudo_type] = (rules, root, html.base_url)
        key = (parent_id, element_declarations, tuple(selectors_keys))
        if key in computed_cache:
            # the same rules and parent as an element before: the same style
            computed_styles[etree_element, None] = computed_cache[key]
        else:
            _apply(cascaded_styles.setdefault((etree_element, None), {}), own)
            self.set_computed_styles(
                etree_element, root=root, parent=parent, base_url=html.base_url,
                target_collector=target_collector)
            computed_cache[key] = computed_styles[etree_element, None]

    # pseudo-elements whose rules set an anchor, in WeasyPrint's order
    for element, pseudo_type in cascaded_styles:
        if pseudo_type:
            self.set_computed_styles(
                element, pseudo_type=pseudo_type, root=root, parent=element,
                base_url=html.base_url, target_collector=target_collector)
    # the cascaded styles of pages are kept here
    self._cascaded_styles.clear()


def style_for(self: Any, element: Any, pseudo_type: Any = None) -> Any:
    """``StyleFor.__call__``, which first cascades and makes a pseudo-element's
    style kept for later by :func:`cascade`."""
    if pseudo_type is not None:
        kept = self.__dict__.get("_pending_pseudo", {}).pop((element, pseudo_type), None)
        if kept is not None:
            from weasyprint.css import ComputedStyle

            rules, root, base_url = kept
            cascaded: dict = {}
            _apply(cascaded, rules)
            computed = self._computed_styles
            computed[element, pseudo_type] = ComputedStyle(
                computed[element, None], cascaded, pseudo_type, computed[root, None], base_url,
                self.font_config, self.initial_page_sizes)
    return _stock_style_for(self, element, pseudo_type)


_stock_in_flow: Any = None


def _quick_flow() -> None:
    """The layout asks each box whether it is in the normal flow about
    three hundred thousand times a booklet; WeasyPrint's ``Box.is_in_normal_flow``
    asks five other methods, each reading the style again.
    :func:`is_in_normal_flow` reads ``float`` and ``position`` once."""
    global _stock_in_flow
    import weasyprint
    from weasyprint.formatting_structure.boxes import Box

    if _stock_in_flow is not None or int(weasyprint.__version__.split(".")[0]) != WEASYPRINT_MAJOR:
        return
    _stock_in_flow = Box.is_in_normal_flow
    Box.is_in_normal_flow = is_in_normal_flow


_FLOATED = ("left", "right", "inline-start", "inline-end")


def is_in_normal_flow(self: Any) -> bool:
    """WeasyPrint 70's ``Box.is_in_normal_flow`` in one function, unless the
    box has a method of its own (a flex item's ``is_floated``)."""
    if "is_floated" in self.__dict__:
        return _stock_in_flow(self)
    style = self.style
    float_, position = style["float"], style["position"]
    return not (float_ in _FLOATED or position in ("absolute", "fixed") or position[0] == "running()"
                or float_ == "footnote" or position[0] == "note()")


_stock_fonts_ffi: Any = None


def _arrays_unparsed() -> None:
    """Subsetting a font, WeasyPrint allocates arrays of glyph ids as
    ``ffi.new(f"hb_codepoint_t[{n}]", ids)``: cffi parses each new length's
    type with pycparser, a costly parse (68 lengths over the booklet's parts
    in one process). :class:`_Arrays` allocates the same array as
    ``ffi.new("hb_codepoint_t[]", ids)``, a type parsed once."""
    global _stock_fonts_ffi
    import weasyprint
    import weasyprint.pdf.fonts as fonts

    if _stock_fonts_ffi is not None or int(weasyprint.__version__.split(".")[0]) != WEASYPRINT_MAJOR:
        return
    _stock_fonts_ffi = fonts.ffi
    fonts.ffi = _Arrays(fonts.ffi)


#: an array type of a given length: (item type, length)
_SIZED = re.compile(r"^\s*(\w+)\s*\[\s*(\d+)\s*\]\s*$")


class _Arrays:
    """A cffi ``FFI`` whose ``new`` allocates an array of a given length,
    filled from a list or tuple of that length, without parsing its type
    anew; everything else is the ``FFI``'s own."""

    def __init__(self, ffi: Any) -> None:
        self._ffi = ffi

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._ffi, name)
        setattr(self, name, value)  # found once
        return value

    def new(self, cdecl: Any, init: Any = None) -> Any:
        if type(init) in (list, tuple) and type(cdecl) is str:
            sized = _SIZED.match(cdecl)
            if sized and int(sized[2]) == len(init) and len(init):
                return self._ffi.new(sized[1] + "[]", init)
        return self._ffi.new(cdecl, init)


# --- margin boxes -------------------------------------------------------------------------------

_stock_margin_boxes: Any = None
#: while set (:func:`margin_boxes_left_out`): a margin box whose style this says yes to is not laid out
_left_out: Any = None
#: the page box's attribute that lists the margin boxes left out (their at-keywords)
LEFT_OUT = "whistbook_left_out"


def _quiet_margins() -> None:
    """Every page has sixteen margin boxes; WeasyPrint makes each one (its
    used values, its place in its row) before seeing that most show nothing.
    :func:`make_margin_boxes` passes over a side or corner whose boxes all
    show nothing, and, while :func:`margin_boxes_left_out` asks, one whose
    boxes the booklet takes off again anyway (the parts' page numbers)."""
    global _stock_margin_boxes
    import weasyprint
    import weasyprint.layout as layout
    import weasyprint.layout.page as page

    if _stock_margin_boxes is not None or int(weasyprint.__version__.split(".")[0]) != WEASYPRINT_MAJOR:
        return
    _stock_margin_boxes = page.make_margin_boxes
    page.make_margin_boxes = layout.make_margin_boxes = make_margin_boxes


class margin_boxes_left_out:  # noqa: N801  (used as a context manager, like contextlib's)
    """While in effect, margin boxes whose style ``shows`` says yes to are
    not laid out (only when every other box of their side shows nothing);
    each page box lists their at-keywords under :data:`LEFT_OUT`."""

    def __init__(self, shows: Any) -> None:
        self.shows = shows

    def __enter__(self) -> None:
        global _left_out
        _left_out = self.shows

    def __exit__(self, *exc: object) -> None:
        global _left_out
        _left_out = None


_EMPTY = ("normal", "inhibit", "none")


def _idle(context: Any, page: Any, at_keywords: Any, left_out: list) -> bool:
    """Whether WeasyPrint would lay out none of these margin boxes (each has
    its own style and it shows nothing), or lays out only boxes the caller
    leaves out (which are then noted in ``left_out``)."""
    shown = []
    for at_keyword in at_keywords:
        style = context.style_for(page.page_type, at_keyword)
        if style is None:
            return False  # the page's anonymous style stands in: WeasyPrint's way
        if style["content"] not in _EMPTY:
            if _left_out is None or not _left_out(style):
                return False
            shown.append(at_keyword)
    left_out.extend(shown)
    return True


def _margin_box(context: Any, page: Any, state: Any, at_keyword: str, containing_block: Any) -> Any:
    """A margin box with its used values (WeasyPrint's ``make_box`` in
    ``make_margin_boxes``)."""
    import copy

    from weasyprint.formatting_structure import boxes, build
    from weasyprint.layout import page as stock

    style = context.style_for(page.page_type, at_keyword)
    if style is None:
        style = page.style.anonymous_style
    stock._standardize_page_based_counters(style, at_keyword)
    box = boxes.MarginBox(at_keyword, style)
    box.is_generated = style["content"] not in _EMPTY
    if box.is_generated:
        margin_state = copy.deepcopy(state)
        quote_depth, counter_values, counter_scopes, _page_groups = margin_state
        counter_scopes.append(set())
        build.update_counters(margin_state, box.style)
        box.children = build.content_to_boxes(
            box.style, box, quote_depth, counter_values, context.get_image_from_uri,
            context.target_collector, context.counter_style, context, page)
        box.process_whitespace()
        box.process_text_transform()
        box = build.create_anonymous_boxes(box)
    stock.resolve_percentages(box, containing_block)
    if not box.is_generated:
        box.width = box.height = 0
        for side in ("top", "right", "bottom", "left"):
            box._reset_spacing(side)
    return box


def make_margin_boxes(context: Any, page: Any, state: Any) -> Any:
    """WeasyPrint 70's ``layout.page.make_margin_boxes`` (a generator of the
    page's laid-out margin boxes), passing over idle sides and corners
    (:func:`_idle`)."""
    from weasyprint.layout import page as stock

    def make_box(at_keyword: str, containing_block: Any) -> Any:
        return _margin_box(context, page, state, at_keyword, containing_block)

    left_out: list[str] = []
    margin_top, margin_bottom = page.margin_top, page.margin_bottom
    margin_left, margin_right = page.margin_left, page.margin_right
    max_box_width, max_box_height = page.border_width(), page.border_height()
    page_end_x, page_end_y = margin_left + max_box_width, margin_top + max_box_height
    generated_boxes = []
    for prefix, vertical, containing_block, position_x, position_y in (
            ("top", False, (max_box_width, margin_top), margin_left, 0),
            ("bottom", False, (max_box_width, margin_bottom), margin_left, page_end_y),
            ("left", True, (margin_left, max_box_height), 0, margin_top),
            ("right", True, (margin_right, max_box_height), page_end_x, margin_top)):
        if vertical:
            suffixes = ("top", "middle", "bottom")
            fixed_outer, variable_outer = containing_block
        else:
            suffixes = ("left", "center", "right")
            variable_outer, fixed_outer = containing_block
        at_keywords = [f"@{prefix}-{suffix}" for suffix in suffixes]
        if _idle(context, page, at_keywords, left_out):
            continue
        side_boxes = [make_box(at_keyword, containing_block) for at_keyword in at_keywords]
        if not any(box.is_generated for box in side_boxes):
            continue
        stock.compute_variable_dimension(context, side_boxes, vertical, variable_outer)
        for box, offset in zip(side_boxes, [0, 0.5, 1]):
            if not box.is_generated:
                continue
            box.position_x = position_x
            box.position_y = position_y
            if vertical:
                box.position_y += offset * (variable_outer - box.margin_height())
            else:
                box.position_x += offset * (variable_outer - box.margin_width())
            stock.compute_fixed_dimension(context, box, fixed_outer, not vertical, prefix in ("top", "left"))
            generated_boxes.append(box)

    for at_keyword, cb_width, cb_height, position_x, position_y in (
            ("@top-left-corner", margin_left, margin_top, 0, 0),
            ("@top-right-corner", margin_right, margin_top, page_end_x, 0),
            ("@bottom-left-corner", margin_left, margin_bottom, 0, page_end_y),
            ("@bottom-right-corner", margin_right, margin_bottom, page_end_x, page_end_y)):
        if _idle(context, page, (at_keyword,), left_out):
            continue
        box = make_box(at_keyword, (cb_width, cb_height))
        if not box.is_generated:
            continue
        box.position_x = position_x
        box.position_y = position_y
        stock.compute_fixed_dimension(context, box, cb_height, True, "top" in at_keyword)
        stock.compute_fixed_dimension(context, box, cb_width, False, "left" in at_keyword)
        generated_boxes.append(box)

    setattr(page, LEFT_OUT, left_out)
    for box in generated_boxes:
        yield stock.margin_box_content_layout(context, page, box)
