"""Repair: a leader's dots laid out and drawn as one text.

WeasyPrint fills a ``leader()`` with one copy of its text per step (a
contents line's dots are some seventy boxes), and draws each as a text of
its own: the lessons by theme and the contents drew about six thousand.
:func:`one_leader` lays the dots between the first and the last out as one
text, which Pango places at the same steps (the dots drift by up to 0.1 pt
along a line: WeasyPrint writes each glyph's advance truncated to a
thousandth of an em); where it would not (the one text is not exactly as
wide as the copies), WeasyPrint's copies stay.
"""

from __future__ import annotations

from typing import Any


#: WeasyPrint's own ``handle_leader`` (kept by :func:`replacements`)
_stock_leader: Any = None


def replacements() -> list[tuple[Any, str, Any]]:
    """WeasyPrint's leaders placed by :func:`one_leader`."""
    global _stock_leader
    import weasyprint.layout.inline as inline

    _stock_leader = inline.handle_leader
    return [(inline, "handle_leader", one_leader)]


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
