"""Load hand files (YAML) into :class:`~whistbook.model.HandFile` records.

The document is composed into located nodes (:mod:`whistbook.yamlnodes`);
the deal and the tricks are read here, the rest of a file (irregularities,
the ending, errata, a problem's task, the result) by
:mod:`whistbook.handfile_parts`. Schema problems are collected and raised
together as one :class:`HandFileError` whose ``problems`` list holds each
located error.

The format is documented in ``docs/format.md`` and described for editors by
``whistbook/schema/hand.schema.json``.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import yaml

from .cards import DECK, Card, Suit, tokenize_hand, tokenize_holding
from .errors import HandFileError, InvalidCardError, SchemaError, SourceLocation, WhistbookError
from .handfile_parts import (
    read_ending,
    read_errata,
    read_honours_call,
    read_irregularities,
    read_result,
    read_score,
    read_solutions,
    read_task,
)
from .model import CardRef, HandFile, Stated, TrickRecord
from .seats import SEATS, Seat, Side
from .yamlnodes import (
    Problems,
    compose,
    node_loc,
    offset_loc,
    read_bool,
    read_card,
    read_cards,
    read_int,
    read_mapping,
    read_text,
    read_with,
)

RULES = ("short", "long")
KINDS = ("hand", "problem")

_TOP_KEYS = {
    "kind", "title", "theme", "source", "tags", "rules", "known_hand", "dealer", "leader",
    "score", "turn_up", "trumps", "deal", "tricks", "ending", "result", "errata", "notes",
    "task", "solutions", "honours_call",
}
_TRICK_KEYS = {
    "cards", "shown", "tally", "leader", "winner", "remark", "remark_draft", "note", "infer",
    "revoke", "exposed", "out_of_turn", "call",
}


#: the largest hand file read: the longest of the book's is 11 kB
MAX_BYTES = 1_000_000


def load(path: str | Path) -> HandFile:
    """Read and parse one hand file.

    :raises HandFileError: for unreadable files, bad YAML or schema problems.
    """
    p = str(path)
    start = SourceLocation(p, 1, 1)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe or a device could be read for ever
            raise HandFileError("not a regular file", start)
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as err:
        raise HandFileError(f"cannot read file: {err.strerror or err}", start) from err
    return load_bytes(data, p)


def load_bytes(data: bytes, path: str) -> HandFile:
    """Parse a hand file's bytes as read (the build keys a lesson by them, so it
    reads a file once); ``path`` is used only in locations.

    :raises HandFileError: for a file over :data:`MAX_BYTES`, text that is not
        UTF-8, bad YAML or schema problems.
    """
    if len(data) > MAX_BYTES:
        raise HandFileError(f"the file is larger than {MAX_BYTES / 1e6:g} MB, which no hand file needs",
                            SourceLocation(path, 1, 1))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise HandFileError(f"not UTF-8 text: byte 0x{data[err.start]:02x} ({err.reason}); save the file as UTF-8",
                            SourceLocation.of_byte(path, data, err.start)) from None
    return loads(text.replace("\r\n", "\n").replace("\r", "\n"), path)  # line ends as a file read as text has them


def loads(text: str, path: str = "<string>") -> HandFile:
    """Parse hand-file text; ``path`` is used only in locations.

    :raises HandFileError: with ``problems`` listing every schema problem.
    """
    if len(text) > MAX_BYTES:
        raise HandFileError(f"the text is longer than {MAX_BYTES / 1e6:g} MB, which no hand file needs",
                            SourceLocation(path, 1, 1))
    root = compose(text, path)
    problems = Problems(path)
    if root is None:
        raise SchemaError("the file is empty (expected a hand: title, deal, tricks...)", SourceLocation(path, 1, 1))
    hf = _convert(root, path, problems)
    if problems.items:
        first = problems.items[0]
        raise HandFileError(first.message, first.loc, problems.listed())
    assert hf is not None
    return hf


def problems_of(err: WhistbookError) -> list[WhistbookError]:
    """Every problem carried by an error from :func:`loads` (itself if just one)."""
    return list(err.problems) if isinstance(err, HandFileError) else [err]


# --- the document ---------------------------------------------------------------------------


def _convert(root: yaml.Node, path: str, problems: Problems) -> HandFile | None:
    top = read_mapping(root, path, problems, "the hand file", _TOP_KEYS)
    if top is None:
        return None
    key_locs = {k: node_loc(path, kn) for k, (kn, _) in top.items()}

    def get(key: str) -> yaml.Node | None:
        return top[key][1] if key in top else None

    def text_of(key: str) -> str | None:
        node = get(key)
        return read_text(node, path, problems, key) if node is not None else None

    kind = "hand"
    if get("kind") is not None:
        kind = text_of("kind") or "hand"
        if kind not in KINDS:
            problems.add(f"kind must be 'hand' or 'problem', not {kind!r}", key_locs["kind"])
            kind = "hand"

    title = text_of("title")
    if title is None and "title" not in top:
        problems.add("missing key 'title'", node_loc(path, root))
    theme = text_of("theme")
    source = text_of("source")
    notes = text_of("notes")

    tags: list[str] = []
    if get("tags") is not None:
        node = get("tags")
        if isinstance(node, yaml.SequenceNode):
            for item in node.value:
                t = read_text(item, path, problems, "each tag")
                if t:
                    tags.append(t)
        else:
            problems.add("tags must be a list, e.g. [leads, trumps]", node_loc(path, node))

    rules = "short"
    if get("rules") is not None:
        r = text_of("rules")
        if r is not None:
            r = r.strip().lower()
            if r not in RULES:
                problems.add(f"rules must be 'short' or 'long', not {r!r}", key_locs["rules"])
            else:
                rules = r

    known = read_with(Seat.parse, get("known_hand"), path, problems, "known_hand") if get("known_hand") is not None else None

    # Seats: Z deals and A leads unless the file says otherwise.
    dealer: Seat | None = None
    leader: Seat | None = None
    if get("dealer") is not None:
        dealer = read_with(Seat.parse, get("dealer"), path, problems, "dealer")
    if get("leader") is not None:
        leader = read_with(Seat.parse, get("leader"), path, problems, "leader")
    if kind == "hand":
        if dealer is None and get("dealer") is None:
            dealer = Seat.Z
        if leader is None and get("leader") is None and dealer is not None:
            leader = dealer.lho
        if dealer is not None and leader is not None and leader != dealer.lho:
            problems.add(
                f"the first lead belongs to the dealer's left-hand player: {dealer} deals, so {dealer.lho} leads, not {leader}",
                key_locs.get("leader", node_loc(path, root)),
            )
    elif leader is None and get("leader") is None:
        problems.add("a problem must say who leads (leader: A)", node_loc(path, root))

    score = None
    if get("score") is not None:
        score = read_score(get("score"), path, problems, 10 if rules == "long" else 5)

    turn_up = None
    if get("turn_up") is not None:
        turn_up = read_card(get("turn_up"), path, problems, "turn_up")
    trumps: Suit | None = None
    if get("trumps") is not None:
        trumps = read_with(Suit.parse, get("trumps"), path, problems, "trumps")
    if turn_up is not None:
        if trumps is not None and trumps != turn_up.card.suit:
            problems.add(f"trumps are set by the turn-up {turn_up.card}: {turn_up.card.suit.plural}, not {trumps.plural}", key_locs["trumps"])
        trumps = turn_up.card.suit
    if kind == "hand" and "turn_up" not in top:
        problems.add("missing key 'turn_up' (the dealer's last card, which sets trumps)", node_loc(path, root))
    if kind == "problem" and trumps is None and "trumps" not in top and "turn_up" not in top:
        problems.add("a problem must name trumps (trumps: H)", node_loc(path, root))

    deal: dict[Seat, list[CardRef]] = {}
    rest: Seat | None = None
    if get("deal") is None:
        if "deal" not in top:
            problems.add("missing key 'deal' (the four hands A, Y, B, Z)", node_loc(path, root))
        else:
            problems.add("deal must list the four hands A, Y, B, Z", key_locs["deal"])
    else:
        deal, rest = _deal(get("deal"), path, problems, kind)

    tricks: list[TrickRecord] = []
    if get("tricks") is not None:
        tricks = _tricks(get("tricks"), path, problems)
    elif kind == "hand" and "tricks" not in top:
        problems.add("missing key 'tricks'", node_loc(path, root))

    ending = read_ending(get("ending"), path, problems) if get("ending") is not None else None
    result = read_result(get("result"), path, problems) if get("result") is not None else None
    errata = read_errata(get("errata"), path, problems) if get("errata") is not None else []
    task = read_task(get("task"), path, problems) if get("task") is not None else None
    solutions = read_solutions(get("solutions"), path, problems) if get("solutions") is not None else []
    honours_call = read_honours_call(get("honours_call"), path, problems) if get("honours_call") is not None else None
    if honours_call is not None and rules != "long":
        problems.add("honours_call belongs to long whist (rules: long): short whist has no calling", key_locs["honours_call"])
    if kind == "hand":
        for key in ("task", "solutions"):
            if key in top:
                problems.add(f"{key!r} belongs to problems (kind: problem)", key_locs[key])
    else:
        for key in ("turn_up", "dealer", "score"):
            if key in top:
                problems.add(f"{key!r} belongs to hands: a problem has a position, trumps and a leader", key_locs[key])

    if problems.items:
        return None
    assert trumps is not None and leader is not None
    return HandFile(
        path=path, kind=kind, title=title or "", theme=theme, source=source, tags=tags,
        rules=rules, known_hand=known, dealer=dealer, leader=leader, score=score,
        turn_up=turn_up, trumps=trumps, deal=deal, tricks=tricks, ending=ending,
        result=result, errata=errata, task=task, solutions=solutions, notes=notes,
        honours_call=honours_call, key_locs=key_locs, rest=rest,
    )


#: the word for the fourth hand: the cards the other three do not hold
REST = "rest"


def _deal(node: yaml.Node, path: str, problems: Problems, kind: str) -> tuple[dict[Seat, list[CardRef]], Seat | None]:
    """The hands as written, and the seat whose hand is the rest of the pack (written
    ``rest``, or left out when the other three are given), if any."""
    m = read_mapping(node, path, problems, "deal", {s.name for s in SEATS} | {"N", "E", "S", "W"})
    out: dict[Seat, list[CardRef]] = {}
    if m is None:
        return out, None
    rest: dict[Seat, yaml.Node] = {}
    for key, (knode, vnode) in m.items():
        seat = Seat.parse(key)
        if seat in out or seat in rest:
            problems.add(f"deal: {seat} is given twice", node_loc(path, knode))
            continue
        if isinstance(vnode, yaml.ScalarNode) and vnode.value.strip().lower() == REST:
            rest[seat] = vnode
            continue
        hand = _hand(vnode, path, problems, seat)
        if hand is not None:
            out[seat] = hand
    if kind == "problem":
        for vnode in rest.values():
            problems.add("deal: a problem's position writes every hand ('rest' is the rest of a whole pack)",
                         node_loc(path, vnode))
        return out, None
    if len(rest) > 1:
        problems.add(f"deal: only one hand may be 'rest' (the cards the other three do not hold), not "
                     f"{' and '.join(str(s) for s in rest)}", node_loc(path, list(rest.values())[1]))
        return out, None
    written = {Seat.parse(k) for k in m}  # a hand with a fault is written, but not in ``out``
    if rest and len(out) == 3 or not rest and len(out) == 3 and len(written) == 3:
        seat = next(iter(rest)) if rest else next(s for s in SEATS if s not in written)
        loc = node_loc(path, rest[seat]) if rest else node_loc(path, node)
        held = {r.card for refs in out.values() for r in refs}
        out[seat] = [CardRef(c, loc) for c in DECK if c not in held]
        return out, seat
    return out, None


def _hand(node: yaml.Node, path: str, problems: Problems, seat: Seat) -> list[CardRef] | None:
    out: list[CardRef] = []
    if isinstance(node, yaml.ScalarNode):
        try:
            parts = tokenize_hand(node.value)
        except InvalidCardError as err:
            problems.add_error(err, offset_loc(path, node, err.offset))
            return None
        seen_suits: set[Suit] = set()
        for suit, ranks in parts:
            if suit in seen_suits:
                problems.add(f"{seat}'s hand names {suit.plural} twice", node_loc(path, node))
            seen_suits.add(suit)
            out.extend(CardRef(Card(suit, r), offset_loc(path, node, o)) for r, o in ranks)
        return out
    m = read_mapping(node, path, problems, f"{seat}'s hand", {"S", "H", "D", "C", "♠", "♥", "♦", "♣", "♤", "♡", "♢", "♧"})
    if m is None:
        return None
    seen: set[Suit] = set()
    for key, (knode, vnode) in m.items():
        suit = Suit.parse(key)
        if suit in seen:
            problems.add(f"{seat}'s hand names {suit.plural} twice", node_loc(path, knode))
            continue
        seen.add(suit)
        if not isinstance(vnode, yaml.ScalarNode):
            problems.add(f"{seat}'s {suit.plural} must be ranks such as 'Q T 5 3'", node_loc(path, vnode))
            continue
        value = "" if vnode.tag == "tag:yaml.org,2002:null" else str(vnode.value)
        try:
            ranks = tokenize_holding(value)
        except InvalidCardError as err:
            problems.add_error(err, offset_loc(path, vnode, err.offset))
            continue
        out.extend(CardRef(Card(suit, r), offset_loc(path, vnode, o)) for r, o in ranks)
    return out


def _tally(node: yaml.Node, path: str, problems: Problems) -> dict[Side, int] | None:
    if isinstance(node, yaml.ScalarNode):
        m = re.fullmatch(r"\s*(\d{1,6})\s*[-–:]\s*(\d{1,6})\s*", node.value)
        if m:
            return {Side.AB: int(m.group(1)), Side.YZ: int(m.group(2))}
        problems.add("tally must be {AB: n, YZ: m} or 'n-m' (AB first)", node_loc(path, node))
        return None
    m2 = read_mapping(node, path, problems, "tally", {"AB", "YZ"})
    if m2 is None:
        return None
    out = {}
    for side in Side:
        if side.name not in m2:
            problems.add(f"tally: missing {side.name}", node_loc(path, node))
            return None
        n = read_int(m2[side.name][1], path, problems, f"tally for {side.name}", 0, 13)
        if n is None:
            return None
        out[side] = n
    return out


def _tricks(node: yaml.Node, path: str, problems: Problems) -> list[TrickRecord]:
    if not isinstance(node, yaml.SequenceNode):
        problems.add("tricks must be a list, one entry a trick", node_loc(path, node))
        return []
    out: list[TrickRecord] = []
    for i, item in enumerate(node.value):
        loc = node_loc(path, item)
        if isinstance(item, (yaml.ScalarNode, yaml.SequenceNode)):
            plays = read_cards(item, path, problems, f"trick {i + 1}")
            if plays is not None:
                out.append(TrickRecord(i, plays, loc))
            continue
        m = read_mapping(item, path, problems, f"trick {i + 1}", _TRICK_KEYS)
        if m is None:
            continue
        if "cards" not in m:
            problems.add(f"trick {i + 1}: missing key 'cards'", loc)
            continue
        plays = read_cards(m["cards"][1], path, problems, f"trick {i + 1}")
        if plays is None:
            continue
        rec = TrickRecord(i, plays, loc)
        if "shown" in m:
            shown = read_bool(m["shown"][1], path, problems, f"trick {i + 1}: shown")
            rec.shown = True if shown is None else shown
        if "tally" in m:
            t = _tally(m["tally"][1], path, problems)
            if t is not None:
                rec.tally = Stated(t, node_loc(path, m["tally"][1]))
        for key in ("leader", "winner"):
            if key in m:
                s = read_with(Seat.parse, m[key][1], path, problems, f"trick {i + 1}: {key}")
                if s is not None:
                    setattr(rec, key, Stated(s, node_loc(path, m[key][1])))
        if "remark" in m:
            rec.remark = read_text(m["remark"][1], path, problems, f"trick {i + 1}: remark")
            rec.remark_loc = node_loc(path, m["remark"][1])
        if "remark_draft" in m:
            rec.remark_draft = read_text(m["remark_draft"][1], path, problems, f"trick {i + 1}: remark_draft")
            rec.remark_draft_loc = node_loc(path, m["remark_draft"][0])
        if "note" in m:
            rec.note = read_text(m["note"][1], path, problems, f"trick {i + 1}: note")
        if "infer" in m:
            inode = m["infer"][1]
            items = inode.value if isinstance(inode, yaml.SequenceNode) else [inode]
            for it in items:
                t = read_text(it, path, problems, f"trick {i + 1}: infer")
                if t is not None:
                    rec.infer.append(Stated(t, node_loc(path, it)))
        read_irregularities(m, rec, path, problems)
        out.append(rec)
    return out
