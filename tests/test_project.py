"""A book of one's own: ``whistbook init``, the project's settings, builds
that reuse what has not changed, the lock, an interrupted build, and
``whistbook serve``."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from whistbook.build import BuildOptions, build
from whistbook.output import OutputLock
from whistbook.cli import main
from whistbook.errors import ConfigError
from whistbook.project import Chapter, find_project, init_project, load_project, order_files

from render_support import HAND_I, HANDS


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def _outline(path: Path) -> list[tuple[str, int]]:
    from pypdf import PdfReader

    reader = PdfReader(path)
    return [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]


def test_settings_come_from_mkdocs_yml(tmp_path):
    init_project(tmp_path / "book", "Whist for 'Beginners': one", seed=1)
    project = load_project(tmp_path / "book")
    assert project.book.title == "Whist for 'Beginners': one"
    assert (project.book.paper, project.book.four_colour, project.book.analysis_in_booklet) == ("a5", False, False)
    assert find_project(tmp_path / "book" / "hands").root == project.root  # found upward, as git does
    config = project.config.read_text()
    project.config.write_text(config.replace("paper: a5", "paper: a4").replace("# site_author: Your Name",
                                                                               "site_author: A. Player")
                              + "    lessons:\n      - b.yaml\n      - chapter: Leads\n        lessons: [a*.yaml]\n")
    book = load_project(project.root).book
    assert (book.paper, book.author) == ("a4", "A. Player")
    assert book.order == ("b.yaml", Chapter("Leads", ("a*.yaml",)))
    files = [tmp_path / n for n in ("a1.yaml", "a2.yaml", "b.yaml", "c.yaml")]
    ordered, chapters = order_files(files, tmp_path, book.order)
    assert [f.name for f in ordered] == ["b.yaml", "a1.yaml", "a2.yaml", "c.yaml"]
    assert chapters == {files[0]: "Leads", files[1]: "Leads"}
    project.config.write_text(config.replace("paper: a5", "paper: letter"))
    with pytest.raises(ConfigError, match="paper must be one of a5, a4"):
        load_project(project.root)


def test_init_refuses_a_folder_with_files(tmp_path):
    (tmp_path / "x.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not empty"):
        init_project(tmp_path, "T")


def test_the_lock_refuses_a_second_build(tmp_path):
    with OutputLock(tmp_path / "output"):
        with pytest.raises(ConfigError, match="another build is writing"):
            with OutputLock(tmp_path / "output"):
                pass
    with OutputLock(tmp_path / "output"):  # free again
        pass
    assert not any(tmp_path.iterdir())


def _hold_the_lock_in_turn(output: Path, tries: int) -> int:
    """Take the output's lock ``tries`` times; how often another process held it at the same time."""
    doubles = 0
    for _ in range(tries):
        try:
            with OutputLock(output):
                try:
                    fd = os.open(output.parent / "holder", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                except FileExistsError:
                    doubles += 1
                    continue
                os.close(fd)
                time.sleep(0.0005)
                os.unlink(output.parent / "holder")
        except ConfigError:
            time.sleep(0.0002)
    return doubles


def test_the_lock_is_never_held_twice(tmp_path):
    """Four processes taking the lock in turn as fast as they can: never two at once
    (the file is removed before it is unlocked; one who locked it meanwhile must not count)."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(4) as pool:
        doubles = pool.starmap(_hold_the_lock_in_turn, [(tmp_path / "output", 300)] * 4)
    assert sum(doubles) == 0


@pytest.mark.slow
def test_init_then_build_puts_the_title_everywhere(tmp_path, monkeypatch, capsys):
    root = tmp_path / "my-book"
    assert main(["init", str(root), "--title", "The Little Book of Whist", "--seed", "7"]) == 0
    (root / "templates" / "lesson.html").write_text(
        '{% extends "default/lesson.html" %}{% block title %}Mine: {{ lesson.title }}{% endblock %}')
    monkeypatch.chdir(root / "hands")  # the project is found upward
    assert main(["build", "-q"]) == 0
    out = root / "output"
    assert "The Little Book of Whist" in _pdf_text(out / "whistbook.pdf")
    assert "<title>The Little Book of Whist</title>" in (out / "html" / "index.html").read_text()
    assert "<title>Mine: First hand</title>" in (out / "html" / "first-hand.html").read_text()  # the override wins
    assert "The Little Book of Whist" in (out / "site" / "index.html").read_text()
    for page in (out / "html").glob("*.html"):
        assert "Whistbook" not in page.read_text(), page
    # the command line overrides the file
    assert main(["build", "-q", "--title", "Another Title"]) == 0
    assert "Another Title" in _pdf_text(out / "whistbook.pdf")
    from pypdf import PdfReader

    assert PdfReader(out / "whistbook.pdf").metadata.title == "Another Title"


@pytest.fixture
def corpus(tmp_path):
    """Three hands and a problem from the corpus, in a project of their own."""
    hands = tmp_path / "hands"
    (hands / "cavendish").mkdir(parents=True)
    for name in ("01-trump-lead-on-established-suit", "02-trump-lead-four-moderate-trumps",
                 "12-discard-from-weak-suit"):
        matches = list((HANDS / "cavendish").glob(f"{name}*.yaml"))
        shutil.copy(matches[0], hands / "cavendish")
    shutil.copytree(HANDS / "dick", hands / "dick")
    return tmp_path


def _options(root: Path, output: str = "output", **kw) -> BuildOptions:
    kw.setdefault("judge_samples", 4)  # the judge at work, with four deals a card
    return BuildOptions(hands=root / "hands", output=root / output, templates=root / "templates",
                        mkdocs_config=root / "mkdocs.yml", cache=root / ".whistbook-cache", title="T", **kw)


@pytest.mark.slow
def test_an_incremental_build_equals_a_clean_one(corpus, monkeypatch):
    from whistbook.render import pdf

    first = build(_options(corpus))
    again = build(_options(corpus))
    assert again.up_to_date and again.made == 0
    hand = next((corpus / "hands" / "cavendish").glob("02-*.yaml"))
    hand.write_text(hand.read_text().replace("remark: |\n", "remark: |\n      An edited remark.\n", 1))
    rendered = []
    part_html = pdf.booklet_part_html
    monkeypatch.setattr(pdf, "booklet_part_html", lambda part, *a, **kw: rendered.append(
        (part, kw["lesson"].slug if "lesson" in kw else None)) or part_html(part, *a, **kw))
    edited = build(_options(corpus))
    assert edited.made < first.made / 2  # one lesson and a few booklet parts
    # the other lessons' parts come from the store without their HTML being made
    assert [slug for part, slug in rendered if part == "lesson"] == ["cavendish-" + hand.stem]
    clean = build(BuildOptions(**{**_options(corpus, "clean").__dict__, "cache": None}))
    inc, ref = corpus / "output", corpus / "clean"
    for page in (ref / "html").iterdir():
        assert (inc / "html" / page.name).read_bytes() == page.read_bytes(), page.name
    assert "An edited remark." in _pdf_text(inc / "whistbook.pdf")
    assert _pdf_text(inc / "whistbook.pdf") == _pdf_text(ref / "whistbook.pdf")
    assert _outline(inc / "whistbook.pdf") == _outline(ref / "whistbook.pdf")
    assert edited.pdf_pages == clean.pdf_pages


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The corpus's project built once, for the tests that take a piece of its output away."""
    root = tmp_path_factory.mktemp("built")
    shutil.copytree(HANDS / "dick", root / "hands" / "dick")
    shutil.copy(HAND_I, root / "hands")
    build(_options(root))
    return root


@pytest.mark.slow
@pytest.mark.parametrize("piece", ["html", "site", "whistbook.pdf"])
def test_an_output_deleted_is_made_again(built, piece):
    """The build goes by what is on disk, not by its records: a piece of the
    output deleted (the output folder kept) is made again."""
    out = built / "output"
    before = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    path = out / piece
    shutil.rmtree(path) if path.is_dir() else path.unlink()
    report = build(_options(built))
    assert not report.up_to_date
    assert sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file()) == before
    assert build(_options(built)).up_to_date


