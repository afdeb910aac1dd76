"""The hand-file composer: libyaml's tree, where it is used, is the pure loader's to the last mark.

``yamlnodes.compose`` composes with libyaml (``yaml.CSafeLoader``) for speed, and every location the
loader reports comes from the nodes' marks, so the tree must be the pure-Python loader's exactly:
every node's kind, tag, value, style and start and end (line, column and index). Texts where the
two are known to differ, and every text libyaml refuses, go to the pure loader.
"""

from __future__ import annotations

import pytest
import yaml

from conftest import ROOT
from whistbook import yamlnodes
from whistbook.errors import YamlSyntaxError

needs_libyaml = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without libyaml")


def tree(node: yaml.Node | None) -> list | None:
    """Everything the loader could read from a node tree, in order (an alias as the index of its node)."""
    if node is None:
        return None
    out: list = []
    seen: dict[int, int] = {}

    def walk(n: yaml.Node) -> None:
        if id(n) in seen:
            out.append(("alias", seen[id(n)]))
            return
        seen[id(n)] = len(seen)
        marks = tuple((m.line, m.column, m.index) for m in (n.start_mark, n.end_mark))
        if isinstance(n, yaml.ScalarNode):
            out.append(("scalar", n.tag, n.value, n.style, marks))
        elif isinstance(n, yaml.SequenceNode):
            out.append(("sequence", n.tag, n.flow_style, marks, len(n.value)))
            for kid in n.value:
                walk(kid)
        else:
            out.append(("mapping", n.tag, n.flow_style, marks, len(n.value)))
            for k, v in n.value:
                walk(k)
                walk(v)

    walk(node)
    return out


def pure(text: str) -> list | None:
    return tree(yaml.compose(text, Loader=yamlnodes._Loader))


def outcome(compose, text: str):
    """The tree, or the error's message and place."""
    try:
        return tree(compose(text, "h.yaml"))
    except YamlSyntaxError as err:
        return ("error", str(err))


def pure_outcome(text: str):
    saved = yamlnodes._FAST_LOADER
    yamlnodes._FAST_LOADER = None
    try:
        return outcome(yamlnodes.compose, text)
    finally:
        yamlnodes._FAST_LOADER = saved


YAML_FILES = sorted(p for pattern in ("hands/**/*.yaml", "tests/**/*.yaml", "tests/**/*.yml", "whistbook/**/*.yml")
                    for p in ROOT.glob(pattern))


@needs_libyaml
@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_composes_to_the_pure_loaders_tree(path):
    text = path.read_text(encoding="utf-8")
    assert yamlnodes._compose_fast(text) is not yamlnodes._UNSURE, "the fast path should take the project's own files"
    assert tree(yamlnodes.compose(text, str(path))) == pure(text)


# Texts the fast path takes: each mended or checked difference, and the shapes hand files use.
TAKEN = {
    "no final line break": "title: T\ntricks:\n  - 2D 4D QD AD\n  - [5C, 3C]",
    "no final break after a comment": "a: 1\n# last",
    "trailing spaces at the end": "a:\n  - b   ",
    "CRLF line breaks": "a: 1\r\nb:\r\n  - x\r\n  - y\r\n",
    "CRLF and no final break": "a: 1\r\nb: |\r\n  text\r\n  more",
    "lone CR": "a: 1\rb: 2\r",
    "non-ASCII columns": "deal:\n  A: ♠ Q T 5 3  ♥ A  ♣ A 7 6 3  ♦ K J 9 2\n  note: «é» 😀 x\n  y: [é, 😀]\n",
    "astral characters before a flow": "t: 😀😀\nx: {AB: 6, YZ: 7}\n",
    "block scalars": "a: |\n  one\n  two\n\nb: >-\n  folded\n  text\nc: |+\n  kept\n\n\nd: |2\n    indented\n",
    "block scalar at the end": "a: |\n  one\n  two",
    "quoted scalars over lines": "a: \"one\n  two\\\n  three\"\nb: 'it''s\n\n  new'\n",
    "plain scalar over lines": "remark: Cavendish leads\n  the king, which\n\n  shows the queen\nx: 1\n",
    "sequence level with its key": "tricks:\n- 2D 4D QD AD\n- cards: 7H QH 3H AH\n  infer:\n  - A holds KS\n",
    "sequence level with a nested key": "- infer:\n  - a\n  b: c\n-   k:\n    - d\n",
    "explicit keys": "? a\n: b\n? - x\n: - y\n",
    "empty values": "a:\nb: ~\nc: null\nd: ''\ne:\n",
    "flow collections": "a: [1, [2, 3], {b: c}]\nd: {AB: 6}\ne: []\nf: {}\n",
    "comments everywhere": "# head\na: 1  # one\n# mid\nb:   # two\n  - x # three\n",
    "document markers": "---\na: 1\n...\n",
    "a directive": "%YAML 1.1\n---\na: 1\n",
    "only a scalar": "just text",
    "nothing": "",
    "only a comment": "# nothing here",
}


