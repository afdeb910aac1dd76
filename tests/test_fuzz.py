"""Seeded fuzzing of what whistbook reads from outside (issue 27): hand files
(YAML), PBN and LIN, each mutated from real files by Hypothesis, and read the
way ``whistbook validate`` and ``whistbook import`` read them. Whatever the
mutant, the only way out is a result or a whistbook error, and every error
names the file with a line and column inside it: no traceback, nothing at a
made-up place.

The quick run tries a few hundred mutants; ``-m slow`` thousands. The example
count of either can be set with ``WHISTBOOK_FUZZ_EXAMPLES`` (the issue's 5,000
of each kind: ``WHISTBOOK_FUZZ_EXAMPLES=5000 pytest -m slow tests/test_fuzz.py``).
Hypothesis runs derandomized, so every run tries the same mutants.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from whistbook.cli import main
from whistbook.corpus import check_file
from whistbook.errors import WhistbookError

from conftest import HANDS, ROOT

EXCHANGE = ROOT / "tests" / "data" / "exchange"
_ENV = int(os.environ.get("WHISTBOOK_FUZZ_EXAMPLES", "0"))
QUICK = _ENV or 150
SLOW = _ENV or 2000

#: hand files that between them use every part of the format
YAML_SEEDS = [
    HANDS / "cavendish" / "01-trump-lead-on-established-suit.yaml",  # remarks, tallies, infer:, a claim
    HANDS / "dick" / "02-boston-problem.yaml",  # a problem: task and solutions
    HANDS / "laws" / "01-revoke-three-tricks.yaml",  # irregularities
    HANDS / "laws" / "04-exposed-card-called.yaml",
    HANDS / "clay" / "02-grand-coup.yaml",
]

#: what a mutation may put in: YAML's syntax, control characters and other line breaks,
#: numbers past every limit, deep nesting, tags, and card-like words
PIECES = [
    "\x00", "\x01", "\x07", "\x1b", "\x7f", "\x85", "\u2028", "\ufeff", "\t", "\r", "\n", "\r\n", " ",
    "\xa0", "\u2009", "\u3000", "\u200b", "\u202e",
    ":", ": ", "- ", "? ", "[", "]", "{", "}", ",", "&a ", "*a", "&", "*", "!", "!!int ", "!!str ",
    "!!python/object/apply:os.system ['true'] ", "!!binary ", "|", ">", "|-", "'", '"', "#", "%", "@", "`",
    "\\", "\\x00", "\\u0000", "---\n", "...\n", "<<: ", "~", "null", "yes", "-1", "0x1f", "1e400", ".nan",
    "9" * 5000, "1" * 40, "[" * 1200, "{a: " * 60, "- " * 200, "\n" + "  " * 120 + "- x", "a" * 3000,
    "2S", "AD", "10H", "TC", "♠", "♥", "K♦", "{KH}", "[x](javascript:alert(1))", "<img src=x onerror=alert(1)>",
    "💥", "\u0301", "\ud7ff", "AB", "YZ", "A", "Y", "B", "Z", "love", "thirteen", "shown: false",
    "tally: 9-9", "claim: {AB: 13}", "leader: Y", "revoke: {card: 2S, penalty: tricks}",
]


@dataclass(frozen=True)
class Edit:
    kind: str
    at: int
    size: int
    piece: str

    def apply(self, text: str) -> str:
        n = len(text)
        i = self.at % (n + 1)
        j = min(n, i + self.size)
        if self.kind == "insert":
            return text[:i] + self.piece + text[i:]
        if self.kind == "replace":
            return text[:i] + self.piece + text[j:]
        if self.kind == "delete":
            return text[:i] + text[j:]
        if self.kind == "duplicate":
            return text[:j] + text[i:j] + text[j:]
        lines = text.split("\n")
        k, m = self.at % len(lines), (self.at + self.size) % len(lines)
        if self.kind == "swap_lines":
            lines[k], lines[m] = lines[m], lines[k]
        elif self.kind == "repeat_line":
            lines[k:k] = [lines[k]] * min(self.size, 50)
        elif self.kind == "drop_line":
            del lines[k]
        elif self.kind == "indent":
            lines[k] = " " * (self.size % 9) + lines[k].lstrip(" ")
        elif self.kind == "word":
            words = list(re.finditer(r"[^\s:,\[\]{}]+", text))
            if words:
                w = words[self.at % len(words)]
                return text[:w.start()] + self.piece + text[w.end():]
        return "\n".join(lines)


KINDS = ["insert", "replace", "delete", "duplicate", "swap_lines", "repeat_line", "drop_line", "indent", "word"]
EDITS = st.builds(Edit, st.sampled_from(KINDS), st.integers(0, 1 << 20), st.integers(0, 40),
                  st.one_of(st.sampled_from(PIECES), st.text(max_size=6)))
#: a byte flipped or inserted after encoding: text that is not UTF-8
BYTE_EDITS = st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255), st.booleans()), max_size=2)


def mutant(text: str, edits: list[Edit], byte_edits: list[tuple[int, int, bool]]) -> bytes:
    for e in edits:
        text = e.apply(text)
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for at, value, insert in byte_edits:
        i = at % (len(data) + 1)
        if insert or i == len(data):
            data[i:i] = bytes([value])
        else:
            data[i] = value
    return bytes(data)


def _located(message: str, path: Path, data: bytes) -> None:
    """``message`` starts ``path:line:column:``, at a place inside the file."""
    m = re.match(re.escape(str(path)) + r":(\d+):(\d+): ", message)
    assert m, f"not located in {path}: {message!r}"
    line, column = int(m.group(1)), int(m.group(2))

    def inside(lines: list[bytes]) -> bool:
        # a column may point one past a line's end (an unclosed bracket, a missing value)
        return 1 <= line <= len(lines) + 1 and column >= 1 and (
            line > len(lines) or column <= len(lines[line - 1].decode("utf-8", "replace")) + 2)

    # lines as an editor counts them; a lone carriage return ends one for YAML, not for PBN or LIN
    assert inside(re.split(rb"\r\n|\r|\n", data)) or inside(data.split(b"\n")), message


def check_hand_file(path: Path, data: bytes) -> None:
    """What ``validate`` does with the file (without the solver): every error located."""
    from whistbook.inference.statements import check_stated

    path.write_bytes(data)
    try:
        checked = check_file(path, solver=False)
        checked.diagnostics.extend(check_stated(checked))  # the infer: lines, as validate checks them
    except WhistbookError as err:  # what the command line would print
        _located(str(err), path, data)
        return
    for d in checked.diagnostics:
        assert d.loc is not None, d
        _located(str(d), path, data)


def check_import(path: Path, data: bytes, out: Path) -> None:
    """What ``import`` does with the file: every problem located in it, a summary, and
    hand files that validate for the boards it took."""
    path.write_bytes(data)
    for old in out.glob("*"):
        old.unlink()
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main(["import", str(path), "-o", str(out), "--force"])
    lines = stderr.getvalue().splitlines()
    assert code in (0, 1), (code, lines)
    located = [line for line in lines if not (line.startswith("whistbook: ") and not line.startswith("whistbook: error"))]
    for line in located:  # the others are the summary and the progress
        _located(line, path, data)
    assert code == 0 or any(": error: " in line for line in located), lines
    for hand in sorted(out.glob("*.yaml")):
        checked = check_file(hand, solver=False)
        assert checked.ok, [str(d) for d in checked.diagnostics]


@functools.lru_cache(maxsize=None)
def _exchange_seeds(suffix: str) -> list[str]:
    """The test data's files, and corpus hands written out by ``export`` (with their remarks)."""
    from whistbook.exchange import write
    from whistbook.exchange.record import from_checked

    texts = [p.read_text(encoding="utf-8") for p in sorted(EXCHANGE.glob(f"*{suffix}"))]
    hands = [check_file(p, solver=False) for p in YAML_SEEDS[:1] + sorted((HANDS / "cavendish").glob("0[3-4]-*.yaml"))]
    texts.append(write([from_checked(h) for h in hands], suffix[1:]))
    return texts


