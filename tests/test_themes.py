"""Theme detectors on the book's hands: the labelled examples."""

from __future__ import annotations

import json

import pytest

from whistbook.corpus import check_file
from whistbook.judgement.position import Table
from whistbook.themes import THEMES, detect, theme_names

from conftest import HANDS

CAV = HANDS / "cavendish"


def found(name: str, theme: str, solver: bool = True):
    path = next(CAV.glob(f"{name}-*.yaml"))
    return [f for f in detect(check_file(path, solver=False), themes=[theme], solver=solver)]


def test_theme_names_are_the_themes():
    assert theme_names() == list(THEMES)
    assert len(THEMES) >= 12 and all(t.title and t.summary and t.page for t in THEMES.values())


@pytest.mark.parametrize("hand,theme,trick,seat", [
    ("34", "call", None, None), ("34", "echo", None, None),
    ("23", "refuse-overtrump", None, None), ("24", "refuse-overtrump", None, None),
    ("25", "refuse-overtrump", None, None),
    ("38", "grand-coup", None, None), ("39", "grand-coup", 9, "B"),
])
def test_the_book_hands_show_their_themes(hand, theme, trick, seat):
    fs = found(hand, theme)
    assert fs, (hand, theme)
    if trick is not None:
        assert any(f.trick == trick and str(f.seat) == seat for f in fs)


def test_a_theme_that_needs_the_solver_is_confirmed_by_it():
    fs = found("39", "grand-coup")
    f = next(f for f in fs if f.trick == 9)
    ev = dict(f.evidence)
    assert f.confirmed is True and ev["dd_played"] >= ev["dd_plain"]
    unconfirmed = found("39", "grand-coup", solver=False)
    assert all(f.confirmed is None for f in unconfirmed)


def test_refusing_to_overtrump_is_not_found_where_nobody_could():
    assert not found("01", "refuse-overtrump")


def test_findings_are_data_and_json():
    table = Table.of(check_file(next(CAV.glob("34-*.yaml")), solver=False))
    fs = detect(table, solver=False)
    assert fs == sorted(fs, key=lambda f: (f.trick, [p.seat for p in table.tricks[f.trick - 1].plays].index(f.seat),
                                           f.theme))
    json.dumps([f.to_json() for f in fs])


def test_an_unknown_theme_is_a_key_error():
    with pytest.raises(KeyError):
        detect(check_file(next(CAV.glob("01-*.yaml")), solver=False), themes=["nonesuch"])
