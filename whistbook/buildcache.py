"""What makes a build incremental and safe: content keys, a store of
finished pieces, and the lock on an output folder.

Every piece a build makes (a lesson, a laid-out part of the booklet) is
stored under a key that hashes everything it was made from: the hand
file's bytes, the rendered HTML and stylesheet, and the code that made it
(whistbook's own files and the versions of WeasyPrint and MkDocs). A piece
whose key is in the store is reused; nothing is ever invalidated by hand.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import shutil
import tempfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

from . import __version__
from .errors import ConfigError

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


class OutputLock:
    """An exclusive lock on an output folder (``.NAME.lock`` beside it), held
    for the whole build; the system frees it when the process ends, however
    it ends."""

    def __init__(self, output: Path) -> None:
        self.path = output.parent / f".{output.name}.lock"
        self._fd: int | None = None

    @property
    def fd(self) -> int | None:
        return self._fd

    def __enter__(self) -> "OutputLock":
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            raise ConfigError(f"another build is writing {self.path.parent / self.path.name[1:-5]}"
                              + (f" (process {holder})" if holder else "")
                              + ": wait for it to finish, then build again") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            self.path.unlink(missing_ok=True)  # before unlocking, so no later build finds a stale file
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def tidy_after_interruption(output: Path) -> None:
    """Undo what a build killed part-way left beside ``output`` (call it
    holding the lock): the old output put back if the kill fell between the
    two renames of the swap, and unfinished temporary folders removed."""
    parent = output.parent
    if not parent.is_dir():
        return
    olds = sorted(parent.glob(f".{output.name}-old-*"))
    if not output.exists() and olds:
        os.replace(olds[-1], output)
    for path in parent.glob(f".{output.name}-*"):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)


__all__ = ["digest", "code_key", "folder_key", "Store", "OutputLock", "tidy_after_interruption"]
