"""Repair: the booklet's diagrams drawn straight into the PDF.

In print every trick diagram and picture of what is known is an ``<img>``
holding an SVG made by :mod:`whistbook.render.diagrams`. WeasyPrint reads
each into a tree of nodes (cssselect2's wrappers, a search for stylesheets,
every attribute passed down to every child) and draws it node by node,
parsing each length and colour as it goes and saving and restoring the
graphics state around each; and it lays out and draws each *letter* of a
text on its own (a Pango layout and a text object per letter), so that any
letter could take its own ``x``, ``dx`` or ``rotate``. For drawings of
twenty-odd elements that was a fifth of a lesson part's time.

Our drawings use a small, fixed part of SVG: a view box; groups; rectangles
(rounded or not) and lines, filled and stroked in colours given as
attributes; texts with one ``x`` and ``y`` and their ``tspan``\\s; lengths as
plain numbers. :func:`compile` reads a drawing made only of these into PDF
operators, once, with pydyf's :class:`~pydyf.Stream`, and :class:`Diagram`
writes them in one piece. Each text is laid out whole by WeasyPrint
(``split_first_line``), so its glyphs are shaped as a browser shapes them,
once per worker for the same text and font (about a thousand different
texts, a card, a seat, ``0–5``, make the booklet's thirteen thousand), and
drawn by WeasyPrint's ``draw_first_line``, which also tells the document's
fonts the glyphs it uses.

Anything else (another element or attribute, a unit, a transform, a style,
a colour that is not opaque, a text with child elements other than plain
``tspan``\\s, a font of pictures) and the whole image is left to WeasyPrint:
:func:`svg_image` takes the place of WeasyPrint's ``SVGImage`` and decides.
A user's template may put any SVG in the booklet.
"""

from __future__ import annotations

import re
from math import inf
from typing import Any, Union

#: WeasyPrint's own SVG image class (kept by :func:`replacements`)
_stock_image: Any = None

_NS = "{http://www.w3.org/2000/svg}"
#: attributes that draw nothing (labels and classes: no stylesheet applies inside an image)
_INERT = frozenset(("class", "role", "aria-label", "data-dd-label", "id"))
#: presentation attributes, passed down to children as WeasyPrint passes them
_PAINT = frozenset(("fill", "stroke", "stroke-width", "font-family", "font-size", "font-weight", "text-anchor"))
#: each element this module draws, and the attributes of its own it may have
_OWN = {
    "svg": frozenset(("viewBox", "width", "height")),
    "g": frozenset(),
    "rect": frozenset(("x", "y", "width", "height", "rx", "ry")),
    "line": frozenset(("x1", "y1", "x2", "y2")),
    "text": frozenset(("x", "y")),
    "tspan": frozenset(("x", "y")),
    "title": frozenset(),
}
#: SVG's initial values, and WeasyPrint's font size for an image (12pt)
_INITIAL = {"fill": "black", "stroke": "none", "stroke-width": "1", "font-family": "sans-serif",
            "font-size": "16", "font-weight": "400", "text-anchor": "start"}
_RUNS_OF_SPACES = re.compile(" +")
#: colour (attribute value) -> (fill operator, stroke operator); None where WeasyPrint must draw it
_COLOURS: dict[str, tuple[bytes, bytes] | None] = {}
#: the root's width or height: (value, "px", "em" or "%"), or None when not given
Length = Union[tuple[float, str], None]


class Unsupported(Exception):
    """The drawing uses something :func:`compile` does not draw."""


class Text:
    """A run of text to place at draw time (its width comes from its layout);
    without ``x`` or ``y`` it follows the run before."""

    __slots__ = ("x", "y", "text", "font", "anchor")

    def __init__(self, x: float | None, y: float | None, text: str, paint: dict[str, str]) -> None:
        self.x, self.y, self.text = x, y, text
        #: what the text's layout depends on: the text, its font families, weight and size
        self.font = (text, paint["font-family"], _weight(paint["font-weight"]), _number(paint["font-size"]))
        self.anchor = paint["text-anchor"]
        if self.anchor not in ("start", "middle", "end"):
            raise Unsupported(self.anchor)


