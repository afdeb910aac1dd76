"""Load hand files (YAML) into :class:`~whistbook.model.HandFile` records.

The document is composed into PyYAML nodes rather than loaded into plain
values, so that every scalar keeps its line and column; a card inside a
string such as ``2D 4D QD AD`` is located to its own column. Schema problems
are collected and raised together as one :class:`HandFileError` whose
``problems`` list holds each located error.

The format is documented in ``docs/format.md`` and described for editors by
``whistbook/schema/hand.schema.json``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import yaml

from .cards import Card, Suit, parse_number_word, tokenize_hand, tokenize_holding
from .errors import (
    HandFileError,
    InvalidCardError,
    SchemaError,
    SourceLocation,
    WhistbookError,
    YamlSyntaxError,
)
from .model import (
    CardRef,
    Ending,
    EXPOSURES,
    Call,
    Erratum,
    Exposure,
    HandFile,
    HonoursCall,
    LeadOutOfTurn,
    Revoke,
    Solution,
    Stated,
    StatedResult,
    Task,
    TrickRecord,
)
from .seats import SEATS, Seat, Side

RULES = ("short", "long")
KINDS = ("hand", "problem")

_TOP_KEYS = {
    "kind", "title", "theme", "source", "tags", "rules", "known_hand", "dealer", "leader",
    "score", "turn_up", "trumps", "deal", "tricks", "ending", "result", "errata", "notes",
    "task", "solutions", "honours_call",
}
_TRICK_KEYS = {
    "cards", "shown", "tally", "leader", "winner", "remark", "note", "infer",
    "revoke", "exposed", "out_of_turn", "call",
}
_REVOKE_KEYS = {"card", "penalty", "corrected"}
_EXPOSED_KEYS = {"cards", "how"}
_OUT_OF_TURN_KEYS = {"card", "penalty", "stands"}
_CALL_KEYS = {"card", "seat", "play", "suit"}
_HONOURS_CALL_KEYS = {"by", "answer"}
#: the penalties an author may record (Laws 72, 76, 62); the laws decide which fits where
_PENALTY_WORDS = ("tricks", "add", "deduct", "exposed", "highest", "lowest", "suit", "none")
_ENDING_KEYS = {"account", "note", "claim"}
_ERRATUM_KEYS = {"trick", "printed", "used", "reason"}
_RESULT_KEYS = {"side", "by_cards", "honours", "game"}
_TASK_KEYS = {"side", "tricks", "text"}
_SOLUTION_KEYS = {"title", "plays", "account"}


class _Problems:
    """Collects schema problems so that one load reports all of them."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.items: list[WhistbookError] = []

    def add(self, message: str, loc: SourceLocation) -> None:
        self.items.append(SchemaError(message, loc))

    def add_error(self, err: WhistbookError, loc: SourceLocation) -> None:
        self.items.append(err.at(loc))


class _Loader(yaml.SafeLoader):
    """SafeLoader subclass, so the global loader is never changed."""


def _loc(path: str, node: yaml.Node) -> SourceLocation:
    return SourceLocation(path, node.start_mark.line + 1, node.start_mark.column + 1)


def _scalar_base(path: str, node: yaml.ScalarNode) -> tuple[SourceLocation, bool]:
    """Where a scalar's text starts, and whether offsets within it map to columns."""
    loc = _loc(path, node)
    style = node.style
    if style in ("'", '"'):
        return loc.shifted(1), "\n" not in node.value
    if style in ("|", ">"):
        return SourceLocation(path, loc.line + 1, loc.column), False
    single_line = node.start_mark.line == node.end_mark.line
    return loc, single_line


def _offset_loc(path: str, node: yaml.ScalarNode, offset: int) -> SourceLocation:
    base, exact = _scalar_base(path, node)
    return base.shifted(offset) if exact else base


#: libyaml's loader, where PyYAML was built with it: the same tree several times quicker
_FAST_LOADER: type | None = getattr(yaml, "CSafeLoader", None)
#: characters that the two loaders count or accept differently: text with any goes to the pure loader
_UNLIKE = ("\t", "\ufeff", "\x85", "\u2028", "\u2029")
#: a block scalar's header with a comment straight after it: libyaml takes it, the pure loader refuses it
_HEADER_COMMENT = re.compile(r"[|>][-+0-9]{0,2}#")
#: :func:`_compose_fast` could not vouch for its tree
_UNSURE = object()


def compose(text: str, path: str) -> yaml.Node | None:
    """The document's node tree, with the pure-Python loader's marks, styles and messages."""
    root = _compose_fast(text)
    if root is not _UNSURE:
        return root  # type: ignore[return-value]
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        loc = SourceLocation(path, mark.line + 1, mark.column + 1) if mark else SourceLocation(path, 1, 1)
        problem = err.problem or "not valid YAML"
        raise YamlSyntaxError(f"YAML syntax: {problem}", loc) from err
    except yaml.YAMLError as err:
        raise YamlSyntaxError(f"YAML syntax: {err}", SourceLocation(path, 1, 1)) from err


