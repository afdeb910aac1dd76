"""What the libraries the renderers drive (WeasyPrint, ProperDocs) log, collected.

Both report document problems by logging rather than raising: a missing
image, a bad CSS value in an override, a broken link in strict mode. The
renderers collect those lines and hand them on, as progress lines or in a
:class:`~whistbook.errors.RenderError`.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Iterator


class _Collect(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(f"{record.levelname.lower()}: {record.getMessage()}")


@contextmanager
def warnings_of(name: str, *, only_here: bool = False) -> Iterator[list[str]]:
    """While the block runs, collect the warnings and errors logged under
    ``name`` as ``"level: message"`` lines. With ``only_here`` they are not
    passed on to other handlers (and the logger's level is set to warnings),
    as for a library that would otherwise print them itself."""
    lines: list[str] = []
    logger = logging.getLogger(name)
    handler = _Collect(lines)
    saved = (logger.level, logger.propagate)
    logger.addHandler(handler)
    if only_here:
        logger.setLevel(logging.WARNING)
        logger.propagate = False
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