class Drawing:
    """A drawing read by :func:`compile`: its size and what to write."""

    def __init__(self, viewbox: tuple[float, float, float, float], width: Length, height: Length) -> None:
        self.viewbox, self.width, self.height = viewbox, width, height
        #: PDF operators (bytes) and texts, in the order they are painted
        self.items: list[bytes | Text] = []


def compile(tree: Any) -> Drawing:
    """Read an SVG tree (ElementTree) made only of what this module draws.

    :raises Unsupported: for anything else.
    """
    from pydyf import Stream

    if _tag(tree) != "svg":
        raise Unsupported(tree.tag)
    _check(tree, "svg")
    numbers = (tree.get("viewBox") or "").replace(",", " ").split()
    try:
        viewbox = tuple(float(n) for n in numbers)
    except ValueError:
        raise Unsupported("viewBox") from None
    if len(viewbox) != 4 or viewbox[2] <= 0 or viewbox[3] <= 0:
        raise Unsupported("viewBox")
    drawing = Drawing(viewbox, _length(tree.get("width")), _length(tree.get("height")))
    ops = Stream()  # pydyf's, for its operators' exact form
    state = {"fill": None, "stroke": None, "width": None, "lines": False}
    paint = dict(_INITIAL)
    paint.update((k, v) for k, v in tree.attrib.items() if k in _PAINT)
    _children(tree, paint, drawing, ops, state)
    if ops.stream:
        drawing.items.append(b"\n".join(ops.stream))
    if state["lines"]:  # the line state WeasyPrint sets for each shape, once
        ops.stream = []
        ops.set_dash((), 0)
        ops.set_line_cap(0)
        ops.set_line_join(0)
        ops.set_miter_limit(4)
        drawing.items.insert(0, b"\n".join(ops.stream))
    return drawing


def _tag(element: Any) -> str:
    tag = element.tag
    if not isinstance(tag, str):  # a comment or processing instruction
        raise Unsupported("not an element")
    if tag.startswith(_NS):
        return tag[len(_NS):]
    if tag.startswith("{"):
        raise Unsupported(tag)
    return tag


def _check(element: Any, tag: str) -> None:
    own = _OWN.get(tag)
    if own is None:
        raise Unsupported(tag)
    for name in element.attrib:
        if name not in own and name not in _PAINT and name not in _INERT:
            raise Unsupported(f"{tag} {name}")


def _children(parent: Any, paint: dict[str, str], drawing: Drawing, ops: Any, state: dict) -> None:
    for element in parent:
        tag = _tag(element)
        _check(element, tag)
        own = dict(paint)
        own.update((k, v) for k, v in element.attrib.items() if k in _PAINT)
        if tag == "g":
            _children(element, own, drawing, ops, state)
        elif tag == "text":
            _text(element, own, drawing, ops, state)
        elif tag not in ("rect", "line", "title") or len(element):
            raise Unsupported(f"{tag} here")
        elif tag == "rect":
            _rect(element, own, ops, state)
        elif tag == "line":
            _line(element, own, ops, state)
        # a title draws nothing


def _number(value: str | None) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise Unsupported(f"length {value!r}") from None


def _length(value: str | None) -> Length:
    """The root's width or height: a number of pixels or ems, a percentage, or none."""
    if value is None:
        return None
    value = value.strip()
    for unit in ("px", "em", "%"):
        if value.endswith(unit):
            return _number(value[:-len(unit)]), unit
    return _number(value), "px"


def _weight(value: str) -> int:
    """A font weight, as a number."""
    named = {"normal": 400, "bold": 700}.get(value.strip())
    if named is not None:
        return named
    try:
        return int(value)
    except ValueError:
        raise Unsupported(f"font-weight {value!r}") from None


