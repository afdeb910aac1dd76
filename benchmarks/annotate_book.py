"""How well ``whistbook annotate`` drafts where Cavendish remarks.

    python benchmarks/annotate_book.py                  # the 39 hands, every seat judged (cached)
    python benchmarks/annotate_book.py --no-judge       # the inference engine's moments only (quick)
    python benchmarks/annotate_book.py --sweep          # recall and precision at other thresholds
    python benchmarks/annotate_book.py -v               # every trick: his remark's pages, the draft

The 39 hands of Part II are copied to a temporary folder with every ``remark:``
taken out, annotated as ``whistbook annotate`` does (the same functions), and
the drafts read back from the files written. Against the tricks where the
hand files (Cavendish's remarks, in our words) have a remark:

* recall: of the tricks he remarks on, how many get a draft;
* precision: of the drafts, how many fall at a trick he remarks on (the rest
  fall where he says nothing);
* the rule cited: at the tricks where both his remark and the draft cite a
  page, how often a page cited by the draft lies in a range his remark cites;
* the judge's cards: the drafts made from a single-dummy verdict at a card
  that tests/data/book_verdicts.yaml records, against the book's verdict.

The judge's verdicts are kept in ``--cache-dir`` (default .whistbook-cache),
so a second run takes seconds.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_PAGES = re.compile(r"\b(?:pp?|App\. [A-C])\.?\s*(\d+)(?:\s*[-–]\s*(\d+))?")
_RANGES = re.compile(r"(?<![\w.])(\d+)(?:\s*[-–]\s*(\d+))?")


def strip_remarks(text: str, path: str) -> str:
    """The hand file's text without its ``remark:`` keys (the key and its value's lines)."""
    from whistbook.yamlnodes import compose

    root = compose(text, path)
    tricks = next(v for k, v in root.value if k.value == "tricks")
    cuts = []
    for item in tricks.value:
        if not isinstance(item, yaml.MappingNode):
            continue
        for k, v in item.value:
            if k.value == "remark":
                start = text.rfind("\n", 0, k.start_mark.index) + 1
                end = v.end_mark.index if v.style in ("|", ">") else text.find("\n", v.end_mark.index) + 1
                cuts.append((start, end))
    for start, end in sorted(cuts, reverse=True):
        text = text[:start] + text[end:]
    return text


def remark_pages(remark: str) -> list[tuple[int, int]]:
    """The page ranges a remark cites: ``(p. 56)``, ``pp. 119-123``, ``[p. 82]``."""
    out = []
    for m in _PAGES.finditer(remark):
        lo = int(m.group(1))
        out.append((lo, int(m.group(2) or lo)))
    return out


def rule_pages(page: str | None) -> list[tuple[int, int]]:
    """A rule's pages (``82-84``, ``60; App. A 281``); the laws' numbers are not pages."""
    if not page or page.startswith("Laws"):
        return []
    return [(int(a), int(b or a)) for a, b in _RANGES.findall(page)]


def overlaps(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> bool:
    return any(lo1 <= hi2 and lo2 <= hi1 for lo1, hi1 in a for lo2, hi2 in b)


def book_verdicts() -> dict[tuple[str, int, str, str], str]:
    data = yaml.safe_load((ROOT / "tests" / "data" / "book_verdicts.yaml").read_text(encoding="utf-8"))
    return {(e["hand"], e["trick"], e["seat"], e["card"]): e["verdict"] for e in data
            if e["hand"].startswith("cavendish/") and not e.get("ending")}


def run(args: argparse.Namespace) -> dict:
    from whistbook import solver
    from whistbook.annotate import drafts, records_of, write_drafts
    from whistbook.corpus import check_file
    from whistbook.handfile import loads
    from whistbook.inference.rules import RULES
    from whistbook.judgement import Budget
    from whistbook.solvercache import Cache

    solver.limit_threads(1)
    cache = Cache(args.cache_dir)
    originals = sorted((ROOT / "hands" / "cavendish").glob("*.yaml"))[: args.hands]
    work = Path(tempfile.mkdtemp(prefix="whistbook-annotate-"))
    rows = []
    started = time.perf_counter()
    try:
        for src in originals:
            text = src.read_text(encoding="utf-8")
            truth = loads(text, str(src))
            copy = work / src.name
            copy.write_text(strip_remarks(text, str(src)), encoding="utf-8")
            checked = check_file(copy, solver=False)
            records = records_of(checked, judge=not args.no_judge, budget=Budget.up_to(args.samples), cache=cache)
            made = {d.trick: d for d in drafts(records, threshold=args.threshold)}
            new, _ = write_drafts(copy.read_text(encoding="utf-8"), str(copy), checked.hand, made.values())
            copy.write_text(new, encoding="utf-8")
            back = loads(new, str(copy))
            for t, b in zip(truth.tricks, back.tricks):
                d = made.get(t.number)
                assert (b.remark_draft is not None) == (d is not None)
                pages = [p for m in (d.moments if d else ())
                         for p in rule_pages(m.page or (RULES[m.rule].page if m.rule in RULES else None))]
                rows.append({"hand": f"cavendish/{src.name}", "trick": t.number, "remark": t.remark,
                             "draft": b.remark_draft, "moments": d.moments if d else (),
                             "his_pages": remark_pages(t.remark or ""), "draft_pages": pages})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"rows": rows, "seconds": time.perf_counter() - started}


def report(rows: list[dict], verbose: bool) -> None:
    said = [r for r in rows if r["remark"]]
    drafted = [r for r in rows if r["draft"]]
    hit = [r for r in said if r["draft"]]
    print(f"tricks {len(rows)}, with his remark {len(said)} ({len(said) / len(rows):.0%}), drafts {len(drafted)}")
    print(f"recall     {len(hit)}/{len(said)} = {len(hit) / max(len(said), 1):.1%}  (his remark tricks that get a draft)")
    print(f"precision  {len(hit)}/{len(drafted)} = {len(hit) / max(len(drafted), 1):.1%}  "
          f"({len(drafted) - len(hit)} drafts where he says nothing; "
          f"{len(said) / len(rows):.1%} for a draft at every trick)")
    for name, part in (("Hands I-XX", [r for r in rows if r["hand"] < "cavendish/21"]),
                       ("Hands XXI-XXXIX", [r for r in rows if r["hand"] >= "cavendish/21"])):
        s, d = sum(1 for r in part if r["remark"]), sum(1 for r in part if r["draft"])
        h = sum(1 for r in part if r["remark"] and r["draft"])
        print(f"  {name}: recall {h}/{s} = {h / max(s, 1):.1%}, precision {h}/{d} = {h / max(d, 1):.1%}")
    both = [r for r in hit if r["his_pages"] and r["draft_pages"]]
    same = [r for r in both if overlaps(r["his_pages"], r["draft_pages"])]
    print(f"rule cited {len(same)}/{len(both)} = {len(same) / max(len(both), 1):.1%}  "
          "(where both cite a page, the draft's page within one he cites)")
    by_kind: Counter = Counter()
    by_kind_hit: Counter = Counter()
    for r in drafted:
        for kind in {m.kind for m in r["moments"]}:
            by_kind[kind] += 1
            by_kind_hit[kind] += bool(r["remark"])
    print("drafts by source (a draft may rest on two):")
    for kind, n in by_kind.most_common():
        print(f"  {kind:10s} {n:4d} drafts, {by_kind_hit[kind]:4d} at his remarks ({by_kind_hit[kind] / n:.0%})")
    verdicts = book_verdicts()
    agree: Counter = Counter()
    for r in drafted:
        for m in r["moments"]:
            if m.kind == "verdict":
                book = verdicts.get((r["hand"], r["trick"], str(m.seat), str(m.cards[0])))
                agree[book or "not judged by the book"] += 1
    if agree:
        print("verdict drafts at cards the book judges: " + ", ".join(f"{k} {n}" for k, n in agree.most_common()))
    if verbose:
        for r in rows:
            if r["remark"] or r["draft"]:
                mark = "hit " if r["remark"] and r["draft"] else ("miss" if r["remark"] else "new ")
                print(f"{mark} {r['hand'][10:12]} t{r['trick']:<2} his {r['his_pages']} draft {r['draft_pages']}: "
                      f"{(r['draft'] or '').strip()[:150]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-judge", action="store_true", help="the inference engine's moments only")
    ap.add_argument("--samples", type=int, default=None, help="the judge's deals a card (default 64)")
    ap.add_argument("--threshold", type=float, default=None, help="the weight a trick's best moment needs")
    ap.add_argument("--sweep", action="store_true", help="recall and precision at several thresholds")
    ap.add_argument("--hands", type=int, default=None, help="the first N hands only")
    ap.add_argument("--cache-dir", default=str(ROOT / ".whistbook-cache"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    from whistbook.annotate import THRESHOLD

    if args.threshold is None:
        args.threshold = THRESHOLD
    out = run(args)
    report(out["rows"], args.verbose)
    print(f"{out['seconds']:.1f} s for {len({r['hand'] for r in out['rows']})} hands")
    if args.sweep:
        for t in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
            args.threshold = t
            rows = run(args)["rows"]
            said = sum(1 for r in rows if r["remark"])
            drafted = sum(1 for r in rows if r["draft"])
            hit = sum(1 for r in rows if r["remark"] and r["draft"])
            print(f"threshold {t:.1f}: recall {hit / said:.1%}, precision {hit / max(drafted, 1):.1%}, {drafted} drafts")


if __name__ == "__main__":
    main()
