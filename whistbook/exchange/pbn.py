"""PBN 2.1 (Portable Bridge Notation), read and written here.

The reader follows the standard's layout: a game is its tag pairs
(``[Name "value"]``, a ``"#"`` value repeating the previous game's), each
followed by its section's data; commentary in braces may span lines and hold
blank lines; a line beginning with ``%`` and the rest of a line after ``;``
are not data; an empty line outside commentary ends the game. Every tag,
call and card keeps its place in the file, so every message names the line
and column it is about.

What a whist hand has and PBN lacks goes in tags of whistbook's own, which
other programs pass over: ``TurnUp`` (a card), ``WhistScore`` (the score
before the hand, ``AB 4, YZ 0``) and ``WhistLaws`` (the irregularities, by
trick, as the hand file writes them). A revoke and a lead out of turn that
stood are also marked in the play section as the standard marks them
(``^R``, ``^L`` before the card), and remarks go out as commentary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from .. import __version__
from ..cards import Card
from ..errors import InvalidCardError, RecordError, SourceLocation
from ..seats import SEATS, Seat, Side
from .bridge import COMPASS, PASSED_OUT, STRAINS, BridgeBoard, Contract, Played, lho
from .record import Record, flow
from .source import one_line_end

HEADER = """\
% PBN 2.1
% EXPORT
% Creator: whistbook {version}
% Whist hands as bridge deals. Seats: A is South, Y West, B North, Z East.
% Z deals and turns up his last card (the TurnUp tag); A, on his left, leads.
% The contract's strain is trumps and Z its declarer; its level and the
% auction (Z bids one, the others pass) mean nothing.
% The result counts the tricks Z's side (YZ) takes. Remarks are commentary.
% WhistScore is the score before the hand; WhistLaws the irregularities by trick.
"""

#: whist seat -> bridge seat of an exported board
_COMPASS_OF = {Seat.A: "S", Seat.Y: "W", Seat.B: "N", Seat.Z: "E"}


# --------------------------------------------------------------------------- writing

def write(records: Sequence[Record]) -> str:
    """PBN text for the records, boards numbered from one."""
    out = [HEADER.format(version=__version__)]
    for number, rec in enumerate(records, 1):
        out.append(_board_text(rec, number))
        out.append("\n")
    return "".join(out)


def _tag(name: str, value: str) -> str:
    return f'[{name} "{value.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]\n'


def _board_text(rec: Record, number: int) -> str:
    assert rec.totals is not None
    trumps = rec.trumps.letter
    lines = [_tag("Event", rec.title or "?"), _tag("Site", "?"), _tag("Date", "?"), _tag("Board", str(number))]
    lines += [_tag(name, str(seat)) for name, seat in (("West", Seat.Y), ("North", Seat.B), ("East", Seat.Z), ("South", Seat.A))]
    lines += [_tag("Dealer", "E"), _tag("Vulnerable", "None"), _tag("Deal", rec.deal.to_pbn()), _tag("Scoring", "?"),
              _tag("Declarer", "E"), _tag("Contract", f"1{trumps}"), _tag("Result", str(rec.totals[Side.YZ]))]
    lines += [_tag("Auction", "E"), f"1{trumps} Pass Pass Pass\n"]
    lines += [_tag("Play", "S")] + _play_rows(rec)
    if len(rec.tricks) < len(rec.deal[Seat.A]):
        lines.append("*\n")
    if rec.turn_up is not None:
        lines.append(_tag("TurnUp", str(rec.turn_up)[1] + str(rec.turn_up)[0]))
    if rec.score:
        lines.append(_tag("WhistScore", ", ".join(f"{s} {rec.score.get(s, 0)}" for s in Side)))
    if rec.laws:
        lines.append(_tag("WhistLaws", flow({i + 1: rec.laws[i] for i in sorted(rec.laws)})))
    lines += _commentary(rec)
    return "".join(lines)


def _play_rows(rec: Record) -> list[str]:
    """Each trick as a row of cards by seat from South (A), the seat of the
    opening lead, with ``^R`` before a revoke and ``^L`` before a lead out
    of turn that stood."""
    marks: dict[tuple[int, Card], str] = {}
    for i, entry in rec.laws.items():
        for rv in entry.get("revoke") if isinstance(entry.get("revoke"), list) else [entry.get("revoke")]:
            if isinstance(rv, dict) and not rv.get("corrected"):
                marks[(i, Card.parse(str(rv["card"])))] = "^R "
        ot = entry.get("out_of_turn")
        if isinstance(ot, dict) and ot.get("stands"):
            marks[(i, Card.parse(str(ot["card"])))] = "^L "
    owner = {c: s for s in SEATS for c in rec.deal[s]}
    rows = []
    for i, trick in enumerate(rec.tricks):
        by_seat = {owner[c]: marks.get((i, c), "") + str(c)[1] + str(c)[0] for c in trick}
        rows.append(" ".join(by_seat[s] for s in SEATS) + "\n")
    return rows


def _commentary(rec: Record) -> list[str]:
    """Remarks as PBN commentary, after the board's last tag."""
    lines = [f"{{Trick {i + 1}: {_plain(r)}}}\n" for i, r in enumerate(rec.remarks) if r]
    if rec.account:
        lines.append(f"{{The rest: {_plain(rec.account)}}}\n")
    return lines