def _compose_fast(text: str) -> Any:
    """The tree libyaml composes, made the same as the pure loader's (every
    node's tag, value, style and start and end marks), or ``_UNSURE``.

    On any error the pure loader composes again, so that messages and their
    locations are its own. Where libyaml is known to differ, the text goes to
    the pure loader too: tabs, which libyaml lets through in places the pure
    loader refuses; a byte-order mark, which libyaml counts as a column; line
    breaks other than ``\\n`` and ``\\r``; a comment straight after a block
    scalar's ``|`` or ``>``; a ``?`` or ``:`` within a plain scalar inside
    ``[...]`` or ``{...}``, which ends the scalar for the pure loader only;
    and tags and anchors. The rest is mended in :func:`_as_pure`."""
    if _FAST_LOADER is None or any(c in text for c in _UNLIKE) or _HEADER_COMMENT.search(text):
        return _UNSURE
    try:
        root = yaml.compose(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        return _UNSURE
    if root is not None and not _as_pure(root, text):
        return _UNSURE
    return root


def _as_pure(root: yaml.Node, text: str) -> bool:
    """Mend libyaml's tree in place to the pure loader's: plain scalars have
    style None, not ``''``; so has a block sequence written level with its
    mapping's keys, not False; and libyaml ends a text without a final line
    break on a line of its own, where the pure loader's marks at the very end
    stay after the last character. False for a tree the pure loader might not
    have made (see :func:`_compose_fast`)."""
    end = None
    if text and text[-1] not in "\n\r":
        lines = text.count("\n") + text.count("\r") - text.count("\r\n")
        end = yaml.Mark("<unicode string>", len(text), lines, len(text) - 1 - max(text.rfind("\n"), text.rfind("\r")),
                        None, None)
    seen: set[int] = set()
    todo: list[tuple[yaml.Node, bool]] = [(root, False)]
    while todo:
        node, in_flow = todo.pop()
        if id(node) in seen:
            continue  # an alias: the same node again
        seen.add(id(node))
        if text[node.start_mark.index:node.start_mark.index + 1] in ("!", "&"):
            return False  # a tag or an anchor, which the two resolve and check differently
        if isinstance(node, yaml.ScalarNode):
            if node.style == "":
                if in_flow and ("?" in node.value or ":" in node.value):
                    return False
                at = node.start_mark.index
                if in_flow and at == node.end_mark.index and (at == 0 or text[at - 1] in " \t\r\n:?,"):
                    return False  # an empty value in [...] or {...}: libyaml marks it at the next token
                node.style = None
        elif isinstance(node, yaml.SequenceNode):
            todo.extend((kid, in_flow or node.flow_style) for kid in node.value)
        else:
            flow = in_flow or node.flow_style
            for kid in (n for kv in node.value for n in kv):
                if (not flow and isinstance(kid, yaml.SequenceNode) and kid.flow_style is False
                        and kid.start_mark.column == node.start_mark.column):
                    kid.flow_style = None  # a sequence not indented under its key: the pure loader gives it no style
                todo.append((kid, flow))
        if end is not None:
            if node.start_mark.index == end.index:
                node.start_mark = end
            if node.end_mark.index == end.index:
                node.end_mark = end
    return True


def load(path: str | Path) -> HandFile:
    """Read and parse one hand file.

    :raises HandFileError: for unreadable files, bad YAML or schema problems.
    """
    p = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise HandFileError(f"not UTF-8 text ({err.reason})", SourceLocation(p, 1, 1)) from err
    except OSError as err:
        raise HandFileError(f"cannot read file: {err.strerror}", SourceLocation(p, 1, 1)) from err
    return loads(text, p)


def loads(text: str, path: str = "<string>") -> HandFile:
    """Parse hand-file text; ``path`` is used only in locations.

    :raises HandFileError: with ``problems`` listing every schema problem.
    """
    root = compose(text, path)
    problems = _Problems(path)
    if root is None:
        raise SchemaError("the file is empty (expected a hand: title, deal, tricks...)", SourceLocation(path, 1, 1))
    hf = _convert(root, path, problems)
    if problems.items:
        first = problems.items[0]
        err = HandFileError(first.message, first.loc)
        err.problems = problems.items  # type: ignore[attr-defined]
        raise err
    assert hf is not None
    return hf


def problems_of(err: WhistbookError) -> list[WhistbookError]:
    """Every problem carried by an error from :func:`loads` (itself if just one)."""
    return list(getattr(err, "problems", [err]))


# --- node helpers -------------------------------------------------------------------------


def _mapping(node: yaml.Node, path: str, problems: _Problems, what: str, allowed: set[str]) -> dict[str, tuple[yaml.Node, yaml.Node]] | None:
    if not isinstance(node, yaml.MappingNode):
        problems.add(f"{what} must be a mapping of keys to values", _loc(path, node))
        return None
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for knode, vnode in node.value:
        key = knode.value if isinstance(knode, yaml.ScalarNode) else None
        if not isinstance(key, str):
            problems.add(f"{what}: keys must be plain words", _loc(path, knode))
            continue
        if key in out:
            problems.add(f"{what}: key {key!r} appears twice", _loc(path, knode))
            continue
        if key not in allowed:
            hint = _closest(key, allowed)
            problems.add(
                f"{what}: unknown key {key!r}" + (f" (did you mean {hint!r}?)" if hint else f" (expected one of: {', '.join(sorted(allowed))})"),
                _loc(path, knode),
            )
            continue
        out[key] = (knode, vnode)
    return out


def _closest(word: str, options: set[str]) -> str | None:
    import difflib

    found = difflib.get_close_matches(word, sorted(options), n=1, cutoff=0.6)
    return found[0] if found else None


def _text(node: yaml.Node, path: str, problems: _Problems, what: str) -> str | None:
    if isinstance(node, yaml.ScalarNode) and node.tag != "tag:yaml.org,2002:null":
        return str(node.value)
    problems.add(f"{what} must be text", _loc(path, node))
    return None


def _int(node: yaml.Node, path: str, problems: _Problems, what: str, lo: int, hi: int) -> int | None:
    if isinstance(node, yaml.ScalarNode):
        v = node.value.strip().lower()
        if v in ("love", "nil", "none"):
            return 0
        if re.fullmatch(r"\d+", v):
            n = int(v)
            if lo <= n <= hi:
                return n
            problems.add(f"{what} must be from {lo} to {hi}, not {n}", _loc(path, node))
            return None
        n = parse_number_word(v)
        if n is not None and v != "no":
            return n
    problems.add(f"{what} must be a whole number", _loc(path, node))
    return None


def _bool(node: yaml.Node, path: str, problems: _Problems, what: str) -> bool | None:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool":
        return node.value.lower() in ("true", "yes", "on")
    if isinstance(node, yaml.ScalarNode) and node.value.lower() in ("true", "false", "yes", "no"):
        return node.value.lower() in ("true", "yes")
    problems.add(f"{what} must be true or false", _loc(path, node))
    return None


def _parse_with(fn: Callable[[str], Any], node: yaml.Node, path: str, problems: _Problems, what: str) -> Any:
    text = _text(node, path, problems, what)
    if text is None:
        return None
    try:
        return fn(text)
    except WhistbookError as err:
        problems.add_error(err, _loc(path, node))
        return None




# --- the document ---------------------------------------------------------------------------


def _convert(root: yaml.Node, path: str, problems: _Problems) -> HandFile | None:
    top = _mapping(root, path, problems, "the hand file", _TOP_KEYS)
    if top is None:
        return None
    key_locs = {k: _loc(path, kn) for k, (kn, _) in top.items()}

    def get(key: str) -> yaml.Node | None:
        return top[key][1] if key in top else None

    def text_of(key: str) -> str | None:
        node = get(key)
        return _text(node, path, problems, key) if node is not None else None

    kind = "hand"
    if get("kind") is not None:
        kind = text_of("kind") or "hand"
        if kind not in KINDS:
            problems.add(f"kind must be 'hand' or 'problem', not {kind!r}", key_locs["kind"])
            kind = "hand"

    title = text_of("title")
    if title is None and "title" not in top:
        problems.add("missing key 'title'", _loc(path, root))
    theme = text_of("theme")
    source = text_of("source")
    notes = text_of("notes")

    tags: list[str] = []
    if get("tags") is not None:
        node = get("tags")
        if isinstance(node, yaml.SequenceNode):
            for item in node.value:
                t = _text(item, path, problems, "each tag")
                if t:
                    tags.append(t)
        else:
            problems.add("tags must be a list, e.g. [leads, trumps]", _loc(path, node))

    rules = "short"
    if get("rules") is not None:
        r = text_of("rules")
        if r is not None:
            r = r.strip().lower()
            if r not in RULES:
                problems.add(f"rules must be 'short' or 'long', not {r!r}", key_locs["rules"])
            else:
                rules = r

    known = _parse_with(Seat.parse, get("known_hand"), path, problems, "known_hand") if get("known_hand") is not None else None

    # Seats: Z deals and A leads unless the file says otherwise.
    dealer: Seat | None = None
    leader: Seat | None = None
    if get("dealer") is not None:
        dealer = _parse_with(Seat.parse, get("dealer"), path, problems, "dealer")
    if get("leader") is not None:
        leader = _parse_with(Seat.parse, get("leader"), path, problems, "leader")
    if kind == "hand":
        if dealer is None and get("dealer") is None:
            dealer = Seat.Z
        if leader is None and get("leader") is None and dealer is not None:
            leader = dealer.lho
        if dealer is not None and leader is not None and leader != dealer.lho:
            problems.add(
                f"the first lead belongs to the dealer's left-hand player: {dealer} deals, so {dealer.lho} leads, not {leader}",
                key_locs.get("leader", _loc(path, root)),
            )
    elif leader is None and get("leader") is None:
        problems.add("a problem must say who leads (leader: A)", _loc(path, root))

    score = None
    if get("score") is not None:
        score = _score(get("score"), path, problems, 10 if rules == "long" else 5)

    turn_up = None
    if get("turn_up") is not None:
        turn_up = _card_scalar(get("turn_up"), path, problems, "turn_up")
    trumps: Suit | None = None
    if get("trumps") is not None:
        trumps = _parse_with(Suit.parse, get("trumps"), path, problems, "trumps")
    if turn_up is not None:
        if trumps is not None and trumps != turn_up.card.suit:
            problems.add(f"trumps are set by the turn-up {turn_up.card}: {turn_up.card.suit.plural}, not {trumps.plural}", key_locs["trumps"])
        trumps = turn_up.card.suit
    if kind == "hand" and "turn_up" not in top:
        problems.add("missing key 'turn_up' (the dealer's last card, which sets trumps)", _loc(path, root))
    if kind == "problem" and trumps is None and "trumps" not in top and "turn_up" not in top:
        problems.add("a problem must name trumps (trumps: H)", _loc(path, root))

    deal: dict[Seat, list[CardRef]] = {}
    if get("deal") is None:
        if "deal" not in top:
            problems.add("missing key 'deal' (the four hands A, Y, B, Z)", _loc(path, root))
        else:
            problems.add("deal must list the four hands A, Y, B, Z", key_locs["deal"])
    else:
        deal = _deal(get("deal"), path, problems)

    tricks: list[TrickRecord] = []
    if get("tricks") is not None:
        tricks = _tricks(get("tricks"), path, problems)
    elif kind == "hand" and "tricks" not in top:
        problems.add("missing key 'tricks'", _loc(path, root))

    ending = _ending(get("ending"), path, problems) if get("ending") is not None else None
    result = _result(get("result"), path, problems) if get("result") is not None else None
    errata = _errata(get("errata"), path, problems) if get("errata") is not None else []
    task = _task(get("task"), path, problems) if get("task") is not None else None
    solutions = _solutions(get("solutions"), path, problems) if get("solutions") is not None else []
    honours_call = _honours_call(get("honours_call"), path, problems) if get("honours_call") is not None else None
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
        honours_call=honours_call, key_locs=key_locs,
    )


