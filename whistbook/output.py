"""The one writer of an output folder.

A build writes its output into a new folder beside the old one and swaps
it in whole with renames (:func:`write_output`), holding the output's lock
(:class:`OutputLock`) from start to end; a build killed part-way leaves the
old output, and the next build tidies what it left
(:func:`tidy_after_interruption`).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from pathlib import Path
from typing import Mapping

from .errors import ConfigError, naming

STAMP = ".whistbook-build"  # the build's key, inside the output folder
BOOKLET = "whistbook.pdf"


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


def write_files(files: Mapping[str, str | bytes], root: Path) -> None:
    """Write ``relative path -> text or bytes`` under ``root`` (the only writer of pages)."""
    for rel, content in files.items():
        path = root / rel
        with naming(path):  # a full disk names no file
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")


def _swap_in(new: Path, output: Path) -> None:
    """Replace ``output`` by ``new`` (both in the same folder) with renames only."""
    old = None
    if output.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{output.name}-old-", dir=output.parent))
        os.rmdir(old)
        os.replace(output, old)
    try:
        os.replace(new, output)
    except OSError:
        if old is not None:
            os.replace(old, output)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def new_folder(output: Path) -> Path:
    """An empty folder beside ``output`` to build the new output in (the next
    build removes it if this one is killed before the swap)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{output.name}-", dir=output.parent)).resolve()
    os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes it private; the output is not
    return tmp


def write_output(folder: Path, output: Path, pages: Mapping[str, str], pdf: bytes | None, key: str) -> None:
    """The pages and the booklet into ``folder`` (the site is already there), then ``folder`` swapped in whole."""
    write_files(pages, folder / "html")
    if pdf is not None:
        write_files({BOOKLET: pdf}, folder)
    elif (output / BOOKLET).is_file():  # serve: the last booklet stays until one is asked for
        shutil.copy2(output / BOOKLET, folder / BOOKLET)
    (folder / STAMP).write_text(key + "\n", encoding="utf-8")
    _swap_in(folder, output)

__all__ = ["STAMP", "BOOKLET", "OutputLock", "tidy_after_interruption", "new_folder", "write_files", "write_output"]
