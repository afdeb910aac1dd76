"""The words whistbook writes about the play, made from records at the edge.

The engines return records (an inference names a seat, a kind, cards, a
suit, counts, a certainty and a rule); this module is the one place that
turns them into words. It returns *words*: a tuple of strings, cards and
suits, so that a page can mark each card up (with its symbol, its colour and
a name a screen reader speaks) and the terminal can print it plainly.
Nothing here is ever parsed back into data.

Two registers:

* a **sentence** reads on its own, for the terminal and JSON
  (``Y has shown out of clubs.``);
* a **phrase** is the short form a lesson lists after the seat it concerns
  (``shown out of ♣``), because a lesson shows one line per seat.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple, Sequence, Union

from .cards import NUMBER_WORDS, RANK_NAMES, Card, Suit, number_word

#: A piece of wording: text, or a card or suit to be written by the renderer.
Word = Union[str, Card, Suit]
Words = tuple[Word, ...]

def page_ref(page: str) -> str:
    """``56`` -> ``p. 56``; ``134-136`` -> ``pp. 134-136``; ``Laws 71-73`` as it is."""
    if not page[:1].isdigit():
        return page
    head, _, tail = page.partition(";")
    first = head.strip()
    ref = ("pp. " if "-" in first or "," in first else "p. ") + first
    return ref + (";" + tail if tail else "")


def join(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def cards_words(cards: Iterable[Card]) -> str:
    """``the king and two of clubs``, ``the ace of hearts and the ten of spades``."""
    by_suit: dict[Suit, list[Card]] = {}
    for c in sorted(cards, key=lambda c: (c.suit, -c.rank)):
        by_suit.setdefault(c.suit, []).append(c)
    return join(["the " + join([RANK_NAMES[c.rank] for c in cs]) + " of " + s.plural for s, cs in by_suit.items()])


def text(words: Words, *, symbols: bool = True) -> str:
    """Words as plain text: cards as ``K♣`` (or ``KC`` without symbols)."""
    out = []
    for w in words:
        if isinstance(w, Card):
            out.append(w.symbol if symbols else str(w))
        elif isinstance(w, Suit):
            out.append(w.symbol if symbols else w.letter)
        else:
            out.append(w)
    return "".join(out)


# --- citations ---------------------------------------------------------------------------


def _rules():
    from .inference.rules import RULES

    return RULES


def rule_title(rule_id: str | None) -> str | None:
    r = _rules().get(rule_id) if rule_id else None
    return r.title if r is not None else None


def citation(rule_id: str | None) -> str | None:
    """The rule as a citation: ``fourth hand wins if he can, p. 96``."""
    r = _rules().get(rule_id) if rule_id else None
    if r is None:
        return None
    title = r.title[0].lower() + r.title[1:]
    return f"{title}, {page_ref(r.page)}" if r.page else title


# --- inferences --------------------------------------------------------------------------

_VERB = {"certain": "", "presumed": "presumably ", "probable": "probably "}


def _count_words(lo: int | None, hi: int | None, suit: Suit) -> str:
    n = lo if lo is not None and lo == hi else (hi if lo is None else lo)
    noun = suit.singular if n == 1 and (lo == hi or lo is None) else suit.plural
    if lo is not None and lo == hi:
        return f"{number_word(lo)} {noun}"
    if hi is None:
        return f"at least {number_word(lo or 0)} {noun}"
    if lo is None:
        return f"at most {number_word(hi)} {noun}"
    return f"{number_word(lo)} to {number_word(hi)} {suit.plural}"


def sentence(inf) -> Words:
    """An inference record as a sentence without its citation.

    The wording follows the certainty and the rule: a void the laws prove
    reads "Y has shown out of clubs", one they infer by counting "Y has no
    clubs left", a presumed one "Y presumably has no clubs left".
    """
    who, suit, q = str(inf.seat), inf.suit, _VERB[inf.certainty]
    if inf.kind == "void":
        if inf.certainty == "certain" and inf.rule == "show_out":
            return (f"{who} has shown out of {suit.plural}.",)
        return (f"{who} {q}has no {suit.plural} left.",)
    if inf.kind == "count":
        return (f"{who} {q}has {_count_words(inf.low, inf.high, suit)} left.",)
    if inf.kind == "holds":
        if inf.rule == "turn_up_card":
            return (f"{who} holds the turned-up ", *inf.cards, ".")
        return (f"{who} {q}holds ", *_cards(inf.cards), ".")
    if inf.kind == "lacks":
        verb = "does not hold" if not q else f"{q}does not hold"
        return (f"{who} {verb} ", *_cards(inf.cards, "or"), ".")
    if inf.kind == "signal":
        return _signal(inf)
    raise ValueError(f"no wording for an inference of kind {inf.kind!r}")


def phrase(inf) -> Words:
    """The short form, written after the seat's name in a lesson's line for
    that seat: ``shown out of ♣``, ``presumably ♥K``, ``no ♦Q or ♦J``."""
    q = _VERB[inf.certainty]
    if inf.kind == "void":
        if inf.certainty == "certain" and inf.rule == "show_out":
            return ("shown out of ", inf.suit)
        return (f"{q}no ", inf.suit, " left")
    if inf.kind == "count":
        return (*_count_clause(inf), " left")
    if inf.kind == "holds":
        return (q or "holds ", *_cards(inf.cards))
    if inf.kind == "lacks":
        return (f"{q}no ", *_cards(inf.cards, "or"))
    if inf.kind == "signal":
        return _signal(inf, short=True)
    raise ValueError(f"no wording for an inference of kind {inf.kind!r}")


def _cards(cards: Sequence[Card], last: str = "and") -> Words:
    out: list[Word] = []
    for k, c in enumerate(cards):
        if k:
            out.append(f" {last} " if k == len(cards) - 1 else ", ")
        out.append(c)
    return tuple(out)


#: what each signal is, and what it shows of the signaller's trumps
_SIGNALS = {
    "call_for_trumps": ("called for trumps", "four trumps with two honours, or five"),
    "echo": ("echoed", "four trumps or more"),
    "trump_fourth_best_count": ("trumped high and then lower", "five trumps or more to begin with"),
    "unblock_partners_suit": ("played high and then low in his partner's suit to clear it", None),
}

#: shorter names for the acts in a lesson's line of news, where the picture shows the rest
_SIGNALS_SHORT = {"unblock_partners_suit": "unblocked his partner's suit", "trump_fourth_best_count": "trumped high, then lower"}

#: what a first discard shows, by the engine's variant of the rule
_DISCARDS = {None: "his weakest suit", "defensive": "his best-guarded suit, trumps being declared against him"}


def _signal(inf, short: bool = False) -> Words:
    if inf.rule == "original_discard":
        if short:
            return ("first discard from ", inf.suit)
        return (f"{inf.seat}'s first discard is from {inf.suit.plural}: {_DISCARDS[inf.variant]}.",)
    act, shows = _SIGNALS[inf.rule]
    played: list[Word] = []
    for k, (card, trick) in enumerate(zip(inf.cards, inf.rests_on)):
        played += [", then " if k else "", card] + ([] if short else [f" at trick {trick}"])
    if short:
        return (f"{_SIGNALS_SHORT.get(inf.rule, act)} (", *played, ")")
    tail = ", which is not a call." if shows is None else f": he holds {shows}."
    return (f"{inf.seat} has {act} (", *played, ")" + tail)


def sentence_text(inf, *, cite: bool = True, symbols: bool = True) -> str:
    """The sentence as plain text, with its citation in brackets."""
    words = text(sentence(inf), symbols=symbols)
    ref = citation(inf.rule) if cite else None
    if ref:
        words = words[:-1] + f" ({ref})."
    return words[:1].upper() + words[1:]


# --- departures from rule ------------------------------------------------------------------


TIER_WORDS = {"good": "good", "inaccuracy": "an inaccuracy", "mistake": "a mistake", "blunder": "a blunder"}


#: the amounts a loss is rounded to in words (the play-along's script says them the same way)
_AMOUNTS = ((0.25, "a quarter of a trick"), (0.33, "a third of a trick"), (0.5, "half a trick"),
            (0.67, "two-thirds of a trick"), (0.75, "three-quarters of a trick"), (1.0, "a trick"))


def tricks_amount(x: float) -> str:
    """An expected number of tricks in words a reader takes in at once: "about
    half a trick", "about two and a half tricks" ("a little" below 0.15)."""
    if x < 0.15:
        return "a little"
    if x <= 1.2:
        return "about " + min(_AMOUNTS, key=lambda a: abs(a[0] - x))[1]
    half = round(x * 2) / 2
    whole = int(half)
    return f"about {number_word(whole)}" + (" and a half tricks" if half > whole else " tricks")


