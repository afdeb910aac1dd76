"""A book project: a folder with ``hands/``, ``templates/`` and ``mkdocs.yml``.

The book's settings live in the project's ``mkdocs.yml``, which the site
needs anyway: MkDocs' own ``site_name`` (the title) and ``site_author``, and
whistbook's settings under ``extra: whistbook:`` (MkDocs passes ``extra``
through untouched, so ``mkdocs build --strict`` accepts it)::

    site_name: My Little Book of Whist
    site_author: A. Player
    extra:
      whistbook:
        subtitle: Twelve hands for beginners
        paper: a5                 # or a4
        colours: two              # or four (blue diamonds, green clubs)
        double_dummy_in_booklet: false
        lessons:                  # the order; files not named follow in name order;
                                  # chapters group the booklet's contents and the site's navigation
          - first.yaml
          - chapter: Leading trumps
            lessons: [trumps/*.yaml]

The project is the nearest folder, from the current one upward, that holds a
``mkdocs.yml`` (as git finds its repository), or the one given with
``--project``. Without either, the current folder is the project and the
book has the default settings.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import yaml

from .errors import ConfigError, naming

CONFIG_NAME = "mkdocs.yml"
PAPERS = ("a5", "a4")


@dataclass(frozen=True)
class Chapter:
    title: str
    #: the lessons' files, as paths relative to the hands folder
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Book:
    """What the reader sees of the book as a whole."""

    title: str = "Whist lessons"
    subtitle: str = ""
    author: str = ""
    paper: str = "a5"
    four_colour: bool = False
    analysis_in_booklet: bool = False
    #: the most deals the judge weighs for a card (None: its default; 0: no single-dummy verdicts)
    judge_samples: int | None = None
    #: the order of lessons: file patterns relative to the hands folder, and chapters
    order: tuple[str | Chapter, ...] = ()


@dataclass(frozen=True)
class Project:
    root: Path
    #: the configuration file, when the project has one
    config: Path | None = None
    book: Book = field(default_factory=Book)

    @property
    def hands(self) -> Path:
        return self.root / "hands"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def output(self) -> Path:
        return self.root / "output"

    @property
    def cache(self) -> Path:
        return self.root / ".whistbook-cache"


class _Loader(yaml.SafeLoader):
    """Safe YAML that reads MkDocs' ``!!python/name:`` and ``!ENV`` tags as plain values."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def find_project(start: Path | None = None) -> Project:
    """The project holding ``start`` (default: the current folder): the
    nearest folder upward with a ``mkdocs.yml``, else ``start`` itself.

    :raises ConfigError: when the configuration cannot be read.
    """
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_NAME).is_file():
            return load_project(folder)
    return Project(root=here)


def load_project(root: Path) -> Project:
    """The project in ``root``, with its ``mkdocs.yml`` when it has one.

    :raises ConfigError: for a configuration that cannot be read or a bad setting.
    """
    root = root.resolve()
    if not root.is_dir():
        raise ConfigError(f"{root}: no such folder")
    path = root / CONFIG_NAME
    if not path.is_file():
        return Project(root=root)
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or {}
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(f"{path}: cannot read the configuration: {err}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping of settings")
    return Project(root=root, config=path, book=_book(raw, path))


def _book(raw: dict[str, Any], path: Path) -> Book:
    ours = (raw.get("extra") or {}).get("whistbook") or {}
    if not isinstance(ours, dict):
        raise ConfigError(f"{path}: extra: whistbook: should be a mapping of settings")
    known = {"subtitle", "paper", "colours", "double_dummy_in_booklet", "judge_samples", "lessons"}
    unknown = sorted(set(ours) - known)
    if unknown:
        raise ConfigError(f"{path}: extra: whistbook: unknown setting {unknown[0]!r} "
                          f"(known: {', '.join(sorted(known))})")
    paper = str(ours.get("paper", "a5")).lower()
    if paper not in PAPERS:
        raise ConfigError(f"{path}: paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    colours = str(ours.get("colours", "two")).lower()
    if colours not in ("two", "four", "2", "4"):
        raise ConfigError(f"{path}: colours must be two or four, not {colours!r}")
    return Book(
        title=str(raw.get("site_name") or Book.title),
        subtitle=str(ours.get("subtitle") or ""),
        author=str(raw.get("site_author") or ""),
        paper=paper,
        four_colour=colours in ("four", "4"),
        analysis_in_booklet=bool(ours.get("double_dummy_in_booklet", False)),
        judge_samples=_samples(ours.get("judge_samples"), path),
        order=_order(ours.get("lessons") or [], path),
    )


def _samples(value: Any, path: Path) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{path}: judge_samples must be a whole number of deals (0 for no single-dummy "
                          f"verdicts), not {value!r}")
    return value


def _order(items: Any, path: Path) -> tuple[str | Chapter, ...]:
    if not isinstance(items, list):
        raise ConfigError(f"{path}: lessons: should be a list of files and chapters")
    out: list[str | Chapter] = []
    for item in items:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict) and "chapter" in item:
            files = item.get("lessons") or []
            if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
                raise ConfigError(f"{path}: chapter {item['chapter']!r}: lessons: should be a list of files")
            out.append(Chapter(str(item["chapter"]), tuple(files)))
        else:
            raise ConfigError(f"{path}: lessons: each entry is a file or {{chapter: TITLE, lessons: [...]}}, "
                              f"not {item!r}")
    return tuple(out)


