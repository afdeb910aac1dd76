"""Recall: how many of Cavendish's own conclusions in Hands I-X the engine
derives by the trick at which the book draws them.

The test set is tests/data/recall_hands_1_10.yaml. Hands come from
hands/cavendish (or $WHISTBOOK_HANDS); items whose hand file is missing are
skipped. Run with -s to see the table.
"""

from pathlib import Path

import pytest
import yaml

from whistbook.corpus import check_file
from whistbook.inference import explain
from whistbook.inference.statements import holds_in, parse_statement

from _inference_util import hands_dir

DATA = Path(__file__).parent / "data" / "recall_hands_1_10.yaml"
#: the share achieved when the set was written: a regression below it fails
FLOOR = 1.0


def items():
    return yaml.safe_load(DATA.read_text(encoding="utf-8"))


def test_recall_set_is_well_formed():
    for it in items():
        assert {"hand", "trick", "statement", "paraphrase"} <= set(it), it
        st = parse_statement(it["statement"])
        assert st.certainty in ("certain", "presumed", "probable")
        assert 1 <= it["trick"] <= 13


def test_recall_hands_1_to_10():
    cache: dict = {}
    rows = []
    negatives = []
    for it in items():
        found = sorted(hands_dir().glob(f"{it['hand']:02d}-*.yaml"))
        if not found:
            continue
        path = found[0]
        if path not in cache:
            cache[path] = check_file(path, solver=False)
        checked = cache[path]
        if checked.replay is None or it["trick"] > len(checked.replay.tricks):
            continue
        text = (f"as {it['as']}: " if "as" in it else "") + it["statement"]
        st = parse_statement(text)
        view = st.viewpoint or checked.hand.known_hand
        key = (path, view)
        if key not in cache:
            cache[key] = explain(checked, view)
        ex = cache[key]
        derived = holds_in(ex, it["trick"], st)
        if it.get("expect", True) is False:
            negatives.append((it["hand"], it["trick"], str(view), it["statement"], not derived))
            continue
        first = next((t for t in range(1, len(ex.tricks) + 1) if holds_in(ex, t, st)), None)
        rows.append((it["hand"], it["trick"], str(view), it["statement"], derived, first))
    if not rows:
        pytest.skip("no hand files for Hands I-X")
    got = sum(r[4] for r in rows)
    print(f"\nrecall: {got}/{len(rows)} conclusions of Hands I-X derived by the book's trick")
    by_trick: dict[int, list[int]] = {}
    for r in rows:
        by_trick.setdefault(r[1], [0, 0])
        by_trick[r[1]][0] += r[4]
        by_trick[r[1]][1] += 1
    print("  by trick: " + ", ".join(f"T{t} {a}/{b}" for t, (a, b) in sorted(by_trick.items())))
    for hand, trick, view, text, ok, first in rows:
        when = "" if ok else (f" (only at trick {first})" if first else " (never)")
        print(f"  {'ok  ' if ok else 'MISS'} Hand {hand:>2} trick {trick:>2} as {view}: {text}{when}")
    for hand, trick, view, text, ok in negatives:
        print(f"  {'ok  ' if ok else 'OVER'} Hand {hand:>2} trick {trick:>2} as {view}: not {text}")
    assert got >= FLOOR * len(rows), [r for r in rows if not r[4]]
    assert all(n[4] for n in negatives), [n for n in negatives if not n[4]]
