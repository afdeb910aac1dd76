"""Soundness: no certain conclusion ever contradicts the deal.

* every hand of the corpus, from every seat;
* random deals played by four conventional players (whistbook.inference.player),
  where the presumed layer must be right too and nobody departs from rule;
* random deals played by random legal cards, where only the laws hold.

WHISTBOOK_SOUNDNESS_DEALS scales the random runs (default 500 conventional
deals x 4 seats = 2000 explanations, and a fifth as many random deals).
"""

import os
import random

from whistbook import starter
from pathlib import Path

import pytest

from whistbook.corpus import check_file
from whistbook.inference import explain, explain_play
from whistbook.inference.player import play_deal, random_play
from whistbook.play import replay
from whistbook.seats import SEATS, Seat

from _inference_util import audit, hands_dir

DEALS = int(os.environ.get("WHISTBOOK_SOUNDNESS_DEALS", "500"))


def corpus_files() -> list[Path]:
    return sorted(hands_dir().glob("*.yaml"))


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name[:2])
def test_corpus_certain_layer_is_never_wrong(path):
    checked = check_file(path, solver=False)
    if checked.replay is None:
        pytest.skip("the hand file does not replay")
    for seat in SEATS:
        ex = explain(checked, seat)
        a = audit(ex, checked.replay)
        assert a["certain_wrong"] == 0 and a["knowledge_wrong"]["certain"] == 0, (seat, a)


def random_deal(seed):
    rng = random.Random(seed)
    deal = starter.random_deal(rng)
    turn_up = deal[Seat.Z][rng.randrange(13)]
    return deal, turn_up


@pytest.mark.slow
def test_conventional_play_gives_no_wrong_presumption():
    bad = []
    for seed in range(DEALS):
        deal, turn_up = random_deal(seed)
        tricks = play_deal(deal, turn_up.suit, Seat.A, seed)
        rp = replay(deal, turn_up.suit, Seat.A, tricks)
        for seat in SEATS:
            ex = explain_play(deal, turn_up.suit, Seat.A, tricks, seat, turn_up=turn_up, dealer=Seat.Z)
            a = audit(ex, rp)
            if a["certain_wrong"] or a["knowledge_wrong"]["certain"]:
                bad.append(("certain", seed, seat, a))
            if a["presumed_wrong"] or a["knowledge_wrong"]["presumed"] or ex.departures:
                bad.append(("presumed", seed, seat, a, [(d.trick, str(d.seat), d.rule) for d in ex.departures]))
    assert not bad, bad[:3]


@pytest.mark.slow
def test_random_play_keeps_the_laws():
    bad = []
    for seed in range(max(1, DEALS // 5)):
        deal, turn_up = random_deal(10_000 + seed)
        tricks = random_play(deal, turn_up.suit, Seat.A, seed)
        rp = replay(deal, turn_up.suit, Seat.A, tricks)
        for seat in (Seat.A, Seat.B) if seed % 2 else (Seat.Y, Seat.Z):
            ex = explain_play(deal, turn_up.suit, Seat.A, tricks, seat, turn_up=turn_up, dealer=Seat.Z)
            a = audit(ex, rp)
            if a["certain_wrong"] or a["knowledge_wrong"]["certain"]:
                bad.append((seed, seat, a))
    assert not bad, bad[:3]