# no shrinking: a mutant is a few edits, readable as found, and shrinking one takes minutes
_SETTINGS = dict(derandomize=True, database=None, deadline=None, print_blob=True,
                 phases=(Phase.explicit, Phase.reuse, Phase.generate),
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])


def _yaml_test(examples: int):
    @settings(max_examples=examples, **_SETTINGS)
    @given(seed=st.sampled_from(YAML_SEEDS), edits=st.lists(EDITS, min_size=1, max_size=4), raw=BYTE_EDITS)
    def run(tmp_path, seed, edits, raw):
        text = seed.read_text(encoding="utf-8")
        check_hand_file(tmp_path / "mutant.yaml", mutant(text, edits, raw if len(edits) % 3 == 0 else []))
    return run


def _exchange_test(suffix: str, examples: int):
    @settings(max_examples=examples, **_SETTINGS)
    @given(seed=st.integers(0, 63), edits=st.lists(EDITS, min_size=1, max_size=3), raw=BYTE_EDITS)
    def run(tmp_path, seed, edits, raw):
        seeds = _exchange_seeds(suffix)  # made once, when first needed
        out = tmp_path / "out"
        out.mkdir(exist_ok=True)
        text = seeds[seed % len(seeds)]
        check_import(tmp_path / f"mutant{suffix}", mutant(text, edits, raw if len(edits) == 3 else []), out)
    return run


test_mutated_hand_files = _yaml_test(QUICK)
test_mutated_pbn = _exchange_test(".pbn", QUICK // 3)
test_mutated_lin = _exchange_test(".lin", QUICK // 3)
test_many_mutated_hand_files = pytest.mark.slow(_yaml_test(SLOW))
test_many_mutated_pbn = pytest.mark.slow(_exchange_test(".pbn", SLOW))
test_many_mutated_lin = pytest.mark.slow(_exchange_test(".lin", SLOW))
