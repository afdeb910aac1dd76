"""A record written as a hand file in the house style: each hand on one
line, each trick's cards in play order, a claim for the tricks not played,
and the result the tricks give (see ``hands/cavendish/*.yaml``)."""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace

from ..deal import hand_line
from ..handwriter import yaml_string
from ..laws import describe_result
from ..scoring import honours_held, score_hand
from ..seats import SEATS, Side
from .record import Record, flow


#: what a YAML file cannot hold (outside YAML 1.1's printable characters), and the line
#: breaks that YAML counts and editors do not
_UNWRITABLE = re.compile("[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]")
#: text that YAML reads back as the same string when written plain (if it is not yes, null...)
_PLAIN = re.compile(r"[^\W\d_][\w .,;!?'’()/&+\-–—]*")


def hand_text(rec: Record, origin: str) -> str:
    """The YAML text of one imported record; ``origin`` names where it came
    from (a file, and the board), for the opening comment. A character a YAML
    file cannot hold (a NUL in the commentary) becomes U+FFFD, and a note says so."""
    assert rec.totals is not None and rec.turn_up is not None
    rec, origin, replaced = _writable(rec, origin)
    lines = [f"# Imported by 'whistbook import' from {origin}."]
    if replaced:
        lines.append(f"# Note: {replaced} character{'s' if replaced != 1 else ''} that a hand file cannot hold "
                     "(control characters) written as \ufffd.")
    for c in rec.comments:
        lines += textwrap.wrap(f"Note: {c}.", 96, initial_indent="# ", subsequent_indent="#   ")
    title = rec.title or (f"Board {rec.board}" if rec.board is not None else "Imported hand")
    lines.append(f"title: {_scalar(title)}")
    lines.append(f"source: {_scalar(origin)}")
    if rec.score:
        lines.append("score: {" + ", ".join(f"{s}: {rec.score.get(s, 0)}" for s in Side) + "}")
    lines.append(f"turn_up: {rec.turn_up}")
    if rec.dealer.name != "Z":
        lines.append(f"dealer: {rec.dealer}")
    lines.append("deal:")
    lines += [f"  {s}: {hand_line(rec.deal[s])}" for s in SEATS]
    lines.append("tricks:" + ("" if rec.tricks else " []"))
    for i, t in enumerate(rec.tricks):
        lines.append(f"  - cards: {' '.join(map(str, t))}")
        for key, value in rec.laws.get(i, {}).items():
            lines.append(f"    {key}: {flow(value)}")
        remark = rec.remarks[i] if i < len(rec.remarks) else None
        if remark:
            lines += _text_lines("remark", remark, "    ")
    claim = rec.claim()
    if any(claim.values()) or rec.account:
        lines.append("ending:")
        if rec.account:
            lines += _text_lines("account", rec.account, "  ")
        if any(claim.values()):
            named = [rec.claimant] if rec.claimant is not None else list(Side)
            lines.append("  claim: {" + ", ".join(f"{s}: {claim[s]}" for s in named) + "}")
    held = honours_held(rec.deal.hands, rec.trumps)
    score = score_hand(rec.totals, held, rec.score, "short", rec.revokes())
    lines.append(f"result: {describe_result(score)}")
    return "\n".join(lines) + "\n"


def _writable(rec: Record, origin: str) -> tuple[Record, str, int]:
    """The record's texts and ``origin`` with what YAML cannot hold replaced, on one
    line each, and how many characters were replaced."""
    count = 0

    def fix(text: str | None) -> str | None:
        nonlocal count
        if text is None:
            return None
        text, n = _UNWRITABLE.subn("\ufffd", text)
        count += n
        return text

    changed = replace(rec, title=fix(rec.title), remarks=[fix(r) for r in rec.remarks], account=fix(rec.account),
                      comments=[" ".join(fix(c).split()) for c in rec.comments])  # type: ignore[union-attr]
    return changed, " ".join(fix(origin).split()), count  # type: ignore[union-attr]


def _text_lines(key: str, text: str, indent: str) -> list[str]:
    """A remark as the house style writes it: a short one on its key's line,
    a long one as a block wrapped at 80 columns."""
    one = " ".join(text.split())
    if len(indent) + len(key) + len(one) < 78:
        return [f"{indent}{key}: {_scalar(one)}"]
    inner = indent + "  "
    return [f"{indent}{key}: |"] + textwrap.wrap(one, 80, initial_indent=inner, subsequent_indent=inner)


def _scalar(text: str) -> str:
    """Plain when it is words that YAML reads back unchanged, else a JSON string (valid YAML)."""
    import yaml

    one = " ".join(text.split())
    if _PLAIN.fullmatch(one) and yaml.safe_load(one) == one:
        return one
    return yaml_string(one)