def _plain(text: str) -> str:
    """One line, cards marked up as ``{KH}`` written plain, no braces left."""
    text = re.sub(r"\{([^{}]*)\}", r"\1", " ".join(text.split()))
    return text.replace("{", "(").replace("}", ")")


# --------------------------------------------------------------------------- reading

_TOKEN = re.compile(r"""
    (?P<escape>(?m:^%[^\n]*))
  | (?P<semi>;[^\n]*)
  | (?P<comment>\{[^}]*\}?)
  | (?P<tag>\[[ \t]*(?P<name>[A-Za-z0-9_]+)[ \t]*"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
  | (?P<nl>\n)
  | (?P<ws>[ \t\f\v]+)
  | (?P<word>[^\s\[\]{};]+)
  | (?P<bad>.)
""", re.VERBOSE)


@dataclass
class _Tag:
    name: str
    value: str
    loc: SourceLocation
    #: where the value starts (its first character after the quote)
    value_loc: SourceLocation
    data: list[tuple[str, SourceLocation]] = field(default_factory=list)


@dataclass
class _Game:
    loc: SourceLocation
    tags: dict[str, _Tag] = field(default_factory=dict)
    comments: list[tuple[str, SourceLocation]] = field(default_factory=list)
    #: the first problem met in the game's text, reported when the game is used
    problem: RecordError | None = None


def _games(text: str, path: str) -> Iterator[_Game]:
    """The games of a PBN text, split at empty lines outside commentary."""
    line, line_start = 1, 0
    game: _Game | None = None
    last: _Tag | None = None
    blank = True  # nothing but blanks on the line so far
    for m in _TOKEN.finditer(text):
        kind, start = m.lastgroup, m.start()
        loc = SourceLocation(path, line, start - line_start + 1)
        if kind == "nl":
            if blank and game is not None:
                yield game
                game, last = None, None
            line, line_start, blank = line + 1, m.end(), True
            continue
        if kind == "ws":
            continue
        blank = False
        if kind in ("escape", "semi"):
            continue
        if kind == "comment":
            body = m.group()
            if game is not None:
                if not body.endswith("}"):
                    game.problem = game.problem or RecordError("a commentary opened with '{' is never closed", loc)
                game.comments.append((body[1:-1] if body.endswith("}") else body[1:], loc))
            newlines = body.count("\n")
            if newlines:
                line, line_start = line + newlines, start + body.rfind("\n") + 1
            continue
        if game is None:
            game = _Game(loc)
        if kind == "tag":
            name = m.group("name").lower()
            value_loc = SourceLocation(path, line, m.start("value") - line_start + 1)
            last = _Tag(m.group("name"), re.sub(r"\\(.)", r"\1", m.group("value")), loc, value_loc)
            game.tags.setdefault(name, last)
        elif kind == "word" and last is not None:
            last.data.append((m.group(), loc))
        elif game.problem is None:
            what = "a tag pair is written [Name \"value\"]" if m.group() == "[" or kind == "word" else \
                f"{m.group()!r} is not PBN here"
            game.problem = RecordError(what, loc)
    if game is not None:
        yield game