def verdict(v) -> Words:
    """The judge's verdict on the viewer's card at a trick (a lesson's
    :class:`~whistbook.lesson.VerdictView`), when it is worth a line: a card
    that gives up tricks on what its player could see. Empty for a good card."""
    seat = str(v.seat)
    if v.tier != "good":
        gives = []
        if v.loss >= 0.05:
            gives.append(f"{tricks_amount(v.loss)} on average")
        if v.result_loss is not None and v.result_loss >= 0.05:
            gives.append(f"{round(v.result_loss * 100)}% of the chance of the game’s result")
        out: list[Word] = [f"{seat}’s ", v.card, f" is {TIER_WORDS[v.tier]} on what {seat} could see: "
                           f"it gives up {' and '.join(gives) or 'a little'}"]
        if v.best:
            out += ["; ", *_cards(v.best, "or"), " would have been better"]
        return tuple(out) + (".",)
    return ()


def misled(seat, card: Card, trick: int, infs: Sequence, held: Iterable[Card]) -> Words:
    """A presumption the deal proves false: ``infs`` (a lesson's inference views
    drawn from ``seat``'s ``card`` at ``trick``), against what he really held
    after it (``held``)."""
    held = set(held)
    had = sorted({c for inf in infs if inf.kind == "lacks" for c in inf.cards if c in held}, key=lambda c: (c.suit, -c.rank))
    missing = sorted({c for inf in infs if inf.kind == "holds" for c in inf.cards if c not in held},
                     key=lambda c: (c.suit, -c.rank))
    clauses: list[Words] = []
    if had:
        clauses.append((f"{seat} held ", *_cards(had)))
    if missing:
        clauses.append((f"{seat} did not hold ", *_cards(missing, "or")))
    for suit in dict.fromkeys(inf.suit for inf in infs if inf.kind in ("void", "count") and inf.suit is not None):
        n = sum(1 for c in held if c.suit == suit)
        clauses.append((f"{seat} had {number_word(n) if n else 'no'} {suit.plural if n != 1 else suit.singular} left",))
    facts: list[Word] = []
    for k, clause in enumerate(clauses):
        facts += (["; "] if k else []) + list(clause)
    # the rule itself is cited beside the line
    return (f"{seat}’s ", card, f" at trick {trick} did not mean what the convention says: ", *facts,
            ". The presumption misled.")


