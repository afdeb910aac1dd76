"""The workbench of ``whistbook serve``: a hand dealt and played in the browser,
written out as a hand file.

The page (``assets/workbench/``) keeps the hand as it is entered: each seat's
cards, the turn-up, the tricks played. It asks this module, through the
preview server (:mod:`whistbook.server`, a ``POST`` from its own page only),
two things: whether a card may be played now (:func:`check_play`, which
answers with the law's reason when it may not: a card out of turn, a card
not held, a revoke), and to write the hand (:func:`write_hand`) into the
book's hands folder, as a file the author then edits. Every answer is made by
the replay engine (:mod:`whistbook.play`) and the checks of ``validate``; the
page holds no rule of its own.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cards import Card
from .errors import WhistbookError
from .play import Replay, legal_plays, replay
from .seats import SEATS, Seat

#: a new hand file's name: letters, digits, '-' and '_' (it goes into the hands folder, nowhere else)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")


class Refused(WhistbookError):
    """What the page sent cannot be a hand (the reason is shown on the page)."""


@dataclass(frozen=True)
class Table:
    """A hand as the page holds it: the deal, the turn-up, the cards played."""

    deal: dict[Seat, list[Card]]
    turn_up: Card
    tricks: list[list[Card]]  # complete tricks, then the one in play (fewer than four cards)

    @classmethod
    def from_json(cls, data: Any) -> "Table":
        """:raises Refused: for anything that is not a deal of four hands of 13 and cards played."""
        try:
            deal = {Seat.parse(s): [Card.parse(c) for c in cards] for s, cards in data["deal"].items()}
            turn_up = Card.parse(data["turn_up"])
            tricks = [[Card.parse(c) for c in t] for t in data.get("tricks", [])]
        except (KeyError, TypeError, AttributeError) as err:
            raise Refused(f"not a hand as the workbench sends it ({err})") from None
        if sorted(deal) != sorted(SEATS) or any(len(v) != 13 for v in deal.values()) \
                or len({c for v in deal.values() for c in v}) != 52:
            raise Refused("the deal must give each of A, Y, B and Z thirteen cards, every card once")
        if turn_up not in deal[Seat.Z]:
            raise Refused(f"the turn-up {turn_up} must be one of the dealer's cards (Z deals)")
        if len(tricks) > 13 or any(len(t) > 4 for t in tricks) or any(len(t) != 4 for t in tricks[:-1]):
            raise Refused("tricks of four cards each, the last one perhaps still in play")
        return cls(deal, turn_up, tricks)

    @property
    def complete(self) -> list[list[Card]]:
        return [t for t in self.tricks if len(t) == 4]

    @property
    def in_play(self) -> list[Card]:
        return self.tricks[-1] if self.tricks and len(self.tricks[-1]) < 4 else []


def _replay(table: Table) -> Replay:
    """The complete tricks replayed (the engine's own checks)."""
    return replay(table.deal, table.turn_up.suit, Seat.A, table.complete)


def check_play(table: Table, card: Card) -> dict[str, Any]:
    """Whether ``card`` may be played next, and what the hand looks like if so:
    ``{"ok": false, "reason": ...}`` with the law's reason, or ``{"ok": true, ...}``
    with the trick's winner once it is complete and whose turn is next.

    :raises IllegalPlayError: when the tricks already played are not legal.
    """
    rp = _replay(table)
    trick = table.in_play
    seat = SEATS[(int(rp.next_leader) + len(trick)) % 4]
    held = rp.remaining[seat]
    # the page shows the reason as it is: cards with their suits' symbols, as the lessons write them
    if card not in held:
        owner = next((s for s in SEATS if card in rp.remaining[s]), None)
        where = f"{card.symbol} is {owner}'s" if owner is not None else f"{card.symbol} has been played"
        return {"ok": False, "reason": f"it is {seat}'s turn to play, and {where}"}
    led = trick[0].suit if trick else None
    if card not in legal_plays(held, led):
        still = max(c for c in held if c.suit == led)
        return {"ok": False, "reason": (f"{seat} must follow suit: he holds {still.symbol}, so {card.symbol} to a "
                                        f"{led.singular} lead would be a revoke (Law 71)")}
    after = [*table.complete, [*trick, card]]
    out: dict[str, Any] = {"ok": True, "seat": str(seat)}
    if len(trick) == 3:
        done = replay(table.deal, table.turn_up.suit, Seat.A, after).tricks[-1]
        out.update(winner=str(done.winner), tally=list(done.tally), next=str(done.winner))
    else:
        out["next"] = str(SEATS[(int(seat) + 1) % 4])
    return out


def hand_text(table: Table, title: str, known: Seat, schema_ref: str | None = None) -> str:
    """The hand as a file in the house style: the deal, the turn-up, the tricks
    played with their tallies, a claim for the rest that the double-dummy solver
    accepts, and the result they give.

    :raises Refused: when a trick is still in play.
    """
    from .handwriter import claim_line, deal_lines, solver_ending, yaml_string

    if table.in_play:
        raise Refused("finish the trick in play (or take its cards back) before writing the hand")
    rp = _replay(table)
    claim, result = solver_ending(rp)
    lines = [f"# yaml-language-server: $schema={schema_ref}"] if schema_ref else []
    lines += [
        "# Dealt and played in the browser (whistbook serve's workbench). Add a theme, the remarks",
        "# after the tricks that teach something (or run 'whistbook annotate' for drafts), and check",
        "# it with 'whistbook validate'.",
        f"title: {yaml_string(title)}",
        f"known_hand: {known}",
        "score: love-all",
        f"turn_up: {table.turn_up}",
        *deal_lines(rp),
        "tricks:" + ("" if rp.tricks else " []"),
    ]
    for t in rp.tricks:
        lines += [f"  - cards: {' '.join(str(c) for c in t.cards)}", f"    tally: {t.tally.ab}-{t.tally.yz}"]
    if claim:
        lines += ["ending:", claim_line(claim)]
    lines.append(f"result: {result}")
    return "\n".join(lines) + "\n"


def write_hand(hands: Path, data: Any, schema_ref: str | None = None) -> dict[str, Any]:
    """Write the hand the page sent into ``hands`` as ``NAME.yaml`` (never over a
    file that exists), checked as ``validate`` checks it: ``{"path": ..., "slug": ...,
    "problems": [...]}``.

    :raises Refused: for a bad name, a file that exists, or a hand that cannot be written.
    """
    from .build import lesson_slug
    from .corpus import check_file

    name = str(data.get("name", "")) if isinstance(data, dict) else ""
    if not NAME.fullmatch(name):
        raise Refused("name the file with letters, digits, '-' and '_' (it is written as hands/NAME.yaml)")
    title = str(data.get("title") or name)[:200]
    try:
        known = Seat.parse(str(data.get("known_hand", "A")))
    except WhistbookError:
        raise Refused("the known hand is one of A, Y, B and Z") from None
    table = Table.from_json(data)
    text = hand_text(table, title, known, schema_ref)
    path = hands / f"{name}.yaml"
    try:
        with open(path, "x", encoding="utf-8") as f:  # "x": never over a file the author has
            f.write(text)
    except FileExistsError:
        raise Refused(f"{path.name} exists in the hands folder: choose another name") from None
    checked = check_file(path)
    return {"path": path.as_posix(), "slug": lesson_slug(path, hands),
            "problems": [str(d) for d in checked.diagnostics if d.level == "error"]}


# --- the page and its requests -------------------------------------------------------------

#: where the page is served, and the requests it makes (each a POST from the page itself)
PAGE = "/__whistbook/workbench"
CHECK = PAGE + "/check"
WRITE = PAGE + "/write"
#: the page's own files, served beside it
ASSETS = Path(__file__).resolve().parent / "assets" / "workbench"
FILES = {PAGE: ("workbench.html", "text/html"), PAGE + "/workbench.js": ("workbench.js", "text/javascript"),
         PAGE + "/workbench.css": ("workbench.css", "text/css")}


def page_file(path: str) -> tuple[bytes, str] | None:
    """The page or one of its files, with its type; None for any other path."""
    if path not in FILES:
        return None
    name, kind = FILES[path]
    return (ASSETS / name).read_bytes(), kind


def answer(path: str, body: bytes, hands: Path, schema_ref: str | None = None) -> tuple[int, bytes]:
    """The answer to one of the page's requests: a status and JSON. A hand that
    cannot be is a 400 with its reason (``{"error": ...}``), never a server error."""
    try:
        data = json.loads(body.decode("utf-8"))
        if path == CHECK:
            out = check_play(Table.from_json(data), Card.parse(str(data.get("card"))))
        elif path == WRITE:
            out = write_hand(hands, data, schema_ref)
        else:
            return 404, b'{"error": "no such request"}'
    except WhistbookError as err:  # a card that is no card, a play the replay refuses, a hand that cannot be
        return 400, json.dumps({"error": err.message}, ensure_ascii=False).encode("utf-8")
    except (ValueError, UnicodeDecodeError, AttributeError) as err:  # JSONDecodeError is a ValueError
        return 400, json.dumps({"error": f"not the workbench's JSON: {err}"}).encode("utf-8")
    return 200, json.dumps(out, ensure_ascii=False).encode("utf-8")


__all__ = ["Table", "Refused", "check_play", "hand_text", "write_hand", "answer", "page_file", "NAME", "PAGE",
           "CHECK", "WRITE"]
