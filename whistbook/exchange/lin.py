"""BBO's LIN, written and read by endplay (``endplay.parsers.lin``), for
BBO's Handviewer.

LIN has a contract only through an auction, so a written board carries a
token one: Z opens one in trumps and the others pass. What endplay does not
do, and this module adds: a file without the ``pn|`` field gives endplay no
boards at all, so one is supplied; a play that stops in the middle of a
trick with no claim makes endplay fail (it counts the tricks of an
incomplete trick), so it is refused here first; and locations, found by counting the
``pn|`` and ``pc|`` fields of the text. LIN has no commentary endplay reads
(its ``nt|`` is taken for an alert), so remarks are not written.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..cards import Card
from ..errors import RecordError, SourceLocation
from .record import Record, from_board, settle, to_board
from .source import line_of


def write(records: Sequence[Record]) -> str:
    """LIN text for the records, one board a line, numbered from one."""
    from endplay.parsers.lin import LINEncoder

    encoder = LINEncoder()
    lines = [encoder.serialise_board(to_board(rec, number)) for number, rec in enumerate(records, 1)]
    return "\n".join(lines) + "\n"


def read(text: str, path: str, turn_up: Card | None = None) -> list[Record]:
    """The boards of a LIN file as settled records.

    :raises RecordError: at the first board that cannot be whist.
    """
    from endplay.parsers.lin import LINDecoder

    if "md|" not in text:
        raise RecordError("not LIN: there is no deal (md|) in the file", SourceLocation(path, 1, 1))
    body = text if "pn|" in text else "pn|,,,|" + text
    starts = [m.start() for m in re.finditer(r"pn\|", body)]
    shift = len(body) - len(text)
    decoder = LINDecoder()
    records = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(body)
        chunk = body[start:end]
        where = start - shift  # the chunk's start in the text (before it, for a "pn|" supplied)

        def locate(part: str, trick: int | None, where: int = where, chunk: str = chunk) -> SourceLocation:
            if part == "play" and trick is not None:
                cards = [m.start() for m in re.finditer(r"pc\|", chunk)]
                if cards:
                    return line_of(text, max(where + cards[min(4 * trick, len(cards) - 1)], 0), path)
            field = {"deal": "md|"}.get(part, "mb|")
            found = chunk.find(field)
            return line_of(text, max(where + max(found, 0), 0), path)

        played = len(re.findall(r"pc\|", chunk))
        if played % 4 and "mc|" not in chunk:  # endplay fails on this with an AttributeError
            trick = played // 4
            raise RecordError(f"the play stops in trick {trick + 1} after {played % 4} card{'s' if played % 4 != 1 else ''}, "
                              "and no claim (mc|) accounts for the rest", locate("play", trick))
        try:
            board = decoder.parse_line(chunk.replace("\r\n", "").replace("\n", ""))
        except Exception as err:  # noqa: BLE001 - endplay raises plain ValueError and IndexError
            raise RecordError(f"endplay cannot read this board: {err}", line_of(text, max(where, 0), path)) from None
        try:
            rec = from_board(board)
        except RecordError as err:
            raise err.at(locate("contract", None)) from None
        stated = None
        if board.claimed:
            from endplay.utils.play import result_to_tricks

            stated = result_to_tricks(board.contract.result, board.contract.level)
        records.append(settle(rec, locate, claimed=board.claimed, declarer_tricks=stated, turn_up=turn_up))
    if not records:
        raise RecordError("no boards found (a LIN board has an md| deal)", SourceLocation(path, 1, 1))
    return records
