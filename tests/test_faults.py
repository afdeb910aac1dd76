"""Every fault a located message and a clean exit (issue 27, item 3): nesting and
size past the limits, numbers too long to convert, characters YAML refuses and
text that is not UTF-8, each at its own line and column; a full disk or a
read-only folder named by the command line; an import that cannot write what it
read; a file's name that cannot be a page's; and a cap on the problems listed."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from whistbook import yamlnodes
from whistbook.cards import parse_number_word
from whistbook.cli import main
from whistbook.errors import HandFileError, naming, one_line, os_error_text
from whistbook.handfile import MAX_BYTES, loads, problems_of
from whistbook.model import page_name
from whistbook.seats import Seat

from render_support import HAND_I, hand_i_text

HUGE = "9" * 5000  # past Python's 4,300 digits for int()


def validate(capsys, path: Path) -> tuple[int, list[str], str]:
    code = main(["validate", "--no-solver", str(path)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def write(tmp_path: Path, text: str | bytes, name: str = "hand.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


# --- depth and size --------------------------------------------------------------------------


@pytest.mark.parametrize("pure", [False, True], ids=["libyaml", "pure"])
@pytest.mark.parametrize("nested", ["[" * 1200 + "]" * 1200, "[" * 70 + "]" * 70,
                                    "".join(f"\n{'  ' * k}- " for k in range(1, 200)) + "x"])
def test_nesting_past_the_limit_is_refused_where_it_starts(capsys, tmp_path, nested, pure):
    # a tab in a comment sends the text to the pure loader, which alone could recurse too deep
    text = hand_i_text(**{"score:": "score: love-all" + (" #\tpure" if pure else "")}) + "notes: " + nested + "\n"
    code, out, err = validate(capsys, write(tmp_path, text))
    assert code == 1 and "Traceback" not in err
    line = text.count("\n", 0, text.index("notes: ")) + 1
    deep = [o for o in out if f"nested more than {yamlnodes.MAX_DEPTH} levels deep" in o]
    assert len(deep) == 1 and len(out) == 1, out
    where = deep[0].split(":")
    assert int(where[1]) >= line and int(where[2]) > 1, deep
    if nested.startswith("["):  # the node one level too deep: the 64th bracket
        assert (int(where[1]), int(where[2])) == (line, len("notes: ") + yamlnodes.MAX_DEPTH)


def test_nesting_within_the_limit_is_read_as_usual(tmp_path):
    with pytest.raises(HandFileError) as err:
        loads(hand_i_text() + "notes: " + "[" * 40 + "]" * 40 + "\n", "hand.yaml")
    assert [e.message for e in problems_of(err.value)] == ["notes must be text"]


def test_a_file_past_the_size_limit_is_not_read(capsys, tmp_path):
    code, out, _ = validate(capsys, write(tmp_path, hand_i_text() + "#" * MAX_BYTES))
    assert code == 1 and out == [f"{tmp_path / 'hand.yaml'}:1:1: error: the file is larger than 1 MB, "
                                 "which no hand file needs"]
    with pytest.raises(HandFileError, match="longer than 1 MB"):
        loads("#" * (MAX_BYTES + 1), "x.yaml")


def test_a_pipe_is_not_read(capsys, tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    os.mkfifo(tmp_path / "pipe.yaml")
    assert main(["validate", str(tmp_path / "pipe.yaml")]) == 2
    assert "not a file or a folder" in capsys.readouterr().err
    from whistbook.handfile import load

    with pytest.raises(HandFileError, match="not a regular file"):
        load(tmp_path / "pipe.yaml")


# --- numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("start, line", [
    ("    tally: 0-1", f"    tally: 0-{HUGE}"),
    ("    tally: 0-1", f"    tally: {{AB: 0, YZ: {HUGE}}}"),
    ("  claim:", f"  claim: {{AB: {HUGE}}}"),
    ("  claim:", f"  claim: AB {HUGE}"),
    ("score:", f"score: {{AB: {HUGE}, YZ: 0}}"),
    ("score:", f"score: AB {HUGE}, YZ 0"),
    ('      - "Y showed out of C"', f'      - "Y showed out of C at trick {HUGE}"'),
    ("known_hand:", f"known_hand: A\nerrata:\n  - {{trick: {HUGE}, printed: 2D, used: 3D, reason: x}}"),
])
def test_numbers_too_long_to_convert_are_errors_at_their_place(capsys, tmp_path, start, line):
    text = hand_i_text(**{start: line})
    code, out, err = validate(capsys, write(tmp_path, text))
    assert code == 1 and "Traceback" not in err and out, err
    at = text.count("\n", 0, text.index(HUGE)) + 1
    assert any(o.startswith(f"{tmp_path / 'hand.yaml'}:{at}:") for o in out), (at, out)


def test_number_words_take_decimal_digits_only():
    assert parse_number_word("12") == 12 and parse_number_word("thirteen") == 13
    assert parse_number_word(HUGE) is None and parse_number_word("²") is None


# --- characters ------------------------------------------------------------------------------


@pytest.mark.parametrize("char", ["\x01", "\x1b", "\x7f", "\x00", "\ufffe"])
def test_a_character_yaml_refuses_is_located_where_it_is(capsys, tmp_path, char):
    text = hand_i_text(**{"source:": "source: Cavendish, éé" + char + " Part II"})
    code, out, _ = validate(capsys, write(tmp_path, text))
    line = text.count("\n", 0, text.index(char)) + 1
    assert code == 1 and len(out) == 1
    assert out[0].startswith(f"{tmp_path / 'hand.yaml'}:{line}:{len('source: Cavendish, éé') + 1}: error: the character U+")
    assert "not allowed in YAML" in out[0]


def test_bytes_that_are_not_utf8_are_located_by_line_and_character(capsys, tmp_path):
    data = hand_i_text(**{"source:": "source: Cavendish, éé♠X Part II"}).encode("utf-8")
    bad = data.index(b"X")
    code, out, _ = validate(capsys, write(tmp_path, data[:bad] + b"\xff" + data[bad + 1:]))
    assert code == 1 and out == [f"{tmp_path / 'hand.yaml'}:4:{len('source: Cavendish, éé♠') + 1}: error: "
                                 "not UTF-8 text: byte 0xff (invalid start byte); save the file as UTF-8"]


@pytest.mark.parametrize("brk", ["\x85", "\u2028", "\u2029"])
def test_lines_are_counted_as_an_editor_counts_them(capsys, tmp_path, brk):
    """YAML 1.1 counts NEL and the Unicode separators as line breaks; editors do not."""
    text = hand_i_text(**{"source:": f"source: Cavendish,{brk} Part II", "    tally: 0-1": "    tally: 0-3"})
    code, out, _ = validate(capsys, write(tmp_path, text))
    at = text.count("\n", 0, text.index("tally: 0-3")) + 1
    assert code == 1 and any(o.startswith(f"{tmp_path / 'hand.yaml'}:{at}:12: error: ") for o in out), (at, out)


def test_a_message_is_one_line_whatever_it_quotes():
    with pytest.raises(HandFileError) as err:
        loads(hand_i_text(**{"turn_up:": 'turn_up: "2\\u2028\\x1bS"'}), "hand.yaml")
    shown = str(err.value)
    assert "\u2028" not in shown and "\x1b" not in shown and "\\u2028\\x1b" in shown
    assert one_line("a\tb\nc\u202ed ♠ é") == "a\\tb\\nc\\u202ed ♠ é"


# --- the operating system ----------------------------------------------------------------------


def test_a_full_disk_is_reported_with_the_file(capsys, tmp_path, monkeypatch):
    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")  # as a write names no file

    monkeypatch.setattr(Path, "write_text", full)
    target = tmp_path / "mine.yaml"
    assert main(["new", str(target)]) == 1
    assert capsys.readouterr().err == f"whistbook: error: {target}: no space left on device\n"
    assert main(["init", str(tmp_path / "book")]) == 1
    assert capsys.readouterr().err.startswith(f"whistbook: error: {tmp_path / 'book'}/")
    with pytest.raises(OSError):
        main(["--debug", "new", str(tmp_path / "other.yaml")])


def test_the_writers_name_the_file_a_write_failed_on(tmp_path, monkeypatch):
    from whistbook.output import write_files

    def broken(self, *args, **kwargs):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(Path, "write_bytes", broken)
    with pytest.raises(OSError) as err:
        write_files({"whistbook.pdf": b"%PDF"}, tmp_path)
    assert err.value.filename == str(tmp_path / "whistbook.pdf")
    assert os_error_text(err.value) == f"{tmp_path / 'whistbook.pdf'}: input/output error"
    with pytest.raises(OSError) as err, naming("a.txt"):
        raise PermissionError(errno.EACCES, "Permission denied", "b.txt")
    assert err.value.filename == "b.txt"  # a file already named stays named


def _without_write_permission(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``whistbook ARGS`` as a user the folder's permissions apply to: as root, with the
    capabilities that override them dropped (setpriv), else as the user."""
    cmd = [sys.executable, "-m", "whistbook", *args]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: permissions would not apply")
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *cmd]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_a_read_only_project_is_reported_not_a_traceback(tmp_path):
    root = tmp_path / "book"
    assert main(["init", str(root)]) == 0
    for path in [root, *root.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)
    try:
        done = _without_write_permission(["build", "-q"], root)
        if done.returncode == 0:
            pytest.skip("the folder's permissions were not applied")
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith("whistbook: error: ") and "permission denied" in done.stderr, done.stderr
        done = _without_write_permission(["init", "inner"], root)
        assert done.returncode == 1 and done.stderr == "whistbook: error: inner: permission denied\n", done.stderr
    finally:
        for path in [root, *root.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)


