"""The public API: its examples run (docs/api.md and the docstrings), and
importing whistbook stays light and shadows no module."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import whistbook

ROOT = Path(__file__).resolve().parent.parent


def test_docs_api_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0


@pytest.mark.parametrize("name", ["whistbook", "whistbook.deal", "whistbook.players", "whistbook.themes",
                                  "whistbook.annotate"])
def test_docstring_examples_run(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted and result.failed == 0


def test_every_exported_name_exists():
    for name in whistbook.__all__:
        assert hasattr(whistbook, name), name


def test_no_name_hides_a_module():
    """``import whistbook.laws`` and ``whistbook.laws`` are the same thing, for every submodule."""
    for info in pkgutil.iter_modules(whistbook.__path__):
        if info.name == "__main__":
            continue
        module = importlib.import_module(f"whistbook.{info.name}")
        assert getattr(whistbook, info.name) is module, info.name
        assert isinstance(module, types.ModuleType)


def test_errors_are_one_hierarchy():
    errors = [getattr(whistbook, n) for n in whistbook.__all__ if n.endswith("Error")]
    assert len(errors) == 13 and all(issubclass(e, whistbook.WhistbookError) for e in errors)


def test_import_loads_no_engine():
    code = "import sys, whistbook; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    heavy = ("endplay", "jinja2", "weasyprint", "markdown_it", "whistbook.inference", "whistbook.render", "whistbook.analysis")
    assert not [m for m in loaded if m.startswith(heavy)]
