"""A bridge board as PBN and LIN records hold it, before it becomes whist.

The readers (:mod:`.pbn`, :mod:`.lin`) fill a :class:`BridgeBoard` with what
the file says, each part with its place in the file; :func:`to_record` then
decides whether the board can be whist at all and turns its seats, so that
the opening leader is A and the declarer Z. Nothing here guesses: a
declarer comes from the record's declarer, else from its auction, and a
board that says neither is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import DECK, Card, Suit
from ..deal import Deal
from ..errors import DealError, IllegalPlayError, RecordError, SourceLocation
from ..seats import SEATS
from .record import Record, settle_turn_up

#: bridge seats clockwise
COMPASS = "NESW"
COMPASS_NAME = {"N": "North", "E": "East", "S": "South", "W": "West"}
STRAINS = ("C", "D", "H", "S", "NT")
_SUIT_OF_STRAIN = {letter: Suit("SHDC".index(letter)) for letter in "SHDC"}


class NotWhistError(RecordError):
    """A board that is a sound bridge record but cannot be played as whist
    (no trumps, passed out, no deal, a play that stops without a result):
    it is skipped with a note, unless ``--strict``. ``hint`` says how the
    board could still come in, when there is a way."""

    def __init__(self, message: str, loc: SourceLocation | None = None, hint: str | None = None) -> None:
        super().__init__(message, loc)
        self.hint = hint


#: what a board that names no trumps can be imported with
TRUMPS_HINT = "--trumps SUIT imports it with that suit as trumps"


def lho(seat: str, n: int = 1) -> str:
    return COMPASS[(COMPASS.index(seat) + n) % 4]


@dataclass(frozen=True)
class Contract:
    level: int
    strain: str  # one of STRAINS
    doubled: str = ""  # "", "X" or "XX"

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{self.doubled}"


#: a passed-out board's contract
PASSED_OUT = "passed out"


@dataclass
class Played:
    """One card of the play, where it is written, and the mark PBN may put
    before it (``^R`` a revoke, ``^L`` a lead out of turn)."""

    card: Card
    loc: SourceLocation
    mark: str | None = None


@dataclass
class BridgeBoard:
    """One board of a PBN or LIN file, as read; every part located."""

    path: str
    loc: SourceLocation
    #: place in the file, from 1
    order: int = 0
    number: int | None = None
    #: the board's label when it is not a plain number (``[Board "6-1"]``)
    label: str | None = None
    room: str | None = None
    table: str | None = None
    title: str | None = None
    #: cards by compass seat; a seat the record leaves out is missing
    hands: dict[str, list[Card]] | None = None
    deal_loc: SourceLocation | None = None
    dealer: str | None = None
    contract: Contract | str | None = None  # a Contract, PASSED_OUT, or None when not stated
    contract_loc: SourceLocation | None = None
    declarer: str | None = None
    declarer_loc: SourceLocation | None = None
    #: calls ("P", "X", "XX", "1C", ...) from the seat that made the first
    auction: list[tuple[str, SourceLocation]] = field(default_factory=list)
    auction_first: str | None = None
    auction_loc: SourceLocation | None = None
    #: PBN: rows of four cards by seat from ``play_first`` (None where a row has "-")
    play_rows: list[list[Played | None]] | None = None
    play_first: str | None = None
    #: LIN: the cards in the order played
    play_seq: list[Played] | None = None
    play_loc: SourceLocation | None = None
    #: the play section was closed on purpose (PBN "*", LIN mc|)
    closed: bool = False
    #: the declarer's tricks in all, as the record states them (PBN Result, LIN mc|)
    declarer_tricks: int | None = None
    #: tricks of one side, when the result names it ("NS 11")
    side_tricks: tuple[str, int] | None = None
    result_loc: SourceLocation | None = None
    #: what only whistbook writes: the turn-up, the score, irregularities
    turn_up: Card | None = None
    score: dict | None = None
    laws: dict[int, dict] | None = None
    remarks: dict[int, str] = field(default_factory=dict)
    account: str | None = None
    #: the first fault met while reading the board, reported when it is used
    problem: RecordError | None = None
    #: what a reader of the hand file made from the board should know (how the file was read)
    comments: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The board as a reader of the file would name it."""
        name = f"board {self.number}" if self.number is not None else (
            f"board {self.label}" if self.label else f"the {_ordinal(self.order)} board")
        extra = [f"{self.room} room" if self.room else "", f"table {self.table}" if self.table else ""]
        extra = [e for e in extra if e]
        return name + (f" ({', '.join(extra)})" if extra else "")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def contract_from_auction(board: BridgeBoard) -> tuple[Contract | str | None, str | None]:
    """The final contract and its declarer (the first of the declaring side
    to name the strain), or PASSED_OUT; (None, None) when the auction is
    not finished or there is none.

    :raises RecordError: at a call that is not a call.
    """
    if not board.auction or board.auction_first is None:
        return None, None
    seat = board.auction_first
    last: tuple[int, str, str] | None = None  # level, strain, bidder
    doubled = ""
    first_to_name: dict[tuple[int, str], str] = {}
    passes = 0
    for call, loc in board.auction:
        if call == "P":
            passes += 1
        elif call in ("X", "XX"):
            doubled, passes = call, 0
        else:
            level, strain = int(call[0]), call[1:]
            side = COMPASS.index(seat) % 2
            first_to_name.setdefault((side, strain), seat)
            last, doubled, passes = (level, strain, seat), "", 0
        seat = lho(seat)
    if last is None:
        return (PASSED_OUT, None) if passes >= 4 else (None, None)
    level, strain, bidder = last
    side = COMPASS.index(bidder) % 2
    return Contract(level, strain, doubled), first_to_name[(side, strain)]


