"""One whist deal and its play as every exchange format carries it.

A :class:`Record` is made from a checked hand file (:func:`from_checked`),
turned into an endplay ``Board`` for endplay's writers (:func:`to_board`),
and made from an endplay ``Board`` that endplay's parsers read
(:func:`from_board`), then completed and checked by :func:`settle`. Bridge
seats are turned so that the opening leader becomes A; Z, on the leader's
right, deals and is the declarer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..cards import Card, Suit
from ..deal import Deal
from ..errors import DealError, IllegalPlayError, InvalidCardError, RecordError, SourceLocation, WhistbookError
from ..laws import CheckedHand
from ..seats import SEATS, Seat, Side

#: endplay numbers the players clockwise: north 0, east 1, south 2, west 3
_PLAYER = {Seat.B: 0, Seat.Z: 1, Seat.A: 2, Seat.Y: 3}
_PLAYER_NAME = ("North", "East", "South", "West")

#: where in its file a part of a record was written: ("deal" | "play" | "board", trick index)
Locate = Callable[[str, "int | None"], SourceLocation]


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

    @property
    def dealer(self) -> Seat:
        """The dealer sits on the leader's right (the bridge declarer)."""
        return self.leader.rho

    def claim(self) -> dict[Side, int]:
        """Tricks each side takes of those not played."""
        from ..play import replay

        assert self.totals is not None
        tally = replay(self.deal.hands, self.trumps, self.leader, self.tricks).tally
        return {s: self.totals[s] - tally[s] for s in Side}


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
    )


def _claimant(hf) -> Side | None:
    claim = hf.ending.claim if hf.ending else None
    return next(iter(claim)) if claim and len(claim) == 1 else None


def to_board(rec: Record, number: int | None = None) -> Any:
    """An endplay ``Board``: Z deals and bids one in trumps, the others pass, A
    leads, and a claim
    when the play stops short; the result counts Z's side's tricks, as
    bridge does."""
    from endplay.types import Bid, Board, Contract, Denom, Player
    from endplay.types import Card as ECard
    from endplay.types import Deal as EDeal
    from endplay.utils.play import tricks_to_result

    declarer = Player(_PLAYER[rec.dealer])
    deal = EDeal(rec.deal.to_pbn())
    deal.first, deal.trump = declarer.lho, Denom(int(rec.trumps))
    contract = Contract(level=1, denom=Denom(int(rec.trumps)), declarer=declarer)
    if rec.totals is not None:
        contract.result = tricks_to_result(rec.totals[rec.dealer.side], 1)
    play = [ECard(str(c)[1] + str(c)[0]) for t in rec.tricks for c in t]
    # A token auction, Z opening one in trumps: LIN has a contract only
    # through its auction, and many PBN readers expect one.
    auction = [Bid(f"1{rec.trumps.letter}")] + [Bid("pass") for _ in range(3)]
    board = Board(deal, auction, play, number, dealer=declarer, contract=contract,
                  claimed=len(rec.tricks) < len(rec.deal[Seat.A]))
    for seat in SEATS:
        board.info[_PLAYER_NAME[_PLAYER[seat]]] = str(seat)
    if rec.title:
        board.info["Event"] = rec.title.replace('"', "'")  # no reader unescapes a tag's quotes
    return board


def from_board(board: Any) -> Record:
    """The record of an endplay ``Board`` before :func:`settle`: seats turned
    so that the opening leader is A, the contract's strain as trumps, the
    play cut into tricks (the last may be short).

    :raises RecordError: for a board that cannot be whist.
    """
    from endplay.types import Contract, Denom

    c = board.contract
    if c is None and board.auction and board.dealer is not None:  # endplay reads PBN's [Contract] tag only
        c = Contract.from_auction(board.dealer, board.auction)
    if c is None or c.is_passout() or board.deal is None:
        raise RecordError("the record has no contract, so nothing says which suit is trumps")
    if c.denom == Denom.nt:
        raise RecordError(f"the contract is {c.level}NT: whist always has trumps, so a no-trump deal cannot be played as whist")
    first = int(c.declarer.lho)
    seat_of = {(first + k) % 4: SEATS[k] for k in range(4)}
    try:
        deal = Deal.from_hands({seat_of[p]: [Card.parse(str(x)) for x in board.deal[p]] for p in range(4)})
    except (DealError, InvalidCardError) as err:
        raise RecordError(f"deal: {err.message}") from None
    rec = Record(deal, Suit(int(c.denom)), board=board.board_num)
    event = board.info.get("Event") if hasattr(board.info, "get") else None
    rec.title = event if event and event != "?" else None
    if first != _PLAYER[Seat.A]:
        names = ", ".join(f"{_PLAYER_NAME[p]} is {s}" for p, s in sorted(seat_of.items(), key=lambda x: x[1]))
        rec.comments.append(f"seats turned so that the opening leader is A: {names}")
    if board.dealer is not None and int(board.dealer) != int(c.declarer):
        rec.comments.append(f"the record's dealer is {_PLAYER_NAME[int(board.dealer)]}; in whist the dealer is Z, "
                            f"the declarer ({_PLAYER_NAME[int(c.declarer)]})")
    try:
        play = [Card.parse(str(x)) for x in board.play]
    except InvalidCardError as err:  # endplay lets through a play such as "NT2"
        raise RecordError(f"play: {err.message}") from None
    rec.tricks = [play[i:i + 4] for i in range(0, len(play), 4)]
    return rec


