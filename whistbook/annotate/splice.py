"""Draft remarks written into a hand file's text, and nothing else changed.

A round-trip YAML library rewrites a document from its tree: ruamel.yaml, the
usual choice, keeps comments on block mappings but drops those inside a list
written over several lines (the bundled problems' solution lines are written
so), and it lays every list out with one indentation, whatever the author
used. So the drafts are spliced into the text instead, at places the parser
locates (:func:`whistbook.yamlnodes.compose`): each new ``remark_draft`` goes
in as lines of its own, and a trick written as a bare list of cards gains the
key ``cards:`` in front of them. Every byte of the file that was there stays
there, comments and layout included.
"""

from __future__ import annotations

import json
import textwrap
from typing import Mapping

import yaml

from ..errors import WhistbookError
from ..yamlnodes import compose

#: the key a draft is written under, and the keys it goes after (a trick's own facts)
DRAFT_KEY = "remark_draft"
_BEFORE_DRAFT = {"cards", "shown", "tally", "leader", "winner"}
#: the width a draft's lines are wrapped to
WIDTH = 88


class Unplaceable(WhistbookError):
    """A trick written in a form a draft cannot be spliced into (a bare block list)."""


def splice(text: str, drafts: Mapping[int, str], path: str = "<string>") -> str:
    """``text`` with ``drafts`` (trick index -> Markdown) added as ``remark_draft``
    keys; tricks that already have a remark or a draft are the caller's to leave out.

    :raises Unplaceable: for a trick whose form leaves no place for the key.
    """
    root = compose(text, path)
    tricks = _tricks_node(root)
    edits: list[tuple[int, int, str]] = []  # (start, end, new text), applied from the end
    for index, draft in sorted(drafts.items()):
        node = tricks.value[index]
        edits.extend(_edits(text, node, draft, index))
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _tricks_node(root: yaml.Node | None) -> yaml.SequenceNode:
    if isinstance(root, yaml.MappingNode):
        for k, v in root.value:
            if isinstance(k, yaml.ScalarNode) and k.value == "tricks" and isinstance(v, yaml.SequenceNode):
                return v
    raise Unplaceable("the file has no list of tricks to write drafts into")


def _edits(text: str, node: yaml.Node, draft: str, index: int) -> list[tuple[int, int, str]]:
    if isinstance(node, yaml.MappingNode) and node.flow_style:
        close = node.end_mark.index - 1  # the '}'
        return [(close, close, f", {DRAFT_KEY}: {json.dumps(draft.strip(), ensure_ascii=False)}")]
    if isinstance(node, yaml.MappingNode):
        column = node.value[0][0].start_mark.column if node.value else node.start_mark.column
        facts = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value in _BEFORE_DRAFT]
        # after the trick's own facts (the loader asks for its cards); a comment between them and
        # the next key stays with that key
        at = _next_line(text, _content_end(facts[-1] if facts else node.value[-1][1]))
        return [(at, at, _block(draft, column, text, at))]
    if isinstance(node, yaml.ScalarNode) or (isinstance(node, yaml.SequenceNode) and node.flow_style):
        column = node.start_mark.column
        at = _next_line(text, _content_end(node))
        start = node.start_mark.index
        return [(start, start, "cards: "), (at, at, _block(draft, column, text, at))]
    raise Unplaceable(f"trick {index + 1} is a list of cards over several lines: write it as 'cards: ...' "
                      "to have a draft written under it")


def _content_end(node: yaml.Node) -> int:
    """Where a node's own text ends: a block collection's end mark lies past the
    comments and blank lines after its last item, which belong to what follows."""
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        return node.end_mark.index
    if isinstance(node, (yaml.SequenceNode, yaml.MappingNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        return _content_end(last[1] if isinstance(last, tuple) else last)
    return node.end_mark.index


def _next_line(text: str, index: int) -> int:
    """The start of the line after the one holding ``index - 1`` (the node's last
    character), or the end of the text; a block scalar already ends at one."""
    if index > 0 and text[index - 1] == "\n":
        return index
    nl = text.find("\n", index)
    return len(text) if nl < 0 else nl + 1


def _block(draft: str, column: int, text: str, at: int) -> str:
    """The draft as a literal block under its key, indented at ``column``."""
    pad = " " * column
    lines = [f"{pad}{DRAFT_KEY}: |"]
    for k, para in enumerate(p for p in draft.strip().split("\n\n") if p.strip()):
        if k:
            lines.append("")
        glued = " ".join(para.split()).replace("p. ", "p.\0")  # a page reference is not broken at its space
        lines += [line.replace("\0", " ") for line in textwrap.wrap(
            glued, WIDTH - column - 2, initial_indent=pad + "  ", subsequent_indent=pad + "  ",
            break_on_hyphens=False, break_long_words=False)]
    block = "\n".join(lines) + "\n"
    return ("\n" if at == len(text) and text and not text.endswith("\n") else "") + block
