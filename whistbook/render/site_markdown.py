"""The site's raw HTML blocks set aside without parsing them twice.

A lesson's page on the site is Markdown around large blocks of raw HTML
(the templates' ``html_block`` filter). Python-Markdown finds a raw block's
end by running ``html.parser`` over the whole page, and ProperDocs runs it
over the page once more to collect the anchors that links may point to:
together most of the site's build. This extension (added by
:func:`whistbook.render.site.site_config`) does both jobs on pages made only
of blocks a simple scan reads exactly as ``html.parser`` would, and leaves
every other page to them untouched.

Such a page is a sequence of chunks separated by blank lines, each either
Markdown without ``<`` or one HTML element from its first line's first
character to its last line's last: a block-level start tag, then tags of a
plain form (double-quoted attribute values, no comments or declarations),
entity and character references ended by ``;``, and text, with the tags
first opened closing last. For each element the scan stores what
``markdown.htmlparser.HTMLExtractor`` would store (the chunk's text and the
newline of the blank line after it) and leaves its placeholder where the
extractor would; ProperDocs is given the ids (and ``<a name>``) its own
parser would find. A page comes out byte for byte as without this
extension, with the same anchors (``tests/test_render_site_markdown.py``
converts pages both ways; the bundled book's whole site was built both ways
and compared when this was written, see docs/speed-history.md, "Outside the
booklet").
"""

from __future__ import annotations

import html
import re
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

#: each ``<`` and ``&`` of a chunk: a start tag (``name``, ``attrs``, ``close``), an end tag
#: (``end``), a reference html.parser gives back as it was written, or anything else (``bad``)
_TOKEN = re.compile(r"""
    <(?P<name>[a-zA-Z][a-zA-Z0-9-]*)(?P<attrs>(?:[ \n]+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"<>`]*")?)*)[ \n]*(?P<close>/?)>
  | </(?P<end>[a-zA-Z][a-zA-Z0-9-]*)[ \n]*>
  | &(?:\#[0-9]+|\#[xX][0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);
  | (?P<bad>[<&])
""", re.VERBOSE)
_ATTR = re.compile(r'([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?')
#: elements whose content a parser reads as text (Python's versions differ on which): only plain text is scanned
_RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"})
#: elements the extractor takes as complete without an end tag
_EMPTY = frozenset({"hr"})


def _element(md: Markdown, chunk: str, ids: set[str | None]) -> bool:
    """True if ``chunk`` (which starts with ``<``) is one HTML element the scan
    reads exactly as the extractor would (its ids added to ``ids``), False to
    leave the page alone."""
    stack: list[str] = []
    raw_text = ""  # the element whose text runs to its end tag
    for tok in _TOKEN.finditer(chunk):
        end = tok["end"]
        if raw_text and (end is None or end.lower() != raw_text):
            return False
        raw_text = ""
        if tok["bad"] is not None:
            return False
        if end is not None:
            name = end.lower()
            if name in stack:
                while stack.pop() != name:
                    pass
                if not stack:
                    return tok.end() == len(chunk)  # closed at the chunk's end, not before
            elif not stack:
                return False  # an end tag first
            continue
        name = tok["name"]
        if name is None:
            continue  # a reference
        name = name.lower()
        if not stack and not md.is_block_level(name):
            return False
        attrs = tok["attrs"]
        if attrs and ("id" in attrs.lower() or name == "a"):
            for attr in _ATTR.finditer(attrs):
                key = attr[1].lower()
                if key == "id" or (key == "name" and name == "a"):
                    value = attr[2]  # None for an attribute without a value, as html.parser gives it
                    ids.add(html.unescape(value) if value else value)
        if tok["close"] or name in _EMPTY:
            if not stack:
                return False  # an empty element on its own: the extractor keeps it otherwise
            continue
        if name == "plaintext":
            return False
        stack.append(name)
        if name in _RAW_TEXT:
            raw_text = name
    return False  # never closed


class RawBlocks(Preprocessor):
    """Sets a page's raw HTML blocks aside as the extractor would, when every
    one of them reads plainly (see the module's docstring)."""

    def __init__(self, md: Markdown) -> None:
        super().__init__(md)
        #: the ids in the blocks set aside, and how many blocks that was (in the last page)
        self.ids: set[str | None] = set()
        self.count = 0

    def run(self, lines: list[str]) -> list[str]:
        self.ids, self.count = set(), 0
        chunks = "\n".join(lines).split("\n\n")
        ids: set[str | None] = set()
        html_chunks = []
        for k, chunk in enumerate(chunks):
            if chunk.startswith("<"):
                if k == len(chunks) - 1 or not _element(self.md, chunk, ids):  # the last has no blank line after it
                    return lines
                html_chunks.append(k)
            elif "<" in chunk:
                return lines
        for k in html_chunks:
            # what HTMLExtractor leaves: a newline, the placeholder and a blank line; the
            # block keeps the newline of the blank line after it
            chunks[k] = "\n" + self.md.htmlStash.store(chunks[k] + "\n") + "\n\n"
        self.ids, self.count = ids, len(html_chunks)
        return "\n\n".join(chunks).split("\n")


class _AnchorIds(Postprocessor):
    """Gives ProperDocs the ids of the blocks set aside, which its own parser no longer sees."""

    def __init__(self, md: Markdown, blocks: RawBlocks) -> None:
        super().__init__(md)
        self.blocks = blocks

    def run(self, text: str) -> str:
        try:
            collector: Any = self.md.preprocessors["properdocs_raw_html"]
        except KeyError:  # plain Markdown, not ProperDocs
            return text
        collector.present_anchor_ids.update(self.blocks.ids)
        return text


class RawHtmlBlocks(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Markdown's name
        blocks = RawBlocks(md)
        # after the fenced code blocks (25), before ProperDocs' anchors (21) and the extractor (20)
        md.preprocessors.register(blocks, "whistbook_raw_blocks", 22)
        md.postprocessors.register(_AnchorIds(md, blocks), "whistbook_anchor_ids", 0)


def makeExtension(**kwargs: Any) -> RawHtmlBlocks:  # noqa: N802 - Markdown's name
    return RawHtmlBlocks(**kwargs)
