"""Command line: python -m autograder {report,release,grade,override,feedback,check,gradescope,run,lab,
publish}; `python -m autograder COMMAND --help` says what each takes."""

from __future__ import annotations

import argparse
import dataclasses
import sys
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
    p.add_argument("submissions", type=Path, help="a folder, or an LMS's .zip (autograder/grader/classroom/intake.py)")
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

    p = sub.add_parser(
        "feedback",
        help="OUT --zip: pack OUT's feedback pages for delivery (per student, or an LMS's bulk-upload zip)",
        description="Pack the feedback pages `grade` wrote into OUT/feedback-zips/: one zip per student, or per "
        "lesson the zip Canvas (Re-Upload Submissions) or Moodle (Upload multiple feedback files in a zip) "
        "takes, its files named after each student's download (autograder/report/archives.py).",
    )
    p.add_argument("out", type=Path, help="a grading OUT folder (python -m autograder grade ... --out OUT)")
    p.add_argument("--zip", action="store_true", required=True, help="write the archives (the one action)")
    p.add_argument(
        "--format",
        default="auto",
        choices=("auto", "students", "canvas", "moodle"),
        help="auto (default): per lesson, the LMS every upload came from, else one zip per student",
    )

    p = sub.add_parser("check", help="self-check one notebook against the hidden tests")
    p.add_argument(
        "notebook", type=Path, help="a lesson's .ipynb with answers filled in (any name: matched by its exercises)"
    )
    _settings_arguments(p, jobs=False)

    p = sub.add_parser(
        "gradescope",
        help="OUT: one Gradescope autograder zip per lesson (INSTRUCTOR-ONLY: they hold the hidden tests)",
        description="Write OUT/<NN_name>-autograder.zip for each lesson: Gradescope's setup.sh and "
        "run_autograder with the lesson's solution and the grader, graded as `grade` grades "
        '(README, "Grading on Gradescope"). The zips hold the hidden tests: instructors only.',
    )
    p.add_argument("out", type=Path, help="a folder for the zips")
    p.add_argument("--lessons", default=None, metavar="02,05", help="only these lessons, by number or name")
    p.add_argument(
        "--hidden-visibility",
        default="after_published",
        choices=("hidden", "after_due_date", "after_published", "visible"),
        help="when Gradescope shows students the hidden checks' passed or failed (default after_published)",
    )
    p.add_argument(
        "--seed", type=int, default=None, help="the seed hidden inputs are mixed from (default: a new secret one)"
    )
    from .grader.core.settings import GRADESCOPE_NOTEBOOK_TIMEOUT

    _settings_arguments(p, jobs=False, notebook_timeout=GRADESCOPE_NOTEBOOK_TIMEOUT)

    p = sub.add_parser("run", help="the course's main job: release, execute every lesson, summarise")
    p.add_argument("--jobs", type=int, default=None, help="lessons executed at once (default: CPU cores)")

    p = sub.add_parser(
        "lab",
        help="JupyterLab on the course with nbgrader's extensions, the instructor's view (what `make lab` runs)",
        description="Record the lessons in the course's gradebook if needed, then run JupyterLab on the "
        "repository (autograder/course/lab.py). Other options go to `jupyter lab` as they are "
        "(python -m autograder lab --port=8899 --no-browser).",
    )
    p.add_argument(
        "--prepare", action="store_true", help="only the gradebook and exchange, for nbgrader's own commands"
    )

    sub.add_parser(
        "publish",
        help="DIR [--upstream-is-public]: write the student-only course into DIR (autograder/course/publish.py)",
    )

    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["report"]:  # its options live with it: autograder/report/cli.py
        from .report import main as report_main

        return report_main(argv[1:])
    if argv[:1] == ["lab"] and not {"-h", "--help"} & set(argv[1:]):  # what `make lab` runs
        from .course.lab import main as lab_main

        return lab_main(argv[1:])
    if argv[:1] == ["publish"]:  # its options live with it: autograder/course/publish.py
        from .course.publish import main as publish_main

        return publish_main(argv[1:])
    args = parser().parse_args(argv)
    if args.command == "release":
        from .course.release import release

        return release(check=args.check)
    if args.command == "grade":
        from .grader import grade, print_table
        from .common.words import plural

        from .grader.classroom.canary import CanaryFailed
        from .grader.classroom.distribute import SchedulerError
        from .grader.classroom.intake import IntakeError

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
        from .report import report_class

        report_class(args.out)  # grade, then report: the grader never imports the report
        print_table(results)
        print(
            f"\nWrote {args.out / 'grades.csv'}, {args.out / 'tests.csv'}, {args.out / 'feedback'}/ "
            f"and the nbgrader gradebook {args.out / 'gradebook.db'}"
        )
        faults = [r for r in results if r.status == "grader-error"]
        if faults:
            print(
                f"error: {plural(len(faults), 'notebook')} could not be graded because of the grader, not the student "
                f"(first: {faults[0].student}/{faults[0].lesson}: {faults[0].detail}); no grade was written "
                "for them: fix the cause and rerun the same command to grade them",
                file=sys.stderr,
            )
            return 2
        return 0
    if args.command == "override":
        return override(args)
    if args.command == "feedback":
        from .report.archives import main as pack_main

        return pack_main(args.out, args.format)
    if args.command == "check":
        from .grader.classroom.selfcheck import check

        return check(args.notebook, _settings(args))
    if args.command == "gradescope":
        return gradescope(args)
    if args.command == "run":
        from .course.build import run

        return run(jobs=args.jobs)
    return 2


