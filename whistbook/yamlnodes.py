"""A hand file's YAML as a tree of located nodes, and typed values read off
the nodes.

The document is composed into PyYAML nodes rather than loaded into plain
values, so that every scalar keeps its line and column; a card inside a
string such as ``2D 4D QD AD`` is located to its own column. The readers
here (``read_*``) collect what is wrong in :class:`Problems`, so that one
load reports every problem of a file.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from typing import Any, Callable

import yaml

from .cards import Card, parse_number_word
from .errors import InvalidCardError, SchemaError, SourceLocation, WhistbookError, YamlSyntaxError
from .model import CardRef


#: the problems of one file that are listed; the rest are counted (a file of 100,000 unknown
#: keys is reported in an instant, not with a suggestion for each)
MAX_PROBLEMS = 100


class Problems:
    """Collects schema problems so that one load reports all of them (the first
    :data:`MAX_PROBLEMS`, and how many more there were)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.items: list[WhistbookError] = []
        #: how many problems were not listed, and where the first of them is
        self.more = 0
        self.first_more: SourceLocation | None = None

    @property
    def full(self) -> bool:
        """No more problems are listed: a caller may spare the work of wording one."""
        return len(self.items) >= MAX_PROBLEMS

    def add(self, message: str, loc: SourceLocation) -> None:
        self.add_error(SchemaError(message), loc)

    def add_error(self, err: WhistbookError, loc: SourceLocation) -> None:
        if self.full:
            self.more += 1
            self.first_more = self.first_more or err.loc or loc
            return
        self.items.append(err.at(loc))

    def listed(self) -> list[WhistbookError]:
        """The problems to report: those kept, then one saying how many more there were."""
        if not self.more:
            return list(self.items)
        return [*self.items, SchemaError(f"{self.more} more problem{'s' if self.more != 1 else ''} in this file, "
                                         "not listed (the first of them is here)", self.first_more)]


#: how deeply a hand file's lists and mappings may nest: the format needs five levels; the
#: limit keeps a nested document from exhausting the composer's recursion
MAX_DEPTH = 64


class _TooDeep(Exception):
    def __init__(self, mark: yaml.Mark) -> None:
        super().__init__("too deep")
        self.mark = mark


class _Loader(yaml.SafeLoader):
    """SafeLoader subclass, so the global loader is never changed; it refuses
    nesting deeper than :data:`MAX_DEPTH` where the node starts."""

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self._depth >= MAX_DEPTH:
            raise _TooDeep(self.peek_event().start_mark)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def node_loc(path: str, node: yaml.Node) -> SourceLocation:
    return SourceLocation(path, node.start_mark.line + 1, node.start_mark.column + 1)


def _scalar_base(path: str, node: yaml.ScalarNode) -> tuple[SourceLocation, bool]:
    """Where a scalar's text starts, and whether offsets within it map to columns."""
    loc = node_loc(path, node)
    style = node.style
    if style in ("'", '"'):
        return loc.shifted(1), "\n" not in node.value
    if style in ("|", ">"):
        return SourceLocation(path, loc.line + 1, loc.column), False
    single_line = node.start_mark.line == node.end_mark.line
    return loc, single_line


def offset_loc(path: str, node: yaml.ScalarNode, offset: int) -> SourceLocation:
    base, exact = _scalar_base(path, node)
    return base.shifted(offset) if exact else base


#: libyaml's loader, where PyYAML was built with it: the same tree several times quicker
_FAST_LOADER: type | None = getattr(yaml, "CSafeLoader", None)
#: characters that the two loaders count or accept differently: text with any goes to the pure loader
_UNLIKE = ("\t", "\ufeff", "\x85", "\u2028", "\u2029")
#: a block scalar's header with a comment straight after it: libyaml takes it, the pure loader refuses it
_HEADER_COMMENT = re.compile(r"[|>][-+0-9]{0,2}#")
#: :func:`_compose_fast` could not vouch for its tree
_UNSURE = object()


