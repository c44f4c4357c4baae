"""Grade the benchmark class (8 honest students x every lesson) several ways and compare.

    PYTHONPATH=. python benchmarks/bench_grade.py [--students 8] [--jobs 2] [--skip-nbgrader]
    PYTHONPATH=. python benchmarks/bench_grade.py --dask-only     # rows 3, 5 and 6 only
    PYTHONPATH=. python benchmarks/bench_grade.py --ratio-only    # rows 1, 3 and 4 only
    PYTHONPATH=. python benchmarks/bench_grade.py --diagnosis     # row 3 with and without diagnosis

1. plain nbgrader: a sequential loop of ``nbgrader autograde`` (its API, one submission at a time)
   in a scratch course, the way instructors run it today;
2. this grader, ``--jobs 1``;
3. this grader, ``--jobs N`` (default 2);
4. the floor: bare execution of the same submitted notebooks with nbclient, N at a time, no
   grading at all;
5. this grader on a Dask LocalCluster, ``--scheduler local:N`` (issue 22);
6. the same with one worker, ``--scheduler local:1``: throughput with 1 and N workers;
7. ``--diagnosis``: row 3 with the diagnosis of failed checks switched off (``Settings.diagnose``),
   beside row 3 as graded (diagnosis on): what naming the known mistakes costs (issue 32).

Prints wall times and ratios, the machine's load average around each run (it is shared), and
checks that nbgrader and this grader give every student the same score (the class is honest:
plain nbgrader would give an attacker full marks) and that the Dask runs give the same grades as
``--jobs N``. Targets: jobs N >= 1.7x faster than the nbgrader loop, <= 1.25x the floor (issue
5); ``--scheduler local:N`` within 1.10x of ``--jobs N`` (issue 22); diagnosis within 1.10x of no diagnosis (issue 32).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import multiprocessing
import os
import resource
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

from autograder.common.config import nbgrader_config  # noqa: E402
from autograder.grader import Settings, grade  # noqa: E402
from autograder.course.release import generate, prepare_course  # noqa: E402
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
        NotebookClient(
            nb, timeout=timeout, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": work}}
        ).execute()


def floor(subs: Path, jobs: int, timeout: int) -> None:
    paths = sorted(str(p) for p in subs.glob("*/*.ipynb"))
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(bare_execute, paths, [timeout] * len(paths)))


def load() -> str:
    return "load %.1f %.1f %.1f" % os.getloadavg()


def adopt_orphans() -> None:
    """Make this process the subreaper of its descendants (Linux): a worker's zygote outlives its
    worker for a moment (it ends when its socket closes) and would be reparented to init, its CPU
    and its checkers' lost to RUSAGE_CHILDREN; adopted here, ``reap`` collects them."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def reap(quiet_for: float = 2.0, at_most: float = 30.0) -> None:
    """Wait for the descendants a run left (orphaned zygotes ending), so their CPU is counted:
    until none has ended for ``quiet_for`` seconds (or none is left)."""
    start = last = time.monotonic()
    while time.monotonic() - last < quiet_for and time.monotonic() - start < at_most:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid:
            last = time.monotonic()
        else:
            time.sleep(0.05)