def _colour(value: str) -> tuple[bytes, bytes] | None:
    """The fill and stroke operators for a colour; None for none."""
    value = value.strip()
    if not value or value == "none":
        return None
    if value not in _COLOURS:
        _COLOURS[value] = _parse_colour(value)
    ops = _COLOURS[value]
    if ops is None:
        raise Unsupported(f"colour {value!r}")
    return ops


def _parse_colour(value: str) -> tuple[bytes, bytes] | None:
    from pydyf import Stream
    from tinycss2.color5 import parse_color

    if value.startswith(("url(", "context-")) or value in ("currentColor", "inherit"):
        return None
    colour = parse_color(value)  # WeasyPrint reads anything else it cannot parse as black
    if colour is None or colour.alpha != 1 or colour.space not in ("srgb", "hsl", "hwb"):
        return None
    ops = Stream()
    ops.set_color_rgb(*colour.to("srgb").coordinates)
    ops.set_color_rgb(*colour.to("srgb").coordinates, stroke=True)
    return ops.stream[0], ops.stream[1]


def _paint(paint: dict[str, str], ops: Any, state: dict, *, stroke: bool) -> tuple[bool, bool]:
    """Set the fill (and the stroke) as needed; whether each is painted."""
    fill = _colour(paint["fill"])
    if fill is not None and state["fill"] != fill[0]:
        ops.stream.append(fill[0])
        state["fill"] = fill[0]
    if not stroke:
        return fill is not None, False
    line = _colour(paint["stroke"])
    width = _number(paint["stroke-width"])
    if line is None or not width:
        return fill is not None, False
    if state["stroke"] != line[1]:
        ops.stream.append(line[1])
        state["stroke"] = line[1]
    if state["width"] != width:
        ops.set_line_width(width)
        state["width"] = width
    state["lines"] = True
    return fill is not None, True


def _rect(element: Any, paint: dict[str, str], ops: Any, state: dict) -> None:
    """A rectangle, its corners rounded as WeasyPrint rounds them."""
    get = element.attrib.get
    width, height = _number(get("width", "0")), _number(get("height", "0"))
    x, y = _number(get("x", "0")), _number(get("y", "0"))
    rx, ry = get("rx"), get("ry")
    rx, ry = _number(rx if rx is not None else ry or "0"), _number(ry if ry is not None else rx or "0")
    fill, stroke = _paint(paint, ops, state, stroke=True)
    if width <= 0 or height <= 0 or not (fill or stroke):
        return
    if rx == 0 or ry == 0:
        ops.rectangle(x, y, width, height)
    else:
        rx, ry = min(rx, width / 2), min(ry, height / 2)
        c1, c2 = 4 * (2 ** .5 - 1) / 3 * rx, 4 * (2 ** .5 - 1) / 3 * ry
        ops.move_to(x + rx, y)
        ops.line_to(x + width - rx, y)
        ops.curve_to(x + width - rx + c1, y, x + width, y + c2, x + width, y + ry)
        ops.line_to(x + width, y + height - ry)
        ops.curve_to(x + width, y + height - ry + c2, x + width + c1 - rx, y + height, x + width - rx, y + height)
        ops.line_to(x + rx, y + height)
        ops.curve_to(x + rx - c1, y + height, x, y + height - c2, x, y + height - ry)
        ops.line_to(x, y + ry)
        ops.curve_to(x, y + ry - c2, x + rx - c1, y, x + rx, y)
        ops.close()
    ops.stream.append(b"B" if fill and stroke else b"S" if stroke else b"f")


