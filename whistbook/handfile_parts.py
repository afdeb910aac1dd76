"""The parts of a hand file beyond its deal and its tricks' cards: the
irregularities recorded at a trick, the ending, errata, a problem's task
and solutions, and the result (read by :mod:`whistbook.handfile`)."""

from __future__ import annotations

import re

import yaml

from .cards import Suit, parse_number_word
from .errors import InvalidCardError
from .model import (
    EXPOSURES,
    Call,
    Ending,
    Erratum,
    Exposure,
    HonoursCall,
    LeadOutOfTurn,
    Revoke,
    Solution,
    StatedResult,
    Task,
    TrickRecord,
)
from .seats import Seat, Side
from .yamlnodes import Problems, node_loc, read_bool, read_card, read_cards, read_int, read_mapping, read_text, read_with

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


def read_score(node: yaml.Node, path: str, problems: Problems, game: int) -> dict[Side, int] | None:
    if isinstance(node, yaml.ScalarNode):
        v = node.value.strip().lower().replace("_", "-")
        if v in ("love-all", "love all", "0-0"):
            return {Side.AB: 0, Side.YZ: 0}
        m = re.fullmatch(r"ab\s*,?\s*(\w+)\s*[;,]\s*yz\s*,?\s*(\w+)", v)
        if m:
            vals = [int(x) if x.isdecimal() and len(x) <= 6 else (0 if x == "love" else _word_or(x, -1)) for x in m.groups()]
            if all(0 <= x < game for x in vals):
                return {Side.AB: vals[0], Side.YZ: vals[1]}
        problems.add(f"score must be 'love-all' or a mapping such as {{AB: 2, YZ: 0}}, each below {game}", node_loc(path, node))
        return None
    m = read_mapping(node, path, problems, "score", {"AB", "YZ"})
    if m is None:
        return None
    out: dict[Side, int] = {}
    for side in Side:
        if side.name not in m:
            problems.add(f"score: missing {side.name}", node_loc(path, node))
            continue
        n = read_int(m[side.name][1], path, problems, f"score for {side.name}", 0, game - 1)
        if n is not None:
            out[side] = n
    return out if len(out) == 2 else None



# --- irregularities -------------------------------------------------------------------------


def _items(node: yaml.Node) -> list[yaml.Node]:
    """A key that takes one entry or a list of them."""
    return list(node.value) if isinstance(node, yaml.SequenceNode) else [node]


def _penalty(node: yaml.Node, path: str, problems: Problems, what: str) -> str | None:
    text = read_text(node, path, problems, what)
    if text is None:
        return None
    word = text.strip().lower()
    if word not in _PENALTY_WORDS:
        problems.add(f"{what}: {text!r} is not a penalty (say: {', '.join(_PENALTY_WORDS)})", node_loc(path, node))
        return None
    return word


def read_irregularities(m: dict[str, tuple[yaml.Node, yaml.Node]], rec: TrickRecord, path: str, problems: Problems) -> None:
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


def _revoke(node: yaml.Node, path: str, problems: Problems, what: str) -> Revoke | None:
    m = read_mapping(node, path, problems, what, _REVOKE_KEYS)
    if m is None:
        return None
    missing = [k for k in ("card", "penalty") if k not in m]
    if missing:
        problems.add(f"{what}: missing {' and '.join(repr(k) for k in missing)} (e.g. {{card: 3S, penalty: tricks}})", node_loc(path, node))
        return None
    card = read_card(m["card"][1], path, problems, f"{what}: card")
    penalty = _penalty(m["penalty"][1], path, problems, f"{what}: penalty")
    corrected = read_bool(m["corrected"][1], path, problems, f"{what}: corrected") if "corrected" in m else False
    if card is None or penalty is None:
        return None
    return Revoke(card, penalty, bool(corrected), node_loc(path, node), node_loc(path, m["penalty"][1]))


def _exposure(node: yaml.Node, path: str, problems: Problems, what: str) -> Exposure | None:
    m = read_mapping(node, path, problems, what, _EXPOSED_KEYS)
    if m is None:
        return None
    if "cards" not in m or "how" not in m:
        problems.add(f"{what}: needs 'cards' and 'how' (e.g. {{cards: QH, how: dropped}})", node_loc(path, node))
        return None
    cards = read_cards(m["cards"][1], path, problems, f"{what}: cards")
    how = read_text(m["how"][1], path, problems, f"{what}: how")
    if how is not None and how not in EXPOSURES:
        problems.add(f"{what}: how must be one of {', '.join(EXPOSURES)}, not {how!r}", node_loc(path, m["how"][1]))
        return None
    if not cards or how is None:
        return None
    return Exposure(tuple(cards), how, node_loc(path, node))


