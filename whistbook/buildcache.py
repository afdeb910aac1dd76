"""What makes a build incremental: content keys and a store of finished
pieces (the output folder's lock and writing are :mod:`whistbook.output`'s).

Every piece a build makes (a lesson, a laid-out part of the booklet) is
stored under a key that hashes everything it was made from: the hand
file's bytes, the rendered HTML and stylesheet, and the code that made it
(whistbook's own files and the versions of WeasyPrint and MkDocs). A piece
whose key is in the store is reused; nothing is ever invalidated by hand.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

from . import __version__

PACKAGE = Path(__file__).resolve().parent


def digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


@lru_cache(maxsize=1)
def code_key() -> str:
    """A key of whistbook's code and of the libraries that lay pages out (not
    of the templates: the pieces made from HTML are keyed by it, and those
    keyed before their HTML is made, a lesson's booklet part say, add the
    templates' :func:`folder_key`)."""
    parts: list[str | bytes] = [__version__]
    for name in ("weasyprint", "mkdocs", "pydyf", "jinja2", "markdown-it-py"):
        try:
            parts.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(name)
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".json"):
            parts += [path.relative_to(PACKAGE).as_posix(), path.read_bytes()]
    return digest(*parts)


def folder_key(folder: Path | None) -> str:
    """A key of every file under ``folder`` (a project's templates)."""
    if folder is None or not folder.is_dir():
        return digest("")
    parts: list[str | bytes] = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            parts += [path.relative_to(folder).as_posix(), path.read_bytes()]
    return digest(*parts)


class Store:
    """Finished pieces on disk, one pickle per key, written atomically; a
    piece that cannot be read counts as missing."""

    def __init__(self, root: Path | None) -> None:
        self.root = root

    def get(self, kind: str, key: str) -> Any | None:
        if self.root is None:
            return None
        try:
            with open(self.root / kind / f"{key}.pickle", "rb") as f:
                return pickle.load(f)
        except FileNotFoundError:
            return None
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
            return None

    def put(self, kind: str, key: str, value: Any) -> None:
        if self.root is None:
            return
        folder = self.root / kind
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, folder / f"{key}.pickle")
        except OSError:
            pass  # a cache that cannot be written only makes the next build slower

    def prune(self, kind: str, keep: Iterable[str]) -> None:
        """Remove the pieces of ``kind`` not in ``keep`` (those of an older book)."""
        if self.root is None or not (self.root / kind).is_dir():
            return
        wanted = {f"{k}.pickle" for k in keep}
        for path in (self.root / kind).iterdir():
            if path.name not in wanted:
                path.unlink(missing_ok=True)


__all__ = ["digest", "code_key", "folder_key", "Store"]