def _line(element: Any, paint: dict[str, str], ops: Any, state: dict) -> None:
    """A line, filled and stroked as WeasyPrint does it (a viewer may paint
    the fill of its empty area as a hairline)."""
    get = element.attrib.get
    x1, y1 = _number(get("x1", "0")), _number(get("y1", "0"))
    x2, y2 = _number(get("x2", "0")), _number(get("y2", "0"))
    fill, stroke = _paint(paint, ops, state, stroke=True)
    if not (fill or stroke):
        return
    ops.move_to(x1, y1)
    ops.line_to(x2, y2)
    ops.stream.append(b"B" if fill and stroke else b"S" if stroke else b"f")


def _spaces(text: str | None) -> str:
    """A text's white space as WeasyPrint keeps it (no ``xml:space``)."""
    return _RUNS_OF_SPACES.sub(" ", (text or "").replace("\n", "").replace("\r", "").replace("\t", " "))


def _text(element: Any, paint: dict[str, str], drawing: Drawing, ops: Any, state: dict) -> None:
    """A text and its ``tspan`` children: their colours now, their places and
    glyphs at draw time, each after the one before unless it has an ``x`` or
    ``y`` (the white space trimmed as WeasyPrint trims it)."""
    if "x" not in element.attrib or "y" not in element.attrib:
        raise Unsupported("text without x and y")
    text = _spaces(element.text).lstrip(" ")
    trailing = text.endswith(" ") if text else True
    chunks = [(element, paint, text)]
    for child in element:
        if _tag(child) != "tspan" or len(child) or child.tail:
            raise Unsupported("text with more than tspans")
        _check(child, "tspan")
        own = dict(paint)
        own.update((k, v) for k, v in child.attrib.items() if k in _PAINT)
        text = _spaces(child.text)
        if trailing:
            text = text.lstrip(" ")
        trailing = text.endswith(" ")
        chunks.append((child, own, text))
    if len(chunks) == 1:
        chunks[0] = (element, paint, chunks[0][2].rstrip(" "))
    elif any(own["text-anchor"] != "start" for _, own, _ in chunks):
        raise Unsupported("anchored text with tspans")  # WeasyPrint shifts such chunks in groups
    for k, (node, own, text) in enumerate(chunks):
        if own["stroke"].strip() not in ("", "none"):
            raise Unsupported("stroked text")
        x = _number(node.get("x")) if k == 0 or "x" in node.attrib else None
        y = _number(node.get("y")) if k == 0 or "y" in node.attrib else None
        item = Text(x, y, text, own)
        if text:
            fill, _ = _paint(own, ops, state, stroke=False)
            if not fill:
                raise Unsupported("text without fill")
        if ops.stream:
            drawing.items.append(b"\n".join(ops.stream))
            ops.stream = []
        drawing.items.append(item)


class _Line:
    """A text laid out on one line, as WeasyPrint's ``draw_first_line`` reads a text box."""

    __slots__ = ("pango_layout", "style", "text", "baseline", "width")

    def __init__(self, layout: Any, style: Any, width: float, baseline: float) -> None:
        self.pango_layout, self.style, self.text = layout, style, layout.text
        self.width, self.baseline = width, baseline


class _Style(dict):
    """A text's style: the initial values, its font, and the font configuration."""

    font_config: Any = None


#: font configuration -> Text.font -> its line; two configurations at most (a worker's last
#: two stylesheets, as ``pdf._stylesheet`` keeps them), so that older fonts can go
_LINES: dict[Any, dict[tuple, _Line]] = {}


def _laid_out(context: Any, font: tuple) -> _Line:
    """The text and font ``font`` names, laid out once per worker as WeasyPrint
    lays out an SVG text (its style made from the initial values)."""
    lines = _LINES.get(context.font_config)
    if lines is None:
        if len(_LINES) > 1:
            _LINES.clear()
        lines = _LINES[context.font_config] = {}
    line = lines.get(font)
    if line is None:
        from weasyprint.css.properties import INITIAL_VALUES
        from weasyprint.text.line_break import split_first_line

        text, family, weight, size = font
        style = _Style(INITIAL_VALUES)
        style.font_config = context.font_config
        style.update(font_family=[name.strip("\"'") for name in family.split(",")], font_style="normal",
                     font_weight=weight, font_size=size)
        layout, _, _, width, _, baseline = split_first_line(text, style, context, inf, 0)
        layout.reactivate(style)  # kept ready to draw
        line = lines[font] = _Line(layout, style, width, baseline)
    return line


