"""Exchange speed: the 39 Cavendish hands written as PBN and LIN and read
back in process; and ``whistbook import`` of a large file, end to end.

    python benchmarks/bench_exchange.py [--repeats 7]
    python benchmarks/bench_exchange.py --boards 10000 [--workers 2]

The first form times writing (from checked hands) and reading back (the
reader, the replay and the completion of each claim, the double-dummy solve
where cards are left), medians of the repeats. The second makes two PBN
files of random deals (seeded): one with every card played (random legal
play, so nothing is left to solve) and one with the deal and contract only
(each board then costs a double-dummy solve of all thirteen tricks), and
times ``whistbook import`` of each into a fresh folder, writing every hand
file: boards a second, and the whole.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.cards import DECK, Suit  # noqa: E402
from whistbook.corpus import check_file, find_hand_files  # noqa: E402
from whistbook.deal import Deal  # noqa: E402
from whistbook.exchange import lin, pbn  # noqa: E402
from whistbook.exchange.bridge import to_record  # noqa: E402
from whistbook.exchange.record import Record, from_checked, settle_totals  # noqa: E402
from whistbook.play import legal_plays, replay  # noqa: E402
from whistbook.seats import SEATS, Seat, Side  # noqa: E402


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def corpus(repeats: int) -> None:
    files = find_hand_files([ROOT / "hands" / "cavendish"])
    records = [from_checked(check_file(f, solver=False)) for f in files]
    n = len(records)
    for name, module in (("pbn", pbn), ("lin", lin)):
        text = module.write(records)
        w = median_time(lambda: module.write(records), repeats)
        r = median_time(lambda: [settle_totals(to_record(b)) for b in module.read(text, "bench")], repeats)
        print(f"{name}: write {n} hands {w * 1000:.1f} ms ({w / n * 1000:.2f} ms a hand); "
              f"read back {r * 1000:.1f} ms ({r / n * 1000:.2f} ms a hand)")


def random_record(rng: random.Random, played: bool) -> Record:
    """A random deal, trumps (a suit the dealer holds, so that he can have
    turned one up) and, if ``played``, a random legal play to the last card."""
    deck = list(DECK)
    rng.shuffle(deck)
    deal = Deal.from_hands({s: deck[13 * k:13 * k + 13] for k, s in enumerate(SEATS)})
    trumps = rng.choice(sorted({c.suit for c in deal[Seat.Z]}))
    rec = Record(deal, Suit(trumps), Seat.A)
    rec.turn_up = min((c for c in deal[Seat.Z] if c.suit == rec.trumps), key=lambda c: c.rank)
    rec.totals = {Side.AB: 6, Side.YZ: 7}
    if played:
        held = {s: list(deal[s]) for s in SEATS}
        leader = Seat.A
        for _ in range(13):
            trick, seat = [], leader
            for _ in range(4):
                card = rng.choice(legal_plays(held[seat], trick[0].suit if trick else None))
                held[seat].remove(card)
                trick.append(card)
                seat = seat.lho
            rec.tricks.append(trick)
            leader = replay(deal.hands, rec.trumps, Seat.A, rec.tricks).next_leader
        rec.totals = dict(replay(deal.hands, rec.trumps, Seat.A, rec.tricks).tally)
    return rec


def big_file(path: Path, boards: int, played: bool) -> None:
    rng = random.Random(25 if played else 52)
    text = pbn.write([random_record(rng, played) for _ in range(boards)])
    if not played:  # deal and contract only: no result, no play section
        text = re.sub(r'\[Result "\d+"\]\n', "", text).replace('[Play "S"]\n*\n', "")
    path.write_text(text, encoding="utf-8")


def import_file(path: Path, workers: int | None) -> float:
    from whistbook.cli import main
    from whistbook.exchange import importer

    folder = path.with_suffix("")
    original = importer.finish_all
    importer.finish_all = lambda jobs, w=None: original(jobs, workers)  # the --workers of this benchmark
    try:
        start = time.perf_counter()
        code = main(["import", str(path), "-o", str(folder), "-q"])
        took = time.perf_counter() - start
    finally:
        importer.finish_all = original
    assert code == 0, code
    return took


def large(boards: int, workers: int | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for played in (True, False):
            path = Path(tmp) / f"{'played' if played else 'dealt'}.pbn"
            big_file(path, boards, played)
            took = import_file(path, workers)
            kind = "every card played" if played else "deal and contract only (a solve each)"
            print(f"import {boards} boards, {kind}: {took:.1f} s ({boards / took:.0f} boards a second)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--boards", type=int, default=0, help="time the import of a file of this many boards")
    parser.add_argument("--workers", type=int, default=None, help="processes for the solving (default: one a core)")
    args = parser.parse_args()
    if args.boards:
        large(args.boards, args.workers)
    else:
        corpus(args.repeats)


if __name__ == "__main__":
    main()
