"""Texts shaped once, for the diagrams that :mod:`whistbook.render.pictures`
writes whole.

A diagram's texts are short and few: about a thousand different strings (a
card, a seat, ``0–5``) make the booklet's thirteen thousand.
:func:`shaped_text` shapes each with Pango once per worker and keeps its
glyph runs as PDF operators, which the diagrams write; :func:`teach` tells
each new document's fonts the glyphs the runs use, and :func:`shift` places
a text by its ``text-anchor``. Only :mod:`whistbook.render.pictures` calls
these, and it is installed only on WeasyPrint 70.
"""

from __future__ import annotations

from math import inf
from typing import Any

from .svg_text import text_style

#: font configuration -> (text, families, style, weight, size) -> Shaped, or None where the runs cannot be
#: replayed; two configurations at most, as ``pdf._stylesheet`` keeps two stylesheets
_SHAPED: dict[Any, dict[tuple, Any]] = {}


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
    texts = _SHAPED.get(font_config)
    if texts is None:
        if len(_SHAPED) > 1:  # a stylesheet no longer used: its fonts and texts let go (serve, say)
            _SHAPED.clear()
        texts = _SHAPED[font_config] = {}
    key = (text, family, font_style, weight, font_size)
    shaped = texts.get(key, False)
    if shaped is False:
        style = text_style(font_config, family, font_style, weight, font_size)
        shaped = texts[key] = _shape(stream, context, style, text)
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