# --- import --------------------------------------------------------------------------------------


def _pbn(**tags: str) -> str:
    from whistbook.corpus import check_file
    from whistbook.exchange import write
    from whistbook.exchange.record import from_checked

    text = write([from_checked(check_file(HAND_I, solver=False))], "pbn")
    for tag, value in tags.items():
        if tag == "comment":  # commentary of the board, after its own
            text = text.rstrip("\n") + "\n" + value
        else:
            text = text.replace(f'[{tag} "', f'[{tag} "{value}', 1)
    return text


@pytest.mark.parametrize("pbn, found", [
    (dict(comment="{Trick 2: a\x00b\x1bc\x7fd}\n"), "a\ufffdb\ufffdc\ufffdd"),
    (dict(Event="\x7fHand\x01 I "), "\ufffdHand\ufffd I"),
])
def test_an_import_writes_only_what_a_hand_file_can_hold(capsys, tmp_path, pbn, found):
    source = write(tmp_path, _pbn(**pbn), "board.pbn")
    assert main(["import", str(source), "-o", str(tmp_path / "out.yaml")]) == 0, capsys.readouterr().err
    text = (tmp_path / "out.yaml").read_text(encoding="utf-8")
    assert found in text and "# Note: " in text and "cannot hold" in text
    assert main(["validate", "--no-solver", str(tmp_path / "out.yaml")]) == 0