def cpu_seconds() -> float:
    """CPU time of this process and every finished descendant it waited for (pool and Dask workers,
    their zygotes, checkers; adopt_orphans and reap make sure each is counted), but not most of the
    sandboxed students' CPU (their processes are killed or reaped where no wait of this tree counts
    them): ``machine_cpu`` counts it."""
    reap()
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def machine_cpu() -> float:
    """CPU seconds the whole machine spent busy (user, nice, system: /proc/stat, every core), or
    nan where there is none. It counts what ``cpu_seconds`` cannot reach (a student's processes
    whose sandbox ended before they were waited for are reaped outside this process's tree) and
    anything else running here: read it beside the load."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()[1:4]
        return sum(int(x) for x in fields) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--skip-nbgrader", action="store_true")
    parser.add_argument(
        "--dask-only", action="store_true", help="only --jobs N, --scheduler local:N and --scheduler local:1"
    )
    parser.add_argument(
        "--ratio-only", action="store_true", help="only the nbgrader loop, --jobs N and the floor (rows 1, 3, 4)"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run the set R times, interleaved; each row keeps its quickest (a shared machine)",
    )
    parser.add_argument(
        "--diagnosis", action="store_true", help="only --jobs N, with and without the diagnosis of failed checks"
    )
    args = parser.parse_args()
    adopt_orphans()
    names = released_lessons()
    times, scores, grades, cpu, named, busy = {}, {}, {}, {}, {}, {}
    par = f"this grader, --jobs {args.jobs}"
    fl = f"bare nbclient execution, {args.jobs} at a time (floor)"
    dask_n, dask_1 = f"this grader, --scheduler local:{args.jobs}", "this grader, --scheduler local:1"
    plain = f"this grader, --jobs {args.jobs}, no diagnosis"
    with tempfile.TemporaryDirectory(prefix="bench-class-") as tmp:
        subs = Path(tmp) / "submissions"
        bench_class(subs, args.students)
        n = len(list(subs.glob("*/*.ipynb")))
        print(
            f"{n} notebooks ({args.students} students x {len(names)} lessons), "
            f"{multiprocessing.cpu_count()} CPU cores, {load()}",
            flush=True,
        )

        if args.diagnosis:
            runs = [(par, args.jobs, None), (plain, args.jobs, None)]
        elif args.ratio_only:
            runs = [("nbgrader autograde, sequential", "nbgrader", None), (par, args.jobs, None), (fl, "floor", None)]
        elif args.dask_only:
            runs = [(par, args.jobs, None), (dask_n, None, f"local:{args.jobs}"), (dask_1, None, "local:1")]
        else:
            runs = [] if args.skip_nbgrader else [("nbgrader autograde, sequential", "nbgrader", None)]
            runs += [
                ("this grader, --jobs 1", 1, None),
                (par, args.jobs, None),
                (fl, "floor", None),
                (dask_n, None, f"local:{args.jobs}"),
                (dask_1, None, "local:1"),
            ]
        for label, how, scheduler in runs * args.repeat:
            before, c0, m0 = load(), cpu_seconds(), machine_cpu()
            t0 = time.perf_counter()
            if how == "nbgrader":
                scores[label] = nbgrader_loop(subs, names, args.timeout)
            elif how == "floor":
                floor(subs, args.jobs, args.timeout)
            else:
                # --emulate none: plain nbgrader runs on this CPU's arithmetic, so compare like with
                # like (grading as if on a TPU, the default, costs the same and takes more points
                # from a wrong answer that only a TPU reveals)
                settings = Settings(
                    jobs=how, cell_timeout=args.timeout, emulation="none", seed=0, diagnose=label != plain
                )
                results = grade(
                    subs,
                    Path(tmp) / f"out{len(times)}",
                    settings,
                    quiet=True,
                    names=names,
                    force=True,
                    scheduler=scheduler,
                )
                scores[label] = {(r.student, r.lesson): r.score for r in results if r.status != "missing"}
                named[label] = sum(bool(t.mistakes) for r in results for t in r.tests)
                grades[label] = {(r.student, r.lesson): (r.score, r.status) for r in results}
                bad = [r for r in results if r.status != "ok"]
                if bad:
                    print(f"  not ok: {[(r.student, r.lesson, r.status, r.detail) for r in bad]}")
            took, used = time.perf_counter() - t0, cpu_seconds() - c0
            machine = machine_cpu() - m0
            times[label] = min(took, times.get(label, took))
            cpu[label] = min(used, cpu.get(label, used))
            busy[label] = min(machine, busy.get(label, machine))
            print(
                f"{label:<48} {took:7.1f} s, CPU {used:6.1f} s = {used / n:4.1f} s a notebook (not the sandboxed), "
                f"machine busy {machine:6.1f} CPU-s   "
                f"({before} before, {load()} after)",
                flush=True,
            )

    print()
    if args.repeat > 1:
        print("quickest of each:")
        for label, t in times.items():
            print(f"{label:<48} {t:7.1f} s, CPU {cpu[label]:6.1f} s, machine busy {busy[label]:6.1f} CPU-s")
    ok = True
    if "nbgrader autograde, sequential" in times:
        speedup = times["nbgrader autograde, sequential"] / times[par]
        print(f"speed-up of --jobs {args.jobs} over the nbgrader loop: {speedup:.2f}x (target >= 1.7x)")
        ok &= speedup >= 1.7
        ref = scores["nbgrader autograde, sequential"]
        for label in [lb for lb in ("this grader, --jobs 1", par) if lb in scores]:
            diff = {k: (ref.get(k), v) for k, v in scores[label].items() if ref.get(k) != v}
            print(f"scores of '{label}' agree with nbgrader: {not diff}" + (f" {diff}" if diff else ""))
            ok &= not diff
    if fl in times:
        ratio = times[par] / times[fl]
        print(f"--jobs {args.jobs} / bare-execution floor: {ratio:.2f}x (target <= 1.25x)")
        # the work itself, every process counted (the CPU column's rusage misses the sandboxed students)
        print(f"machine busy, --jobs {args.jobs} / floor: {busy[par] / busy[fl]:.2f}x of the CPU-seconds")
        ok &= ratio <= 1.25
    if plain in times:
        ratio = times[par] / times[plain]
        print(
            f"diagnosis on / off: {ratio:.3f}x wall time (target <= 1.10x), {cpu[par] / cpu[plain]:.2f}x CPU time, "
            f"{busy[par] / busy[plain]:.3f}x machine busy time; "
            f"checks naming a known mistake: {named[par]} (off: {named[plain]})"
        )
        ok &= ratio <= 1.10 and grades[par] == grades[plain]
        print(f"grades and statuses equal with and without diagnosis: {grades[par] == grades[plain]}")
    if dask_n in times:
        ratio = times[dask_n] / times[par]
        print(
            f"--scheduler local:{args.jobs} / --jobs {args.jobs}: {ratio:.2f}x wall time (target <= 1.10x), "
            f"{cpu[dask_n] / cpu[par]:.2f}x CPU time"
        )
        ok &= ratio <= 1.10
        for label in (dask_n, dask_1):
            same = grades[label] == grades[par]
            print(f"grades and statuses of '{label}' equal --jobs {args.jobs}'s: {same}")
            ok &= same
        one, many = n / times[dask_1] * 60, n / times[dask_n] * 60
        print(
            f"throughput: 1 worker {one:.1f} notebooks/min, {args.jobs} workers {many:.1f} notebooks/min "
            f"({many / one:.2f}x); per notebook {times[dask_1] / n:.1f} worker-s with 1 worker, "
            f"{times[dask_n] * args.jobs / n:.1f} worker-s with {args.jobs} on {multiprocessing.cpu_count()} cores"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