@pytest.mark.slow
def test_a_page_changed_in_the_output_is_made_again(built):
    page = built / "output" / "html" / "index.html"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("</body>", "<p>edited</p></body>"), encoding="utf-8")
    assert not build(_options(built)).up_to_date
    assert page.read_text(encoding="utf-8") == text


@pytest.mark.slow
def test_no_cache_makes_everything_anew(built):
    assert build(_options(built)).up_to_date
    pdf = built / "output" / "whistbook.pdf"
    was = pdf.stat().st_mtime_ns
    report = build(BuildOptions(**{**_options(built).__dict__, "cache": None}))
    assert not report.up_to_date and report.made > 0 and report.reused == 0
    assert pdf.stat().st_mtime_ns != was


@pytest.mark.slow
def test_the_booklet_in_parts_keeps_numbers_links_and_bookmarks(corpus):
    from pypdf import PdfReader

    build(_options(corpus))
    pdf = corpus / "output" / "whistbook.pdf"
    outline = _outline(pdf)
    assert [t for t, _ in outline][:2] == ["Contents", "Hand I"]
    reader = PdfReader(pdf)
    contents = reader.pages[1].extract_text()
    for title, page in outline[1:]:
        # the contents print the page (counted from 1) each bookmark points at
        if title.startswith("Hand"):
            line = next(l for l in contents.splitlines() if title in l or l.endswith(f" {page + 1}"))
            assert line.rstrip().endswith(str(page + 1)), (title, line)
        assert title.split()[0] in reader.pages[page].extract_text()
    # the running heads and page numbers are printed on every page but the cover
    assert reader.pages[0].extract_text().count("T") >= 1
    last = reader.pages[-1].extract_text()
    assert str(len(reader.pages)) in last.split()
    links = [a.get_object() for p in reader.pages[1:2] for a in p.get("/Annots") or []]
    assert len(links) >= len(outline) - 1 and all("/Dest" in a or "/A" in a for a in links)


