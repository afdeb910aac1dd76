"""Dump every explanation of the corpus as text, to check a change leaves them alone.

    python benchmarks/explain_dump.py [PATH ...] [-o FILE]

Explains every hand file under PATH (default: ``hands/``) from each of the
four seats and writes, in a fixed order, every field of every inference,
departure and retraction, the knowledge and counts of all three layers after
each trick, and the layer stores' cards and lengths (what ``holders`` and
``remaining`` read). Run it before and after a change meant to make the
engine faster and ``diff`` the two files: they must be identical.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.corpus import check_file, find_hand_files  # noqa: E402
from whistbook.inference import explain  # noqa: E402
from whistbook.inference.records import LAYERS  # noqa: E402
from whistbook.seats import SEATS  # noqa: E402


def dump_explanation(ex, out: list[str]) -> None:
    for d in ex.departures:
        out.append(f"  departure {d!r} key={d.key}")
    for d in ex.retracted:
        out.append(f"  retracted {d!r} key={d.key}")
    for k, t in enumerate(ex.tricks):
        out.append(f"  trick {t.number}")
        for inf in t.inferences:
            out.append(f"    {inf!r}")
        for d in t.departures:
            out.append(f"    departure {d!r}")
        for layer in LAYERS:
            know = sorted((int(c), [int(s) for s in seats]) for c, seats in t.knowledge[layer].items())
            out.append(f"    knowledge {layer} {know}")
            counts = [(int(s), [(int(S), r) for S, r in per.items()]) for s, per in t.counts[layer].items()]
            out.append(f"    counts {layer} {counts}")
            st = ex._states[k][LAYERS.index(layer)]
            out.append(f"    store {layer} poss={st.poss} lens={st.lens}")
        out.append(f"    played {ex._played[k]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "hands")])
    ap.add_argument("-o", "--output", help="write here (default: standard output)")
    args = ap.parse_args()
    out: list[str] = []
    for f in find_hand_files(args.paths):
        ch = check_file(f, solver=False)
        if ch.replay is None:
            continue
        for s in SEATS:
            out.append(f"{f.relative_to(ROOT) if f.is_relative_to(ROOT) else f} from {s}")
            dump_explanation(explain(ch, s), out)
    text = "\n".join(out) + "\n"
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