def _score(node: yaml.Node, path: str, problems: _Problems, game: int) -> dict[Side, int] | None:
    if isinstance(node, yaml.ScalarNode):
        v = node.value.strip().lower().replace("_", "-")
        if v in ("love-all", "love all", "0-0"):
            return {Side.AB: 0, Side.YZ: 0}
        m = re.fullmatch(r"ab\s*,?\s*(\w+)\s*[;,]\s*yz\s*,?\s*(\w+)", v)
        if m:
            vals = [int(x) if x.isdigit() else (0 if x == "love" else _word_or(x, -1)) for x in m.groups()]
            if all(0 <= x < game for x in vals):
                return {Side.AB: vals[0], Side.YZ: vals[1]}
        problems.add(f"score must be 'love-all' or a mapping such as {{AB: 2, YZ: 0}}, each below {game}", _loc(path, node))
        return None
    m = _mapping(node, path, problems, "score", {"AB", "YZ"})
    if m is None:
        return None
    out: dict[Side, int] = {}
    for side in Side:
        if side.name not in m:
            problems.add(f"score: missing {side.name}", _loc(path, node))
            continue
        n = _int(m[side.name][1], path, problems, f"score for {side.name}", 0, game - 1)
        if n is not None:
            out[side] = n
    return out if len(out) == 2 else None


