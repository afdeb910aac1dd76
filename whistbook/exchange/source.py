"""Reading an exchange file's text, and finding things in it by line."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import RecordError, SourceLocation

# C1 control characters never occur in ISO-8859-1 text that people write;
# their presence means another encoding (Windows-1252, UTF-16...).
_C1 = bytes(range(0x80, 0xA0))
#: the largest file read: a season's boards with their commentary take a few megabytes
MAX_BYTES = 50_000_000


def read_source(path: str | Path) -> tuple[str, str | None]:
    """The file's text: UTF-8 (with or without a byte-order mark), or
    ISO-8859-1, the character set PBN 2.1 prescribes; failing both,
    Windows-1252, in which programs on Windows write names and commentary
    (the cards are plain letters in every one of them). With the text comes
    a sentence for the reader when it was Windows-1252 (letters of another
    Windows code page, Polish or Czech say, come out wrong), else None.

    :raises RecordError: for an unreadable file or one in none of these.
    """
    p = str(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe or a device could be read for ever
            raise RecordError("not a regular file", SourceLocation(p, 1, 1))
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as err:
        raise RecordError(f"cannot read file: {err.strerror or err}", SourceLocation(p, 1, 1)) from None
    if len(data) > MAX_BYTES:
        raise RecordError(f"the file is larger than {MAX_BYTES / 1e6:g} MB", SourceLocation(p, 1, 1))
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as err:
        bad = err.start
    if b"\0" not in data and not any(b in _C1 for b in data):
        return data.decode("latin-1"), None
    if b"\0" not in data:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            pass
        else:
            k = next(k for k, b in enumerate(data) if b in _C1)
            at = SourceLocation.of_byte(p, data, k)
            return text, (f"the file is neither UTF-8 nor ISO-8859-1 (byte 0x{data[k]:02x}, line {at.line}): "
                                  "it was read as Windows-1252, so letters of names and commentary may be wrong")
    raise RecordError(f"byte 0x{data[bad]:02x} is not UTF-8 or ISO-8859-1 text: save the file as UTF-8",
                      SourceLocation.of_byte(p, data, bad))


def one_line_end(text: str) -> str:
    """Line ends made one: Windows' CR LF and old Macintosh's lone CR both
    end a line, as every editor shows them (the readers of PBN and LIN text
    do this first)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def line_of(text: str, offset: int, path: str) -> SourceLocation:
    """The location of a character offset in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return SourceLocation(path, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)