@needs_libyaml
@pytest.mark.parametrize("text", list(TAKEN.values()), ids=list(TAKEN))
def test_texts_the_fast_path_takes_compose_alike(text):
    assert yamlnodes._compose_fast(text) is not yamlnodes._UNSURE
    assert outcome(yamlnodes.compose, text) == pure_outcome(text)


# Texts where libyaml and the pure loader part ways: these must go to the pure loader.
UNSURE = {
    "a tab libyaml lets through": "a: {AB: 6\t}\n",
    "a tab in a card list": "- cards: JS \tJH 6C 9S\n",
    "a byte-order mark inside": "a: \"x\ufeffy\"\n",
    "a next-line character": "a:\n\x85  - b\n",
    "a line separator": "a: b\u2028c\n",
    "a comment right after a block header": "a: |1#c\n  b\n",
    "a ? inside a flow scalar": "tags: [leads, tru?mps]\n",
    "a : inside a flow scalar": "x: {a:b: c}\n",
    "the non-specific tag": "a: !\n",
    "a tag libyaml takes": "!a?b x\n",
    "an anchor": "a: &x 1\nb: *x\n",
    "an anchor before a sequence level with its key": "a:\n&x\n- b\n",
    "libyaml refuses it": "a: [unclosed\n",
    "an empty value in a flow mapping": "- {cards: 2D 4D, tally:   }\n",
    "an empty value, the brace on the next line": "a: {b:\n  }\n",
    "an empty value before another": "a: {b: , c: 1}\n",
    "an empty key in a flow mapping": "a: {? }\n",
    "an empty value in a flow sequence": "a: [b:   , c]\n",
}


@needs_libyaml
@pytest.mark.parametrize("text", list(UNSURE.values()), ids=list(UNSURE))
def test_texts_where_the_loaders_differ_go_to_the_pure_loader(text):
    assert yamlnodes._compose_fast(text) is yamlnodes._UNSURE
    assert outcome(yamlnodes.compose, text) == pure_outcome(text)


@pytest.mark.parametrize("text", [
    "title: [unclosed\n", "a: b: c\n", "a:\n  - b\n c\n", "a: 'open\n", "a: |0\n  x\n", "{a: 1\n", "- a\nb: c\n",
    "a: 1\na: {", "x: \"\\q\"\n", "a: *nowhere\n", "--- a\n--- b\n",
])
def test_errors_are_the_pure_loaders(text):
    got = outcome(yamlnodes.compose, text)
    assert got[0] == "error"
    assert got == pure_outcome(text)


def test_without_libyaml_the_pure_loader_composes(monkeypatch):
    monkeypatch.setattr(yamlnodes, "_FAST_LOADER", None)
    text = TAKEN["no final line break"]
    assert yamlnodes._compose_fast(text) is yamlnodes._UNSURE
    assert tree(yamlnodes.compose(text, "h.yaml")) == pure(text)


# Single corruptions of the corpus files, of the kinds an author's slip makes and a few more.
_INSERTS = [":", "-", "#", '"', "'", "\t", "|", ">", "[", "]", "{", "}", ",", "&", "*", "!", "%", "@", "`", "?", "\r",
            "\n", " ", "é", "\u2028", "\x85", "\ufeff", "😀", "\r\n", "  ", "- ", ": ", " #", "|-", ">+", "---", "!!str "]


def _corrupted(rng, texts: list[str]) -> str:
    text = rng.choice(texts)
    for _ in range(rng.choice([1, 1, 2, 3])):
        i = rng.randrange(len(text) + 1)
        kind = rng.random()
        if kind < 0.5:
            text = text[:i] + rng.choice(_INSERTS) + text[i:]
        elif kind < 0.75:
            text = text[:i] + text[i + rng.randint(1, 5):]
        elif kind < 0.9:
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines[k] = rng.choice(["", " ", "  "]) + lines[k]
            text = "\n".join(lines)
        else:
            text = text[:i]
    return text.rstrip("\n") if rng.random() < 0.3 else text


def _compare_corruptions(count: int, seed: int) -> None:
    import random

    rng = random.Random(seed)
    texts = [p.read_text(encoding="utf-8") for p in YAML_FILES if p.parts[-3:-1] != ("tests", "data")]
    taken = 0
    for _ in range(count):
        text = _corrupted(rng, texts)
        taken += yamlnodes._compose_fast(text) is not yamlnodes._UNSURE
        assert outcome(yamlnodes.compose, text) == pure_outcome(text), repr(text)
    assert taken > count // 5  # the fast path is still taken for most texts that compose


@needs_libyaml
def test_corrupted_files_compose_alike():
    _compare_corruptions(60, seed=14)


@needs_libyaml
@pytest.mark.slow
def test_many_corrupted_files_compose_alike():
    _compare_corruptions(2000, seed=1414)
