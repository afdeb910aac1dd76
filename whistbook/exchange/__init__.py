"""Hands in and out of the card world: PBN, BBO's LIN, and one JSON document.

Going out, a checked hand file becomes a :class:`~whistbook.exchange.record.Record`
(:func:`~whistbook.exchange.record.from_checked`: a deal, its dealer, leader,
trumps and turn-up, the tricks in play order, the irregularities and how
many tricks each side takes in all), written as PBN or LIN (:mod:`.pbn`,
:mod:`.lin`). Coming in, a PBN or LIN file is read into located bridge
boards (:class:`~whistbook.exchange.bridge.BridgeBoard`); each becomes a
record (:func:`~whistbook.exchange.bridge.to_record`), is completed with the
tricks each side takes (:func:`~whistbook.exchange.record.settle_totals`) and
is written as a hand file in the house style (:mod:`.handtext`);
:mod:`.importer` runs the whole of it for a file.

Seats: A sits South, Y West, B North, Z East; Z is the bridge declarer, so
the whist leader A is the bridge opening leader. The contract's level means
nothing and is written as one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..errors import RecordError, SourceLocation
from .bridge import BridgeBoard
from .record import Record

#: the formats ``read`` knows, by file ending
READ_FORMATS = {".pbn": "pbn", ".lin": "lin"}


def write(records: Sequence[Record], fmt: str) -> str:
    """The records as one PBN or LIN text."""
    from . import lin, pbn

    return {"pbn": pbn.write, "lin": lin.write}[fmt](records)


def read(path: str | Path, fmt: str | None = None) -> list[BridgeBoard]:
    """The boards of a PBN or LIN file, each located; ``fmt`` defaults to the
    file's ending (``.pbn``, ``.lin``). A board with a fault carries it
    (``problem``) and raises it when it is made a record.

    :raises RecordError: for a file that cannot be read, or holds no board.
    """
    from . import lin, pbn
    from .source import read_source

    fmt = fmt or READ_FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise RecordError("cannot tell PBN from LIN by the file's ending: give --format pbn or --format lin",
                          SourceLocation(str(path), 1, 1))
    text, caveat = read_source(path)
    boards = {"pbn": pbn.read, "lin": lin.read}[fmt](text, str(path))
    if caveat is not None:
        for board in boards:
            board.comments.append(caveat)
    return boards


def read_records(path: str | Path, fmt: str | None = None, turn_up=None, trumps=None) -> list[Record]:
    """Every board of a file as a settled record, for a library user who
    wants them all: the first board that cannot be whist raises. ``trumps``
    (a :class:`~whistbook.cards.Suit`) deals the boards whose record names
    none, as ``whistbook import --trumps`` does.

    :raises RecordError: located in the file.
    """
    from .bridge import to_record
    from .record import settle_totals

    return [settle_totals(to_record(b, turn_up, trumps)) for b in read(path, fmt)]
