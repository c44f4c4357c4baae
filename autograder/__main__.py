"""Command line: python -m autograder {release,grade,check,run,publish}."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["report"]:  # its options live with it: autograder/report.py
        from .report import main as report_main
        return report_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("report", help="OUT [--roster ROSTER.csv]: the class report (OUT/report.html) and "
                                  "LMS exports, rebuilt from OUT/ alone")

    p = sub.add_parser("release", help="regenerate notebooks/ from solutions/")
    p.add_argument("--check", action="store_true", help="exit non-zero if the committed release is stale")

    p = sub.add_parser("grade", help="grade SUBMISSIONS/<student>/<NN_name>.ipynb for a whole class")
    p.add_argument("submissions", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--jobs", type=int, default=None, help="notebooks graded at once (default: CPU cores)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per cell (default 120)")
    p.add_argument("--notebook-timeout", type=float, default=900,
                   help="seconds per notebook, all cells and kernel restarts included (default 900)")
    p.add_argument("--memory", type=float, default=4.0, help="GiB of address space per kernel (default 4)")
    p.add_argument("--force", action="store_true", help="regrade notebooks already in OUT/journal.jsonl")
    p.add_argument("--emulate", choices=["tpu", "gpu", "none"], default="tpu",
                   help="grade as if float32 matmuls ran on a TPU (default: DEFAULT precision = one "
                        "bf16 pass) or a GPU (TF32), or as the host computes them (none)")

    p = sub.add_parser("check", help="self-check one notebook against the hidden tests")
    p.add_argument("notebook", type=Path)
    p.add_argument("--emulate", choices=["tpu", "gpu", "none"], default="tpu",
                   help="matmul precision to check under (default: as on a TPU, like grading)")
    p.add_argument("--timeout", type=float, default=120)

    p = sub.add_parser("run", help="the course's main job: release, execute every lesson, summarise")
    p.add_argument("--jobs", type=int, default=None)

    p = sub.add_parser("publish", help="write the student-only course into DIR (autograder/publish.py)")
    p.add_argument("dir", type=Path)

    args = parser.parse_args(argv)
    if args.command == "release":
        from .release import release
        return release(check=args.check)
    if args.command == "grade":
        from .grade import grade, print_table
        if not args.submissions.is_dir():
            print(f"{args.submissions}: not a folder of submissions", file=sys.stderr)
            return 2
        try:
            results = grade(args.submissions, args.out, jobs=args.jobs, timeout=args.timeout,
                            force=args.force, notebook_timeout=args.notebook_timeout,
                            memory_gb=args.memory, emulate=args.emulate)
        except KeyboardInterrupt:
            return 130
        print_table(results)
        print(f"\nWrote {args.out / 'grades.csv'}, {args.out / 'tests.csv'}, {args.out / 'feedback'}/ "
              f"and the nbgrader gradebook {args.out / 'gradebook.db'}")
        return 0
    if args.command == "check":
        import os
        os.environ["COURSE_EMULATE"] = args.emulate
        return check(args.notebook, args.timeout)
    if args.command == "run":
        from .build import run
        return run(jobs=args.jobs)
    if args.command == "publish":
        from .publish import main as publish
        return publish([str(args.dir)])
    return 2


def lesson_of(notebook: Path) -> str | None:
    """The lesson a learner's notebook belongs to: by its name, or, for a renamed copy ("Copy of
    02_matmul_accumulation.ipynb", "mine.ipynb"), by its exercises' nbgrader ids."""
    import nbformat
    from .notebooks import ROOT, cell_grade_id, lessons

    names = lessons()
    if notebook.stem in names:
        return notebook.stem

    def answer_ids(path):
        try:
            cells = nbformat.read(str(path), as_version=4).cells
        except Exception:  # not a notebook at all
            return set()
        return {cell_grade_id(c) for c in cells if cell_grade_id(c).startswith("answer_")}

    mine = answer_ids(notebook)
    matches = [n for n in names if mine and mine == answer_ids(ROOT / "solutions" / n / f"{n}.ipynb")]
    return matches[0] if len(matches) == 1 else None


def check(notebook: Path, timeout: float) -> int:
    """A learner's self-check: the same grading as `grade`, for one notebook; prints each test's
    outcome and the score (never test code), exits 0 only if everything passes."""
    from .grade import grade_one, load_lessons, _init_worker
    from .notebooks import lessons

    if not notebook.is_file():
        print(f"{notebook}: no such file")
        return 2
    lesson = lesson_of(notebook)
    if lesson is None:
        print(f"{notebook.name}: not a notebook of this course's lessons ({', '.join(lessons())}); "
              "check the notebook you downloaded from notebooks/, with your answers filled in")
        return 2
    if lesson != notebook.stem:
        print(f"{notebook.name}: checking it as {lesson} (recognised by its exercises)\n")
    with tempfile.TemporaryDirectory(prefix="check-") as work:
        _init_worker(load_lessons(Path(__file__).resolve().parent.parent, [lesson], Path(work) / "gradebook.db"))
    r = grade_one("you", lesson, str(notebook.resolve()), cell_timeout=timeout,
                  deny=[str(Path(__file__).resolve().parent.parent)])
    for t in r.tests:
        mark = "PASS" if t.score >= t.max_score else "FAIL"
        print(f"{mark}  {t.grade_id:<48} {t.score:g}/{t.max_score:g}" + (f"  {t.error}" if mark == "FAIL" else ""))
    for note in r.notes:
        print(f"note: {note}")
    print(f"\nScore: {r.score:g} / {r.max_score:g}   status: {r.status}" + (f" ({r.detail})" if r.detail else ""))
    return 0 if r.status == "ok" and r.max_score > 0 and r.score == r.max_score else 1


if __name__ == "__main__":
    sys.exit(main())
