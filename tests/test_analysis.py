"""Double-dummy analysis: verdicts on small endings worked out by hand, the
cache, the JSON contract, and Hand I."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whistbook import solver
from whistbook.analysis import DOUBLE_DUMMY_NOTE, Analysis, Cache, CardVerdict, analyse, cache_key, summary
from whistbook.analysisview import render_analysis_text as render_text
from whistbook.analysisview import render_summary_text
from whistbook.cards import DECK, Card, Suit, cards
from whistbook.laws import CheckedHand
from whistbook.cli import main
from whistbook.corpus import check_file
from whistbook.errors import AnalysisError
from whistbook.play import legal_plays, replay
from whistbook.seats import SEATS, Seat, Side

ROOT = Path(__file__).resolve().parent.parent
HAND_I = next((ROOT / "hands" / "cavendish").glob("01-*.yaml"))


def ending(hands: dict[Seat, str], trumps: Suit | None, leader: Seat, play: str) -> CheckedHand:
    """A checked position built straight from a replay (no hand file)."""
    cs = cards(play)
    tricks = [cs[i:i + 4] for i in range(0, len(cs), 4)]
    rp = replay({s: cards(h) for s, h in hands.items()}, trumps, leader, tricks)
    return CheckedHand(None, replay=rp)  # type: ignore[arg-type]


def rotate(hands: dict[Seat, str], k: int) -> dict[Seat, str]:
    return {s.next(k): h for s, h in hands.items()}


# A leads a small spade towards B's ace-queen; Y holds the king behind them.
# After Y plays low, B's queen wins and the ace takes the next trick (2 tricks);
# B's ace instead sets up Y's king (1 trick).
FINESSE = {Seat.A: "2S 3S", Seat.Y: "KS 4S", Seat.B: "AS QS", Seat.Z: "5D 6D"}
FINESSE_PLAY = "2S 4S AS 5D  QS 6D 3S KS"


@pytest.mark.parametrize("k", range(4))
def test_costly_card_is_marked_with_the_better_card(k: int) -> None:
    # Turning the table round k places checks every seat's mapping to the solver.
    a = analyse(ending(rotate(FINESSE, k), Suit.HEARTS, Seat.A.next(k), FINESSE_PLAY))
    lead, second, third, fourth = a.tricks[0].cards
    assert a.start == {Seat.A.next(k).side: 2, Seat.A.next(k).side.other: 0}
    assert (lead.cost, second.cost, fourth.cost) == (0, 0, 0)
    assert third.seat == Seat.B.next(k)
    assert third.card == Card.parse("AS")
    assert (third.tricks_if_played, third.best_tricks, third.cost) == (1, 2, 1)
    assert third.best_cards == (Card.parse("QS"),)
    assert dict(third.options) == {Card.parse("QS"): 2, Card.parse("AS"): 1}
    assert [s for s, n in a.cost_by_seat().items() if n] == [Seat.B.next(k)]
    assert not a.perfect


def test_trumps_reach_the_solver() -> None:
    # Hearts are trumps and A is void in spades: ruffing Y's ace wins both
    # tricks (B's five of diamonds is then good); discarding loses both but one.
    hands = {Seat.Y: "AS KS", Seat.B: "4D 5D", Seat.Z: "QS JS", Seat.A: "2H 3D"}
    a = analyse(ending(hands, Suit.HEARTS, Seat.Y, "AS 4D QS 3D  KS 5D JS 2H"))
    discard = a.tricks[0].cards[3]
    assert (discard.seat, discard.card) == (Seat.A, Card.parse("3D"))
    assert (discard.tricks_if_played, discard.best_tricks) == (1, 2)
    assert discard.best_cards == (Card.parse("2H"),)
    line = next(x for x in render_text(a).splitlines() if "3♦" in x and x.startswith("  A"))
    assert line.split() == ["A", "3♦", "1", "of", "2", "✗", "costs", "1", "(best:", "2♥,", "2", "of", "2)"]
    # With no trumps the two cards are both discards, and the same.
    a_nt = analyse(ending(hands, None, Seat.Y, "AS 4D QS 3D  KS 5D JS 2H"))
    assert a_nt.tricks[0].cards[3].cost == 0


def test_forced_and_equal_cards() -> None:
    a = analyse(ending(FINESSE, Suit.HEARTS, Seat.A, FINESSE_PLAY))
    lead = a.tricks[0].cards[0]
    assert lead.best_cards == (Card.parse("2S"), Card.parse("3S"))  # touching cards, both best
    assert a.tricks[1].cards[0].forced and a.tricks[1].cards[0].cost == 0
    assert CardVerdict(Seat.A, Card.parse("2S"), 3, 5, ()).cost == 2


def test_unshown_tricks_are_analysed_and_labelled() -> None:
    cs = cards(FINESSE_PLAY)
    rp = replay({s: cards(h) for s, h in FINESSE.items()}, Suit.HEARTS, Seat.A, [cs[:4], cs[4:]], [True, False])
    a = analyse(CheckedHand(None, replay=rp))  # type: ignore[arg-type]
    assert [t.shown for t in a.tricks] == [True, False]
    assert [t["shown"] for t in a.to_json()["tricks"]] == [True, False]
    text = render_text(a)
    assert text.index("Trick 1:") < text.index("does not show") < text.index("Trick 2:")


# --- the cache ---------------------------------------------------------------------------


@pytest.fixture
def solver_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts positions sent to the solver, however they are sent."""
    calls: list[int] = []
    many, one = solver.card_options_many, solver.card_options

    def count_many(positions):
        calls.append(len(positions))
        return many(positions)

    def count_one(*args, **kw):
        calls.append(1)
        return one(*args, **kw)

    monkeypatch.setattr(solver, "card_options_many", count_many)
    monkeypatch.setattr(solver, "card_options", count_one)
    return calls


