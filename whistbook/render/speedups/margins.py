"""Repair to WeasyPrint 70's margin boxes: idle ones passed over, a part's
page numbers not laid out.

Every page has sixteen margin boxes; WeasyPrint makes each one (its used
values, its place in its row) before seeing that most show nothing.
:func:`make_margin_boxes` passes over a side or corner whose boxes all show
nothing and, while :class:`margin_boxes_left_out` is in effect, one whose
boxes the booklet takes off again anyway (the parts' page numbers, which
the join writes); each page box lists what was left out under
:data:`LEFT_OUT`.
"""

from __future__ import annotations

from typing import Any


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
    import weasyprint.layout as layout
    import weasyprint.layout.page as page

    if _stock_margin_boxes is not None:
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
