"""Repair: glyph arrays allocated without cffi parsing a new type for each length.

WeasyPrint allocates each array of glyph ids with a type naming its length,
and cffi parses every new length's type with pycparser, a costly parse;
:class:`_Arrays` allocates the same arrays with one type, parsed once. The
subsets are the same bytes.
"""

from __future__ import annotations

import re
from typing import Any


def replacements() -> list[tuple[Any, str, Any]]:
    """Subsetting a font, WeasyPrint allocates arrays of glyph ids as
    ``ffi.new(f"hb_codepoint_t[{n}]", ids)``: cffi parses each new length's
    type with pycparser, a costly parse (68 lengths over the booklet's parts
    in one process). :class:`_Arrays` allocates the same array as
    ``ffi.new("hb_codepoint_t[]", ids)``, a type parsed once."""
    import weasyprint.pdf.fonts as fonts

    return [(fonts, "ffi", _Arrays(fonts.ffi))]


#: an array type of a given length: (item type, length)
_SIZED = re.compile(r"^\s*(\w+)\s*\[\s*(\d+)\s*\]\s*$")


class _Arrays:
    """A cffi ``FFI`` whose ``new`` allocates an array of a given length,
    filled from a list or tuple of that length, without parsing its type
    anew; everything else is the ``FFI``'s own."""

    def __init__(self, ffi: Any) -> None:
        self._ffi = ffi

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._ffi, name)
        setattr(self, name, value)  # found once
        return value

    def new(self, cdecl: Any, init: Any = None) -> Any:
        if type(init) in (list, tuple) and type(cdecl) is str:
            sized = _SIZED.match(cdecl)
            if sized and int(sized[2]) == len(init) and len(init):
                return self._ffi.new(sized[1] + "[]", init)
        return self._ffi.new(cdecl, init)