@pytest.mark.slow
def test_a_booklet_template_with_the_back_matter_as_one_part_still_works(corpus):
    """A project's copy of booklet.html that knows the back matter as one part
    ("back", before it was laid out as three) gives the same booklet."""
    import re

    import whistbook

    default = build(BuildOptions(**{**_options(corpus, "clean").__dict__, "cache": None}))
    source = (Path(whistbook.__file__).parent / "templates" / "booklet.html").read_text(encoding="utf-8")
    old, n = re.subn(r'back or part == "(themes|principles|glossary)"', 'everything or part == "back"', source)
    assert n == 3
    (corpus / "templates").mkdir()
    (corpus / "templates" / "booklet.html").write_text(old, encoding="utf-8")
    copied = build(BuildOptions(**{**_options(corpus).__dict__, "cache": None}))
    mine, ref = corpus / "output" / "whistbook.pdf", corpus / "clean" / "whistbook.pdf"
    assert copied.pdf_pages == default.pdf_pages
    assert _pdf_text(mine) == _pdf_text(ref)
    assert [t for t, _ in _outline(mine)][-3:] == ["Lessons by theme", "Principles of play", "Glossary"]
    assert _outline(mine) == _outline(ref)


@pytest.mark.slow
def test_a_killed_build_leaves_the_old_output(corpus):
    build(_options(corpus))
    before = {p.relative_to(corpus / "output"): p.read_bytes() for p in (corpus / "output").rglob("*") if p.is_file()}
    (corpus / "hands" / "cavendish" / "extra.yaml").write_bytes(HAND_I.read_bytes().replace(b"title: Hand I", b"title: Hand XL"))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    code = ("import sys; from pathlib import Path; from whistbook.build import BuildOptions, build; "
            f"build(BuildOptions(hands=Path({str(corpus / 'hands')!r}), output=Path({str(corpus / 'output')!r}), "
            f"cache=Path({str(corpus / '.whistbook-cache')!r})), lambda m: print(m, flush=True))")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    for line in proc.stdout:
        if line.startswith("laying out the booklet"):
            break
    os.kill(proc.pid, signal.SIGKILL)  # its workers are left to notice on their own
    proc.wait()
    after = {p.relative_to(corpus / "output"): p.read_bytes() for p in (corpus / "output").rglob("*") if p.is_file()}
    assert after == before
    build(_options(corpus))  # tidies what the killed build left
    assert sorted(p.name for p in corpus.iterdir() if p.name.startswith(".output")) == []


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, ""


def _until(url: str, text: str, seconds: float = 30) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if text in _get(url)[1]:
            return time.perf_counter() - start
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not in {url} after {seconds} s")


@pytest.mark.slow
def test_serve_shows_edits_and_errors_and_refuses_to_leave_the_output(corpus):
    from whistbook.serve import serve

    ready, stop = threading.Event(), threading.Event()
    options = _options(corpus, booklet=False)
    thread = threading.Thread(target=serve, args=(options,), kwargs=dict(port=0, ready=ready, stop=stop))
    thread.start()
    try:
        assert ready.wait(120)
        base = f"http://127.0.0.1:{ready.port}"
        page = f"{base}/html/cavendish-02-trump-lead-four-moderate-trumps.html"
        status, text = _get(page)
        assert status == 200 and "Hand II" in text and "/__whistbook/changes" in text
        for bad in ("/../mkdocs.yml", "/html/../../hands/dick", "//etc/passwd"):
            conn = __import__("http.client").client.HTTPConnection("127.0.0.1", ready.port, timeout=10)
            conn.request("GET", bad)
            assert conn.getresponse().status == 404, bad
        hand = next((corpus / "hands" / "cavendish").glob("02-*.yaml"))
        good = hand.read_text()
        hand.write_text(good.replace("remark: |\n", "remark: |\n      Seen while serving.\n", 1))
        _until(page, "Seen while serving.")
        _until(f"{base}/site/lessons/cavendish-02-trump-lead-four-moderate-trumps.html", "Seen while serving.")
        hand.write_text(good.replace("turn_up:", "turn_up: XX\nold_turn_up:", 1))
        _until(page, "The build failed")
        assert "02-trump-lead-four-moderate-trumps.yaml:" in _get(page)[1]
        hand.write_text(good)
        _until(page, "Hand II")
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()