def order_files(files: Sequence[Path], hands: Path, order: Sequence[str | Chapter]) -> tuple[list[Path], dict[Path, str]]:
    """``files`` in the book's order, and the chapter of each file that has one.

    Patterns are matched against paths relative to ``hands``; files no
    pattern names keep their name order after those that are named.
    """
    rel = {f: f.resolve().relative_to(hands.resolve()).as_posix() if f.resolve().is_relative_to(hands.resolve())
           else f.name for f in files}
    placed: list[Path] = []
    chapters: dict[Path, str] = {}
    for item in order:
        patterns, chapter = ((item.files, item.title) if isinstance(item, Chapter) else ((item,), None))
        for pattern in patterns:
            for f in files:
                if f not in placed and fnmatch.fnmatchcase(rel[f], pattern):
                    placed.append(f)
                    if chapter:
                        chapters[f] = chapter
    return placed + [f for f in files if f not in placed], chapters


SKELETON = Path(__file__).resolve().parent / "skeleton"
#: the book's copy of the hand format's schema, which its hand files' first line names for editors
SCHEMA_NAME = "hand.schema.json"


def init_project(root: Path, title: str, *, seed: int | None = None) -> list[Path]:
    """Make a new project in ``root`` (new or empty): the settings, one starter
    hand, the hand format's schema for editors, a templates folder with its
    README and an empty local stylesheet.
    Returns the files written.

    :raises ConfigError: when ``root`` already holds files.
    """
    from .schema import SCHEMA_PATH
    from .starter import starter_text

    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ConfigError(f"{root} already exists and is not empty: choose a new folder")
    config = (SKELETON / "mkdocs.yml").read_text(encoding="utf-8").replace("{title}", _yaml_scalar(title))
    files = {
        CONFIG_NAME: config,
        "hands/first-hand.yaml": starter_text(seed=seed, title="First hand", schema_ref=f"../{SCHEMA_NAME}"),
        SCHEMA_NAME: SCHEMA_PATH.read_text(encoding="utf-8"),
        "templates/README.md": (SKELETON / "README.md").read_text(encoding="utf-8"),
        "templates/css/local.css": (SKELETON / "local.css").read_text(encoding="utf-8"),
        ".gitignore": (SKELETON / "gitignore").read_text(encoding="utf-8"),
    }
    written = []
    for rel, text in files.items():
        path = root / rel
        with naming(path):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def schema_ref(path: Path) -> str:
    """Where a new hand file ``path``'s first line points the editor for the schema: the
    book's own copy (``hand.schema.json``, which ``init`` writes) when the file
    is in a book that has one, else the package's, relative to the file when
    both are in one tree (a source checkout), else by its full path."""
    import os

    from .schema import SCHEMA_PATH

    target = path.resolve().parent
    books = [f / SCHEMA_NAME for f in (target, *target.parents) if (f / CONFIG_NAME).is_file()]
    schema = books[0] if books and books[0].is_file() else SCHEMA_PATH.resolve()
    here = Path.cwd().resolve()
    if not (schema.is_relative_to(here) and target.is_relative_to(here)):
        return schema.as_posix()
    return Path(os.path.relpath(schema, target)).as_posix()


def _yaml_scalar(text: str) -> str:
    """``text`` as a YAML scalar on one line (quoted when it needs to be)."""
    return yaml.safe_dump(text, default_style=None, width=10_000).strip().removesuffix("\n...").strip()


def with_overrides(book: Book, **changes: Any) -> Book:
    """``book`` with the settings given on the command line (None leaves one as it is)."""
    return replace(book, **{k: v for k, v in changes.items() if v is not None})


__all__ = ["SCHEMA_NAME", "schema_ref", "init_project", "Book", "Chapter", "Project", "find_project", "load_project", "order_files", "with_overrides",
           "CONFIG_NAME"]
