"""What a build tells of its work while it runs.

A :class:`Progress` says lines (:meth:`Progress.say`) and counts work as it
is done (:meth:`Progress.counter`): on a terminal a counter is one line
redrawn in place, a bar with the count and the piece last done; elsewhere
(a log, a pipe, a test) each piece done is a plain line, ``[3/50] Hand III``.
Only work that is done is counted: what comes from the build's store is not.
"""

from __future__ import annotations

import shutil
import sys
import threading
from typing import Callable, TextIO

#: characters of the bar drawn on a terminal
BAR = 24


class Progress:
    """Lines and counters, written with ``write`` (one line a call, no line
    end), or redrawn in place on ``stream`` when it is a terminal."""

    def __init__(self, write: Callable[[str], None] | None = None, *, stream: TextIO | None = None) -> None:
        self.stream = stream
        self.tty = stream is not None and stream.isatty()
        self._write = write or (lambda line: None)
        self._lock = threading.Lock()  # a counter may be stepped from the pool's thread
        self._shown: Counter | None = None

    @classmethod
    def on(cls, stream: TextIO) -> "Progress":
        """Lines on ``stream``, or a bar redrawn in place when it is a terminal."""
        return cls(lambda line: print(line, file=stream, flush=True), stream=stream)

    def say(self, message: str) -> None:
        with self._lock:
            self._clear()
            self._write(message)
            self._draw()

    def __call__(self, message: str) -> None:  # a Progress serves where a function of a line is asked for
        self.say(message)

    def counter(self, what: str, total: int, prefix: str = "") -> "Counter":
        """A count of ``total`` pieces of work, ``what`` on a terminal; each
        plain line begins with ``prefix``."""
        out = Counter(self, what, total, prefix)
        with self._lock:
            self._clear()
            self._shown = out if total else None
            if total and not self.tty:
                self._write(f"{what}: {total} to do")
            self._draw()
        return out

    def _step(self, counter: "Counter", label: str) -> None:
        with self._lock:
            counter.done += 1
            counter.label = label
            if not self.tty:
                self._write(f"[{counter.done}/{counter.total}] {counter.prefix}{label}")
            elif counter is self._shown:
                self._draw()

    def _end(self, counter: "Counter") -> None:
        with self._lock:
            if counter is self._shown:
                self._clear()
                self._shown = None

    def _clear(self) -> None:
        if self.tty and self._shown is not None and self.stream is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _draw(self) -> None:
        c = self._shown
        if not self.tty or c is None or self.stream is None:
            return
        filled = BAR * c.done // max(c.total, 1)
        line = f"{c.what} [{'#' * filled}{'-' * (BAR - filled)}] {c.done}/{c.total} {c.label}"
        width = shutil.get_terminal_size((80, 24)).columns - 1
        self.stream.write("\r\x1b[K" + line[:width])
        self.stream.flush()


class Counter:
    """Work counted by a :class:`Progress`: :meth:`step` as each piece is done."""

    def __init__(self, progress: Progress, what: str, total: int, prefix: str) -> None:
        self.progress, self.what, self.total, self.prefix = progress, what, total, prefix
        self.done, self.label = 0, ""

    def step(self, label: str = "") -> None:
        self.progress._step(self, label)

    def end(self) -> None:
        """The count is over (its bar goes from the terminal)."""
        self.progress._end(self)


def progress_of(report: Callable[[str], None] | Progress | None) -> Progress:
    """A :class:`Progress` for what a caller gave: one already, a function of a
    line (each line to it, plain), or nothing (silence)."""
    if isinstance(report, Progress):
        return report
    return Progress(report)


class CardCount:
    """The judge's count of one hand's cards (its ``progress(done, total)``):
    ``PATH: judging card 12 of 40`` redrawn in place on a terminal, nothing
    elsewhere (a hand takes seconds, not a log's worth of lines); the line
    goes when the count is over, or at :meth:`close` if the work stops early."""

    def __init__(self, what: str, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.what, self.stream = what, stream or sys.stderr
        self.live, self.shown = not quiet and self.stream.isatty(), False

    def __call__(self, done: int, total: int) -> None:
        if not self.live:
            return
        self.stream.write(f"\r\x1b[K{self.what}: judging card {done} of {total}")
        self.stream.flush()
        self.shown = True
        if done == total:
            self.close()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def stderr_progress(quiet: bool) -> Progress:
    """The command line's progress: on standard error, none with ``--quiet``."""
    return Progress() if quiet else Progress.on(sys.stderr)


__all__ = ["Progress", "Counter", "CardCount", "progress_of", "stderr_progress"]
