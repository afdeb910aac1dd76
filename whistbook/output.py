"""The one writer of an output folder.

A build writes its output into a new folder beside the old one and swaps
it in whole with renames (:func:`write_output`), holding the output's lock
(:class:`OutputLock`) from start to end; a build killed part-way leaves the
old output, and the next build tidies what it left
(:func:`tidy_after_interruption`).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Mapping

from .errors import ConfigError, naming

STAMP = ".whistbook-build"  # what the output was built from, and its files (a Stamp), inside the output folder
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
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                raise ConfigError(f"another build is writing {self.path.parent / self.path.name[1:-5]}"
                                  + (f" (process {holder})" if holder else "")
                                  + ": wait for it to finish, then build again") from None
            # The holder before us removes the file before it unlocks: a lock taken on a
            # file no longer at the path is a lock on nothing, and another build may hold
            # the new file's. Only the file still at the path counts.
            if _same_file(fd, self.path):
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            self.path.unlink(missing_ok=True)  # before unlocking: a build waiting on this file then tries again
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _same_file(fd: int, path: Path) -> bool:
    try:
        here = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (here.st_dev, here.st_ino)


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


def swap_in(new: Path, output: Path) -> None:
    """Replace ``output`` by ``new`` (both in the same folder) with renames only.

    :raises ConfigError: when the old output cannot be moved aside or the new
        one put in its place (the old output is then left as it was).
    """
    old = None
    try:
        if output.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{output.name}-old-", dir=output.parent))
            os.rmdir(old)
            os.replace(output, old)
        os.replace(new, output)
    except OSError as err:
        if old is not None and not output.exists() and old.exists():
            os.replace(old, output)
        raise ConfigError(f"{output}: cannot replace the output folder ({err.strerror}); it was left as it was: "
                          "make it and the folder around it writable, or build into another (--output)") from None
    if old is not None:
        _remove(old)


def _remove(folder: Path) -> None:
    """Remove ``folder`` whole, a read-only file or folder in it included (an old
    output of ours: nothing in it is kept). What still cannot be removed is an
    error, not a folder left behind in silence."""
    def writable_and_again(fn, path, _exc) -> None:
        os.chmod(os.path.dirname(path), 0o700)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
        fn(path)

    try:
        shutil.rmtree(folder, onerror=writable_and_again)
    except OSError as err:
        raise ConfigError(f"{folder}: the old output could not be removed ({err.strerror}): the new one is in place; "
                          "remove this folder by hand") from None


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


@dataclass
class Stamp:
    """What an output folder was built from (the build's key; empty when the
    output is not a whole build's, as after ``serve`` wrote a page), what it
    holds, and every file it was written with, by size and time: a file
    missing or changed since means the output is no longer that build's."""

    key: str = ""
    lessons: int = 0
    problems: int = 0
    pdf_pages: int = 0
    files: dict[str, list[int]] = field(default_factory=dict)

    def write(self, folder: Path) -> None:
        (folder / STAMP).write_text(json.dumps(asdict(self), separators=(",", ":")) + "\n", encoding="utf-8")


def _files_of(folder: Path) -> dict[str, list[int]]:
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != STAMP:
            st = path.stat()
            files[path.relative_to(folder).as_posix()] = [st.st_size, st.st_mtime_ns]
    return files


def current_stamp(output: Path, key: str) -> Stamp | None:
    """The output's stamp when the output is the build of ``key`` and every
    file that build wrote is still there as it was written; else None."""
    try:
        data = json.loads((output / STAMP).read_text(encoding="utf-8"))
        stamp = Stamp(**data)
    except (OSError, ValueError, TypeError):
        return None
    if not key or stamp.key != key or not isinstance(stamp.files, dict) or not stamp.files:
        return None
    for rel, (size, mtime) in stamp.files.items():
        try:
            st = (output / rel).stat()
        except OSError:
            return None
        if (st.st_size, st.st_mtime_ns) != (size, mtime):
            return None
    return stamp


def forget_build(output: Path) -> None:
    """Mark the output as no build's (``serve`` wrote into it): the next build makes it again."""
    Stamp().write(output)


def write_output(folder: Path, output: Path, pages: Mapping[str, str], pdf: bytes | None, stamp: Stamp) -> None:
    """The pages and the booklet into ``folder`` (the site is already there), then
    ``folder`` swapped in whole, with ``stamp`` (its files listed here).

    :raises ConfigError: when the output cannot be replaced (it is left as it was).
    """
    write_files(pages, folder / "html")
    if pdf is not None:
        write_files({BOOKLET: pdf}, folder)
    elif (output / BOOKLET).is_file():  # serve: the last booklet stays until one is asked for
        shutil.copy2(output / BOOKLET, folder / BOOKLET)
    stamp.files = _files_of(folder)
    stamp.write(folder)
    swap_in(folder, output)


__all__ = ["STAMP", "BOOKLET", "OutputLock", "Stamp", "current_stamp", "forget_build", "tidy_after_interruption",
           "swap_in", "new_folder", "write_files", "write_output"]
