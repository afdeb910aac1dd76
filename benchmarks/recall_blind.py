"""Measure the inference engine's recall on the blind Cavendish sets.

Reads the blind sets (tests/data/recall_blind_hands_1_10.yaml and
tests/data/recall_blind_hands_11_39.yaml, written from the book alone) and,
in process, asks the engine for each entry whether it derives the statement
from the entry's viewer by the book's trick: at the book's own certainty
(the score) and at any certainty (the statement with its layer prefix
dropped, checked in the certain, presumed and probable layers in turn).

Usage:  python benchmarks/recall_blind.py [--set PATH ...] [-v] [--misses]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.corpus import check_file  # noqa: E402
from whistbook.inference import explain  # noqa: E402
from whistbook.inference.statements import fact_error, holds_in, parse_statement, refuted_in  # noqa: E402
from whistbook.seats import Seat  # noqa: E402

HANDS = ROOT / "hands" / "cavendish"
SETS = [ROOT / "tests" / "data" / "recall_blind_hands_1_10.yaml",
        ROOT / "tests" / "data" / "recall_blind_hands_11_39.yaml"]
LAYERS = ("certain", "presumed", "probable")


def hand_file(n: int) -> Path:
    found = sorted(HANDS.glob(f"{n:02d}-*.yaml"))
    if len(found) != 1:
        raise SystemExit(f"hand {n}: expected one file, found {found}")
    return found[0]


class Corpus:
    """Checked hands and explanations, each computed once."""

    def __init__(self) -> None:
        self.checked: dict[int, object] = {}
        self.explained: dict[tuple[int, Seat], object] = {}

    def hand(self, n: int):
        if n not in self.checked:
            self.checked[n] = check_file(hand_file(n), solver=False)
        return self.checked[n]

    def explanation(self, n: int, view: Seat):
        if (n, view) not in self.explained:
            self.explained[n, view] = explain(self.hand(n), view)
        return self.explained[n, view]


def measure(corpus: Corpus, entry: dict) -> dict:
    """Status of one entry: derived at the book's layer, at some layer, or missed."""
    checked = corpus.hand(entry["hand"])
    st = parse_statement(entry["statement"])
    view = Seat.parse(entry["viewer"]) if entry.get("viewer") else checked.hand.known_hand
    trick = entry["trick"]
    if trick > len(checked.replay.tricks):
        return {"book": False, "any": False, "why": f"the hand has only {len(checked.replay.tricks)} tricks"}
    if st.is_fact:
        wrong = fact_error(checked.replay, trick, st, view)
        return {"book": not wrong, "any": not wrong, "why": wrong or ""}
    ex = corpus.explanation(entry["hand"], view)
    layers = [layer for layer in LAYERS if holds_in(ex, trick, st, layer)]
    book = st.certainty in layers or (st.certainty == "probable" and bool(layers)) or (
        st.certainty == "presumed" and "certain" in layers)
    first = next((t for t in range(trick + 1, len(ex.tricks) + 1) if holds_in(ex, t, st, "probable")), None)
    if book:
        why = ""
    elif layers:
        why = f"derived only as {layers[0]}"
    elif refuted_in(ex, trick, st, "presumed"):
        why = "the conventions point the other way"
    elif first:
        why = f"derived only at trick {first}"
    else:
        why = "not derived"
    return {"book": book, "any": bool(layers), "why": why, "layer": layers[0] if layers else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, action="append", help="a blind set (default: both)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every entry")
    ap.add_argument("--per-hand", action="store_true", help="print recall per hand")
    args = ap.parse_args()
    entries = [e for path in (args.set or SETS) for e in yaml.safe_load(path.read_text(encoding="utf-8"))]
    corpus = Corpus()
    t0 = time.perf_counter()
    per_hand: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    per_cert: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    misses = []
    for i, e in enumerate(entries):
        r = measure(corpus, e)
        cert = parse_statement(e["statement"]).certainty
        for tally in (per_hand[e["hand"]], per_cert[cert]):
            tally[0] += r["book"]
            tally[1] += r["any"]
            tally[2] += 1
        if args.verbose:
            mark = "ok  " if r["book"] else ("any " if r["any"] else "MISS")
            print(f"  {mark} hand {e['hand']:>2} trick {e['trick']:>2} {e['statement']}  {r['why']}")
        if not r["book"]:
            misses.append((i, e, r))
    n = len(entries)
    book = sum(v[0] for v in per_hand.values())
    anyc = sum(v[1] for v in per_hand.values())
    print(f"Blind recall, Cavendish Hands {min(per_hand)}-{max(per_hand)} ({n} entries, "
          f"{time.perf_counter() - t0:.1f} s)")
    if args.per_hand:
        for h in sorted(per_hand):
            b, a, k = per_hand[h]
            print(f"  hand {h:>2}: {b}/{k} at the book's certainty, {a}/{k} at any")
    for c in LAYERS:
        if c in per_cert:
            b, a, k = per_cert[c]
            print(f"  {c:>9}: {b}/{k} at the book's certainty, {a}/{k} at any")
    print(f"  total    : {book}/{n} ({100 * book / max(n, 1):.1f}%) at the book's certainty; "
          f"{anyc}/{n} ({100 * anyc / max(n, 1):.1f}%) at any")
    if misses:
        print(f"\nMisses at the book's certainty ({len(misses)}):")
        for i, e, r in misses:
            print(f"  #{i:<3} hand {e['hand']:>2} trick {e['trick']:>2} as {e.get('viewer', '?')}: "
                  f"{e['statement']}  -- {r['why']}")
            if args.verbose:
                print(f"        book: {e['book']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