def compose(text: str, path: str) -> yaml.Node | None:
    """The document's node tree, with the pure-Python loader's marks, styles and messages.

    :raises YamlSyntaxError: for text that is not YAML, holds a character YAML
        does not allow, or nests deeper than :data:`MAX_DEPTH`, located where it is.
    """
    root = _compose_fast(text)
    if root is not _UNSURE:
        return root  # type: ignore[return-value]
    try:
        root = yaml.compose(text, Loader=_Loader)
    except _TooDeep as err:
        raise YamlSyntaxError(f"nested more than {MAX_DEPTH} levels deep (a hand file needs five at most)",
                              _mark_loc(path, text, err.mark)) from None
    except yaml.MarkedYAMLError as err:
        message, mark = syntax_message(err)
        loc = _mark_loc(path, text, mark) if mark else SourceLocation(path, 1, 1)
        raise YamlSyntaxError(message, loc) from err
    except yaml.reader.ReaderError as err:
        what = f"U+{err.character:04X} ({unicodedata.name(chr(err.character), 'a control character')})"
        raise YamlSyntaxError(f"the character {what} is not allowed in YAML: delete it or write it as an escape "
                              f"in a double-quoted string", _index_loc(path, text, err.position)) from err
    except yaml.YAMLError as err:
        raise YamlSyntaxError(f"YAML syntax: {err}", SourceLocation(path, 1, 1)) from err
    if root is not None and any(c in text for c in _OTHER_BREAKS):
        _remark(root, text)
    return root


_LINE_UP = ("the lines of one mapping start in the same column, and so do the '- ' of one list: "
            "indent with spaces, as the lines above")
_CLOSERS = {"flow mapping": ("{", "}"), "flow sequence": ("[", "]")}


def syntax_message(err: yaml.MarkedYAMLError) -> tuple[str, yaml.Mark | None]:
    """What PyYAML's complaint means in a hand file, and where to point: the
    commonest slips (a tab, a key without its colon, a line out of line with
    its neighbours, a bracket or quotation left open) in the words of the
    format; anything else as PyYAML words it."""
    problem, context = err.problem or "", err.context or ""
    at, opened = err.problem_mark, err.context_mark
    if "'\\t'" in problem or "tab character" in problem:
        return ("a tab: hand files are indented with spaces, never tabs (set the editor to indent with "
                "spaces, and replace this one)"), at
    if "could not find expected ':'" in problem and opened is not None:
        return ("a line with neither 'key:' nor '- ': write 'key: value' (known_hand: A), or '- ' before "
                "an item of a list (a trick)"), opened
    if "mapping values are not allowed here" in problem:
        if at is not None and ": " in _line_before(at):
            return ("this value holds ': ', which YAML reads as the start of another key: put the value in "
                    "quotes (title: \"Hand I: the lead\")"), at
        return ("a key indented further than the key above it: the keys of one mapping line up in one "
                "column (indent with spaces)"), at
    stray = re.search(r"but found '([\]}])'", problem)
    if stray:
        return f"a '{stray.group(1)}' with nothing open to close", at
    if "flow node" in context and "<stream end>" in problem:
        return "a '[' or '{' is not closed before the end of the file: end it with ']' or '}'", at
    if problem.startswith("expected <block end>"):
        return f"this line is out of line with those above it: {_LINE_UP}", at
    for kind, (opener, closer) in _CLOSERS.items():
        if kind in context:
            return f"this '{opener}' is not closed: end it with '{closer}'", opened or at
    if "quoted scalar" in context:
        return "this quotation is not closed: end it with the same quote mark", opened or at
    if "another document" in problem:
        return "a second document ('---'): a hand file holds one hand; put the next in a file of its own", at
    m = re.search(r"found character '(.)' that cannot start any token", problem)
    if m:
        return f"a value cannot begin with '{m.group(1)}': put the value in quotes", at
    if "alias" in problem or "anchor" in context:
        return ("'*' and '&' begin YAML's aliases and anchors, which a hand file does not use: put the value "
                "in quotes"), at
    return f"YAML syntax: {problem or 'not valid YAML'}", at or opened


def _line_before(mark: yaml.Mark) -> str:
    """The text of the mark's line before the mark (empty when the loader kept no buffer)."""
    text = getattr(mark, "buffer", None) or ""
    start = max(text.rfind("\n", 0, mark.index), text.rfind("\r", 0, mark.index)) + 1
    return text[start:mark.index]


#: characters YAML 1.1 counts as line breaks and editors do not: marks past one are counted again
_OTHER_BREAKS = ("\x85", "\u2028", "\u2029")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _LINE_BREAK.finditer(text)]


def _index_loc(path: str, text: str, index: int, starts: list[int] | None = None) -> SourceLocation:
    """The line and column of a character of ``text``, counting lines as an editor does."""
    starts = starts or _line_starts(text)
    line = bisect.bisect_right(starts, index)
    return SourceLocation(path, line, index - starts[line - 1] + 1)


