"""Command line: python -m autograder {report,release,grade,override,check,run,lab,publish};
`python -m autograder COMMAND --help` says what each takes."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def parser() -> argparse.ArgumentParser:
    """Every subcommand with its options and their help (report's and publish's own options are
    parsed by their modules; lab's other options go to jupyter lab)."""
    top = argparse.ArgumentParser(prog="python -m autograder", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    sub.add_parser(
        "report",
        help="OUT [--roster ROSTER.csv]: the class report (OUT/report.html) and LMS exports, rebuilt from OUT/ alone",
    )

    p = sub.add_parser("release", help="regenerate notebooks/ from solutions/")
    p.add_argument("--check", action="store_true", help="exit non-zero if the committed release is stale")

    p = sub.add_parser(
        "grade",
        help="grade a class: SUBMISSIONS/<student>/*.ipynb, a Canvas or Moodle download, or its .zip",
    )
    p.add_argument("submissions", type=Path, help="a folder, or an LMS's .zip (autograder/grader/intake.py)")
    p.add_argument(
        "--out",
        type=Path,
        required=True,
        help="where grades go: a new folder, or this class's earlier OUT (a rerun merges with it)",
    )
    p.add_argument(
        "--lessons",
        default=None,
        metavar="02,03",
        help="grade only these lessons, by number or name (default: the lessons found in SUBMISSIONS); "
        "no row at all for the others",
    )
    p.add_argument("--students", default=None, metavar="ada,bob", help="grade only these students (default: all)")
    p.add_argument(
        "--force",
        action="store_true",
        help="regrade the notebooks in scope even where OUT/journal.jsonl holds their grade "
        "(rows outside the scope are kept)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS|local:N",
        help="grade on a Dask cluster's workers: tcp://host:8786, a scheduler file, or local:N "
        "for N worker processes here (docs/SCALING.md)",
    )
    _settings_arguments(p, jobs=True)

    p = sub.add_parser(
        "override",
        help="set an instructor's score for one student and lesson in OUT (kept across regrades), or --remove it",
        description="Record an instructor's score with its reason in OUT/overrides.jsonl and rewrite OUT's "
        "outputs (grades.csv, results.json, feedback, report, gradebook) from its journal; every later "
        "regrade keeps it until --remove.",
    )
    p.add_argument("out", type=Path, help="a grading OUT folder (python -m autograder grade ... --out OUT)")
    p.add_argument("--student", required=True, help="the student as grades.csv names them")
    p.add_argument("--lesson", required=True, metavar="02|NAME", help="the lesson, by number or name")
    p.add_argument("--score", type=float, default=None, help="the score to record (0 to the lesson's points)")
    p.add_argument("--reason", default="", help="why (shown in results.json and the report; required to set)")
    p.add_argument("--remove", action="store_true", help="remove the override: the graded score is back")

    p = sub.add_parser("check", help="self-check one notebook against the hidden tests")
    p.add_argument(
        "notebook", type=Path, help="a lesson's .ipynb with answers filled in (any name: matched by its exercises)"
    )
    _settings_arguments(p, jobs=False)

    p = sub.add_parser("run", help="the course's main job: release, execute every lesson, summarise")
    p.add_argument("--jobs", type=int, default=None, help="lessons executed at once (default: CPU cores)")

    p = sub.add_parser(
        "lab",
        help="JupyterLab on the course with nbgrader's extensions, the instructor's view (what `make lab` runs)",
        description="Record the lessons in the course's gradebook if needed, then run JupyterLab on the "
        "repository (autograder/lab.py). Other options go to `jupyter lab` as they are "
        "(python -m autograder lab --port=8899 --no-browser).",
    )
    p.add_argument(
        "--prepare", action="store_true", help="only the gradebook and exchange, for nbgrader's own commands"
    )

    sub.add_parser(
        "publish",
        help="DIR [--upstream-is-public]: write the student-only course into DIR (autograder/publish.py)",
    )

    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["report"]:  # its options live with it: autograder/report/cli.py
        from .report import main as report_main

        return report_main(argv[1:])
    if argv[:1] == ["lab"] and not {"-h", "--help"} & set(argv[1:]):  # what `make lab` runs
        from .lab import main as lab_main

        return lab_main(argv[1:])
    if argv[:1] == ["publish"]:  # its options live with it: autograder/publish.py
        from .publish import main as publish_main

        return publish_main(argv[1:])
    args = parser().parse_args(argv)
    if args.command == "release":
        from .release import release

        return release(check=args.check)
    if args.command == "grade":
        from .grader import grade, print_table
        from .words import plural

        from .grader.canary import CanaryFailed
        from .grader.distribute import SchedulerError
        from .grader.intake import IntakeError

        if args.scheduler and args.jobs:
            print("--jobs N grades here, --scheduler on a cluster's workers: give one of them", file=sys.stderr)
            return 2
        try:
            results = grade(
                args.submissions,
                args.out,
                _settings(args),
                force=args.force,
                scheduler=args.scheduler,
                names=args.lessons.split(",") if args.lessons else None,
                students=args.students.split(",") if args.students else None,
            )
        except KeyboardInterrupt:
            return 130
        except (SchedulerError, CanaryFailed, IntakeError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print_table(results)
        print(
            f"\nWrote {args.out / 'grades.csv'}, {args.out / 'tests.csv'}, {args.out / 'feedback'}/ "
            f"and the nbgrader gradebook {args.out / 'gradebook.db'}"
        )
        faults = [r for r in results if r.status == "grader-error"]
        if faults:
            print(
                f"error: {plural(len(faults), 'notebook')} could not be graded because of the grader, not the student "
                f"(first: {faults[0].student}/{faults[0].notebook}: {faults[0].detail}); no grade was written "
                "for them: fix the cause and rerun the same command to grade them",
                file=sys.stderr,
            )
            return 2
        return 0
    if args.command == "override":
        return override(args)
    if args.command == "check":
        return check(args.notebook, _settings(args))
    if args.command == "run":
        from .build import run

        return run(jobs=args.jobs)
    return 2


def override(args) -> int:
    """Record (or remove) an override, then rewrite OUT's outputs from its journal: no grading."""
    from .grader.classrun import rewrite
    from .grader.gradebook import Journal
    from .grader.overrides import OverrideError, record

    out = args.out.resolve()
    rows = Journal(out / "journal.jsonl").rows
    try:
        done = record(out, args.student, args.lesson, rows, args.score, args.reason, args.remove)
    except OverrideError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    key = next(k for k in rows if k[0] == args.student and args.lesson in (k[1], k[1].split("_", 1)[0]))
    rewrite(out, touched=frozenset({key}), quiet=True)
    print(f"{done}; rewrote {out / 'grades.csv'}, results.json, feedback, report.html and the gradebook")
    return 0


def _settings_arguments(p, jobs: bool) -> None:
    """The grading limits on the command line; defaults from autograder/grader/settings.py."""
    from .grader.settings import DIAGNOSIS_SECONDS, EMULATION_MODES, GiB, Limits, Settings

    d, lim = Settings(), Limits()
    if jobs:
        p.add_argument("--jobs", type=int, default=None, help="notebooks graded at once (default: CPU cores)")
        p.add_argument(
            "--seed",
            type=int,
            default=None,
            help="the run's seed, recorded in OUT/run.json (default: the seed OUT/run.json "
            "holds from its first run, else a new one); a new seed regrades the notebooks in scope",
        )
    p.add_argument(
        "--timeout",
        type=float,
        default=d.cell_timeout,
        help=f"seconds per test cell, the student's calls included (default {d.cell_timeout:g})",
    )
    p.add_argument(
        "--notebook-timeout",
        type=float,
        default=d.notebook_timeout,
        help=f"seconds per notebook, restarts and replays included (default {d.notebook_timeout:g})",
    )
    p.add_argument(
        "--memory",
        type=float,
        default=lim.memory_bytes / GiB,
        help=f"GiB of address space for the student's process (default {lim.memory_bytes / GiB:g})",
    )
    p.add_argument(
        "--emulate",
        choices=EMULATION_MODES,
        default=d.emulation,
        help="grade as if float32 matmuls ran on a TPU (default: DEFAULT precision = one "
        "bf16 pass) or a GPU (TF32), or as the host computes them (none)",
    )
    p.add_argument(
        "--no-diagnose",
        action="store_true",
        help="do not name the known mistake a failed check behaves like (default: named, within "
        f"{DIAGNOSIS_SECONDS:g} s of the check's own time)",
    )


def _settings(args):
    import dataclasses
    from .grader.settings import GiB, Limits, Settings

    return Settings(
        cell_timeout=args.timeout,
        notebook_timeout=args.notebook_timeout,
        emulation=args.emulate,
        jobs=getattr(args, "jobs", None),
        seed=getattr(args, "seed", None),
        diagnose=not getattr(args, "no_diagnose", False),
        limits=dataclasses.replace(Limits(), memory_bytes=int(args.memory * GiB)),
    )


def lesson_of(notebook: Path) -> str | None:
    """The lesson a learner's notebook belongs to: by its name, or, for a renamed copy ("Copy of
    02_matmul_accumulation.ipynb", "mine.ipynb"), by its exercises' nbgrader ids."""
    import nbformat
    from .notebooks import answer_ids, lesson_answer_ids, lessons, match_lessons

    if notebook.stem in lessons():
        return notebook.stem
    try:
        mine = answer_ids(nbformat.read(str(notebook), as_version=4))
    except Exception:  # noqa: BLE001  not a notebook at all
        return None
    matches = match_lessons(mine, lesson_answer_ids())
    return matches[0] if len(matches) == 1 else None


def check(notebook: Path, settings) -> int:
    """A learner's self-check: the same grading as `grade`, for one notebook; prints each test's
    outcome and the score (never test code), exits 0 only if everything passes."""
    from .grader.classrun import load_lessons
    from .grader.run import grade_notebook
    from .mistakes import sentence
    from .notebooks import ROOT, lessons

    if not notebook.is_file():
        print(f"{notebook}: no such file")
        return 2
    lesson = lesson_of(notebook)
    if lesson is None:
        print(
            f"{notebook.name}: not a notebook of this course's lessons ({', '.join(lessons())}); "
            "check the notebook you downloaded from notebooks/, with your answers filled in"
        )
        return 2
    if lesson != notebook.stem:
        print(f"{notebook.name}: checking it as {lesson} (recognised by its exercises)\n")
    with tempfile.TemporaryDirectory(prefix="check-") as work:
        data = load_lessons(ROOT, [lesson], Path(work) / "gradebook.db")[lesson]
    r = grade_notebook("you", data, notebook.read_bytes(), settings, ROOT)
    for t in r.tests:
        mark = "PASS" if t.score >= t.max_score else "FAIL"
        print(f"{mark}  {t.grade_id:<48} {t.score:g}/{t.max_score:g}" + (f"  {t.error}" if mark == "FAIL" else ""))
        for line in sentence(t.mistakes, ROOT) if mark == "FAIL" else []:  # the library's text only
            print(f"      {line}")
    for note in r.notes:
        print(f"note: {note}")
    # what the student's page says: the status of the visible checks (how a hidden one failed is a
    # signal an answer could send about a hidden input)
    status, detail = (r.shown_status, r.shown_detail) if r.shown_status else (r.status, r.detail)
    print(f"\nScore: {r.score:g} / {r.max_score:g}   status: {status}" + (f" ({detail})" if detail else ""))
    return 0 if r.status == "ok" and r.max_score > 0 and r.score == r.max_score else 1


if __name__ == "__main__":
    sys.exit(main())
