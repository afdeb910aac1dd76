"""What each theme detector finds in the book's hands, against the hands' own labels.

The bundled hands' titles, themes and tags are labelled examples: Hand XVIII
"Z underplays in trumps" is an example of the underplay, Hand XXXIV "Echoing
partner's call for trumps" of the call and the echo, and so on. For each theme
this runs :func:`whistbook.themes.detect` (with the solver's confirmation) over
the 39 hands of Cavendish's Part II and Clay's three positions, and prints the
hands where it finds the theme, the labelled hands, and which labelled hands
it misses.

    python benchmarks/themes_book.py [--markdown]

The labels are read from the files by a few words each (:data:`LABELS`),
which is what a reader of the contents would go by.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: per theme, the words of a hand's title or theme, or its tags, that make it a labelled example
LABELS = {
    "finesse": (r"finesse", {"finesse"}),
    "underplay": (r"underplay|refusing to win|ducking|held back", {"underplay"}),
    "trump-lead": (r"trumps? (?:lead|led)|opening trumps|trump leads", set()),
    "forced-trump-lead": (r"defensive trump lead|trump lead in defence", set()),
    "call": (r"call for trumps|echoing partner's call", set()),
    "echo": (r"\becho", set()),
    "force": (r"forc", {"forcing"}),
    "no-force": (r"force declined|refusing to force|declining .*force", set()),
    "discard-weak": (r"discard from weak|weakest suit", set()),
    "discard-strong": (r"discard", {"discards"}),
    "unblock": (r"unblock|clears his high cards|getting rid of command", set()),
    "counting": (r"count", {"counting"}),
    "tenace": (r"tenace", set()),
    "refuse-overtrump": (r"overtrump", set()),
    "grand-coup": (r"grand coup", set()),
}


def labelled(hf, theme: str) -> bool:
    words, tags = LABELS[theme]
    text = f"{hf.title} {hf.theme or ''}".lower()
    return bool(re.search(words, text)) or bool(tags & set(hf.tags))


def short(hf) -> str:
    return hf.title.removeprefix("Hand ") if hf.title.startswith("Hand ") else Path(hf.path).stem[:2] + "c"


def main(argv: list[str] | None = None) -> int:
    from whistbook.corpus import check_file
    from whistbook.themes import THEMES, detect

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown (for docs/players.md)")
    args = ap.parse_args(argv)
    files = sorted((ROOT / "hands" / "cavendish").glob("*.yaml")) + sorted((ROOT / "hands" / "clay").glob("*.yaml"))
    found: dict[str, set] = defaultdict(set)
    cards: dict[str, int] = defaultdict(int)
    labels: dict[str, set] = defaultdict(set)
    start = time.perf_counter()
    order = {}
    for k, f in enumerate(files):
        checked = check_file(f, solver=False)
        if checked.replay is None or checked.hand.kind != "hand":
            continue
        hf = checked.hand
        name = short(hf)
        order[name] = k
        for theme in THEMES:
            if labelled(hf, theme):
                labels[theme].add(name)
        for x in detect(checked):
            found[x.theme].add(name)
            cards[x.theme] += 1
    took = time.perf_counter() - start
    key = order.get
    if args.markdown:
        print("| theme | cards found | hands found | labelled hands | labelled and found | labelled, missed |")
        print("| --- | --- | --- | --- | --- | --- |")
    for theme in THEMES:
        f, lab = found[theme], labels[theme]
        both, missed = sorted(f & lab, key=key), sorted(lab - f, key=key)
        row = [theme, str(cards[theme]), f"{len(f)}: " + ", ".join(sorted(f, key=key)),
               str(len(lab)), f"{len(both)}: " + ", ".join(both), ", ".join(missed) or "none"]
        if args.markdown:
            print("| " + " | ".join(row) + " |")
        else:
            print(f"{theme:18} {cards[theme]:3} cards in {len(f):2} hands; labelled {len(lab):2}, "
                  f"found {len(both):2}, missed: {', '.join(missed) or 'none'}")
            print(f"{'':18} found in: {', '.join(sorted(f, key=key))}")
    print(f"\n{len(order)} hands in {took:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