def _card_scalar(node: yaml.Node, path: str, problems: _Problems, what: str) -> CardRef | None:
    if not isinstance(node, yaml.ScalarNode):
        problems.add(f"{what} must be one card, e.g. 2S", _loc(path, node))
        return None
    try:
        return CardRef(Card.parse(node.value), _offset_loc(path, node, 0))
    except InvalidCardError as err:
        problems.add_error(err, _loc(path, node))
        return None


def _card_list(node: yaml.Node, path: str, problems: _Problems, what: str) -> list[CardRef] | None:
    """Cards in a YAML list (``[2D, 4D]``) or one string (``2D 4D QD AD``)."""
    out: list[CardRef] = []
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            ref = _card_scalar(item, path, problems, f"each card of {what}")
            if ref is None:
                return None
            out.append(ref)
        return out
    if isinstance(node, yaml.ScalarNode):
        # Split on spaces and commas, but keep a suit-first card such as "♠ Q" whole.
        for m in re.finditer(r"[^\s,]+", node.value):
            token = m.group(0)
            try:
                out.append(CardRef(Card.parse(token), _offset_loc(path, node, m.start())))
            except InvalidCardError as err:
                problems.add_error(err, _offset_loc(path, node, m.start()))
                return None
        return out
    problems.add(f"{what} must be cards in play order, e.g. '2D 4D QD AD'", _loc(path, node))
    return None


