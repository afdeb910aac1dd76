"""Repair: the booklet's HTML read into a tree faster than WeasyPrint reads it.

WeasyPrint reads each part's HTML with tinyhtml5, an HTML5 parser in pure
Python that looks at the text a character at a time: about a second of
processor time for the booklet's parts. Our templates write regular HTML:
every element closed, properly nested, no tables. For such a document the
HTML5 tree-building rules do nothing but open and close elements, and the
tree can be made by a handful of regular expressions and ElementTree's
``TreeBuilder`` (both in C).

:func:`parse` accepts only a document in a strict subset it can vouch for,
and gives for it exactly the tree tinyhtml5 gives (``namespace_html_elements
=False``): the same tags, attributes in the same order, text and tails,
comments where tinyhtml5 puts them. It answers ``None`` for anything else,
and tinyhtml5 reads it. The subset (each rule keeps out a case where the HTML5
rules would add, move, drop or rename something):

- ``<!doctype html>``, then ``<html>``, ``<head>``, ``</head>``, ``<body>``,
  ``</body>``, ``</html>``, each once and in that order, with nothing but
  whitespace (spaces, tabs, line feeds) and comments between them;
- the head holds only ``meta``, ``link``, ``base``, ``title``, ``style`` and
  ``script`` (no ``<`` in the last three);
- the body's elements are the ones named in :data:`BODY`, each start tag
  matched by its end tag (void elements have none; ``/>`` only on them); no
  block element (:data:`CLOSES_P`, headings, ``li``, ``dd``, ``dt``, ``hr``)
  inside an open ``p``; no heading directly in a heading; no ``li`` in an
  ``li``, ``dd`` or ``dt`` in a ``dd`` or ``dt``, unless a list, a section
  or another of HTML's special elements (not ``div`` or ``address``)
  stands between; no ``a`` in an ``a``; never four equal
  formatting elements open (``<b><b><b><b>``);
- tag and attribute names lower case; attribute values quoted or plain, no
  attribute twice; character references ``&name;`` (HTML's names) and
  ``&#n;`` / ``&#xn;`` for ordinary characters, each with its semicolon;
- comments ``<!-- ... -->`` without ``--``, ``<`` or a leading ``>``/``-``,
  anywhere but between ``</body>`` and ``</html>``;
- no control characters (carriage returns included), no ``<`` that does not
  start one of the above.

:func:`replacements` puts it in front of tinyhtml5 where WeasyPrint's
``HTML`` calls it (on the releases the gate of :mod:`whistbook.render.speedups`
names): ``tests/test_render_html_reader.py`` compares the two trees on every
part of the bundled booklet and on awkward documents either side of the
subset's edges.
"""

from __future__ import annotations

import re
from io import StringIO
from typing import Any
from xml.etree import ElementTree

#: start tags that close an open ``p`` (tinyhtml5's ``start_tag_close_p``)
CLOSES_P = frozenset((
    "address", "article", "aside", "blockquote", "center", "details", "dir", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p", "section",
    "summary", "ul"))
HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
#: a list item closes an open item of these names, unless another special element stands between
ITEMS = {"li": ("li",), "dd": ("dd", "dt"), "dt": ("dd", "dt")}
#: formatting elements (kept in the list of active formatting elements)
FORMATTING = frozenset(("a", "b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u"))
#: elements the HTML5 rules insert and close with nothing else done ("any other" start and end tag)
PLAIN = frozenset((
    "abbr", "bdi", "bdo", "cite", "data", "del", "dfn", "ins", "kbd", "label", "mark", "q", "samp", "span",
    "sub", "sup", "time", "var"))
#: void elements, closed as soon as opened; ``hr`` also closes an open ``p``
VOID = frozenset(("area", "base", "br", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                  "track", "wbr"))
#: every element the body may hold
BODY = CLOSES_P | HEADINGS | set(ITEMS) | FORMATTING | PLAIN | VOID
HEAD_VOID = frozenset(("meta", "link", "base"))
#: elements that hold raw text in the head: whether character references count there
HEAD_TEXT = {"title": True, "style": False, "script": False}

_WS = "[ \t\n]"
_NAME = "[a-z][a-z0-9]*"
_ATTR = rf"""{_WS}+[a-z][a-z0-9_.:-]*(?:{_WS}*={_WS}*(?:"[^"]*"|'[^']*'|[^ \t\n"'=<>`]+))?"""
#: a start tag (name, attributes, "/"), an end tag (name) or a comment (text), in the forms the subset takes
_TOKEN = re.compile(rf"<(?:({_NAME})((?:{_ATTR})*){_WS}*(/?)>|/({_NAME})>|!--(?![>-])((?:[^<-]|-(?!-))*)-->)")
_ATTRS = re.compile(rf"""{_WS}+([a-z][a-z0-9_.:-]*)(?:{_WS}*={_WS}*(?:"([^"]*)"|'([^']*)'|([^ \t\n"'=<>`]+)))?""")
_DOCTYPE = re.compile(rf"{_WS}*<!(?i:doctype){_WS}+(?i:html){_WS}*>")
#: characters tinyhtml5 replaces, reports or reads differently: control characters (CR and NUL
#: among them), surrogates and non-characters; the last range, every character beyond the
#: Basic Multilingual Plane, only to be looked at again (searched for at once, the planes'
#: non-characters take a regular expression ten times longer)
_SUSPECT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe-\U0010ffff]")
_ODD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
                  + "".join(f"{chr(p << 16 | 0xfffe)}{chr(p << 16 | 0xffff)}" for p in range(1, 17)) + "]")
