"""The messages an author meets first (issue 23, item 4): YAML slips in the
format's words, one error for an over-claim, counts in the singular, and the
starter hand's pointers to the schema and the installed help."""

import json

import pytest

from whistbook.cli import main
from whistbook.corpus import check_hand
from whistbook.errors import YamlSyntaxError
from whistbook.handfile import loads
from whistbook.schema import SCHEMA_PATH


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def syntax(text):
    with pytest.raises(YamlSyntaxError) as err:
        loads(text, "h.yaml")
    return str(err.value)


@pytest.mark.parametrize("text, where", [
    ("title: x\ndeal:\n\tA: QS\n", "3:1"),           # a tab as indentation
    ("tricks:\n  -\tcards: 2D\n", "2:4"),            # a tab after the dash
    ("remark: |\n  text\n\tmore\n", "3:1"),          # a tab in a block of text
])
def test_a_tab_says_indent_with_spaces(text, where):
    assert syntax(text) == (f"h.yaml:{where}: a tab: hand files are indented with spaces, never tabs "
                            "(set the editor to indent with spaces, and replace this one)")


def test_a_key_without_its_colon_is_pointed_at_its_own_line():
    msg = syntax("title: x\nknown_hand A\nscore: love-all\n")
    assert msg.startswith("h.yaml:2:1: a line with neither 'key:' nor '- ': write 'key: value' (known_hand: A)")


def test_a_line_indented_too_far_or_too_little():
    assert syntax("deal:\n  A: x\n   B: y\n").startswith("h.yaml:3:5: a key indented further than the key above it")
    assert syntax("deal:\n  A: x\n B: y\n").startswith("h.yaml:3:2: this line is out of line with those above it")
    assert "indent with spaces" in syntax("deal:\n  A: x\n B: y\n")


def test_a_value_holding_colon_space_asks_for_quotes():
    assert syntax("title: Hand: one\n") == ("h.yaml:1:12: this value holds ': ', which YAML reads as the start "
                                            "of another key: put the value in quotes (title: \"Hand I: the lead\")")


def test_brackets_and_quotes_left_open_are_pointed_at_where_they_open():
    assert syntax("claim: {AB: 3\nresult: x\n") == "h.yaml:1:8: this '{' is not closed: end it with '}'"
    assert syntax("title: 'x\n") == "h.yaml:1:8: this quotation is not closed: end it with the same quote mark"


def test_an_over_claim_is_one_error_not_two(hand1_path):
    text = hand1_path.read_text(encoding="utf-8")
    cut = text[: text.index("  - cards: KD TD 8D JS")]
    # AB can take 4 of the last 5; with the claim of 5 the result would be AB four by cards
    checked = check_hand(loads(cut + "ending:\n  claim: {AB: 5}\nresult: AB win three by cards\n", "h.yaml"))
    errors = [d.message for d in checked.diagnostics if d.level == "error"]
    assert len(errors) == 1 and errors[0].startswith("the claim gives AB 5 of the last 5 tricks, but best defence")
    assert checked.score is None


def test_counts_of_one_are_singular(capsys, tmp_path, hand1_path):
    code, _, err = run(capsys, "validate", str(hand1_path))
    assert err.strip() == "1 file checked: all valid"
    bad = tmp_path / "hands" / "bad.yaml"
    bad.parent.mkdir()
    bad.write_text(hand1_path.read_text(encoding="utf-8").replace("tally: 0-2", "tally: 0-3"), encoding="utf-8")
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 1 and err.strip() == "1 file checked: 1 error in 1 file"
    code, _, err = run(capsys, "build", "--project", str(tmp_path), "-q")
    assert code == 1 and err.splitlines()[-1] == "whistbook: 1 error in 1 of 1 hand file: nothing was written"


def test_init_gives_the_book_the_schema_and_the_starter_its_line(capsys, tmp_path):
    book = tmp_path / "book"
    assert run(capsys, "init", str(book), "--seed", "1")[0] == 0
    starter = (book / "hands" / "first-hand.yaml").read_text(encoding="utf-8")
    assert starter.splitlines()[0] == "# yaml-language-server: $schema=../hand.schema.json"
    assert json.loads((book / "hand.schema.json").read_text(encoding="utf-8")) == \
        json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert "docs/" not in starter and "'whistbook schema' prints it" in starter
    assert run(capsys, "validate", str(book / "hands"))[0] == 0


def test_new_in_a_book_points_at_the_books_schema(capsys, tmp_path, monkeypatch):
    book = tmp_path / "book"
    run(capsys, "init", str(book), "--seed", "1")
    monkeypatch.chdir(book)
    assert run(capsys, "new", "hands/more/second.yaml", "--seed", "2")[0] == 0
    first = (book / "hands" / "more" / "second.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../hand.schema.json"


def test_new_outside_a_book_names_the_installed_schema(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "loose.yaml", "--seed", "2")[0] == 0
    first = (tmp_path / "loose.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# yaml-language-server: $schema={SCHEMA_PATH.resolve().as_posix()}"
