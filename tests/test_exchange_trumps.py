"""`whistbook import --trumps SUIT`: boards whose record names no trumps (a
deal alone, as dealing programs and hand records write them, or a board
passed out) come in as whist hands with the suit the command line chose; a
board with a contract keeps its strain; without the option nothing changes
but the note's hint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from whistbook.cards import Suit
from whistbook.cli import main
from whistbook.corpus import check_file
from whistbook.exchange import read, read_records
from whistbook.exchange.bridge import COMPASS, to_record
from whistbook.seats import Seat, Side

from test_exchange_real import REAL, _board, _import, _validates

HINT = "(--trumps SUIT imports it with that suit as trumps)"


def _hand_of(board, seat: str) -> set:
    return set(board.hands[seat])


@pytest.mark.parametrize("name, suit, boards", [
    ("bigdeal-psbridge.pbn", "H", 3),
    ("bridgecomposer-deals-only.pbn", "spades", 3),
    ("pbntools-tourcalc-deals.pbn", "h", 2),
])
def test_the_real_deal_only_files_import_with_trumps(name, suit, boards, tmp_path, capsys):
    """Big Deal, BridgeComposer and Tourcalc give deals alone: with --trumps
    every board is written and validates; the record's dealer is Z, the
    player on his left leads, no card is played, and the claim (the whole
    hand) is the solver's."""
    code, files, lines = _import(tmp_path, capsys, "deals" + Path(name).suffix, (REAL / name).read_bytes(),
                                 "--trumps", suit)
    assert code == 0 and lines == [] and len(files) == boards
    _validates(tmp_path / "out")
    trumps = Suit.parse(suit)
    for board, file in zip(read(REAL / name), files):
        path = tmp_path / "out" / "deals" / file
        checked = check_file(path)
        hf = checked.hand
        assert checked.ok and hf.trumps == trumps and hf.tricks == []
        assert set(checked.replay.hands[Seat.Z]) == _hand_of(board, board.dealer)  # the record's dealer deals
        assert set(checked.replay.hands[Seat.A]) == _hand_of(board, COMPASS[(COMPASS.index(board.dealer) + 1) % 4])
        dealer_trumps = [c for c in board.hands[board.dealer] if c.suit == trumps]
        assert hf.turn_up.card == min(dealer_trumps, key=lambda c: c.rank)
        assert sum(checked.final_tricks.values()) == 13
        text = " ".join(path.read_text().replace("\n#", "").split())
        assert f"{trumps.plural} are trumps as chosen on the command line (--trumps {trumps.letter})" in text


def test_a_dealer_without_the_suit_is_left_out_with_a_note(tmp_path, capsys):
    """Tourcalc's board 1: North deals and holds no spade, so cannot turn
    one up; board 2 comes in."""
    code, files, lines = _import(tmp_path, capsys, "tc.pbn", (REAL / "pbntools-tourcalc-deals.pbn").read_bytes(),
                                 "--trumps", "S")
    assert code == 0 and files == ["tc-02.yaml"]
    assert [(d["level"], d["line"], d["col"]) for d in lines] == [("note", "5", "1")]
    assert lines[0]["text"] == ("board 1: the dealer (North) holds no spades, so cannot turn up a card of that suit "
                                "(--trumps S); not imported")


@pytest.mark.parametrize("value", ["", "x", "NT", "red", "SH"])
def test_a_value_that_is_not_a_suit_is_a_usage_error(value, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["import", str(REAL / "bigdeal-psbridge.pbn"), "-o", str(out), "--trumps", value])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert err == (f"whistbook: error: --trumps: {value!r} is not a suit: give S, H, D or C, or spades, hearts, "
                   "diamonds or clubs\n")


@pytest.mark.parametrize("value", ["S", "s", "Spades", "HEARTS", "d", "clubs"])
def test_a_board_with_a_contract_keeps_its_strain(value, tmp_path, capsys):
    """A record that names its contract wins over --trumps: cold-6d.pbn is
    six diamonds, played to the end, whatever suit is given."""
    code, files, lines = _import(tmp_path, capsys, "cold.pbn", (REAL / "cold-6d.pbn").read_bytes(), "--trumps", value)
    assert code == 0 and lines == [] and len(files) == 1
    made = tmp_path / "out" / "cold" / files[0]
    assert check_file(made).hand.trumps == Suit.DIAMONDS and "--trumps" not in made.read_text()


def test_without_trumps_the_note_hints_at_the_option(tmp_path, capsys):
    """Nothing changes without --trumps but the note, which says how to
    bring the board in; a no-trump board gets no such hint."""
    code, files, lines = _import(tmp_path, capsys, "bd.pbn", (REAL / "bigdeal-psbridge.pbn").read_bytes())
    assert code == 0 and files == [] and [d["line"] for d in lines] == ["6", "13", "19"]
    assert all(d["text"].endswith("nothing says which suit is trumps; not imported " + HINT) for d in lines)
    code, files, lines = _import(tmp_path, capsys, "rb.pbn", (REAL / "realbridge-2021-optimum.pbn").read_bytes())
    texts = [d["text"] for d in lines]
    assert code == 0 and len(files) == 1 and len(texts) == 3
    assert texts[0] == f"board 11 (table 11): the board was passed out: no one played it; not imported {HINT}"
    assert HINT not in texts[1] and HINT not in texts[2]  # no trumps, and --trumps does not change that
    code, files, lines = _import(tmp_path, capsys, "st.pbn", (REAL / "bigdeal-psbridge.pbn").read_bytes(), "--strict")
    assert code == 1 and files == []
    assert lines[0]["level"] == "error" and lines[0]["text"].endswith("which suit is trumps " + HINT)