def _out_of_turn(node: yaml.Node, path: str, problems: Problems, what: str) -> LeadOutOfTurn | None:
    m = read_mapping(node, path, problems, what, _OUT_OF_TURN_KEYS)
    if m is None:
        return None
    stands = bool(read_bool(m["stands"][1], path, problems, f"{what}: stands")) if "stands" in m else False
    if "card" not in m or ("penalty" not in m and not stands):
        problems.add(f"{what}: needs 'card' and 'penalty' (e.g. {{card: KS, penalty: exposed}}), "
                     "or 'stands: true' when all three others played to it", node_loc(path, node))
        return None
    card = read_card(m["card"][1], path, problems, f"{what}: card")
    penalty = _penalty(m["penalty"][1], path, problems, f"{what}: penalty") if "penalty" in m else "none"
    if card is None or penalty is None:
        return None
    ploc = node_loc(path, m["penalty"][1]) if "penalty" in m else node_loc(path, node)
    return LeadOutOfTurn(card, penalty, node_loc(path, node), ploc, stands)


def _call(node: yaml.Node, path: str, problems: Problems, what: str) -> Call | None:
    loc = node_loc(path, node)
    if isinstance(node, yaml.ScalarNode):
        card = read_card(node, path, problems, what)
        return Call(loc, card=card) if card is not None else None
    m = read_mapping(node, path, problems, what, _CALL_KEYS)
    if m is None:
        return None
    if "card" in m:
        if len(m) > 1:
            problems.add(f"{what}: a card call names only the card (the seat that holds it must play it)", loc)
            return None
        card = read_card(m["card"][1], path, problems, what)
        return Call(loc, card=card) if card is not None else None
    if "suit" in m:
        if len(m) > 1:
            problems.add(f"{what}: a suit call names only the suit (this trick's leader must lead it)", loc)
            return None
        suit = read_with(Suit.parse, m["suit"][1], path, problems, f"{what}: suit")
        return Call(loc, suit=suit) if suit is not None else None
    if "seat" in m and "play" in m:
        seat = read_with(Seat.parse, m["seat"][1], path, problems, f"{what}: seat")
        play = read_text(m["play"][1], path, problems, f"{what}: play")
        if play is not None and play not in ("highest", "lowest"):
            problems.add(f"{what}: play must be 'highest' or 'lowest', not {play!r}", node_loc(path, m["play"][1]))
            return None
        return Call(loc, seat=seat, play=play) if seat is not None and play else None
    problems.add(f"{what}: say what is called: a card (call: QH), a suit ({{suit: D}}) or {{seat: B, play: highest}}", loc)
    return None


def read_honours_call(node: yaml.Node, path: str, problems: Problems) -> HonoursCall | None:
    m = read_mapping(node, path, problems, "honours_call", _HONOURS_CALL_KEYS)
    if m is None:
        return None
    if "by" not in m:
        problems.add("honours_call: missing 'by' (the seat that calls)", node_loc(path, node))
        return None
    by = read_with(Seat.parse, m["by"][1], path, problems, "honours_call: by")
    answer = read_bool(m["answer"][1], path, problems, "honours_call: answer") if "answer" in m else None
    if by is None:
        return None
    return HonoursCall(by, answer, node_loc(path, node))


def read_ending(node: yaml.Node, path: str, problems: Problems) -> Ending | None:
    m = read_mapping(node, path, problems, "ending", _ENDING_KEYS)
    if m is None:
        return None
    account = read_text(m["account"][1], path, problems, "ending: account") if "account" in m else None
    note = read_text(m["note"][1], path, problems, "ending: note") if "note" in m else None
    claim = None
    claim_loc = None
    if "claim" in m:
        cnode = m["claim"][1]
        claim_loc = node_loc(path, cnode)
        claim = _claim(cnode, path, problems)
    return Ending(account, claim, node_loc(path, node), claim_loc, note)


def _claim(node: yaml.Node, path: str, problems: Problems) -> dict[Side, int] | None:
    if isinstance(node, yaml.ScalarNode):
        m = re.fullmatch(r"\s*(AB|YZ)\s+(\d{1,6})\s*", node.value, re.I)
        if m:
            return {Side.parse(m.group(1)): int(m.group(2))}
        problems.add("claim must be {AB: n} (the side and how many of the remaining tricks it takes)", node_loc(path, node))
        return None
    m2 = read_mapping(node, path, problems, "claim", {"AB", "YZ"})
    if m2 is None:
        return None
    out = {}
    for key, (_, v) in m2.items():
        n = read_int(v, path, problems, f"claim for {key}", 0, 13)
        if n is not None:
            out[Side.parse(key)] = n
    if not out:
        problems.add("claim must name a side, e.g. {AB: 3}", node_loc(path, node))
        return None
    return out


