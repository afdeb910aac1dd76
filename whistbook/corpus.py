"""Load and check hand files, turning every problem into diagnostics.

This is the gather stage of every command: nothing here writes anything.
"""

from __future__ import annotations

from pathlib import Path

from .check import CheckedHand, check
from .errors import Diagnostic, HandFileError
from .handfile import load, problems_of


def check_file(path: str | Path, *, solver: bool = True) -> CheckedHand:
    """Load and check one file; a file that cannot be loaded gives a
    :class:`CheckedHand` with ``hand=None`` and its problems as diagnostics."""
    try:
        hf = load(path)
    except HandFileError as err:
        out = CheckedHand(None)  # type: ignore[arg-type]
        out.diagnostics.extend(Diagnostic.from_error(e, str(path)) for e in problems_of(err))
        return out
    return check(hf, solver=solver)


def check_files(paths: list[Path], *, solver: bool = True) -> list[CheckedHand]:
    return [check_file(p, solver=solver) for p in paths]