def test_a_hand_file_made_from_a_record_reads_back_whatever_its_text():
    from dataclasses import replace

    from whistbook.corpus import check_file
    from whistbook.exchange.handtext import hand_text
    from whistbook.exchange.record import from_checked

    rec = from_checked(check_file(HAND_I, solver=False))
    odd = "x\x00\u2028y\x85z\u2029 [" + "[" * 1500 + " yes: no #"
    rec = replace(rec, title=odd, remarks=[odd] * len(rec.tricks), account=odd * 3, comments=[odd])
    text = hand_text(rec, "a\nb\x00.pbn")
    hand = loads(text, "out.yaml")
    assert hand.title == "x\ufffd\ufffdy\ufffdz\ufffd [" + "[" * 1500 + " yes: no #"
    assert text.splitlines()[1].startswith("# Note: ") and "\x00" not in text


@pytest.mark.parametrize("number", ["1³", "²", HUGE])
def test_a_board_number_that_is_no_number_is_a_label(capsys, tmp_path, number):
    source = write(tmp_path, _pbn(Board=number), "board.pbn")  # "1" + the number, as the tag says
    assert main(["import", str(source), "-o", str(tmp_path / "out.yaml")]) == 0, capsys.readouterr().err


def test_an_import_of_numbers_too_long_to_convert(capsys, tmp_path):
    source = write(tmp_path, _pbn(Event=HUGE, comment=f"{{Trick {HUGE}: lost}}\n"), "board.pbn")
    assert main(["import", str(source), "-o", str(tmp_path / "out.yaml")]) == 0, capsys.readouterr().err
    assert f'title: "{HUGE}Hand I"' in (tmp_path / "out.yaml").read_text(encoding="utf-8")


# --- names and counts ------------------------------------------------------------------------------


@pytest.mark.parametrize("name, page", [
    ("01-trump-lead", "01-trump-lead"), ('a"b', "a-b"), ("a<b>", "a-b"), ("a\\b", "a-b"), ("a#b", "a-b"),
    ("a?b", "a-b"), ("a%b", "a-b"), ("a;b", "a-b"), ("my hand", "my-hand"), ("é-ü", "é-ü"), (".hidden", "hidden"),
    ("###", "lesson"), ("a:b", "a-b"),
])
def test_a_files_name_is_made_safe_as_a_pages(name, page):
    assert page_name(name) == page