def read(text: str, path: str) -> list[BridgeBoard]:
    """The boards of a PBN text, each located; a game of tags without a deal
    or contract is a board too (it is skipped later, with its reason).

    :raises RecordError: when the text holds no game at all.
    """
    text = one_line_end(text)
    boards: list[BridgeBoard] = []
    previous: dict[str, _Tag] = {}
    for game in _games(text, path):
        if not game.tags:
            continue
        for name, tag in game.tags.items():
            if tag.value == "#" and name in previous:
                tag.value = previous[name].value
        inherited = _inherit_deal(game, previous)
        previous.update(game.tags)
        board = BridgeBoard(path, game.loc, order=len(boards) + 1)
        if inherited:
            board.comments.append(f"the record gives no deal for this table: it is the deal of the game before, "
                                  f"at line {game.tags['deal'].loc.line}")
        try:
            if game.problem is not None:
                raise game.problem
            _fill(board, game)
        except RecordError as err:
            board.problem = err
        boards.append(board)
    if not boards:
        raise RecordError("no boards found (a PBN board is a group of tags such as [Deal \"N:...\"])",
                          SourceLocation(path, 1, 1))
    return boards


#: what a game that leaves out its deal takes from the game before
_DEAL_TAGS = ("board", "dealer", "vulnerable", "deal")


def _inherit_deal(game: _Game, previous: dict[str, _Tag]) -> bool:
    """A game with a contract, auction or play but no deal, after one with a
    deal, is another table's play of that deal: it takes the board, dealer
    and deal of the game before (as Richard Pavlicek's files write the
    second room of a match). True when it did."""
    if "deal" in game.tags or "deal" not in previous or not {"contract", "auction", "play"} & set(game.tags):
        return False
    if "board" in game.tags and "board" in previous and game.tags["board"].value != previous["board"].value:
        return False  # another board's number says it is not the same deal
    for name in _DEAL_TAGS:
        if name not in game.tags and name in previous:
            game.tags[name] = previous[name]
    return True


def _value(game: _Game, name: str) -> _Tag | None:
    """A tag whose value says something ("?" and "" say nothing)."""
    tag = game.tags.get(name)
    if tag is None or tag.value.strip() in ("", "?"):
        return None
    return tag


def _fill(board: BridgeBoard, game: _Game) -> None:
    tags = game.tags
    if (t := _value(game, "board")) is not None:
        raw = t.value.strip()
        board.number = int(raw) if raw.isdecimal() and len(raw) < 7 else None  # not isdigit(): "³" is one
        board.label = None if board.number is not None else raw
    if (t := _value(game, "room")) is not None:
        board.room = t.value.strip().lower()
    if (t := _value(game, "table")) is not None:
        board.table = t.value.strip()
    if (t := _value(game, "event")) is not None:
        board.title = t.value.strip()
    if (t := _value(game, "dealer")) is not None:
        board.dealer = _seat(t)
    if (t := tags.get("deal")) is not None:
        board.deal_loc = t.loc
        board.hands = _deal(t)
    if (t := _value(game, "contract")) is not None:
        board.contract_loc = t.loc
        board.contract = _contract(t)
    if (t := _value(game, "declarer")) is not None:
        board.declarer_loc = t.loc
        board.declarer = _seat(t, t.value.strip().lstrip("^"))
    if (t := tags.get("auction")) is not None and t.value.strip() not in ("", "?"):
        board.auction_loc, board.auction_first = t.loc, _seat(t)
        board.auction = _calls(t)
    if (t := tags.get("play")) is not None and t.value.strip() not in ("", "?"):
        board.play_loc, board.play_first = t.loc, _seat(t)
        board.play_rows, board.closed = _rows(t)
    if (t := _value(game, "result")) is not None:
        board.result_loc = t.loc
        _result(board, t)
    _whist_tags(board, game)
    _remarks(board, game.comments)


def _seat(tag: _Tag, text: str | None = None) -> str:
    value = (text if text is not None else tag.value).strip().upper()
    if len(value) != 1 or value not in COMPASS:
        raise RecordError(f"{tag.name}: {value!r} is not a seat (N, E, S or W)", tag.value_loc)
    return value