@pytest.mark.slow
def test_a_template_change_lays_the_lessons_parts_out_again(corpus):
    """A lesson's part is stored by the lesson and the book's settings, its
    templates among them: a project's override reaches every stored part."""
    import whistbook

    build(_options(corpus))
    assert "What you know after trick 1" in _pdf_text(corpus / "output" / "whistbook.pdf")
    source = (Path(whistbook.__file__).parent / "templates" / "_macros" / "lesson.html").read_text(encoding="utf-8")
    assert source.count("What you know after trick") == 2  # the printed picture's caption and the page's table
    (corpus / "templates" / "_macros").mkdir(parents=True)
    (corpus / "templates" / "_macros" / "lesson.html").write_text(
        source.replace("What you know after trick", "What you can tell after trick"), encoding="utf-8")
    again = build(_options(corpus))
    text = _pdf_text(corpus / "output" / "whistbook.pdf")
    assert "What you know after trick" not in text and text.count("What you can tell after trick") >= 10
    assert again.made >= 4  # the three hands' parts and the problem's, at least


def test_an_output_that_cannot_be_replaced_is_said_and_left_as_it_was(tmp_path, monkeypatch):
    from whistbook import output as writer

    out = tmp_path / "output"
    (out / "html").mkdir(parents=True)
    (out / "html" / "index.html").write_text("old", encoding="utf-8")
    new = writer.new_folder(out)
    real = os.replace

    def refuse(src, dst):  # the old output moved aside, the new one refused in its place
        if Path(src) == new:
            raise PermissionError(13, "Permission denied")
        return real(src, dst)

    monkeypatch.setattr(writer.os, "replace", refuse)
    with pytest.raises(ConfigError, match="cannot replace the output folder .Permission denied.*left as it was"):
        writer.write_output(new, out, {"index.html": "new"}, None, writer.Stamp("k"))
    assert (out / "html" / "index.html").read_text(encoding="utf-8") == "old"
    assert not list(tmp_path.glob(".output-old-*"))


def test_a_read_only_old_output_is_removed_after_the_swap(tmp_path):
    from whistbook import output as writer

    out = tmp_path / "output"
    (out / "html").mkdir(parents=True)
    (out / "html" / "index.html").write_text("old", encoding="utf-8")
    os.chmod(out / "html", 0o555)
    writer.write_output(writer.new_folder(out), out, {"index.html": "new"}, None, writer.Stamp("k"))
    assert (out / "html" / "index.html").read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]


@pytest.mark.slow
def test_an_edit_saved_during_a_build_is_never_left_stale(tmp_path, monkeypatch):
    """A hand file saved again after the build has read it: this build shows the
    text it read, and the next one the text saved, not the first from the store."""
    import whistbook.build as building

    (tmp_path / "hands").mkdir()
    hand = tmp_path / "hands" / HAND_I.name
    hand.write_bytes(HAND_I.read_bytes())
    read = building.lesson_jobs

    def read_then_save(files, options):
        jobs = read(files, options)
        hand.write_bytes(HAND_I.read_bytes().replace(b"title: Hand I", b"title: Hand I, saved during the build"))
        return jobs

    monkeypatch.setattr(building, "lesson_jobs", read_then_save)
    options = _options(tmp_path, booklet=False)
    build(options)
    page = tmp_path / "output" / "html" / "index.html"
    assert "saved during the build" not in page.read_text(encoding="utf-8")
    monkeypatch.setattr(building, "lesson_jobs", read)
    build(options)
    assert "saved during the build" in page.read_text(encoding="utf-8")
    hand.write_bytes(HAND_I.read_bytes())  # back to the text the first build read: its stored lesson is that text's
    build(options)
    assert "saved during the build" not in page.read_text(encoding="utf-8")