def _deal(node: yaml.Node, path: str, problems: _Problems) -> dict[Seat, list[CardRef]]:
    m = _mapping(node, path, problems, "deal", {s.name for s in SEATS} | {"N", "E", "S", "W"})
    out: dict[Seat, list[CardRef]] = {}
    if m is None:
        return out
    for key, (knode, vnode) in m.items():
        seat = Seat.parse(key)
        if seat in out:
            problems.add(f"deal: {seat} is given twice", _loc(path, knode))
            continue
        hand = _hand(vnode, path, problems, seat)
        if hand is not None:
            out[seat] = hand
    return out


def _hand(node: yaml.Node, path: str, problems: _Problems, seat: Seat) -> list[CardRef] | None:
    out: list[CardRef] = []
    if isinstance(node, yaml.ScalarNode):
        try:
            parts = tokenize_hand(node.value)
        except InvalidCardError as err:
            problems.add_error(err, _offset_loc(path, node, getattr(err, "offset", 0)))
            return None
        seen_suits: set[Suit] = set()
        for suit, ranks in parts:
            if suit in seen_suits:
                problems.add(f"{seat}'s hand names {suit.plural} twice", _loc(path, node))
            seen_suits.add(suit)
            out.extend(CardRef(Card(suit, r), _offset_loc(path, node, o)) for r, o in ranks)
        return out
    m = _mapping(node, path, problems, f"{seat}'s hand", {"S", "H", "D", "C", "♠", "♥", "♦", "♣", "♤", "♡", "♢", "♧"})
    if m is None:
        return None
    seen: set[Suit] = set()
    for key, (knode, vnode) in m.items():
        suit = Suit.parse(key)
        if suit in seen:
            problems.add(f"{seat}'s hand names {suit.plural} twice", _loc(path, knode))
            continue
        seen.add(suit)
        if not isinstance(vnode, yaml.ScalarNode):
            problems.add(f"{seat}'s {suit.plural} must be ranks such as 'Q T 5 3'", _loc(path, vnode))
            continue
        value = "" if vnode.tag == "tag:yaml.org,2002:null" else str(vnode.value)
        try:
            ranks = tokenize_holding(value)
        except InvalidCardError as err:
            problems.add_error(err, _offset_loc(path, vnode, getattr(err, "offset", 0)))
            continue
        out.extend(CardRef(Card(suit, r), _offset_loc(path, vnode, o)) for r, o in ranks)
    return out


def _tally(node: yaml.Node, path: str, problems: _Problems) -> dict[Side, int] | None:
    if isinstance(node, yaml.ScalarNode):
        m = re.fullmatch(r"\s*(\d+)\s*[-–:]\s*(\d+)\s*", node.value)
        if m:
            return {Side.AB: int(m.group(1)), Side.YZ: int(m.group(2))}
        problems.add("tally must be {AB: n, YZ: m} or 'n-m' (AB first)", _loc(path, node))
        return None
    m2 = _mapping(node, path, problems, "tally", {"AB", "YZ"})
    if m2 is None:
        return None
    out = {}
    for side in Side:
        if side.name not in m2:
            problems.add(f"tally: missing {side.name}", _loc(path, node))
            return None
        n = _int(m2[side.name][1], path, problems, f"tally for {side.name}", 0, 13)
        if n is None:
            return None
        out[side] = n
    return out


def _tricks(node: yaml.Node, path: str, problems: _Problems) -> list[TrickRecord]:
    if not isinstance(node, yaml.SequenceNode):
        problems.add("tricks must be a list, one entry a trick", _loc(path, node))
        return []
    out: list[TrickRecord] = []
    for i, item in enumerate(node.value):
        loc = _loc(path, item)
        if isinstance(item, (yaml.ScalarNode, yaml.SequenceNode)):
            plays = _card_list(item, path, problems, f"trick {i + 1}")
            if plays is not None:
                out.append(TrickRecord(i, plays, loc))
            continue
        m = _mapping(item, path, problems, f"trick {i + 1}", _TRICK_KEYS)
        if m is None:
            continue
        if "cards" not in m:
            problems.add(f"trick {i + 1}: missing key 'cards'", loc)
            continue
        plays = _card_list(m["cards"][1], path, problems, f"trick {i + 1}")
        if plays is None:
            continue
        rec = TrickRecord(i, plays, loc)
        if "shown" in m:
            shown = _bool(m["shown"][1], path, problems, f"trick {i + 1}: shown")
            rec.shown = True if shown is None else shown
        if "tally" in m:
            t = _tally(m["tally"][1], path, problems)
            if t is not None:
                rec.tally = Stated(t, _loc(path, m["tally"][1]))
        for key in ("leader", "winner"):
            if key in m:
                s = _parse_with(Seat.parse, m[key][1], path, problems, f"trick {i + 1}: {key}")
                if s is not None:
                    setattr(rec, key, Stated(s, _loc(path, m[key][1])))
        if "remark" in m:
            rec.remark = _text(m["remark"][1], path, problems, f"trick {i + 1}: remark")
            rec.remark_loc = _loc(path, m["remark"][1])
        if "note" in m:
            rec.note = _text(m["note"][1], path, problems, f"trick {i + 1}: note")
        if "infer" in m:
            inode = m["infer"][1]
            items = inode.value if isinstance(inode, yaml.SequenceNode) else [inode]
            for it in items:
                t = _text(it, path, problems, f"trick {i + 1}: infer")
                if t is not None:
                    rec.infer.append(Stated(t, _loc(path, it)))
        _irregularities(m, rec, path, problems)
        out.append(rec)
    return out


