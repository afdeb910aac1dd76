"""Measure the inference engine's recall on the blind Cavendish set.

Reads tests/data/recall_blind_hands_1_10.yaml (written from the book alone),
and for every entry copies the hand file to a temporary directory, adds the
statement under that trick's ``infer:`` list and runs
``python -m whistbook validate FILE``.  A diagnostic (error or warning) on the
statement's line means the engine could not derive it; none means derived.

Usage:  python benchmarks/recall_blind.py [--set PATH] [-v]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands" / "cavendish"
DEFAULT_SET = ROOT / "tests" / "data" / "recall_blind_hands_1_10.yaml"
DIAG = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<level>error|warning): (?P<msg>.*)$")


def hand_file(n: int) -> Path:
    found = sorted(HANDS.glob(f"{n:02d}-*.yaml"))
    if len(found) != 1:
        raise SystemExit(f"hand {n}: expected one file, found {found}")
    return found[0]


def certainty(statement: str) -> str:
    s = statement.strip().lower()
    s = re.sub(r"^as [aybz]:\s*", "", s)
    if s.startswith(("presumed:", "presumably:")):
        return "presumed"
    if s.startswith(("probably:", "probable:", "likely:")):
        return "probable"
    return "certain"


def statement_line(text: str, trick: int) -> int:
    """1-based line of the last item of the trick's infer list."""
    root = yaml.compose(text)
    tricks = next(v for k, v in root.value if k.value == "tricks")
    t = tricks.value[trick - 1]
    infer = next(v for k, v in t.value if k.value == "infer")
    return infer.value[-1].start_mark.line + 1


def run_validate(path: Path) -> tuple[list[dict], str]:
    proc = subprocess.run(
        [sys.executable, "-m", "whistbook", "validate", str(path)],
        cwd=ROOT, capture_output=True, text=True,
    )
    out = proc.stdout + proc.stderr
    diags = []
    for raw in out.splitlines():
        m = DIAG.match(raw.strip())
        if m:
            diags.append({**m.groupdict(), "line": int(m["line"])})
    return diags, out


def measure(entry: dict, tmp: Path, idx: int, statement: str | None = None) -> dict:
    src = hand_file(entry["hand"])
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    known = data["known_hand"]
    statement = statement or entry["statement"]
    if entry.get("viewer", known) != known:
        statement = f"as {entry['viewer']}: {statement}"
    tricks = data["tricks"]
    k = entry["trick"] - 1
    if k >= len(tricks):
        return {"status": "bad-trick", "msg": f"hand has only {len(tricks)} tricks"}
    t = tricks[k]
    if not isinstance(t, dict):          # bare string / list form
        t = {"cards": t}
    t = dict(t)
    t["infer"] = list(t.get("infer") or []) + [statement]
    tricks[k] = t
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=4096)
    path = tmp / f"e{idx:03d}-{src.name}"
    path.write_text(text, encoding="utf-8")
    line = statement_line(text, entry["trick"])
    diags, out = run_validate(path)
    mine = [d for d in diags if d["line"] == line]
    if not mine:
        return {"status": "derived", "msg": ""}
    level = "error" if any(d["level"] == "error" for d in mine) else "warning"
    return {"status": f"miss ({level})", "msg": " | ".join(d["msg"] for d in mine)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, default=DEFAULT_SET)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every entry")
    args = ap.parse_args()
    entries = yaml.safe_load(args.set.read_text(encoding="utf-8"))

    per_hand: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    per_cert: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses = []
    weaker: dict[str, int] = defaultdict(int)
    with tempfile.TemporaryDirectory(prefix="recall_blind_") as d:
        tmp = Path(d)
        for i, e in enumerate(entries):
            r = measure(e, tmp, i)
            ok = r["status"] == "derived"
            cert = certainty(e["statement"])
            for tally in (per_hand[e["hand"]], per_cert[cert]):
                tally[0] += ok
                tally[1] += 1
            if args.verbose:
                print(f"  [{r['status']:>15}] hand {e['hand']:>2} trick {e['trick']:>2} {e['statement']}")
            if not ok:
                # Secondary check (does not change the score): is a certain
                # statement the engine misses derived one layer down?
                if cert == "certain" and "presumed:" in r["msg"]:
                    r2 = measure(e, tmp, 1000 + i, "presumed: " + e["statement"])
                    r["weaker"] = "derived as presumed" if r2["status"] == "derived" else "not derived as presumed either"
                    weaker[r["weaker"]] += 1
                misses.append((i, e, r))

    total = [sum(v[0] for v in per_hand.values()), sum(v[1] for v in per_hand.values())]
    print("Blind recall, Cavendish Hands I-X")
    for h in sorted(per_hand):
        ok, n = per_hand[h]
        print(f"  hand {h:>2}: {ok}/{n}")
    for c in ("certain", "presumed", "probable"):
        if c in per_cert:
            ok, n = per_cert[c]
            print(f"  {c:>9}: {ok}/{n}")
    print(f"  total   : {total[0]}/{total[1]} ({100 * total[0] / max(total[1], 1):.0f}%)")
    for k, v in sorted(weaker.items()):
        print(f"  certain misses {k}: {v}")
    if misses:
        print(f"\nMisses ({len(misses)}):")
        for i, e, r in misses:
            print(f"  #{i:<3} hand {e['hand']:>2} trick {e['trick']:>2} [{r['status']}] {e['statement']}")
            print(f"        book: {e['book']}")
            print(f"        engine: {r['msg']}")
            if "weaker" in r:
                print(f"        retried as 'presumed: ...': {r['weaker']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
