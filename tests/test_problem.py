"""Double-dummy problems: the two problems of Dick's Hand-Book, the verdicts
the solver gives on each of the book's lines, and located errors for broken
positions and lines."""

from __future__ import annotations

import pytest

from conftest import HANDS
from whistbook.cards import Card, Suit
from whistbook.corpus import check_file
from whistbook.seats import SEATS, Seat, Side

pytest.importorskip("endplay")

VIENNA = HANDS / "dick" / "01-great-vienna-coup.yaml"
BOSTON = HANDS / "dick" / "02-boston-problem.yaml"


def C(text: str) -> Card:
    return Card.parse(text)


def line_of(text: str, needle: str, start: int = 1) -> int:
    """1-based number of the first line at or after ``start`` containing ``needle``."""
    for n, line in enumerate(text.splitlines(), 1):
        if n >= start and needle in line:
            return n
    raise AssertionError(f"{needle!r} not in the text")


@pytest.fixture(scope="module")
def vienna():
    return check_file(VIENNA)


@pytest.fixture(scope="module")
def boston():
    return check_file(BOSTON)


# --- the bundled problems ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["vienna", "boston"])
def test_problem_file_has_no_errors(name, request):
    ch = request.getfixturevalue(name)
    assert [str(d) for d in ch.diagnostics if d.level in ("error", "warning")] == []
    assert ch.hand.kind == "problem"


@pytest.mark.parametrize("name, trumps", [("vienna", Suit.CLUBS), ("boston", Suit.HEARTS)])
def test_task_is_achievable(name, trumps, request):
    ch = request.getfixturevalue(name)
    assert ch.hand.trumps == trumps and ch.hand.leader == Seat.A
    v = ch.problem
    assert (v.side, v.needed, v.achievable) == (Side.AB, 13, 13)


def test_positions_are_full_deals(vienna, boston):
    for ch in (vienna, boston):
        cards = [r.card for s in SEATS for r in ch.hand.deal[s]]
        assert len(cards) == 52 and len(set(cards)) == 52


def test_vienna_every_branch_is_sound(vienna):
    lines = vienna.problem.lines
    assert len(lines) == 4
    for v in lines:
        assert v.sound, v.solution.title
        assert v.error_card is None and v.refutation is None and v.slips == []
        assert v.tricks_won == 13
        assert v.steps_checked == 52
    assert not [d for d in vienna.diagnostics if d.level == "note"]


def test_boston_first_and_second_solutions_are_sound(boston):
    lines = boston.problem.lines
    assert len(lines) == 6
    for v in lines[:5]:
        assert v.sound, v.solution.title
        assert v.slips == [] and v.tricks_won == 13


def test_boston_third_solution_is_unsound(boston):
    v = boston.problem.lines[5]
    assert v.solution.title.startswith("Third solution")
    assert not v.sound
    # A's king of trumps at trick 2 gives up a trick: a club lead keeps all thirteen
    assert v.error_card == (2, Seat.A, C("KH"))
    assert v.error_total == 12
    # the line only comes home because Y throws a club at trick 9; a spade holds AB to 11
    assert v.refutation == (9, Seat.Y, C("TS"), 11)
    assert v.refutation_also == (C("KS"),)
    assert [(s.trick, s.seat, s.card, s.before, s.after) for s in v.slips] == [
        (2, Seat.A, C("KH"), 13, 12),
        (5, Seat.B, C("3S"), 12, 11),
        (9, Seat.Y, C("9C"), 11, 13),
    ]
    assert set(v.slips[0].better) == {C("5C"), C("6C")}
    assert v.tricks_won == 13


def test_boston_note_names_the_refuting_defence(boston):
    notes = [d for d in boston.diagnostics if d.level == "note"]
    assert len(notes) == 1
    d = notes[0]
    assert "Third solution" in d.message
    assert "A's KH at trick 2" in d.message and "12 of the 13" in d.message
    assert "at trick 9 Y should play TS or KS (not 9C)" in d.message and "11 of the 13" in d.message
    text = BOSTON.read_text(encoding="utf-8")
    third = line_of(text, "Third solution")
    assert d.loc.line == line_of(text, "KH, QH, 3H, 6H", third)  # the card's own line


# --- broken positions and lines ------------------------------------------------------------


def _write(tmp_path, text: str):
    p = tmp_path / "p.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_duplicated_card_is_located(tmp_path):
    text = VIENNA.read_text(encoding="utf-8").replace("♣ J T 9", "♣ J T 3", 1)
    ch = check_file(_write(tmp_path, text))
    errors = [d for d in ch.diagnostics if d.level == "error"]
    assert len(errors) == 1
    assert "3C" in errors[0].message and "A's hand" in errors[0].message
    assert errors[0].loc.line == line_of(text, "Z: ♠ 9 8 7 6 5 2")
    assert ch.problem is None


def test_unequal_hands_are_reported_at_the_deal(tmp_path):
    text = VIENNA.read_text(encoding="utf-8").replace("♣ J T 9", "♣ J T", 1)
    ch = check_file(_write(tmp_path, text))
    errors = [d for d in ch.diagnostics if d.level == "error"]
    assert len(errors) == 1
    assert "same number of cards" in errors[0].message and "Z 12" in errors[0].message
    assert errors[0].loc.line == line_of(text, "deal:")


