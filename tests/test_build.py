"""``whistbook build``: gather and check everything first, write nothing on
error, and swap the new output in whole."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from whistbook.build import BuildFailed, BuildOptions, build, lesson_slug
from whistbook.cli import main
from whistbook.errors import RenderError

from render_support import BOSTON, EXTERNAL, HAND_I, HANDS, hand_i_text

pytestmark = pytest.mark.slow


@pytest.fixture
def project(tmp_path):
    """A small project: two hands and a problem, and an output folder from an earlier build."""
    hands = tmp_path / "hands"
    (hands / "cavendish").mkdir(parents=True)
    (hands / "dick").mkdir()
    shutil.copy(HAND_I, hands / "cavendish")
    shutil.copy(HANDS / "cavendish" / "02-trump-lead-four-moderate-trumps.yaml", hands / "cavendish")
    shutil.copy(BOSTON, hands / "dick")
    out = tmp_path / "output"
    out.mkdir()
    (out / "earlier.txt").write_text("an earlier build\n", encoding="utf-8")
    return tmp_path


def _options(project: Path, **kw) -> BuildOptions:
    kw.setdefault("judge_samples", 4)  # the judge at work, with four deals a card
    return BuildOptions(hands=project / "hands", output=project / "output", templates=project / "templates",
                        mkdocs_config=project / "mkdocs.yml", **kw)


def _leftovers(project: Path) -> list[str]:
    return sorted(p.name for p in project.iterdir() if p.name.startswith("."))


def test_build_writes_pages_booklet_and_site(project):
    lines: list[str] = []
    report = build(_options(project), lines.append)
    out = project / "output"
    assert not (out / "earlier.txt").exists()  # replaced whole
    pages = sorted(p.name for p in (out / "html").glob("*.html"))
    assert pages == ["cavendish-01-trump-lead-on-established-suit.html",
                     "cavendish-02-trump-lead-four-moderate-trumps.html",
                     "dick-02-boston-problem.html", "glossary.html", "index.html", "principles.html"]
    assert (out / "whistbook.pdf").read_bytes().startswith(b"%PDF-")
    assert (out / "site" / "lessons" / "cavendish-01-trump-lead-on-established-suit.html").is_file()
    assert (report.lessons, report.problems) == (2, 1) and report.pdf_pages > 8
    assert lines[0] == "checking the hand files: 3 to do"
    # each file as it is made, in the order the workers finish them
    assert [line.split("] ", 1)[0] for line in lines[1:4]] == ["[1/3", "[2/3", "[3/3"]
    assert sorted(line.split("] ", 1)[1] for line in lines[1:4]) == ["Hand I", "Hand II",
                                                                      "The Boston Double-Dummy Problem"]
    assert not any(".output-" in line for line in lines)  # no temporary folder's name
    assert lines[-1].startswith("wrote ") and lines[-1].endswith(" s")
    assert any(line.startswith("laying out the booklet (A5)") for line in lines)
    assert _leftovers(project) == []
    for path in (out / "html").iterdir():
        assert not EXTERNAL.search(path.read_text(encoding="utf-8")), path


def test_a_broken_hand_writes_nothing_and_reports_every_problem(project, capsys):
    (project / "hands" / "cavendish" / "01-trump-lead-on-established-suit.yaml").write_text(
        hand_i_text(**{"  - cards: 5C 3C QC 4C": "  - cards: 5C 3C QC 4S",
                       "turn_up:": "turn_up: 2S\nsource_page: 12"}),
        encoding="utf-8",
    )
    with pytest.raises(BuildFailed) as err:
        build(_options(project))
    assert (project / "output" / "earlier.txt").read_text() == "an earlier build\n"
    assert sorted(p.name for p in (project / "output").iterdir()) == ["earlier.txt"]
    assert _leftovers(project) == []
    messages = [str(d) for d in err.value.diagnostics]
    assert messages and all(m.split(":")[0].endswith("01-trump-lead-on-established-suit.yaml") for m in messages)
    assert all(m.split(":")[1].isdigit() and m.split(":")[2].isdigit() for m in messages)  # path:line:col

    code = main(["build", "--project", str(project), "--hands", str(project / "hands"),
                 "--output", str(project / "output")])
    err_text = capsys.readouterr().err
    assert code == 1
    assert "01-trump-lead-on-established-suit.yaml:" in err_text and "error:" in err_text
    assert "nothing was written" in err_text
    assert (project / "output" / "earlier.txt").exists()


def test_keep_going_builds_the_good_hands_and_a_page_of_the_broken_ones_errors(project, capsys):
    broken = project / "hands" / "cavendish" / "01-trump-lead-on-established-suit.yaml"
    broken.write_text(hand_i_text(**{"    tally: 0-2": "    tally: 0-3"}), encoding="utf-8")
    with pytest.raises(BuildFailed):
        build(_options(project))  # without it, nothing is written
    report = build(_options(project, keep_going=True))
    assert (report.lessons, report.problems, report.files) == (1, 1, 3)
    assert [d.message for d in report.broken] == ["after trick 2 the tricks stand AB 0, YZ 2 (trick won by Y), not AB 0, YZ 3"]
    html = project / "output" / "html"
    page = (html / "cavendish-01-trump-lead-on-established-suit.html").read_text(encoding="utf-8")
    assert "has 1 error, so no lesson was made from it" in page and "not AB 0, YZ 3" in page
    index = (html / "index.html").read_text(encoding="utf-8")
    assert "Not built: 1 hand file with errors" in index and 'href="cavendish-01-trump-lead-on-established-suit.html"' in index
    assert (html / "cavendish-02-trump-lead-four-moderate-trumps.html").is_file()
    assert (project / "output" / "whistbook.pdf").is_file()

    argv = ["build", "-k", "-q", "--project", str(project), "--hands", str(project / "hands"),
            "--output", str(project / "output")]
    for _ in range(2):  # never up to date while a file is broken: each build says so, and fails
        assert main(argv) == 1
        err = capsys.readouterr().err.splitlines()
        assert err[-1] == ("whistbook: 1 error in 1 of 3 hand files: the others were built, and the broken files' "
                           "pages show their errors")
        assert err[0].endswith("error: after trick 2 the tricks stand AB 0, YZ 2 (trick won by Y), not AB 0, YZ 3")


def test_a_failure_while_writing_leaves_the_old_output(project, monkeypatch):
    import whistbook.render.site as site

    def fail(*args, **kwargs):
        raise RenderError("site: MkDocs failed: on purpose")

    monkeypatch.setattr(site, "build_site", fail)
    with pytest.raises(RenderError, match="on purpose"):
        build(_options(project))
    assert sorted(p.name for p in (project / "output").iterdir()) == ["earlier.txt"]
    assert _leftovers(project) == []


def test_options_and_a_project_template(project):
    (project / "templates").mkdir()
    (project / "templates" / "lesson.html").write_text(
        '{% extends "default/lesson.html" %}{% block title %}Mine: {{ lesson.title }}{% endblock %}', encoding="utf-8")
    report = build(_options(project, paper="a4", four_colour=True, analysis_in_booklet=True))
    page = (project / "output" / "html" / "cavendish-01-trump-lead-on-established-suit.html").read_text()
    assert "<title>Mine: Hand I</title>" in page and 'class="four-colour"' in page
    assert report.pdf_pages > 0


def test_usage_errors(project, capsys):
    assert main(["build", "--hands", str(project / "nowhere"), "--output", str(project / "out")]) == 2
    assert "no such folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as err:
        main(["build", "--paper", "letter"])
    assert err.value.code == 2


def test_lesson_slugs_name_the_folder():
    assert lesson_slug(HAND_I, HANDS) == "cavendish-01-trump-lead-on-established-suit"
    assert lesson_slug(HAND_I, HANDS / "cavendish") == "01-trump-lead-on-established-suit"
