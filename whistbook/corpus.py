"""Find hand files, load them and check them, stage by stage.

This is the gather stage of every command: nothing here writes anything.
The checks run as a one-way chain, each stage on what the one before
accepted: the laws (:mod:`whistbook.laws`), then a problem's task and lines
(:mod:`whistbook.problem`). The author's ``infer:`` statements are a stage
of their own, after the explanation
(:func:`whistbook.inference.statements.check_stated`): checking imports no
inference engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from .errors import ConfigError, Diagnostic, HandFileError
from .handfile import load, load_bytes, problems_of
from .laws import CheckedHand, check
from .model import HandFile

#: the endings of hand files in a folder
HAND_SUFFIXES = (".yaml", ".yml")


def find_hand_files(paths: Iterable[str | Path]) -> list[Path]:
    """Expand files and folders (recursively, ``*.yaml`` and ``*.yml``) in a stable order.

    :raises ConfigError: for a path that does not exist.
    """
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*") if q.suffix in HAND_SUFFIXES and q.is_file()))
        elif path.is_file():
            out.append(path)
        elif path.exists():
            raise ConfigError(f"{p}: not a file or a folder")
        else:
            raise ConfigError(f"{p}: no such file or folder")
    return out


def check_file(path: str | Path, *, solver: bool = True, data: bytes | None = None) -> CheckedHand:
    """Load and check one file (the laws, a problem's task); a file that cannot
    be loaded gives a :class:`CheckedHand` with ``hand=None`` and its problems
    as diagnostics. ``data``: the file's bytes, already read."""
    try:
        hf = load(path) if data is None else load_bytes(data, str(path))
    except HandFileError as err:
        out = CheckedHand(None)  # type: ignore[arg-type]
        out.diagnostics.extend(Diagnostic.from_error(e, str(path)) for e in problems_of(err))
        return out
    return check_hand(hf, solver=solver)


def check_hand(hf: HandFile, *, solver: bool = True) -> CheckedHand:
    """Check a loaded hand file (see :func:`check_file`)."""
    checked = check(hf, solver=solver)
    _draft_notes(hf, checked)
    if checked.replay is None:
        return checked
    if hf.kind == "problem" and checked.ok:
        from .problem import check_problem

        checked.problem, found = check_problem(hf, solver=solver)
        checked.diagnostics.extend(found)
    return checked


def drafts(hf: HandFile | None) -> int:
    """How many tricks carry a draft remark that the author has not accepted."""
    return 0 if hf is None else sum(1 for t in hf.tricks if t.remark_draft is not None)


def _draft_notes(hf: HandFile, checked: CheckedHand) -> None:
    """A note at each draft remark: it is shown as a draft until the author accepts it."""
    for t in hf.tricks:
        if t.remark_draft is None:
            continue
        if t.remark is not None:
            checked.note(f"trick {t.number} has a remark, so its draft is not shown: delete the remark_draft",
                         t.remark_draft_loc)
        else:
            checked.note(f"trick {t.number}: a draft remark, shown as a draft: read it, edit it as you like and "
                         "rename 'remark_draft' to 'remark' to accept it", t.remark_draft_loc)


def check_files(paths: Iterable[str | Path], *, solver: bool = True) -> list[CheckedHand]:
    return [check_file(p, solver=solver) for p in paths]
