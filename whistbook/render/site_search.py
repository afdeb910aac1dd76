"""Search that works when the site is opened from disk (file://), and gives
nothing of a hand away.

The search plugin that comes with ProperDocs writes ``search/search_index.json``
and searches it in a Web Worker that fetches the JSON: a browser forbids both
the Worker and the fetch on file:// pages, so the search page waits forever.
This plugin, listed after ``search`` in ``mkdocs.yml``, keeps that index and
writes it again as a script, ``search/search_index.js``, which a plain
``<script>`` tag loads anywhere. whistbook's ``search.html`` loads lunr, that
script and ``js/whistbook-search.js``, which searches in the page itself; the
Worker script is no longer loaded on every page.

The search plugin indexes a page's whole text, which on a lesson page holds
the deal and every trick. A page whose front matter has a search entry
(``whistbook_search:``, written by :func:`whistbook.render.site.lesson_source`)
is indexed by that entry alone, one record for the page, in both files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from markupsafe import Markup
from properdocs.config.defaults import ProperDocsConfig
from properdocs.exceptions import PluginError
from properdocs.plugins import BasePlugin, CombinedEvent, event_priority

from .site import SEARCH_META

#: the global variable that search_index.js sets
INDEX_VARIABLE = "whistbookSearchIndex"


def index_script(index_json: str) -> str:
    """The search index as a script that sets a global variable. The index's titles
    are HTML, as ProperDocs makes them (a heading's text, a page's title from the
    navigation); the script's are plain text, which the search page shows as text."""
    data = json.loads(index_json)
    for doc in data.get("docs", []):
        doc["title"] = Markup(doc.get("title") or "").striptags()
    # "</" never appears in the output, so the script cannot close its own tag
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f"var {INDEX_VARIABLE} = {body};\n"


def with_entries(data: dict[str, Any], entries: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The index ``data`` with every record of each page in ``entries`` (page url ->
    its one record) replaced by that record, where the page's first record stood."""
    docs, placed = [], set()
    for doc in data.get("docs", []):
        url = doc["location"].split("#")[0]
        if url not in entries:
            docs.append(doc)
        elif url not in placed:
            docs.append(entries[url])
            placed.add(url)
    docs += [entry for url, entry in entries.items() if url not in placed]
    out = {k: v for k, v in data.items() if k != "index"}  # a prebuilt lunr index would hold the whole text
    out["docs"] = docs
    return out


def write_index(site_dir: Path, entries: dict[str, dict[str, str]]) -> None:
    """Put ``entries`` into the site's index (``search_index.json``) and write it again as a script."""
    folder = Path(site_dir) / "search"
    try:
        data = json.loads((folder / "search_index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise PluginError(f"whistbook-search: no search index to convert: {err}") from err
    text = json.dumps(with_entries(data, entries), sort_keys=True, separators=(",", ":"))
    (folder / "search_index.json").write_text(text, encoding="utf-8")
    (folder / "search_index.js").write_text(index_script(text), encoding="utf-8")


def page_entry(page: Any) -> dict[str, str] | None:
    """A page's own search record, when its front matter gives one."""
    text = page.meta.get(SEARCH_META)
    return None if text is None else {"location": page.url, "title": page.title or "", "text": str(text)}


class OfflineSearch(BasePlugin):
    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[str, dict[str, str]] = {}
        self._content: dict[str, str] = {}  # the pages' HTML while the search plugin looks at them

    def on_config(self, config: ProperDocsConfig) -> ProperDocsConfig:
        if "search" not in config.plugins:
            raise PluginError("whistbook-search needs the 'search' plugin listed before it")
        # the Worker-based script would start on every page and fail on file://
        config.extra_javascript[:] = [s for s in config.extra_javascript if str(s) != "search/main.js"]
        self.entries = {}
        return config

    # The search plugin parses a page's whole HTML for its records; a page with its own
    # entry has them all replaced, so it is shown an empty page (about a third of
    # the site's build for the bundled book) and given its content back before the
    # theme renders it.
    @event_priority(100)  # before the search plugin
    def _take_entry(self, context: Any, page: Any, config: ProperDocsConfig, nav: Any) -> Any:
        entry = page_entry(page)
        if entry is not None:
            self.entries[page.url] = entry
            self._content[page.url], page.content = page.content, ""
        return context

    @event_priority(-100)  # after it
    def _give_back(self, context: Any, page: Any, config: ProperDocsConfig, nav: Any) -> Any:
        if page.url in self._content:
            page.content = self._content.pop(page.url)
        return context

    on_page_context = CombinedEvent(_take_entry, _give_back)

    @event_priority(-100)  # after the search plugin has written its index
    def on_post_build(self, config: ProperDocsConfig) -> None:
        write_index(Path(config.site_dir), self.entries)


__all__ = ["OfflineSearch", "index_script", "with_entries", "write_index", "page_entry", "INDEX_VARIABLE"]
