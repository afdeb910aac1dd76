"""Our own words: the prose of the hand files against the seed books.

Every remark, editor's note, account, erratum reason, file note, theme,
task and solution account is compared with the text of the four seed books
(``../shared/seeds``; skipped where it is absent). A run of ten or more
consecutive words shared with a book is a copied sentence and fails the
test; runs of eight or nine words are allowed only a handful of times in the
whole corpus, where a short description of play can hardly be put another
way. Runs made mostly of card names, seats and numbers are lists of cards,
which are facts, and do not count.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import HANDS, ROOT, SEEDS
from whistbook.corpus import find_hand_files
from whistbook.handfile import load

#: the shortest run of shared words that is reported
SHORTEST = 8
#: runs this long or longer fail the test outright
COPIED = 10
#: how many 8- and 9-word runs the whole corpus may have
HANDFUL = 5

#: Words that make up lists of cards and scores: a run mostly of these is a
#: statement of fact (who played what), which may coincide with the book.
_CARD_WORDS = frozenset(
    "a y b z ab yz ace king queen knave kg qn knv k q j t ten nine eight seven six five four three two "
    "deuce 2 3 4 5 6 7 8 9 10 of the and spades hearts diamonds clubs spade heart diamond club trumps "
    "trump trick tricks".split())

#: Stock phrases of the game, too short to say another way (each under eight words on its own, but
#: they can join a neighbouring phrase into a run): the score and the result as the book states them.
STOCK = (
    "win two by cards and the game",
    "win three by cards and the game",
    "win the odd trick and the game",
)

pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed books are not beside the project")


def _words(text: str) -> list[str]:
    text = re.sub(r"\{(10|[2-9TJQKA])?([SHDC])\}", r" \1 \2 ", text)  # {KH} -> K H
    return re.findall(r"[a-z0-9]+", text.lower().replace("’", "'").replace("'", ""))


def _seed_grams() -> set[tuple[str, ...]]:
    grams: set[tuple[str, ...]] = set()
    for path in sorted(SEEDS.glob("*.txt")):
        words = _words(path.read_text(encoding="utf-8", errors="replace"))
        grams.update(zip(*(words[i:] for i in range(SHORTEST))))
    return grams


def _prose(path: Path) -> list[tuple[str, str]]:
    """(where, text) for every piece of prose in a hand file."""
    hf = load(path)
    out = [("theme", hf.theme or ""), ("notes", hf.notes or "")]
    for t in hf.tricks:
        out += [(f"trick {t.number} remark", t.remark or ""), (f"trick {t.number} note", t.note or "")]
    if hf.ending is not None:
        out += [("ending account", hf.ending.account or ""), ("ending note", hf.ending.note or "")]
    out += [(f"erratum (trick {e.trick})", e.reason) for e in hf.errata]
    if hf.task is not None:
        out.append(("task", hf.task.text))
    out += [(f"solution {s.title}", s.account or "") for s in hf.solutions]
    return [(where, text) for where, text in out if text]


def shared_runs(text: str, grams: set[tuple[str, ...]]) -> list[str]:
    """The runs of SHORTEST or more consecutive words of ``text`` found in the seeds."""
    words = _words(text)
    for stock in STOCK:  # stock phrases do not count towards a run
        stock_words = _words(stock)
        for i in range(len(words) - len(stock_words) + 1):
            if words[i:i + len(stock_words)] == stock_words:
                words[i:i + len(stock_words)] = ["\0"] * len(stock_words)
    hits = [tuple(words[i:i + SHORTEST]) in grams for i in range(len(words) - SHORTEST + 1)]
    runs, i = [], 0
    while i < len(hits):
        if not hits[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(hits) and hits[j + 1]:
            j += 1
        run = words[i:j + SHORTEST]
        if sum(w in _CARD_WORDS for w in run) * 2 <= len(run):
            runs.append(" ".join(run))
        i = j + 1
    return runs


@pytest.fixture(scope="module")
def runs() -> list[tuple[str, str, str]]:
    grams = _seed_grams()
    out = []
    for path in find_hand_files([HANDS]):
        for where, text in _prose(path):
            for run in shared_runs(text, grams):
                out.append((path.relative_to(ROOT).as_posix(), where, run))
    return out


def test_no_sentence_is_copied_from_the_books(runs):
    copied = [r for r in runs if len(r[2].split()) >= COPIED]
    assert copied == [], "\n".join(f"{p}: {w}: {run!r}" for p, w, run in copied)


def test_only_a_handful_of_short_runs_are_shared_with_the_books(runs):
    short = [r for r in runs if len(r[2].split()) < COPIED]
    assert len(short) <= HANDFUL, "\n".join(f"{p}: {w}: {run!r}" for p, w, run in short)


def test_the_scan_finds_a_copied_sentence():
    """The scan itself: a sentence lifted from Part II is found, and the same
    idea in other words is not."""
    book = (SEEDS / "003_eafd0ecd4c7a8790.txt").read_text(encoding="utf-8")
    words = _words(book[book.index("PART II. HANDS."):])
    lifted = " ".join(words[400:414])
    grams = _seed_grams()
    assert [len(r.split()) for r in shared_runs(f"He said that {lifted} and more.", grams)] == [14]
    assert shared_runs("A leads his longest suit, and B wins cheaply with the lower of two cards.", grams) == []