# --- irregularities -------------------------------------------------------------------------


def _items(node: yaml.Node) -> list[yaml.Node]:
    """A key that takes one entry or a list of them."""
    return list(node.value) if isinstance(node, yaml.SequenceNode) else [node]


def _penalty(node: yaml.Node, path: str, problems: _Problems, what: str) -> str | None:
    text = _text(node, path, problems, what)
    if text is None:
        return None
    word = text.strip().lower()
    if word not in _PENALTY_WORDS:
        problems.add(f"{what}: {text!r} is not a penalty (say: {', '.join(_PENALTY_WORDS)})", _loc(path, node))
        return None
    return word


def _irregularities(m: dict[str, tuple[yaml.Node, yaml.Node]], rec: TrickRecord, path: str, problems: _Problems) -> None:
    where = f"trick {rec.number}"
    if "revoke" in m:
        for item in _items(m["revoke"][1]):
            r = _revoke(item, path, problems, f"{where}: revoke")
            if r is not None:
                rec.revokes.append(r)
    if "exposed" in m:
        for item in _items(m["exposed"][1]):
            e = _exposure(item, path, problems, f"{where}: exposed")
            if e is not None:
                rec.exposed.append(e)
    if "out_of_turn" in m:
        rec.out_of_turn = _out_of_turn(m["out_of_turn"][1], path, problems, f"{where}: out_of_turn")
    if "call" in m:
        for item in _items(m["call"][1]):
            c = _call(item, path, problems, f"{where}: call")
            if c is not None:
                rec.calls.append(c)


def _revoke(node: yaml.Node, path: str, problems: _Problems, what: str) -> Revoke | None:
    m = _mapping(node, path, problems, what, _REVOKE_KEYS)
    if m is None:
        return None
    missing = [k for k in ("card", "penalty") if k not in m]
    if missing:
        problems.add(f"{what}: missing {' and '.join(repr(k) for k in missing)} (e.g. {{card: 3S, penalty: tricks}})", _loc(path, node))
        return None
    card = _card_scalar(m["card"][1], path, problems, f"{what}: card")
    penalty = _penalty(m["penalty"][1], path, problems, f"{what}: penalty")
    corrected = _bool(m["corrected"][1], path, problems, f"{what}: corrected") if "corrected" in m else False
    if card is None or penalty is None:
        return None
    return Revoke(card, penalty, bool(corrected), _loc(path, node), _loc(path, m["penalty"][1]))


def _exposure(node: yaml.Node, path: str, problems: _Problems, what: str) -> Exposure | None:
    m = _mapping(node, path, problems, what, _EXPOSED_KEYS)
    if m is None:
        return None
    if "cards" not in m or "how" not in m:
        problems.add(f"{what}: needs 'cards' and 'how' (e.g. {{cards: QH, how: dropped}})", _loc(path, node))
        return None
    cards = _card_list(m["cards"][1], path, problems, f"{what}: cards")
    how = _text(m["how"][1], path, problems, f"{what}: how")
    if how is not None and how not in EXPOSURES:
        problems.add(f"{what}: how must be one of {', '.join(EXPOSURES)}, not {how!r}", _loc(path, m["how"][1]))
        return None
    if not cards or how is None:
        return None
    return Exposure(tuple(cards), how, _loc(path, node))


def _out_of_turn(node: yaml.Node, path: str, problems: _Problems, what: str) -> LeadOutOfTurn | None:
    m = _mapping(node, path, problems, what, _OUT_OF_TURN_KEYS)
    if m is None:
        return None
    stands = bool(_bool(m["stands"][1], path, problems, f"{what}: stands")) if "stands" in m else False
    if "card" not in m or ("penalty" not in m and not stands):
        problems.add(f"{what}: needs 'card' and 'penalty' (e.g. {{card: KS, penalty: exposed}}), "
                     "or 'stands: true' when all three others played to it", _loc(path, node))
        return None
    card = _card_scalar(m["card"][1], path, problems, f"{what}: card")
    penalty = _penalty(m["penalty"][1], path, problems, f"{what}: penalty") if "penalty" in m else "none"
    if card is None or penalty is None:
        return None
    ploc = _loc(path, m["penalty"][1]) if "penalty" in m else _loc(path, node)
    return LeadOutOfTurn(card, penalty, _loc(path, node), ploc, stands)


