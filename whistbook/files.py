"""Files written whole or not at all.

A hand file, an imported board or an annotated file is written into a file
beside it and moved over it in one step: a reader (an editor, ``serve``
watching the folder) never sees half a file, and a write that fails (a full
disk, a read-only folder) leaves the old file as it was and nothing beside
it. The :class:`OSError` names the file and reaches the command line, which
prints it as a located error.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, text: str, *, newline: str | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all. ``newline=""``
    keeps the text's own line ends (a file with Windows line ends keeps them)."""
    tmp = path.with_name(f".{path.name}.part")
    try:
        tmp.write_text(text, encoding="utf-8", newline=newline)
        tmp.replace(path)
    except OSError as err:
        # the file the user named, not the one beside it (nor none, as a full disk says)
        err.filename, err.filename2 = os.fspath(path), None
        raise
    finally:
        tmp.unlink(missing_ok=True)


__all__ = ["write_whole"]
