"""The catalogue of rules the engine reasons with.

Ids follow the research catalogue (``docs/inference.md`` lists them); pages
are those of Cavendish, *Laws and Principles of Whist*, 18th edition (1889).
Descriptions are one line each, written for this project.
"""

from __future__ import annotations

from typing import NamedTuple


class Rule(NamedTuple):
    id: str
    title: str
    page: str | None
    description: str
    strength: str  # "law", "convention" or "probable": how the engine uses it


_R = Rule

RULES: dict[str, Rule] = {r.id: r for r in [
    _R("show_out", "Failing to follow suit", "Laws 71-73",
       "A player who does not follow the suit led has none of it left.", "law"),
    _R("turn_up_card", "The turned-up card", "Laws 52-53",
       "The dealer's turned-up trump stays in his hand until he plays it.", "law"),
    _R("count_elimination", "Counting and elimination", "134-136",
       "A card nobody else can hold belongs to the one player left; a player whose known cards fill his hand holds nothing more.", "law"),
    _R("count_top_cards", "Counting the top cards", "57",
       "Once every higher card has gone, a card is the best of its suit.", "law"),
    _R("lead_strongest_suit", "Opening the strongest suit", "56",
       "A player's first lead of his own choosing comes from his longest suit, four cards or more.", "convention"),
    _R("lead_fourth_best", "The original fourth-best", "60; App. A 281",
       "A low card opening a long suit is the fourth from the top: the leader holds exactly three cards above it.", "convention"),
    _R("fourth_best_count", "Counting from the fourth-best", "99; App. A 281",
       "Every card lower than the fourth-best that the leader shows later adds one to the length he led from.", "convention"),
    _R("lead_low_denies_top", "A low lead denies the high combinations", "64-71",
       "Opening with a low card says the leader has none of the holdings from which a high card is led.", "convention"),
    _R("lead_table", "The Analysis of Leads", "64-71",
       "Each high-card opening, and the card that follows it, belongs to a small set of holdings.", "convention"),
    _R("lead_low_after_high", "Low card after a high one", "App. A 282-283",
       "A low card led after a high one is the original fourth-best: exactly two cards above it remain with the leader.", "convention"),
    _R("high_after_high_count", "High card after a high one", "App. A 283-285",
       "Of two equal high cards kept after the first lead, leading the higher shows four cards, the lower five or more.", "convention"),
    _R("lead_weak_suit_highest", "Leads from weak suits", "72-74",
       "A short suit is opened with its top card, or the lowest when headed by an unsupported ace, king or queen.", "convention"),
    _R("lead_ace_king_doubleton", "Ace then king", "73",
       "Leading the ace and then the king of a plain suit shows those two cards alone.", "convention"),
    _R("continue_next_best", "Continuing below the master", "66, 114",
       "Continuing a suit with a card below one's master card shows the cards in between.", "convention"),
    _R("continue_own_suit_lowest", "Going on with losing cards", "112",
       "A player going on with his suit while holding no winner of it leads his lowest card.", "convention"),
    _R("trump_lead_strength", "A trump lead shows strength", "120-124",
       "A player who leads trumps of his own accord is strong in them, normally four or more.", "probable"),
    _R("answer_to_call_count", "Answering a call", "126",
       "In answer to a call the lowest trump is led from four or more, the highest from three or fewer.", "convention"),
    _R("second_hand_low", "Second hand low", "82-84",
       "A second player who plays low on a first round holds none of the combinations that are put on.", "convention"),
    _R("second_hand_honour_shows_sequence", "Second hand puts on an honour", "85-87",
       "An honour played second hand shows the card next above it, unless it was single.", "convention"),
    _R("second_hand_unsupported_honour", "An unsupported honour second hand", "89-90",
       "An honour put on second hand without its neighbour marks a short holding.", "convention"),
    _R("second_hand_covers_honour", "Covering an honour led", "88",
       "A second player holding the ace puts it on an honour led, so passing it denies the ace.", "convention"),
    _R("second_hand_second_round_wins", "Second hand in the second round", "90-91",
       "In the second round of a plain suit the second player who holds the best card plays it.", "convention"),
    _R("lowest_of_sequence", "The lowest of equal cards", "83-85",
       "A player who does not lead plays the lowest of cards that are equal in value.", "convention"),
    _R("follow_lowest_when_not_winning", "Lowest when not winning", "84",
       "A player whose card does not head the trick plays the lowest card he has of the suit.", "convention"),
    _R("third_hand_highest", "Third hand high", "92",
       "The leader's partner plays his highest card (the lowest of his top sequence), with the ace-queen finesse allowed.", "convention"),
    _R("third_hand_on_honour_led", "Third hand on partner's honour", "92-93, 98-100",
       "On partner's knave or ten led, the ace is put on or held back according to its guard.", "convention"),
    _R("third_hand_sequence_revealed", "Third hand's sequence shown later", "137",
       "A third-hand card and a higher one shown later together mark the cards between them.", "convention"),
    _R("best_card_location_second_round", "Where the best card lies", "94",
       "When leader and second hand both play low in a second round, the best card is with the fourth hand.", "convention"),
    _R("unblock_partners_suit", "Unblocking partner's suit", "96-101",
       "High-then-low in partner's long suit clears the way for it and is not a call.", "convention"),
    _R("plain_suit_echo", "The plain-suit echo", "App. B 287-288",
       "Third hand's high-then-low in partner's long suit shows exactly four of it.", "convention"),
    _R("fourth_hand_wins_if_able", "Fourth hand wins if he can", "96",
       "A last player who lets an adversary's card win has nothing higher in the suit.", "convention"),
    _R("win_cheaply", "Winning as cheaply as possible", "112",
       "A player who wins a trick does it with the cheapest card that will do, so he holds nothing between.", "convention"),
    _R("return_count", "Returning partner's suit", "79-81",
       "Partner's suit is returned with the higher of two cards left, or the lowest of three or more.", "convention"),
    _R("original_discard", "The first discard", "104-107",
       "A first discard comes from the weakest suit, or from the best-guarded when trumps are declared against.", "convention"),
    _R("discard_top_shows_command", "Discarding the master", "113",
       "Throwing the best card of a suit shows its command; throwing the second best shows no more of it.", "convention"),
    _R("call_for_trumps", "The call for trumps", "125-127",
       "An unneeded high card followed by a lower one of the same suit asks for trumps and shows strength in them.", "convention"),
    _R("echo", "The echo", "127-129",
       "Calling after partner has led or asked for trumps shows four trumps or more.", "convention"),
    _R("no_call_negative", "No call made", "125-128",
       "A player who had a chance to call and did not is not very strong in trumps.", "probable"),
    _R("refuse_to_trump_shows_strength", "Declining to trump", "129-131",
       "Passing a doubtful card instead of trumping it marks either strength in trumps or none.", "convention"),
    _R("ruff_doubtful_shows_weakness", "Trumping a doubtful card", "129",
       "A second player who trumps a card his partner might win is weak in trumps.", "probable"),
    _R("force_signals_trump_strength", "Forcing partner", "131-133",
       "Forcing partner to trump shows strength in trumps; refusing to force shows weakness.", "probable"),
    _R("trump_fourth_best_count", "Trumping high, then lower", "118-119",
       "Trumping with a card that is not the lowest and later playing a lower trump shows five trumps or more.", "convention"),
    _R("turn_up_kept", "Keeping the turned-up card", "114",
       "A dealer with a trump equal to the turn-up plays that one and keeps the turn-up.", "convention"),
    _R("win_high_return_low", "Winning high, leading lower", "113-114",
       "Winning with the top of a sequence and then leading a lower card of it marks the cards between.", "convention"),
]}


def rule(rid: str) -> Rule:
    return RULES[rid]
