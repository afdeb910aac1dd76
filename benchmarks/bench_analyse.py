"""How long double-dummy analysis of the corpus takes, from a cold cache and a warm one.

    python benchmarks/bench_analyse.py                      # hands/cavendish
    python benchmarks/bench_analyse.py hands --repeat 5 --per-hand
    python benchmarks/bench_analyse.py --synthetic 39       # pad with random played-out deals
    python benchmarks/bench_analyse.py --cli                # also time the command in fresh processes

Every figure is the median of the repeats (min and max alongside). A cold
run starts from an empty cache folder, so every position is solved; a warm
run reads everything from the cache that the cold run left. Loading and
checking the files is timed separately from the analysis itself. This is a
report, not a test: it asserts nothing.

Targets from the issue: all 39 hands from cold < 30 s, from warm < 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook import solver  # noqa: E402
from whistbook.analysis import Cache, analyse  # noqa: E402
from whistbook.laws import CheckedHand  # noqa: E402
from whistbook.corpus import find_hand_files  # noqa: E402
from whistbook.corpus import check_file  # noqa: E402
from whistbook.play import legal_plays, replay  # noqa: E402
from whistbook.seats import SEATS, Seat  # noqa: E402
from whistbook.starter import random_deal  # noqa: E402


def synthetic_hands(n: int, seed: int = 1889) -> list[CheckedHand]:
    """Random deals played out to the end by random legal cards: not whist
    anyone would play, but the solver meets full 52-card hands, as in the book."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deal = random_deal(rng)
        trumps = rng.choice(deal[Seat.Z]).suit
        held = {s: list(deal[s]) for s in SEATS}
        tricks: list[list] = []
        lead = Seat.A
        for _ in range(13):
            trick: list = []
            for s in lead.iter_from():
                c = rng.choice(legal_plays(held[s], trick[0].suit if trick else None))
                held[s].remove(c)
                trick.append(c)
            tricks.append(trick)
            lead = replay(deal, trumps, Seat.A, tricks).next_leader
        out.append(CheckedHand(None, replay=replay(deal, trumps, Seat.A, tricks)))  # type: ignore[arg-type]
    return out


def load(paths: list[str]) -> tuple[list[CheckedHand], float]:
    t0 = time.perf_counter()
    hands = []
    for f in find_hand_files(paths):
        ch = check_file(f, solver=False)
        if ch.replay is not None and ch.hand.kind == "hand":
            hands.append(ch)
    return hands, time.perf_counter() - t0


def run(hands: list[CheckedHand], cache: Cache | None) -> tuple[float, list[float]]:
    per = []
    t0 = time.perf_counter()
    for ch in hands:
        t = time.perf_counter()
        analyse(ch, cache)
        per.append(time.perf_counter() - t)
    return time.perf_counter() - t0, per


def fmt(xs: list[float]) -> str:
    return f"median {statistics.median(xs):7.3f} s   (min {min(xs):.3f}, max {max(xs):.3f}, n={len(xs)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "hands" / "cavendish")])
    ap.add_argument("--repeat", type=int, default=3, help="cold runs (default 3); warm runs are twice as many")
    ap.add_argument("--synthetic", type=int, default=0, metavar="N",
                    help="add random played-out deals until there are N hands")
    ap.add_argument("--per-hand", action="store_true", help="print each hand's median cold and warm time")
    ap.add_argument("--cli", action="store_true", help="also time 'whistbook analyse --summary' in fresh processes")
    args = ap.parse_args()

    loads = []
    for _ in range(args.repeat):
        hands, t = load(args.paths)
        loads.append(t)
    names = [Path(h.hand.path).stem for h in hands]
    if args.synthetic > len(hands):
        extra = synthetic_hands(args.synthetic - len(hands))
        names += [f"synthetic-{i + 1}" for i in range(len(extra))]
        hands += extra
    positions = sum(len(h.replay.tricks) * 4 + (1 if h.replay.cards_left else 0) for h in hands)
    print(f"{len(hands)} hands, {positions} positions to solve; {solver.__name__} via endplay")
    print(f"load and check files:  {fmt(loads)}")

    cold, warm = [], []
    cold_per: list[list[float]] = []
    warm_per: list[list[float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            cache = Cache(Path(tmp) / f"cold-{i}")
            total, per = run(hands, cache)
            cold.append(total)
            cold_per.append(per)
        for _ in range(2 * args.repeat):
            total, per = run(hands, cache)
            warm.append(total)
            warm_per.append(per)
        print(f"analyse, cold cache:   {fmt(cold)}   target < 30 s")
        print(f"analyse, warm cache:   {fmt(warm)}   target < 1 s")
        print(f"load + warm analyse:   median {statistics.median(loads) + statistics.median(warm):7.3f} s")

        if args.per_hand:
            print(f"\n{'hand':<44} {'cold ms':>8} {'warm ms':>8}")
            for k, name in enumerate(names):
                c = statistics.median(p[k] for p in cold_per) * 1000
                w = statistics.median(p[k] for p in warm_per) * 1000
                print(f"{name:<44} {c:8.1f} {w:8.2f}")

        if args.cli:
            cmd = [sys.executable, "-m", "whistbook", "analyse", "--summary", *args.paths]
            cli_cold, cli_warm = [], []
            for i in range(args.repeat):
                d = Path(tmp) / f"cli-{i}"
                for store in (cli_cold, cli_warm):
                    t0 = time.perf_counter()
                    subprocess.run([*cmd, "--cache-dir", str(d)], cwd=ROOT, check=False,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    store.append(time.perf_counter() - t0)
            print(f"\ncommand, cold cache:   {fmt(cli_cold)}")
            print(f"command, warm cache:   {fmt(cli_warm)}")


if __name__ == "__main__":
    main()
