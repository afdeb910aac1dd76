"""List what the engine concludes beyond Cavendish's remarks, hand by hand.

    python benchmarks/beyond_book.py > /tmp/beyond.md

Two kinds, both from the hand file's known hand and checked against the deal:

* *earlier*: a conclusion of the blind recall sets that the engine draws
  before the trick at which the book states it;
* *unstated*: placements the engine makes (a card held, a suit exhausted)
  that no entry of the blind sets states for that hand, certain ones first.

The output is raw material for docs/beyond-the-book.md, which keeps the
ones a careful player could draw.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from _inference_util import _true, remaining  # noqa: E402
from recall_blind import SETS, Corpus, hand_file  # noqa: E402

from whistbook import wording  # noqa: E402
from whistbook.inference.statements import holds_in, parse_statement  # noqa: E402
from whistbook.seats import Seat  # noqa: E402

LAYERS = ("certain", "presumed", "probable")
ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
         "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII", "XXIII", "XXIV", "XXV", "XXVI", "XXVII", "XXVIII",
         "XXIX", "XXX", "XXXI", "XXXII", "XXXIII", "XXXIV", "XXXV", "XXXVI", "XXXVII", "XXXVIII", "XXXIX"]


def _so(st, deal, owner, tricks, after: int) -> bool:
    """Whether a statement is true of the deal after ``after`` tricks."""
    s = int(st.seat)
    if st.kind == "holds":
        return all(owner[int(c)] == s for c in st.cards)
    if st.kind == "lacks":
        return all(owner[int(c)] != s for c in st.cards)
    n = remaining(deal, tricks, s, int(st.suit), after)
    if st.kind == "void":
        return n == 0
    return (st.lo is None or n >= st.lo) and (st.hi is None or n <= st.hi)


def main() -> int:
    entries = [e for path in SETS for e in yaml.safe_load(path.read_text(encoding="utf-8"))]
    corpus = Corpus()
    per_hand: dict[int, list[dict]] = {}
    for e in entries:
        per_hand.setdefault(e["hand"], []).append(e)
    for n in range(1, 40):
        checked = corpus.hand(n)
        known = checked.hand.known_hand
        ex = corpus.explanation(n, known)
        rp = checked.replay
        deal = {int(s): {int(c) for c in rp.hands[s]} for s in range(4)}
        owner = {c: s for s, cs in deal.items() for c in cs}
        lines = []
        stated_cards = set()
        for e in per_hand.get(n, []):
            st = parse_statement(e["statement"])
            if st.is_fact:
                continue
            stated_cards |= {(str(st.seat), str(c)) for c in st.cards}
            view = Seat.parse(e["viewer"]) if e.get("viewer") else known
            exv = corpus.explanation(n, view)
            first = next((t for t in range(1, e["trick"])
                          if any(holds_in(exv, t, st, layer) for layer in LAYERS)
                          and _so(st, deal, owner, rp.tricks, t)), None)
            layer = next((layer for layer in LAYERS if first and holds_in(exv, first, st, layer)), "")
            if first and not (first == 1 and st.kind == "holds" and checked.hand.turn_up is not None
                                  and checked.hand.turn_up.card in st.cards):
                who = "" if view == known else f" (from {view}'s seat)"
                lines.append(f"- earlier{who}: `{st.body}` after trick {first} ({layer}); the book draws it "
                             f"at trick {e['trick']}")
        extra = []
        for t in ex.tricks:
            for i in t.inferences:
                if i.kind not in ("holds", "void") or i.certainty == "probable":
                    continue
                if i.rule in ("show_out", "turn_up_card"):
                    continue  # seen by everyone at the table
                if not _true(i, deal, owner, rp.tricks, t.number):
                    continue
                if any((str(i.seat), str(c)) in stated_cards for c in i.cards):
                    continue
                extra.append((i.kind != "holds", i.certainty != "certain", t.number, wording.sentence_text(i)))
        for *_, t, text in sorted(extra)[:3]:
            lines.append(f"- not stated: after trick {t}, {text}")
        if lines:
            print(f"\n## Hand {ROMAN[n]} ({hand_file(n).stem}, {known}'s hand)\n")
            print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