def _deal(tag: _Tag) -> dict[str, list[Card]] | None:
    """The hands of ``[Deal "N:... ... ... ..."]``; a hand written ``-`` is left out."""
    value = tag.value
    m = re.fullmatch(r"\s*([NESWnesw])\s*:\s*(.*?)\s*", value)
    if not m:
        raise RecordError(f"Deal: {value!r} is not a deal (it begins with the first hand's seat, e.g. \"N:AKQ.J2...\")",
                          tag.value_loc)
    first = m.group(1).upper()
    parts = m.group(2).split()
    if len(parts) != 4:
        raise RecordError(f"Deal: {len(parts)} hand{'s' if len(parts) != 1 else ''} where a deal has four, "
                          "each written S.H.D.C (or - for one not given)", tag.value_loc)
    hands: dict[str, list[Card]] = {}
    offset = m.start(2)
    for k, part in enumerate(parts):
        at = value.index(part, offset)
        offset = at + len(part)
        if part == "-":
            continue
        suits = part.split(".")
        where = tag.value_loc.shifted(at)
        if len(suits) != 4:
            raise RecordError(f"Deal: {part!r} is not a hand (four suits, spades first, between dots)", where)
        cards = []
        col = 0
        for suit, ranks in zip("SHDC", suits):
            for j, r in _ranks(ranks):
                try:
                    cards.append(Card.parse(r + suit))
                except InvalidCardError:
                    raise RecordError(f"Deal: {r!r} is not a rank (A K Q J T 9 8 7 6 5 4 3 2)",
                                      where.shifted(col + j)) from None
            col += len(ranks) + 1
        hands[lho(first, k)] = cards
    return hands or None


def _ranks(text: str) -> Iterator[tuple[int, str]]:
    """Each rank of a suit with its place; the ten written ``10``, as some
    programs write it, is the ten (``T``)."""
    j = 0
    while j < len(text):
        if text.startswith("10", j):
            yield j, "T"
            j += 2
            continue
        yield j, text[j]
        j += 1


def _contract(tag: _Tag) -> Contract | str:
    text = tag.value.strip().upper()
    if text in ("PASS", "P", "AP"):
        return PASSED_OUT
    m = re.fullmatch(r"([1-7])(NT|N|S|H|D|C)(XX|X)?", text)
    if not m:
        raise RecordError(f"Contract: {tag.value!r} is not a contract (e.g. 4H, 3NT, 2SX, or Pass)", tag.value_loc)
    strain = "NT" if m.group(2) in ("N", "NT") else m.group(2)
    return Contract(int(m.group(1)), strain, m.group(3) or "")


_CALL = re.compile(r"(?i)(PASS|P|XX|X|AP|[1-7](?:NT|N|S|H|D|C))$")


def _calls(tag: _Tag) -> list[tuple[str, SourceLocation]]:
    """The calls of an auction section; notes (``=1=``), suffixes (``!``, ``?``),
    NAGs (``$1``) and irregularity marks are passed over."""
    calls = []
    for word, loc in tag.data:
        if word in ("-", "+", "*") or word.startswith(("=", "$", "^")):
            continue
        bare = word.rstrip("!?")
        if not _CALL.match(bare):
            raise RecordError(f"Auction: {word!r} is not a call (Pass, X, XX, AP, or a bid such as 1C, 3NT)", loc)
        call = bare.upper()
        if call == "AP":
            calls += [("P", loc)] * 3
            continue
        call = {"PASS": "P", "N": "NT"}.get(call, call)
        if call[0].isdigit() and call[1:] == "N":
            call = call[0] + "NT"
        calls.append((call, loc))
    if calls and any(c not in ("P", "X", "XX") and c[1:] not in STRAINS for c, _ in calls):
        raise RecordError("Auction: a bid names no strain", tag.loc)
    return calls


def _rows(tag: _Tag) -> tuple[list[list[Played | None]], bool]:
    """The play section's rows, four entries each (``-`` for no card); and
    whether a ``*`` closes it."""
    rows: list[list[Played | None]] = []
    row: list[Played | None] = []
    mark: str | None = None
    closed = False
    for word, loc in tag.data:
        if word in ("*", "+"):
            closed = closed or word == "*"
            continue
        if word.startswith(("=", "$")):
            continue
        if word in ("^R", "^L"):
            mark = word
            continue
        if word.startswith("^"):
            continue
        if closed:
            raise RecordError(f"Play: {word!r} comes after the '*' that ends the play", loc)
        if word == "-":
            row.append(None)
        else:
            bare = word.rstrip("!?")
            try:
                if not re.fullmatch(r"(?i)[SHDC](?:[2-9TJQKA]|10)", bare):
                    raise InvalidCardError(bare)
                row.append(Played(Card.parse(bare[1:] + bare[0]), loc, mark))
            except InvalidCardError:
                raise RecordError(f"Play: {word!r} is not a card (suit then rank, e.g. SK, H7; or - for none)", loc) from None
        mark = None
        if len(row) == 4:
            rows.append(row)
            row = []
    if row:
        rows.append(row + [None] * (4 - len(row)))
    return rows, closed