def tricks_in_order(board: BridgeBoard, leader: str, strain: str) -> tuple[list[list[Played]], list[Played]]:
    """The complete tricks in play order from each trick's leader, and the
    cards of a trick the play stops in (perhaps none).

    :raises RecordError: for a play section whose rows cannot be tricks.
    """
    if board.play_seq is not None:
        seq = board.play_seq
        full = len(seq) // 4 * 4
        return [seq[i:i + 4] for i in range(0, full, 4)], seq[full:]
    rows = board.play_rows or []
    first = board.play_first or leader
    if first != leader:
        raise RecordError(f"the play section begins with {COMPASS_NAME[first]}, but the opening lead is "
                          f"{COMPASS_NAME[leader]}'s, on the declarer's left", board.play_loc)
    trumps = _SUIT_OF_STRAIN.get(strain)
    tricks: list[list[Played]] = []
    partial: list[Played] = []
    for n, row in enumerate(rows):
        present = [p for p in row if p is not None]
        if not present:
            continue  # a row of "-": nothing played
        if partial:
            raise RecordError(f"trick {len(tricks) + 1} stops after {len(partial)} card{'s' if len(partial) != 1 else ''}, "
                              f"yet the play goes on in the next row", present[0].loc)
        marked = next((k for k, p in enumerate(row) if p is not None and p.mark == "^L"), None)
        lead_col = marked if marked is not None else (COMPASS.index(leader) - COMPASS.index(first)) % 4
        ordered = [row[(lead_col + k) % 4] for k in range(4)]
        if len(present) < 4:
            partial = [p for p in ordered if p is not None]
            continue
        trick = [p for p in ordered if p is not None]
        tricks.append(trick)
        win = _winner([p.card for p in trick], trumps)
        leader = COMPASS[(COMPASS.index(first) + lead_col + win) % 4]
    return tricks, partial


def _winner(cards: list[Card], trumps: Suit | None) -> int:
    best = 0
    for k, c in enumerate(cards[1:], 1):
        b = cards[best]
        if (c.suit == b.suit and c.rank > b.rank) or (c.suit == trumps and b.suit != trumps):
            best = k
    return best


