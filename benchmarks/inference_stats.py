"""Numbers for the inference engine: soundness and wrong presumptions.

    python benchmarks/inference_stats.py [FOLDER] [--deals N] [--by-rule] [--calibrate]

On the corpus (every hand, every seat): how many certain conclusions the
deal contradicts (must be 0), how many presumed and probable conclusions
were drawn and what share the deal shows to be wrong, and how many
departures from rule were recorded. Then N random deals played by the
conventional test player and N by random legal cards. With --by-rule, the
presumed conclusions from the known hand are also broken down by the rule
credited and by whether they came from counting over other presumptions.
With --calibrate, every presumption the engine makes on the corpus (all
seats; each one a predicate on a player's dealt holding of a suit) is
checked against the deal, per rule and per layer it ends in: "presumed",
"probable", or "probable (departed)" for a presumption held as probable
because its player was later found departing from rule. This is the
measure behind the choice of layer for each rule.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from _inference_util import _true, audit  # noqa: E402

from whistbook.cards import DECK  # noqa: E402
from whistbook.corpus import check_file  # noqa: E402
from whistbook.inference import explain, explain_play  # noqa: E402
from whistbook.inference.player import play_deal, random_play  # noqa: E402
from whistbook.play import replay  # noqa: E402
from whistbook.seats import SEATS, Seat  # noqa: E402


def add(tot, a, ex):
    for k in ("certain_wrong", "presumed", "presumed_wrong", "probable", "probable_wrong"):
        tot[k] = tot.get(k, 0) + a[k]
    tot["knowledge_certain_wrong"] = tot.get("knowledge_certain_wrong", 0) + a["knowledge_wrong"]["certain"]
    tot["departures"] = tot.get("departures", 0) + len(ex.departures)
    tot["explanations"] = tot.get("explanations", 0) + 1


def show(name, tot):
    p = tot.get("presumed", 0)
    q = tot.get("probable", 0)
    print(f"{name}: {tot.get('explanations', 0)} explanations; certain wrong {tot.get('certain_wrong', 0)} "
          f"(knowledge {tot.get('knowledge_certain_wrong', 0)}); presumed {p}, wrong {tot.get('presumed_wrong', 0)} "
          f"({100 * tot.get('presumed_wrong', 0) / max(p, 1):.1f}%); probable {q}, wrong "
          f"{tot.get('probable_wrong', 0)} ({100 * tot.get('probable_wrong', 0) / max(q, 1):.1f}%); "
          f"departures {tot.get('departures', 0)}")


def by_rule(folder: str) -> None:
    """Wrong presumed conclusions from the known hand, per rule credited."""
    made: dict[str, int] = {}
    wrong: dict[str, int] = {}
    for f in sorted(Path(folder).glob("*.yaml")):
        ch = check_file(f, solver=False)
        if ch.replay is None:
            continue
        rp = ch.replay
        deal = {int(s): {int(c) for c in rp.hands[s]} for s in range(4)}
        owner = {c: s for s, cs in deal.items() for c in cs}
        for t in explain(ch).tricks:
            for i in t.inferences:
                ok = _true(i, deal, owner, rp.tricks, t.number) if i.certainty == "presumed" else None
                if ok is None:
                    continue
                for key in (i.rule, "  (counting over presumptions)" if i.rule == "count_elimination"
                            else "  (a convention read from a card)"):
                    made[key] = made.get(key, 0) + 1
                    wrong[key] = wrong.get(key, 0) + (not ok)
    print("presumed conclusions from the known hand, by rule credited:")
    for key in sorted(made, key=lambda k: (-made[k], k)):
        print(f"  {key:40} {made[key]:5} wrong {wrong[key]:3} ({100 * wrong[key] / made[key]:.1f}%)")


def calibrate(folder: str) -> None:
    """Each presumption against the deal, per rule and final layer (all seats)."""
    from whistbook.inference.engine import Engine

    made: dict[tuple[str, str], list[int]] = {}
    for f in sorted(Path(folder).glob("*.yaml")):
        ch = check_file(f, solver=False)
        if ch.replay is None:
            continue
        rp, hf = ch.replay, ch.hand
        hands = {s: rp.hands[s] for s in SEATS}
        for seat in SEATS:
            eng = Engine(hands, rp.trumps, rp.tricks, seat, hf.turn_up.card if hf.turn_up else None,
                         hf.dealer, len(rp.hands[0]))
            eng.run()
            for a in eng.assumptions:
                held = sum(1 << (int(c) % 13) for c in hands[SEATS[a.seat]] if int(c) // 13 == a.suit)
                layer = "probable (departed)" if a.demoted else ("presumed", "probable")[a.layer - 1]
                row = made.setdefault((layer, a.rule), [0, 0])
                row[0] += 1
                row[1] += not a.pred(held)
    print("every presumption on the corpus (all seats) against the deal, by final layer and rule:")
    for (layer, rule), (n, w) in sorted(made.items(), key=lambda kv: (kv[0][0], -kv[1][0])):
        print(f"  {layer:20} {rule:36} {n:5} wrong {w:4} ({100 * w / n:.1f}%)")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?", default=str(ROOT / "hands" / "cavendish"))
    ap.add_argument("--deals", type=int, default=250)
    ap.add_argument("--by-rule", action="store_true", help="break the known hand's presumed conclusions down by rule")
    ap.add_argument("--calibrate", action="store_true",
                    help="check every presumption (all seats) against the deal, per rule and layer")
    args = ap.parse_args()
    if args.by_rule:
        by_rule(args.folder)
    if args.calibrate:
        calibrate(args.folder)
    for label, seats in (("corpus, known hand", None), ("corpus, all seats", SEATS)):
        tot: dict = {}
        for f in sorted(Path(args.folder).glob("*.yaml")):
            ch = check_file(f, solver=False)
            if ch.replay is None:
                continue
            for s in seats or [None]:
                ex = explain(ch, s)
                add(tot, audit(ex, ch.replay), ex)
        show(label, tot)
    for label, player, base in (("conventional player", play_deal, 0), ("random legal play", random_play, 10_000)):
        tot = {}
        for seed in range(args.deals):
            rng = random.Random(base + seed)
            deck = list(DECK)
            rng.shuffle(deck)
            deal = {s: deck[i * 13:(i + 1) * 13] for i, s in enumerate(SEATS)}
            turn_up = deal[Seat.Z][rng.randrange(13)]
            tricks = player(deal, turn_up.suit, Seat.A, seed)
            rp = replay(deal, turn_up.suit, Seat.A, tricks)
            for s in SEATS:
                ex = explain_play(deal, turn_up.suit, Seat.A, tricks, s, turn_up=turn_up, dealer=Seat.Z)
                add(tot, audit(ex, rp), ex)
        show(label, tot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