def settle(rec: Record, locate: Locate, *, claimed: bool, declarer_tricks: int | None,
           turn_up: Card | None = None) -> Record:
    """Check an imported record and complete it: a full deal, a legal play, a
    claim for the tricks not played that the solver accepts, and a turn-up.

    ``declarer_tricks`` are the tricks the record's result gives Z's side
    (None when it states none); ``turn_up`` is the card given on the command
    line, if any.

    :raises RecordError: located by ``locate``.
    """
    _check_deal(rec, locate)
    _cut_short_trick(rec, locate, claimed)
    _check_play(rec, locate)
    _settle_totals(rec, declarer_tricks)
    _settle_turn_up(rec, turn_up, locate)
    return rec


def _check_deal(rec: Record, locate: Locate) -> None:
    sizes = {s: len(rec.deal[s]) for s in SEATS}
    if set(sizes.values()) != {13}:
        n = sum(sizes.values())
        short = ", ".join(f"{s} holds {k}" for s, k in sizes.items() if k != 13)
        raise RecordError(f"the deal has {n} cards ({short}); a whist deal is 52 cards, 13 a hand", locate("deal", None))


def _cut_short_trick(rec: Record, locate: Locate, claimed: bool) -> None:
    if not rec.tricks or len(rec.tricks[-1]) == 4:
        return
    last = rec.tricks[-1]
    if not claimed:
        raise RecordError(
            f"the play stops in trick {len(rec.tricks)} after {len(last)} card{'s' if len(last) != 1 else ''}, "
            "and no claim accounts for the rest", locate("play", len(rec.tricks) - 1))
    rec.tricks.pop()
    rec.comments.append(f"the claim came during trick {len(rec.tricks) + 1}; its cards played before it "
                        f"({' '.join(map(str, last))}) are left out and the claim covers that trick")


def _check_play(rec: Record, locate: Locate) -> None:
    from ..play import replay

    try:
        replay(rec.deal.hands, rec.trumps, rec.leader, rec.tricks)
    except IllegalPlayError as err:
        raise RecordError(f"play: {err.message}", locate("play", err.trick_index)) from None  # type: ignore[attr-defined]


def _settle_totals(rec: Record, declarer_tricks: int | None) -> None:
    from ..play import replay
    from ..solver import dd_tricks

    rp = replay(rec.deal.hands, rec.trumps, rec.leader, rec.tricks)
    left, side = rp.cards_left, rec.dealer.side
    dd = None
    if left:
        got = dd_tricks(dict(zip(SEATS, rp.remaining)), rec.trumps, rp.next_leader)
        lead = rp.next_leader.side
        dd = {lead: got, lead.other: left - got}
    stated = None
    if declarer_tricks is not None:
        rest = declarer_tricks - rp.tally[side]
        if 0 <= rest <= left:
            stated = {side: rest, side.other: left - rest}
        else:
            rec.comments.append(f"the record's result ({declarer_tricks} tricks to {side}) does not fit the play; "
                                "the claim is the solver's")
    elif dd is not None:
        rec.comments.append("the record states no result; the claim for the tricks not played is the solver's")
    claim = stated or dd or {s: 0 for s in Side}
    rec.totals = {s: rp.tally[s] + claim[s] for s in Side}
    # A claim may give a side less than best play, never more: when the
    # record's result gives one side more, the claim names the other.
    over = [s for s in Side if dd is not None and claim[s] > dd[s]]
    rec.claimant = over[0].other if over else None


def _settle_turn_up(rec: Record, turn_up: Card | None, locate: Locate) -> None:
    dealer = rec.dealer
    trumps = [c for c in rec.deal[dealer] if c.suit == rec.trumps]
    card = turn_up or rec.turn_up
    if card is not None:
        if card not in rec.deal[dealer] or card.suit != rec.trumps:
            raise RecordError(f"the turn-up {card} must be one of the dealer's ({dealer}'s) {rec.trumps.plural}",
                              locate("deal", None))
        rec.turn_up = card
        return
    if not trumps:
        raise RecordError(f"the dealer ({dealer}, the bridge declarer) holds no {rec.trumps.plural}, so no card of the "
                          "trump suit can have been turned up", locate("deal", None))
    rec.turn_up = min(trumps, key=lambda c: c.rank)
    rec.comments.append(f"the record does not say which card was turned up: the dealer's lowest trump, {rec.turn_up}, "
                        "is assumed (give another with --turn-up)")
