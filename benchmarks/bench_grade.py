"""Grade the benchmark class (8 honest students x every lesson) four ways and compare.

    PYTHONPATH=. python benchmarks/bench_grade.py [--students 8] [--jobs 2] [--skip-nbgrader]

1. plain nbgrader: a sequential loop of ``nbgrader autograde`` (its API, one submission at a time)
   in a scratch course, the way instructors run it today;
2. this grader, ``--jobs 1``;
3. this grader, ``--jobs N`` (default 2);
4. the floor: bare execution of the same submitted notebooks with nbclient, N at a time, no
   grading at all.

Prints wall times and ratios, and checks that nbgrader and this grader give every student the
same score (the class is honest: plain nbgrader would give an attacker full marks).
Targets (issue 5): jobs N >= 1.7x faster than the nbgrader loop, <= 1.25x the floor.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import logging
import multiprocessing
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))

import nbformat  # noqa: E402

from autograder.config import nbgrader_config  # noqa: E402
from autograder.grade import grade  # noqa: E402
from autograder.release import generate, prepare_course  # noqa: E402
from make_class import bench_class, released_lessons  # noqa: E402


def nbgrader_loop(subs: Path, names: list[str], timeout: int) -> dict:
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI

    logging.getLogger("traitlets").setLevel(logging.ERROR)
    scores = {}
    with tempfile.TemporaryDirectory(prefix="bench-nbgrader-") as tmp:
        course = Path(tmp)
        prepare_course(course, ROOT, names)
        generate(course, names, course / "gradebook.db")
        for student_dir in sorted(p for p in subs.iterdir() if p.is_dir()):
            for lesson in names:
                src = student_dir / f"{lesson}.ipynb"
                if not src.exists():
                    continue
                dst = course / "submitted" / student_dir.name / lesson / f"{lesson}.ipynb"
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(src, dst)
        config = nbgrader_config(course, course / "gradebook.db")
        config.Execute.timeout = timeout
        api = NbGraderAPI(config=config)
        for student_dir in sorted(p for p in subs.iterdir() if p.is_dir()):
            for lesson in names:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    api.autograde(lesson, student_dir.name, force=True, create=True)
        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
            for student_dir in sorted(p for p in subs.iterdir() if p.is_dir()):
                for lesson in names:
                    nb = gb.find_submission_notebook(lesson, lesson, student_dir.name)
                    scores[(student_dir.name, lesson)] = float(nb.score)
    return scores


def bare_execute(path: str, timeout: int) -> None:
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="bench-bare-") as work:
        NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                       resources={"metadata": {"path": work}}).execute()


def floor(subs: Path, jobs: int, timeout: int) -> None:
    paths = sorted(str(p) for p in subs.glob("*/*.ipynb"))
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(bare_execute, paths, [timeout] * len(paths)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--skip-nbgrader", action="store_true")
    args = parser.parse_args()
    names = released_lessons()
    times, scores = {}, {}
    with tempfile.TemporaryDirectory(prefix="bench-class-") as tmp:
        subs = Path(tmp) / "submissions"
        bench_class(subs, args.students)
        n = len(list(subs.glob("*/*.ipynb")))
        print(f"{n} notebooks ({args.students} students x {len(names)} lessons), "
              f"{multiprocessing.cpu_count()} CPU cores", flush=True)

        runs = [] if args.skip_nbgrader else [("nbgrader autograde, sequential", None)]
        runs += [("this grader, --jobs 1", 1), (f"this grader, --jobs {args.jobs}", args.jobs),
                 (f"bare nbclient execution, {args.jobs} at a time (floor)", "floor")]
        for label, how in runs:
            t0 = time.perf_counter()
            if how is None:
                scores[label] = nbgrader_loop(subs, names, args.timeout)
            elif how == "floor":
                floor(subs, args.jobs, args.timeout)
            else:
                # --emulate none: plain nbgrader runs on this CPU's arithmetic, so compare like with
                # like (grading as if on a TPU, the default, costs the same and takes more points
                # from a wrong answer that only a TPU reveals)
                results = grade(subs, Path(tmp) / f"out{how}", jobs=how, timeout=args.timeout,
                                quiet=True, names=names, force=True, emulate="none")
                scores[label] = {(r.student, r.notebook): r.score for r in results if r.status != "missing"}
                bad = [r for r in results if r.status != "ok"]
                if bad:
                    print(f"  not ok: {[(r.student, r.notebook, r.status, r.detail) for r in bad]}")
            times[label] = time.perf_counter() - t0
            print(f"{label:<48} {times[label]:7.1f} s", flush=True)

    par = f"this grader, --jobs {args.jobs}"
    fl = f"bare nbclient execution, {args.jobs} at a time (floor)"
    print()
    ok = True
    if "nbgrader autograde, sequential" in times:
        speedup = times["nbgrader autograde, sequential"] / times[par]
        print(f"speed-up of --jobs {args.jobs} over the nbgrader loop: {speedup:.2f}x (target >= 1.7x)")
        ok &= speedup >= 1.7
        ref = scores["nbgrader autograde, sequential"]
        for label in ("this grader, --jobs 1", par):
            diff = {k: (ref.get(k), v) for k, v in scores[label].items() if ref.get(k) != v}
            print(f"scores of '{label}' agree with nbgrader: {not diff}" + (f" {diff}" if diff else ""))
            ok &= not diff
    ratio = times[par] / times[fl]
    print(f"--jobs {args.jobs} / bare-execution floor: {ratio:.2f}x (target <= 1.25x)")
    ok &= ratio <= 1.25
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
