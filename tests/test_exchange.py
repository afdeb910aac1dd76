"""Hands out to PBN, LIN and JSON, and PBN and LIN in, on the corpus hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from whistbook.cli import main
from whistbook.corpus import check_file, check_hand, find_hand_files
from whistbook.exchange import lin, pbn, read_records
from whistbook.exchange.bridge import to_record
from whistbook.exchange.handtext import hand_text
from whistbook.exchange.record import Record, from_checked, settle_totals
from whistbook.handfile import loads
from whistbook.seats import SEATS, Side

ROOT = Path(__file__).resolve().parent.parent
HANDS = sorted(find_hand_files([ROOT / "hands" / "cavendish"]))
HAND_III = ROOT / "hands" / "cavendish" / "03-rule-of-returned-leads.yaml"
DATA = ROOT / "tests" / "data" / "exchange"


def _record(path: Path) -> Record:
    return from_checked(check_file(path, solver=False))


def _read(text: str, path: str = "round.pbn") -> list[Record]:
    """Every board of a PBN or LIN text as a settled record."""
    module = lin if path.endswith(".lin") else pbn
    return [settle_totals(to_record(b)) for b in module.read(text, path)]


def _same_hand(before: Record, after: Record) -> None:
    assert after.deal == before.deal
    assert after.trumps == before.trumps and after.turn_up == before.turn_up
    assert after.tricks == before.tricks
    assert after.claim() == before.claim()


def _imports_cleanly(rec: Record, name: str) -> None:
    checked = check_hand(loads(hand_text(rec, name), name))
    assert checked.ok, [str(d) for d in checked.diagnostics]


def test_hands_are_39():
    assert len(HANDS) == 39


@pytest.mark.parametrize("path", HANDS, ids=lambda p: p.name[:2])
def test_pbn_round_trip(path):
    """YAML -> PBN -> YAML keeps the deal, the turn-up, every trick and the claim,
    and the hand file written validates (claim checked by the solver)."""
    before = _record(path)
    after, = _read(pbn.write([before]))
    _same_hand(before, after)
    assert after.comments == []
    assert after.remarks == [r and pbn._plain(r) for r in before.remarks]
    _imports_cleanly(after, path.name)


def test_lin_round_trip_on_every_hand():
    records = [_record(p) for p in HANDS]
    back = _read(lin.write(records), "all.lin")
    for before, after in zip(records, back, strict=True):
        _same_hand(before, after)  # the turn-up goes as commentary (nt|TurnUp)
        assert after.remarks == [r and pbn._plain(r) for r in before.remarks]


def test_endplay_reads_the_export_of_hand_iii():
    """The bar: endplay's PBN parser gets the same four hands and the cards in the same order."""
    from endplay.parsers import pbn as endplay_pbn
    from endplay.types import Player

    checked = check_file(HAND_III, solver=False)
    board, = endplay_pbn.loads(pbn.write([from_checked(checked)]))
    compass = {"A": Player.south, "Y": Player.west, "B": Player.north, "Z": Player.east}
    for seat in SEATS:
        theirs = sorted(_plain(c) for c in board.deal[compass[str(seat)]])
        assert theirs == sorted(str(c)[1] + str(c)[0] for c in checked.replay.hands[seat])
    played = [str(c)[1] + str(c)[0] for t in checked.replay.tricks for c in t.cards]
    assert [_plain(c) for c in board.play] == played
    assert board.dealer == Player.east and board.contract.declarer == Player.east
    assert board.claimed and board.contract.level == 1


def _plain(card) -> str:
    from endplay.config import suppress_unicode

    with suppress_unicode():
        return str(card)


def test_a_pbn_written_by_endplay_imports():
    """The bar: endplay writes Hand III's deal and play with its own types; the
    import gives the same deal and play, and validates."""
    from endplay.parsers import pbn as endplay_pbn
    from endplay.types import Board, Card, Contract, Deal, Denom, Player

    checked = check_file(HAND_III, solver=False)
    rp = checked.replay
    deal = Deal("N:84.A753.J852.Q72 K73.J9.QT764.J54 AQJT2.Q6.93.A983 965.KT842.AK.KT6")
    play = [Card(str(c)[1] + str(c)[0]) for t in rp.tricks for c in t.cards]
    contract = Contract(level=3, denom=Denom.clubs, declarer=Player.east, result=-5)  # YZ take 4 of 13
    text = endplay_pbn.dumps([Board(deal, [], play, 3, dealer=Player.east, contract=contract, claimed=True)])
    rec, = _read(text, "endplay.pbn")
    assert rec.deal == from_checked(checked).deal
    assert rec.tricks == [list(t.cards) for t in rp.tricks]
    assert {s: rec.totals[s] for s in Side} == checked.final_tricks
    assert len(rec.comments) == 1 and "lowest trump, 4C" in rec.comments[0]  # endplay has no turn-up
    _imports_cleanly(rec, "endplay.yaml")


