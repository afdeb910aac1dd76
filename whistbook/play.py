"""The replay engine: play the tricks of a deal card by card, refusing every
impossible play.

:func:`replay` is the checked path. It takes each trick's cards in play order
from its leader; the seat of each card is therefore fixed by the turn, and the
engine checks that this seat holds the card, has not played it, and follows
suit when it can (unless the file records the revoke). It derives each trick's winner, the next leader and the
running tally. The first illegal play stops the replay (nothing after it can
be trusted) with an :class:`IllegalPlayError` that carries ``trick_index`` and
``play_index`` so the caller can point at the card in the file.

Cards are ``int`` subclasses and suits are ``card // 13``: the inner loop does
integer arithmetic only, which is what makes replay fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet, Iterable, Mapping, NamedTuple, Sequence

from .cards import Card, Suit, sort_cards
from .errors import IllegalPlayError
from .seats import SEATS, Seat, Side

if TYPE_CHECKING:  # pragma: no cover
    from .model import HandFile


class Play(NamedTuple):
    seat: Seat
    card: Card


class Tally(NamedTuple):
    """Tricks each side has taken (the templates read ``ab`` and ``yz``)."""

    ab: int
    yz: int


class Trick(NamedTuple):
    number: int  # 1..13
    leader: Seat
    plays: tuple[Play, ...]
    winner: Seat
    tally: Tally  # tricks after this one
    shown: bool = True

    @property
    def led_suit(self) -> Suit:
        return self.plays[0].card.suit

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(p.card for p in self.plays)

    def card_of(self, seat: Seat) -> Card:
        for p in self.plays:
            if p.seat == seat:
                return p.card
        raise KeyError(seat)

    @property
    def winning_card(self) -> Card:
        return self.card_of(self.winner)


class Replay(NamedTuple):
    """A validated card play: the hands at the start, trumps, and the tricks."""

    hands: tuple[frozenset[Card], ...]  # indexed by Seat, as dealt
    trumps: Suit | None
    first_leader: Seat
    tricks: tuple[Trick, ...]
    remaining: tuple[frozenset[Card], ...]  # indexed by Seat, after the written tricks
    #: (trick index, play index) of each forced card the file left out, which the replay played
    filled: tuple[tuple[int, int], ...] = ()

    @property
    def next_leader(self) -> Seat:
        return self.tricks[-1].winner if self.tricks else self.first_leader

    @property
    def tally(self) -> dict[Side, int]:
        ab, yz = self.tricks[-1].tally if self.tricks else (0, 0)
        return {Side.AB: ab, Side.YZ: yz}

    @property
    def cards_left(self) -> int:
        return len(self.remaining[0])

    def hand(self, seat: Seat) -> frozenset[Card]:
        return self.hands[seat]


def winner_of(cards: Sequence[int], leader: int, trumps: int | None) -> int:
    """Seat index (0..3) that wins four cards played from ``leader``."""
    best = cards[0]
    win = 0
    for k in range(1, 4):
        c = cards[k]
        s = c // 13
        bs = best // 13
        if (s == bs and c > best) or (s == trumps and bs != trumps):
            best = c
            win = k
    return (leader + win) % 4


def replay(
    hands: Mapping[Seat, Iterable[Card]],
    trumps: Suit | None,
    leader: Seat,
    tricks: Sequence[Sequence[Card]],
    shown: Sequence[bool] | None = None,
    revokes: AbstractSet[tuple[int, Card]] = frozenset(),
    leaders: Mapping[int, Seat] | None = None,
) -> Replay:
    """Replay ``tricks`` (each in play order from its leader) on ``hands``.

    ``revokes`` holds (trick index, card) for each revoke the file records:
    such a card is allowed not to follow suit (the laws then decide what it
    costs, :mod:`whistbook.laws`). Every other failure to follow is an error.
    ``leaders`` maps a trick index to the seat that led it out of turn when
    the trick stood (Law 63); every other trick is led by the winner of the
    one before.

    :raises IllegalPlayError: at the first play that breaks the laws, with
        ``trick_index`` and ``play_index`` set (0-based).
    """
    held = [set(hands[s]) for s in SEATS]
    start = tuple(frozenset(h) for h in held)
    # counts[seat][suit]: cards of the suit still held; makes the revoke test O(1).
    counts = [[0, 0, 0, 0] for _ in range(4)]
    for s in range(4):
        cs = counts[s]
        for c in held[s]:
            cs[c // 13] += 1
    trump_i = None if trumps is None else int(trumps)
    out: list[Trick] = []
    ab = yz = 0
    lead = int(leader)
    played_at: dict[int, int] = {}
    filled: list[tuple[int, int]] = []
    for ti, cards in enumerate(tricks):
        if leaders and ti in leaders:
            lead = int(leaders[ti])
        if len(cards) != 4:
            for k, c in enumerate(cards):
                if not any(c in h for h in held):
                    raise _not_held(c, (lead + k) % 4, ti, k, held, played_at, start)
            cards = _with_forced(cards, ti, lead, held, counts)
            filled.extend((ti, k) for k, c in enumerate(cards) if c not in tricks[ti])
        seat = lead
        led = cards[0] // 13
        for pi in range(4):
            c = cards[pi]
            h = held[seat]
            if c not in h:
                raise _not_held(c, seat, ti, pi, held, played_at, start)
            s = c // 13
            if pi and s != led and counts[seat][led] and (ti, c) not in revokes:
                raise _revoke(c, seat, ti, pi, led, h)
            h.remove(c)
            counts[seat][s] -= 1
            played_at[c] = ti
            seat = (seat + 1) % 4
        win = winner_of(cards, lead, trump_i)
        if win % 2 == 0:
            ab += 1
        else:
            yz += 1
        out.append(Trick(
            ti + 1, SEATS[lead],
            tuple(Play(SEATS[(lead + k) % 4], cards[k]) for k in range(4)),
            SEATS[win], Tally(ab, yz), True if shown is None else shown[ti],
        ))
        lead = win
    return Replay(start, trumps, leader, tuple(out), tuple(frozenset(h) for h in held), tuple(filled))


def _with_forced(cards: Sequence[Card], ti: int, lead: int, held: list[set[int]], counts: list[list[int]]) -> list[Card]:
    """A trick written with fewer than four cards, made whole: a player whose card
    is not written must have had one legal card only, which he played. The written
    cards keep their order, and the seat of each follows from who holds it. The
    replay then checks the whole trick as if it had been written out.

    :raises IllegalPlayError: when a card that was a choice is left out, the written
        cards are out of play order, or the trick has none.
    """
    n = len(cards)
    if not 0 < n < 4:
        raise IllegalPlayError(f"trick {ti + 1} has {n} card{'s' if n != 1 else ''}; a trick takes one card from each "
                               "of the four players", trick_index=ti, play_index=min(n, 4) - 1 if cards else 0)
    out: list[Card] = []
    todo = list(cards)
    led: int | None = None
    for k in range(4):
        seat = (lead + k) % 4
        h = held[seat]
        if todo and todo[0] in h:
            out.append(todo.pop(0))
        elif any(c in h for c in todo):
            raise IllegalPlayError(f"trick {ti + 1}: the cards are not in play order from {SEATS[lead]}, who leads it",
                                   trick_index=ti, play_index=n - len(todo))
        else:
            legal = [c for c in h if c // 13 == led] if led is not None and counts[seat][led] else list(h)
            if len(legal) != 1:
                who = SEATS[seat]
                choice = " ".join(str(c) for c in sort_cards(legal))
                raise IllegalPlayError(
                    f"trick {ti + 1}: {who}'s card is not written, and only a forced card (a player's one legal "
                    f"card) may be left out: {who} could play {choice}",
                    trick_index=ti, play_index=min(n - len(todo), n - 1), seat=who)
            out.append(legal[0])  # type: ignore[arg-type]
        led = out[0] // 13
    if todo:
        holder = next(SEATS[s] for s in range(4) if todo[0] in held[s])
        raise IllegalPlayError(f"trick {ti + 1}: {Card.__str__(todo[0])} is {holder}'s, and {holder} plays one card "
                               "to a trick", trick_index=ti, play_index=n - len(todo), seat=holder)
    return out


def replay_hand(hf: HandFile) -> Replay:
    """Replay a hand file's written tricks as the laws let them stand: the
    revokes it records (and does not correct) allowed, and each trick that
    stood after a lead out of turn (Law 63) led by the card's holder. The
    one replay of a hand file, for every stage.

    A forced card the file leaves out of a trick is put into the trick's record
    (``hf.tricks[i].plays``, located at the trick), so that every stage after
    finds four cards, as if it had been written.

    :raises IllegalPlayError: at the first illegal play, located at its card in the file.
    """
    from .model import CardRef

    try:
        rp = replay(
            {s: [r.card for r in hf.deal.get(s, ())] for s in SEATS}, hf.trumps, hf.leader,
            [[r.card for r in t.plays] for t in hf.tricks],
            [t.shown for t in hf.tricks],
            {(t.index, r.card.card) for t in hf.tricks for r in t.revokes if not r.corrected},
            _stood(hf),
        )
    except IllegalPlayError as err:
        raise err.at(hf.play_loc(err.trick_index, err.play_index))
    for ti, pi in rp.filled:
        rec = hf.tricks[ti]
        rec.plays.insert(pi, CardRef(rp.tricks[ti].plays[pi].card, rec.loc))
    return rp


def _stood(hf: HandFile) -> dict[int, Seat]:
    """Tricks that stood after a lead out of turn (Law 63), and who led them."""
    out = {}
    for t in hf.tricks:
        ev = t.out_of_turn
        if ev is not None and ev.stands:
            owner = next((s for s in SEATS for r in hf.deal[s] if r.card == ev.card.card), None)
            if owner is not None:
                out[t.index] = owner
    return out


def _not_held(c: Card, seat: int, ti: int, pi: int, held: list[set[int]], played_at: dict[int, int], start: tuple[frozenset[Card], ...]) -> IllegalPlayError:
    who = SEATS[seat]
    if c in played_at:
        where = played_at[c]
        msg = f"trick {ti + 1}: {Card.__str__(c)} was already played in trick {where + 1}"
        if where == ti:
            msg = f"trick {ti + 1}: {Card.__str__(c)} is written twice in this trick"
    else:
        owner = next((SEATS[s] for s in range(4) if c in start[s]), None)
        if owner is None:
            msg = f"trick {ti + 1}: it is {who}'s turn to play, and {Card.__str__(c)} is in nobody's hand"
        else:
            msg = f"trick {ti + 1}: it is {who}'s turn to play, but {Card.__str__(c)} is in {owner}'s hand"
    return IllegalPlayError(msg, trick_index=ti, play_index=pi, seat=who, card=c)


def _revoke(c: Card, seat: int, ti: int, pi: int, led: int, h: set[int]) -> IllegalPlayError:
    who = SEATS[seat]
    suit = Suit(led)
    still = max((x for x in h if x // 13 == led))
    return IllegalPlayError(
        f"trick {ti + 1}: {who} revokes, playing {Card.__str__(c)} to a {suit.singular} lead "
        f"while holding {Card.__str__(still)}", trick_index=ti, play_index=pi, seat=who, card=c)


def legal_plays(hand: Iterable[Card], led: Suit | None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led in ``led``."""
    cs = list(hand)
    if led is None:
        return cs
    follow = [c for c in cs if c.suit == led]
    return follow or cs