def _call(node: yaml.Node, path: str, problems: _Problems, what: str) -> Call | None:
    loc = _loc(path, node)
    if isinstance(node, yaml.ScalarNode):
        card = _card_scalar(node, path, problems, what)
        return Call(loc, card=card) if card is not None else None
    m = _mapping(node, path, problems, what, _CALL_KEYS)
    if m is None:
        return None
    if "card" in m:
        if len(m) > 1:
            problems.add(f"{what}: a card call names only the card (the seat that holds it must play it)", loc)
            return None
        card = _card_scalar(m["card"][1], path, problems, what)
        return Call(loc, card=card) if card is not None else None
    if "suit" in m:
        if len(m) > 1:
            problems.add(f"{what}: a suit call names only the suit (this trick's leader must lead it)", loc)
            return None
        suit = _parse_with(Suit.parse, m["suit"][1], path, problems, f"{what}: suit")
        return Call(loc, suit=suit) if suit is not None else None
    if "seat" in m and "play" in m:
        seat = _parse_with(Seat.parse, m["seat"][1], path, problems, f"{what}: seat")
        play = _text(m["play"][1], path, problems, f"{what}: play")
        if play is not None and play not in ("highest", "lowest"):
            problems.add(f"{what}: play must be 'highest' or 'lowest', not {play!r}", _loc(path, m["play"][1]))
            return None
        return Call(loc, seat=seat, play=play) if seat is not None and play else None
    problems.add(f"{what}: say what is called: a card (call: QH), a suit ({{suit: D}}) or {{seat: B, play: highest}}", loc)
    return None


def _honours_call(node: yaml.Node, path: str, problems: _Problems) -> HonoursCall | None:
    m = _mapping(node, path, problems, "honours_call", _HONOURS_CALL_KEYS)
    if m is None:
        return None
    if "by" not in m:
        problems.add("honours_call: missing 'by' (the seat that calls)", _loc(path, node))
        return None
    by = _parse_with(Seat.parse, m["by"][1], path, problems, "honours_call: by")
    answer = _bool(m["answer"][1], path, problems, "honours_call: answer") if "answer" in m else None
    if by is None:
        return None
    return HonoursCall(by, answer, _loc(path, node))


def _ending(node: yaml.Node, path: str, problems: _Problems) -> Ending | None:
    m = _mapping(node, path, problems, "ending", _ENDING_KEYS)
    if m is None:
        return None
    account = _text(m["account"][1], path, problems, "ending: account") if "account" in m else None
    note = _text(m["note"][1], path, problems, "ending: note") if "note" in m else None
    claim = None
    claim_loc = None
    if "claim" in m:
        cnode = m["claim"][1]
        claim_loc = _loc(path, cnode)
        claim = _claim(cnode, path, problems)
    return Ending(account, claim, _loc(path, node), claim_loc, note)


def _claim(node: yaml.Node, path: str, problems: _Problems) -> dict[Side, int] | None:
    if isinstance(node, yaml.ScalarNode):
        m = re.fullmatch(r"\s*(AB|YZ)\s+(\d+)\s*", node.value, re.I)
        if m:
            return {Side.parse(m.group(1)): int(m.group(2))}
        problems.add("claim must be {AB: n} (the side and how many of the remaining tricks it takes)", _loc(path, node))
        return None
    m2 = _mapping(node, path, problems, "claim", {"AB", "YZ"})
    if m2 is None:
        return None
    out = {}
    for key, (_, v) in m2.items():
        n = _int(v, path, problems, f"claim for {key}", 0, 13)
        if n is not None:
            out[Side.parse(key)] = n
    if not out:
        problems.add("claim must name a side, e.g. {AB: 3}", _loc(path, node))
        return None
    return out


def _errata(node: yaml.Node, path: str, problems: _Problems) -> list[Erratum]:
    if not isinstance(node, yaml.SequenceNode):
        problems.add("errata must be a list of {trick, printed, used, reason}", _loc(path, node))
        return []
    out = []
    for item in node.value:
        m = _mapping(item, path, problems, "erratum", _ERRATUM_KEYS)
        if m is None:
            continue
        missing = [k for k in ("printed", "used", "reason") if k not in m]
        if missing:
            problems.add(f"erratum: missing {', '.join(repr(k) for k in missing)}", _loc(path, item))
            continue
        trick = _int(m["trick"][1], path, problems, "erratum: trick", 1, 13) if "trick" in m else None
        texts = [_text(m[k][1], path, problems, f"erratum: {k}") for k in ("printed", "used", "reason")]
        if None in texts:
            continue
        out.append(Erratum(trick, texts[0] or "", texts[1] or "", texts[2] or "", _loc(path, item)))
    return out


