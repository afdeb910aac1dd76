"""Terminal and JSON views of a replayed hand (``whistbook show``).

The text view follows the book: the known hand, score and turn-up first;
each trick with its leader, the four cards, the winner and the running
tally, then the remark; the ending; the four hands revealed; the result.
"""

from __future__ import annotations

import json
import textwrap

from . import wording
from .cards import SUITS, Card, format_holding
from .laws import CheckedHand, describe_result
from .scoring import score_text
from .seats import SEATS, Seat, Side

_ASCII_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _sym(text: str, ascii_only: bool) -> str:
    if ascii_only:
        for k, v in _ASCII_SUIT.items():
            text = text.replace(k, v)
    return text


def _card(c: Card, ascii_only: bool) -> str:
    return str(c) if ascii_only else c.symbol


def _hand_lines(cards, ascii_only: bool) -> list[str]:
    lines = []
    for s in SUITS:
        mark = s.letter if ascii_only else s.symbol
        lines.append(f"{mark} {format_holding([c for c in cards if c.suit == s])}")
    return lines


def render_text(ch: CheckedHand, *, ascii_only: bool = False, width: int = 78) -> str:
    hf, rp = ch.hand, ch.replay
    assert rp is not None
    out: list[str] = []
    title = hf.title + (f": {hf.theme}" if hf.theme else "")
    out += [title, "=" * min(len(title), width)]
    if hf.source:
        out.append(hf.source)
    out.append("")
    viewpoint = hf.known_hand if hf.known_hand is not None else Seat.A
    if hf.kind == "hand":
        out.append(f"{viewpoint}'s hand:   " + "   ".join(_hand_lines(rp.hands[viewpoint], ascii_only)))
        out.append(f"Score: {score_text(hf.score)}.   Turned up: {_card(hf.turn_up.card, ascii_only)} "
                   f"({hf.trumps.plural} are trumps; {hf.dealer} deals, {hf.leader} leads).")
    else:
        out.append(f"Trumps: {hf.trumps.plural}; {hf.leader} leads.")
        if hf.task:
            out.append(f"Task: {hf.task.text or f'{hf.task.side} to take {hf.task.tricks} tricks'}")
    for r in ch.rulings_at(0):
        out += textwrap.wrap(_ruling_text(r, ascii_only), width)
    out.append("")
    shown_done = False
    for rec, trick in zip(hf.tricks, rp.tricks):
        if not trick.shown and not shown_done:
            out.append("Tricks not shown in the book, as written out:")
            shown_done = True
        cells = []
        for p in trick.plays:
            mark = ">" if p.seat == trick.leader else " "
            win = "*" if p.seat == trick.winner else " "
            cells.append(f"{mark}{p.seat} {_card(p.card, ascii_only):>3}{win}")
        ab, yz = trick.tally
        out.append(f"Trick {trick.number:>2}  " + "  ".join(cells) + f"   {trick.winner} wins   AB {ab}, YZ {yz}")
        for r in ch.rulings_at(trick.number):
            out += textwrap.wrap(_ruling_text(r, ascii_only), width, initial_indent="  ! ", subsequent_indent="    ")
        text = rec.remark or rec.remark_draft
        for k, para in enumerate(text.strip().split("\n\n") if text else ()):
            lead = "    (draft) " if k == 0 and not rec.remark else "    "
            out += textwrap.wrap(_sym(" ".join(para.split()), ascii_only), width, initial_indent=lead, subsequent_indent="    ")
    out.append("")
    if hf.ending and (hf.ending.account or hf.ending.claim):
        n0 = len(rp.tricks) + 1
        last = len(rp.tricks) + rp.cards_left
        head = (f"Trick {n0}" if n0 == last else f"Tricks {n0} to {last}") if rp.cards_left else "The rest"
        text = hf.ending.account or ""
        if hf.ending.claim:
            text += " (claim: " + ", ".join(f"{s} {n}" for s, n in hf.ending.claim.items()) + ")"
        out += textwrap.wrap(_sym(f"{head}: {text.strip()}", ascii_only), width)
        out.append("")
    if hf.errata:
        out.append("Errata:")
        for e in hf.errata:
            where = f"trick {e.trick}: " if e.trick else ""
            out += textwrap.wrap(_sym(f"{where}printed {e.printed}; read as {e.used}: {e.reason}", ascii_only), width,
                                 initial_indent="  - ", subsequent_indent="    ")
        out.append("")
    out.append("The hands:")
    cols = [[f"{s}'s hand" + (" (known)" if s == hf.known_hand else "")] + _hand_lines(rp.hands[s], ascii_only) for s in SEATS]
    for row in zip(*cols):
        out.append("  " + "".join(f"{cell:<19}" for cell in row).rstrip())
    out.append("")
    if ch.score:
        sc = ch.score
        penalty = wording.text(wording.penalty_words(sc), symbols=not ascii_only)
        if penalty:
            out += textwrap.wrap(f"First in the scoring: {penalty}", width)
        if sc.tricks_played and sc.tricks_played != sc.tricks:
            out.append(f"Tricks as played: AB {sc.tricks_played[Side.AB]}, YZ {sc.tricks_played[Side.YZ]}.")
        out.append(f"Tricks: AB {sc.tricks[Side.AB]}, YZ {sc.tricks[Side.YZ]}.  Result: {describe_result(sc)}.")
        out.append(f"Score after the hand: AB {sc.after[Side.AB]}, YZ {sc.after[Side.YZ]}"
                   + (f" ({sc.game} win the game" + (f", a {sc.game_value_name}" if sc.game_value_name else "") + ")."
                      if sc.game is not None else "."))
    notes = [d for d in ch.diagnostics if d.level != "error"]
    for d in notes:
        out.append(f"{d.level}: {d.message}")
    return _sym("\n".join(out) + "\n", ascii_only)


