"""Shared helpers for the rendering tests: checked hands, lessons, and
hand files changed a little from the corpus."""

from __future__ import annotations

import functools

import re
from functools import lru_cache
from pathlib import Path

from whistbook.laws import CheckedHand
from whistbook.corpus import check_hand, check_file
from whistbook.handfile import loads
from whistbook.lesson import Lesson, build_lesson

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"
HAND_I = HANDS / "cavendish" / "01-trump-lead-on-established-suit.yaml"
BOSTON = HANDS / "dick" / "02-boston-problem.yaml"

#: an attribute that would load or link to something outside the output
EXTERNAL = re.compile(r"""(?:src|href|srcset|xlink:href|data)\s*=\s*["']?\s*(?:https?:|ftp:|//|file:)""", re.I)
CSS_EXTERNAL = re.compile(r"""url\(\s*["']?\s*(?:https?:|//|file:)|@import\s+["']?(?:https?:|//)""", re.I)


@lru_cache(maxsize=None)
def checked(path: Path = HAND_I) -> CheckedHand:
    ch = check_file(path)
    assert ch.ok, [str(d) for d in ch.diagnostics]
    return ch


def judged(path: Path = HAND_I):
    """The known hand's cards judged with a small budget, once per test session."""
    return _judged(str(path))


@functools.lru_cache(maxsize=None)
def _judged(path: str):
    from whistbook.judgement import Budget, judge

    ch = checked(Path(path))
    return judge(ch, seats=[ch.hand.known_hand], budget=Budget(8, 8, 8, early_most=8))


def lesson(path: Path = HAND_I, *, inference: bool = True, analysis: bool = False, judge: bool = False) -> Lesson:
    ch = checked(path)
    explanation = rules = an = None
    if inference:
        from whistbook.inference import RULES, explain

        explanation, rules = explain(ch), RULES
    if analysis:
        from whistbook.analysis import analyse

        an = analyse(ch)
    return build_lesson(ch, explanation=explanation, analysis=an, rules=rules,
                        judgement=judged(path) if judge else None)


def hand_i_text(**changes: str) -> str:
    """Hand I's file with some lines replaced: ``changes`` maps a line's start to its new text."""
    text = HAND_I.read_text(encoding="utf-8")
    for start, new in changes.items():
        text = re.sub(rf"(?m)^{re.escape(start)}.*$", lambda m: new, text, count=1)
    return text


def hand_i_played_out() -> str:
    """Hand I with tricks 11 to 13 written out (not shown in the book) instead of a claim."""
    text = HAND_I.read_text(encoding="utf-8")
    head, _ = text.split("ending:", 1)
    return head + (
        "  - cards: 6H 8C 5S 4H\n    shown: false\n"
        "  - cards: 9D 9H 5H TC\n    shown: false\n    remark: The last diamond is good.\n"
        "  - cards: AC JH JC KC\n    shown: false\n"
        "result: AB win three by cards\n"
    )


def checked_text(text: str, name: str = "hands/test.yaml") -> CheckedHand:
    ch = check_hand(loads(text, name))
    assert ch.ok, [str(d) for d in ch.diagnostics]
    return ch


#: text a hand file or the settings could hold that would run script, link to script or fetch
#: something if it were read as HTML or Markdown anywhere (issue 27); ``ORDINARY`` must look as typed
HOSTILE = {
    "title": "<img src=x onerror=alert(1)> [a](javascript:alert(2)) ![b](http://127.0.0.1:9/b.png) <script>alert(3)</script>",
    "theme": "![c](file:///etc/passwd) [d](javascript:alert(4)) <http://127.0.0.1:9/auto> *e* <svg onload=alert(5)>",
    "source": "<iframe src=http://127.0.0.1:9/f></iframe>\n\n[s](javascript:alert(6)) ![t](//127.0.0.1:9/t.png)",
    "remark": "<img src=x onerror=alert(14)> [r](javascript:alert(15)) ![r](http://127.0.0.1:9/r.png) <http://127.0.0.1:9/>",
    "site_name": "Book <img src=x onerror=alert(7)> ![n](http://127.0.0.1:9/n.png)",
    "copyright": "<img src=x onerror=alert(8)> [c](javascript:alert(9))",
    "site_author": "\"><script>alert(10)</script>",
    "site_description": "\"><img src=x onerror=alert(11)>",
    "chapter": "<img src=x onerror=alert(12)> [ch](javascript:alert(13)) `code` #",
}
ORDINARY = "Q's & \"K\" ♠♥♦♣ — a_b *c* [d] 1. #"


def yaml_text(text: str) -> str:
    """``text`` as a YAML scalar that reads back as it is (JSON is YAML)."""
    import json

    return json.dumps(text, ensure_ascii=False)


def hostile_hand_text(title: str = HOSTILE["title"]) -> str:
    """Hand I with a hostile title, theme, source and first remark."""
    return hand_i_text(**{
        "title:": f"title: {yaml_text(title)}",
        "theme:": f"theme: {yaml_text(HOSTILE['theme'])}",
        "source:": f"source: {yaml_text(HOSTILE['source'])}",
        "    remark: |": "    remark: |\n      " + HOSTILE["remark"],  # before the remark's own words
    })
