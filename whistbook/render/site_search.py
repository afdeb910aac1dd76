"""Search that works when the site is opened from disk (file://).

The search plugin that comes with ProperDocs writes ``search/search_index.json``
and searches it in a Web Worker that fetches the JSON: a browser forbids both
the Worker and the fetch on file:// pages, so the search page waits forever.
This plugin, listed after ``search`` in ``mkdocs.yml``, keeps that index and
writes it again as a script, ``search/search_index.js``, which a plain
``<script>`` tag loads anywhere. whistbook's ``search.html`` loads lunr, that
script and ``js/whistbook-search.js``, which searches in the page itself; the
Worker script is no longer loaded on every page.
"""

from __future__ import annotations

import json
from pathlib import Path

from properdocs.config.defaults import ProperDocsConfig
from properdocs.exceptions import PluginError
from properdocs.plugins import BasePlugin, event_priority

#: the global variable that search_index.js sets
INDEX_VARIABLE = "whistbookSearchIndex"


def index_script(index_json: str) -> str:
    """The search index as a script that sets a global variable."""
    data = json.loads(index_json)
    # "</" never appears in the output, so the script cannot close its own tag
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f"var {INDEX_VARIABLE} = {body};\n"


class OfflineSearch(BasePlugin):
    def on_config(self, config: ProperDocsConfig) -> ProperDocsConfig:
        if "search" not in config.plugins:
            raise PluginError("whistbook-search needs the 'search' plugin listed before it")
        # the Worker-based script would start on every page and fail on file://
        config.extra_javascript[:] = [s for s in config.extra_javascript if str(s) != "search/main.js"]
        return config

    @event_priority(-100)  # after the search plugin has written its index
    def on_post_build(self, config: ProperDocsConfig) -> None:
        folder = Path(config.site_dir) / "search"
        try:
            text = (folder / "search_index.json").read_text(encoding="utf-8")
        except OSError as err:
            raise PluginError(f"whistbook-search: no search index to convert: {err}") from err
        (folder / "search_index.js").write_text(index_script(text), encoding="utf-8")


__all__ = ["OfflineSearch", "index_script", "INDEX_VARIABLE"]
