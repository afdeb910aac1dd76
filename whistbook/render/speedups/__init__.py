"""Repairs to WeasyPrint 70's speed, for the booklet.

Each module repairs one thing, and says what and why:

- :mod:`.parsing`: tinyhtml5's table of regular expressions, which kept
  nothing (about half of the HTML parsing);
- :mod:`whistbook.render.html_tree` (installed from here): the booklet's
  HTML read into a tree faster than tinyhtml5 reads it, where it can vouch
  for the document;
- :mod:`.svg_text`: an SVG text laid out and drawn whole, not a letter at a
  time;
- :mod:`.shaping`: the diagrams' texts shaped once per worker, their glyph
  runs kept as PDF operators;
- *the diagrams whole*: an SVG image made only of what the booklet's
  diagrams use is read once into PDF operators and written in one piece
  (:mod:`whistbook.render.pictures`, installed from here); any other SVG
  image is WeasyPrint's;
- :mod:`.leaders`: a leader's dots in one piece, not one text per dot;
- WeasyPrint's bookkeeping, read for the booklet's parts: quick style
  look-ups (:mod:`.styles`), pseudo-elements' styles made only when asked
  for (:mod:`.pseudo`), used values in one function and the normal flow at
  one look (:mod:`.layout`), idle margin boxes passed over and a part's page
  numbers not laid out (:mod:`.margins`), glyph arrays allocated without
  cffi parsing a new type (:mod:`.fonts`).

:func:`install` puts them all in place, once. Every repair is installed only
on the versions it was written against (:mod:`.versions`); on any other,
nothing changes (the booklet is the same, only slower). The numbers are in
``docs/rendering.md`` (Speed).
"""

from __future__ import annotations

from .. import html_tree
from .fonts import _arrays_unparsed
from .layout import _quick_flow, _quick_percentages
from .leaders import _leaders_whole
from .margins import LEFT_OUT, _quiet_margins, margin_boxes_left_out
from .parsing import _keep_regexes
from .pseudo import _lazy_pseudo_styles
from .shaping import shaped_text, shift, teach
from .styles import _quick_styles
from .svg_text import _whole_svg_text
from .versions import TINYHTML5_BROKEN, WEASYPRINT, WEASYPRINT_MAJOR, weasyprint_fits

__all__ = ["LEFT_OUT", "TINYHTML5_BROKEN", "WEASYPRINT", "WEASYPRINT_MAJOR", "install", "margin_boxes_left_out", "shaped_text",
           "shift", "teach"]


def install() -> None:
    """Put the repairs in place (once; where the versions fit). On another
    WeasyPrint none of its repairs is tried: their imports of its internals
    could fail there."""
    _keep_regexes()
    if not weasyprint_fits():
        return
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


def _diagrams_direct() -> None:
    from ..pictures import install as install_pictures

    install_pictures()