def test_bridge_records_turn_seats_and_take_the_strain():
    rec, = read_records(DATA / "four-hearts.lin")
    assert rec.trumps.letter == "H" and rec.board == 7
    assert rec.comments[0].startswith("seats turned so that the opening leader is A: West is A")
    assert len(rec.tricks) == 5 and rec.claim() == {Side.AB: 5, Side.YZ: 3}
    _imports_cleanly(rec, "four-hearts.yaml")


def test_turn_up_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "h.yaml"
    assert main(["import", str(DATA / "four-hearts.lin"), "--turn-up", "AH", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "turn_up: AH" in text and "lowest trump" not in text
    assert main(["import", str(DATA / "four-hearts.lin"), "--turn-up", "AS"]) == 1
    assert "the turn-up AS must be one of the dealer's (Z's) hearts" in capsys.readouterr().err


@pytest.mark.parametrize("name, where, message", [
    ("fifty-one-cards.pbn", 18, "the deal has 51 cards (South holds 12)"),
    ("revoke.pbn", 26, "play: trick 3: A revokes, playing 3C to a diamond lead while holding 9D"),
])
def test_bad_records_are_located(name, where, message, capsys):
    path = DATA / name
    assert main(["import", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{where}:") and f": error: {message}" in err
    assert "Traceback" not in err


def test_a_file_in_another_encoding(tmp_path, capsys):
    path = tmp_path / "utf16.pbn"
    path.write_text((DATA / "revoke.pbn").read_text(encoding="utf-8"), encoding="utf-16")
    assert main(["import", str(path)]) == 1
    assert capsys.readouterr().err == f"{path}:1:1: error: byte 0xff is not UTF-8 or ISO-8859-1 text: save the file as UTF-8\n"


def test_latin1_pbn_is_read(tmp_path):
    """PBN 2.1 prescribes ISO-8859-1, so such a file is read."""
    text = pbn.write([_record(HAND_III)]).replace('[Event "Hand III"]', '[Event "Hand III, café"]')
    path = tmp_path / "latin1.pbn"
    path.write_bytes(text.encode("latin-1"))
    rec, = read_records(path)
    assert rec.title == "Hand III, café"


def test_export_json_holds_every_hand(capsys):
    assert main(["export", str(ROOT / "hands"), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["hands"]) == len(list((ROOT / "hands").rglob("*.yaml")))
    assert {h["kind"] for h in doc["hands"]} == {"hand", "problem"}


def test_export_refuses_a_bad_file_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HAND_III.read_text(encoding="utf-8").replace("TS 6S 8S KS", "TS 6S 8S 7D"), encoding="utf-8")
    out = tmp_path / "out.pbn"
    assert main(["export", str(HAND_III), str(bad), "-o", str(out)]) == 1
    assert not out.exists()
    assert "revokes" in capsys.readouterr().err


def test_import_of_several_boards_wants_a_folder(tmp_path, capsys):
    many = tmp_path / "two.pbn"
    many.write_text(pbn.write([_record(p) for p in HANDS[:2]]), encoding="utf-8")
    assert main(["import", str(many)]) == 2
    assert main(["import", str(many), "-o", str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["two-01.yaml", "two-02.yaml"]
    assert main(["validate", "-q", str(tmp_path / "out")]) == 0
    assert main(["import", str(many), "-o", str(tmp_path / "out")]) == 2
    assert "two-01.yaml, " in capsys.readouterr().err
    assert main(["import", str(many), "-o", str(tmp_path / "out"), "--force"]) == 0


def test_a_deal_with_an_auction_and_no_play():
    """No [Contract] tag: the contract comes from the auction (endplay reads only
    the tag); with nothing played the solver's claim covers all thirteen tricks."""
    rec, = read_records(DATA / "auction-only.pbn")
    assert rec.trumps.letter == "D" and rec.tricks == [] and rec.title == "Club night"
    assert rec.deal == _record(HAND_III).deal  # East declares, so South (A) leads: no seats turned
    assert rec.comments[0] == "the record's dealer is North; in whist the dealer is Z, the declarer (East)"
    assert rec.comments[-1] == "no card is played in the record: the whole hand is the solver's claim"
    assert sum(rec.claim().values()) == 13
    _imports_cleanly(rec, "auction-only.yaml")


def test_a_word_endplay_cannot_read_is_located(tmp_path, capsys):
    path = tmp_path / "bad-card.pbn"
    path.write_text((DATA / "revoke.pbn").read_text(encoding="utf-8").replace("HQ H4 H3 HJ", "HQ H4 HX HJ"),
                    encoding="utf-8")
    assert main(["import", str(path)]) == 1
    assert capsys.readouterr().err == f"{path}:28:7: error: Play: 'HX' is not a card (suit then rank, e.g. SK, H7; or - for none)\n"
