"""The command line: ``python -m autograder report OUT [--roster ROSTER.csv]`` rebuilds the class
report and the LMS exports from the files of OUT/ alone (``python -m autograder`` hands it here)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .html import build_report
from .lms import write_exports
from .load import read_csv


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder report", description="The class report and LMS exports, rebuilt from OUT/ alone."
    )
    parser.add_argument("out", type=Path, help="the folder `grade --out` wrote")
    parser.add_argument(
        "--roster",
        type=Path,
        default=None,
        help="a Canvas or Moodle gradebook export (CSV) to fill with the lesson scores",
    )
    args = parser.parse_args(argv)
    if not (args.out / "grades.csv").is_file():
        print(
            f"{args.out}: no grades.csv (run `python -m autograder grade SUBMISSIONS --out {args.out}` first)",
            file=sys.stderr,
        )
        return 2
    if args.roster is not None and not args.roster.is_file():
        print(f"{args.roster}: no such roster file", file=sys.stderr)
        return 2
    try:
        paths = write_exports(args.out, args.roster)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = build_report(args.out)
    for p in paths:
        print(f"Wrote {p}")
    if args.roster is not None:
        check = read_csv(args.out / "roster_check.csv")
        for r in check:
            print(f"  roster: {r['kind']}: {r['student'] or 'row ' + r['roster_row']} ({r['detail']})")
        if not check:
            print("  roster: every student matched")
    print(f"Class report: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