def to_record(board: BridgeBoard, turn_up: Card | None = None, trumps: Suit | None = None) -> Record:
    """The board as a checked whist record, all but its totals
    (:func:`~.record.settle_totals` adds them): seats turned so that the
    opening leader is A, the strain as trumps, every complete trick checked
    card by card, the turn-up (``turn_up`` from the command line, else the
    record's, else the dealer's lowest trump). A board whose record names
    no trumps (a deal alone, or passed out) is dealt with ``trumps`` when
    given (:func:`_dealt_record`); a contract's strain always wins.

    :raises NotWhistError: for a board that cannot be whist.
    :raises RecordError: for a board that is wrong or incomplete.
    """
    if board.problem is not None:
        raise board.problem
    if board.hands is None:
        raise NotWhistError("the record has no deal, only the board's other details", board.loc)
    if trumps is not None and _stated_contract(board) in (None, PASSED_OUT):
        return _dealt_record(board, trumps, turn_up)
    contract, declarer = _contract_and_declarer(board)
    leader = lho(declarer)
    rec = _seated(board, leader, _SUIT_OF_STRAIN[contract.strain], "the opening leader")
    if board.dealer is not None and board.dealer != declarer:
        rec.comments.append(f"the record's dealer is {COMPASS_NAME[board.dealer]}; in whist the dealer is Z, "
                            f"the declarer ({COMPASS_NAME[declarer]})")
    tricks, partial = tricks_in_order(board, leader, contract.strain)
    rec.tricks = [[p.card for p in t] for t in tricks]
    rec.turn_up, rec.score = board.turn_up, board.score
    rec.remarks = [board.remarks.get(i + 1) for i in range(len(rec.tricks))]
    rec.account = board.account
    rec.laws = dict(board.laws) if board.laws is not None else _marked_laws(tricks)
    rec.declarer_tricks = _stated_tricks(board, declarer)
    if partial:
        _cut_short_trick(board, rec, partial)
    _check_play(rec, tricks)
    settle_turn_up(rec, turn_up, board.deal_loc or board.loc)
    return rec


def _seated(board: BridgeBoard, leader: str, trumps: Suit, who: str) -> Record:
    """A record of the board's deal with ``leader`` as A and ``trumps``,
    its title and comments, and a comment when the seats were turned
    (``who`` names the leader in it)."""
    hands = _full_hands(board)
    seat_of = {lho(leader, k): SEATS[k] for k in range(4)}
    try:
        deal = Deal.from_hands({seat_of[p]: hands[p] for p in COMPASS})
    except DealError as err:
        raise RecordError(f"deal: {err.message}", board.deal_loc) from None
    rec = Record(deal, trumps, board=board.number)
    rec.title = board.title
    rec.comments.extend(board.comments)
    if leader != "S":
        names = ", ".join(f"{COMPASS_NAME[p]} is {s}" for p, s in sorted(seat_of.items(), key=lambda x: x[1]))
        rec.comments.append(f"seats turned so that {who} is A: {names}")
    return rec


def _stated_contract(board: BridgeBoard) -> Contract | str | None:
    """The record's contract, else its auction's: PASSED_OUT for a board
    passed out, None for a deal alone."""
    return board.contract if board.contract is not None else contract_from_auction(board)[0]


def _dealt_record(board: BridgeBoard, trumps: Suit, turn_up: Card | None) -> Record:
    """A board whose record names no trumps, dealt as whist with the suit the
    command line chose: the record's dealer deals (Z) and the player on his
    left leads (A); no card is played, so the claim is the whole hand.

    :raises NotWhistError: when the dealer holds no card of ``trumps``.
    """
    dealer, why = _dealer_of(board)
    where = board.deal_loc or board.loc
    hands = _full_hands(board)
    if not any(c.suit == trumps for c in hands[dealer]):
        raise NotWhistError(f"the dealer ({COMPASS_NAME[dealer]}) holds no {trumps.plural}, so cannot turn up a "
                            f"card of that suit (--trumps {trumps.letter})", where)
    rec = _seated(board, lho(dealer), trumps, "the player on the dealer's left, who leads,")
    passed = _stated_contract(board) == PASSED_OUT
    rec.comments.append(f"the {'board was passed out' if passed else 'record names no contract'}: "
                        f"{trumps.plural} are trumps as chosen on the command line (--trumps {trumps.letter})")
    if why:
        rec.comments.append(why)
    if board.play_rows or board.play_seq:
        rec.comments.append("the record's play is not kept: with no contract nothing says who led")
    rec.turn_up = board.turn_up
    settle_turn_up(rec, turn_up, where)
    return rec


def _dealer_of(board: BridgeBoard) -> tuple[str, str | None]:
    """The record's dealer, else the one a board of its number usually has
    (North deals board 1, East board 2, and round), with a sentence saying so."""
    if board.dealer is not None:
        return board.dealer, None
    if board.number is not None:
        dealer = COMPASS[(board.number - 1) % 4]
        name = COMPASS_NAME[dealer]
        return dealer, f"the record names no dealer: {name} deals, the usual dealer of board {board.number}"
    return "N", "the record names no dealer and no board number: North deals, as on board 1"


