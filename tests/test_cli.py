"""The command line: exit codes, diagnostics, no tracebacks, the JSON contract."""

import json
import subprocess
import sys

import pytest

from whistbook.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_ok(capsys, hand1_path):
    code, out, err = run(capsys, "validate", str(hand1_path))
    assert code == 0 and out == "" and "1 file checked: all valid" in err


def test_validate_reports_located_errors(capsys, tmp_path, hand1_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(hand1_path.read_text(encoding="utf-8").replace("tally: 0-2", "tally: 0-3"), encoding="utf-8")
    worse = tmp_path / "worse.yaml"
    worse.write_text("title: x\nturn_up: 2S\ndeal: {}\ntricks: []\nbogus: 1\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", str(tmp_path))
    assert code == 1
    lines = out.splitlines()
    assert any(l.startswith(f"{bad}:") and ": error: after trick 2 the tricks stand AB 0, YZ 2" in l for l in lines)
    assert any(l.startswith(f"{worse}:5:1: error:") and "unknown key 'bogus'" in l for l in lines)
    assert "Traceback" not in out + err


def test_usage_errors_exit_2(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["validate"])
    assert exc.value.code == 2
    code, out, err = run(capsys, "validate", str(tmp_path / "nope"))
    assert code == 2 and "no such file or folder" in err
    assert main([]) == 2


def test_show_text_and_ascii(capsys, hand1_path):
    code, out, _ = run(capsys, "show", str(hand1_path))
    assert code == 0 and "Trick  1  >A  2♦" in out and "AB win three by cards" in out
    code, out, _ = run(capsys, "show", "--ascii", str(hand1_path))
    assert code == 0 and "♦" not in out and ">A  2D" in out


def test_show_json_contract(capsys, hand1_path):
    code, out, _ = run(capsys, "show", "--format", "json", str(hand1_path))
    data = json.loads(out)
    for key in ("title", "viewpoint", "dealer", "turn_up", "trumps", "score_before", "deal", "tricks", "claim", "result", "score_after"):
        assert key in data
    assert data["viewpoint"] == "A" and data["dealer"] == "Z" and data["turn_up"] == "2S" and data["trumps"] == "S"
    assert sorted(data["deal"]) == ["A", "B", "Y", "Z"] and all(len(v) == 13 for v in data["deal"].values())
    t1 = data["tricks"][0]
    assert t1 == {"number": 1, "leader": "A", "cards": ["2D", "4D", "QD", "AD"], "winner": "Z", "shown": True, "tally": {"AB": 0, "YZ": 1}}
    assert data["result"] == {"side": "AB", "by_cards": 3, "honours": {"AB": 0, "YZ": 0}, "game": False}
    assert data["score_after"] == {"AB": 3, "YZ": 0}
    assert data["claim"]["tricks"] == {"AB": 3}


def test_new_writes_a_valid_file(capsys, tmp_path):
    target = tmp_path / "mine.yaml"
    code, _, _ = run(capsys, "new", str(target), "--seed", "7")
    assert code == 0
    code, out, err = run(capsys, "validate", str(target))
    assert code == 0, out
    code, _, err = run(capsys, "new", str(target))
    assert code == 2 and "already exists" in err


def test_schema_command(capsys):
    code, out, _ = run(capsys, "schema")
    assert code == 0 and json.loads(out)["title"] == "whistbook hand file"


def test_no_traceback_without_debug(tmp_path):
    p = tmp_path / "x.yaml"
    p.write_bytes(b"\xff\xfe not utf8")
    r = subprocess.run([sys.executable, "-m", "whistbook", "validate", str(p)], capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr and "not UTF-8" in r.stdout
