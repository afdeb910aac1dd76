"""Inferences an author states in a hand file, and checking them.

A trick may carry ``infer: [...]``, each entry one statement::

    infer:
      - "B lacks KC"                 # certain: must follow from the laws
      - "presumed: Y holds KC"       # a presumption: the conventions must give it
      - "probably: B holds KH"       # what the book calls probable
      - "as Z: presumed: Y holds AC" # from another seat's view (default known_hand)
      - "Y void H"                   # also: "Y has no hearts"
      - "presumed: B has 1 C"        # cards of the suit still held after the trick
      - "presumed: B has at least 4 D"
      - "Z has at most 1 S"
      - "A showed out of H at trick 9"  # a fact of the play, checked on the replay
      - "KC is the best club"           # no higher club is left in any hand
      - "3 trumps remain"               # cards of the suit not yet played, in all hands
      - "2 trumps are out"              # not yet played and not in the viewer's hand

Statements are about the position after the trick they are written under.
The last four kinds are facts of the play that every player sees; they are
checked on the replay (an error when false) and need no engine.
A certain statement the engine cannot derive is an error; a presumed or
probable one it cannot derive is a warning; any statement the certain layer
refutes is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..cards import Card, Suit, parse_number_word
from ..errors import Diagnostic, InvalidCardError, WhistbookError
from ..seats import Seat

LAYER_WORDS = {
    "certain": "certain", "certainly": "certain",
    "presumed": "presumed", "presumably": "presumed", "presume": "presumed",
    "probable": "probable", "probably": "probable", "likely": "probable",
}


class StatementError(WhistbookError):
    """Raised for an inference statement that cannot be read."""


@dataclass(frozen=True)
class Statement:
    text: str
    viewpoint: Seat | None
    certainty: str
    seat: Seat | None  # None for "best", "remain" and "out"
    kind: str  # "holds" | "lacks" | "void" | "count" | "shown_out" | "best" | "remain" | "out"
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None  # None with ``trumps`` for "trumps"
    lo: int | None = None  # for "count": fewest cards of the suit still held
    hi: int | None = None  # for "count": most
    body: str = ""  # the statement without its viewpoint and layer prefixes
    trick: int | None = None  # for "shown_out": the trick it happened at
    trumps: bool = False  # the suit was written "trumps"

    @property
    def is_fact(self) -> bool:
        """A fact of the play, seen by every player: checked on the replay."""
        return self.kind in FACT_KINDS

    def __str__(self) -> str:
        return self.text

    def restated(self, layer: str) -> str:
        """The same statement written for another layer."""
        view = f"as {self.viewpoint}: " if self.viewpoint is not None else ""
        word = {"certain": "", "presumed": "presumed: ", "probable": "probably: "}[layer]
        return view + word + self.body


#: statements about the play itself rather than about unseen cards
FACT_KINDS = frozenset({"shown_out", "best", "remain", "out"})


def _num(word: str) -> int | None:
    return parse_number_word(word)


def parse_statement(text: str) -> Statement:
    """Read one statement; raises :class:`StatementError` naming what is wrong."""
    rest = text.strip()
    viewpoint = None
    certainty = "certain"
    m = re.match(r"(?i)^as\s+(\w+)\s*:\s*", rest)
    if m:
        viewpoint = _seat(m.group(1), text)
        rest = rest[m.end():]
    m = re.match(r"(?i)^(\w+)\s*:\s*", rest)
    if m and m.group(1).lower() in LAYER_WORDS:
        certainty = LAYER_WORDS[m.group(1).lower()]
        rest = rest[m.end():]
    body = rest.strip()
    words = rest.replace(",", " ").split()
    fact = _parse_fact(text, words, viewpoint, certainty, body)
    if fact is not None:
        return fact
    if len(words) < 2:
        raise StatementError(f"{text!r}: expected 'SEAT holds|lacks CARDS', 'SEAT void SUIT' or 'SEAT has N SUIT'")
    seat = _seat(words[0], text)
    verb = words[1].lower()
    args = words[2:]
    if verb in ("holds", "hold"):
        return Statement(text, viewpoint, certainty, seat, "holds", _cards(args, text), body=body)
    if verb in ("lacks", "lack"):
        return Statement(text, viewpoint, certainty, seat, "lacks", _cards(args, text), body=body)
    if verb == "does" and args[:2] and args[0].lower() == "not" and args[1].lower() in ("hold", "have"):
        return Statement(text, viewpoint, certainty, seat, "lacks", _cards(args[2:], text), body=body)
    if verb in ("void", "is") :
        a = [w for w in args if w.lower() not in ("void", "in", "of")]
        if verb == "is" and not (args and args[0].lower() == "void"):
            raise StatementError(f"{text!r}: expected 'SEAT is void in SUIT'")
        return Statement(text, viewpoint, certainty, seat, "void", suit=_suit(a, text), body=body)
    if verb in ("has", "have"):
        if not args:
            raise StatementError(f"{text!r}: 'has' needs cards, or a number and a suit")
        a0 = args[0].lower()
        if a0 in ("no", "none") and len(args) >= 2:
            return Statement(text, viewpoint, certainty, seat, "void", suit=_suit(args[1:], text), body=body)
        if a0 == "at" and len(args) >= 4 and args[1].lower() in ("least", "most"):
            n = _num(args[2])
            if n is None:
                raise StatementError(f"{text!r}: {args[2]!r} is not a number")
            suit = _suit(args[3:], text)
            if args[1].lower() == "least":
                return Statement(text, viewpoint, certainty, seat, "count", suit=suit, lo=n, body=body)
            return Statement(text, viewpoint, certainty, seat, "count", suit=suit, hi=n, body=body)
        n = _num(args[0])
        if n is not None and len(args) >= 2 and not _is_card(args[0]):
            suit = _suit(args[1:], text)
            if n == 0:
                return Statement(text, viewpoint, certainty, seat, "void", suit=suit, body=body)
            return Statement(text, viewpoint, certainty, seat, "count", suit=suit, lo=n, hi=n, body=body)
        return Statement(text, viewpoint, certainty, seat, "holds", _cards(args, text), body=body)
    raise StatementError(f"{text!r}: {words[1]!r} is not one of holds, lacks, void, has")


_FACT_SHOWN_OUT = re.compile(r"(?i)^(\w+)\s+(?:showed|shows|has\s+shown)\s+out\s+of\s+(\w+)(?:\s+at\s+trick\s+(\d{1,6}))?$")
_FACT_BEST = re.compile(r"(?i)^(\w+)\s+is\s+(?:the\s+)?(?:best|master)(?:\s+(\w+?))?(?:\s+left)?$")
_FACT_COUNT = re.compile(r"(?i)^(\w+)\s+(\w+)\s+(?:remains?|(?:are|is)\s+(?:left|out)|out|left)$")


def _parse_fact(text: str, words: list[str], viewpoint, certainty: str, body: str) -> Statement | None:
    """The statements about the play itself, or None for any other."""
    line = " ".join(words)
    m = _FACT_SHOWN_OUT.match(line)
    if m:
        suit, trumps = _suit_or_trumps(m.group(2), text)
        return Statement(text, viewpoint, certainty, _seat(m.group(1), text), "shown_out", suit=suit,
                         trumps=trumps, body=body, trick=int(m.group(3)) if m.group(3) else None)
    m = _FACT_BEST.match(line)
    if m and _is_card(m.group(1)):
        card = Card.parse(m.group(1))
        if m.group(2):
            suit, trumps = _suit_or_trumps(m.group(2), text)
            if suit is not None and suit != card.suit:
                raise StatementError(f"{text!r}: {card} is not a {suit.singular}")
        return Statement(text, viewpoint, certainty, None, "best", (card,), card.suit, body=body)
    m = _FACT_COUNT.match(line)
    if m and _num(m.group(1)) is not None:
        suit, trumps = _suit_or_trumps(m.group(2), text)
        kind = "out" if re.search(r"(?i)\bout$", line) else "remain"
        n = _num(m.group(1))
        return Statement(text, viewpoint, certainty, None, kind, suit=suit, trumps=trumps, lo=n, hi=n, body=body)
    return None


def _suit_or_trumps(word: str, text: str) -> tuple[Suit | None, bool]:
    if word.lower() in ("trump", "trumps"):
        return None, True
    return _suit([word], text), False


def _is_card(w: str) -> bool:
    try:
        Card.parse(w)
        return True
    except InvalidCardError:
        return False


def _seat(w: str, text: str) -> Seat:
    try:
        return Seat.parse(w)
    except InvalidCardError:
        raise StatementError(f"{text!r}: {w!r} is not a seat (A, Y, B or Z)") from None


def _suit(words: list[str], text: str) -> Suit:
    if len(words) != 1:
        raise StatementError(f"{text!r}: expected one suit (S, H, D, C or a suit's name)")
    try:
        return Suit.parse(words[0])
    except InvalidCardError:
        raise StatementError(f"{text!r}: {words[0]!r} is not a suit") from None


def _cards(words: list[str], text: str) -> tuple[Card, ...]:
    if not words:
        raise StatementError(f"{text!r}: no cards named")
    out = []
    for w in words:
        try:
            out.append(Card.parse(w))
        except InvalidCardError:
            raise StatementError(f"{text!r}: {w!r} is not a card (write e.g. KC, TD)") from None
    return tuple(out)


# ------------------------------------------------------------------ evaluation

def holds_in(ex, trick: int, st: Statement, layer: str | None = None) -> bool:
    """Whether the explanation's ``layer`` (default: the statement's own) gives
    the statement after ``trick``."""
    layer = layer or st.certainty
    if st.kind == "holds":
        return all(ex.holders(trick, c, layer) == (st.seat,) for c in st.cards)
    if st.kind == "lacks":
        return all(st.seat not in ex.holders(trick, c, layer) for c in st.cards)
    if st.seat == ex.viewpoint:
        return False
    lo, hi = ex.remaining(trick, st.seat, st.suit, layer)
    if st.kind == "void":
        return hi <= 0
    ok = True
    if st.lo is not None:
        ok &= lo >= st.lo
    if st.hi is not None:
        ok &= hi <= st.hi
    return ok


def refuted_in(ex, trick: int, st: Statement, layer: str = "certain") -> bool:
    """Whether the layer shows the statement cannot be true."""
    if st.kind == "holds":
        return any(st.seat not in ex.holders(trick, c, layer) for c in st.cards)
    if st.kind == "lacks":
        return any(ex.holders(trick, c, layer) == (st.seat,) for c in st.cards)
    if st.seat == ex.viewpoint:
        return False
    lo, hi = ex.remaining(trick, st.seat, st.suit, layer)
    if st.kind == "void":
        return lo > 0
    return (st.lo is not None and hi < st.lo) or (st.hi is not None and lo > st.hi)


def fact_error(rp, trick: int, st: Statement, view: Seat) -> str | None:
    """Why a statement about the play is false after ``trick`` (None when it is true)."""
    trumps = rp.trumps
    suit = trumps if st.trumps else st.suit
    if suit is None:
        return "there are no trumps in this hand"
    played = {p.card for t in rp.tricks[:trick] for p in t.plays}
    if st.kind == "shown_out":
        at = st.trick if st.trick is not None else trick
        if at > trick:
            return f"trick {at} is not played yet"
        t = rp.tricks[at - 1]
        if t.led_suit != suit:
            return f"trick {at} is led in {t.led_suit.plural}, not {suit.plural}"
        card = t.card_of(st.seat)
        if card.suit == suit:
            return f"{st.seat} follows with {card} at trick {at}"
        return None
    if st.kind == "best":
        (card,) = st.cards
        if card in played:
            return f"{card} has been played"
        higher = [c for h in rp.hands for c in h if c.suit == card.suit and c.rank > card.rank and c not in played]
        if higher:
            return f"{', '.join(map(str, sorted(higher, key=lambda c: -c.rank)))} is still to be played"
        return None
    left = [c for h in rp.hands for c in h if c.suit == suit and c not in played]
    if st.kind == "out":
        left = [c for c in left if c not in rp.hands[view]]
    if len(left) != st.lo:
        where = "in all four hands" if st.kind == "remain" else f"outside {view}'s hand"
        return f"{len(left)} {suit.plural if len(left) != 1 else suit.singular} remain {where}"
    return None


def check_stated(checked, explained=None) -> list[Diagnostic]:
    """Diagnostics for every ``infer:`` statement of a checked hand file;
    ``explained`` is the hand's explanation from its known hand, when the
    caller has made it already (so it is not made twice)."""
    hf, rp = checked.hand, checked.replay
    if hf is None or rp is None or not any(t.infer for t in hf.tricks):
        return []
    from . import explain

    default_view = hf.known_hand if hf.known_hand is not None else Seat.A
    cache: dict[Seat, object] = {default_view: explained} if explained is not None else {}
    out: list[Diagnostic] = []
    for rec in hf.tricks:
        if rec.index >= len(rp.tricks):
            continue
        for stated in rec.infer:
            text = str(stated.value)
            try:
                st = parse_statement(text)
            except StatementError as err:
                out.append(Diagnostic(stated.loc, "error", f"trick {rec.number}: inference {err.message}"))
                continue
            view = st.viewpoint or default_view
            if st.is_fact:
                wrong = fact_error(rp, rec.number, st, view)
                if wrong:
                    out.append(Diagnostic(stated.loc, "error", f"trick {rec.number}: {text!r} is not so: {wrong}"))
                continue
            if view == st.seat:
                out.append(Diagnostic(stated.loc, "error",
                                      f"trick {rec.number}: {text!r} is about {view}'s own hand, which {view} sees"))
                continue
            ex = cache.get(view)
            if ex is None:
                ex = cache[view] = explain(checked, view)
            if refuted_in(ex, rec.number, st):
                out.append(Diagnostic(stated.loc, "error",
                                      f"trick {rec.number}: {text!r} cannot be true: the cards seen by {view} rule it out"))
                continue
            if holds_in(ex, rec.number, st):
                continue
            if st.certainty == "certain":
                hint = ""
                for layer in ("presumed", "probable"):
                    if holds_in(ex, rec.number, st, layer):
                        hint = f"; it rests on the conventions, so write {st.restated(layer)!r}"
                        break
                out.append(Diagnostic(stated.loc, "error",
                                      f"trick {rec.number}: {text!r} does not follow from the laws and the cards "
                                      f"{view} has seen{hint}"))
            else:
                why = ""
                if refuted_in(ex, rec.number, st, "presumed"):
                    why = " (the conventions point the other way)"
                elif st.certainty == "presumed" and holds_in(ex, rec.number, st, "probable"):
                    why = f" (it is only probable: write {st.restated('probable')!r})"
                out.append(Diagnostic(stated.loc, "warning",
                                      f"trick {rec.number}: the engine does not derive {text!r} from {view}'s view "
                                      f"by this trick{why}"))
    return out