def _contract_and_declarer(board: BridgeBoard) -> tuple[Contract, str]:
    contract, declarer = board.contract, board.declarer
    derived, by = contract_from_auction(board)
    if contract is None:
        contract = derived
    where = board.contract_loc or board.auction_loc or board.loc
    if contract is None:
        raise NotWhistError("the record has a deal but no contract and no finished auction, so nothing says "
                            "which suit is trumps", board.deal_loc or board.loc, TRUMPS_HINT)
    if contract == PASSED_OUT:
        raise NotWhistError("the board was passed out: no one played it", where, TRUMPS_HINT)
    assert isinstance(contract, Contract)
    if contract.strain == "NT":
        raise NotWhistError(f"the contract is {contract.level}NT: whist always has trumps, so a no-trump deal "
                            "cannot be played as whist", where)
    if declarer is None and isinstance(derived, Contract) and derived.strain == contract.strain:
        declarer = by
    if declarer is None:
        raise RecordError(f"the record names no declarer for {contract} and its auction does not show one, so "
                          "nothing says who leads", board.declarer_loc or where)
    return contract, declarer


def _stated_tricks(board: BridgeBoard, declarer: str) -> int | None:
    """The declarer's tricks in all, from the record's result."""
    if board.side_tricks is not None:
        side, n = board.side_tricks
        return n if declarer in side else 13 - n
    return board.declarer_tricks


def _cut_short_trick(board: BridgeBoard, rec: Record, partial: list[Played]) -> None:
    """A play that stops inside a trick: with a result (or a claim) the
    claim covers that trick; without one, the board cannot be completed."""
    n = len(partial)
    if rec.declarer_tricks is None and not board.closed:
        raise NotWhistError(f"the play stops in trick {len(rec.tricks) + 1} after {n} card{'s' if n != 1 else ''}, "
                            "and no result or claim says how the rest went", partial[0].loc)
    rec.comments.append(f"the claim came during trick {len(rec.tricks) + 1}; its cards played before it "
                        f"({' '.join(str(p.card) for p in partial)}) are left out and the claim covers that trick")


def _check_play(rec: Record, tricks: list[list[Played]]) -> None:
    try:
        rec.replay()
    except IllegalPlayError as err:
        ti, pi = err.trick_index, err.play_index
        raise RecordError(f"play: {err.message}", tricks[ti][pi].loc) from None


def _marked_laws(tricks: list[list[Played]]) -> dict[int, dict]:
    """Irregularities from PBN's marks alone: a revoke (``^R``) that no one
    claimed a penalty for, and a lead out of turn (``^L``) that stood."""
    laws: dict[int, dict] = {}
    for i, trick in enumerate(tricks):
        for p in trick:
            if p.mark == "^R":
                laws.setdefault(i, {})["revoke"] = {"card": str(p.card), "penalty": "none"}
            elif p.mark == "^L":
                laws.setdefault(i, {})["out_of_turn"] = {"card": str(p.card), "stands": True}
    return laws


def _full_hands(board: BridgeBoard) -> dict[str, list[Card]]:
    """The four hands; a single missing hand is the 13 cards the other three
    leave, as PBN and LIN both allow.

    :raises RecordError: for a deal that is not 52 cards, 13 a hand.
    """
    hands = dict(board.hands or {})
    missing = [p for p in COMPASS if p not in hands]
    if len(missing) == 1:
        held = {c for h in hands.values() for c in h}
        hands[missing[0]] = [c for c in DECK if c not in held]
    elif missing:
        given = 4 - len(missing)
        raise NotWhistError(f"the deal gives only {given} hand{'s' if given != 1 else ''} "
                            f"({', '.join(COMPASS_NAME[p] for p in missing)} left out)", board.deal_loc)
    sizes = {p: len(hands[p]) for p in COMPASS}
    if set(sizes.values()) != {13}:
        n = sum(sizes.values())
        short = ", ".join(f"{COMPASS_NAME[p]} holds {k}" for p, k in sizes.items() if k != 13)
        raise RecordError(f"the deal has {n} cards ({short}); a whist deal is 52 cards, 13 a hand", board.deal_loc)
    return hands
