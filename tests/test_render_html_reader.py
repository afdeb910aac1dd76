"""speedups.html_reader reads the booklet's HTML into the very tree tinyhtml5 makes
of it (WeasyPrint's parser), or declines and leaves the document to tinyhtml5."""

from __future__ import annotations

import random
from collections import defaultdict
from html.entities import html5
from io import StringIO

import pytest
import tinyhtml5
from tinyhtml5.parser import InBodyPhase
from tinyhtml5.tokenizer import entities

from whistbook.corpus import find_hand_files
from whistbook.inference import RULES
from whistbook.render import speedups
from whistbook.render.context import RenderOptions, book_context
from whistbook.render.environment import make_environment
from whistbook.render.pdf import booklet_part_html, load_weasyprint
from whistbook.render.speedups import html_reader

from render_support import BOSTON, HANDS, HAND_I, lesson

PRINT = RenderOptions(medium="print", analysis=False)


def stock(document: str):
    return tinyhtml5.parse(StringIO(document), namespace_html_elements=False)


def nodes(root) -> list[tuple]:
    """Every element in document order, as WeasyPrint reads it: tag, attributes in
    their order, text, tail, number of children (comments are elements too)."""
    return [(e.tag, list(e.attrib.items()), e.text, e.tail, len(e)) for e in root.iter()]


def read_alike(document: str) -> bool:
    """Whether the fast path took ``document``; when it did, its tree must be tinyhtml5's."""
    tree = html_reader.parse(document)
    if tree is not None:
        assert nodes(tree) == nodes(stock(document)), document[:300]
    return tree is not None


def parts(lessons) -> list[str]:
    env = make_environment(None, rules=RULES)
    book = book_context(lessons, env, rules=RULES)
    out = [booklet_part_html("lesson", book, env, options=PRINT, lesson=ls) for ls in lessons]
    pages = defaultdict(lambda: 7)  # any anchor's page
    out += [booklet_part_html(part, book, env, options=PRINT, pages=pages)
            for part in ("front", "answers", "themes", "principles", "glossary", "back")]
    return out


def test_the_parts_of_a_hand_and_a_problem_read_as_tinyhtml5_reads_them():
    htmls = parts([lesson(HAND_I), lesson(BOSTON)])
    assert all(read_alike(html) for html in htmls)


@pytest.mark.slow
def test_every_part_of_the_bundled_booklet_reads_as_tinyhtml5_reads_it():
    htmls = parts([lesson(path) for path in find_hand_files([HANDS])])
    assert len(htmls) > 50
    assert all(read_alike(html) for html in htmls)


def test_the_subsets_tables_follow_tinyhtml5s_own():
    """The kinds of element the reader knows are the ones tinyhtml5's body rules treat so."""
    start, end = InBodyPhase.start_tag_handler, InBodyPhase.end_tag_handler
    assert {start[n] for n in html_reader.CLOSES_P} == {InBodyPhase.start_tag_close_p}
    assert {end[n] for n in html_reader.CLOSES_P - {"p"}} == {InBodyPhase.end_tag_block}
    assert end["p"] is InBodyPhase.end_tag_p
    assert {start[n] for n in html_reader.HEADINGS} == {InBodyPhase.start_tag_heading}
    assert {end[n] for n in html_reader.HEADINGS} == {InBodyPhase.end_tag_heading}
    assert {start[n] for n in html_reader.ITEMS} == {InBodyPhase.start_tag_list_item}
    assert {end[n] for n in html_reader.ITEMS} == {InBodyPhase.end_tag_list_item}
    assert {start[n] for n in html_reader.FORMATTING} == {InBodyPhase.start_tag_formatting, InBodyPhase.start_tag_a}
    assert {end[n] for n in html_reader.FORMATTING} == {InBodyPhase.end_tag_formatting}
    assert not html_reader.PLAIN & (set(start) | set(end))  # "any other" start and end tag
    assert {start[n] for n in html_reader.VOID} == {
        InBodyPhase.start_tag_void_formatting, InBodyPhase.start_tag_param_source, InBodyPhase.start_tag_input,
        InBodyPhase.start_tag_hr, InBodyPhase.start_tag_process_in_head}
    assert html_reader.VOID & set(end) == {"br"}  # </br> is read as <br>: never taken
    # a named reference with its semicolon is the longest name tinyhtml5 can match there
    assert all(name.endswith(";") for name in entities if ";" in name)


