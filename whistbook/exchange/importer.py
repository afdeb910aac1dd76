"""Importing a PBN or LIN file: every board becomes a hand file or is left
out with its reason, and nothing is lost in silence.

The work comes in two steps. :func:`plan` makes each board a checked record
(no solver: the deal, the play, the turn-up), names its hand file, and sorts
out the boards that cannot be whist (:class:`~.bridge.NotWhistError`, a note)
from those that are wrong (an error). :func:`finish` then completes each
record with the tricks each side takes (the double-dummy solver where the
record says none) and writes its hand file's text, checked by the replay;
:func:`finish_all` spreads that work over the machine's cores, and gives
each result back as soon as it and those before it are done.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from ..cards import Card, Suit
from ..errors import Diagnostic, RecordError, SourceLocation, WhistbookError
from .bridge import BridgeBoard, NotWhistError, to_record
from .record import Record

#: below this many boards the solving stays in this process
_POOL_FROM = 8


@dataclass
class Job:
    """One board to finish: its record, where it goes, and how to name it."""

    record: Record
    target: str
    origin: str
    loc: SourceLocation
    label: str


@dataclass
class Plan:
    """What :func:`plan` makes of a file's boards."""

    jobs: list[Job]
    #: boards left out because they cannot be whist (notes), and boards in error
    skipped: list[Diagnostic]
    errors: list[Diagnostic]


def file_names(boards: Sequence[BridgeBoard], stem: str) -> list[str]:
    """A distinct file name for each board: ``deals-07.yaml`` by its number;
    boards that share a number told apart by room (``deals-07-open.yaml``),
    else by table (``deals-07-table-3.yaml``), else by their order in the
    file (``deals-07-1.yaml``, ``deals-07-2.yaml``); boards without a number
    named by their order (``deals-unnumbered-1.yaml``)."""
    bases = []
    for b in boards:
        if b.number is not None:
            bases.append(f"{stem}-{b.number:02d}")
        elif b.label:
            bases.append(f"{stem}-{_safe(b.label)}")
        else:
            bases.append(f"{stem}-unnumbered")
    names = list(bases)
    for base in set(bases):
        group = [k for k, name in enumerate(bases) if name == base]
        if len(group) == 1 and not base.endswith("-unnumbered"):
            continue
        for attr, word in (("room", ""), ("table", "table-")):
            tags = [getattr(boards[k], attr) for k in group]
            if all(tags) and len(set(tags)) == len(tags):
                for k in group:
                    names[k] = f"{base}-{word}{_safe(getattr(boards[k], attr))}"
                break
        else:
            for n, k in enumerate(group, 1):
                names[k] = f"{base}-{n}"
    seen: set[str] = set()
    for k, name in enumerate(names):  # a label that happens to spell another board's name
        if name in seen:
            names[k] = name = f"{name}-{k + 1}"
        seen.add(name)
    return [n + ".yaml" for n in names]


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def plan(boards: Sequence[BridgeBoard], source: Path, folder: Path | None, file: Path | None,
         turn_up: Card | None = None, trumps: Suit | None = None, strict: bool = False) -> Plan:
    """Each board made a record and given its hand file's path, or set
    aside with its reason. With ``file`` every board goes there (the caller
    makes sure there is one); with ``folder`` each gets a name of its own.
    ``trumps`` deals the boards whose record names none (``--trumps``);
    with ``strict`` a board that cannot be whist is an error, not a note."""
    names = file_names(boards, source.stem)
    out = Plan([], [], [])
    several = len(boards) > 1
    for board, name in zip(boards, names):
        label = f"{board.describe()}: " if several else ""
        try:
            rec = to_record(board, turn_up, trumps)
        except NotWhistError as err:
            out.skipped.append(_left_out(err, board, label, strict))
            continue
        except RecordError as err:
            out.errors.append(Diagnostic(err.loc or board.loc, "error", f"{label}{err.message}"))
            continue
        target = file or (folder / name if folder else Path(name))
        origin = source.name + (f", {board.describe()}" if several or board.number is not None else "")
        out.jobs.append(Job(rec, str(target), origin, board.loc, label))
    return out


def _left_out(err: NotWhistError, board: BridgeBoard, label: str, strict: bool) -> Diagnostic:
    """The note for a board that cannot be whist, with the way to bring it in
    where there is one; an error under ``--strict``."""
    hint = f" ({err.hint})" if err.hint else ""
    if strict:
        return Diagnostic(err.loc or board.loc, "error", f"{label}{err.message}{hint}")
    return Diagnostic(err.loc or board.loc, "note", f"{label}{err.message}; not imported{hint}")


def finish(job: Job) -> str | Diagnostic:
    """The hand file's text for one board, the claim settled (by the solver
    where the record states no result), checked by the replay; or the error
    that stops it (a fault of the import, placed at the board)."""
    from ..corpus import check_hand
    from ..handfile import loads
    from .handtext import hand_text
    from .record import settle_totals

    try:
        rec = settle_totals(job.record)
        text = hand_text(rec, job.origin)
    except RecordError as err:
        return Diagnostic(err.loc or job.loc, "error", f"{job.label}{err.message}")
    try:
        checked = check_hand(loads(text, job.target), solver=False)
        problem = next((d.message for d in checked.diagnostics if d.level == "error"), None)
    except WhistbookError as err:
        problem = err.message
    if problem is not None:
        return Diagnostic(job.loc, "error", f"{job.label}the hand file made from this board does not validate: {problem}")
    return text


def finish_all(jobs: Sequence[Job], workers: int | None = None) -> Iterator[tuple[Job, str | Diagnostic]]:
    """:func:`finish` for every job, in order, each given back as soon as it
    is done; over ``workers`` processes (default: one a core) when there
    are enough boards to be worth it."""
    workers = workers or os.cpu_count() or 1
    if workers < 2 or len(jobs) < _POOL_FROM:
        for job in jobs:
            yield job, finish(job)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_start) as pool:
        chunk = max(1, min(32, len(jobs) // (workers * 8)))
        yield from zip(jobs, pool.map(finish, jobs, chunksize=chunk))


def _worker_start() -> None:
    """One DDS thread a worker: the workers already take every core."""
    from ..solver import limit_threads

    limit_threads(1)