def _shift(anchor: str, width: float) -> float:
    """How far left of its ``x`` a text of ``width`` starts, for its ``text-anchor``."""
    return width / 2 if anchor == "middle" else width if anchor == "end" else 0


class Diagram:
    """An SVG image that :func:`compile` could read, drawn from what it read."""

    def __init__(self, drawing: Drawing, tree: Any, base_url: str | None, url_fetcher: Any, context: Any) -> None:
        self.drawing = drawing
        self._stock_args = (tree, base_url, url_fetcher, context)
        self._context = context
        self._stock: Any = None

    def get_intrinsic_size(self, image_resolution: float, font_size: float) -> tuple:
        """As for any SVG image: the width and height given, else from the view box's ratio."""
        def size(length: Length) -> float | None:
            if length is None or length[1] == "%":
                return None
            return length[0] * font_size if length[1] == "em" else length[0]

        d = self.drawing
        width, height = size(d.width), size(d.height)
        if None in (width, height):
            ratio = d.viewbox[2] / d.viewbox[3]
            if width:
                height = width / ratio
            elif height:
                width = height * ratio
        elif width and height:
            ratio = width / height
        else:
            ratio = 1
        return width, height, ratio

    def draw(self, stream: Any, concrete_width: float, concrete_height: float, style: Any) -> None:
        """Write the drawing into ``stream``, scaled into the box as the view box asks."""
        from weasyprint.draw.text import draw_first_line
        from weasyprint.matrix import Matrix

        vx, vy, vw, vh = self.drawing.viewbox
        scale = min(concrete_width / vw, concrete_height / vh)
        start = len(stream.stream)
        stream.push_state()
        stream.set_alpha(1, stroke=True, fill=True)
        stream.transform(a=scale, d=scale, e=(concrete_width - vw * scale) / 2 - vx * scale,
                         f=(concrete_height - vh * scale) / 2 - vy * scale)
        x = y = 0.0  # where the next run without a place starts
        for item in self.drawing.items:
            if type(item) is bytes:
                stream.stream.append(item)
                continue
            x = x if item.x is None else item.x
            y = y if item.y is None else item.y
            if item.text:
                line = _laid_out(self._context, item.font)
                stream.begin_text()  # WeasyPrint joins it to the text object just ended, if any
                stream.set_text_rendering(0)
                emojis = draw_first_line(stream, line, "none", "none",
                                         Matrix(d=-1, e=x - _shift(item.anchor, line.width), f=y))
                stream.end_text()
                if emojis:  # a font of pictures: WeasyPrint draws the whole image instead
                    stream.pop_state()
                    del stream.stream[start:]
                    return self._fallback().draw(stream, concrete_width, concrete_height, style)
                x += line.width
        stream.pop_state()

    def _fallback(self) -> Any:
        if self._stock is None:
            self._stock = _stock_image(*self._stock_args)
        return self._stock


def svg_image(tree: Any, base_url: str | None, url_fetcher: Any, context: Any) -> Any:
    """An SVG image for WeasyPrint: a :class:`Diagram` when :func:`compile`
    can read it, else WeasyPrint's own."""
    if context is not None:
        try:
            return Diagram(compile(tree), tree, base_url, url_fetcher, context)
        except Unsupported:
            pass
    return _stock_image(tree, base_url, url_fetcher, context)


def replacements() -> list[tuple[Any, str, Any]]:
    """WeasyPrint's SVG images made by :func:`svg_image`."""
    global _stock_image
    import weasyprint.images as images

    _stock_image = images.SVGImage
    return [(images, "SVGImage", svg_image)]