def departure(dep) -> Words:
    """``Y departed from rule at trick 9 (third hand high): the cards seen by trick 11 show it.``"""
    title = rule_title(dep.rule)
    why = f" ({title[0].lower() + title[1:]})" if title else ""
    card: Words = (" with ", dep.card) if getattr(dep, "card", None) is not None else ()
    if getattr(dep, "layer", "presumed") == "probable":
        return (f"What {dep.seat}'s play at trick {dep.trick}", *card, f" made likely{why} is given up at trick "
                f"{dep.found_at}.",)
    return (f"{dep.seat} departed from rule at trick {dep.trick}", *card, f"{why}: the cards seen by trick "
            f"{dep.found_at} show it.",)


# --- what is new at a trick, one line per seat ---------------------------------------------


class Clause(NamedTuple):
    """One part of a seat's line of news: its words, the rule it rests on (to link), and
    what joins it to the clause before (``"; "``, or ``", "`` when it runs on the same phrase)."""

    words: Words
    rule: str | None
    certainty: str
    sep: str = "; "


#: the short qualifier of each certainty in a line of news
_SHORT = {"certain": "", "presumed": "presumably ", "probable": "perhaps "}


def news(infs: Sequence) -> tuple[Clause, ...]:
    """A seat's new inferences at one trick as a few short clauses.

    The picture of what is known already shows every count and card, so the
    line says only what changed, as briefly as it can: only an exact count
    is written, not one that a void or a certain count already gives; a
    seat's lacks run together as one phrase ("presumably no ♦Q, ♣K"), and so
    do its holdings and the suits it has no more of, each part linked to the
    rule it rests on.
    """
    voids = {(i.suit, i.certainty) for i in infs if i.kind == "void"}
    void_suits = {s for s, _ in voids}
    certain_counts = {i.suit for i in infs if i.kind == "count" and i.certainty == "certain"}
    placed: dict[tuple, int] = {}  # (suit, certainty) -> cards placed in the suit at this trick
    for i in infs:
        if i.kind == "holds" and i.rule != "turn_up_card":
            for c in i.cards:
                placed[(c.suit, i.certainty)] = placed.get((c.suit, i.certainty), 0) + 1
    out: list[Clause] = []
    #: phrases that run on: (phrase, certainty) -> rule -> cards or suits, in order of first appearance
    runs: dict[tuple[str, str], dict[str | None, list]] = {}
    for i in infs:
        if i.kind == "count":
            # the picture shows every range; only an exact count is worth a word
            # nor one that the cards placed beside it already make up
            if (i.low != i.high or i.suit in void_suits or (i.certainty != "certain" and i.suit in certain_counts)
                    or i.certainty == "probable" or placed.get((i.suit, i.certainty)) == i.low):
                continue
            out.append(Clause(_count_clause(i), i.rule, i.certainty))
        elif i.kind == "void":
            if i.certainty != "certain" and (i.suit, "certain") in voids:
                continue
            phrase_key = "shows" if i.certainty == "certain" and i.rule == "show_out" else "void"
            runs.setdefault((phrase_key, i.certainty), {}).setdefault(i.rule, []).append(i.suit)
        elif i.kind == "holds" and i.rule == "turn_up_card":
            out.append(Clause(("holds the turn-up ", *i.cards), i.rule, i.certainty))
        elif i.kind in ("holds", "lacks"):
            runs.setdefault((i.kind, i.certainty), {}).setdefault(i.rule, []).extend(i.cards)
        else:
            out.append(Clause(phrase(i), i.rule, i.certainty))
    for (kind, certainty), by_rule in runs.items():
        q = _SHORT[certainty]
        head, tail = {"holds": (q or "has ", ""), "lacks": (f"{q}no ", ""), "shows": ("shows out of ", ""),
                      "void": (f"{q}no ", " left")}[kind]
        rules = list(by_rule.items())
        for k, (rule, items) in enumerate(rules):
            words: list[Word] = [head] if k == 0 else []
            words += _cards(items, "and" if kind == "holds" else "or")
            if k == len(rules) - 1 and tail:
                words.append(tail)
            out.append(Clause(tuple(words), rule, certainty, "; " if k == 0 else ", "))
    return tuple(out)


