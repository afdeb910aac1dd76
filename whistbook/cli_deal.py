"""``whistbook deal``: new hands made on a theme (read by :mod:`whistbook.cli`)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .errors import ConfigError


def cmd_deal(args: argparse.Namespace) -> int:
    from .generate import GENERATED

    if args.themes:
        for name in GENERATED:
            print(name)
        return 0
    if args.theme is None or args.output is None:
        raise ConfigError("give --theme THEME and -o DIR (or --themes to list the themes)")
    if args.theme not in GENERATED:
        raise ConfigError(f"--theme {args.theme}: not a theme that can be made "
                          f"(one of: {', '.join(GENERATED)}; 'whistbook deal --themes' lists them)")
    if args.count < 1:
        raise ConfigError("--count must be 1 or more")
    return write_hands(args.theme, args.count, Path(args.output), seed=args.seed, tries=args.tries,
                       quiet=args.quiet)


def write_hands(theme: str, count: int, out: Path, *, seed: int = 0, tries: int | None = None,
                quiet: bool = False, progress=None) -> int:
    """Make ``count`` hands on ``theme`` into the folder ``out``, one file each
    as it is made (never over an existing file, never a deal the folder holds
    already); 0 when all were made, 1 otherwise."""
    from . import solver
    from .generate import make
    from .generated import hand_text
    from .themes import THEMES

    if out.exists() and not out.is_dir():
        raise ConfigError(f"-o {out}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    seen = _deals_in(out)
    solver.limit_threads(1)  # one deal at a time: DDS's threads would wait on each other
    say = progress or (lambda line: None if quiet else print(line, file=sys.stderr, flush=True))
    start = last = time.monotonic()
    written = 0

    def step(made: int, tried: int, checked: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= 5:
            say(f"whistbook: {theme}: {made} of {count} made, {tried} deals tried ({now - start:.0f} s)")
            last = now

    n = 0
    for made in make(theme, count, seed=seed, tries=tries, progress=step, seen=seen):
        n = _next_free(out, theme, n)
        path = out / f"{theme}-{n:02d}.yaml"
        _write(path, hand_text(made, f"{THEMES[theme].title} {n}"))
        written += 1
        say(f"wrote {path} (trick {made.decisive.trick}, {made.decisive.seat} plays {made.decisive.played})")
    took = time.monotonic() - start
    if written < count:
        say(f"whistbook: {theme}: {written} of {count} hands made in {took:.0f} s; try more deals (--tries) "
            "or another --seed")
        return 1
    say(f"whistbook: {written} hands on '{theme}' in {out} ({took:.0f} s)")
    return 0


def _deals_in(out: Path) -> set:
    """The deals of the hand files already in ``out`` (a deal is not made twice)."""
    from .corpus import HAND_SUFFIXES
    from .errors import HandFileError
    from .handfile import load
    from .seats import SEATS

    seen = set()
    for p in sorted(out.iterdir()):
        if p.suffix in HAND_SUFFIXES and p.is_file():
            try:
                hf = load(p)
            except HandFileError:
                continue  # not ours to judge here: validate reports it
            if all(len(hf.deal.get(s, ())) == 13 for s in SEATS):
                seen.add(frozenset((s, ref.card) for s in SEATS for ref in hf.deal[s]))
    return seen


def _next_free(out: Path, theme: str, n: int) -> int:
    n += 1
    while (out / f"{theme}-{n:02d}.yaml").exists():
        n += 1
    return n


def _write(path: Path, text: str) -> None:
    """Write a file whole or not at all."""
    tmp = path.with_name(path.name + ".part")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise ConfigError(f"{path}: cannot write: {err.strerror}") from None


def add_deal_parser(sub) -> None:
    p = sub.add_parser("deal", help="make new hands on a theme (the finesse, the underplay, ...)",
                       description="Make new teaching hands on a theme: random deals played through by four "
                                   "players who keep Cavendish's conventions, kept only when the theme's card "
                                   "is clearly the best single-dummy at the decisive moment (every other card "
                                   "gives up at least half a trick on average). Each is written as a hand file "
                                   "with the known hand, the play, a claim for the rest and a draft remark.")
    p.add_argument("--themes", action="store_true", help="list the themes that can be made, one a line")
    p.add_argument("--theme", metavar="THEME", help="the theme to make hands on (see --themes)")
    p.add_argument("--count", type=int, default=10, metavar="N", help="how many hands (default 10)")
    p.add_argument("-o", "--output", metavar="DIR", help="the folder to write them into (THEME-01.yaml, ...)")
    p.add_argument("--seed", type=int, default=0, help="the first seed of the deals tried (default 0)")
    p.add_argument("--tries", type=int, default=None, metavar="N",
                   help="the most deals to try (default: 400 a hand asked for)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_deal)
