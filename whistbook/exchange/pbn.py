"""PBN 2.1, written and read by endplay (``endplay.parsers.pbn``).

What endplay does not do, and this module adds:

- the file's opening comments (the seat mapping) and PBN commentary for the
  remarks: endplay writes neither, and its reader skips commentary;
- a ``TurnUp`` tag (a card, e.g. ``CJ``): PBN has no turn-up, and endplay
  keeps unknown tags, so the card goes out and comes back;
- locations: endplay reports lines only for some syntax errors, so the
  lines of each board's tags are found here (:func:`_board_lines`) to place
  every error at its tag, at the trick's row in the play section, or at a
  word there that is not a card;
- a missing ``[Result]`` tag: endplay reads it as "made exactly", so this
  module looks for the tag before trusting the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from io import StringIO
from typing import Sequence

from .. import __version__
from ..cards import Card
from ..errors import InvalidCardError, RecordError, SourceLocation
from .record import Record, from_board, settle, to_board

HEADER = """\
% PBN 2.1
% EXPORT
% Creator: whistbook {version}
% Whist hands as bridge deals. Seats: A is South, Y West, B North, Z East.
% Z deals and turns up his last card (the TurnUp tag); A, on his left, leads.
% The contract's strain is trumps and Z its declarer; its level and the
% auction (Z bids one, the others pass) mean nothing.
% The result counts the tricks Z's side (YZ) takes. Remarks are commentary.
"""

_TAG = re.compile(r'\s*\[(\w+)\s+"(.*?)"\]')


def write(records: Sequence[Record]) -> str:
    """PBN text for the records, boards numbered from one."""
    from endplay.parsers.pbn import PBNEncoder

    out = [HEADER.format(version=__version__)]
    encoder = PBNEncoder()
    for number, rec in enumerate(records, 1):
        board = to_board(rec, number)
        if rec.turn_up is not None:
            board.info["TurnUp"] = str(rec.turn_up)[1] + str(rec.turn_up)[0]
        encoder.export_board(board)
        out.append("".join(encoder.tags))
        out.append(_commentary(rec))
        out.append("\n")
    return "".join(out)


def _commentary(rec: Record) -> str:
    """Remarks as PBN commentary blocks. They follow the last tag, since
    endplay reads any line inside the play section as cards."""
    lines = []
    for i, remark in enumerate(rec.remarks):
        if remark:
            lines.append(f"{{Trick {i + 1}: {_plain(remark)}}}\n")
    if rec.account:
        lines.append(f"{{The rest: {_plain(rec.account)}}}\n")
    return "".join(lines)


def _plain(text: str) -> str:
    """One line, cards marked up as ``{KH}`` written plain, no braces left."""
    text = re.sub(r"\{([^{}]*)\}", r"\1", " ".join(text.split()))
    return text.replace("{", "(").replace("}", ")")


@dataclass
class _Board:
    """Where one board's tags are in the file, and their raw values."""

    start: int
    tags: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: one-line commentary blocks, without their braces
    comments: list[str] = field(default_factory=list)


def _board_lines(text: str) -> list[_Board]:
    """Each board's tag lines, split at blank lines as endplay splits them."""
    boards: list[_Board] = []
    current: _Board | None = None
    in_comment = False
    for n, raw in enumerate(text.splitlines() + [""], 1):
        line = raw.strip()
        if in_comment:
            in_comment = "}" not in line
            continue
        if line.startswith("{") and "}" not in line:
            in_comment = True
            continue
        if not line:
            if current is not None:
                boards.append(current)
                current = None
            continue
        m = _TAG.match(line)
        if m:
            if current is None:
                current = _Board(n)
            current.tags.setdefault(m.group(1).lower(), (n, m.group(2)))
        elif current is not None and line.startswith("{") and line.endswith("}"):
            current.comments.append(line[1:-1].strip())
    return boards


def read(text: str, path: str, turn_up: Card | None = None) -> list[Record]:
    """The boards of a PBN file as settled records (see :func:`settle`).

    :raises RecordError: at the first board that cannot be whist.
    """
    from endplay.parsers.pbn import PBNDecoder, PBNDecodeError

    index = _board_lines(text)
    decoder = PBNDecoder()
    try:
        boards = decoder.parse_file(StringIO(text))
    except PBNDecodeError as err:
        raise RecordError(f"not PBN: {err}", SourceLocation(path, err.lineno, 1)) from None
    except Exception as err:  # noqa: BLE001 - endplay raises plain ValueError and RuntimeError
        where = next((b for b in reversed(index) if b.start <= decoder.lineno), None)
        loc = _bad_card(text, where, path) if where else None
        raise RecordError(f"endplay cannot read this board: {err}",
                          loc or SourceLocation(path, where.start if where else decoder.lineno, 1)) from None
    if not boards:
        raise RecordError("no boards found (a PBN board is a group of tags such as [Deal \"N:...\"])",
                          SourceLocation(path, 1, 1))
    # Should a board escape the line index, its errors fall back to line 1.
    index += [_Board(1)] * (len(boards) - len(index))
    records = []
    for board, where in zip(boards, index):
        records.append(_record(board, where, path, turn_up))
    return records


def _bad_card(text: str, where: _Board, path: str) -> SourceLocation | None:
    """The first word of the board's play section that is not a card, the
    likeliest reason for endplay to fail on a board."""
    if "play" not in where.tags:
        return None
    lines = text.splitlines()
    for n in range(where.tags["play"][0], len(lines)):
        row = lines[n]
        if not row.strip() or row.lstrip().startswith("["):
            return None
        for m in re.finditer(r"\S+", row):
            word = m.group(0)
            if word in ("-", "*") or re.fullmatch(r"=\d+=", word):
                continue
            try:
                Card.parse(word)
            except InvalidCardError:
                return SourceLocation(path, n + 1, m.start() + 1)
    return None


def _record(board, where: _Board, path: str, turn_up: Card | None) -> Record:
    def locate(part: str, trick: int | None) -> SourceLocation:
        if part == "play" and "play" in where.tags:
            return SourceLocation(path, where.tags["play"][0] + 1 + (trick or 0), 1)
        tag = "deal" if part == "deal" else "contract"
        return SourceLocation(path, where.tags.get(tag, (where.start, ""))[0], 1)

    try:
        rec = from_board(board)
    except RecordError as err:
        raise err.at(locate("contract", None)) from None
    stated = None
    if board.contract is not None and where.tags.get("result", (0, "?"))[1].strip().isdigit():
        from endplay.utils.play import result_to_tricks

        stated = result_to_tricks(board.contract.result, board.contract.level)
    if rec.turn_up is None and "turnup" in where.tags:
        line, value = where.tags["turnup"]
        try:
            rec.turn_up = Card.parse(value)
        except InvalidCardError as err:
            raise RecordError(f"TurnUp: {err.message}", SourceLocation(path, line, 1)) from None
    _take_remarks(rec, where.comments)
    return settle(rec, locate, claimed=board.claimed, declarer_tricks=stated, turn_up=turn_up)


def _take_remarks(rec: Record, comments: list[str]) -> None:
    """Remarks from commentary in the form :func:`_commentary` writes."""
    rec.remarks = [None] * len(rec.tricks)
    for text in comments:
        m = re.match(r"Trick (\d{1,6}):\s*(.*)", text, re.S)
        if m and 1 <= int(m.group(1)) <= len(rec.tricks):
            rec.remarks[int(m.group(1)) - 1] = m.group(2)
        elif text.startswith("The rest:"):
            rec.account = text[len("The rest:"):].strip()
