"""The ``whistbook`` command.

Every command catches :class:`~whistbook.errors.WhistbookError` here and
nowhere else; ``--debug`` lets tracebacks through. Exit codes: 0 when all is
well, 1 when a file has problems, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from . import __version__
from .corpus import find_hand_files
from .cli_annotate import add_parser as add_annotate_parser
from .cli_book import _add_book_options, cmd_build, cmd_init, cmd_serve
from .cli_deal import add_deal_parser
from .errors import ConfigError, Diagnostic, RecordError, WhistbookError, naming, os_error_text
from .files import write_whole

EPILOG = """\
examples:
  whistbook validate hands                 check every hand file under hands/
  whistbook show hands/cavendish/01-*.yaml replay one hand in the terminal
  whistbook show FILE --format json        the replayed hand as JSON
  whistbook explain FILE --as B            what B can infer after each trick
  whistbook new my-hand.yaml               write a starter hand file
  whistbook analyse FILE                   judge every card played (on what its player knew)
  whistbook analyse --summary hands        which hands were played without a costly card
  whistbook annotate FILE                  draft remarks at the tricks that teach something
  whistbook init my-book --title "My Book" start a book of your own
  whistbook build                          lesson pages, booklet and site from hands/ into output/
  whistbook serve                          preview at http://127.0.0.1:8000/, reloading as you save
  whistbook build --paper a4 --analysis    an A4 booklet with the double-dummy marks
  whistbook export hands -o hands.pbn      every hand as PBN, for bridge programs
  whistbook import deals.pbn -o imported/  one hand file per board of a PBN or LIN file

Problems are printed as 'path:line:col: error: message'. Exit status: 0 when
every file is valid, 1 when any file has an error, 2 for a usage error.
"""


def _existing_file(name: str) -> Path:
    """The path of a file named on the command line; a usage error if there is none."""
    path = Path(name)
    if not path.is_file():
        raise ConfigError(f"{name}: no such file")
    return path


def _option(parse, value: str | None, flag: str):
    """An option's value parsed (a seat, a card), None when not given; a usage error naming the flag."""
    if not value:
        return None
    try:
        return parse(value)
    except WhistbookError as err:
        raise ConfigError(f"{flag}: {err.message}") from None


def _print_diagnostics(diags: Sequence[Diagnostic], stream=None) -> None:
    stream = stream or sys.stdout
    for d in diags:
        print(d, file=stream)


def cmd_validate(args: argparse.Namespace) -> int:
    from .corpus import check_file, drafts
    from .inference.statements import check_stated

    files = find_hand_files(args.paths)
    if not files:
        raise ConfigError("no hand files (*.yaml) found in " + ", ".join(args.paths))
    n_err = n_files_bad = n_drafts = 0
    for f in files:
        checked = check_file(f, solver=not args.no_solver)
        n_drafts += drafts(checked.hand)
        checked.diagnostics.extend(check_stated(checked))  # the infer: lines, after the explanation they need
        diags = [d for d in checked.diagnostics if args.notes or d.level != "note"]
        _print_diagnostics(diags)
        errs = sum(1 for d in checked.diagnostics if d.level == "error")
        n_err += errs
        n_files_bad += bool(errs)
    if not args.quiet:
        status = "all valid" if not n_err else f"{_count(n_err, 'error')} in {_count(n_files_bad, 'file')}"
        if n_drafts:
            status += f"; {_count(n_drafts, 'draft remark')} to read" + ("" if args.notes else " (--notes lists them)")
        print(f"{_count(len(files), 'file')} checked: {status}", file=sys.stderr)
    return 1 if n_err else 0