def _ruling_text(r, ascii_only: bool) -> str:
    said = wording.text(wording.ruling(r), symbols=not ascii_only)
    ref = wording.law_ref(r.laws)
    return f"{said} ({ref})" if ref else said


def ruling_json(r) -> dict:
    """One irregularity as data, with its sentence as ``text``."""
    return {
        "kind": r.kind, "seat": str(r.seat), "laws": list(r.laws), "cards": [str(c) for c in r.cards],
        "penalty": r.penalty, "suit": r.suit.letter if r.suit is not None else None, "how": r.how,
        "answer": r.answer, "text": wording.text(wording.ruling(r)),
    }


def to_json(ch: CheckedHand) -> dict:
    """The replayed hand as plain data (the ``show --format json`` contract)."""
    hf, rp = ch.hand, ch.replay
    assert rp is not None
    sc = ch.score
    claim = None
    if hf.ending and hf.ending.claim:
        claim = {"after_trick": len(rp.tricks), "tricks": {str(s): n for s, n in hf.ending.claim.items()},
                 "account": hf.ending.account, "double_dummy": {str(s): n for s, n in ch.claim_dd.items()} if ch.claim_dd else None}
    result = None
    if sc is not None:
        result = {"side": str(sc.by_cards_side), "by_cards": sc.by_cards,
                  "honours": {str(s): sc.honours_points[s] for s in Side},
                  "game": sc.game is not None}
        if sc.penalties:  # keys present only when the laws changed the scoring
            result["penalties"] = [{"revoked": str(side), "penalty": how} for side, how in sc.penalties]
            result["tricks_played"] = {str(s): n for s, n in (sc.tricks_played or sc.tricks).items()}
            result["tricks_scored"] = {str(s): n for s, n in sc.tricks.items()}
        if sc.honours_called is not None:
            result["honours_called"] = str(sc.honours_called)
    tricks = []
    for t in rp.tricks:
        tj = {"number": t.number, "leader": str(t.leader), "cards": [str(p.card) for p in t.plays],
              "winner": str(t.winner), "shown": t.shown, "tally": {"AB": t.tally[0], "YZ": t.tally[1]}}
        rulings = ch.rulings_at(t.number)
        if rulings:  # only on tricks where an irregularity is recorded
            tj["irregularities"] = [ruling_json(r) for r in rulings]
        tricks.append(tj)
    data = {
        "title": hf.title,
        "theme": hf.theme,
        "viewpoint": str(hf.known_hand) if hf.known_hand is not None else None,
        "dealer": str(hf.dealer) if hf.dealer is not None else None,
        "turn_up": str(hf.turn_up.card) if hf.turn_up else None,
        "trumps": hf.trumps.letter,
        "score_before": {str(s): n for s, n in hf.score.items()} if hf.score else None,
        "deal": {str(s): [str(c) for c in sorted(rp.hands[s], key=lambda c: (c.suit, -c.rank))] for s in SEATS},
        "tricks": tricks,
        "claim": claim,
        "result": result,
        "score_after": {str(s): n for s, n in sc.after.items()} if sc else None,
    }
    if ch.rulings_at(0):
        data["honours_call"] = ruling_json(ch.rulings_at(0)[0])
    return data


