"""The judge: single-dummy verdicts, the principle's choice, and their records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from whistbook.analysis import Cache
from whistbook.cards import Card
from whistbook.cli import main
from whistbook.corpus import check_file
from whistbook.judgement import Budget, judge, judge_decision
from whistbook.judgement.position import Table, choices, decisions, view_at
from whistbook.judgement.principle import principle
from whistbook.judgement.single_dummy import ChoiceValue, Evaluation, evaluate
from whistbook.judgement.verdict import TRICK_STEPS, losses, settled
from whistbook.seats import Seat

ROOT = Path(__file__).resolve().parent.parent
HAND_I = ROOT / "hands/cavendish/01-trump-lead-on-established-suit.yaml"
HAND_III = ROOT / "hands/cavendish/03-rule-of-returned-leads.yaml"
SMALL = Budget(8, 8, 8, early_most=8)
TINY = Budget(2, 2, 2, early_most=2)


def C(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def table(path: Path = HAND_I) -> Table:
    return Table.of(check_file(path))


def decision(tb: Table, trick: int, seat: Seat):
    return next(d for d in decisions(tb) if d.trick == trick and d.seat == seat)


# --- the decisions and their choices --------------------------------------------------------


def test_cards_equal_in_sequence_are_one_choice():
    legal = C("QS JS 9S 5S")
    assert choices(legal, set()) == [C("QS JS"), C("9S"), C("5S")]
    # the ten gone: the queen, knave and nine are equal; the eight still out splits off the five
    assert choices(legal, set(C("TS"))) == [C("QS JS 9S"), C("5S")]
    assert choices(C("AH 2C"), set()) == [C("AH"), C("2C")]


def test_every_card_played_is_a_decision_with_its_legal_cards():
    tb = table()
    ds = decisions(tb)
    assert len(ds) == 4 * len(tb.tricks)
    first = ds[0]
    assert (first.trick, first.index, first.seat, first.played) == (1, 0, Seat.A, Card.parse("2D"))
    assert len(first.legal) == 13
    second = ds[1]  # Y must follow to the diamond lead
    assert all(c.suit == Card.parse("2D").suit for c in second.legal) and second.played in second.legal


# --- the principle ---------------------------------------------------------------------------


def test_the_principle_leads_the_fourth_best_of_the_strongest_suit():
    tb = table()
    d = decision(tb, 1, Seat.A)  # A: ♠ Q T 5 3  ♥ A  ♣ A 7 6 3  ♦ K J 9 2
    p = principle(tb, d, view_at(tb, d))
    assert p.rule == "lead_fourth_best" and d.played in p.cards
    assert set(p.cards) == set(C("2D 3C"))  # two four-card plain suits: the fourth-best of each


def test_the_principle_follows_second_hand_low_and_third_hand_high():
    tb = table()
    d2 = decision(tb, 2, Seat.A)  # trick 2: B leads a club, Y plays second... A plays fourth? find A's role
    p = principle(tb, d2, view_at(tb, d2))
    assert not p.silent and p.allows(d2.played, choices(d2.legal, set()))
    y = decision(tb, 1, Seat.Y)  # Y second hand to A's diamond
    py = principle(tb, y, view_at(tb, y))
    assert py.rule == "second_hand_low" and py.cards == (min(y.legal, key=lambda c: c.rank),)
    b = decision(tb, 1, Seat.B)  # B third hand
    pb = principle(tb, b, view_at(tb, b))
    assert pb.rule == "third_hand_highest" and max(b.legal, key=lambda c: c.rank) in pb.cards


def test_a_forced_card_is_its_own_principle():
    tb = table()
    d = next(d for d in decisions(tb) if len(d.legal) == 1)
    assert principle(tb, d, view_at(tb, d)).cards == d.legal


# --- verdicts --------------------------------------------------------------------------------


def _exact(values, results=None) -> Evaluation:
    rows = tuple((round(v * 4),) * 4 for v in values)  # four deals, the same tricks in each
    choices_ = tuple(ChoiceValue((Card(i % 4, 2 + i),), v, *(results[i] if results else (None, None)))
                     for i, v in enumerate(values))
    res = tuple((1,) * 4 for _ in values) if results else ()
    return Evaluation(1, 0, Seat.A, choices_, 4, True, "presumed", rows, res)


def test_tiers_follow_the_expected_tricks_lost():
    ev = _exact([5.0, 4.9, 4.6, 4.3, 3.5])
    tiers = [l.tier for l in losses(ev)]
    assert tiers == ["good", "good", "inaccuracy", "mistake", "blunder"]
    assert [round(l.tricks, 2) for l in losses(ev)] == [0.0, 0.1, 0.4, 0.7, 1.5]
    assert TRICK_STEPS == (0.25, 0.5, 1.0)


def test_a_loss_within_its_sampling_error_is_not_marked():
    # 16 deals where the card is a trick worse in 7 and as good in 9: 0.44 lost, but noisy
    ones = (1,) * 16
    mixed = (0,) * 7 + (1,) * 9
    noisy = Evaluation(1, 0, Seat.A, (ChoiceValue(C("AS"), 1.0), ChoiceValue(C("2S"), 9 / 16)), 16, False,
                       "presumed", (ones, mixed))
    l = losses(noisy)[1]
    assert 0.4 < l.tricks < 0.5 and l.stderr > 0.1
    assert l.tier == "good"  # 0.44 - 1.5 x 0.13 is under the first step
    assert not settled(noisy, Card.parse("2S"))


def test_where_the_score_matters_the_result_decides_and_tricks_that_cannot_count_do_not():
    # the first card makes the game sure with fewer tricks; the second takes more tricks but risks it
    ev = _exact([7.0, 8.5], results=[(0.95, 0.0), (0.60, 0.0)])
    safe, greedy = losses(ev)
    assert safe.tier == "good" and safe.tricks == 0.0
    assert greedy.tier == "blunder" and greedy.result == pytest.approx(0.35)


# --- evaluation ------------------------------------------------------------------------------


def test_a_late_decision_is_weighed_over_every_deal_exactly():
    from whistbook.judgement.position import knowledge_at
    from whistbook.judgement.sampling import DealSpace

    tb = table(HAND_III)
    # a decision late in the hand, with a real choice, where few deals are left to imagine
    d = next(d for d in reversed(decisions(tb))
             if len(choices(d.legal, set())) > 1 and DealSpace(knowledge_at(tb, d)).total <= 64)
    ev = evaluate(tb, d, budget=Budget(8, 64, 8))
    assert ev.exact and ev.samples == DealSpace(knowledge_at(tb, d)).total
    assert all(ev.paired_stderr(0, i) == 0.0 for i in range(len(ev.choices)))
    # drawn instead (a budget smaller than the space), the same decision is not exact
    assert not evaluate(tb, d, budget=Budget(1, 1, 1, early_most=1)).exact or ev.samples == 1


def test_the_same_seed_gives_the_same_verdicts():
    tb = table()
    d = decision(tb, 4, Seat.A)
    a = judge_decision(tb, d, budget=SMALL)
    b = judge_decision(tb, d, budget=SMALL)
    assert a == b and a.samples == 8


def test_when_the_presumptions_leave_no_deal_what_is_certain_is_used_and_said():
    tb = table(ROOT / "hands/cavendish/31-declining-to-draw-losing-trump.yaml")
    d = next(d for d in decisions(tb) if (d.trick, d.index) == (5, 1))
    from whistbook.judgement.position import knowledge_at
    from whistbook.judgement.sampling import DealSpace, NoDeal

    with pytest.raises(NoDeal):
        DealSpace(knowledge_at(tb, d, "presumed"))
    ev = evaluate(tb, d, budget=SMALL)
    assert ev.basis == "certain" and ev.samples == 8


# --- the records, stored and shown ----------------------------------------------------------


def test_verdicts_are_kept_in_the_cache_and_a_damaged_entry_counts_as_missing(tmp_path: Path):
    ch = check_file(HAND_III)
    cache = Cache(tmp_path)
    first = judge(ch, seats=[Seat.A], budget=TINY, cache=cache)
    entries = list((tmp_path / "judge").glob("*.json"))
    assert len(entries) == 1
    again = judge(ch, seats=[Seat.A], budget=TINY, cache=cache, progress=lambda *_: pytest.fail("judged again"))
    assert again == first
    data = json.loads(entries[0].read_text(encoding="utf-8"))
    data["cards"][0]["o"][0][7] = "excellent"  # no such tier
    entries[0].write_text(json.dumps(data), encoding="utf-8")
    made = []
    third = judge(ch, seats=[Seat.A], budget=TINY, cache=cache, progress=lambda d, t: made.append(d))
    assert made and third == first
    entries[0].write_text("{not json", encoding="utf-8")
    assert judge(ch, seats=[Seat.A], budget=TINY, cache=cache) == first


def test_analyse_json_carries_the_verdict_fields_on_every_played_card(capsys, tmp_path: Path):
    assert main(["analyse", str(HAND_III), "--format", "json", "--samples", "2", "--cache-dir", str(tmp_path),
                 "-q"]) == 0
    data = json.loads(capsys.readouterr().out)
    cards = [c for t in data["tricks"] for c in t["cards"]]
    assert len(cards) == 4 * len(data["tricks"])
    for c in cards:
        assert c["verdict"] in ("good", "inaccuracy", "mistake", "blunder")
        assert set(c["principle"]) in ({"cards", "rule"}, {"cards", "rule", "rules"})
        assert len(c["principle"].get("rules", c["principle"]["cards"])) == len(c["principle"]["cards"])
        assert c["follows_principle"] in (True, False, None)
        sd = c["single_dummy"]
        if sd is not None:  # None when every legal card was one choice
            assert {"expected", "best", "loss", "samples", "stderr"} <= sd.keys()
            assert sd["loss"] == pytest.approx(max(0.0, sd["best"] - sd["expected"]), abs=0.002)
            assert 1 <= sd["samples"] <= 2 or sd["exact"]
    assert any(c["single_dummy"] for c in cards)


def test_analyse_says_the_verdicts_in_words(capsys):
    assert main(["analyse", str(HAND_III), "--seat", "A", "--samples", "4", "--no-cache", "-q"]) == 0
    out = capsys.readouterr().out
    assert "On what A knew:" in out and "Single-dummy verdicts" in out
    assert "On what Y knew" not in out
    assert main(["analyse", str(HAND_III), "--seat", "Q", "--no-cache"]) == 2
    assert main(["analyse", str(HAND_III), "--samples", "0", "--no-cache"]) == 2


def test_the_function_is_not_hidden_by_a_module_of_its_name():
    import whistbook
    import whistbook.judgement  # noqa: F401 - importing the package must not replace the function

    assert callable(whistbook.judge) and whistbook.judge.__module__ == "whistbook"


def test_a_card_on_the_trick_still_divides_two_cards():
    """With the ten of clubs on the trick, Z's ace and knave both win it (the king and queen
    are gone) and are one choice; the nine does not, and is another (Hand XXXIII, trick 6)."""
    from whistbook.judgement.position import choices_at

    tb = table(ROOT / "hands/cavendish/33-throwing-ace-to-place-lead.yaml")
    d = decision(tb, 6, Seat.Z)
    assert Card.parse("TC") in d.trick_so_far
    assert choices_at(tb, d) == [C("AC JC"), C("9C")]
    # and a king and knave with the queen led are two choices, though nothing lies between them in the hand
    assert choices(C("KS JS"), set()) == [C("KS"), C("JS")]


def test_a_card_the_laws_made_him_play_is_not_judged_or_asked():
    ch = check_file(ROOT / "hands/laws/06-concession-case-five.yaml")
    tb = Table.of(ch)
    assert (10, Card.parse("JD")) in tb.forced
    j = judge_decision(tb, decision(tb, 10, Seat.A), budget=SMALL)
    assert j.by_law and j.forced and j.verdict == "good" and j.to_json()["laws"] == "called"
    from whistbook.quiz import play_quizzes

    quizzes = play_quizzes(ch, Seat.A, None, range(1, 14))
    assert 10 not in {q.trick for q in quizzes}


def test_samples_never_pass_the_budget():
    tb = table(HAND_III)
    d = next(d for d in decisions(tb) if len(choices(d.legal, set())) > 3)
    ev = evaluate(tb, d, budget=Budget.up_to(20))
    assert ev.samples <= 20


def test_another_players_revoke_is_known_only_once_it_shows():
    from whistbook.judgement.position import _revokes_known

    tb = table(ROOT / "hands/laws/01-revoke-three-tricks.yaml")
    (t, card), = tb.revokes
    revoker = next(p.seat for p in tb.tricks[t - 1].plays if p.card == card)
    led = tb.tricks[t - 1].plays[0].card.suit
    shows = next((k + 1 for k in range(t, len(tb.tricks)) if tb.tricks[k].card_of(revoker).suit == led), None)
    other = revoker.partner
    assert _revokes_known(tb, tb.tricks[:t], revoker) == {(t, card)}  # he knows at once
    if shows is None:  # the revoker never plays the suit again in the written tricks: nobody else learns it
        assert _revokes_known(tb, tb.tricks, other) == frozenset()
    else:
        assert _revokes_known(tb, tb.tricks[:shows - 1], other) == frozenset()
        assert _revokes_known(tb, tb.tricks[:shows], other) == {(t, card)}
