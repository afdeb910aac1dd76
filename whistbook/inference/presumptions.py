"""The presumptions one card of another player gives: what holdings would
have played it by the conventions of play (the Analysis of Leads, second
and third hand, returns, discards, ruffs)."""

from __future__ import annotations

from typing import NamedTuple

from ..seats import SEATS
from . import conventions as cv
from .bits import bit, high, low, master, next_live_below, popcount, seq_high, seq_low
from .records import Assumption
from .state import KState


class _Seen(NamedTuple):
    """One card of another player, as the presumptions read it."""

    trick: int
    pos: int  # 1 leads, 4 plays last
    seat: int
    card: int
    led: int  # the card led to the trick

    @property
    def suit(self) -> int:
        return self.card // 13

    @property
    def rank(self) -> int:
        return self.card % 13

    @property
    def led_suit(self) -> int:
        return self.led // 13




class Presumptions:
    """The presumptions one card of another player gives (mixed into
    :class:`~.engine.Engine`, whose state they read)."""

    # -------------------------------------------------- presumptions of one play

    def _presume(self, t: int, pos: int, s: int, c: int, trick_cards, new: list[Assumption]) -> None:
        """The presumptions one card of another player gives, by situation."""
        self._card_now = c % 13
        play = _Seen(t, pos, s, c, trick_cards[0])
        if pos == 1:
            self._presume_lead(play, new)
        elif play.suit == play.led_suit:
            self._presume_follow(play, trick_cards, new)
        elif play.suit == self.trumps:
            self._presume_ruff(play, trick_cards, new)
        else:
            self._presume_discard(play, new)

    def _presume_lead(self, p: _Seen, new: list[Assumption]) -> None:
        t, s, suit, rank = p.trick, p.seat, p.suit, p.rank
        trumps = suit == self.trumps
        strip = self.played[s][suit]
        partner = (s + 2) % 4
        earlier_leads = self.leads[s][suit]
        opener = self.opener[suit]
        left = self.size - t + 1  # cards each hand held before this trick
        self._presume_win_high_lead_low(p, new)
        self._presume_switch_after_return(p, new)
        self._presume_refusal_to_force(p, new)
        if trumps and self.called[partner] and not earlier_leads:
            new.append(self._new(t, s, suit, "answer_to_call_count", 1,
                                 _pred_in(strip, lambda h: cv.answer_call_cards(h), rank)))
        elif opener is None:
            self._presume_opening(p, strip, trumps, left, new)
        elif opener == partner and not earlier_leads:
            gone = self.gone[suit]
            new.append(self._new(t, s, suit, "return_count", 1,
                                 _pred_in(strip, lambda h: cv.return_cards(h, gone, trumps), rank)))
        elif opener == s and earlier_leads:
            self._presume_own_suit_again(p, strip, trumps, new)

    def _presume_win_high_lead_low(self, p: _Seen, new: list[Assumption]) -> None:
        """A player who won the last round of the suit higher than he needed
        and now leads a lower card that would also have won it holds the cards
        between (pp. 113-114)."""
        rounds = self.rounds[p.suit]
        if not rounds:
            return
        last = self.tricks[rounds[-1] - 1]
        won = int(last.winning_card)
        if int(last.winner) != p.seat or won // 13 != p.suit:
            return
        plays = [int(x.card) for x in last.plays]
        if plays.index(won) != 3:
            return  # second and third hands play high for other reasons; the fourth only to win
        beaten = max((c % 13 for c in plays[:plays.index(won)] if c // 13 == p.suit), default=-1)
        if not (beaten < p.rank < won % 13 and p.rank >= 8):
            return  # only a high card led can be the foot of the winner's sequence
        seen = sum(1 << (int(c) % 13) for c in self.hands[SEATS[self.V]] if int(c) // 13 == p.suit)
        need = cv.cards_between(won % 13, p.rank, self.gone[p.suit], seen)
        if need and not need & (need - 1):  # one card between: ace then queen marks the king
            new.append(self._new(p.trick, p.seat, p.suit, "win_high_return_low", 1,
                                 lambda m: m & need == need))
            # the high card won on purpose: not winning cheaply was no departure
            self._withdraw.extend(a for a in self.assumptions if a.trick == rounds[-1] and a.seat == p.seat
                                  and a.suit == p.suit and a.rule == "win_cheaply" and a.active)

    def _presume_switch_after_return(self, p: _Seen, new: list[Assumption]) -> None:
        """A player who returned his partner's suit on his last lead and now
        leads another suit has probably no more of partner's suit: with one he
        would have gone on with it (pp. 79-81; Hand XXXVII, trick 3)."""
        partner = (p.seat + 2) % 4
        last = max(((t, x) for x in range(4) for t, _ in self.leads[p.seat][x]), default=None)
        if last is None:
            return
        _, suit = last
        if suit == p.suit or suit == self.trumps or self.opener[suit] != partner:
            return
        if self.leads[p.seat][suit][0][0] != last[0]:
            return  # only the return itself, not a later lead of the suit
        strip = self.played[p.seat][suit]
        new.append(self._new(p.trick, p.seat, suit, "return_count", 2, lambda m: not m & ~strip))

    def _presume_refusal_to_force(self, p: _Seen, new: list[Assumption]) -> None:
        """A player who could force his partner (lead a plain suit the partner
        has shown out of, while he still holds some) and leads something else
        instead is probably not strong in trumps: three or fewer (pp. 131-133;
        Hand XVI, trick 3). Read once per player."""
        tr, state = self.trumps, self._pres_prev
        if tr is None or p.suit == tr or state is None or self.refused[p.seat]:
            return
        partner = (p.seat + 2) % 4
        for suit in range(4):
            if suit in (tr, p.suit) or not self.rounds[suit]:
                continue
            if self._left(state, partner, suit)[1] > 0 or self._left(state, partner, tr)[1] <= 0:
                continue
            if self._left(state, p.seat, suit)[0] <= 0:
                continue
            self.refused[p.seat] = True
            new.append(self._new(p.trick, p.seat, tr, "force_signals_trump_strength", 2,
                                 lambda m: popcount(m) <= 3))
            return

    def _left(self, state: KState, seat: int, suit: int) -> tuple[int, int]:
        """Fewest and most cards of ``suit`` that ``seat`` still holds, before this trick."""
        if seat == self.V:
            n = sum(1 for c in self.hands[SEATS[seat]] if int(c) // 13 == suit) - popcount(self.played[seat][suit])
            return n, n
        lo, hi = state.length_range(seat, suit)
        n = popcount(self.played[seat][suit])
        return lo - n, hi - n

    def _presume_opening(self, p: _Seen, strip: int, trumps: bool, left: int, new: list[Assumption]) -> None:
        """The first lead of a suit: from strength if it is the player's first
        lead, as the Analysis of Leads or the weak-suit rule directs."""
        t, s, suit, rank = p.trick, p.seat, p.suit, p.rank
        declared = self._declared_against(s)
        rule = "lead_fourth_best" if rank <= 7 else "lead_table"
        if left < 5:
            pass
        elif not self.any_lead[s] or self._opened_low_trump_only(s):
            long_only = not trumps and left >= 8
            # his strongest suit may be one the adversaries have already opened
            # (Hand XXXIII, trick 2): then that he leads from four is only probable
            firm = 2 if rank >= 8 and self._adversary_opened(s) else 1
            if left >= 8 and not trumps:  # a trump lead's length is trump_lead_strength's
                new.append(self._new(t, s, suit, "lead_strongest_suit", firm,
                                     lambda m: popcount(m & ~strip) >= 4))
            if long_only and firm == 2:
                new.append(self._new(t, s, suit, rule, 1, _pred_first(strip, trumps, rank, declared, False)))
            new.append(self._new(t, s, suit, rule, firm, _pred_first(strip, trumps, rank, declared, long_only)))
        else:
            new.append(self._new(t, s, suit, rule, 1, _pred_first(strip, trumps, rank, declared, False)))
        if not trumps and left >= 5:
            new.append(self._new(t, s, suit, "lead_weak_suit_highest", 2,
                                 lambda m: cv.likely_opened(m & ~strip)))
        if trumps and not self.trump_led_by[s]:
            new.append(self._new(t, s, suit, "trump_lead_strength", 2, lambda m: popcount(m & ~strip) >= 4))

    def _adversary_opened(self, s: int) -> bool:
        """Whether an adversary of ``s`` has opened a plain suit before his first lead."""
        return any(self.opener[x] in ((s + 1) % 4, (s + 3) % 4) for x in range(4) if x != self.trumps)

    def _opened_low_trump_only(self, s: int) -> bool:
        """A player whose leads so far are a low trump from strength opens his
        own long suit next, as after an original lead (p. 56, App. A)."""
        tr = self.trumps
        if tr is None or not self.leads[s][tr]:
            return False
        _, first_rank = self.leads[s][tr][0]
        return first_rank <= 7 and all(not self.leads[s][x] for x in range(4) if x != tr)

    def _presume_own_suit_again(self, p: _Seen, strip: int, trumps: bool, new: list[Assumption]) -> None:
        """The second round of a player's own suit (the Analysis of Leads) and
        later rounds (going on with the lowest when he holds no winner)."""
        t, s, suit, rank = p.trick, p.seat, p.suit, p.rank
        earlier_leads = self.leads[s][suit]
        first_trick, first_rank = earlier_leads[0]
        round_no = len(self.rounds[suit]) + 1
        if round_no == 2 and len(earlier_leads) == 1:
            dealt = self._strip_at(s, suit, first_trick)
            first = self.tricks[first_trick - 1]
            won = int(first.winner) == s
            win_card = int(first.winning_card)
            beaten_by = win_card % 13 if (not won and win_card // 13 == suit
                                          and int(first.winner) != (s + 2) % 4) else -1
            queen = suit * 13 + 10
            queen_fell = queen in first.cards and int(first.card_of(SEATS[s])) != queen
            # the American count is not kept when trumps are declared
            # against the leader, nor late in the hand (App. A)
            american = not self._declared_against(s) and t < 8
            rule = ("lead_low_after_high" if (first_rank >= 8 and rank < 8) else
                    "high_after_high_count" if first_rank >= 8 else "lead_table")

            def second_lead_fits(m: int) -> bool:
                allowed = cv.second_leads(m & ~dealt, first_rank, won, beaten_by, queen_fell, trumps, american)
                return allowed is None or rank in allowed
            new.append(self._new(t, s, suit, rule, 1, second_lead_fits))
            if first_rank < 8 and rank >= 8:  # a high card after a low opening
                gone = self.gone[suit]

                def low_opener_goes_on(m: int) -> bool:
                    if cv.second_leads(m & ~dealt, first_rank, won, beaten_by, queen_fell, trumps,
                                       american) is not None:
                        return True  # the Analysis of Leads speaks (above)
                    allowed = cv.continue_after_low_cards(m & ~strip, gone)
                    return allowed is None or rank in allowed
                new.append(self._new(t, s, suit, "continue_own_suit_lowest", 1, low_opener_goes_on))
        if round_no >= 3:
            gone = self.gone[suit]

            def lowest_loser_fits(m: int) -> bool:
                allowed = cv.continue_cards(m & ~strip, gone)
                return allowed is None or rank in allowed
            new.append(self._new(t, s, suit, "continue_own_suit_lowest", 1, lowest_loser_fits))

    def _presume_follow(self, p: _Seen, trick_cards, new: list[Assumption]) -> None:
        """Following suit: second, third or fourth hand, heading the trick or not."""
        t, pos, s, suit, rank = p.trick, p.pos, p.seat, p.suit, p.rank
        strip = self.played[s][suit]
        gone = self.gone[suit]
        win_seat, win_card = winner_so_far(trick_cards, pos - 1, self.tricks[t - 1].leader, self.trumps)
        partner_winning = win_seat == (s + 2) % 4
        trumps_led = p.led_suit == self.trumps
        trumped = win_card // 13 != p.led_suit
        win_rank = win_card % 13
        heading = not trumped and rank > win_rank
        round_no = len(self.rounds[suit])  # the current round is already counted
        led_rank = p.led % 13
        low_firmness = None
        if pos == 2:
            def allowed(h: int) -> frozenset[int]:
                return cv.second_hand_cards(h, gone, led_rank, round_no, trumps_led)
            rule_head = ("second_hand_honour_shows_sequence" if round_no == 1 else
                         "second_hand_second_round_wins" if round_no == 2 else "lowest_of_sequence")
            rule_low = ("second_hand_low" if round_no == 1 else
                        "second_hand_second_round_wins" if round_no == 2 else "follow_lowest_when_not_winning")
            if heading and rank < 8 and round_no == 1:
                rule_head = "second_hand_low"
        elif pos == 3:
            def allowed(h: int) -> frozenset[int]:
                return cv.third_hand_cards(h, gone, led_rank, win_rank, partner_winning, round_no, trumped,
                                           trumps_led)
            rule_head = "third_hand_highest"
            if round_no >= 2:
                low_firmness = 2
            rule_low = ("third_hand_on_honour_led" if (round_no == 1 and partner_winning and led_rank in (9, 8))
                        else "third_hand_highest")
        else:
            def allowed(h: int) -> frozenset[int]:
                return cv.fourth_hand_cards(h, gone, win_rank, partner_winning, trumped)
            rule_head = "win_cheaply"
            rule_low = "fourth_hand_wins_if_able"
        if heading:
            a = self._new(t, s, suit, rule_head, 1, _pred_in(strip, allowed, rank))
            a.about_card = True
            new.append(a)
            if pos == 2 and round_no == 1 and rank >= 8 and led_rank < 9:
                new.append(self._new(t, s, suit, "second_hand_honour_shows_sequence", 2,
                                     lambda m: popcount(m & ~strip) >= 2))
            return
        unblock = self.opener[suit] == (s + 2) % 4 and not trumps_led
        may_call = round_no == 1 and not trumps_led and self._call_open(s)

        def lowest_fits(m: int) -> bool:
            h = m & ~strip
            # in partner's suit a high card may be thrown to unblock it
            return low(h) == rank or (unblock and high(h) == rank)

        def lowest_or_call_fits(m: int) -> bool:
            h = m & ~strip
            return rank in cv.follow_low_or_call(h) or (unblock and high(h) == rank)
        a = self._new(t, s, suit, "follow_lowest_when_not_winning", 1,
                      lowest_or_call_fits if may_call else lowest_fits)
        a.about_card = True
        new.append(a)
        if may_call:  # that it is his lowest, not the start of a call, is only probable
            a = self._new(t, s, suit, "follow_lowest_when_not_winning", 2, lowest_fits)
            a.about_card = True
            new.append(a)
        if (pos == 4 and (partner_winning or trumped)) or (pos == 3 and trumped):
            return  # nothing better was called for

        def could_not_do_better(m: int) -> bool:
            h = m & ~strip
            return low(h) in allowed(h)
        new.append(self._new(t, s, suit, rule_low, 1, could_not_do_better, low_firmness))

    def _presume_ruff(self, p: _Seen, trick_cards, new: list[Assumption]) -> None:
        """Trumping: with the lowest trump that will do, or the lowest of equal ones."""
        t, pos, s, suit, rank = p.trick, p.pos, p.seat, p.suit, p.rank
        strip = self.played[s][suit]
        gone = self.gone[suit]
        _, win_card = winner_so_far(trick_cards, pos - 1, self.tricks[t - 1].leader, self.trumps)
        trump_on = win_card % 13 if win_card // 13 == self.trumps else -1
        rule = "win_cheaply" if (pos == 4 or trump_on >= 0) else "lowest_of_sequence"

        def ruff_fits(m: int) -> bool:
            allowed = cv.ruff_cards(m & ~strip, gone, trump_on, pos)
            return allowed is None or rank in allowed
        a = self._new(t, s, suit, rule, 1, ruff_fits)
        a.about_card = True
        new.append(a)

    def _presume_discard(self, p: _Seen, new: list[Assumption]) -> None:
        """Throwing a high card: the master shows the command of the suit; the
        second best shows it was the last card of the suit."""
        t, s, suit, rank = p.trick, p.seat, p.suit, p.rank
        strip = self.played[s][suit]
        gone = self.gone[suit]
        top = master(gone)
        if rank < 8:
            return
        if rank == top:
            def commands(m: int) -> bool:
                h = m & ~strip
                return _run_mask(h, gone, rank) == h
            new.append(self._new(t, s, suit, "discard_top_shows_command", 1, commands))
        elif top >= 0 and next_live_below(top, gone) == rank and s != self.V:
            def last_or_master(m: int) -> bool:
                h = m & ~strip
                return h == bit(rank) or bool(h >> top & 1)
            new.append(self._new(t, s, suit, "discard_top_shows_command", 1, last_or_master))

    def _opened_high(self, s: int, S: int) -> bool:
        leads = self.leads[s][S]
        return bool(leads) and leads[0][1] >= 8

    def _strip_at(self, s: int, S: int, trick: int) -> int:
        m = 0
        for p in self.history:
            if p.seat == s and p.card // 13 == S and p.trick < trick:
                m |= 1 << (p.card % 13)
        return m


# ------------------------------------------------------------------ small helpers

def _pred_in(strip: int, acc, i: int):
    def p(m: int) -> bool:
        return i in acc(m & ~strip)
    return p


def _pred_first(strip: int, trumps: bool, i: int, declared: bool, long_only: bool):
    """The opening card fits the holding: from four or more as the Analysis of
    Leads directs; from three or fewer (unless ``long_only``) as a weak suit is
    opened. With trumps declared against the leader his low card may be his
    lowest rather than the fourth-best."""
    def p(m: int) -> bool:
        h = m & ~strip
        if popcount(h) < 4:
            return not long_only and i in cv.weak_leads(h)
        f = cv.first_leads(h, trumps)
        if i in f:
            return True
        return declared and i == low(h)
    return p


def _run_mask(h: int, gone: int, i: int) -> int:
    """The cards of ``h`` equal to ``i`` (a run through gone cards)."""
    lo = seq_low(h | (1 << i), gone, i)
    hi = seq_high(h | (1 << i), gone, i)
    m = 0
    for r in range(lo, hi + 1):
        m |= 1 << r
    return m & h


def winner_so_far(cards, n: int, leader, trumps) -> tuple[int, int]:
    """Seat and card heading the trick after its first ``n`` cards."""
    best = cards[0]
    win = 0
    for k in range(1, n):
        c = cards[k]
        s = c // 13
        bs = best // 13
        if (s == bs and c > best) or (trumps is not None and s == trumps and bs != trumps):
            best = c
            win = k
    return (int(leader) + win) % 4, best
