"""``whistbook deal``: new hands made on a theme (read by :mod:`whistbook.cli`)."""

from __future__ import annotations

import argparse
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
    if args.jobs is not None and args.jobs < 1:
        raise ConfigError("--jobs must be 1 or more")
    from .generated import write_hands

    return write_hands(args.theme, args.count, Path(args.output), seed=args.seed, tries=args.tries,
                       quiet=args.quiet, jobs=args.jobs)


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
                   help="the most deals to try (default: 1,000 a hand asked for)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes trying deals side by side (default: one a core); the hands are the same")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_deal)