def render_json(ch: CheckedHand) -> str:
    return json.dumps(to_json(ch), indent=2, ensure_ascii=False)


# --- the explanation (``whistbook explain``) -------------------------------------------------

_LAYER_LABEL = {"certain": "certain ", "presumed": "presumed", "probable": "probable"}
_LAYER_ORDER = {"certain": 0, "presumed": 1, "probable": 2}


def render_explanation_text(checked: CheckedHand, ex, trick: int | None = None, ascii_only: bool = False) -> str:
    """The explanation as the ``explain`` command prints it: each trick, then
    what the viewer may conclude, strongest layer first."""
    from . import wording

    hf, rp = checked.hand, checked.replay
    v = ex.viewpoint
    own = sorted(rp.hands[v], key=lambda c: (c.suit, -c.rank))
    held = "  ".join(line for line in _hand_lines(own, ascii_only))
    lines = [f"{hf.title}: the play as {v} sees it", f"{v} holds  {held}"]
    if hf.turn_up is not None and hf.dealer is not None:
        lines.append(f"{hf.dealer} deals and turns up the {hf.turn_up.card.name}; trumps are {hf.trumps.plural}.")
    lines.append("")
    for te in ex.tricks:
        if trick is not None and te.number != trick:
            continue
        tr = rp.tricks[te.number - 1]
        plays = ", ".join(f"{p.seat} {_card(p.card, ascii_only)}" for p in tr.plays)
        lines.append(f"Trick {te.number}: {plays}; {tr.winner} wins.")
        infs = sorted(te.inferences, key=lambda i: (_LAYER_ORDER[i.certainty], i.kind == "signal"))
        if not infs and not te.departures:
            lines.append("  (nothing new)")
        for i in infs:
            rests = f"  [tricks {', '.join(map(str, i.rests_on))}]" if i.rests_on else ""
            said = wording.sentence_text(i, symbols=not ascii_only)
            lines.append(f"  {_LAYER_LABEL[i.certainty]}  {said}{rests}")
        for d in te.departures:
            lines.append(f"  departure {wording.text(wording.departure(d), symbols=not ascii_only)}")
        lines.append("")
    return _sym("\n".join(lines), ascii_only).replace("—", "-" if ascii_only else "—")


def explanation_json(ex) -> dict:
    """The explanation as JSON: the engine's records, each inference and
    departure with its sentence added as ``text``."""
    from . import wording

    data = ex.to_json()
    for te, tj in zip(ex.tricks, data["tricks"]):
        for inf, ij in zip(te.inferences, tj["inferences"]):
            ij["text"] = wording.sentence_text(inf)
    for dep, dj in zip(ex.departures, data["departures"]):
        dj["text"] = wording.text(wording.departure(dep))
    return data
