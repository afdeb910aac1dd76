"""The solver's answers (and the judge's verdicts) kept on disk between runs:
plain JSON, one file per key (:class:`Cache`), in the project's
``.whistbook-cache`` unless told otherwise (:func:`default_cache_dir`).
Read by :mod:`whistbook.analysis`, which also makes the keys."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Where the cache lives unless told otherwise, relative to the project root.
DEFAULT_CACHE_DIR = ".whistbook-cache"


class Cache:
    """Solver results on disk, one JSON file per key under ``path``.

    Files are written to a temporary name and moved into place with
    :func:`os.replace`, so a crash leaves either the old file or the new one,
    never half of one. A file that cannot be read or parsed counts as a miss.
    A cache that cannot be written is reported in the log and otherwise ignored.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"Cache({str(self.path)!r})"

    def _file(self, key: str, section: str) -> Path:
        return self.path / section / f"{key}.json"

    def get(self, key: str, section: str = "analysis") -> Any | None:
        """The value stored under ``key`` (in ``section``: "analysis" for the
        solver's answers, "judge" for single-dummy verdicts), or None if
        absent or unreadable."""
        f = self._file(key, section)
        try:
            text = f.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as err:
            log.info("cache: cannot read %s (%s); solving again", f, err)
            return None
        try:
            return json.loads(text)
        except ValueError as err:
            log.info("cache: %s is damaged (%s); solving again", f, err)
            return None

    def put(self, key: str, value: Any, section: str = "analysis") -> None:
        """Store ``value`` (plain JSON data) under ``key``, atomically."""
        f = self._file(key, section)
        tmp = None
        try:
            f.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{key[:12]}-", suffix=".tmp", dir=f.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(value, out, separators=(",", ":"))
            os.replace(tmp, f)
            tmp = None
        except OSError as err:
            log.warning("cache: cannot write %s (%s); results are not kept", f, err)
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass


def default_cache_dir(start: str | os.PathLike[str] | None = None) -> Path:
    """``.whistbook-cache`` in the project: the nearest folder at or above
    ``start`` (default: the working folder) holding ``pyproject.toml`` or
    ``.git``, else ``start`` itself."""
    here = Path(start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / "pyproject.toml").is_file() or (d / ".git").exists():
            return d / DEFAULT_CACHE_DIR
    return here / DEFAULT_CACHE_DIR


__all__ = ["Cache", "default_cache_dir", "DEFAULT_CACHE_DIR"]