def read_errata(node: yaml.Node, path: str, problems: Problems) -> list[Erratum]:
    if not isinstance(node, yaml.SequenceNode):
        problems.add("errata must be a list of {trick, printed, used, reason}", node_loc(path, node))
        return []
    out = []
    for item in node.value:
        m = read_mapping(item, path, problems, "erratum", _ERRATUM_KEYS)
        if m is None:
            continue
        missing = [k for k in ("printed", "used", "reason") if k not in m]
        if missing:
            problems.add(f"erratum: missing {', '.join(repr(k) for k in missing)}", node_loc(path, item))
            continue
        trick = read_int(m["trick"][1], path, problems, "erratum: trick", 1, 13) if "trick" in m else None
        texts = [read_text(m[k][1], path, problems, f"erratum: {k}") for k in ("printed", "used", "reason")]
        if None in texts:
            continue
        out.append(Erratum(trick, texts[0] or "", texts[1] or "", texts[2] or "", node_loc(path, item)))
    return out


def read_task(node: yaml.Node, path: str, problems: Problems) -> Task | None:
    m = read_mapping(node, path, problems, "task", _TASK_KEYS)
    if m is None:
        return None
    if "side" not in m or "tricks" not in m:
        problems.add("task needs 'side' and 'tricks' (a number, or 'all')", node_loc(path, node))
        return None
    side = read_with(Side.parse, m["side"][1], path, problems, "task: side")
    tnode = m["tricks"][1]
    tricks: int | None
    if isinstance(tnode, yaml.ScalarNode) and tnode.value.strip().lower() == "all":
        tricks = -1  # resolved against the position's size by the checker
    else:
        tricks = read_int(tnode, path, problems, "task: tricks", 1, 13)
    text = read_text(m["text"][1], path, problems, "task: text") if "text" in m else ""
    if side is None or tricks is None:
        return None
    return Task(side, tricks, text or "", node_loc(path, node))


def read_solutions(node: yaml.Node, path: str, problems: Problems) -> list[Solution]:
    if not isinstance(node, yaml.SequenceNode):
        problems.add("solutions must be a list of {title, plays, account}", node_loc(path, node))
        return []
    out = []
    for i, item in enumerate(node.value):
        m = read_mapping(item, path, problems, f"solution {i + 1}", _SOLUTION_KEYS)
        if m is None:
            continue
        if "plays" not in m:
            problems.add(f"solution {i + 1}: missing key 'plays'", node_loc(path, item))
            continue
        plays = read_cards(m["plays"][1], path, problems, f"solution {i + 1}")
        if plays is None:
            continue
        title = read_text(m["title"][1], path, problems, "solution: title") if "title" in m else f"Solution {i + 1}"
        account = read_text(m["account"][1], path, problems, "solution: account") if "account" in m else None
        out.append(Solution(title or f"Solution {i + 1}", plays, account, node_loc(path, item)))
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


def read_result(node: yaml.Node, path: str, problems: Problems) -> StatedResult | None:
    loc = node_loc(path, node)
    if isinstance(node, yaml.ScalarNode):
        try:
            side, by_cards, honours, game = parse_result(node.value)
        except InvalidCardError as err:
            problems.add_error(err, loc)
            return None
        return StatedResult(side, by_cards, honours, game, node.value, loc)
    m = read_mapping(node, path, problems, "result", _RESULT_KEYS)
    if m is None:
        return None
    if "side" not in m or "by_cards" not in m:
        problems.add("result needs 'side' and 'by_cards'", loc)
        return None
    side = read_with(Side.parse, m["side"][1], path, problems, "result: side")
    by_cards = read_int(m["by_cards"][1], path, problems, "result: by_cards", 1, 7)
    honours: dict[Side, int] = {}
    if "honours" in m:
        hm = read_mapping(m["honours"][1], path, problems, "result: honours", {"AB", "YZ"})
        for key, (_, v) in (hm or {}).items():
            n = read_int(v, path, problems, f"honours for {key}", 0, 4)
            if n is not None:
                honours[Side.parse(key)] = n
    game = read_bool(m["game"][1], path, problems, "result: game") if "game" in m else None
    if side is None or by_cards is None:
        return None
    words = f"{side} win {by_cards} by cards"
    return StatedResult(side, by_cards, honours, game, words, loc)
