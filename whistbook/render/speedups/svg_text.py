"""Repair to WeasyPrint 70's SVG text: a text laid out and drawn whole.

WeasyPrint lays out and draws an SVG ``<text>`` one character at a time (a
Pango layout and a PDF text object per letter), so that each letter can take
its own ``x``, ``dx`` or ``rotate``. The booklet's diagrams never place
single letters: each text has at most one ``x`` and one ``y``. Laid out and
drawn whole, such a text costs one layout instead of one per letter; the
glyphs are shaped as a browser shapes them. :func:`text` takes WeasyPrint's
place for the elements it draws (``text``, ``tspan``, ``textPath``, ``a``);
anything it does not cover (several coordinates, ``dx``, ``dy``, ``rotate``,
``letter-spacing``, ``textLength``) goes to WeasyPrint's own function.
:func:`text_style` makes a text's style as WeasyPrint does (:mod:`.shaping`
uses it too).
"""

from __future__ import annotations

from math import inf
from typing import Any


#: attributes that place or size letters one by one
_PER_LETTER = ("dx", "dy", "rotate", "letter-spacing", "textLength")

_stock: Any = None


def _whole_svg_text() -> None:
    global _stock
    import weasyprint.svg as svg

    if _stock is not None:
        return
    _stock = svg.text
    for tag, fn in list(svg.TAGS.items()):
        if fn is _stock:
            svg.TAGS[tag] = text
    svg.text = text


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
