"""Check the tricks each inference rests on: sufficient, and how often minimal.

    python benchmarks/rests_on.py [FOLDER] [--all-seats] [--minimal] [-v]

For every inference (signals aside) the engine reports after trick t, rebuild
the layer from nothing but the deal and the facts and presumptions of the
tricks in ``rests_on`` (the presumptions as they stood after trick t), and
check the conclusion follows. With --minimal, also drop each of those tricks
in turn and count the conclusions for which none can be dropped. Prints the
counts; -v lists the failures. See docs/inference.md ("Rests on").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.corpus import check_file  # noqa: E402
from whistbook.inference import explain  # noqa: E402
from whistbook.inference.chain import Rederiver  # noqa: E402
from whistbook.seats import SEATS  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT / "hands" / "cavendish"))
    ap.add_argument("--all-seats", action="store_true")
    ap.add_argument("--minimal", action="store_true")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    n = ok = minimal = 0
    for f in sorted(Path(args.folder).glob("*.yaml")):
        ch = check_file(f, solver=False)
        if ch.replay is None:
            continue
        seats = list(SEATS) if args.all_seats else [None]
        for s in seats:
            ex = explain(ch, s)
            rd = Rederiver(ch, s)
            for t in ex.tricks:
                for inf in t.inferences:
                    if inf.kind == "signal":
                        continue
                    n += 1
                    if not rd.follows(t.number, inf, set(inf.rests_on)):
                        if args.v:
                            print(f"{f.name} as {ex.viewpoint} trick {t.number}: not sufficient: {inf}")
                        continue
                    ok += 1
                    if args.minimal:
                        spare = [j for j in inf.rests_on if rd.follows(t.number, inf, set(inf.rests_on) - {j})]
                        minimal += not spare
                        if spare and args.v:
                            print(f"{f.name} as {ex.viewpoint} trick {t.number}: could drop {spare}: "
                                  f"{inf.seat} {inf.kind} {[str(c) for c in inf.cards]} {inf.suit} "
                                  f"{inf.certainty} {inf.rule} {inf.rests_on}")
    print(f"{n} inferences: rests_on sufficient for {ok} ({100 * ok / max(n, 1):.1f}%)"
          + (f", minimal (no trick can be dropped) for {minimal} ({100 * minimal / max(n, 1):.1f}%)"
             if args.minimal else ""))
    return 0 if ok == n else 1


if __name__ == "__main__":
    raise SystemExit(main())