DOCUMENT = """<!doctype html>
<html lang="en" class="booklet paper-a5">
<head>
  <meta charset="utf-8">
  <title>Whist &amp; more</title>
  <style>p { color: red }</style>
</head>
<body class="x">
<section class="lesson" id="s1">
  <h1>Hand&nbsp;I</h1>
  <p>A <strong>lead</strong> of the <a href="#k">king</a>.<br>Then &#x27;this&#39; &#8212; and <em>that</em>.</p>
  <ul><li>one</li><li><span class="c">two</span> &lt;3</li></ul>
  <dl><dt>term</dt><dd>a <q>definition</q></dd></dl>
  <figure><img src="data:image/svg+xml;base64,PHN2Zy8+" alt="a > b"><figcaption>Fig</figcaption></figure>
</section>
</body>
</html>
"""

#: each a document (or a snippet in the body of one) the HTML5 rules read with more than open and close
AWKWARD = [
    "<p>one<p>two",  # an unclosed p
    "<p>a<div>b</div></p>",  # a block closes the p
    "<p>a<ul><li>b</li></ul></p>",
    "<p>a<h2>b</h2></p>",
    "<p>a<hr>b</p>",
    "<p>a<li>b</li></p>",
    "<ul><li>a<li>b</ul>",  # an li closes the last
    "<ul><li>a<span><li>b</li></span></li></ul>",
    "<dl><dt>a<dd>b</dl>",
    "<dl><dd>a<dt>b</dt></dd></dl>",
    "<h1>a<h2>b</h2></h1>",  # a heading in a heading
    "<table><tr><td>x</td></tr></table>",  # a row without tbody
    "<table><tbody><tr><td>x</td></tr></tbody></table>",
    "<b>a<i>b</b>c</i>",  # misnested formatting: the adoption agency
    "<a href=x>a<a href=y>b</a></a>",  # a link in a link
    "<b><b><b><b>x</b></b></b></b>",  # a fourth equal formatting element
    "<span>a</div></span>",  # a stray end tag
    "</p>",
    "<span>a",  # unclosed
    "<div/>x",  # a self-closing non-void element
    "<br></br>",
    "<![CDATA[x]]>",
    "<!DOCTYPE x><p>x</p>",
    "<?xml x?>",
    "<!---->", "<!-- a -- b -->", "<!--->", "<!-- <a> -->",
    "<p>a &notit; b</p>",  # an unknown entity
    "<p>a &amp b</p>",  # no semicolon
    "<p>a & b</p>",
    "<p>&#0;&#128;</p>",
    "<p>&#13;</p>",
    "<a href='?a=1&b=2'>x</a>",
    "<template><p>x</p></template>",
    "<script>if (a < b) {}</script>",
    "<style>a < b {}</style>",
    "<title>a < b</title>",
    "<textarea>\nx</textarea>",
    "<pre>\nx</pre>",
    "<P>x</P>", "<p CLASS=x>y</p>",  # upper case
    "<svg><rect/></svg>", "<math><mi>x</mi></math>",
    "<button>x</button>", "<select><option>x</select>", "<form></form>",
    "<noscript>x</noscript>", "<iframe></iframe>", "<object></object>",
    "<p a=1 a=2>x</p>",  # an attribute twice
    "<p a=\"1\"b=2>x</p>",
    "<p a=>x</p>",
    "<p a=`b`>x</p>",
    "<p>a < b</p>",
    "<p>a\rb</p>", "<p>a\0b</p>", "<p>a\x0cb</p>", "<p>a\x85b</p>", "<p>a\ufdd0b</p>", "<p>a\U0001fffeb</p>",
    "<image src=x>",
    "<body class=y><p>x</p>",
    "<html><p>x</p>",
]
AWKWARD_DOCUMENTS = [
    "",
    "\ufeff" + DOCUMENT,  # a byte order mark
    DOCUMENT.replace("<!doctype html>\n", ""),  # no doctype: quirks mode
    DOCUMENT.replace("<head>", "").replace("</head>", ""),  # head implied
    DOCUMENT.replace('<body class="x">', "").replace("</body>", ""),  # body implied
    DOCUMENT.replace("<html lang=\"en\" class=\"booklet paper-a5\">", ""),
    DOCUMENT.replace("</html>\n", "</html>\n<p>late</p>"),
    DOCUMENT.replace("</body>", "</body><!-- after -->"),  # a comment tinyhtml5 puts after the body
    DOCUMENT.replace("</head>", "</head>x"),  # text between head and body
    DOCUMENT.replace("<head>", "<head>x"),
    DOCUMENT.replace("<head>", "<head><div>x</div>"),
    DOCUMENT.replace("<head>", "<head>&#32;"),
]

