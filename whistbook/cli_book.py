"""The commands of a book project: ``build``, ``serve`` and ``init``, and
the book options they share (read by :mod:`whistbook.cli`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .build import BuildOptions


def build_options(args: argparse.Namespace, **changes) -> BuildOptions:
    """The build's options: the project's settings (``--project``, or the
    nearest ``mkdocs.yml`` upward), then the command line's flags."""
    from dataclasses import replace

    from .build import BuildOptions
    from .project import find_project, load_project, with_overrides

    project = load_project(Path(args.project)) if args.project else find_project()
    project = replace(project, root=_relative(project.root))
    book = with_overrides(project.book, title=args.title, subtitle=args.subtitle, author=args.author,
                          paper=args.paper, four_colour=args.four_colour or None,
                          analysis_in_booklet=args.analysis or None)
    return BuildOptions.for_book(
        book,
        hands=Path(args.hands) if args.hands else project.hands,
        output=Path(args.output) if args.output else project.output,
        templates=project.templates,
        mkdocs_config=project.config or project.root / "mkdocs.yml",
        cache=None if args.no_cache else project.cache,
        **changes,
    )


def _relative(path: Path) -> Path:
    """``path`` relative to the working folder when it is under it, so that
    messages name files as the user would (``hands/x.yaml:3:1: ...``)."""
    try:
        rel = path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path
    return rel if rel.parts else Path(".")


def _progress(args: argparse.Namespace):
    from .progress import stderr_progress

    return stderr_progress(args.quiet)


def _set_up_warnings(args: argparse.Namespace) -> None:
    """With ``-v``, what in the set-up makes the build slower than it could be, once."""
    if args.verbose:
        from .render.speedups import closed

        reason = closed()
        if reason:
            print(f"whistbook: warning: {reason}", file=sys.stderr)


def cmd_build(args: argparse.Namespace) -> int:
    from .build import BuildFailed, build, errors_in

    _set_up_warnings(args)
    options = build_options(args, keep_going=args.keep_going)
    try:
        report = build(options, _progress(args))
    except BuildFailed as err:
        for d in err.diagnostics:
            print(d, file=sys.stderr)
        print(f"whistbook: {err}", file=sys.stderr)
        return 1
    for d in report.broken:
        print(d, file=sys.stderr)
    if report.broken:
        print(f"whistbook: {errors_in(report.broken, report.files)}: the others were built, and the broken "
              "files' pages show their errors", file=sys.stderr)
    if not args.quiet:
        print(what_to_open(report.output), file=sys.stderr)
    return 1 if report.broken else 0


def what_to_open(output: Path) -> str:
    """The last line of a build: what to open to read what it made."""
    html, site = (output / "html" / "index.html").as_posix(), (output / "site" / "index.html").as_posix()
    return f"open {html} (the lessons) or {site} (the site) in a browser, or run 'whistbook serve' to write and see"


def cmd_init(args: argparse.Namespace) -> int:
    from .project import init_project

    root = Path(args.dir)
    title = args.title or root.resolve().name.replace("-", " ").replace("_", " ").capitalize()
    if args.exercises and not args.title:
        from .themes import THEMES

        if args.exercises in THEMES:
            title = f"Exercises: {THEMES[args.exercises].title.lower()}"
    say = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    written = init_project(root, title, seed=args.seed, exercises=args.exercises, count=args.count, progress=say)
    for path in written:
        if path.suffix not in (".yaml", ".yml") or path.name == "mkdocs.yml":
            print(f"wrote {path}", file=sys.stderr)
    kind = f"a book of exercises on '{args.exercises}'" if args.exercises else "a new book"
    print(f"{kind}, '{title}': cd {args.dir} && whistbook build (or whistbook serve to watch it as you write)",
          file=sys.stderr)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve

    _set_up_warnings(args)
    return serve(build_options(args, booklet=args.booklet, keep_going=True), host=args.host, port=args.port,
                 progress=_progress(args))


def _add_book_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--project", metavar="DIR",
                   help="the book's folder (default: the nearest folder upward with a mkdocs.yml, else this one)")
    p.add_argument("--hands", default=None, metavar="DIR", help="folder of hand files (default: the project's hands/)")
    p.add_argument("--output", default=None, metavar="DIR", help="folder to write (default: the project's output/)")
    p.add_argument("--title", default=None, help="the book's title (default: site_name in mkdocs.yml)")
    p.add_argument("--subtitle", default=None, help="a line under the title on the cover")
    p.add_argument("--author", default=None, help="the author (default: site_author in mkdocs.yml)")
    p.add_argument("--paper", choices=("a5", "a4"), default=None, help="the booklet's paper (default: a5)")
    p.add_argument("--four-colour", action="store_true", help="four-colour suits (blue diamonds, green clubs)")
    p.add_argument("--analysis", action="store_true", help="show the double-dummy marks in the booklet too")
    p.add_argument("--no-cache", action="store_true",
                   help="make everything anew and keep nothing (default: reuse what has not changed, "
                        "kept in .whistbook-cache/)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also warn of what in the set-up slows the build (a WeasyPrint release that "
                        "whistbook's speed repairs were not checked against: the booklet is the same, laid "
                        "out more slowly)")