def test_a_passed_out_board_is_dealt_with_trumps(tmp_path, capsys):
    """RealBridge's passed-out table comes in with --trumps; its no-trump
    tables are still left out."""
    code, files, lines = _import(tmp_path, capsys, "rb.pbn", (REAL / "realbridge-2021-optimum.pbn").read_bytes(),
                                 "--trumps", "c")
    assert code == 0 and files == ["rb-11-table-11.yaml", "rb-11-table-30.yaml"]
    assert len(lines) == 2 and all("the contract is 1NT" in d["text"] for d in lines)
    made = tmp_path / "out" / "rb" / "rb-11-table-11.yaml"
    text = " ".join(made.read_text().replace("\n#", "").split())
    assert "the board was passed out: clubs are trumps as chosen on the command line (--trumps C)" in text
    assert check_file(made).hand.trumps == Suit.CLUBS


def test_no_dealer_in_the_record(tmp_path, capsys):
    """Without [Dealer], the dealer a board of that number usually has (East
    deals board 2), said in a comment; without a number either, North."""
    text = (REAL / "bigdeal-psbridge.pbn").read_text().replace('[Dealer "E"]\n', "")
    code, files, _ = _import(tmp_path, capsys, "nd.pbn", text, "--trumps", "D")
    made = tmp_path / "out" / "nd" / "nd-02.yaml"
    assert code == 0 and len(files) == 3
    assert "the record names no dealer: East deals, the usual dealer of board 2" in \
        " ".join(made.read_text().replace("\n#", "").split())
    board = read(REAL / "bigdeal-psbridge.pbn")[1]
    assert set(check_file(made).replay.hands[Seat.Z]) == _hand_of(board, "E")
    code, files, _ = _import(tmp_path, capsys, "dds.pbn", (REAL / "dds-example.pbn").read_bytes(), "--trumps", "H")
    made = tmp_path / "out" / "dds" / files[0]
    assert code == 0 and "North deals, as on board 1" in " ".join(made.read_text().replace("\n#", "").split())
    assert check_file(made).ok


def test_a_lin_deal_alone_and_a_turn_up_named(tmp_path, capsys):
    """A LIN record with md| and no auction: the digit names the dealer (3,
    North); --turn-up names a card the dealer holds."""
    md = re.search(r"md\|[^|]*\|", (REAL / "bbo-record.lin").read_text()).group()
    code, files, lines = _import(tmp_path, capsys, "one.lin", f"pn|a,b,c,d|st||{md}ah|Board 1|pg||\n",
                                 "--trumps", "spades", "--turn-up", "TS")
    assert code == 0 and lines == [] and files == ["one-01.yaml"]
    checked = check_file(tmp_path / "out" / "one" / "one-01.yaml")
    board, = read(tmp_path / "one.lin")
    assert board.dealer == "N" and set(checked.replay.hands[Seat.Z]) == _hand_of(board, "N")
    assert str(checked.hand.turn_up.card) == "TS" and checked.hand.trumps == Suit.SPADES


def test_to_record_with_trumps_is_data():
    """The library call: the record has no tricks, the chosen trumps, the
    dealer's lowest trump turned up; no claim yet (settle_totals adds it)."""
    board = read(REAL / "bigdeal-psbridge.pbn")[2]  # South deals
    rec = to_record(board, trumps=Suit.HEARTS)
    assert rec.trumps == Suit.HEARTS and rec.tricks == [] and rec.totals is None
    assert set(rec.deal[Seat.Z]) == _hand_of(board, "S") and str(rec.turn_up) == "2H"
    assert rec.dealer == Seat.Z and Side.YZ == rec.dealer.side


def test_the_docs_example_is_what_import_writes(tmp_path, monkeypatch, capsys):
    """docs/exchange.md shows a run on Big Deal's file and on Tourcalc's: the
    hand file and the messages it shows are the ones written."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "exchange.md").read_text()
    shown = docs.split("$ cat deals/bigdeal-psbridge-03.yaml\n", 1)[1].split("\n$ ", 1)[0] + "\n"
    monkeypatch.chdir(REAL.parent.parent.parent.parent)  # the messages name the files as the docs do
    out = tmp_path / "deals"
    assert main(["import", "tests/data/exchange/real/bigdeal-psbridge.pbn", "-o", str(out), "--trumps", "hearts"]) == 0
    assert (out / "bigdeal-psbridge-03.yaml").read_text() == shown
    capsys.readouterr()
    assert main(["import", "tests/data/exchange/real/pbntools-tourcalc-deals.pbn", "-o", str(tmp_path / "tc"),
                 "--trumps", "S"]) == 0
    assert capsys.readouterr().err.splitlines()[0] in docs


def test_read_records_takes_trumps_too():
    records = read_records(REAL / "bridgecomposer-deals-only.pbn", trumps=Suit.CLUBS)
    assert [r.trumps for r in records] == [Suit.CLUBS] * 3 and all(sum(r.totals.values()) == 13 for r in records)


def test_a_play_without_a_contract_is_not_kept_and_says_so(tmp_path, capsys):
    """No contract, no auction, yet a play section: nothing says who
    declared, so the deal comes in with the chosen trumps and the play is
    named as left out (nothing lost in silence)."""
    code, files, lines = _import(tmp_path, capsys, "p.pbn", _board(contract=None, declarer=None, result=None),
                                 "--trumps", "H")
    made = tmp_path / "out" / "p" / "p-01.yaml"
    assert code == 0 and lines == [] and files == ["p-01.yaml"]
    assert "the record's play is not kept" in made.read_text() and check_file(made).hand.tricks == []