#: snippets the reader takes (in the body of a document like DOCUMENT)
REGULAR = [
    "<p>a<b>b<i>c</i></b>d</p>",
    "<b><div>a</div></b>",
    "<a href=x><div><p>b</p></div></a>",
    "<b><b><b>x</b></b></b>",
    "<b class=a><b class=b><b class=a><b class=a>x</b></b></b></b>",
    "<li>a</li><dd>b</dd>",
    "<ul><li>a<ul><li>b</li></ul></li></ul>",
    "<dl><div><dt>a</dt><dd>b</dd></div></dl>",
    "<h1><span><h2>x</h2></span></h1>",
    "<p>a<br/>b<img src=x />c<wbr>d</p>",
    "<p title='a\nb' data-x=\"&lt;&amp;&gt;\" hidden>x</p>",
    "<p>\u2660 \U0001f0a1 &spades; &#x1F0A1;</p>",
    "<!-- a comment --><p>x<!--b-->y</p>",
    "<meta name=x><link rel=x href=y>",
    "\n\n<section>\n<p>x</p>\n</section>\n",
]


def in_body(snippet: str) -> str:
    return DOCUMENT.replace("<body class=\"x\">", "<body class=\"x\">" + snippet)


@pytest.mark.parametrize("snippet", AWKWARD)
def test_awkward_html_is_left_to_tinyhtml5(snippet):
    assert not read_alike(in_body(snippet))


@pytest.mark.parametrize("document", AWKWARD_DOCUMENTS)
def test_awkward_documents_are_left_to_tinyhtml5(document):
    assert not read_alike(document)


@pytest.mark.parametrize("snippet", ["", *REGULAR])
def test_regular_html_takes_the_fast_path(snippet):
    assert read_alike(in_body(snippet))


def test_comments_and_whitespace_go_where_tinyhtml5_puts_them():
    document = ("<!DOCTYPE HTML>\n<!--x--><html>\n<!--a--><head> <!--b--></head>\n<!--c-->"
                "<body>x</body>\n</html>\n<!--d-->\n")
    assert read_alike(document)
    tree = html_reader.parse(document)
    assert [c.text for c in tree.iter() if c.tag is not tree.tag and not isinstance(c.tag, str)] == ["a", "b", "c"]
    assert tree.find("body").text == "x\n\n\n"  # whitespace after </body> and </html> goes into the body


