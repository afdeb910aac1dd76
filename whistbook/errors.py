"""Source locations and the one exception hierarchy of whistbook.

Domain code raises without a location; the code that walks a hand file's
records attaches one (``err.at(loc)``) before the error reaches the user.
The command line catches :class:`WhistbookError`, and :class:`OSError` (a full
disk, a read-only folder), which it prints with the file named
(:func:`os_error_text`; :func:`naming` names it where the system did not).
"""

from __future__ import annotations

import os
import re
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card
    from .seats import Seat


@dataclass(frozen=True)
class SourceLocation:
    """A 1-based line and column in a file."""

    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, columns: int) -> "SourceLocation":
        """The location ``columns`` characters further along the same line."""
        return SourceLocation(self.path, self.line, self.column + columns)

    def advanced(self, text: str) -> "SourceLocation":
        """The location just after ``text`` written from here, which may run over lines."""
        breaks = text.count("\n")
        if not breaks:
            return self.shifted(len(text))
        return SourceLocation(self.path, self.line + breaks, len(text) - text.rfind("\n"))

    @classmethod
    def of_byte(cls, path: str, data: bytes, offset: int) -> "SourceLocation":
        """Where byte ``offset`` of ``data`` (UTF-8, up to there) is: its line, and its
        column counted in characters, as an editor shows it."""
        lines = re.split(rb"\r\n|\r|\n", data[:offset])  # a lone CR ends a line too
        return cls(path, len(lines), len(lines[-1].decode("utf-8", "replace")) + 1)


#: what a message never prints as it is: control and format characters and line and
#: paragraph separators (a message quotes a file's text, and is one line)
_UNPRINTED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def one_line(text: str) -> str:
    """``text`` with every control or format character and line break written as an
    escape (``\\x01``, ``\\u2028``): a message stays one line and shows what is there."""
    if text.isprintable():
        return text
    return "".join(c if c == " " or unicodedata.category(c) not in _UNPRINTED
                   else repr(c)[1:-1] for c in text)


@contextmanager
def naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """Name ``path`` in an :class:`OSError` raised inside that names no file (a write
    that finds the disk full names none), so that the command line can say where."""
    try:
        yield
    except OSError as err:
        if err.filename is None:
            err.filename = os.fspath(path)
        raise


def os_error_text(err: OSError) -> str:
    """An operating system's error as whistbook prints it: the file, then what went wrong."""
    reason = err.strerror or str(err) or type(err).__name__
    reason = reason[:1].lower() + reason[1:]
    names = [os.fsdecode(n) for n in (err.filename, err.filename2) if n is not None]
    return one_line(": ".join([" -> ".join(names), reason] if names else [reason]))


class WhistbookError(Exception):
    """Base of every error whistbook reports to a user."""

    def __init__(self, message: str, loc: SourceLocation | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc

    def at(self, loc: SourceLocation | None) -> "WhistbookError":
        """Attach a location unless one is already known; returns self."""
        if self.loc is None:
            self.loc = loc
        return self

    def __str__(self) -> str:
        if self.loc is None:
            return one_line(self.message)
        return one_line(f"{self.loc}: {self.message}")


class HandFileError(WhistbookError):
    """Raised when a hand file is not well-formed YAML or breaks the format.
    ``problems`` holds every problem one load found (the first is this
    error's own message and location)."""

    def __init__(self, message: str, loc: SourceLocation | None = None,
                 problems: Sequence[WhistbookError] = ()) -> None:
        super().__init__(message, loc)
        self.problems: list[WhistbookError] = list(problems) or [self]


class YamlSyntaxError(HandFileError):
    """Raised when a hand file is not YAML at all."""


class SchemaError(HandFileError):
    """Raised for a missing or unknown key, a wrong type or a bad value."""


class InvalidCardError(WhistbookError, ValueError):
    """Raised when a piece of text is not a card, a suit, a rank or a seat;
    ``offset`` is where in the text the fault is (0 when it is the whole)."""

    def __init__(self, message: str, loc: SourceLocation | None = None, offset: int = 0) -> None:
        super().__init__(message, loc)
        self.offset = offset


class DealError(WhistbookError, ValueError):
    """Raised when the deal is not 52 distinct cards, 13 a hand (or, for a
    position, equal hands without duplicates), or the turn-up is misplaced."""


class IllegalPlayError(WhistbookError, ValueError):
    """Raised for a play out of turn, of a card not held, or a revoke, at the
    card ``play_index`` of trick ``trick_index`` (both 0-based), played by
    ``seat`` (None when the trick is short of cards)."""

    def __init__(self, message: str, loc: SourceLocation | None = None, *, trick_index: int = 0,
                 play_index: int = 0, seat: Seat | None = None, card: Card | None = None) -> None:
        super().__init__(message, loc)
        self.trick_index, self.play_index, self.seat, self.card = trick_index, play_index, seat, card


class ResultError(WhistbookError, ValueError):
    """Raised when a stated tally, claim or result disagrees with the replay."""


class SolverError(WhistbookError):
    """Raised when the double-dummy solver cannot be used."""


class AnalysisError(WhistbookError):
    """Raised when a file cannot be analysed card by card (a problem, or a
    hand whose play does not replay)."""


class RenderError(WhistbookError):
    """Raised when a template or the PDF engine fails."""


class RecordError(WhistbookError):
    """Raised when a PBN or LIN record cannot be read as a whist hand."""


class ConfigError(WhistbookError):
    """Raised for bad command-line options or project settings."""


@dataclass(frozen=True)
class Diagnostic:
    """One problem (or note) found in a file, printed as ``path:line:col: level: message``."""

    loc: SourceLocation | None
    level: str  # "error", "warning" or "note"
    message: str

    def __str__(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        return one_line(f"{where}{self.level}: {self.message}")

    @classmethod
    def from_error(cls, err: WhistbookError, path: str | None = None) -> "Diagnostic":
        loc = err.loc
        if loc is None and path is not None:
            loc = SourceLocation(path, 1, 1)
        return cls(loc, "error", err.message)


class Diagnostics(list):
    """A list of :class:`Diagnostic` with a short way to add each level."""

    def error(self, message: str, loc: SourceLocation | None) -> None:
        self.append(Diagnostic(loc, "error", message))

    def warning(self, message: str, loc: SourceLocation | None) -> None:
        self.append(Diagnostic(loc, "warning", message))

    def note(self, message: str, loc: SourceLocation | None) -> None:
        self.append(Diagnostic(loc, "note", message))

    @property
    def ok(self) -> bool:
        """No errors (warnings and notes allowed)."""
        return not any(d.level == "error" for d in self)