def _count_clause(inf) -> Words:
    lo, hi = inf.low, inf.high
    if lo is not None and lo == hi:
        n = f"{lo}"
    elif hi is None:
        n = f"{lo}+"
    elif lo is None or lo == 0:
        n = f"≤{hi}"
    else:
        n = f"{lo}–{hi}"
    return (f"{_SHORT[inf.certainty]}{n} ", inf.suit)


def words_count(words: Words) -> int:
    """How many words a reader meets in ``words``: a card or a suit counts as one."""
    n = 0
    for w in words:
        n += 1 if isinstance(w, (Card, Suit)) else len(w.split())
    return n


__all__ = ["Word", "Words", "NUMBER_WORDS", "number_word", "page_ref", "join", "cards_words", "text", "rule_title",
           "citation", "sentence", "phrase", "sentence_text", "departure", "Clause", "news", "words_count"]


# --- irregularities (the laws in play) ---------------------------------------------------

_HOW_EXPOSED = {
    "dropped": "dropped face up",
    "played-in-error": "played in error",
    "claim": "shown in claiming the rest",
    "concession": "shown in conceding",
    "named": "named while detached from the hand",
}


def law_ref(laws: Sequence[int]) -> str:
    """``Law 72``, ``Laws 62-63``, ``Laws 71, 73``."""
    ns = sorted(set(laws))
    if not ns:
        return ""
    if len(ns) == 1:
        return f"Law {ns[0]}"
    if ns == list(range(ns[0], ns[-1] + 1)):
        return f"Laws {ns[0]}-{ns[-1]}" if len(ns) > 1 else f"Law {ns[0]}"
    return "Laws " + ", ".join(map(str, ns))