def _result(board: BridgeBoard, tag: _Tag) -> None:
    text = tag.value.strip().lstrip("^")
    m = re.fullmatch(r"(?:(NS|EW)\s+)?(\d{1,2})", text, re.I)
    if not m or int(m.group(2)) > 13:
        raise RecordError(f"Result: {tag.value!r} is not a number of tricks (0 to 13, or e.g. \"NS 9\")", tag.value_loc)
    if m.group(1):
        board.side_tricks = (m.group(1).upper(), int(m.group(2)))
    else:
        board.declarer_tricks = int(m.group(2))


def _whist_tags(board: BridgeBoard, game: _Game) -> None:
    """whistbook's own tags: the turn-up, the score, the irregularities."""
    if (t := _value(game, "turnup")) is not None:
        board.turn_up = turn_up_of(t.value, t.value_loc, "TurnUp")
    if (t := _value(game, "whistscore")) is not None:
        board.score = score_of(t.value, t.value_loc, "WhistScore")
    if (t := _value(game, "whistlaws")) is not None:
        board.laws = laws_of_text(t.value, t.value_loc, "WhistLaws")


def turn_up_of(value: str, loc: SourceLocation, name: str) -> Card:
    try:
        return Card.parse(value.strip())
    except InvalidCardError as err:
        raise RecordError(f"{name}: {err.message}", loc) from None


def score_of(value: str, loc: SourceLocation, name: str) -> dict[Side, int]:
    m = re.fullmatch(r"\s*AB\s+(\d{1,2})\s*,\s*YZ\s+(\d{1,2})\s*", value)
    if not m:
        raise RecordError(f"{name}: {value!r} is not a score (e.g. \"AB 4, YZ 0\")", loc)
    return {Side.AB: int(m.group(1)), Side.YZ: int(m.group(2))}


def laws_of_text(value: str, loc: SourceLocation, name: str) -> dict[int, dict]:
    """The irregularities by trick index from their flow-style text."""
    import yaml

    try:
        laws = yaml.safe_load(value)
    except yaml.YAMLError:
        laws = None
    if not isinstance(laws, dict) or not all(isinstance(k, int) and 1 <= k <= 13 and isinstance(v, dict) and _lawful(v)
                                             for k, v in laws.items()):
        raise RecordError(f"{name}: not a mapping of trick numbers to irregularities as a hand file writes them "
                          "(e.g. {2: {revoke: {card: 2C, penalty: tricks}}})", loc)
    return {k - 1: v for k, v in laws.items()}


def _lawful(entry: dict) -> bool:
    """The shape the import relies on (the cards of revokes and leads out of
    turn); the hand file's own check judges the rest."""
    if not set(entry) <= {"revoke", "exposed", "out_of_turn", "call"}:
        return False
    revokes = entry.get("revoke")
    for rv in revokes if isinstance(revokes, list) else [] if revokes is None else [revokes]:
        if not isinstance(rv, dict) or not _is_card(rv.get("card")):
            return False
    ot = entry.get("out_of_turn")
    return ot is None or (isinstance(ot, dict) and _is_card(ot.get("card")))


def _is_card(value) -> bool:
    try:
        Card.parse(str(value))
    except InvalidCardError:
        return False
    return value is not None


def _remarks(board: BridgeBoard, comments: list[tuple[str, SourceLocation]]) -> None:
    """Remarks from commentary in the form :func:`_commentary` writes; other
    commentary is not read."""
    for text, _loc in comments:
        take_remark(board, text)


def take_remark(board: BridgeBoard, text: str) -> bool:
    """A remark (``Trick N: ...``) or the account of the rest (``The rest:
    ...``) kept on the board; False for other text."""
    body = " ".join(text.split())
    m = re.match(r"Trick (\d{1,6}):\s*(.*)", body, re.S)  # a longer number is no trick, and int() refuses 4,300 digits
    if m:
        board.remarks[int(m.group(1))] = m.group(2)
    elif body.startswith("The rest:"):
        board.account = body[len("The rest:"):].strip()
    else:
        return False
    return True
