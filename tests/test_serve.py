"""``serve``'s quick path: a save that changes only a lesson's own pages writes
those two pages (and the lesson's search record) as a whole build would, byte
for byte; anything more asks for a build."""

from __future__ import annotations

import filecmp
import re
import shutil
from pathlib import Path

import pytest

from whistbook.build import BuildFailed, BuildOptions, build
from whistbook.output import STAMP
from whistbook.serve import Preview

from render_support import HANDS

pytestmark = pytest.mark.slow  # two builds of a small book


@pytest.fixture
def book(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the site's pages carry the build's date
    (tmp_path / "hands" / "cavendish").mkdir(parents=True)
    for name in ("01-*.yaml", "07-*.yaml"):
        shutil.copy(next((HANDS / "cavendish").glob(name)), tmp_path / "hands" / "cavendish")
    shutil.copytree(HANDS / "dick", tmp_path / "hands" / "dick")
    return tmp_path


def _options(root: Path, output: str = "output") -> BuildOptions:
    return BuildOptions(hands=root / "hands", output=root / output, templates=root / "templates",
                        mkdocs_config=root / "nowhere.yml", cache=root / ".whistbook-cache", title="T",
                        booklet=False, workers=1)


def _differences(a: Path, b: Path) -> list[str]:
    """Files that differ, but for the stamp (which lists the files with the times they were written)."""
    cmp = filecmp.dircmp(a, b, ignore=[STAMP])
    out = [str(a / n) for n in cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files]
    for name in cmp.common_dirs:
        out += _differences(a / name, b / name)
    return out


def test_a_remark_edited_writes_the_pages_a_build_would(book):
    preview = Preview(_options(book))
    preview.build(False, lambda line: None)
    hand = next((book / "hands" / "cavendish").glob("07-*.yaml"))
    text = re.sub(r"(remark: [|>]-?\n)(\s+)", r"\1\2Edited while serving, with {KH}. ", hand.read_text(), count=1)
    hand.write_text(text)
    assert preview.update({hand}) == ["cavendish-07-fourth-best-lead-counting"]
    html_page = book / "output" / "html" / "cavendish-07-fourth-best-lead-counting.html"
    assert "Edited while serving" in html_page.read_text()  # the lesson's page first
    preview.update_site()  # then the site
    site_page = book / "output" / "site" / "lessons" / "cavendish-07-fourth-best-lead-counting.html"
    assert "Edited while serving" in site_page.read_text()
    index = (book / "output" / "site" / "search" / "search_index.js").read_text()
    assert "Edited while serving, with …." in index  # the search record too, B's king unseen
    assert preview.update({hand}) == []  # saved again unchanged: nothing to write

    build(_options(book, "clean"))
    assert _differences(book / "output", book / "clean") == []


def test_a_change_beyond_the_lessons_pages_asks_for_a_build(book):
    preview = Preview(_options(book))
    assert preview.update({book / "hands" / "x.yaml"}) is None  # nothing built yet
    preview.build(False, lambda line: None)
    hand = next((book / "hands" / "cavendish").glob("07-*.yaml"))
    good = hand.read_text()
    assert preview.update({book / "mkdocs.yml"}) is None  # the settings
    hand.write_text(good.replace("title: Hand VII", "title: Hand Seven", 1))
    assert preview.update({hand}) is None  # the title is on the index pages and in the navigation
    hand.write_text(good.replace("turn_up:", "turn_up: XX\nold_turn_up:", 1))
    page = book / "output" / "html" / "cavendish-07-fourth-best-lead-counting.html"
    before = page.read_bytes()
    with pytest.raises(BuildFailed) as err:
        preview.update({hand})
    assert any("07-fourth-best-lead-counting.yaml:" in str(d) for d in err.value.diagnostics)
    assert page.read_bytes() == before  # nothing written
    hand.write_text(good)
    assert preview.update({hand}) == []  # mended: the pages are those of the good file
    shutil.copy(hand, hand.with_name("99-copy.yaml"))
    assert preview.update({hand.with_name("99-copy.yaml")}) is None  # a new file


def test_serve_goes_on_past_a_broken_file_and_shows_its_errors_on_its_page(book):
    from dataclasses import replace

    preview = Preview(replace(_options(book), keep_going=True))
    preview.build(False, lambda line: None)
    hand = next((book / "hands" / "cavendish").glob("07-*.yaml"))
    good = hand.read_text()
    hand.write_text(good.replace("turn_up:", "turn_up: XX\nold_turn_up:", 1))
    assert preview.update({hand}) is None  # not an error for every page: a build, which goes on
    report = preview.build(False, lambda line: None)
    assert report.broken and all(d.loc.path.endswith("07-fourth-best-lead-counting.yaml") for d in report.broken)
    page = (book / "output" / "html" / "cavendish-07-fourth-best-lead-counting.html").read_text()
    assert "so no lesson was made from it" in page and "unknown key &#39;old_turn_up&#39;" in page
    assert "Hand I" in (book / "output" / "html" / "cavendish-01-trump-lead-on-established-suit.html").read_text()
    hand.write_text(good)
    assert preview.update({hand}) is None  # the set of lessons changes back: a build
    assert not preview.build(False, lambda line: None).broken
