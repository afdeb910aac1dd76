"""Exchange speed: the 39 Cavendish hands written as PBN and LIN and read
back, in process, once endplay is loaded.

    python benchmarks/bench_exchange.py [--repeats 7]

Writing starts from checked hands (loading and checking the YAML is not
counted); reading includes endplay's parser, the replay of every trick and
the double-dummy solve of each claim. endplay's import (seconds: most of it is
matplotlib, which endplay loads with its dealer module) is paid once before
timing and reported apart. Figures are medians of the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.corpus import check_file, find_hand_files  # noqa: E402
from whistbook.exchange import lin, pbn  # noqa: E402
from whistbook.exchange.record import from_checked  # noqa: E402


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    start = time.perf_counter()
    import endplay  # noqa: F401

    print(f"endplay import: {time.perf_counter() - start:.2f} s (once)")
    files = find_hand_files([ROOT / "hands" / "cavendish"])
    records = [from_checked(check_file(f, solver=False, statements=False)) for f in files]
    n = len(records)
    texts = {"pbn": pbn.write(records), "lin": lin.write(records)}
    for name, module in (("pbn", pbn), ("lin", lin)):
        w = median_time(lambda: module.write(records), args.repeats)
        r = median_time(lambda: module.read(texts[name], "bench"), args.repeats)
        print(f"{name}: write {n} hands {w * 1000:.1f} ms ({w / n * 1000:.2f} ms a hand); "
              f"read {r * 1000:.1f} ms ({r / n * 1000:.2f} ms a hand); read/write {r / w:.1f}")


if __name__ == "__main__":
    main()