def test_problems_past_the_cap_are_counted_not_listed(tmp_path, monkeypatch):
    sought = []
    closest = yamlnodes._closest
    monkeypatch.setattr(yamlnodes, "_closest", lambda word, options: sought.append(word) or closest(word, options))
    text = hand_i_text() + "".join(f"titel{k}: x\n" for k in range(300))
    with pytest.raises(HandFileError) as err:
        loads(text, "hand.yaml")
    problems = problems_of(err.value)
    assert len(problems) == yamlnodes.MAX_PROBLEMS + 1 and len(sought) == yamlnodes.MAX_PROBLEMS
    first_left_out = text.count("\n", 0, text.index(f"titel{yamlnodes.MAX_PROBLEMS}:")) + 1
    assert str(problems[-1]) == (f"hand.yaml:{first_left_out}:1: 200 more problems in this file, not listed "
                                 "(the first of them is here)")


def test_exchange_files_are_located_and_limited(capsys, tmp_path, monkeypatch):
    from whistbook.exchange import source

    lin = write(tmp_path, "pn|A,B,C,D|md|1S♠".encode("utf-8") + b"\xfe\x00|", "bad.lin")
    assert main(["import", str(lin)]) == 1
    assert capsys.readouterr().err.startswith(f"{lin}:1:{len('pn|A,B,C,D|md|1S♠') + 1}: error: byte 0xfe ")
    monkeypatch.setattr(source, "MAX_BYTES", 10)
    assert main(["import", str(lin)]) == 1
    assert "the file is larger than 1e-05 MB" in capsys.readouterr().err


@pytest.mark.parametrize("deal, where", [
    ("md|1SH3489AD679KC79TJ,\n,Sx,S27TKH6TQD58AC26A|", "2:3"),  # a value that runs over a line
    ("md| 1SH3489AD679KC79TJ,S8JAH257JD2QC345Q,xS34569QHKD34TJC8K,|", "1:66"),
])
def test_a_lin_deal_is_located_where_its_fault_is(capsys, tmp_path, deal, where):
    from whistbook.exchange import lin

    text = "pn|Wilma,Ned,Sue,Ed|st||" + deal + "rh||ah|Board 7|mb|1H|mb|p|mb|p|mb|p|"
    (board,) = lin.read(text, "x.lin")
    assert str(board.problem.loc) == f"x.lin:{where}", board.problem


def test_a_play_that_is_no_card_is_a_located_error(capsys, tmp_path):
    text = _pbn()
    start = text.index("\n", text.index("[Play ")) + 1
    bad = write(tmp_path, text[:start] + text[start:].replace("D", "NT", 1), "bad.pbn")
    assert main(["import", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:") and "not a card" in err, err


@pytest.mark.slow
def test_hand_files_named_with_any_character_build(tmp_path):
    from whistbook.build import BuildOptions, build

    hands = tmp_path / "hands"
    hands.mkdir()
    names = ['a"b', "c<d", "e\\f", "g#h", "i?j", "k%l", "m;n", "o p", ".q", "r&s'"]
    for k, name in enumerate(names):
        (hands / f"{name}.yaml").write_text(hand_i_text(**{"title:": f"title: Hand {k}"}), encoding="utf-8")
    out = tmp_path / "output"
    build(BuildOptions(hands=hands, output=out, templates=tmp_path / "templates", mkdocs_config=tmp_path / "mkdocs.yml",
                       booklet=False))  # ProperDocs' strict build checks every link between the pages
    pages = sorted(p.stem for p in (out / "site" / "lessons").glob("*.html"))
    assert pages == sorted(page_name(n) for n in names)
    assert sorted(p.stem for p in (out / "html").glob("*.html")) == sorted([*pages, "glossary", "index", "principles"])


@pytest.mark.parametrize("space", ["\u2009", "\u00a0", "\u3000"])
def test_a_space_of_another_kind_in_a_hand_separates_ranks(space):
    """A no-break or thin space pasted from a document is a space (it was an IndexError)."""
    text = hand_i_text(**{"  A:": f"  A: ♠ Q T{space}5 3  ♥ A{space}  ♣ A 7 6 3  ♦ K J 9 2"})
    assert len(loads(text, "hand.yaml").deal[Seat.A]) == 13
    with pytest.raises(HandFileError, match=r"'X' is not a rank"):
        loads(hand_i_text(**{"  A:": f"  A: ♠ Q T{space}X 3  ♥ A  ♣ A 7 6 3  ♦ K J 9 2"}), "hand.yaml")
