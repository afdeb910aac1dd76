"""The lessons' quiz over a folder of hands, as a build makes it.

    python benchmarks/quiz_stats.py [hands] [--cache .whistbook-cache/solver]

For every hand with a known hand: the play questions ("What would you
play?") the lesson asks, how many accept every legal card, the mean share of
the legal cards accepted (right or sound), the most a card left unasked
would have cost, and the knowledge questions ("What do you know now?").
The judge's verdicts are read from the build's cache when it has them (run
``whistbook build`` first for a quick answer), else made (a minute or two).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whistbook.analysis import Cache, analyse  # noqa: E402
from whistbook.corpus import check_file, find_hand_files  # noqa: E402
from whistbook.inference import RULES, explain  # noqa: E402
from whistbook.judgement import Budget, judge  # noqa: E402
from whistbook.lesson import build_lesson, viewpoint_of  # noqa: E402


def lesson_of(path: Path, cache: Cache):
    ch = check_file(path)
    if not ch.ok or ch.hand.kind != "hand" or ch.hand.known_hand is None:
        return None, None
    explanation = explain(ch)
    seat = viewpoint_of(ch.hand, explanation)
    analysis = analyse(ch, cache=cache, options_for={seat})
    judgement = judge(ch, seats=[seat], cache=cache, budget=Budget.up_to(None))
    return build_lesson(ch, explanation=explanation, analysis=analysis, rules=RULES, judgement=judgement), judgement


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("hands", nargs="?", default=ROOT / "hands", type=Path)
    ap.add_argument("--cache", default=ROOT / ".whistbook-cache" / "solver", type=Path)
    args = ap.parse_args(argv)
    cache = Cache(args.cache)
    asked = every = 0
    shares, unasked_loss, unsound, know = [], [], 0, 0
    for path in find_hand_files([args.hands]):
        lesson, judgement = lesson_of(path, cache)
        if lesson is None:
            continue
        at = {q.trick for q in lesson.play_quizzes}
        for q in lesson.play_quizzes:
            asked += 1
            every += set(q.accepted) >= set(q.legal)
            shares.append(len(set(q.accepted) & set(q.legal)) / len(q.legal))
        for j in judgement.cards:
            if j.trick in at or j.seat != lesson.viewpoint or len(j.options) < 2 or j.by_law or j.revoke:
                continue
            if j.loss is not None and j.loss.tier != "good":
                unsound += 1  # not asked: the book's own card was not sound (the verdict says why)
            else:
                unasked_loss.append(max(o.tricks for o in j.options))
        know += len(lesson.know_quizzes)
    print(f"play questions: {asked}")
    print(f"  accepting every legal card: {every}")
    print(f"  mean share of legal cards accepted: {statistics.fmean(shares):.0%}")
    print(f"  not asked, the book's card unsound: {unsound}")
    print(f"  not asked otherwise, with a real choice: {len(unasked_loss)}; "
          f"the most a card there costs: {max(unasked_loss, default=0):.2f} tricks")
    print(f"knowledge questions: {know}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
