"""Repair to tinyhtml5 2.1 (WeasyPrint's HTML parser): its table of regular
expressions.

tinyhtml5 means to keep the regular expression it builds for each set of
stop characters, but its chained assignment stores it under the compiled
expression instead of the characters, so every call builds and compiles it
again: that took about half of the parsing. :func:`_keep_regexes` gives it a
table that keeps what it builds (only on the tinyhtml5 version
:data:`.versions.TINYHTML5_BROKEN`).
"""

from __future__ import annotations

import re
from typing import Any

from .versions import TINYHTML5_BROKEN


class _Regexes(dict):
    """tinyhtml5's table of stop-character expressions, which keeps what it builds."""

    def __missing__(self, key: tuple[Any, bool]) -> "re.Pattern[str]":
        characters, opposite = key
        chars = "".join(f"\\x{ord(c):02x}" for c in characters)
        pattern = self[key] = re.compile(f"[{'' if opposite else '^'}{chars}]+")
        return pattern


def _keep_regexes() -> None:
    from importlib.metadata import version

    import tinyhtml5.inputstream as stream

    table = getattr(stream, "characters_until_regex", None)
    if tuple(version("tinyhtml5").split(".")[:2]) == TINYHTML5_BROKEN and type(table) is dict:
        stream.characters_until_regex = _Regexes(table)
