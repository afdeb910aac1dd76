"""The book's verdicts on cards (tests/data/book_verdicts.yaml) against our hand files.

Each entry names a card the book praises or blames at a trick of a hand file. If a
transcription or an entry is wrong, the seat did not play that card there, or the
card the book prefers was not one the seat could play, and the test says which.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from book_verdicts import BookVerdict, load_book_verdicts, position
from whistbook import Card
from conftest import SEEDS
from test_prose_overlap import _seed_grams, shared_runs

ENTRIES = load_book_verdicts()


def _id(v: BookVerdict) -> str:
    return v.key


def test_entries_are_distinct_and_complete():
    keys = Counter(v.key for v in ENTRIES)
    assert [k for k, n in keys.items() if n > 1] == []
    counts = Counter(v.verdict for v in ENTRIES)
    assert counts["blamed"] > 0 and counts["praised"] > 0
    for v in ENTRIES:
        # a better card belongs to a play the book finds fault with or leaves open
        assert not (v.better and v.verdict in ("praised", "excused")), v.key
        assert not (v.worse and v.verdict == "blamed"), v.key
        assert v.card not in v.better + v.worse, v.key


@pytest.mark.parametrize("v", ENTRIES, ids=_id)
def test_card_is_the_one_played(v: BookVerdict):
    pos = position(v)
    if pos.played is not None:
        assert pos.played == v.card, f"{v.key}: the file has {v.seat.name} play {pos.played}, not {v.card}"
    assert pos.legal(v.card), f"{v.key}: {v.card} is not a legal play for {v.seat.name} there"
    for alt in v.better + v.worse:
        held = sorted(map(str, pos.held))
        assert pos.legal(alt), f"{v.key}: {alt} was not a legal play for {v.seat.name} (held {held})"


def test_a_wrong_entry_would_be_caught():
    """The checks above can fail: a card not played, a revoke, a trick the file does not reach."""
    v = next(e for e in ENTRIES if e.key == "XXXII-t8-A")  # A throws the king under Z's ace of diamonds
    pos = position(v)
    assert pos.played == v.card == Card.parse("KD")
    assert position(dataclasses.replace(v, card=Card.parse("4D"))).played != Card.parse("4D")
    assert pos.legal(Card.parse("4D"))
    assert not pos.legal(Card.parse("JS"))  # held, but A must follow to the diamond
    assert not pos.legal(Card.parse("AS"))  # not A's card
    with pytest.raises(ValueError, match="not trick 12"):
        position(dataclasses.replace(v, trick=12, ending=True))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed books are not beside the project")
def test_the_book_says_it_there():
    texts = {}
    for v in ENTRIES:
        text = texts.setdefault(v.seed, (SEEDS / v.seed).read_text(encoding="utf-8", errors="replace"))
        near = " ".join(text[v.offset:v.offset + 900].split()).lower()
        assert v.says.lower() in near, f"{v.key}: {v.says!r} not found at offset {v.offset} of {v.seed}"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed books are not beside the project")
def test_summaries_are_in_our_own_words():
    grams = _seed_grams()
    copied = {v.key: runs for v in ENTRIES if (runs := shared_runs(v.summary + " " + v.principle, grams))}
    assert copied == {}