_REFERENCE = re.compile(r"&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{0,31}));")

_entities: dict[str, str] = {}
_special: frozenset[str] = frozenset()


class _Declined(Exception):
    """The document is outside the subset: tinyhtml5 reads it."""


def _character(match: "re.Match[str]") -> str:
    hexadecimal, decimal, name = match.groups()
    if name is not None:
        try:
            return _entities[name + ";"]
        except KeyError:
            raise _Declined from None
    code = int(hexadecimal, 16) if hexadecimal is not None else int(decimal)
    if (code in (0x09, 0x0A) or 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF or 0xE000 <= code <= 0xFDCF
            or 0xFDF0 <= code <= 0x10FFFF and code & 0xFFFE != 0xFFFE):
        return chr(code)
    raise _Declined  # tinyhtml5 replaces it (NUL, C1 controls, surrogates) or reads CR as it stands


def _unescape(text: str) -> str:
    """``text`` with its character references read; every ``&`` must start one."""
    ampersands = text.count("&")
    text, count = _REFERENCE.subn(_character, text)
    if count != ampersands:
        raise _Declined
    return text


def _blank(text: str) -> bool:
    return not text.strip(" \t\n")


def _attributes(source: str) -> dict[str, str]:
    """A start tag's attributes, in their order."""
    attrs = {}
    for name, double, single, bare in _ATTRS.findall(source):
        if name in attrs:
            raise _Declined  # tinyhtml5 keeps the first
        value = double or single or bare
        attrs[name] = _unescape(value) if "&" in value else value
    return attrs


# where the reader is in the document: the HTML5 insertion modes it goes through
_BEFORE_HTML, _BEFORE_HEAD, _IN_HEAD, _AFTER_HEAD, _IN_BODY, _AFTER_BODY, _AFTER_AFTER_BODY = range(7)
#: the start tags that move the reader on to the next mode
_OPENS = {(_BEFORE_HTML, "html"), (_BEFORE_HEAD, "head"), (_AFTER_HEAD, "body")}


def parse(document: str) -> ElementTree.Element | None:
    """The ``html`` element tinyhtml5 would make of ``document``, or ``None``
    when ``document`` is outside the subset this reader vouches for."""
    if not _entities:
        _load_tables()
    try:
        return _read(document)
    except _Declined:
        return None


def _read(doc: str) -> ElementTree.Element:
    suspect = _SUSPECT.search(doc)
    if suspect is not None and (ord(suspect.group()) < 0x10000 or _ODD.search(doc)):
        raise _Declined
    doctype = _DOCTYPE.match(doc)
    if doctype is None:
        raise _Declined
    reader = _Reader()
    pos = doctype.end()
    find, match = doc.find, _TOKEN.match
    while (at := find("<", pos)) >= 0:
        token = match(doc, at)
        if token is None:
            raise _Declined
        if at != pos:
            reader.text(doc[pos:at])
        pos = token.end()
        name, source, slash, closing, remark = token.groups()
        if reader.mode != _IN_BODY:
            reader.outside_body(name, source, slash, closing, remark)
        elif name is not None:
            reader.start(name, _attributes(source) if source else {}, slash)
        elif closing is not None:
            reader.end(closing)
        else:
            reader.builder.comment(remark)
    return reader.close(doc[pos:])


