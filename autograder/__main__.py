"""Command line: python -m autograder {release,grade,check,run}."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("release", help="regenerate notebooks/ from solutions/")
    p.add_argument("--check", action="store_true", help="exit non-zero if the committed release is stale")

    p = sub.add_parser("grade", help="grade SUBMISSIONS/<student>/<NN_name>.ipynb for a whole class")
    p.add_argument("submissions", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--jobs", type=int, default=None, help="parallel notebooks (default: CPU cores)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per cell")

    p = sub.add_parser("check", help="self-check one notebook against the hidden tests")
    p.add_argument("notebook", type=Path)
    p.add_argument("--timeout", type=float, default=120)

    p = sub.add_parser("run", help="the course's main job: release, execute every lesson, summarise")
    p.add_argument("--jobs", type=int, default=None)

    args = parser.parse_args(argv)
    if args.command == "release":
        from .release import release
        return release(check=args.check)
    if args.command == "grade":
        from .grade import grade, print_table
        results = grade(args.submissions, args.out, jobs=args.jobs, timeout=args.timeout)
        print_table(results)
        print(f"\nWrote {args.out / 'grades.csv'}, {args.out / 'tests.csv'} and {args.out / 'feedback'}/")
        return 0
    if args.command == "check":
        return check(args.notebook, args.timeout)
    if args.command == "run":
        from .build import run
        return run(jobs=args.jobs)
    return 2


def check(notebook: Path, timeout: float) -> int:
    from .grade import build_template, grade_one
    from .notebooks import lessons

    lesson = notebook.stem
    if lesson not in lessons():
        print(f"{notebook.name}: not a lesson of this course ({', '.join(lessons())})")
        return 2
    with tempfile.TemporaryDirectory(prefix="check-") as work:
        build_template(Path(work), names=[lesson])
        r = grade_one(str(Path(work) / "course"), "you", lesson, str(notebook.resolve()), timeout)
    for t in r.tests:
        mark = "PASS" if t.score >= t.max_score else "FAIL"
        print(f"{mark}  {t.grade_id:<48} {t.score:g}/{t.max_score:g}" + (f"  {t.error}" if mark == "FAIL" else ""))
    print(f"\nScore: {r.score:g} / {r.max_score:g}   status: {r.status}" + (f" ({r.detail})" if r.detail else ""))
    return 0 if r.status == "ok" and r.max_score > 0 and r.score == r.max_score else 1


if __name__ == "__main__":
    sys.exit(main())
