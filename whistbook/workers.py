"""The build's worker processes: one pool for every stage, jobs taken by
rank, each piece from the store when it has it (:class:`Pool`)."""

from __future__ import annotations

import ctypes
import heapq
import os
import signal
import threading
import time
from concurrent.futures import BrokenExecutor, CancelledError, Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Sequence

from .buildcache import Store
from .errors import RenderError
from .output import OutputLock

#: prctl's option that asks the kernel for a signal when the parent process ends (Linux)
PR_SET_PDEATHSIG = 1

#: The order in which the workers take jobs (``rank``): the lessons first (the
#: rest of the book waits for them), then the jobs that wait for the whole book
#: (the site, the answers, the measures with stand-ins), and last the parts that
#: only fill the cores meanwhile (each lesson's part, the principles, the glossary).
LESSONS, BOOK, FILL = 0, 1, 2


class Pool:
    """Worker processes, started only when there is work no stored piece covers.

    Every stage gives its jobs to the same workers: a stage's jobs can be
    given while an earlier stage's are still running, so that no core waits
    for a stage to end. The workers take them by rank, then in the order
    given: only a few jobs are in the executor at a time (which would take
    them in order), so that a job given late but needed soon goes before the
    parts still waiting. A job asked for twice in one build (the same kind
    and key) is done once.
    """

    def __init__(self, workers: int | None, store: Store | None = None, lock: OutputLock | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.store = store if store is not None else Store(None)
        self.lock = lock
        #: pieces made anew in this build, and taken from the store
        self.made = self.reused = 0
        self._executor: Executor | None = None
        #: jobs not yet in the executor, by (rank, order given); how many are in it
        self._waiting: list[tuple[int, int, Callable[..., Any], tuple, Future]] = []
        self._given_count, self._running = 0, 0
        self._mutex = threading.Lock()  # the executor's results come in on its own thread
        #: the keys each kind of piece was asked for (what the store should keep)
        self.used: dict[str, set[str]] = {}
        #: the jobs given to the workers in this build (and the pieces found in the store), by kind and key
        self._given: dict[tuple[str, str], Future] = {}
        #: the pieces in the store (found there, or made in this build and put there)
        self._kept: set[tuple[str, str]] = set()
        #: the pieces found in the store (not made in this build)
        self._found: set[tuple[str, str]] = set()

    def run(self, kind: str, fn: Callable[..., Any], jobs: Sequence[tuple[str, tuple]],
            weight: Callable[[tuple], int] | None = None, rank: int = BOOK) -> list[Any]:
        """``fn(*args)`` for each ``(key, args)``, from the store when it has the key.
        With ``weight`` (of the arguments), the heaviest jobs are started first,
        so that no long one is left to run alone at the end."""
        return self.finish(self.start(kind, fn, jobs, weight, rank))

    def start(self, kind: str, fn: Callable[..., Any], jobs: Sequence[tuple[str, Any]],
              weight: Callable[[tuple], int] | None = None, rank: int = BOOK) -> "Batch":
        """:meth:`run` begun: the workers take the jobs while the caller
        starts more; :meth:`finish` waits for the results. A job's arguments
        may be given as a function that makes them, called here when the
        job is given, only if the store does not have its piece."""
        self.used.setdefault(kind, set()).update(key for key, _ in jobs)
        batch = Batch(kind, jobs, [None] * len(jobs))
        todo = []
        for k, (key, _) in enumerate(jobs):
            if (kind, key) in self._given:
                batch.futures[k] = self._given[kind, key]
                if (kind, key) not in self._found:
                    batch.made.add(k)
            elif (found := self.store.get(kind, key)) is not None:
                batch.results[k] = found
                self._given[kind, key] = _resolved(found)  # read once, however often asked for
                self._kept.add((kind, key))
                self._found.add((kind, key))
                self.reused += 1
            else:
                todo.append(k)
                batch.made.add(k)
        self.made += len(todo)
        args = {k: jobs[k][1]() if callable(jobs[k][1]) else jobs[k][1] for k in todo}
        if weight is not None:
            todo.sort(key=lambda k: -weight(args[k]))
        for k in todo:
            batch.futures[k] = self._given[kind, jobs[k][0]] = self.submit(fn, *args[k], rank=rank)
        return batch

    def submit(self, fn: Callable[..., Any], *args: Any, rank: int = BOOK) -> Future:
        """``fn(*args)`` in a worker (here, with one worker), after the jobs of
        a lower rank and those of its rank given before it. Single jobs go to
        the workers too: the main process then never holds a layout's memory,
        and a lone job runs beside the next one given."""
        if self.workers == 1:
            return _done(fn, *args)
        if self._executor is None:
            # Workers must not keep the output's lock open when the build is killed.
            self._executor = ProcessPoolExecutor(self.workers, initializer=_start_worker,
                                                 initargs=(self.lock.fd if self.lock else None, os.getpid()))
        future: Future = Future()
        with self._mutex:
            heapq.heappush(self._waiting, (rank, self._given_count, fn, args, future))
            self._given_count += 1
        self._feed()
        return future

    def _feed(self) -> None:
        """Move the first waiting jobs into the executor, keeping one more than
        there are workers in it: each worker has its next job at hand."""
        while True:
            with self._mutex:
                if not (self._waiting and self._executor is not None and self._running <= self.workers):
                    return
                _, _, fn, args, future = heapq.heappop(self._waiting)
                if not future.set_running_or_notify_cancel():
                    continue
                self._running += 1
                executor = self._executor
            try:  # outside the lock: a job already done calls back at once
                inner = executor.submit(fn, *args)
            except RuntimeError as err:  # closed meanwhile, or broken (a worker killed): said as it is
                inner = Future()
                inner.set_exception(err)
            inner.add_done_callback(partial(self._ended, future))

    def _ended(self, future: Future, inner: Future) -> None:
        """A job's result handed to its future (on the executor's thread), and the next job in."""
        with self._mutex:
            self._running -= 1
        if inner.cancelled():
            future.set_exception(CancelledError())
        elif inner.exception() is not None:
            future.set_exception(inner.exception())
        else:
            future.set_result(inner.result())
        self._feed()

    def finish(self, batch: "Batch", each: Callable[[int, Any], None] | None = None) -> list[Any]:
        """The batch's results, in order; ``each(k, result)`` is called as each is ready.
        What was made (and has no errors) is put in the store."""
        waiting: dict[Future, list[int]] = {}
        for k in range(len(batch.jobs)):
            if k in batch.futures:
                waiting.setdefault(batch.futures[k], []).append(k)
            elif each is not None:
                each(k, batch.results[k])
        for future in as_completed(waiting):
            for k in waiting[future]:
                try:
                    batch.results[k] = result = future.result()
                except BrokenExecutor as err:  # a worker killed (out of memory, say): no traceback
                    raise RenderError(f"a worker process stopped before its work was done ({err})") from err
                key = (batch.kind, batch.jobs[k][0])
                if key not in self._kept and not getattr(result, "errors", None):
                    self.store.put(*key, result)
                    self._kept.add(key)
                if each is not None:
                    each(k, result)
        return batch.results

    def close(self) -> None:
        """Stop the workers, after the jobs they are running (those not begun are dropped)."""
        with self._mutex:
            executor, self._executor = self._executor, None
            for *_, future in self._waiting:
                future.cancel()
            self._waiting.clear()
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


@dataclass
class Batch:
    """Jobs given to the pool: their results so far, and the futures of the rest."""

    kind: str
    jobs: Sequence[tuple[str, Any]]  # (key, arguments or a function that makes them)
    results: list[Any]
    futures: dict[int, Any] = field(default_factory=dict)
    #: the jobs made in this build, not taken from the store (by their place in ``jobs``)
    made: set[int] = field(default_factory=set)


def _start_worker(fd: int | None, parent: int) -> None:
    from . import solver

    if fd is not None:
        os.close(fd)
    _end_with(parent)
    solver.limit_threads(1)  # the workers already keep every core busy


def _end_with(parent: int) -> None:
    """End this worker when the build that started it ends, however it ends
    (SIGTERM and SIGKILL give the pool no chance to stop its workers): on
    Linux the kernel sends SIGKILL when the parent goes; elsewhere a thread
    watches for the parent to go (the worker is then given to another)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        deathsig = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        deathsig = False
    if os.getppid() != parent:  # gone already, before the signal was asked for
        os._exit(1)
    if not deathsig:
        threading.Thread(target=_watch_parent, args=(parent,), name="whistbook-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _done(fn: Callable[..., Any], *args: Any) -> Future:
    """``fn(*args)`` run here, as a finished future."""
    return _resolved(fn(*args))


def _resolved(result: Any) -> Future:
    out: Future = Future()
    out.set_result(result)
    return out


__all__ = ["Pool", "Batch", "LESSONS", "BOOK", "FILL"]
