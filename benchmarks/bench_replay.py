"""Replay speed: cards validated per second by whistbook's checked replay,
side by side with endplay's own (unchecked) ``Deal.play`` on the same plays.

    python benchmarks/bench_replay.py [--hands 2000] [--repeats 7]

Both sides start from the same random deals and random legal plays (13 full
tricks each). whistbook's figure includes building the hands and checking turn,
ownership and following suit on every card; endplay's includes building its
``Deal`` from PBN and playing every card (it checks only that the card is held).
Figures are medians of the repeats.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from whistbook.cards import DECK  # noqa: E402
from whistbook.play import legal_plays, replay, winner_of  # noqa: E402
from whistbook.seats import SEATS, Seat  # noqa: E402
from whistbook.solver import _pbn  # noqa: E402


def make_hands(n: int, seed: int = 1):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(DECK)
        rng.shuffle(deck)
        deal = {s: deck[i * 13:(i + 1) * 13] for i, s in enumerate(SEATS)}
        trumps = rng.choice(deck).suit
        hands = {s: list(deal[s]) for s in SEATS}
        leader, tricks = Seat.A, []
        for _ in range(13):
            played = []
            for seat in leader.iter_from():
                c = rng.choice(legal_plays(hands[seat], played[0].suit if played else None))
                hands[seat].remove(c)
                played.append(c)
            tricks.append(played)
            leader = Seat(winner_of(played, leader, int(trumps)))
        out.append((deal, trumps, tricks))
    return out


def bench_whistbook(hands) -> float:
    t0 = time.perf_counter()
    for deal, trumps, tricks in hands:
        replay(deal, trumps, Seat.A, tricks)
    return time.perf_counter() - t0


def bench_endplay(prepared) -> float:
    from endplay.types import Deal

    t0 = time.perf_counter()
    for pbn, denom, first, plays in prepared:
        d = Deal(pbn)
        d.trump = denom
        d.first = first
        for c in plays:
            d.play(c)
    return time.perf_counter() - t0


def prepare_endplay(hands):
    from endplay.types import Card as ECard
    from endplay.types import Denom, Player

    out = []
    for deal, trumps, tricks in hands:
        plays = [ECard(str(c)[1] + str(c)[0]) for t in tricks for c in t]
        out.append((_pbn(deal), Denom(int(trumps)), Player.south, plays))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    hands = make_hands(args.hands)
    prepared = prepare_endplay(hands)
    cards = 52 * len(hands)
    ours = [cards / bench_whistbook(hands) for _ in range(args.repeats)]
    theirs = [cards / bench_endplay(prepared) for _ in range(args.repeats)]
    m_ours, m_theirs = statistics.median(ours), statistics.median(theirs)
    print(f"{len(hands)} random hands, {cards} cards, median of {args.repeats} runs")
    print(f"  whistbook replay (checked):   {m_ours:12,.0f} cards/s")
    print(f"  endplay Deal.play (unchecked): {m_theirs:12,.0f} cards/s")
    print(f"  ratio whistbook / endplay:    {m_ours / m_theirs:12.2f}")


if __name__ == "__main__":
    main()