def test_impossible_task_is_an_error(tmp_path):
    # Y and Z change places: Z's king of diamonds then sits over A's ace-queen
    text = VIENNA.read_text(encoding="utf-8")
    text = text[: text.index("solutions:")]
    y = "  Y: ♠ K 4  ♥ T 9 6 5 2  ♦ J T 3  ♣ 5 4 2"
    z = "  Z: ♠ 9 8 7 6 5 2  ♥ 8 7  ♦ K 9  ♣ J T 9"
    assert y in text and z in text
    text = text.replace(y, "  Z:" + y[4:]).replace(z, "  Y:" + z[4:])
    ch = check_file(_write(tmp_path, text))
    errors = [d for d in ch.diagnostics if d.level == "error"]
    assert len(errors) == 1 and "cannot be done" in errors[0].message and "12 of the 13" in errors[0].message
    assert errors[0].loc.line == line_of(text, "task:")
    assert ch.problem.achievable == 12 and ch.problem.lines == []


def test_revoke_in_a_line_is_located(tmp_path):
    text = VIENNA.read_text(encoding="utf-8")
    first = line_of(text, "AC, 2C, 6C, 9C")
    text = text.replace("AC, 2C, 6C, 9C", "AC, 2H, 6C, 9C", 1)
    ch = check_file(_write(tmp_path, text))
    errors = [d for d in ch.diagnostics if d.level == "error"]
    assert len(errors) == 1 and "2H" in errors[0].message
    assert (errors[0].loc.line, errors[0].loc.column) == (first, 11)


def test_error_by_the_solving_side_names_the_defence_that_lets_it_through(tmp_path):
    # B leads his diamond before cashing the knave of spades: Y can then keep
    # his diamond guard, and only the line's JD at trick 12 lets the line home
    text = VIENNA.read_text(encoding="utf-8")
    old = (
        "      JS, 9S, 6D, 3D,   # 11 so B cashes the knave of spades first\n"
        "      8D, 9D, QD, TD,   # 12 and only then leads through Z\n"
        "      AD, JD, TS, KD,   # 13\n"
    )
    new = (
        "      8D, 9D, QD, TD,   # 11\n"
        "      AD, JD, TS, KD,   # 12\n"
        "      6D, 3D, JS, 9S,   # 13\n"
    )
    assert old in text
    text = text.replace(old, new, 1)
    ch = check_file(_write(tmp_path, text))
    assert ch.ok
    v = ch.problem.lines[1]
    assert not v.sound
    assert v.error_card == (11, Seat.B, C("8D")) and v.error_total == 12
    assert v.refutation == (12, Seat.Y, C("3D"), 12)
    note = next(d for d in ch.diagnostics if d.level == "note")
    second = line_of(text, "then lets the king of spades go")
    assert note.loc.line == line_of(text, "8D, 9D, QD, TD,   # 11", second)
    assert "B's 8D at trick 11" in note.message and "Y should play 3D (not JD)" in note.message


def test_line_that_stops_early_is_checked_from_where_it_stops(tmp_path):
    # keep only the first four tricks of the first Vienna line: the rest can still be made
    text = VIENNA.read_text(encoding="utf-8")
    start = line_of(text, "AS, 4S, 3S, 5S")
    end = line_of(text, "6D, KS, JS, 9S")
    lines = text.splitlines(keepends=True)
    text = "".join(lines[: start - 1] + lines[end:])
    ch = check_file(_write(tmp_path, text))
    assert ch.ok
    v = ch.problem.lines[0]
    assert v.sound and v.tricks_won == 4 and v.steps_checked == 16


def test_solver_mid_trick_options():
    """The solver is asked about positions in the middle of a trick."""
    from whistbook.solver import card_options as mid_trick_options

    ch = check_file(VIENNA)
    hands = {s: frozenset(r.card for r in ch.hand.deal[s]) for s in SEATS}
    opts = mid_trick_options(hands, Suit.CLUBS, Seat.A, [C("AC")])
    assert set(opts) == {C("2C"), C("4C"), C("5C")}  # Y must follow suit
    assert set(opts.values()) == {0}  # and whatever he plays YZ take nothing
    opts = mid_trick_options(hands, Suit.CLUBS, Seat.A, [C("AC"), C("2C")])
    assert set(opts) == {C("6C"), C("7C"), C("8C")} and set(opts.values()) == {13}


def test_each_position_of_a_problem_is_solved_once(monkeypatch):
    """The lines share their opening tricks, and the first position is the task's too."""
    from whistbook import solver

    asked: list[tuple] = []
    solve = solver.card_options

    def counted(hands, trumps, leader, so_far=()):
        asked.append((tuple(frozenset(hands[s]) for s in SEATS), trumps, leader, tuple(so_far)))
        return solve(hands, trumps, leader, so_far)

    monkeypatch.setattr(solver, "card_options", counted)
    ch = check_file(BOSTON)
    assert len(ch.problem.lines) > 1 and len(asked) == len(set(asked))
    assert len(asked) < sum(line.steps_checked for line in ch.problem.lines)