def test_cache_round_trip_solves_nothing_the_second_time(tmp_path: Path, solver_calls: list[int]) -> None:
    checked = check_file(HAND_I, solver=False)
    first = analyse(checked, Cache(tmp_path))
    assert solver_calls and sum(solver_calls) == 41  # 40 cards played and the claim
    solver_calls.clear()
    second = analyse(check_file(HAND_I, solver=False), Cache(tmp_path))
    assert solver_calls == []
    assert second.to_json() == first.to_json()
    assert [p.name for p in (tmp_path / "analysis").iterdir()] == [f"{cache_key(checked.replay)}.json"]


def test_a_changed_play_is_a_different_key() -> None:
    a = ending(FINESSE, Suit.HEARTS, Seat.A, FINESSE_PLAY).replay
    b = ending(FINESSE, Suit.HEARTS, Seat.A, "3S 4S QS 5D  AS 6D 2S KS").replay
    c = ending(FINESSE, Suit.CLUBS, Seat.A, FINESSE_PLAY).replay
    assert len({cache_key(a), cache_key(b), cache_key(c)}) == 3


@pytest.mark.parametrize("damage", [
    "",                                             # empty, as after a crash mid-write without os.replace
    '{"version": 1, "key": "',                      # truncated
    "\x00\xff garbage",                             # not text at all
    '{"version": 1}',                               # valid JSON, wrong shape
    None,                                           # right shape, a card changed (see below)
])
def test_damaged_cache_is_solved_again_and_rewritten(tmp_path: Path, solver_calls: list[int], damage: str | None) -> None:
    checked = ending(FINESSE, Suit.HEARTS, Seat.A, FINESSE_PLAY)
    cache = Cache(tmp_path)
    good = analyse(checked, cache)
    f = tmp_path / "analysis" / f"{cache_key(checked.replay)}.json"
    if damage is None:
        damage = f.read_text().replace('"QS":2', '"KS":2')
    f.write_bytes(damage.encode("utf-8", "surrogateescape") if isinstance(damage, str) else damage)
    solver_calls.clear()
    again = analyse(checked, cache)
    assert again.to_json() == good.to_json()
    assert solver_calls == [len(FINESSE_PLAY.split())]
    assert json.loads(f.read_text())["positions"]  # rewritten whole


