"""Inference words against remark words, per lesson, over the corpus.

    python benchmarks/inference_words.py [FOLDER]

For each hand: the words of the book's remarks (the shown and unshown
tricks' remarks and the ending's account), the words the inferences took
as full sentences, one per conclusion (the lesson pages before the
play-along; ``wording.sentence``), and the words they take now as one
condensed line per seat (``wording.news``). A card or a suit counts as one
word; citations are not counted in either.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook import wording  # noqa: E402
from whistbook.corpus import check_file, find_hand_files  # noqa: E402
from whistbook.inference import RULES, explain  # noqa: E402
from whistbook.lesson import build_lesson  # noqa: E402

_CARD_SHORTHAND = re.compile(r"\{[^}]*\}")


def prose_words(text: str | None) -> int:
    return len(_CARD_SHORTHAND.sub("card", text).split()) if text else 0


def measure(path: Path) -> tuple[str, int, int, int] | None:
    ch = check_file(path)
    if not ch.ok or ch.hand.kind != "hand":
        return None
    lesson = build_lesson(ch, explanation=explain(ch), rules=RULES)
    remarks = sum(prose_words(t.remark) for t in lesson.tricks + lesson.unshown)
    remarks += prose_words(lesson.ending.account) if lesson.ending else 0
    before = sum(wording.words_count(i.sentence) for t in lesson.tricks for i in t.inferences)
    after = sum(wording.words_count(c.words) for t in lesson.tricks for n in t.news for c in n.clauses)
    return f"{path.parent.name}/{path.stem[:2]}", remarks, before, after


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "hands"
    rows = [r for r in map(measure, find_hand_files([folder])) if r is not None]
    print(f"{'hand':>13} {'remarks':>8} {'before':>7} {'after':>6}  after/remarks")
    over = 0
    for name, remarks, before, after in rows:
        flag = "" if after <= remarks else "  OVER"
        over += after > remarks
        print(f"{name:>13} {remarks:8d} {before:7d} {after:6d}  {after / max(remarks, 1):5.2f}{flag}")
    tr, tb, ta = (sum(r[k] for r in rows) for k in (1, 2, 3))
    print(f"{'all':>13} {tr:8d} {tb:7d} {ta:6d}  {ta / max(tr, 1):5.2f}")
    print(f"lessons over their remarks: {over} of {len(rows)}; before/after: {tb / max(ta, 1):.1f}x fewer words")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
