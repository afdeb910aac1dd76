"""One whist deal and its play as every exchange format carries it.

A :class:`Record` is made from a checked hand file (:func:`from_checked`) and
written by :mod:`.pbn` and :mod:`.lin`, or made from a bridge board those
modules read (:func:`.bridge.to_record`) and completed by :func:`settle_totals`
(the tricks each side takes, the solver's claim where the record says none)
and :func:`settle_turn_up`. Bridge seats are turned so that the opening
leader becomes A; Z, on the leader's right, deals and is the declarer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card, Suit
from ..deal import Deal
from ..errors import RecordError, SourceLocation, WhistbookError
from ..laws import CheckedHand
from ..seats import SEATS, Seat, Side


@dataclass
class Record:
    """A deal, who leads, trumps, the tricks played and the tricks each side takes."""

    deal: Deal
    trumps: Suit
    leader: Seat = Seat.A
    #: the dealer's turned-up card; None when the record does not say
    turn_up: Card | None = None
    #: each trick's cards in play order from its leader
    tricks: list[list[Card]] = field(default_factory=list)
    #: tricks each side takes over the whole hand; None when the record does not say
    totals: dict[Side, int] | None = None
    #: the one side a claim names (its tricks checked by the solver); None names both
    claimant: Side | None = None
    title: str | None = None
    #: the remark on each trick (None where there is none), and the account of the ending
    remarks: list[str | None] = field(default_factory=list)
    account: str | None = None
    #: what a reader of an imported record should know (seats turned, a default turn-up)
    comments: list[str] = field(default_factory=list)
    board: int | None = None
    #: the tricks the record's result gives Z's side (the bridge declarer's) in all; None when it states none
    declarer_tricks: int | None = None
    #: irregularities by trick index, each as a hand file writes it
    #: (``{"revoke": {"card": "2C", "penalty": "tricks"}}``)
    laws: dict[int, dict] = field(default_factory=dict)
    #: the score before the hand (points of each side); None for love-all
    score: dict[Side, int] | None = None

    @property
    def dealer(self) -> Seat:
        """The dealer sits on the leader's right (the bridge declarer)."""
        return self.leader.rho

    def claim(self) -> dict[Side, int]:
        """Tricks each side takes of those not played."""
        assert self.totals is not None
        tally = self.replay().tally
        return {s: self.totals[s] - tally[s] for s in Side}

    def replay(self):
        """The tricks replayed, the recorded irregularities allowed as the
        laws allow them (an established revoke stands, a lead out of turn
        that stood begins its trick).

        :raises IllegalPlayError: at the first play the laws do not allow.
        """
        from ..play import replay

        revokes, leaders = set(), {}
        owner = {c: s for s in SEATS for c in self.deal[s]}
        for i, entry in self.laws.items():
            for rv in _as_list(entry.get("revoke")):
                if not rv.get("corrected"):
                    revokes.add((i, Card.parse(str(rv["card"]))))
            ot = entry.get("out_of_turn")
            if isinstance(ot, dict) and ot.get("stands"):
                leaders[i] = owner[Card.parse(str(ot["card"]))]
        return replay(self.deal.hands, self.trumps, self.leader, self.tricks, revokes=revokes, leaders=leaders)

    def revokes(self) -> list[tuple[Side, str]]:
        """(revoking side, penalty) of each established revoke, for the score."""
        owner = {c: s for s in SEATS for c in self.deal[s]}
        return [(owner[Card.parse(str(rv["card"]))].side, str(rv.get("penalty", "none")))
                for entry in self.laws.values() for rv in _as_list(entry.get("revoke")) if not rv.get("corrected")]


