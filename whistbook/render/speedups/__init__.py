"""WeasyPrint repaired where it pays: the one place in whistbook that reaches
into the internals of WeasyPrint, pydyf and tinyhtml5.

Five repairs, each replacing one name of WeasyPrint's with whistbook's own
(``docs/rendering.md``, "The repairs to WeasyPrint", has what each costs and
saves):

- :mod:`.diagrams`: an SVG image made only of what the booklet's diagrams
  use is read once into PDF operators and written in one piece, each text
  whole (``weasyprint.images.SVGImage``); any other image is WeasyPrint's;
- :mod:`.html_reader`: the booklet's HTML read into a tree by regular
  expressions and ElementTree where it can vouch for the document, else by
  tinyhtml5 (``weasyprint.tinyhtml5``);
- :mod:`.styles`: a property that no rule sets read at once
  (``ComputedStyle.__missing__``);
- :mod:`.leaders`: a leader's dots laid out as one text, not one a dot
  (``layout.inline.handle_leader``);
- :mod:`.fonts`: glyph arrays allocated without cffi parsing a new type for
  each length (``pdf.fonts.ffi``).

And one reach that is not a repair: :mod:`.numbers`, which takes the page
numbers off a part's laid-out pages (WeasyPrint has no public way to).

**The gate.** The repairs are installed only on the releases they were
written and checked against (:data:`TESTED`). On any other, or when the
environment sets :data:`STOCK` (``WHISTBOOK_STOCK_WEASYPRINT=1``), none is
installed and WeasyPrint lays the booklet out as it is: the same booklet
(the same words and pages), more slowly. :func:`closed` says why; ``whistbook
build -v`` prints it.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Iterator

from .numbers import take_page_numbers

#: the release of each library the repairs were written and checked against (a release
#: starting so: "70.0" is 70.0 alone, "2.1" any 2.1.x)
TESTED = {"weasyprint": "70.0", "pydyf": "0.13", "tinyhtml5": "2.1"}
#: the environment variable that, set to anything but "" or "0", keeps the repairs out
STOCK = "WHISTBOOK_STOCK_WEASYPRINT"

#: the repairs, by the name of their module
REPAIRS = ("diagrams", "html_reader", "styles", "leaders", "fonts")
#: what install() replaced: (repair, owner, attribute, WeasyPrint's value, whistbook's)
_REPLACED: list[tuple[str, Any, str, Any, Any]] = []
_decided = False


def closed() -> str | None:
    """Why the repairs are not (to be) installed, in a sentence; None when they are."""
    if os.environ.get(STOCK, "") not in ("", "0"):
        return f"{STOCK} is set: WeasyPrint lays the booklet out without whistbook's speed repairs"
    for name, tested in TESTED.items():
        try:
            found = version(name)
        except PackageNotFoundError:  # pragma: no cover (a dependency)
            found = "none"
        if found.split(".")[:tested.count(".") + 1] != tested.split("."):
            return (f"{name} {found} is not the release whistbook's speed repairs were checked against "
                    f"({name} {tested}): the booklet is laid out without them, more slowly")
    return None


def install() -> bool:
    """Put the repairs in place, once, where the gate is open; whether they are."""
    global _decided
    if not _decided:
        _decided = True
        if closed() is None:
            from importlib import import_module

            for repair in REPAIRS:
                for owner, name, ours in import_module(f".{repair}", __name__).replacements():
                    _REPLACED.append((repair, owner, name, getattr(owner, name), ours))
                    setattr(owner, name, ours)
    return bool(_REPLACED)


def installed() -> bool:
    """Whether the repairs are in place."""
    return bool(_REPLACED)


@contextmanager
def stock(*repairs: str) -> Iterator[None]:
    """WeasyPrint's own code in place of the repairs (all, or those named, see
    :data:`REPAIRS`) while the block runs: to compare the two ways."""
    unknown = set(repairs) - set(REPAIRS)
    if unknown:
        raise ValueError(f"no such repair: {', '.join(sorted(unknown))}")
    chosen = [entry for entry in _REPLACED if not repairs or entry[0] in repairs]
    for _, owner, name, theirs, _ in chosen:
        setattr(owner, name, theirs)
    try:
        yield
    finally:
        for _, owner, name, _, ours in chosen:
            setattr(owner, name, ours)


__all__ = ["REPAIRS", "STOCK", "TESTED", "closed", "install", "installed", "stock", "take_page_numbers"]
