"""`whistbook import` on card files as other programs write them: the real
files under tests/data/exchange/real/ (their sources in its README) and files
made here from their deals: a team match's two rooms, a vugraph LIN, a
pairs file, and the faults the readers must place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from whistbook.cards import Suit
from whistbook.cli import main
from whistbook.corpus import check_file, find_hand_files
from whistbook.exchange import lin, pbn, read, read_records
from whistbook.exchange.importer import finish, finish_all, plan
from whistbook.exchange.record import from_checked
from whistbook.seats import Side

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "exchange" / "real"
#: words of other libraries' exceptions that must never reach a message
FOREIGN = ("Traceback", "endplay", "index out of range", "unpack", "invalid literal", "Denom", "NoneType", "'NT2'")
#: a located message: path:line:col: level: text
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<level>error|note): (?P<text>.+)$")

# Board 1 of bbo-helper-daylong.pbn: East declares four hearts and makes eleven tricks.
DEAL = "W:Q862.AKQJ5..QJ65 T43.74.T9652.A83 K75.9862.J8.K974 AJ9.T3.AKQ743.T2"
PLAY = """DA H5 D2 D8
H3 HA H4 H2
HT HK H7 H6
C2 CQ C3 C4
CT C5 C8 CK
DQ HJ D5 DJ
D3 CJ CA C7
D4 HQ DT S5
D7 C6 D6 C9
S9 S2 S3 H9
SA S6 S4 SK
DK S8 D9 H8
SJ SQ ST S7
"""


def _board(number: int | None = 1, *, extra: str = "", contract: str | None = "4H", declarer: str | None = "E",
           result: str | None = "11", play: str | None = PLAY, deal: str = DEAL) -> str:
    tags = [f'[Board "{number}"]' if number is not None else "", '[Dealer "N"]', f'[Deal "{deal}"]']
    tags += [f'[Contract "{contract}"]' if contract is not None else "", f'[Declarer "{declarer}"]' if declarer else ""]
    tags += [f'[Result "{result}"]' if result is not None else "", extra]
    if play is not None:
        tags += ['[Play "S"]', play.rstrip("\n")]
    return "\n".join(t for t in tags if t) + "\n"


def _import(tmp_path, capsys, name: str, text: str, *options: str) -> tuple[int, list[str], list[dict]]:
    """Import ``text`` as ``name`` into a folder: the exit status, the files
    written, and each located line of standard error as a dict."""
    src = tmp_path / name
    src.write_bytes(text.encode("utf-8")) if isinstance(text, str) else src.write_bytes(text)
    out = tmp_path / "out" / src.stem
    code = main(["import", str(src), "-o", str(out), "-q", *options])
    err = capsys.readouterr().err
    assert not any(word in err.replace(str(tmp_path), "") for word in FOREIGN), err
    lines = [m.groupdict() for m in map(LINE.match, err.splitlines()) if m]
    files = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    return code, files, lines


def _validates(folder: Path) -> None:
    assert main(["validate", "-q", str(folder)]) == 0


# ------------------------------------------------------------------ real files

def test_a_bbo_tournament_imports_every_suit_board(tmp_path, capsys):
    """BBO Helper's PBN of a daylong: the no-trump boards are left out, each
    with a note at its contract, and every suit board is written."""
    code, files, lines = _import(tmp_path, capsys, "daylong.pbn", (REAL / "bbo-helper-daylong.pbn").read_text())
    assert code == 0
    assert files == ["daylong-01.yaml", "daylong-03.yaml", "daylong-05.yaml"]
    assert [(d["level"], d["line"]) for d in lines] == [("note", "87"), ("note", "174")]
    assert "board 2: the contract is 1NT" in lines[0]["text"] and "board 4: the contract is 3NT" in lines[1]["text"]
    _validates(tmp_path / "out")


def test_a_pairs_file_gives_a_file_per_table_and_claims_mid_trick(tmp_path, capsys):
    """pbntools' BBO pairs file: tables that share a board number get a file
    each; a play that stops mid-trick (``- - - HT``) with a [Result] is
    imported, the result the claim."""
    code, files, lines = _import(tmp_path, capsys, "sky.pbn", (REAL / "bbo-sky-club-pairs.pbn").read_text())
    assert code == 0 and files == ["sky-02-1.yaml", "sky-04-1.yaml", "sky-04-2.yaml"]
    assert len(lines) == 4 and all(d["level"] == "note" for d in lines)
    text = (tmp_path / "out" / "sky" / "sky-04-2.yaml").read_text()
    assert "the claim came during trick 6; its cards played before it (TH) are left out" in text
    rec = read_records(REAL / "cold-6d.pbn")[0]  # and a whole play, for contrast
    assert rec.title == "Random]" and len(rec.tricks) == 13
    _validates(tmp_path / "out")


def test_the_pbn_reference_games(tmp_path, capsys):
    """The PBN 2.1 reference tests: a deal-only game is left out with its
    reason; a play of four tricks closed by '*' with [Result "NS 11"] after
    the play section imports with NS (the declarer's side, YZ) at eleven."""
    boards = read(REAL / "pbn-reference-correct-21.pbn")
    assert [b.number for b in boards] == [1, 16]
    code, files, lines = _import(tmp_path, capsys, "ref.pbn", (REAL / "pbn-reference-correct-21.pbn").read_text())
    assert code == 0 and files == ["ref-16.yaml"]
    assert lines[0]["line"] == "18" and "no contract" in lines[0]["text"]
    checked = check_file(tmp_path / "out" / "ref" / "ref-16.yaml")
    assert checked.ok and checked.final_tricks == {Side.AB: 2, Side.YZ: 11}


def test_commentary_with_a_blank_line_stays_in_its_board():
    """BridgeComposer's commentary holds blank lines: one board, and its tags
    after the commentary are still its own."""
    board, = read(REAL / "bridgecomposer-blank-line-in-comment.pbn")
    assert board.number == 1 and board.hands is not None and board.contract is None


@pytest.mark.parametrize("name", ["bbo-record.lin", "endplay-example1.lin"])
def test_bbo_lin_records_are_read(name, tmp_path, capsys):
    """Both of BBO's LIN records are three no-trump: read, and left out with the reason."""
    code, files, lines = _import(tmp_path, capsys, "record.lin", (REAL / name).read_text())
    assert code == 0 and files == []
    assert len(lines) == 1 and "the contract is 3NT" in lines[0]["text"] and lines[0]["level"] == "note"


# ------------------------------------------------------------------ made from real deals

def test_a_team_match_gives_a_file_per_room(tmp_path, capsys):
    text = _board(extra='[Room "Open"]') + "\n" + _board(extra='[Room "Closed"]', result="10", play=None)
    code, files, _ = _import(tmp_path, capsys, "match.pbn", text)
    assert code == 0 and files == ["match-01-closed.yaml", "match-01-open.yaml"]
    assert "board 1 (closed room)" in (tmp_path / "out" / "match" / "match-01-closed.yaml").read_text()


def test_unnumbered_boards_and_a_summary(tmp_path, capsys):
    src = tmp_path / "loose.pbn"
    src.write_text(_board(None) + "\n" + _board(None, result="10", play=None) + "\n" + _board(1, contract="3NT"))
    assert main(["import", str(src), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["loose-unnumbered-1.yaml", "loose-unnumbered-2.yaml"]
    assert err.splitlines()[-1] == (f"whistbook: 3 boards read; wrote 2 hand files in {tmp_path / 'out'}, "
                                    "1 board not imported (see the notes)")


def test_a_vugraph_lin_is_split_at_qx(tmp_path, capsys):
    """BBO's vugraph layout: one pn| for the match, each board opened by qx|."""
    md = "md|3S25H79TD35AC357JA,S368JQH28ADJKC68Q,S79TAH356KD26789C,|"
    text = ("vg|Test match,Final,I,1,2,Reds,0,Blues,0|\nrs|4HE=,4HE-1|\npn|a,b,c,d,e,f,g,h|pg||\n"
            f"qx|o1|st||{md}sv|o|mb|p|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|pg||pc|S5|pc|S3|pc|S7|pc|SK|pg||mc|10|pg||\n"
            f"qx|c1|st||{md}sv|o|mb|p|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|pg||mc|9|pg||\n")
    code, files, lines = _import(tmp_path, capsys, "vugraph.lin", text)
    assert code == 0 and lines == [] and files == ["vugraph-01-closed.yaml", "vugraph-01-open.yaml"]
    _validates(tmp_path / "out")


def test_the_declarer_comes_from_the_auction_never_a_guess(tmp_path, capsys):
    """No [Declarer]: East, who first bid the hearts, declares, so South leads
    and is A; nothing is turned, and no note speaks of North."""
    auction = '[Auction "N"]\nPass Pass 1D X\nPass 1H 2D 3H\nPass 4H Pass Pass\nPass'
    code, files, _ = _import(tmp_path, capsys, "auction.pbn", _board(declarer=None, extra=auction))
    text = (tmp_path / "out" / "auction" / files[0]).read_text() if files else ""
    assert code == 0 and "seats turned" not in text and "North" not in text.split("title:")[0].replace("is North", "")
    code, files, lines = _import(tmp_path, capsys, "none.pbn", _board(declarer=None))
    assert code == 1 and files == []
    assert lines[0]["line"] == "4" and "names no declarer for 4H" in lines[0]["text"]


def test_a_comment_with_a_blank_line_after_a_tag_keeps_the_tags_in_their_board(tmp_path, capsys):
    first = _board(extra='[TurnUp "2H"] {A remark that opens on the tag line\n\nand goes on after a blank line}')
    second = _board(2, extra='[TurnUp "6H"]', result="10", play=None)
    code, files, _ = _import(tmp_path, capsys, "two.pbn", first + "\n" + second)
    assert code == 0 and files == ["two-01.yaml", "two-02.yaml"]
    one, two = ((tmp_path / "out" / "two" / f).read_text() for f in files)
    assert "turn_up: 2H" in one and "turn_up: 6H" in two
    assert check_file(tmp_path / "out" / "two" / "two-01.yaml").final_tricks == {Side.AB: 2, Side.YZ: 11}


def test_boards_that_cannot_be_whist_are_left_out_and_the_rest_written(tmp_path, capsys):
    text = "\n".join([
        _board(1),
        _board(2, contract="3NT"),
        _board(3, contract="Pass", declarer=None, result=None, play=None),
        _board(4, contract=None, declarer=None, result=None, play=None),
        _board(5, result=None, play=PLAY.splitlines()[0] + "\nH3 HA"),
        _board(6, result="10", play=None),
    ])
    code, files, lines = _import(tmp_path, capsys, "mixed.pbn", text)
    assert code == 0 and files == ["mixed-01.yaml", "mixed-06.yaml"]
    texts = [d["text"] for d in lines]
    assert [d["level"] for d in lines] == ["note"] * 4
    assert "board 2: the contract is 3NT" in texts[0] and "board 3: the board was passed out" in texts[1]
    assert "board 4: the record has a deal but no contract" in texts[2]
    assert "board 5: the play stops in trick 2 after 2 cards, and no result or claim" in texts[3]
    code, files, _ = _import(tmp_path, capsys, "strict.pbn", text, "--strict")
    assert code == 1 and files == []


def test_a_play_that_stops_mid_trick_takes_the_result_as_the_claim(tmp_path, capsys):
    """BBO-converted PBN writes ``- DQ - -`` and the [Result]; a '*' inside a row does the same."""
    for name, rows in (("dashes.pbn", "DA H5 D2 D8\nH3 HA H4 H2\nHT - - -\n- - - -"),
                       ("star.pbn", "DA H5 D2 D8\nH3 HA H4 H2\nHT *")):
        code, files, lines = _import(tmp_path, capsys, name, _board(play=rows))
        assert code == 0 and lines == [] and len(files) == 1
        made = tmp_path / "out" / Path(name).stem / files[0]
        assert "the claim came during trick 3; its cards played before it (TH) are left out" in made.read_text()
        assert check_file(made).final_tricks == {Side.AB: 2, Side.YZ: 11}


def test_an_auction_and_a_play_without_a_contract_tag(tmp_path, capsys):
    auction = '[Auction "N"]\nPass Pass 1D X\nPass 1H 2D 3H\nPass 4H Pass Pass\nPass'
    code, files, _ = _import(tmp_path, capsys, "bare.pbn", _board(contract=None, declarer=None, extra=auction))
    assert code == 0 and files == ["bare-01.yaml"]


def test_line_ends_of_every_kind(tmp_path, capsys):
    text = _board() + "\n" + _board(2, result="10", play=None)
    for name, ends in (("cr.pbn", "\r"), ("crlf.pbn", "\r\n")):
        code, files, _ = _import(tmp_path, capsys, name, text.replace("\n", ends))
        assert code == 0 and len(files) == 2, name


def test_a_junk_fourth_hand_in_md_is_an_error(tmp_path, capsys):
    text = (REAL / "bbo-record.lin").read_text().replace(",|rh|", ",S4KH4JKQD4QC24|rh|")
    code, files, lines = _import(tmp_path, capsys, "junk.lin", text)
    assert code == 1 and files == []
    assert lines[0]["line"] == "1" and lines[0]["col"] == "107"
    assert "East's hand, given fourth, is not the 13 cards the other three leave" in lines[0]["text"]


@pytest.mark.parametrize("bad, line, col, words", [
    ('[Deal "N:AKQ"]', 3, 8, "Deal: 1 hand where a deal has four"),
    ('[Deal "N:AKQ.J.T.9 - - -"]', 3, 1, "the deal gives only 1 hand (East, South, West left out)"),
    ('[Deal "N:AXQ... - - -"]', 3, 11, "Deal: 'X' is not a rank"),
    ('[Contract "{"]', 4, 12, "Contract: '{' is not a contract"),
    ('[Result "x"]', 6, 10, "Result: 'x' is not a number of tricks"),
    ('[Declarer "Q"]', 5, 12, "Declarer: 'Q' is not a seat"),
    ('[Play "S"]\nDA D2 H5 D8', 8, 4, "play: trick 1: it is Y's turn to play, but 2D is in B's hand"),
    ('[Play "S"]\nDA H5 D2 XX', 8, 10, "Play: 'XX' is not a card"),
    ('[Play "S"]\nDA H5 * D8', 8, 9, "Play: 'D8' comes after the '*'"),
    ('[Deal "N:AKQ.J.T.9 AKQ.J.T.9 - -"]', 3, 1, "the deal gives only 2 hands"),
])
def test_faults_are_located_in_whist_terms(bad, line, col, words, tmp_path, capsys):
    key = bad.split()[0] + " "
    text = "\n".join(bad if row.startswith(key) else row for row in _board(play=None).splitlines())
    if key == "[Play ":
        text = _board(play=None) + bad
    code, _files, lines = _import(tmp_path, capsys, "bad.pbn", text)
    assert lines and (int(lines[0]["line"]), int(lines[0]["col"])) == (line, col), lines
    assert words in lines[0]["text"]
    assert code == (0 if lines[0]["level"] == "note" else 1)


# ------------------------------------------------------------------ what whistbook exports

@pytest.mark.parametrize("fmt", ["pbn", "lin"])
def test_export_hands_then_import_gives_back_all_45(fmt, tmp_path, capsys):
    """All 50 files under hands/: 45 hands, 5 problems (left out by PBN and
    LIN); the 45 come back with their irregularities, score and turn-up."""
    files = find_hand_files([ROOT / "hands"])
    assert len(files) == 50
    out = tmp_path / f"hands.{fmt}"
    assert main(["export", str(ROOT / "hands"), "--format", fmt, "-o", str(out)]) == 0
    code, names, lines = _import(tmp_path, capsys, out.name, out.read_text())
    assert code == 0 and lines == [] and len(names) == 45
    hands = [(f, c) for f, c in zip(files, map(check_file, files)) if c.hand.kind == "hand"]
    for (path, checked), name in zip(hands, names):
        before = from_checked(checked)
        back = tmp_path / "out" / "hands" / name
        after = from_checked(check_file(back))
        assert (after.deal, after.tricks, after.turn_up, after.laws, after.score, after.title) == \
            (before.deal, before.tricks, before.turn_up, before.laws, before.score, before.title), name
        assert after.totals == before.totals
        # the result line is made again, "and the game" and honours with it (docs/exchange.md, Round trips)
        assert _result_line(back) == _result_line(path), name


def _result_line(path: Path) -> str:
    return next(line for line in path.read_text().splitlines() if line.startswith("result:"))


def test_the_laws_marks_in_pbn(tmp_path):
    """An established revoke and a lead out of turn that stood are marked as
    the standard marks them; the rest of the record is whistbook's tag."""
    revoke = from_checked(check_file(ROOT / "hands" / "laws" / "01-revoke-three-tricks.yaml"))
    text = pbn.write([revoke])
    assert "S4 ^R C2 S2 S6\n" in text
    assert '[WhistLaws "{2: {revoke: {card: 2C, penalty: tricks}}}"]' in text
    stood = from_checked(check_file(ROOT / "hands" / "laws" / "03-lead-out-of-turn.yaml"))
    stood.laws = {1: {"out_of_turn": {"card": "AC", "stands": True}}}
    assert "^L CA" in pbn.write([stood])


def test_lin_export_writes_mc_for_every_board():
    """A claim's mc| and, for other readers' sake, one for a play to the last card."""
    played = read_records(REAL / "cold-6d.pbn")
    assert len(played[0].tricks) == 13
    records = played + [from_checked(check_file(p)) for p in find_hand_files([ROOT / "hands" / "cavendish"])[:3]]
    lines = lin.write(records).splitlines()
    assert len(lines) == 4
    for rec, line in zip(records, lines):
        assert f"|mc|{rec.totals[Side.YZ]}|" in line


def test_the_solving_spread_over_two_processes_gives_the_same_files(tmp_path):
    boards = read(REAL / "bbo-sky-club-pairs.pbn") * 4
    work = plan(boards, Path("sky.pbn"), tmp_path, None)
    assert len(work.jobs) == 12
    alone = [finish(job) for job in work.jobs]
    pooled = [text for _job, text in finish_all(work.jobs, workers=2)]
    assert pooled == alone and all(isinstance(t, str) for t in alone)


def test_mangled_real_files_give_located_messages_only(tmp_path):
    """Every real file cut short, or with a character dropped, doubled or
    changed, here and there: reading and checking each board raises nothing
    but a located RecordError (the solver is not reached: it is the readers
    that meet mangled text)."""
    import random

    from whistbook.errors import RecordError

    rng = random.Random(25)
    for src in sorted(REAL.glob("*.[pl][bi]n")):
        text = src.read_text()
        for _ in range(40):
            k = rng.randrange(len(text))
            mangled = rng.choice([text[:k], text[:k] + text[k + 1:], text[:k] + text[k] + text[k:],
                                  text[:k] + rng.choice('"[]{}|-*^%;\n\r 0123456789SHDCNESWX') + text[k + 1:]])
            path = tmp_path / src.name
            path.write_text(mangled)
            try:
                boards = read(path)
            except RecordError as err:
                assert err.loc is not None and err.loc.line >= 1
                continue
            trumps = rng.choice([None, Suit.HEARTS])  # --trumps deals the boards that name none
            work = plan(boards, path, tmp_path / "out", None, trumps=trumps)
            for d in work.skipped + work.errors:
                assert d.loc is not None and not any(word in d.message for word in FOREIGN), d


# ------------------------------------------------------------------ every real file, nothing lost

#: for each real file: boards read, hand files written, boards left out with a note, boards in error
REAL_COUNTS = {
    "bba-bergen.pbn": (3, 3, 0, 0),
    "bbo-helper-daylong.pbn": (5, 3, 2, 0),
    "bbo-record.lin": (1, 0, 1, 0),
    "bbo-sky-club-pairs.pbn": (7, 3, 4, 0),
    "bbo-wronie-three-tables.lin": (3, 3, 0, 0),
    "ben-too-many-trumps.pbn": (1, 1, 0, 0),
    "bigdeal-psbridge.pbn": (3, 0, 3, 0),
    "bridgecomposer-blank-line-in-comment.pbn": (1, 0, 1, 0),
    "bridgecomposer-deals-only.pbn": (3, 0, 3, 0),
    "cold-6d.pbn": (1, 1, 0, 0),
    "dds-example.pbn": (1, 0, 1, 0),
    "endplay-comments.pbn": (1, 0, 0, 1),
    "endplay-example1.lin": (1, 0, 1, 0),
    "endplay-eyc-1998-teams.pbn": (8, 7, 1, 0),
    "pavlicek-wc2012-final.pbn": (6, 2, 2, 2),
    "pbn-reference-correct-21.pbn": (2, 1, 1, 0),
    "pbntools-bbo-history.pbn": (2, 2, 0, 0),
    "pbntools-kops-pairs.pbn": (5, 4, 1, 0),
    "pbntools-lin-link-deal1.pbn": (1, 1, 0, 0),
    "pbntools-tourcalc-deals.pbn": (2, 0, 2, 0),
    "realbridge-2021-optimum.pbn": (4, 1, 3, 0),
}


def test_every_real_file_is_counted():
    assert sorted(REAL_COUNTS) == sorted(p.name for p in REAL.glob("*.[pl][bi]n"))


@pytest.mark.parametrize("name", sorted(REAL_COUNTS))
def test_every_real_board_is_written_or_reported(name, tmp_path, capsys):
    """Each real file: every board read is written as a hand file that
    validates, or reported with its place and reason; the summary line
    adds them up."""
    given = "real" + Path(name).suffix  # the source's name may hold a word FOREIGN looks for
    code, files, lines = _import(tmp_path, capsys, given, (REAL / name).read_bytes())
    read_n, written, skipped, errors = REAL_COUNTS[name]
    assert len(files) == written
    assert [d["level"] for d in lines].count("note") == skipped
    assert [d["level"] for d in lines].count("error") == errors
    assert written + skipped + errors == read_n
    assert all(d["path"].endswith(given) and int(d["line"]) >= 1 for d in lines)
    assert code == (1 if errors else 0)
    if files:
        _validates(tmp_path / "out" / "real")


def test_a_game_without_a_deal_plays_the_deal_before(tmp_path, capsys):
    """Pavlicek's match files give the deal once: the other room's game has
    its own contract, auction and play but no [Board] or [Deal]. It plays
    the deal of the game before, and says so."""
    code, files, lines = _import(tmp_path, capsys, "wc.pbn", (REAL / "pavlicek-wc2012-final.pbn").read_text())
    assert files == ["wc-03-1.yaml", "wc-03-2.yaml"]
    assert not any("no deal" in d["text"] for d in lines)
    # board 1's two plays and board 2's two no-trump games are all placed at their own lines
    assert [d["line"] for d in lines] == ["56", "72", "25", "44"]
    closed = " ".join((tmp_path / "out" / "wc" / "wc-03-2.yaml").read_text().replace("\n#", "").split())
    assert "the record gives no deal for this table: it is the deal of the game before, at line 89" in closed
    assert check_file(tmp_path / "out" / "wc" / "wc-03-2.yaml").ok


def test_the_ten_written_10(tmp_path, capsys):
    """Some programs write the ten as 10, in PBN's deal and play and in LIN's md|."""
    text = (REAL / "ben-too-many-trumps.pbn").read_text()
    deal = re.search(r'\[Deal "([^"]+)"\]', text).group(1)
    code, files, lines = _import(tmp_path, capsys, "tens.pbn",
                                 text.replace(deal, deal.replace("T", "10")).replace("ST S8 D2 SK", "S10 S8 D2 SK"))
    assert code == 0 and lines == [] and files == ["tens-59.yaml"]
    lin_text = (REAL / "bbo-wronie-three-tables.lin").read_text().splitlines()[0].replace("STJH", "S10JH")
    code, files, lines = _import(tmp_path, capsys, "tenlin.lin", lin_text)
    assert code == 0 and lines == [] and files == ["tenlin-01.yaml"]


def test_a_file_in_a_windows_code_page_is_read_and_says_so(tmp_path, capsys):
    """A Polish event name in Windows-1250 (bytes no ISO-8859-1 text holds):
    the cards are read, and the hand file tells that letters may be wrong."""
    text = (REAL / "ben-too-many-trumps.pbn").read_text().replace("Random]", "Turniej Brzeziny Śląskie")
    code, files, lines = _import(tmp_path, capsys, "cp.pbn", text.encode("cp1250"))
    assert code == 0 and lines == [] and files == ["cp-59.yaml"]
    made = " ".join((tmp_path / "out" / "cp" / "cp-59.yaml").read_text().replace("\n#", "").split())
    assert "neither UTF-8 nor ISO-8859-1 (byte 0x8c, line 1)" in made and "read as Windows-1252" in made


@pytest.mark.parametrize("how", ["bom", "crlf", "lower", "latin-1", "hash", "tabs"])
def test_real_file_variants(how, tmp_path, capsys):
    """The same real board with a byte-order mark, CR LF, lower-case cards,
    a Latin-1 name, a second table written with PBN's "#" for the same
    board and deal, and tabs for blanks."""
    text = (REAL / "ben-too-many-trumps.pbn").read_text()
    deal = re.search(r'\[Deal "([^"]+)"\]', text).group(1)
    data = {
        "bom": b"\xef\xbb\xbf" + text.encode(),
        "crlf": text.replace("\n", "\r\n").encode(),
        "lower": text.replace(deal, deal.lower()).replace("HA H3 H6 HQ", "ha h3 h6 hq").encode(),
        "latin-1": text.replace("jackos51246d", "Jérôme").encode("latin-1"),
        "hash": (text + "\n" + text.replace('"59"', '"#"').replace(deal, "#").replace('[Result "9"]', '[Result "10"]')).encode(),
        "tabs": text.replace(" ", "\t").encode(),
    }[how]
    code, files, lines = _import(tmp_path, capsys, "v.pbn", data)
    assert code == 0 and lines == []
    assert files == (["v-59-1.yaml", "v-59-2.yaml"] if how == "hash" else ["v-59.yaml"])
    _validates(tmp_path / "out" / "v")