def _mark_loc(path: str, text: str, mark: yaml.Mark) -> SourceLocation:
    if any(c in text for c in _OTHER_BREAKS):
        return _index_loc(path, text, mark.index)
    return SourceLocation(path, mark.line + 1, mark.column + 1)


def _remark(root: yaml.Node, text: str) -> None:
    """Set every node's marks to the lines and columns an editor shows, where YAML
    counted a NEL or a line or paragraph separator as a line break."""
    starts = _line_starts(text)

    def mark(m: yaml.Mark) -> yaml.Mark:
        loc = _index_loc("", text, m.index, starts)
        return yaml.Mark(m.name, m.index, loc.line - 1, loc.column - 1, None, None)

    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        node.start_mark, node.end_mark = mark(node.start_mark), mark(node.end_mark)
        if isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            todo.extend(n for kv in node.value for n in kv)


def _compose_fast(text: str) -> Any:
    """The tree libyaml composes, made the same as the pure loader's (every
    node's tag, value, style and start and end marks), or ``_UNSURE``.

    On any error the pure loader composes again, so that messages and their
    locations are its own. Where libyaml is known to differ, the text goes to
    the pure loader too: tabs, which libyaml lets through in places the pure
    loader refuses; a byte-order mark, which libyaml counts as a column; line
    breaks other than ``\\n`` and ``\\r``; a comment straight after a block
    scalar's ``|`` or ``>``; a ``?`` or ``:`` within a plain scalar inside
    ``[...]`` or ``{...}``, which ends the scalar for the pure loader only;
    and tags and anchors. The rest is mended in :func:`_as_pure`."""
    if _FAST_LOADER is None or any(c in text for c in _UNLIKE) or _HEADER_COMMENT.search(text):
        return _UNSURE
    try:
        root = yaml.compose(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        return _UNSURE
    if root is not None and not _as_pure(root, text):
        return _UNSURE
    return root


def _as_pure(root: yaml.Node, text: str) -> bool:
    """Mend libyaml's tree in place to the pure loader's: plain scalars have
    style None, not ``''``; so has a block sequence written level with its
    mapping's keys, not False; and libyaml ends a text without a final line
    break on a line of its own, where the pure loader's marks at the very end
    stay after the last character. False for a tree the pure loader might not
    have made (see :func:`_compose_fast`)."""
    end = None
    if text and text[-1] not in "\n\r":
        lines = text.count("\n") + text.count("\r") - text.count("\r\n")
        end = yaml.Mark("<unicode string>", len(text), lines, len(text) - 1 - max(text.rfind("\n"), text.rfind("\r")),
                        None, None)
    seen: set[int] = set()
    todo: list[tuple[yaml.Node, bool, int]] = [(root, False, 1)]
    while todo:
        node, in_flow, depth = todo.pop()
        if id(node) in seen:
            continue  # an alias: the same node again
        seen.add(id(node))
        if depth > MAX_DEPTH:
            return False  # the pure loader says where
        if text[node.start_mark.index:node.start_mark.index + 1] in ("!", "&"):
            return False  # a tag or an anchor, which the two resolve and check differently
        if isinstance(node, yaml.ScalarNode):
            if node.style == "":
                if in_flow and ("?" in node.value or ":" in node.value):
                    return False
                at = node.start_mark.index
                if in_flow and at == node.end_mark.index and (at == 0 or text[at - 1] in " \t\r\n:?,"):
                    return False  # an empty value in [...] or {...}: libyaml marks it at the next token
                node.style = None
        elif isinstance(node, yaml.SequenceNode):
            todo.extend((kid, in_flow or node.flow_style, depth + 1) for kid in node.value)
        else:
            flow = in_flow or node.flow_style
            for kid in (n for kv in node.value for n in kv):
                if (not flow and isinstance(kid, yaml.SequenceNode) and kid.flow_style is False
                        and kid.start_mark.column == node.start_mark.column):
                    kid.flow_style = None  # a sequence not indented under its key: the pure loader gives it no style
                todo.append((kid, flow, depth + 1))
        if end is not None:
            if node.start_mark.index == end.index:
                node.start_mark = end
            if node.end_mark.index == end.index:
                node.end_mark = end
    return True


# --- reading values off nodes ---------------------------------------------------------------


def read_mapping(node: yaml.Node, path: str, problems: Problems, what: str, allowed: set[str]) -> dict[str, tuple[yaml.Node, yaml.Node]] | None:
    if not isinstance(node, yaml.MappingNode):
        problems.add(f"{what} must be a mapping of keys to values", node_loc(path, node))
        return None
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for knode, vnode in node.value:
        key = knode.value if isinstance(knode, yaml.ScalarNode) else None
        if not isinstance(key, str):
            problems.add(f"{what}: keys must be plain words", node_loc(path, knode))
            continue
        if key in out:
            problems.add(f"{what}: key {key!r} appears twice", node_loc(path, knode))
            continue
        if key not in allowed:
            if problems.full:  # counted, not worded: no suggestion sought
                problems.add("", node_loc(path, knode))
                continue
            hint = _closest(key, allowed)
            problems.add(
                f"{what}: unknown key {key!r}" + (f" (did you mean {hint!r}?)" if hint else f" (expected one of: {', '.join(sorted(allowed))})"),
                node_loc(path, knode),
            )
            continue
        out[key] = (knode, vnode)
    return out


def _closest(word: str, options: set[str]) -> str | None:
    import difflib

    found = difflib.get_close_matches(word, sorted(options), n=1, cutoff=0.6)
    return found[0] if found else None


def read_text(node: yaml.Node, path: str, problems: Problems, what: str) -> str | None:
    if isinstance(node, yaml.ScalarNode) and node.tag != "tag:yaml.org,2002:null":
        return str(node.value)
    problems.add(f"{what} must be text", node_loc(path, node))
    return None


def read_int(node: yaml.Node, path: str, problems: Problems, what: str, lo: int, hi: int) -> int | None:
    if isinstance(node, yaml.ScalarNode):
        v = node.value.strip().lower()
        if v in ("love", "nil", "none"):
            return 0
        if re.fullmatch(r"\d+", v):
            if len(v.lstrip("0")) > len(str(hi)):  # not converted: Python refuses over 4,300 digits
                problems.add(f"{what} must be from {lo} to {hi}, not a number of {len(v)} digits", node_loc(path, node))
                return None
            n = int(v)
            if lo <= n <= hi:
                return n
            problems.add(f"{what} must be from {lo} to {hi}, not {n}", node_loc(path, node))
            return None
        n = parse_number_word(v)
        if n is not None and v != "no":
            return n
    problems.add(f"{what} must be a whole number", node_loc(path, node))
    return None


def read_bool(node: yaml.Node, path: str, problems: Problems, what: str) -> bool | None:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool":
        return node.value.lower() in ("true", "yes", "on")
    if isinstance(node, yaml.ScalarNode) and node.value.lower() in ("true", "false", "yes", "no"):
        return node.value.lower() in ("true", "yes")
    problems.add(f"{what} must be true or false", node_loc(path, node))
    return None


def read_with(fn: Callable[[str], Any], node: yaml.Node, path: str, problems: Problems, what: str) -> Any:
    text = read_text(node, path, problems, what)
    if text is None:
        return None
    try:
        return fn(text)
    except WhistbookError as err:
        problems.add_error(err, node_loc(path, node))
        return None


def read_card(node: yaml.Node, path: str, problems: Problems, what: str) -> CardRef | None:
    if not isinstance(node, yaml.ScalarNode):
        problems.add(f"{what} must be one card, e.g. 2S", node_loc(path, node))
        return None
    try:
        return CardRef(Card.parse(node.value), offset_loc(path, node, 0))
    except InvalidCardError as err:
        problems.add_error(err, node_loc(path, node))
        return None


def read_cards(node: yaml.Node, path: str, problems: Problems, what: str) -> list[CardRef] | None:
    """Cards in a YAML list (``[2D, 4D]``) or one string (``2D 4D QD AD``)."""
    out: list[CardRef] = []
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            ref = read_card(item, path, problems, f"each card of {what}")
            if ref is None:
                return None
            out.append(ref)
        return out
    if isinstance(node, yaml.ScalarNode):
        # Split on spaces and commas, but keep a suit-first card such as "♠ Q" whole.
        for m in re.finditer(r"[^\s,]+", node.value):
            token = m.group(0)
            try:
                out.append(CardRef(Card.parse(token), offset_loc(path, node, m.start())))
            except InvalidCardError as err:
                problems.add_error(err, offset_loc(path, node, m.start()))
                return None
        return out
    problems.add(f"{what} must be cards in play order, e.g. '2D 4D QD AD'", node_loc(path, node))
    return None
