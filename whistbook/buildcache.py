"""What makes a build incremental: content keys and a store of finished
pieces, signed so that only this user's own are ever loaded (the output
folder's lock and writing are :mod:`whistbook.output`'s).

Every piece a build makes (a lesson, a laid-out part of the booklet) is
stored under a key that hashes everything it was made from: the hand
file's bytes, the rendered HTML and stylesheet, and the code that made it
(whistbook's own files and the versions of WeasyPrint and MkDocs). A piece
whose key is in the store is reused; nothing is ever invalidated by hand.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import secrets
import tempfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable, Mapping


PACKAGE = Path(__file__).resolve().parent


def digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


#: the distributions whose versions shape what a build makes: the hand files'
#: reader, the solver, the templates and Markdown, the booklet's layout and
#: PDF, the site's generator and theme (a new version of any makes everything anew)
SHAPING = ("pyyaml", "endplay", "jinja2", "markupsafe", "markdown-it-py", "weasyprint", "pydyf", "tinyhtml5",
           "tinycss2", "fonttools", "pikepdf", "properdocs", "properdocs-theme-readthedocs", "markdown")


@lru_cache(maxsize=1)
def code_key() -> str:
    """A key of whistbook's code and of the libraries that shape its output
    (:data:`SHAPING`; not of the templates: the pieces made from HTML are
    keyed by it, and those keyed before their HTML is made, a lesson's
    booklet part say, add the templates' :func:`folder_key`)."""
    parts: list[str | bytes] = []  # whistbook's own version is in its files, hashed below
    for name in SHAPING:
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


def user_cache_dir() -> Path:
    """This user's own cache folder for whistbook (``$XDG_CACHE_HOME/whistbook``,
    else ``~/.cache/whistbook``): never a project's."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "whistbook"


#: the signing key's length, in bytes
KEY_BYTES = 32


@lru_cache(maxsize=1)
def signing_key() -> bytes:
    """The key that signs what this user's builds keep (in the user's own cache
    folder, made on first use, readable by the user alone). A project's cache
    comes with the project and may have been made by anyone: a piece is loaded
    only when signed with this key, since loading a pickle can run code. When the
    key cannot be kept, one for this process alone: nothing kept is then reused."""
    path = user_cache_dir() / "store.key"
    try:
        found = path.read_bytes()
        if len(found) == KEY_BYTES:
            return found
    except OSError:
        pass
    key = secrets.token_bytes(KEY_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".key-", dir=path.parent)  # private to the user (0600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        try:
            os.link(tmp, path)  # only if no other build made one meanwhile
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
        found = path.read_bytes()
        return found if len(found) == KEY_BYTES else key
    except OSError:
        return key


#: how a signed piece begins (a piece of another format, or none, is never read further)
MAGIC = b"whistbk1"


def sign(label: str, data: bytes) -> bytes:
    """``data`` with its signature under :func:`signing_key`, for ``label`` (its kind and key)."""
    return MAGIC + hmac.new(signing_key(), label.encode("utf-8") + b"\0" + data, hashlib.sha256).digest() + data


def verified(label: str, signed: bytes) -> bytes | None:
    """The data of a piece made by :func:`sign` for ``label``, or None when it is
    not one, or was signed with another key, for another label, or changed since."""
    head, mac, data = signed[:len(MAGIC)], signed[len(MAGIC):len(MAGIC) + 32], signed[len(MAGIC) + 32:]
    if head != MAGIC or len(mac) != 32:
        return None
    good = hmac.new(signing_key(), label.encode("utf-8") + b"\0" + data, hashlib.sha256).digest()
    return data if hmac.compare_digest(mac, good) else None


class Store:
    """Finished pieces on disk, one signed pickle per key (:func:`sign`),
    written atomically. A piece counts as missing when it cannot be read,
    is not signed by this user's key (a cache that came with a project from
    elsewhere: it is never unpickled), or is not of the type its kind holds
    (``types``, by kind)."""

    def __init__(self, root: Path | None, types: Mapping[str, type] | None = None) -> None:
        self.root = root
        self.types = dict(types or {})

    def get(self, kind: str, key: str) -> Any | None:
        if self.root is None:
            return None
        try:
            signed = (self.root / kind / f"{key}.pickle").read_bytes()
        except OSError:
            return None
        data = verified(f"{kind}/{key}", signed)
        if data is None:
            return None
        try:
            value = pickle.loads(data)
        except Exception:  # signed by us, but by a version whose classes differ: made again
            return None
        wanted = self.types.get(kind)
        return value if wanted is None or isinstance(value, wanted) else None

    def put(self, kind: str, key: str, value: Any) -> None:
        if self.root is None:
            return
        folder = self.root / kind
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
            with os.fdopen(fd, "wb") as f:
                f.write(sign(f"{kind}/{key}", pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)))
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


__all__ = ["digest", "code_key", "folder_key", "Store", "sign", "verified", "signing_key", "user_cache_dir"]
