"""The site's raw HTML blocks read once (whistbook.render.site_markdown): every
page comes out as Python-Markdown and ProperDocs make it without the extension."""

from __future__ import annotations

import markdown
import pytest
from properdocs.structure.pages import _RawHTMLPreprocessor
from properdocs.utils import meta

from whistbook.render.context import RenderOptions
from whistbook.render.environment import make_environment
from whistbook.render.site import RAW_HTML_BLOCKS, render_site_sources, with_raw_html_blocks

from render_support import BOSTON, lesson

#: what ProperDocs gives every page, and the bundled book's own
EXTENSIONS = ["toc", "tables", "fenced_code", "smarty"]


def convert(text: str, *, fast: bool) -> tuple[str, set, int]:
    """A page's HTML, the anchors ProperDocs finds in its raw HTML, and how many blocks the extension set aside."""
    md = markdown.Markdown(extensions=EXTENSIONS + ([RAW_HTML_BLOCKS] if fast else []))
    anchors = _RawHTMLPreprocessor()
    anchors._register(md)
    out = md.convert(text)
    aside = md.preprocessors["whistbook_raw_blocks"].count if fast else 0
    return out, anchors.present_anchor_ids, aside


@pytest.fixture(scope="module")
def pages():
    from whistbook.inference import RULES

    env = make_environment(None, rules=RULES)
    sources = render_site_sources([lesson(analysis=True), lesson(BOSTON, inference=False)], env,
                                  options=RenderOptions(medium="site"))
    return {name: meta.get_data(text)[0] for name, text in sources.docs.items() if name.endswith(".md")}


def test_every_page_comes_out_the_same_and_the_lessons_blocks_are_set_aside(pages):
    for name, text in pages.items():
        slow, fast = convert(text, fast=False), convert(text, fast=True)
        assert fast[:2] == slow[:2], name
        if name.startswith("lessons/"):
            assert fast[2] > 0, name


#: pages the scan reads
READ = [
    "# Title\n\n<div class=\"a\" id=\"x\">\n<p>one &amp; two &#8212; <span>three</span></p>\n</div>\n\nAfter.\n",
    "<p id=\"first\">A</p>\n\n<p id=\"second\">B</p>\n",  # consecutive blocks
    "<DIV ID=\"Upper\">\n<Br>\n<hr>\n<img src=\"a.png\" />\n</DIV>\n",  # case, void and empty elements
    "<div id>\n<a name=\"n&amp;m\">x</a>\n</div>\n",  # an id without a value, an escaped name
    "<div>\n<script type=\"application/json\">{\"a\": 1}</script><p id=\"after\">y</p>\n</div>\n",
    "<div>\n<label><input type=\"checkbox\" hidden> a</label>\n</div>\n",  # an unclosed void element
    "<div id=\"end\">no newline at the end</div>",
]
#: pages it leaves to the parsers, which must come out the same all the same
LEFT = [
    "Text with <span id=\"inline\">inline</span> HTML.\n\n<div id=\"d\">x</div>\n",
    "<p>one</p>\n<p id=\"two\">two</p>\n",  # two elements in one chunk
    "<div id=\"open\">\n<p>never closed\n",
    "</div>\n\n<div id=\"after-end\">x</div>\n",  # an end tag first
    "<div>\n<!-- a comment -->\n</div>\n",
    "<div>\n<script>if (a < b) {}</script>\n</div>\n",
    "<div>\n<textarea>a &amp; b</textarea>\n</div>\n",
    "<div>\nAT&T &amp\n</div>\n",  # references html.parser rewrites
    "<span id=\"s\">not a block</span>\n",
    "<hr>\n\n<div id=\"h\">x</div>\n",
    "   <div id=\"indented\">x</div>\n",
    "<div>\n</div> tail\n\nNext.\n",
    "<div class='single'>x</div>\n",
    "```\n<div id=\"in-code\">x</div>\n```\n\n<div id=\"out\">y</div>\n",
]


@pytest.mark.parametrize("text, aside", [(t, True) for t in READ] + [(t, False) for t in LEFT])
def test_a_page_comes_out_as_without_the_extension(text, aside):
    slow, fast = convert(text, fast=False), convert(text, fast=True)
    assert fast[:2] == slow[:2]
    assert (fast[2] > 0) == aside


def test_the_extension_is_added_once_to_either_form_of_the_setting():
    assert with_raw_html_blocks(None) == [RAW_HTML_BLOCKS]
    assert with_raw_html_blocks(["smarty"]) == ["smarty", RAW_HTML_BLOCKS]
    assert with_raw_html_blocks(["smarty", RAW_HTML_BLOCKS]) == ["smarty", RAW_HTML_BLOCKS]
    assert with_raw_html_blocks({"toc": {"permalink": True}}) == {"toc": {"permalink": True}, RAW_HTML_BLOCKS: {}}
