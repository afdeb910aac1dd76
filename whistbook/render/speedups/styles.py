"""Repair: a style's property that no rule sets, read at once.

Most of the million or so style look-ups in a booklet are of a property no
rule sets, whose value is then the parent's (inherited) or the initial one;
WeasyPrint's ``ComputedStyle.__missing__`` goes through every other case
first (variables, logical properties, math functions). :func:`missing`
answers those two cases at once and hands anything else to WeasyPrint's
method.
"""

from __future__ import annotations

from typing import Any


#: properties whose value ComputedStyle.__missing__ treats apart (specified values kept, 'page' taken from
#: above), as it does the text decorations (propagated) and custom properties ("__name", inherited)
_SPECIAL_KEYS = frozenset(("float", "display", "position", "page"))

#: WeasyPrint's own ``ComputedStyle.__missing__`` (kept by :func:`replacements`)
_stock_missing: Any = None


def replacements() -> list[tuple[Any, str, Any]]:
    """``ComputedStyle.__missing__`` answered by :func:`missing` first; nothing
    where WeasyPrint's tables hold what :func:`missing` does not expect."""
    global _stock_missing, _check_math, _INHERITED, _INITIAL_VALUES
    from weasyprint.css import ComputedStyle
    from weasyprint.css.computed_values import PHYSICAL_FUNCTIONS
    from weasyprint.css.functions import check_math
    from weasyprint.css.properties import INHERITED, INITIAL_NOT_COMPUTED, INITIAL_VALUES

    if any(key in _SPECIAL_KEYS or key[:16] == "text_decoration_" for key in INHERITED):
        return []  # missing() would take such an inherited property for a plain one
    _check_math, _INHERITED, _INITIAL_VALUES = check_math, INHERITED, INITIAL_VALUES
    _PLAIN_INITIAL.update(key for key, value in INITIAL_VALUES.items()
                          if key not in INITIAL_NOT_COMPUTED and key not in _SPECIAL_KEYS
                          and key[:16] != "text_decoration_" and not check_math(value))
    _LOGICAL.update({key: tuple({function(block="ttb", inline=inline): None for inline in ("ltr", "rtl")})
                     for key, function in PHYSICAL_FUNCTIONS.items()})
    _stock_missing = ComputedStyle.__missing__
    return [(ComputedStyle, "__missing__", missing)]


#: physical property -> the logical properties that may stand for it (either direction)
_LOGICAL: dict[str, tuple[str, ...]] = {}
# WeasyPrint's tables and ``check_math``, bound by :func:`replacements`
_check_math: Any = None
_INHERITED: Any = frozenset()
#: properties whose initial value is their computed value (and no math function)
_PLAIN_INITIAL: set[str] = set()
_INITIAL_VALUES: dict[str, Any] = {}


def missing(style: Any, key: str) -> Any:
    """``ComputedStyle.__missing__`` for a property set by no rule (nor any
    logical property standing for it): the parent's value for an inherited
    property, the initial value for another one whose initial value needs no
    computing. Anything else is WeasyPrint's own method."""
    cascaded = style.cascaded
    if key not in cascaded:
        for name in _LOGICAL.get(key, ()):
            if name in cascaded:
                break
        else:
            if key in _INHERITED:
                parent = style.parent_style
                if parent is not None:
                    value = parent[key]
                    # check_math is false at once for anything but a tuple or a function token
                    if ((type(value) is not tuple and getattr(value, "type", None) != "function")
                            or not _check_math(value)):
                        style[key] = value
                        return value
            elif key in _PLAIN_INITIAL:
                value = style[key] = _INITIAL_VALUES[key]
                return value
    return _stock_missing(style, key)