def ruling(r) -> Words:
    """What happened and what the law does about it, for a
    :class:`whistbook.laws.Ruling`, without the law reference (see :func:`law_ref`)."""
    seat, adv = r.seat, r.seat.side.other
    cards = r.cards
    if r.kind == "revoke":
        # the adversaries choose their penalty at the end of the hand: the score says which
        return (f"{seat} revokes: he plays ", cards[0], f" to a {r.suit.singular} lead while holding a {r.suit.singular}. "
                "The revoke is established once his side plays to the next trick or the trick is quitted.")
    if r.kind == "revoke-corrected":
        head: Words = (f"{seat} plays ", cards[0], f" to a {r.suit.singular} lead while holding one, and corrects it "
                       "before the revoke is established. ")
        if r.penalty == "exposed":
            return head + (f"{adv} leave ", cards[0], " exposed, liable to be called.")
        if r.penalty in ("highest", "lowest"):
            return head + (f"{adv} have him play his {r.penalty} {r.suit.singular}, ", cards[1], ".")
        return head + (f"{adv} exact no penalty.",)
    if r.kind == "exposed":
        return (f"{seat}'s ",) + _card_list(cards) + (f" {'is' if len(cards) == 1 else 'are'} {_HOW_EXPOSED.get(r.how or '', 'exposed')}: "
                                                    "an exposed card is liable to be called.",)
    if r.kind == "out-of-turn":
        head = (f"{seat} leads ", cards[0], " out of turn. ")
        if r.penalty == "exposed":
            return head + (f"{adv} call the card: it stays exposed until he plays it.",)
        if r.penalty == "stands":
            return (f"{seat} leads ", cards[0], " out of turn, and all three others play to it: the trick stands.")
        if r.penalty == "suit":
            return head + (f"He takes it back, and {adv} will call a suit at the next lead by {seat} or his partner.",)
        return head + (f"{adv} exact no penalty.",)
    if r.kind == "call-card":
        return (f"{adv} call {seat}'s exposed ", cards[0], ", and he plays it.")
    if r.kind == "call-play":
        return (f"{adv} call on {seat} to play his {r.penalty} {r.suit.singular}: ", cards[0], ".")
    if r.kind == "call-suit":
        if r.penalty == "spent":
            return (f"{adv} call {r.suit.plural} from {seat}, who has none: the penalty is spent.",)
        return (f"{adv} call {r.suit.plural} from {seat}, who must lead one: ", cards[0], ".")
    if r.kind == "honours-call":
        if r.answer is None:
            return (f"At eight, {seat} shows his honours before he plays: they score before the tricks.",)
        if r.answer:
            return (f"At eight, {seat} asks his partner whether he holds an honour; {seat.partner} has one, "
                    "and their honours score before the tricks.",)
        return (f"At eight, {seat} asks his partner whether he holds an honour; {seat.partner} has none, "
                "and the call comes to nothing.",)
    return (r.kind,)


def _card_list(cards: Sequence[Card]) -> Words:
    out: list[Word] = []
    for i, c in enumerate(cards):
        if i:
            out.append(" and " if i == len(cards) - 1 else ", ")
        out.append(c)
    return tuple(out)


def penalty_words(score) -> Words:
    """The revoke penalties and called honours in a :class:`whistbook.scoring.Score`, first in the scoring."""
    parts: list[str] = []
    for side, how in score.penalties:
        adv = side.other
        if how == "tricks":
            parts.append(f"{side} revoked: {adv} take three of their tricks (Law 72)")
        elif how == "add":
            parts.append(f"{side} revoked: {adv} add three points (Law 72)")
        elif how == "deduct":
            parts.append(f"{side} revoked: three points are taken from their score (Law 72)")
    if score.penalties:
        sides = {s for s, _ in score.penalties}
        parts.append(" and ".join(str(s) for s in sorted(sides)) + " cannot win the game or pass "
                     + ("four" if score.rules == "short" else "nine") + " on this hand (Laws 81-82)")
    if score.honours_called is not None:
        parts.append(f"{score.honours_called}'s honours, called at eight, score before the tricks")
    return ("; ".join(parts) + ".",) if parts else ()
