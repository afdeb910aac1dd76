"""BBO's LIN, read and written here, for BBO's Handviewer and its archives.

A LIN text is a run of ``key|value|`` fields. Boards come two ways: one a
line, each with its players (``pn|``) and deal (``md|``), as BBO's hand
records give them; or, in a vugraph file, one ``pn|`` for the match (eight
names, the open room's four then the closed room's) and each board opened by
``qx|o1|`` or ``qx|c1|`` (room and board number). The contract comes from the
auction (``mb|``), the play from ``pc|`` in the order played, and ``mc|`` gives
the declarer's tricks in all when a claim ends the play.

A written board carries a token auction (Z opens one in trumps, the others
pass) and always ``mc|`` with Z's side's tricks, so that other readers need
not work the result out. What LIN has no field for goes in commentary
(``nt|``), which BBO's Handviewer shows as it plays the cards through: the
title (``nt|Title Hand III|``), the turn-up (``nt|TurnUp CJ|``), the score
and the irregularities as PBN's tags write them (``nt|WhistScore ...|``,
``nt|WhistLaws ...|``), and each remark after its trick's cards
(``nt|Trick 3: ...|``, ``nt|The rest: ...|``).
"""

from __future__ import annotations

import re
from typing import Sequence

from ..cards import DECK, Card
from ..errors import InvalidCardError, RecordError, SourceLocation
from ..seats import Seat, Side
from .bridge import BridgeBoard, Played
from .pbn import _plain, laws_of_text, score_of, take_remark, turn_up_of
from .record import Record, flow
from .source import one_line_end

#: LIN lists hands, names and dealers from South: 1 South, 2 West, 3 North, 4 East
_LIN_ORDER = "SWNE"
_COMPASS_OF = {Seat.A: "S", Seat.Y: "W", Seat.B: "N", Seat.Z: "E"}


# --------------------------------------------------------------------------- writing

def write(records: Sequence[Record]) -> str:
    """LIN text for the records, one board a line, numbered from one."""
    return "".join(_board_line(rec, n) for n, rec in enumerate(records, 1))


def _board_line(rec: Record, number: int) -> str:
    assert rec.totals is not None
    hands = []
    for compass in _LIN_ORDER:
        seat = next(s for s, c in _COMPASS_OF.items() if c == compass)
        hands.append("".join(s.letter + "".join(str(c)[0] for c in rec.deal[seat] if c.suit == s)
                             for s in sorted({c.suit for c in DECK})))
    fields = [f"pn|{','.join(str(s) for s in (Seat.A, Seat.Y, Seat.B, Seat.Z))}|st||",
              f"md|4{','.join(hands)}|rh||ah|Board {number}|sv|o|"]
    if rec.title:
        fields.append(f"nt|Title {_note(rec.title)}|")
    if rec.turn_up is not None:
        fields.append(f"nt|TurnUp {str(rec.turn_up)[1]}{str(rec.turn_up)[0]}|")
    if rec.score:
        fields.append(f"nt|WhistScore {', '.join(f'{s} {rec.score.get(s, 0)}' for s in Side)}|")
    if rec.laws:
        fields.append(f"nt|WhistLaws {flow({i + 1: rec.laws[i] for i in sorted(rec.laws)})}|")
    fields.append(f"mb|1{rec.trumps.letter}|mb|p|mb|p|mb|p|pg||")
    for i, trick in enumerate(rec.tricks):
        fields.append("".join(f"pc|{str(c)[1]}{str(c)[0]}|" for c in trick))
        if i < len(rec.remarks) and rec.remarks[i]:
            fields.append(f"nt|Trick {i + 1}: {_note(rec.remarks[i])}|")
        fields.append("pg||")
    if rec.account:
        fields.append(f"nt|The rest: {_note(rec.account)}|")
    fields.append(f"mc|{rec.totals[Side.YZ]}|pg||")
    return "".join(fields) + "\n"


def _note(text: str) -> str:
    """A remark as an ``nt|`` field holds it: one line, no bar, cards plain."""
    return _plain(text).replace("|", "/")


# --------------------------------------------------------------------------- reading

