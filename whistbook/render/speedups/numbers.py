"""A part's page numbers, taken off its laid-out pages.

The booklet is laid out in parts that cannot know their page numbers, so
each part is laid out with its running heads and the margin boxes that show
a counter are taken off its pages before they are drawn; the join prints
the numbers (``pdf.join_parts``). WeasyPrint has no public way to reach a
page's margin boxes: this reads the page box that ``Document.pages`` keep
(``Page._page_box``, there since WeasyPrint's first releases). It is not a
repair and does not depend on the gate: the booklet needs it on any release.
"""

from __future__ import annotations

from typing import Any, Sequence


def shows_a_counter(style: Any) -> bool:
    """Whether a margin box's ``content`` shows a counter (``counter(page)``)."""
    content = style["content"]
    return isinstance(content, tuple) and any(kind in ("counter()", "counters()") for kind, _ in content)


def take_page_numbers(pages: Sequence[Any], keep: bool = False) -> list[int]:
    """Take off each page the margin boxes that show a counter, or with
    ``keep`` everything else (the page then shows its number alone); the
    indexes of the pages that had one."""
    from weasyprint.formatting_structure.boxes import MarginBox

    numbered = []
    for k, page in enumerate(pages):
        box = page._page_box
        shown = [b for b in box.children if isinstance(b, MarginBox) and shows_a_counter(b.style)]
        if shown:
            numbered.append(k)
        box.children = shown if keep else [b for b in box.children if not any(b is s for s in shown)]
    return numbered
