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
