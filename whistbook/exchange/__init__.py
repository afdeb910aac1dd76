"""Hands in and out of the card world: PBN, BBO's LIN, and one JSON document.

Every format goes through one record, :class:`~whistbook.exchange.record.Record`:
a deal, its dealer, leader, trumps and turn-up, the tricks in play order and
how many tricks each side takes in all. A checked hand file becomes a record
(:func:`~whistbook.exchange.record.from_checked`); a record becomes PBN or LIN
text through endplay's own writers, and PBN or LIN text becomes records
through endplay's own parsers (:mod:`.pbn`, :mod:`.lin`); a record becomes a
hand file in the house style (:mod:`.handtext`).

Seats: A sits South, Y West, B North, Z East; Z is the bridge declarer, so
the whist leader A is the bridge opening leader. The contract's level means
nothing and is written as one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..cards import Card
from ..errors import RecordError, SourceLocation
from .record import Record

#: the formats ``read`` knows, by file ending
READ_FORMATS = {".pbn": "pbn", ".lin": "lin"}


def write(records: Sequence[Record], fmt: str) -> str:
    """The records as one PBN or LIN text."""
    from . import lin, pbn

    return {"pbn": pbn.write, "lin": lin.write}[fmt](records)


def read(path: str | Path, fmt: str | None = None, turn_up: Card | None = None) -> list[Record]:
    """The boards of a PBN or LIN file as checked, completed records;
    ``fmt`` defaults to the file's ending (``.pbn``, ``.lin``).

    :raises RecordError: located in the file, for anything that cannot be whist.
    """
    from . import lin, pbn
    from .source import read_text

    fmt = fmt or READ_FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise RecordError("cannot tell PBN from LIN by the file's ending: give --format pbn or --format lin",
                          SourceLocation(str(path), 1, 1))
    text = read_text(path)
    return {"pbn": pbn.read, "lin": lin.read}[fmt](text, str(path), turn_up)