class _Reader:
    """The tree of one document, built token by token as the HTML5 rules
    build it, as long as they only open and close elements."""

    def __init__(self) -> None:
        self.builder = ElementTree.TreeBuilder(insert_comments=True)
        self.mode = _BEFORE_HTML
        self.stack: list[str] = []  # the open elements' names
        self.formatting: list[tuple[str, dict[str, str]]] = []  # the open formatting elements
        self.trailing: list[str] = []  # whitespace after </body>: it goes into the body

    def text(self, text: str) -> None:
        mode, stack = self.mode, self.stack
        if mode == _IN_BODY:
            self.builder.data(_unescape(text) if "&" in text else text)
        elif mode == _IN_HEAD and stack[-1] in HEAD_TEXT:
            self.builder.data(_unescape(text) if HEAD_TEXT[stack[-1]] and "&" in text else text)
        elif not _blank(text):
            raise _Declined
        elif mode == _IN_HEAD or mode == _AFTER_HEAD:
            self.builder.data(text)
        elif mode >= _AFTER_BODY:
            self.trailing.append(text)

    def start(self, name: str, attrs: dict[str, str], slash: str) -> None:
        """A start tag in the body."""
        stack = self.stack
        if name in VOID:
            if name == "hr" and "p" in stack:
                raise _Declined
            self.builder.start(name, attrs)
            self.builder.end(name)
            return
        if slash or name not in BODY:
            raise _Declined
        if name in CLOSES_P:
            if "p" in stack:
                raise _Declined
        elif name in FORMATTING:
            if name == "a" and "a" in stack:
                raise _Declined
            if sum(1 for n, a in self.formatting if n == name and a == attrs) >= 3:
                raise _Declined  # tinyhtml5 forgets the earliest of four
            self.formatting.append((name, attrs))
        elif name in HEADINGS:
            if "p" in stack or stack[-1] in HEADINGS:
                raise _Declined
        elif name in ITEMS:
            _check_item(name, stack)
        self.builder.start(name, attrs)
        stack.append(name)

    def end(self, name: str) -> None:
        """An end tag in the body."""
        if name != self.stack[-1]:
            raise _Declined
        if name == "body":
            self.mode = _AFTER_BODY  # the body stays open: whitespace after it goes in
            return
        self.builder.end(name)
        self.stack.pop()
        if name in FORMATTING:
            self.formatting.pop()

    def outside_body(self, name: str | None, source: str, slash: str, closing: str | None,
                     remark: str | None) -> None:
        mode = self.mode
        if mode == _IN_HEAD:
            self.in_head(name, source, slash, closing, remark)
        elif remark is not None:
            if mode == _BEFORE_HEAD or mode == _AFTER_HEAD:
                self.builder.comment(remark)  # into the html element
            elif mode == _AFTER_BODY:
                raise _Declined  # tinyhtml5 puts it after the body, and later whitespace into the body
            # before <html> and after </html> it goes to the document, outside the tree
        elif not slash and (mode, name) in _OPENS:
            self.builder.start(name, _attributes(source) if source else {})
            self.stack.append(name)
            self.mode += 1
        elif mode == _AFTER_BODY and closing == "html":
            self.mode = _AFTER_AFTER_BODY
        else:
            raise _Declined

    def in_head(self, name: str | None, source: str, slash: str, closing: str | None, remark: str | None) -> None:
        raw = self.stack[-1] in HEAD_TEXT  # in a title, style or script: only its end tag
        if name is not None and not raw and (name in HEAD_VOID or name in HEAD_TEXT and not slash):
            self.builder.start(name, _attributes(source) if source else {})
            if name in HEAD_VOID:
                self.builder.end(name)
            else:
                self.stack.append(name)
        elif closing is not None and closing == self.stack[-1]:
            self.builder.end(closing)
            self.stack.pop()
            if closing == "head":
                self.mode = _AFTER_HEAD
        elif remark is not None and not raw:
            self.builder.comment(remark)
        else:
            raise _Declined

    def close(self, rest: str) -> ElementTree.Element:
        if self.mode < _AFTER_BODY or not _blank(rest):
            raise _Declined
        text = "".join(self.trailing) + rest
        if text:
            self.builder.data(text)
        self.builder.end("body")
        self.builder.end("html")
        return self.builder.close()


def _check_item(name: str, stack: list[str]) -> None:
    """Decline an ``li``, ``dd`` or ``dt`` that would close an open one or an open ``p``."""
    if "p" in stack:
        raise _Declined
    closes = ITEMS[name]
    for open_name in reversed(stack):
        if open_name in closes:
            raise _Declined
        if open_name in _special and open_name not in ("address", "div", "p"):
            return


def _load_tables() -> None:
    """HTML's named character references, and the elements tinyhtml5 counts as special."""
    global _special
    from html.entities import html5
    from tinyhtml5.constants import namespaces, special_elements

    _special = frozenset(name for space, name in special_elements if space == namespaces["html"])
    _entities.update((name, value) for name, value in html5.items() if name.endswith(";"))


class _Parser:
    """Stands for the tinyhtml5 module in WeasyPrint's ``HTML``: a string's
    HTML (``HTML(string=...)``) is read by :func:`parse` when it can be."""

    def __init__(self, stock: Any) -> None:
        self.stock = stock

    def parse(self, document: Any, **options: Any) -> Any:
        if options == {"namespace_html_elements": False} and type(document) is StringIO and not document.tell():
            tree = parse(document.getvalue())
            if tree is not None:
                return tree
        return self.stock.parse(document, **options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stock, name)


def replacements() -> list[tuple[Any, str, Any]]:
    """WeasyPrint's ``HTML`` reading a string through :func:`parse` first."""
    import weasyprint

    return [(weasyprint, "tinyhtml5", _Parser(weasyprint.tinyhtml5))]


__all__ = ["parse", "replacements"]
