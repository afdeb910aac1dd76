"""Repairs to WeasyPrint 70's box bookkeeping, which the layout reads for
every box: used values in one function, the normal flow at one look.

A box's used margins, paddings, sizes and borders are set by
:func:`resolve_percentages` in one function, lengths in pixels and
percentages directly (WeasyPrint makes fourteen calls of
``resolve_one_percentage`` per box, each calling ``percentage``). Whether a
box is in the normal flow is read from ``float`` and ``position`` at once
(:func:`is_in_normal_flow`; WeasyPrint asks five methods, each reading the
style again).
"""

from __future__ import annotations

from math import inf
from typing import Any


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

    import weasyprint.layout  # noqa: F401  (every layout module, each holding its own name for the function)
    import weasyprint.layout.percent as percent
    from weasyprint.css.functions import check_math
    from weasyprint.formatting_structure.boxes import Box, PageBox

    if _stock_percentages is not None:
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
# WeasyPrint's ``check_math``, bound when :func:`_quick_percentages` installs
_check_math: Any = None


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


_stock_in_flow: Any = None


def _quick_flow() -> None:
    """The layout asks each box whether it is in the normal flow about
    three hundred thousand times a booklet; WeasyPrint's ``Box.is_in_normal_flow``
    asks five other methods, each reading the style again.
    :func:`is_in_normal_flow` reads ``float`` and ``position`` once."""
    global _stock_in_flow
    from weasyprint.formatting_structure.boxes import Box

    if _stock_in_flow is not None:
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