def _task(node: yaml.Node, path: str, problems: _Problems) -> Task | None:
    m = _mapping(node, path, problems, "task", _TASK_KEYS)
    if m is None:
        return None
    if "side" not in m or "tricks" not in m:
        problems.add("task needs 'side' and 'tricks' (a number, or 'all')", _loc(path, node))
        return None
    side = _parse_with(Side.parse, m["side"][1], path, problems, "task: side")
    tnode = m["tricks"][1]
    tricks: int | None
    if isinstance(tnode, yaml.ScalarNode) and tnode.value.strip().lower() == "all":
        tricks = -1  # resolved against the position's size by the checker
    else:
        tricks = _int(tnode, path, problems, "task: tricks", 1, 13)
    text = _text(m["text"][1], path, problems, "task: text") if "text" in m else ""
    if side is None or tricks is None:
        return None
    return Task(side, tricks, text or "", _loc(path, node))


def _solutions(node: yaml.Node, path: str, problems: _Problems) -> list[Solution]:
    if not isinstance(node, yaml.SequenceNode):
        problems.add("solutions must be a list of {title, plays, account}", _loc(path, node))
        return []
    out = []
    for i, item in enumerate(node.value):
        m = _mapping(item, path, problems, f"solution {i + 1}", _SOLUTION_KEYS)
        if m is None:
            continue
        if "plays" not in m:
            problems.add(f"solution {i + 1}: missing key 'plays'", _loc(path, item))
            continue
        plays = _card_list(m["plays"][1], path, problems, f"solution {i + 1}")
        if plays is None:
            continue
        title = _text(m["title"][1], path, problems, "solution: title") if "title" in m else f"Solution {i + 1}"
        account = _text(m["account"][1], path, problems, "solution: account") if "account" in m else None
        out.append(Solution(title or f"Solution {i + 1}", plays, account, _loc(path, item)))
    return out


# --- results ------------------------------------------------------------------------------

_SIDE_RE = re.compile(r"\b(ab|yz|a\s*b|y\s*z)\b", re.I)


def parse_result(text: str) -> tuple[Side, int, dict[Side, int], bool | None]:
    """Read a result as the book states it.

    >>> parse_result("AB win three by cards")
    (Side.AB, 3, {}, None)
    >>> parse_result("YZ win the odd trick and two by honours, and the game")
    (Side.YZ, 1, {Side.YZ: 2}, True)
    >>> parse_result("AB win two by cards; YZ score two by honours")
    (Side.AB, 2, {Side.YZ: 2}, None)

    :raises InvalidCardError: (a ``ValueError``) when the text cannot be read.
    """
    low = text.lower()
    clauses = re.split(r";|,|\band\b|\.", low)
    side: Side | None = None
    card_side: Side | None = None
    by_cards: int | None = None
    honours: dict[Side, int] = {}
    game: bool | None = None
    for clause in clauses:
        sm = _SIDE_RE.search(clause)
        if sm:
            side = Side.parse(sm.group(1))
        if "odd trick" in clause:
            by_cards, card_side = 1, side
        m = re.search(r"(\w+)\s+by\s+cards?", clause)
        if m:
            by_cards, card_side = _number(m.group(1), text), side
        m = re.search(r"(\w+)\s+by\s+honours?", clause)
        if m:
            if side is None:
                raise InvalidCardError(f"result {text!r}: say which side scores the honours")
            honours[side] = _number(m.group(1), text)
        if re.search(r"\bgame\b", clause):
            game = True
    if card_side is None or by_cards is None:
        raise InvalidCardError(
            f"result {text!r} does not say which side wins how many by cards "
            "(e.g. 'AB win three by cards', 'YZ win the odd trick')"
        )
    return card_side, by_cards, honours, game


def _word_or(word: str, default: int) -> int:
    n = parse_number_word(word)
    return default if n is None or word == "no" else n


def _number(word: str, text: str) -> int:
    n = _word_or(word, -1)
    if n >= 0:
        return n
    raise InvalidCardError(f"result {text!r}: {word!r} is not a number")


def _result(node: yaml.Node, path: str, problems: _Problems) -> StatedResult | None:
    loc = _loc(path, node)
    if isinstance(node, yaml.ScalarNode):
        try:
            side, by_cards, honours, game = parse_result(node.value)
        except InvalidCardError as err:
            problems.add_error(err, loc)
            return None
        return StatedResult(side, by_cards, honours, game, node.value, loc)
    m = _mapping(node, path, problems, "result", _RESULT_KEYS)
    if m is None:
        return None
    if "side" not in m or "by_cards" not in m:
        problems.add("result needs 'side' and 'by_cards'", loc)
        return None
    side = _parse_with(Side.parse, m["side"][1], path, problems, "result: side")
    by_cards = _int(m["by_cards"][1], path, problems, "result: by_cards", 1, 7)
    honours: dict[Side, int] = {}
    if "honours" in m:
        hm = _mapping(m["honours"][1], path, problems, "result: honours", {"AB", "YZ"})
        for key, (_, v) in (hm or {}).items():
            n = _int(v, path, problems, f"honours for {key}", 0, 4)
            if n is not None:
                honours[Side.parse(key)] = n
    game = _bool(m["game"][1], path, problems, "result: game") if "game" in m else None
    if side is None or by_cards is None:
        return None
    words = f"{side} win {by_cards} by cards"
    return StatedResult(side, by_cards, honours, game, words, loc)