def override(args) -> int:
    """Record (or remove) an override, then rewrite OUT's outputs from its journal: no grading."""
    from .grader.classroom.classrun import rewrite
    from .grader.classroom.gradebook import Journal
    from .grader.classroom.overrides import OverrideError, record, student_of

    out = args.out.resolve()
    rows = Journal(out / "journal.jsonl").rows
    try:
        done = record(out, args.student, args.lesson, rows, args.score, args.reason, args.remove)
    except OverrideError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    student = student_of(rows, args.student)  # the name, or its face in grades.csv
    key = next(k for k in rows if k[0] == student and args.lesson in (k[1], k[1].split("_", 1)[0]))
    rewrite(out, touched=frozenset({key}), quiet=True)
    from .report import report_class

    report_class(out, quiet=True)
    print(f"{done}; rewrote {out / 'grades.csv'}, results.json, feedback, report.html and the gradebook")
    return 0


def gradescope(args) -> int:
    """Write the zips, and say loudly that they are instructors' only."""
    import dataclasses
    from .gradescope.build import write_zips
    from .grader.classroom.intake import IntakeError, pick_lessons
    from .common.notebooks import lessons

    try:
        names = pick_lessons(lessons(), args.lessons.split(",")) if args.lessons else lessons()
    except IntakeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    settings = dataclasses.replace(_settings(args), seed=args.seed)
    for path in write_zips(args.out, names, settings, args.hidden_visibility):
        print(f"wrote {path}")
    print(
        "INSTRUCTOR-ONLY: each zip holds its lesson's reference solution and HIDDEN TESTS. Upload it to "
        'Gradescope (README, "Grading on Gradescope") and nowhere else; never give it to students.'
    )
    return 0


def _settings_arguments(p, jobs: bool, notebook_timeout: float | None = None) -> None:
    """The grading limits on the command line; defaults from autograder/grader/core/settings.py."""
    from .grader.core.settings import DIAGNOSIS_SECONDS, EMULATION_MODES, GiB, Limits, Settings

    d, lim = Settings(), Limits()
    if notebook_timeout is not None:
        d = dataclasses.replace(d, notebook_timeout=notebook_timeout)
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
    p.add_argument(
        "--no-rules",
        action="store_true",
        help="do not record or show the rule of the contract a wrong hidden check broke (default: "
        "shown under the failed check: docs/AUTHORING.md, 'Rules')",
    )


def _settings(args):
    import dataclasses
    from .grader.core.settings import GiB, Limits, Settings

    return Settings(
        cell_timeout=args.timeout,
        notebook_timeout=args.notebook_timeout,
        emulation=args.emulate,
        jobs=getattr(args, "jobs", None),
        seed=getattr(args, "seed", None),
        diagnose=not getattr(args, "no_diagnose", False),
        rules=not getattr(args, "no_rules", False),
        limits=dataclasses.replace(Limits(), memory_bytes=int(args.memory * GiB)),
    )


if __name__ == "__main__":
    sys.exit(main())