_FIELD = re.compile(r"([A-Za-z]{2})\|([^|]*)\|")


def _fields(text: str, path: str) -> list[tuple[str, str, SourceLocation]]:
    """Every ``key|value|`` field with its place; anything else is an error."""
    out = []
    pos, line, line_start = 0, 1, 0
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch == "\n":
            pos, line, line_start = pos + 1, line + 1, pos + 1
            continue
        if ch in " \t|":
            pos += 1  # blanks between fields, and the stray bar some writers leave
            continue
        m = _FIELD.match(text, pos)
        loc = SourceLocation(path, line, pos - line_start + 1)
        if not m:
            raise RecordError("not LIN: expected a field such as md|...| here", loc)
        out.append((m.group(1).lower(), m.group(2), loc))
        inner = m.group(2).count("\n")
        if inner:
            line, line_start = line + inner, m.start(2) + m.group(2).rfind("\n") + 1
        pos = m.end()
    return out


def read(text: str, path: str) -> list[BridgeBoard]:
    """The boards of a LIN text, each located.

    :raises RecordError: for a text that is not LIN or holds no board.
    """
    text = one_line_end(text)
    fields = _fields(text, path)
    if not any(k == "md" for k, _, _ in fields):
        raise RecordError("not LIN: there is no deal (md|) in the file", SourceLocation(path, 1, 1))
    vugraph = any(k == "qx" for k, _, _ in fields)
    boards: list[BridgeBoard] = []
    current: list[tuple[str, str, SourceLocation]] | None = None
    groups: list[list[tuple[str, str, SourceLocation]]] = []
    for key, value, loc in fields:
        starts = key == "qx" if vugraph else (key in ("md", "pn") and current is not None
                                              and any(k == "md" for k, _, _ in current))
        if starts or (current is None and not vugraph):
            current = []
            groups.append(current)
        if current is None:  # a vugraph file's header: the match, its players, its results
            continue
        current.append((key, value, loc))
    for group in groups:
        board = BridgeBoard(path, group[0][2], order=len(boards) + 1)
        try:
            _fill(board, group)
        except RecordError as err:
            board.problem = err
        boards.append(board)
    return boards


def _fill(board: BridgeBoard, group: list[tuple[str, str, SourceLocation]]) -> None:
    seq: list[Played] = []
    for key, value, loc in group:
        if key == "qx":
            m = re.fullmatch(r"\s*([oOcC])?(\d{1,6})\s*", value)
            if m:
                board.room = {"o": "open", "c": "closed"}.get((m.group(1) or "").lower())
                board.number = int(m.group(2))
            else:
                board.label = value.strip() or None
        elif key == "ah":
            m = re.fullmatch(r"\s*Board\s+(\d{1,6})\s*", value, re.I)
            if m and board.number is None:
                board.number = int(m.group(1))
            elif not m:
                board.title = value.strip() or None
        elif key == "md":
            board.deal_loc = loc
            board.dealer, board.hands = _deal(value, loc)
        elif key == "mb":
            if not board.auction:
                board.auction_loc = loc
            board.auction.append((_call(value, loc), loc))
        elif key == "pc":
            if board.play_loc is None:
                board.play_loc = loc
            seq.append(Played(_card(value, loc), loc))
        elif key == "nt":
            _note_field(board, value, loc)
        elif key == "mc":
            if not re.fullmatch(r"\s*\d{1,2}\s*", value) or int(value) > 13:  # not isdigit(): "²", 5,000 digits
                raise RecordError(f"mc|{value}|: a claim is the declarer's tricks in all, 0 to 13", loc)
            board.declarer_tricks, board.closed, board.result_loc = int(value), True, loc
    board.auction_first = board.dealer
    board.play_seq = seq


def _note_field(board: BridgeBoard, value: str, loc: SourceLocation) -> None:
    """whistbook's notes (the turn-up, the score, the irregularities, the
    remarks); other commentary is not read."""
    where = loc.shifted(3)
    for name in ("Title", "TurnUp", "WhistScore", "WhistLaws"):
        if value.startswith(name + " "):
            body = value[len(name) + 1:]
            if name == "Title":
                board.title = body.strip() or None
            elif name == "TurnUp":
                board.turn_up = turn_up_of(body, where, "nt|TurnUp")
            elif name == "WhistScore":
                board.score = score_of(body, where, "nt|WhistScore")
            else:
                board.laws = laws_of_text(body, where, "nt|WhistLaws")
            return
    take_remark(board, value)