def cmd_show(args: argparse.Namespace) -> int:
    from .corpus import check_file
    from .textview import render_json, render_text

    path = _existing_file(args.file)
    checked = check_file(path, solver=not args.no_solver)
    errors = [d for d in checked.diagnostics if d.level == "error"]
    if errors or checked.replay is None:
        _print_diagnostics(errors or checked.diagnostics, sys.stderr)
        return 1
    if args.format == "json":
        sys.stdout.write(render_json(checked) + "\n")
    else:
        ascii_only = args.ascii or not _can_encode(sys.stdout, "♠♥♦♣")
        sys.stdout.write(render_text(checked, ascii_only=ascii_only))
    return 0


def _can_encode(stream, text: str) -> bool:
    enc = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def cmd_analyse(args: argparse.Namespace) -> int:
    import json

    from .analysis import Cache, analyse, default_cache_dir, summary
    from .analysisview import analysis_json, render_analysis_text, render_summary_text
    from .corpus import check_file

    from .seats import Seat

    files = find_hand_files(args.paths)
    if not files:
        raise ConfigError("no hand files (*.yaml) found in " + ", ".join(args.paths))
    seats = None if args.seat is None else [_option(Seat.parse, s, "--seat") for s in args.seat]
    cache = None if args.no_cache else Cache(args.cache_dir or default_cache_dir())
    one = len(files) == 1 and not args.summary
    judged = not args.summary and not args.no_judge
    analyses, judgements, bad = [], [], 0
    for f in files:
        # The claim is solved (and cached) by the analysis itself.
        checked = check_file(f, solver=False)
        if checked.hand is not None and checked.hand.kind == "problem" and not one:
            print(f"{f}: note: a problem, not a played hand; skipped", file=sys.stderr)
            continue
        errors = [d for d in checked.diagnostics if d.level == "error"]
        # Errors after the replay (a wrong tally, a misstated result) do not
        # change the cards, so the hand is still analysed; they are shown.
        _print_diagnostics(errors, sys.stderr)
        if checked.replay is None:
            bad += 1
            continue
        analyses.append(analyse(checked, cache))
        judgements.append(_judge(checked, f, seats, args.seed, _budget(args.samples), cache, args.quiet)
                          if judged else None)
    ascii_only = args.ascii or not _can_encode(sys.stdout, "♠♥♦♣✗±·")
    if args.summary:
        report = summary(analyses)
        if args.format == "json":
            sys.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(render_summary_text(report, ascii_only=ascii_only))
    elif args.format == "json":
        data = [analysis_json(a, j) for a, j in zip(analyses, judgements)]
        sys.stdout.write(json.dumps(data[0] if one and data else data, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write("\n".join(render_analysis_text(a, j, ascii_only=ascii_only)
                                   for a, j in zip(analyses, judgements)))
    return 1 if bad else 0


def _budget(samples: int | None):
    from .judgement import Budget

    if samples is not None and samples < 1:
        raise ConfigError(f"--samples takes a whole number of deals, at least 1 (not {samples})")
    return Budget.up_to(samples)


def _judge(checked, path: str, seats, seed: int, budget, cache, quiet: bool):
    """The single-dummy verdicts of one hand, with a counter on standard error."""
    from .judgement import judge
    from .progress import CardCount

    count = CardCount(path, quiet)
    try:
        return judge(checked, seats=seats, seed=seed, budget=budget, cache=cache, progress=count)
    finally:
        count.close()


def cmd_explain(args: argparse.Namespace) -> int:
    import json

    from .corpus import check_file
    from .inference import explain
    from .seats import Seat
    from .textview import explanation_json, render_explanation_text

    path = _existing_file(args.file)
    seat = _option(Seat.parse, args.seat, "--as")
    checked = check_file(path, solver=False)
    if checked.replay is None:  # the play itself is wrong: nothing to explain
        _print_diagnostics([d for d in checked.diagnostics if d.level == "error"], sys.stderr)
        return 1
    ex = explain(checked, seat)
    if args.trick is not None and not 1 <= args.trick <= len(ex.tricks):
        raise ConfigError(f"--trick {args.trick}: the file has tricks 1 to {len(ex.tricks)}")
    if args.format == "json":
        data = explanation_json(ex)
        if args.trick is not None:
            data["tricks"] = [t for t in data["tricks"] if t["number"] == args.trick]
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        ascii_only = args.ascii or not _can_encode(sys.stdout, "♠♥♦♣")
        sys.stdout.write(render_explanation_text(checked, ex, args.trick, ascii_only))
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    from .project import schema_ref
    from .starter import starter_text

    path = Path(args.file)
    if path.exists() and not args.force:
        raise ConfigError(f"{args.file} already exists (use --force to overwrite)")
    text = starter_text(seed=args.seed, title=args.title, schema_ref=schema_ref(path))
    with naming(path):
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {path}: edit it, then run 'whistbook validate {path}'", file=sys.stderr)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from .schema import SCHEMA_PATH

    sys.stdout.write(SCHEMA_PATH.read_text(encoding="utf-8"))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    import json

    from .corpus import check_file
    from .exchange import write
    from .exchange.record import from_checked
    from .textview import to_json

    files = find_hand_files(args.paths)
    if not files:
        raise ConfigError("no hand files (*.yaml) found in " + ", ".join(args.paths))
    hands, bad = [], 0
    for f in files:
        checked = check_file(f, solver=False)
        errors = [d for d in checked.diagnostics if d.level == "error"]
        if errors or checked.replay is None:
            _print_diagnostics(errors or checked.diagnostics, sys.stderr)
            bad += 1
        elif checked.hand.kind == "problem" and args.format != "json":
            print(f"{f}: note: a problem is a position, not a dealt hand; skipped", file=sys.stderr)
        else:
            hands.append((f, checked))
    if args.format == "json":
        doc = {"hands": [{"file": Path(f).as_posix(), "kind": c.hand.kind, **to_json(c)} for f, c in hands]}
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    else:
        text = write([from_checked(c) for _, c in hands], args.format)
    if bad:
        print(f"whistbook: {bad} file{'s' if bad != 1 else ''} with errors; nothing written", file=sys.stderr)
        return 1
    _write_out(text, args.output)
    return 0


def _write_out(text: str, output: str | None) -> None:
    """To stdout, or to a file that is replaced only once complete."""
    if output is None:
        sys.stdout.write(text)
        return
    path = Path(output)
    if path.parent and not path.parent.is_dir():
        raise ConfigError(f"-o {output}: the folder {path.parent} does not exist")
    write_whole(path, text)


def cmd_import(args: argparse.Namespace) -> int:
    from .cards import Card
    from .exchange import read
    from .exchange.importer import plan

    path = _existing_file(args.file)
    turn_up = _option(Card.parse, args.turn_up, "--turn-up")
    trumps = None if args.trumps is None else _trump_suit(args.trumps)
    try:
        boards = read(path, args.format)
    except RecordError as err:
        _print_diagnostics([Diagnostic.from_error(err, str(path))], sys.stderr)
        return 1
    out = Path(args.output) if args.output else None
    one_file = out is not None and out.suffix in (".yaml", ".yml")
    work = plan(boards, path, None if out is None or one_file else out, out if one_file else None, turn_up,
                trumps, strict=args.strict)
    _print_diagnostics(work.skipped + work.errors, sys.stderr)
    if args.strict and (work.skipped or work.errors):
        print(f"whistbook: {_count(len(work.skipped) + len(work.errors), 'board')} of {len(boards)} cannot be imported "
              "(--strict); nothing written", file=sys.stderr)
        return 1
    if len(work.jobs) > 1 and (out is None or one_file):
        raise ConfigError(f"{args.file} holds {len(work.jobs)} boards to import: give -o FOLDER for one hand file each")
    existing = [j.target for j in work.jobs if out is not None and Path(j.target).exists()]
    if existing and not args.force:
        shown = ", ".join(existing[:5]) + (f" and {len(existing) - 5} more" if len(existing) > 5 else "")
        raise ConfigError(f"{shown} already exist{'s' if len(existing) == 1 else ''} (use --force to overwrite)")
    if out is not None and not one_file and work.jobs:
        out.mkdir(parents=True, exist_ok=True)
    written, failed = _import_boards(work.jobs, out is None, args.quiet)
    _print_diagnostics(failed, sys.stderr)
    if out is not None:
        print(_import_summary(len(boards), written, work.skipped, len(work.errors) + len(failed), out), file=sys.stderr)
    return 1 if work.errors or failed else 0


def _trump_suit(text: str):
    """The suit --trumps names: a letter or a name (a symbol too), in any case;
    an empty value is a usage error too, not the option left out."""
    from .cards import Suit

    try:
        return Suit.parse(text)
    except WhistbookError:
        raise ConfigError(f"--trumps: {text!r} is not a suit: give S, H, D or C, or spades, hearts, diamonds or "
                          "clubs") from None


def _import_boards(jobs, to_stdout: bool, quiet: bool) -> tuple[int, list[Diagnostic]]:
    """Finish and write each board's hand file as soon as it is done, with
    progress on standard error for a long file; the count written and the
    boards that failed."""
    import time

    from .exchange.importer import finish_all

    written, failed = 0, []
    last = start = time.monotonic()
    for n, (job, result) in enumerate(finish_all(jobs), 1):
        if isinstance(result, Diagnostic):
            failed.append(result)
        elif to_stdout:
            sys.stdout.write(result)
            written += 1
        else:
            _write_out(result, job.target)
            written += 1
        now = time.monotonic()
        if not quiet and not to_stdout and len(jobs) > 1 and (now - last >= 2 or n == len(jobs)) and now - start >= 2:
            print(f"whistbook: {n} of {len(jobs)} boards done ({n / (now - start):.0f} a second)", file=sys.stderr)
            last = now
    return written, failed


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _import_summary(total: int, written: int, skipped: list[Diagnostic], errors: int, out: Path) -> str:
    """One line that accounts for every board of the file."""
    parts = [f"wrote {_count(written, 'hand file')} in {out}" if out.suffix not in (".yaml", ".yml")
             else f"wrote {out}" if written else "wrote nothing"]
    if skipped:
        parts.append(f"{_count(len(skipped), 'board')} not imported (see the notes)")
    if errors:
        parts.append(f"{_count(errors, 'board')} with errors")
    return f"whistbook: {_count(total, 'board')} read; " + ", ".join(parts)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # exit 2 with a short usage line, as argparse does
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="whistbook",
        description="Whist hands written in YAML, replayed card by card, checked and turned into lessons.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"whistbook {__version__}")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("validate", help="check hand files and report every problem",
                       description="Check hand files: the deal, every card played, stated tallies, the claim "
                                   "(with a double-dummy solver) and the result.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="hand files or folders (searched for *.yaml)")
    p.add_argument("--no-solver", action="store_true", help="do not check claims with the double-dummy solver")
    p.add_argument("--notes", action="store_true", help="also print notes (claims that underrate best play, results that omit honours, draft remarks to read)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems, no summary line")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("show", help="replay one hand in the terminal, or as JSON",
                       description="Replay a hand trick by trick in the book's manner, or print it as JSON.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    p.add_argument("--ascii", action="store_true", help="write suits as letters (S H D C) instead of symbols")
    p.add_argument("--no-solver", action="store_true", help="do not check the claim with the double-dummy solver")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("analyse", aliases=["analyze"], help="judge every card played, on what its player knew",
                       description="For every card played: its single-dummy verdict (what it was worth on what "
                                   "its player could know: deals consistent with his knowledge, drawn at random "
                                   "and solved; good, inaccuracy, mistake or blunder), the card the conventions "
                                   "choose there, and the double-dummy figure (all four hands seen: hindsight). "
                                   "Results are cached, so a second run solves nothing; the first can take "
                                   "minutes for a whole book (a counter shows progress).")
    p.add_argument("paths", nargs="+", metavar="PATH", help="hand files or folders (searched for *.yaml)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    p.add_argument("--summary", action="store_true",
                   help="one line per hand: tricks at the start against tricks taken, and which seats' cards "
                        "cost tricks double-dummy (no single-dummy verdicts)")
    p.add_argument("--seat", action="append", metavar="SEAT",
                   help="judge only this seat's cards (A, Y, B or Z; repeatable; default: all four)")
    p.add_argument("--no-judge", action="store_true", help="double-dummy figures only: no single-dummy verdicts")
    p.add_argument("--seed", type=int, default=0, help="the seed of the deals drawn (default 0; the same seed "
                                                        "gives the same verdicts)")
    p.add_argument("--samples", type=int, metavar="N", default=None,
                   help="weigh at most N deals a card (default 64, and 32 in the first tricks, where a deal "
                        "costs most); fewer is quicker and rougher")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress counter")
    p.add_argument("--ascii", action="store_true", help="write suits as letters (S H D C) instead of symbols")
    p.add_argument("--cache-dir", metavar="DIR", default=None,
                   help="where solver results are kept (default: .whistbook-cache in the project)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser("explain", help="what the fall of the cards proves and suggests, trick by trick",
                       description="After each trick, what one seat may conclude about the unseen cards: what the "
                                   "laws prove (certain), what the conventions of play imply (presumed) and what "
                                   "is likely (probable), each with the rule behind it.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--as", dest="seat", metavar="SEAT", help="the seat whose knowledge is used (default: the file's known_hand)")
    p.add_argument("--trick", type=int, metavar="N", help="only trick N")
    p.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    p.add_argument("--ascii", action="store_true", help="write suits as letters instead of symbols")
    p.set_defaults(func=cmd_explain)

    add_annotate_parser(sub)
    add_deal_parser(sub)

    p = sub.add_parser("new", help="write a starter hand file",
                       description="Write a starter hand file: a random deal, the first tricks played to rule, "
                                   "and a claim for the rest, all valid, to edit into your own hand.")
    p.add_argument("file", metavar="FILE", help="where to write it, e.g. hands/my-hand.yaml")
    p.add_argument("--seed", type=int, default=None, help="seed for the random deal (default: a fresh one)")
    p.add_argument("--title", default="My hand", help="the hand's title")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("build", help="lesson pages, the PDF booklet and the site, from hands/ into output/",
                       description="Check every hand file, then write the lesson pages (output/html/), the study "
                                   "booklet (output/whistbook.pdf) and the site (output/site/). The book's title, "
                                   "author and settings come from the project's mkdocs.yml; the options here "
                                   "override them. Only what changed is made again. Nothing is written "
                                   "when any hand has an error (unless --keep-going); the new output replaces the "
                                   "old only when complete.")
    _add_book_options(p)
    p.add_argument("-k", "--keep-going", action="store_true",
                   help="build every valid hand even when some have errors: each broken file becomes a page "
                        "that shows its errors, listed at the head of the index (the exit status is still 1)")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("init", help="start a book of your own: settings, a starter hand, templates/",
                       description="Make a new book project in DIR: mkdocs.yml (the title and the book's "
                                   "settings), hands/ with one starter hand, and templates/ for your changes to "
                                   "its look. Then 'whistbook build' (or 'whistbook serve') inside it.")
    p.add_argument("dir", metavar="DIR", help="a new (or empty) folder")
    p.add_argument("--title", default=None, help="the book's title (default: from the folder's name)")
    p.add_argument("--seed", type=int, default=None, help="seed for the starter hand's random deal")
    p.add_argument("--exercises", metavar="THEME", default=None,
                   help="start a book of exercises for a class instead: hands made on THEME "
                        "('whistbook deal --themes' lists them), the booklet set as exercises")
    p.add_argument("--count", type=int, default=8, metavar="N", help="with --exercises: how many hands (default 8)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("serve", help="preview the book as you write it, reloading on every save",
                       description="Build the lesson pages and the site, serve them on http://HOST:PORT/ and "
                                   "rebuild what a change touches whenever a hand file, a template or mkdocs.yml "
                                   "is saved; the open page reloads. A file with errors shows them in the page "
                                   "until it is mended. The booklet is laid out only when asked for (the button "
                                   "on each page, or --booklet). Ctrl-C stops.")
    _add_book_options(p)
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    p.add_argument("--booklet", action="store_true", help="lay out the booklet on every rebuild as well")
    p.set_defaults(func=cmd_serve)


    p = sub.add_parser("export", help="hands out as PBN, BBO's LIN, or one JSON document",
                       description="Write hand files as PBN 2.1 (read by bridge programs and endplay), as LIN for "
                                   "BBO's Handviewer, or as one JSON document holding every hand. Seats: A is "
                                   "South, Y West, B North, Z East; Z deals and is the declarer, so A makes the "
                                   "opening lead. The contract's strain is trumps and its level means nothing. "
                                   "Nothing is written if any file has an error.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="hand files or folders (searched for *.yaml)")
    p.add_argument("--format", choices=("pbn", "lin", "json"), default="pbn", help="pbn (default), lin or json")
    p.add_argument("-o", "--output", metavar="OUT", help="the file to write (default: standard output)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="PBN or LIN boards in, as hand files",
                       description="Read a PBN or LIN file and write one hand file per board: the deal, the "
                                   "turn-up, the play trick by trick and a claim for the tricks not played that the "
                                   "double-dummy solver accepts. The contract's strain is trumps and the opening "
                                   "leader becomes A; the declarer comes from the record, else from its auction. "
                                   "When the record does not say which card was turned up, the dealer's lowest trump "
                                   "is assumed and a comment says so. Boards that cannot be whist (no trumps, passed "
                                   "out, no deal, a play that stops without a result) are left out with a note each "
                                   "(--trumps SUIT brings in a deal alone or a passed-out board with that suit as "
                                   "trumps); "
                                   "boards with errors are reported and left out too. Exit status 0 when every board "
                                   "was written or left out for a stated reason, 1 when a board has an error.")
    p.add_argument("file", metavar="FILE", help="a .pbn or .lin file")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="a .yaml file for one board, or a folder for several (default: standard output)")
    p.add_argument("--format", choices=("pbn", "lin"), default=None, help="the file's format (default: by its ending)")
    p.add_argument("--turn-up", metavar="CARD", help="the card the dealer turned up, e.g. 7H (default: his lowest trump)")
    p.add_argument("--trumps", metavar="SUIT",
                   help="trumps (S, H, D or C, or spades, hearts, diamonds, clubs) for the boards whose record names "
                        "none: a deal alone or a passed-out board is then imported as a whist hand, the record's "
                        "dealer dealing (else the board number's usual dealer), the player on his left leading, no "
                        "card played and the whole hand a claim the solver accepts; a board with a contract keeps "
                        "its own strain (the record wins), and a no-trump board is still left out")
    p.add_argument("--force", action="store_true", help="overwrite hand files that exist")
    p.add_argument("--strict", action="store_true",
                   help="write nothing unless every board can be imported (default: leave out, with a note, the "
                        "boards that cannot be whist)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines for a long file")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("schema", help="print the JSON Schema of the hand format",
                       description="Print the JSON Schema that describes hand files, for editors: save it and point "
                                   "a '# yaml-language-server: $schema=PATH' line at it.")
    p.set_defaults(func=cmd_schema)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except WhistbookError as err:
        if args.debug:
            raise
        print(f"whistbook: error: {err}", file=sys.stderr)
        return 2 if isinstance(err, ConfigError) else 1
    except BrokenPipeError:
        return 0
    except OSError as err:  # a full disk, a read-only project or output, a busy mount
        if args.debug:
            raise
        print(f"whistbook: error: {os_error_text(err)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("whistbook: interrupted", file=sys.stderr)
        return 130


__all__ = ["main", "build_parser"]
