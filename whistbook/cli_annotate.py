"""``whistbook annotate``: draft remarks written into hand files (read by :mod:`whistbook.cli`)."""

from __future__ import annotations

import argparse
import sys

from .errors import ConfigError, Diagnostic, SourceLocation
from .files import write_whole
from .progress import CardCount


def cmd_annotate(args: argparse.Namespace) -> int:
    from .annotate import Unplaceable, drafts, records_of, write_drafts
    from .corpus import check_file, find_hand_files
    from .solvercache import Cache, default_cache_dir

    files = find_hand_files(args.paths)
    if not files:
        raise ConfigError("no hand files (*.yaml) found in " + ", ".join(args.paths))
    cache = None if args.no_cache else Cache(default_cache_dir())
    budget = _budget(args.samples)
    bad = written_files = written = 0
    for f in files:
        data = f.read_bytes()
        checked = check_file(f, solver=False, data=data)
        errors = [d for d in checked.diagnostics if d.level == "error"]
        if errors or checked.replay is None:
            for d in errors or checked.diagnostics:
                print(d, file=sys.stderr)
            bad += 1
            continue
        if checked.hand.kind == "problem":
            print(f"{f}: note: a problem has no tricks to remark on; skipped", file=sys.stderr)
            continue
        count = CardCount(str(f), args.quiet)
        try:
            records = records_of(checked, judge=not args.no_judge, seed=args.seed, budget=budget, cache=cache,
                                 progress=count)
        finally:
            count.close()
        text = data.decode("utf-8")
        try:
            new, done = write_drafts(text, str(f), checked.hand, drafts(records))
        except Unplaceable as err:
            print(Diagnostic(SourceLocation(str(f), 1, 1), "error", err.message), file=sys.stderr)
            bad += 1
            continue
        for d in done:
            where = checked.hand.tricks[d.trick - 1].loc
            print(f"{where}: trick {d.trick}: {d.text}" if args.dry_run else f"{where}: drafted trick {d.trick}",
                  file=sys.stdout if args.dry_run else sys.stderr)
        if done and not args.dry_run:
            write_whole(f, new, newline="")
            written_files += 1
        written += len(done)
    if not args.quiet:
        verb = "would draft" if args.dry_run else "drafted"
        print(f"{_count(len(files), 'file')} read: {verb} {_count(written, 'remark')}"
              + ("" if args.dry_run else f" in {_count(written_files, 'file')}")
              + (f"; {_count(bad, 'file')} with errors" if bad else ""), file=sys.stderr)
    return 1 if bad else 0


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _budget(samples: int | None):
    from .judgement import Budget

    if samples is not None and samples < 1:
        raise ConfigError(f"--samples takes a whole number of deals, at least 1 (not {samples})")
    return Budget.up_to(samples)


def add_parser(sub) -> None:
    p = sub.add_parser("annotate", help="draft remarks into hand files from what the engines find",
                       description="Write a draft remark (remark_draft) at each trick where something teachable "
                                   "happens: a card its player could have bettered on what he could see (the "
                                   "single-dummy verdict), a convention broken or shown (a departure from rule, a "
                                   "call for trumps, an echo, a first discard), an honour placed by the "
                                   "inferences. Each draft is a short remark in plain words that cites the "
                                   "book's page; lessons show it as a draft, and validate --notes lists it, until "
                                   "you edit it and rename the key 'remark'. Tricks that have a remark or a "
                                   "draft are left alone, and nothing else in the file changes.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="hand files or folders (searched for *.yaml)")
    p.add_argument("--dry-run", action="store_true", help="print the drafts instead of writing them")
    p.add_argument("--no-judge", action="store_true",
                   help="no single-dummy verdicts (quick: only what the inference engine finds)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the judge's deals (default 0)")
    p.add_argument("--samples", type=int, metavar="N", default=None,
                   help="the judge weighs at most N deals a card (default 64); fewer is quicker and rougher")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the judge's cache")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress counter or summary")
    p.set_defaults(func=cmd_annotate)


__all__ = ["cmd_annotate", "add_parser"]
