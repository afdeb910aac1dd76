"""Turn the layer states after each trick into inference records.

After each trick the engine has, per layer, the state before and after the
trick and a snapshot after every step (the facts, then each presumption in
turn). A conclusion is *new* when it holds now and did not hold after the
previous trick; it is reported in the weakest layer that needs it (a
presumed conclusion that is also certain is reported once, as certain). The
rule named is the one whose step first made it true; a conclusion that first
appears after a step about another seat or suit is credited to counting and
elimination.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from operator import ne

from ..cards import Card, Suit
from ..seats import SEATS, Seat
from .engine import Engine
from .records import LAYERS, Departure, Explanation, Inference, TrickExplanation
from .rules import RULES
from .state import KState, length_bounds


#: every card as a Card, and every set of seats (a 4-bit mask) as a tuple, made once
_CARDS = tuple(Card(Suit(c // 13), c % 13 + 2) for c in range(52))
_SUITS = tuple(Suit(S) for S in range(4))
_SEATS_OF = tuple(tuple(s for s in SEATS if m >> int(s) & 1) for m in range(16))


@lru_cache(maxsize=None)
def _tricks_of(sup: int) -> tuple[int, ...]:
    return tuple(i for i in range(1, 14) if sup >> i & 1)


def build(engine: Engine, runs) -> Explanation:
    V = engine.V
    others = engine.frame.others
    played_by_trick: list[set[int]] = []
    played: set[int] = set()
    for trick in engine.tricks:
        played |= {int(c) for c in trick.cards}
        played_by_trick.append(set(played))
    own = {int(c) for c in engine.hands[SEATS[V]]}
    universe = sorted(engine.frame.universe)
    # played counts per seat/suit after each trick
    counts_after: list[list[list[int]]] = []
    cnt = [[0] * 4 for _ in range(4)]
    for trick in engine.tricks:
        for p in trick.plays:
            cnt[int(p.seat)][int(p.card) // 13] += 1
        counts_after.append([row[:] for row in cnt])
    tricks_out: list[TrickExplanation] = []
    states = []
    dep_by_trick: dict[int, list[Departure]] = {}
    for d in engine.departures:
        dep_by_trick.setdefault(d.found_at, []).append(d)
    for k, run in enumerate(runs):
        t, prev, cur, snaps, notes = run.number, run.before, run.after, run.steps, run.notes
        gone = played_by_trick[k]
        pc_now = counts_after[k]
        pc_prev = counts_after[k - 1] if k else [[0] * 4 for _ in range(4)]
        unseen = [c for c in universe if c not in own and c not in gone]
        infs: list[Inference] = []
        trick = engine.tricks[k]
        led = int(trick.plays[0].card) // 13
        showed_out = {(int(p.seat), led) for p in trick.plays if int(p.card) // 13 != led}
        turn_up = int(engine.turn_up) if engine.turn_up is not None else -1
        earlier = [a for a in engine.assumptions if a.trick < t and a.active]
        played_now = {(int(p.seat), int(p.card) // 13): int(p.card) % 13 for p in trick.plays}
        for L in range(3):
            infs.extend(_layer_news(L, prev, cur, snaps[L], unseen, others, pc_now, pc_prev, t, showed_out,
                                    turn_up, earlier, played_now))
        infs.extend(_signals(notes, engine))
        knowledge = {}
        counts = {}
        for L, name in enumerate(LAYERS):
            st = cur[L]
            poss = st.poss
            knowledge[name] = {_CARDS[c]: _SEATS_OF[poss[c]] for c in unseen}
            counts[name] = _counts_left(st, others, pc_now)
        tricks_out.append(TrickExplanation(t, infs, knowledge, counts, dep_by_trick.get(t, [])))
        states.append(tuple(cur))
    return Explanation(SEATS[V], tricks_out, list(engine.departures), list(engine.retracted),
                       _states=states, _played=counts_after)


def _counts_left(st: KState, others, pc) -> dict[Seat, dict[Suit, tuple[int, int]]]:
    """Per seat and suit, the fewest and most cards he still holds."""
    out = {}
    for s in others:
        row, played = st.lens[s], pc[s]
        per = {}
        for S in range(4):
            lo, hi = length_bounds(row[S])
            per[_SUITS[S]] = (max(0, lo - played[S]), max(0, hi - played[S]))
        out[SEATS[s]] = per
    return out


#: presumptions whose count a later card of the same player can complete
COUNT_RULES = frozenset({"return_count", "lead_fourth_best", "lead_low_after_high", "high_after_high_count",
                         "lead_table", "answer_to_call_count"})


def _layer_news(L: int, prev, cur, snaps, unseen, others, pc_now, pc_prev, t, showed_out, turn_up, earlier=(),
                played_now=None):
    played_now = played_now or {}
    st, pst = cur[L], prev[L]
    stronger = cur[L - 1] if L else None
    certainty = LAYERS[L]
    out: list[Inference] = []

    def cause_of(test) -> tuple[str, object]:
        for step in snaps:
            if test(step):
                return step.kind, step.assumption
        return "facts", None

    def rule_for(kind, a, s, S, default="count_elimination") -> str:
        if kind == "rule" and a is not None and a.seat == s and a.suit == S:
            return a.rule
        if kind == "facts" and L > 0 and (s, S) in played_now:
            # the player's own card of this trick completed a count that an
            # earlier presumption of his in the suit had begun
            best = None
            for b in earlier:
                if b.seat == s and b.suit == S and b.layer <= L and b.rule in COUNT_RULES:
                    best = b
            if best is not None:
                if best.rule == "lead_fourth_best" and played_now[(s, S)] < best.card_index:
                    return "fourth_best_count"
                return best.rule
        return default

    def rem(state_lens, s, S, pc):
        lo, hi = length_bounds(state_lens[s][S])
        return lo - pc[s][S], hi - pc[s][S]

    # voids and counts
    void_now: set[tuple[int, int]] = set()
    size = st.f.size
    for s in others:
        left = size - sum(pc_now[s])
        row, prow, pcs, pcp = st.lens[s], pst.lens[s], pc_now[s], pc_prev[s]
        for S in range(4):
            if row[S] == prow[S] and pcs[S] == pcp[S]:
                # nothing new of this seat and suit: at most a void that was one already
                if row[S].bit_length() - 1 <= pcs[S]:
                    void_now.add((s, S))
                continue
            lo, hi = rem(st.lens, s, S, pc_now)
            plo, phi = rem(pst.lens, s, S, pc_prev)
            if hi <= 0:
                void_now.add((s, S))
                if phi <= 0 or left == 0:
                    continue
                if stronger is not None and rem(stronger.lens, s, S, pc_now)[1] <= 0:
                    continue
                kind, a = cause_of(lambda snap: rem(snap.lens, s, S, pc_now)[1] <= 0)
                if L == 0 and kind == "facts":
                    rule = "show_out" if (s, S) in showed_out else "count_elimination"
                else:
                    rule = rule_for(kind, a, s, S)
                sup = st.bound_support(s, S, None, pc_now[s][S])
                out.append(_mk(s, "void", (), S, certainty, rule, sup))
                continue
            # counts: what is news after allowing for the cards played this trick
            dplay = pc_now[s][S] - pc_prev[s][S]
            plo, phi = plo - dplay, phi - dplay
            slo = shi = None
            if stronger is not None:
                slo, shi = rem(stronger.lens, s, S, pc_now)
            new_lo = lo if (lo > max(plo, 0) and lo >= 2 and (slo is None or lo > slo)) else None
            new_hi = hi if (hi < phi and hi <= 1 and (shi is None or hi < shi)) else None
            if lo == hi and (lo > max(plo, 0) or hi < phi) and (slo is None or slo != shi):
                new_lo = new_hi = lo
            if new_lo is None and new_hi is None:
                continue
            kind, a = cause_of(lambda snap: (new_lo is None or rem(snap.lens, s, S, pc_now)[0] >= new_lo)
                               and (new_hi is None or rem(snap.lens, s, S, pc_now)[1] <= new_hi))
            rule = rule_for(kind, a, s, S)
            sup = st.bound_support(s, S, None if new_lo is None else new_lo + pc_now[s][S],
                                    None if new_hi is None else new_hi + pc_now[s][S])
            out.append(_mk(s, "count", (), S, certainty, rule, sup, new_lo, new_hi))
    # holds and lacks
    lacks: dict[tuple[int, int, str], list[int]] = {}
    lacks_sup: dict[tuple[int, int, str], int] = {}
    poss, pposs = st.poss, pst.poss
    # only the cards whose possible holders changed this trick (picked out in C)
    for c in compress(unseen, map(ne, map(poss.__getitem__, unseen), map(pposs.__getitem__, unseen))):
        p = poss[c]
        pp = pposs[c]
        S = c // 13
        if p & (p - 1) == 0:  # one holder
            s = p.bit_length() - 1
            if pp == p or (stronger is not None and stronger.poss[c] == p):
                continue
            kind, a = cause_of(lambda snap: snap.poss[c] == p)
            if L == 0 and kind == "facts" and c == turn_up:
                rule = "turn_up_card"
            else:
                rule = rule_for(kind, a, s, S)
            out.append(_mk(s, "holds", (c,), S, certainty, rule, st.support_of_card(c, s)))
            continue
        lost = pp & ~p  # the seats that may no longer hold it
        if not lost:
            continue
        for s in others:
            if not lost >> s & 1 or (s, S) in void_now:
                continue
            if stronger is not None and not stronger.poss[c] >> s & 1:
                continue
            kind, a = cause_of(lambda snap: not snap.poss[c] >> s & 1)
            rule = rule_for(kind, a, s, S)
            key = (s, S, rule)
            lacks.setdefault(key, []).append(c)
            lacks_sup[key] = lacks_sup.get(key, 0) | st.rsup[c * 4 + s]
    for (s, S, rule), cs in lacks.items():
        out.append(_mk(s, "lacks", tuple(cs), S, certainty, rule, lacks_sup[(s, S, rule)]))
    return out


def _mk(s, kind, cards, S, certainty, rule, sup, lo=None, hi=None) -> Inference:
    seat = SEATS[s]
    suit = _SUITS[S] if S is not None else None
    cs = tuple(_CARDS[c] for c in cards)
    r = RULES.get(rule)
    return Inference(seat, kind, cs, suit, certainty, rule, r.page if r else None, _tricks_of(sup), lo, hi)


def _signals(notes, engine: Engine) -> list[Inference]:
    out = []
    for n in notes:
        cs = tuple(_CARDS[c] for c in n.cards)
        out.append(Inference(SEATS[n.seat], "signal", cs, Suit(n.suit), "presumed", n.rule, RULES[n.rule].page,
                             tuple(n.tricks), variant=n.variant))
    return out