def test_cache_write_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = Cache(tmp_path)
    cache.put("k", {"v": 1})

    def crash(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", crash)
    cache.put("k", {"v": 2})  # fails quietly: the old entry survives, no temp file is left
    assert cache.get("k") == {"v": 1}
    assert sorted(p.name for p in (tmp_path / "analysis").iterdir()) == ["k.json"]


def test_unwritable_cache_is_not_fatal(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    a = analyse(ending(FINESSE, Suit.HEARTS, Seat.A, FINESSE_PLAY), Cache(blocker))
    assert a.start[Side.AB] == 2


# --- JSON and text -----------------------------------------------------------------------


def test_json_shape() -> None:
    data = json.loads(json.dumps(analyse(check_file(HAND_I, solver=False)).to_json()))
    assert data["method"] == "double-dummy" and data["note"] == DOUBLE_DUMMY_NOTE
    assert set(data["start"]) == {"AB", "YZ"} and sum(data["start"].values()) == 13
    assert [t["number"] for t in data["tricks"]] == list(range(1, 11))
    for t in data["tricks"]:
        assert len(t["cards"]) == 4
        for c in t["cards"]:
            assert {"seat", "card", "tricks_if_played", "best_tricks", "best_cards"} <= set(c)
            assert c["seat"] in "AYBZ" and isinstance(Card.parse(c["card"]), Card)
            assert 0 <= c["tricks_if_played"] <= c["best_tricks"] <= t["tricks_left"]
            assert c["card"] in c["options"] and c["best_cards"]
            assert all(c["options"][b] == c["best_tricks"] for b in c["best_cards"])
            assert c["cost"] == c["best_tricks"] - c["tricks_if_played"]
    assert data["claim"] == {"tricks": 3, "stated": {"AB": 3, "YZ": 0}, "double_dummy": {"AB": 3, "YZ": 0}}


def test_text_says_double_dummy_and_marks_costly_cards() -> None:
    a = analyse(check_file(HAND_I, solver=False))
    text = render_text(a)
    assert "double-dummy" in text.lower() and "all four hands are seen" in text
    costly = [line for line in text.splitlines() if line.startswith("  ") and "✗" in line]
    assert len(costly) == len(a.costly) > 0
    ascii_text = render_text(a, ascii_only=True)
    assert ascii_text.isascii() and " x costs " in ascii_text


# --- Hand I ------------------------------------------------------------------------------


def test_hand_one() -> None:
    checked = check_file(HAND_I)
    a = analyse(checked)
    assert sum(a.start.values()) == 13
    assert len(a.tricks) == 10 and all(len(t.cards) == 4 for t in a.tricks)
    assert a.claim_dd == checked.claim_dd
    assert a.taken == checked.final_tricks
    # Each card moves the double-dummy count by exactly its cost, for or
    # against AB, so the costs account for the whole gap between best play
    # at the start and the tricks taken.
    costs = a.cost_by_seat()
    ab_loss = costs[Seat.A] + costs[Seat.B] - costs[Seat.Y] - costs[Seat.Z]
    claim_gap = a.claim_dd[Side.AB] - a.claim[Side.AB]
    assert a.taken[Side.AB] == a.start[Side.AB] - ab_loss - claim_gap
    report = summary([a])
    assert report.hands[0].start == a.start and report.hands[0].taken == a.taken
    assert "Hand I" in render_summary_text(report)


def test_problem_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "p.yaml"
    f.write_text("kind: problem\ntitle: A finesse\ntrumps: H\nleader: A\n"
                 "deal:\n  A: ♠ 3 2\n  Y: ♠ K 4\n  B: ♠ A Q\n  Z: ♦ 6 5\n"
                 "task: {side: AB, tricks: all}\n", encoding="utf-8")
    with pytest.raises(AnalysisError, match="problem"):
        analyse(check_file(f))


# --- the chain of verdicts on random endings ---------------------------------------------


def _chain_holds(a: Analysis, checked: CheckedHand) -> None:
    """What a card is worth equals what the next position is worth to the
    next player, seen from the other side (plus the trick, when it ends)."""
    flat = [(t, v) for t in a.tricks for v in t.cards]
    rp = checked.replay
    for i, (t, v) in enumerate(flat):
        last_of_trick = v is t.cards[-1]
        won = 1 if last_of_trick and t.winner.side == v.seat.side else 0
        left_after = t.tricks_left - 1 if last_of_trick else t.tricks_left
        if i + 1 < len(flat):
            nt, nv = flat[i + 1]
            later = nv.best_tricks if nv.seat.side == v.seat.side else left_after - nv.best_tricks
        else:
            later = 0
        assert v.tricks_if_played == won + later, (t.number, v)
    for t, trick in zip(a.tricks, rp.tricks):
        assert [v.card for v in t.cards] == list(trick.cards)


def _brute(hands: dict[Seat, frozenset[Card]], trumps: Suit | None, leader: Seat, so_far: tuple[Card, ...]) -> dict[Card, int]:
    """Every legal card's worth to the side to play, by trying every line;
    ``hands`` no longer hold the cards of ``so_far``."""
    from whistbook.play import winner_of

    seat = leader.next(len(so_far))
    left = len(hands[seat])  # tricks to play, this one included
    out = {}
    for c in legal_plays(hands[seat], so_far[0].suit if so_far else None):
        after = dict(hands)
        after[seat] = hands[seat] - {c}
        trick = (*so_far, c)
        if len(trick) < 4:
            out[c] = left - max(_brute(after, trumps, leader, trick).values())
            continue
        win = SEATS[winner_of(trick, int(leader), None if trumps is None else int(trumps))]
        rest = max(_brute(after, trumps, win, ()).values()) if left > 1 else 0
        mine = rest if win.side == seat.side else left - 1 - rest
        out[c] = (win.side == seat.side) + mine
    return out


def _random_ending(rng: random.Random, size: int, played: int, trumps: Suit | None
                   ) -> tuple[dict[Seat, list[Card]], Seat, CheckedHand]:
    """A random deal of ``size`` cards each and ``played`` tricks of it played at random."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {s: deck[i * size:(i + 1) * size] for i, s in enumerate(SEATS)}
    leader = rng.choice(SEATS)
    held = {s: list(h) for s, h in hands.items()}
    tricks, lead = [], leader
    for _ in range(played):
        trick: list[Card] = []
        for s in lead.iter_from():
            c = rng.choice(legal_plays(held[s], trick[0].suit if trick else None))
            held[s].remove(c)
            trick.append(c)
        tricks.append(trick)
        lead = replay(hands, trumps, leader, tricks).next_leader
    return hands, leader, CheckedHand(None, replay=replay(hands, trumps, leader, tricks))  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 5), trumps=st.sampled_from([*Suit, None]))
def test_verdicts_chain_on_random_endings(seed: int, size: int, trumps: Suit | None) -> None:
    rng = random.Random(seed)
    hands, leader, checked = _random_ending(rng, size, size, trumps)
    a = analyse(checked)
    assert sum(a.start.values()) == size
    _chain_holds(a, checked)
    if size <= 3:  # small enough to try every line by hand
        held = {s: frozenset(h) for s, h in hands.items()}
        for t, trick in zip(a.tricks, checked.replay.tricks):
            for k, v in enumerate(t.cards):
                before = {s: held[s] - set(trick.cards[:k]) for s in SEATS}
                assert dict(v.options) == _brute(before, trumps, trick.leader, trick.cards[:k])
            held = {s: held[s] - set(trick.cards) for s in SEATS}


def _same_as_shown(full: Analysis, shown: Analysis, seats: set[Seat]) -> None:
    """A lesson's analysis against the full one: every card's worth and cost the same,
    every option the same where the lesson asked for them or the card cost tricks."""
    assert (shown.start, shown.claim_dd) == (full.start, full.claim_dd)
    for (n, a), (m, b) in zip(full.verdicts(), shown.verdicts(), strict=True):
        assert (n, a.seat, a.card, a.tricks_if_played, a.best_tricks) == (m, b.seat, b.card, b.tricks_if_played,
                                                                          b.best_tricks)
        assert b == a if a.seat in seats or a.cost else b.options == b.best_cards == ()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 5), trumps=st.sampled_from([*Suit, None]))
def test_a_lessons_analysis_on_random_endings(seed: int, size: int, trumps: Suit | None) -> None:
    rng = random.Random(seed)
    _, _, checked = _random_ending(rng, size, rng.randint(1, size), trumps)  # some stop early, with cards left
    seats = {rng.choice(SEATS)}
    _same_as_shown(analyse(checked), analyse(checked, options_for=seats), seats)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 5), trumps=st.sampled_from([*Suit, None]))
def test_a_lessons_analysis_on_one_solver_thread(seed: int, size: int, trumps: Suit | None) -> None:
    """A build's worker solves on one thread, position after position (see
    solver.card_options_many), and takes a card played alone of its kind as
    the position's worth: the answers are the batch's."""
    rng = random.Random(seed)
    _, _, checked = _random_ending(rng, size, rng.randint(1, size), trumps)
    seats = {rng.choice(SEATS)}
    full = analyse(checked)
    saved, solver._THREADS = solver._THREADS, 1
    try:
        shown = analyse(checked, options_for=seats)
    finally:
        solver._THREADS = saved
    _same_as_shown(full, shown, seats)


def test_hand_one_on_one_solver_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = check_file(HAND_I, solver=False)
    full = analyse(checked)
    monkeypatch.setattr(solver, "_THREADS", 1)
    _same_as_shown(full, analyse(checked, options_for={Seat.A}), {Seat.A})


def test_a_lessons_analysis_of_hand_one_solves_less_and_is_cached(tmp_path: Path, solver_calls: list[int]) -> None:
    full = analyse(check_file(HAND_I, solver=False), Cache(tmp_path / "full"))
    solver_calls.clear()
    shown = analyse(check_file(HAND_I, solver=False), Cache(tmp_path / "shown"), options_for={Seat.A})
    _same_as_shown(full, shown, {Seat.A})
    assert 10 <= sum(solver_calls) < 20  # A's ten cards and the few that cost tricks, not all 41 positions
    solver_calls.clear()
    assert analyse(check_file(HAND_I, solver=False), Cache(tmp_path / "shown"), options_for={Seat.A}) == shown
    # a full analysis in the cache is taken as it is: it shows all the lesson needs
    assert analyse(check_file(HAND_I, solver=False), Cache(tmp_path / "full"), options_for={Seat.A}) == full
    assert solver_calls == []


def test_a_lessons_analysis_with_a_bad_count_in_the_cache_is_solved_again(tmp_path: Path) -> None:
    shown = analyse(check_file(HAND_I, solver=False), Cache(tmp_path), options_for={Seat.A})
    [entry] = [f for f in (tmp_path / "analysis").iterdir()
               if "worth" in json.loads(f.read_text(encoding="utf-8"))]
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["worth"][0] = [99, 99]  # more tricks than there are
    entry.write_text(json.dumps(data), encoding="utf-8")
    assert analyse(check_file(HAND_I, solver=False), Cache(tmp_path), options_for={Seat.A}) == shown


# --- the command -------------------------------------------------------------------------


def test_cli_json_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(HAND_I), "--format", "json", "--cache-dir", str(tmp_path), "--no-judge"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["start"] == {"AB": 9, "YZ": 4}
    assert "verdict" not in data["tricks"][0]["cards"][0]
    assert main(["analyse", "--summary", str(HAND_I), "--cache-dir", str(tmp_path)]) == 0
    assert "Hand I " in capsys.readouterr().out
    assert main(["analyse", str(HAND_I), "--no-cache", "--ascii", "--no-judge"]) == 0
    assert "Double-dummy" in capsys.readouterr().out


def test_cli_skips_problems_in_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p.yaml").write_text(
        "kind: problem\ntitle: A finesse\ntrumps: H\nleader: A\n"
        "deal:\n  A: ♠ 3 2\n  Y: ♠ K 4\n  B: ♠ A Q\n  Z: ♦ 6 5\ntask: {side: AB, tricks: all}\n", encoding="utf-8")
    (tmp_path / "h.yaml").write_text(HAND_I.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["analyse", "--summary", str(tmp_path), "--no-cache"]) == 0
    out = capsys.readouterr()
    assert "skipped" in out.err and "Hand I" in out.out
    assert main(["analyse", str(tmp_path / "p.yaml"), "--no-cache"]) == 1
    assert "problem" in capsys.readouterr().err


def test_solving_loads_neither_endplays_deal_generator_nor_matplotlib() -> None:
    """endplay's package imports its deal generator and matplotlib (a second a
    process); a process that only solves loads the solver and types, and the
    rest of the package still comes when one of its names is asked for."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from whistbook import solver\n"
        "from whistbook.cards import cards\n"
        "from whistbook.seats import Seat\n"
        "hands = {Seat.A: cards('AS'), Seat.Y: cards('2S'), Seat.B: cards('3S'), Seat.Z: cards('4S')}\n"
        "assert solver.dd_tricks(hands, None, Seat.A) == 1\n"
        "assert 'matplotlib' not in sys.modules and 'endplay.dealer' not in sys.modules\n"
        "import endplay\n"
        "assert endplay.Deal is not None and 'endplay.dealer' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