def _deal(value: str, loc: SourceLocation) -> tuple[str | None, dict[str, list[Card]] | None]:
    """``md|3S...,S...,S...,S...|``: the dealer's digit, then the hands from
    South; the fourth may be left empty, and if given must be what the
    other three leave."""
    m = re.fullmatch(r"\s*([1-4])?(.*)", value, re.S)
    assert m
    dealer = _LIN_ORDER[int(m.group(1)) - 1] if m.group(1) else None
    parts = m.group(2).split(",")
    if len(parts) > 4 or len(parts) < 3:
        raise RecordError(f"md|: {len(parts)} hands where a deal has four (the fourth may be left empty)", loc)
    hands: dict[str, list[Card]] = {}
    starts = []
    at = 3 + m.start(2)  # past "md|" and the dealer's digit
    for k, part in enumerate(parts):
        starts.append(at)
        if part.strip():
            hands[_LIN_ORDER[k]] = _hand(part, loc.advanced(("md|" + value)[:at]))  # a value may run over lines
        at += len(part) + 1
    if len(hands) == 4:
        held = {c for p in "SWN" for c in hands[p]}
        rest = sorted(c for c in DECK if c not in held)
        if len(held) == 39 and sorted(hands["E"]) != rest:
            extra = sorted(set(hands["E"]) - set(rest))
            missing = sorted(set(rest) - set(hands["E"]))
            detail = "; ".join(x for x in (
                f"it holds {' '.join(map(str, extra))}, which the others hold" if extra else "",
                f"it lacks {' '.join(map(str, missing))}" if missing else "",
                f"it has {len(hands['E'])} cards" if not extra and not missing else "") if x)
            raise RecordError(f"md|: East's hand, given fourth, is not the 13 cards the other three leave ({detail})",
                              loc.advanced(("md|" + value)[:starts[3]]))
    return dealer, hands or None


def _hand(text: str, loc: SourceLocation) -> list[Card]:
    """``S25H79TD35AC357JA``: each suit's letter, then its ranks."""
    cards: list[Card] = []
    suit = None
    for k, ch in enumerate(text):
        up = ch.upper()
        if ch == "0" and k and text[k - 1] == "1":
            continue  # the second character of a ten written 10
        if ch == "1" and text.startswith("10", k):
            up = "T"
        if up in "SHDC":
            suit = up
        elif ch in " \t":
            continue
        elif suit is None:
            raise RecordError(f"md|: {text!r}: a hand names the suit (S, H, D, C) before its ranks",
                              loc.advanced(text[:k]))
        else:
            try:
                cards.append(Card.parse(up + suit))
            except InvalidCardError:
                raise RecordError(f"md|: {ch!r} is not a rank (A K Q J T 9 8 7 6 5 4 3 2)",
                                  loc.advanced(text[:k])) from None
    return cards


def _call(value: str, loc: SourceLocation) -> str:
    text = value.strip().rstrip("!").upper()
    call = {"P": "P", "PASS": "P", "D": "X", "X": "X", "R": "XX", "XX": "XX"}.get(text)
    if call is not None:
        return call
    m = re.fullmatch(r"([1-7])(NT|N|S|H|D|C)", text)
    if not m:
        raise RecordError(f"mb|{value}|: not a call (p, d, r, or a bid such as 1C, 3N)", loc)
    return m.group(1) + ("NT" if m.group(2) in ("N", "NT") else m.group(2))


def _card(value: str, loc: SourceLocation) -> Card:
    text = value.strip()
    if re.fullmatch(r"(?i)[SHDC](?:[2-9TJQKA]|10)", text):
        return Card.parse(text[1:] + text[0])
    raise RecordError(f"pc|{value}|: not a card (suit then rank, e.g. SK, H7)", loc)