def flow(value) -> str:
    """A value in YAML's flow style, as whistbook's tags carry it:
    ``{2: {revoke: {card: 2C, penalty: tricks}}}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def from_checked(checked: CheckedHand) -> Record:
    """The record of a checked hand file: its deal and every trick written,
    shown or written out.

    :raises WhistbookError: for a problem file or a hand that does not replay.
    """
    hf, rp = checked.hand, checked.replay
    if hf is None or rp is None or checked.final_tricks is None:
        raise WhistbookError("the hand has errors ('whistbook validate' lists them), so it is not exported")
    if hf.kind != "hand":
        raise WhistbookError("a problem is a position, not a dealt hand; only hands are exported")
    return Record(
        deal=Deal.from_hands(dict(zip(SEATS, rp.hands))), trumps=hf.trumps, leader=hf.leader,
        turn_up=hf.turn_up.card if hf.turn_up else None, tricks=[list(t.cards) for t in rp.tricks],
        totals=dict(checked.final_tricks), claimant=_claimant(hf), title=hf.title, remarks=[t.remark for t in hf.tricks],
        account=hf.ending.account if hf.ending else None,
        laws={t.index: laws_of(t) for t in hf.tricks if t.irregular},
        score=dict(hf.score) if hf.score and any(hf.score.values()) else None,
    )


def laws_of(t) -> dict:
    """A trick's irregularities as a hand file writes them (plain values)."""
    out: dict = {}
    if t.revokes:
        out["revoke"] = _one_or_list([{"card": str(r.card.card), **({"corrected": True} if r.corrected else {}),
                                       "penalty": r.penalty} for r in t.revokes])
    if t.exposed:
        out["exposed"] = _one_or_list([{"cards": " ".join(str(c.card) for c in e.cards), "how": e.how}
                                       for e in t.exposed])
    if t.out_of_turn is not None:
        ot = t.out_of_turn
        out["out_of_turn"] = {"card": str(ot.card.card), "stands": True} if ot.stands else \
            {"card": str(ot.card.card), "penalty": ot.penalty}
    if t.calls:
        out["call"] = _one_or_list([_call(c) for c in t.calls])
    return out


def _call(c):
    if c.card is not None:
        return str(c.card.card)
    if c.suit is not None:
        return {"suit": c.suit.letter}
    return {"seat": str(c.seat), "play": c.play}


def _one_or_list(items: list):
    return items[0] if len(items) == 1 else items


def _claimant(hf) -> Side | None:
    claim = hf.ending.claim if hf.ending else None
    return next(iter(claim)) if claim and len(claim) == 1 else None


def settle_totals(rec: Record) -> Record:
    """Complete a checked record with the tricks each side takes in all: the
    record's own result where it fits the play (:attr:`Record.declarer_tricks`),
    else the double-dummy solver's claim for the tricks not played, with a
    comment. A claim may give a side less than best play, never more: when
    the record's result gives one side more, the claim names the other."""
    from ..solver import dd_tricks

    rp = rec.replay()
    left, side = rp.cards_left, rec.dealer.side
    dd = None
    if left:
        got = dd_tricks(dict(zip(SEATS, rp.remaining)), rec.trumps, rp.next_leader)
        lead = rp.next_leader.side
        dd = {lead: got, lead.other: left - got}
    stated = None
    if rec.declarer_tricks is not None:
        rest = rec.declarer_tricks - rp.tally[side]
        if 0 <= rest <= left:
            stated = {side: rest, side.other: left - rest}
        else:
            rec.comments.append(f"the record's result ({rec.declarer_tricks} tricks to {side}) does not fit the play; "
                                "the claim is the solver's")
    elif dd is not None and left == 13:
        rec.comments.append("no card is played in the record: the whole hand is the solver's claim")
    elif dd is not None:
        rec.comments.append("the record states no result; the claim for the tricks not played is the solver's")
    claim = stated or dd or {s: 0 for s in Side}
    rec.totals = {s: rp.tally[s] + claim[s] for s in Side}
    over = [s for s in Side if dd is not None and claim[s] > dd[s]]
    rec.claimant = over[0].other if over else None
    return rec


def settle_turn_up(rec: Record, turn_up: Card | None, where: SourceLocation | None) -> None:
    """The turn-up: the one given (on the command line, or in the record),
    which must be one of the dealer's trumps, else the dealer's lowest trump,
    with a comment.

    :raises RecordError: at ``where`` for a turn-up the dealer cannot have turned.
    """
    dealer = rec.dealer
    trumps = [c for c in rec.deal[dealer] if c.suit == rec.trumps]
    card = turn_up or rec.turn_up
    if card is not None:
        if card not in rec.deal[dealer] or card.suit != rec.trumps:
            raise RecordError(f"the turn-up {card} must be one of the dealer's ({dealer}'s) {rec.trumps.plural}", where)
        rec.turn_up = card
        return
    if not trumps:
        raise RecordError(f"the dealer ({dealer}, the bridge declarer) holds no {rec.trumps.plural}, so no card of the "
                          "trump suit can have been turned up", where)
    rec.turn_up = min(trumps, key=lambda c: c.rank)
    rec.comments.append(f"the record does not say which card was turned up: the dealer's lowest trump, {rec.turn_up}, "
                        "is assumed (give another with --turn-up)")
