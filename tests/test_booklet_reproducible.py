"""The booklet is the same, byte for byte, from one build to the next (in fresh
processes, with different hash seeds, so that nothing may depend on the order
of a set or on the time); and it builds without the repairs to WeasyPrint
(the gate closed, as on a WeasyPrint release they were not checked against):
the same pages and words, again the same bytes each time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from render_support import BOSTON, HAND_I, HANDS

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def _project(where: Path, hands: list[Path] | Path) -> Path:
    """A copy of the bundled book's settings and templates with these hands."""
    if isinstance(hands, Path):
        shutil.copytree(hands, where / "hands")
    else:
        (where / "hands").mkdir(parents=True)
        for hand in hands:
            shutil.copy(hand, where / "hands")
    shutil.copytree(ROOT / "templates", where / "templates")
    shutil.copy(ROOT / "mkdocs.yml", where / "mkdocs.yml")
    return where


def _booklet(project: Path, **env: str) -> bytes:
    """The booklet of a cold build in a fresh process (which says, with ``-v``, when the
    repairs are left out, and nothing else)."""
    out = subprocess.run([sys.executable, "-m", "whistbook", "build", "-q", "-v"], cwd=project,
                         capture_output=True, text=True, env={**os.environ, **env})
    assert out.returncode == 0, out.stderr
    stock = env.get("WHISTBOOK_STOCK_WEASYPRINT")
    assert out.stderr == ("whistbook: warning: WHISTBOOK_STOCK_WEASYPRINT is set: WeasyPrint lays the booklet "
                          "out without whistbook's speed repairs\n" if stock else ""), out.stderr
    return (project / "output" / "whistbook.pdf").read_bytes()


def _first_difference(a: bytes, b: bytes) -> str:
    at = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"{len(a)} and {len(b)} bytes, first differing at {at}: {a[at - 40:at + 40]!r} / {b[at - 40:at + 40]!r}"


def test_the_bundled_booklet_is_the_same_bytes_from_two_builds(tmp_path):
    first = _booklet(_project(tmp_path / "one", HANDS), PYTHONHASHSEED="1")
    second = _booklet(_project(tmp_path / "two", HANDS), PYTHONHASHSEED="2")
    assert first == second, _first_difference(first, second)


def _words(data: bytes, tmp_path: Path, name: str) -> Counter:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return Counter(out.split())


def _pages(data: bytes) -> int:
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as document:
        return len(document.pages)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext")
def test_a_book_builds_without_the_repairs_to_the_same_pages_and_words(tmp_path):
    hands = [HAND_I, HANDS / "cavendish" / "02-trump-lead-four-moderate-trumps.yaml", BOSTON]
    repaired = _booklet(_project(tmp_path / "repaired", hands))
    stock = _booklet(_project(tmp_path / "stock", hands), WHISTBOOK_STOCK_WEASYPRINT="1", PYTHONHASHSEED="1")
    again = _booklet(_project(tmp_path / "again", hands), WHISTBOOK_STOCK_WEASYPRINT="1", PYTHONHASHSEED="2")
    assert stock == again, _first_difference(stock, again)
    assert _pages(stock) == _pages(repaired) > 10
    assert _words(stock, tmp_path, "stock") == _words(repaired, tmp_path, "repaired")