def mutants(document: str, count: int, seed: int):
    """``document`` changed at random places: a tag dropped, doubled or moved, a
    snippet (regular or awkward) put in, a character taken out."""
    rng = random.Random(seed)
    snippets = AWKWARD + REGULAR + ["<", ">", "&", "</", "\"", "'", "=", " ", "\n", "<p>", "</p>", "<li>",
                                    "</span>", "<span>", "</b>", "<b>", "<!--", "-->", "&amp;"]
    for _ in range(count):
        text = document
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            kind = rng.randrange(4)
            if kind == 0:
                text = text[:at] + rng.choice(snippets) + text[at:]
            elif kind == 1 and text:
                text = text[:at] + text[at + 1:]
            else:
                start = text.find("<", at)
                stop = text.find(">", start) + 1
                if start < 0 or stop <= 0:
                    continue
                tag, rest = text[start:stop], text[:start] + text[stop:]
                if kind == 2:
                    text = rest
                else:
                    where = rng.randrange(len(rest) + 1)
                    text = rest[:where] + tag + rest[where:]
        yield text


def test_changed_documents_read_as_tinyhtml5_reads_them_or_are_left_to_it():
    taken = sum(read_alike(text) for text in mutants(DOCUMENT, 600, seed=14))
    assert 30 < taken < 600  # both ways are tried


def random_body(rng: random.Random, depth: int = 0) -> str:
    """Elements of every kind the reader knows, nested at random, closed and not."""
    out = []
    for _ in range(rng.randint(0, 4)):
        kind = rng.randrange(6)
        if kind == 0:
            out.append(rng.choice(["x", " ", "\n", "a &amp; b", "&nbsp;", "&#x2660;", "&lt;p&gt;", "\u2665"]))
        elif kind == 1:
            out.append(rng.choice(["<!--c-->", "<br>", "<img src=x alt='a>b'>", "<hr>", "<wbr/>"]))
        else:
            name = rng.choice(sorted(html_reader.BODY - html_reader.VOID))
            attrs = rng.choice(["", " class=a", ' id="b" class="a"', " title='&quot;'"])
            inner = random_body(rng, depth + 1) if depth < 5 else ""
            close = f"</{name}>" if rng.random() < 0.97 else ""
            out.append(f"<{name}{attrs}>{inner}{close}")
    return "".join(out)


def test_random_nestings_read_as_tinyhtml5_reads_them_or_are_left_to_it():
    rng = random.Random(14)
    taken = sum(read_alike(in_body(random_body(rng))) for _ in range(400))
    assert 100 < taken < 400


@pytest.mark.slow
def test_changed_parts_read_as_tinyhtml5_reads_them_or_are_left_to_it():
    htmls = parts([lesson(HAND_I), lesson(BOSTON)])
    taken = sum(read_alike(text) for k, html in enumerate(htmls) for text in mutants(html, 150, seed=k))
    assert taken > 100


def test_weasyprint_reads_a_string_through_the_fast_path_and_anything_else_through_tinyhtml5(monkeypatch):
    weasyprint, _, _ = load_weasyprint()
    if not speedups.installed():
        pytest.skip(speedups.closed())
    parser = weasyprint.tinyhtml5
    assert isinstance(parser, html_reader._Parser)
    taken = []
    monkeypatch.setattr(html_reader, "parse", lambda doc: taken.append(doc) or None)
    weasyprint.HTML(string=DOCUMENT)
    weasyprint.HTML(string=DOCUMENT.encode())  # bytes: tinyhtml5 finds the encoding
    assert taken == [DOCUMENT]
    monkeypatch.undo()
    monkeypatch.setattr(parser.stock, "parse", lambda *a, **k: pytest.fail("tinyhtml5 asked"))
    fast = weasyprint.HTML(string=DOCUMENT).etree_element
    monkeypatch.undo()
    assert nodes(fast) == nodes(stock(DOCUMENT))
    assert nodes(weasyprint.HTML(string=in_body("<p>x<p>y")).etree_element) == nodes(stock(in_body("<p>x<p>y")))


def test_html_s_named_references_are_tinyhtml5_s():
    """The reader takes the names from Python's table (tinyhtml5 keeps its own)."""
    assert {k: v for k, v in html5.items() if k.endswith(";")} == {k: v for k, v in entities.items() if k.endswith(";")}
