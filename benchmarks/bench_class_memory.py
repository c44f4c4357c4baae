"""The grading parent's memory as the class grows (issue 57): flat, whatever the notebooks weigh.

    PYTHONPATH=. python benchmarks/bench_class_memory.py                      # 100, 300, 1000 students
    PYTHONPATH=. python benchmarks/bench_class_memory.py --students 100 300 --dask
    PYTHONPATH=. python benchmarks/bench_class_memory.py --real --students 300 --jobs 2   # real grading

A class of N students, each handing in lesson 01's solved notebook with one image output of
--mb MB (3.2: a plotted notebook), is graded by ``classrun.grade`` (the parent's whole path:
intake, lessons, canaries, the feed, the journal, the gradebook, every output) in a fresh process.
By default each worker runs a stand-in for ``grade_job`` (``stand_in``: it parses the notebook
as a worker does and returns the real Result of the solution, graded once beforehand, under the
student's name), so that the parent's memory is measured in seconds, not hours; ``--real`` grades
for real (``grade_job``: sandbox, checker, hidden tests). A sampler thread reads each process's
peak resident set (VmHWM) every 0.2 s: the parent's own, and the largest of any worker (a direct
child: the pool's workers, Dask's worker processes), checkers and student processes apart.

Printed per class size: the class's bytes, the parent's peak and what it is per student, the
largest worker's peak, wall time, and the ratio of the parent's peak to the smallest class's.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(Path(__file__).resolve().parent)]

LESSON = "01_number_formats"
TEMPLATE_ENV = "BENCH_CLASS_RESULT"  # the file holding the solution's real Result (JSON), for stand_in


def stand_in(job: dict) -> dict:
    """A worker's grade_job, without the grading: the submission parsed as a worker parses it,
    then the solution's real Result under this student's name (importable by name: spawn, Dask)."""
    from autograder.grader.notebook.submissions import parse_notebook

    parse_notebook(job["submission"])
    result = json.loads(Path(os.environ[TEMPLATE_ENV]).read_text())
    result["student"], result["digest"] = job["student"], job["digest"]
    return result


def status_kib(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def children(pid: int) -> list[int]:
    """The direct children of every thread of ``pid`` (Dask starts its workers from a thread)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


class Sampler(threading.Thread):
    """Peak resident sets of this process and of each direct child (workers), sampled."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.stop, self.workers = threading.Event(), {}

    def run(self) -> None:
        me = os.getpid()
        while not self.stop.wait(0.2):
            for child in children(me):
                self.workers[child] = max(self.workers.get(child, 0), status_kib(child, "VmHWM"))


def notebook(mb: float) -> bytes:
    """Lesson 01's solved notebook with one PNG output of ``mb`` MB (random bytes: base64 text)."""
    from bounded_reading import honest

    nb = honest()
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    png = base64.b64encode(os.urandom(int(mb * 2**20 * 3 / 4))).decode()
    cell["outputs"] = [{"output_type": "display_data", "data": {"image/png": png}, "metadata": {}}]
    return json.dumps(nb).encode()


def one(students: int, mb: float, jobs: int, dask: bool, real: bool, work: Path) -> dict:
    """Grade one class in this process (run in a fresh one by main): the figures."""
    from autograder.grader import Settings
    from autograder.grader.classroom import classrun, distribute
    from autograder.grader.classroom.pool import pool_grade

    raw = notebook(mb)
    subs = work / "subs"
    for i in range(students):
        (subs / f"s{i:05d}").mkdir(parents=True)
        (subs / f"s{i:05d}" / f"{LESSON}.ipynb").write_bytes(raw)
    if not real:

        def local(todo, settings, rec):
            pool_grade(todo, max(1, settings.jobs or 1), "", rec, task=stand_in)

        classrun._run_pool = local
        cluster_run = distribute.run_on_cluster
        distribute.run_on_cluster = lambda cluster, todo, rec: cluster_run(cluster, todo, rec, task=stand_in)
    sampler = Sampler()
    sampler.start()
    t0 = time.perf_counter()
    settings = Settings(jobs=jobs, seed=57, diagnose=real)
    results = classrun.grade(
        subs, work / "out", settings, quiet=True, names=[LESSON], scheduler=f"local:{jobs}" if dask else None
    )
    seconds = time.perf_counter() - t0
    sampler.stop.set()
    sampler.join()
    statuses = sorted({r.status for r in results})
    return {
        "students": students,
        "class_mb": students * len(raw) / 2**20,
        "parent_mb": status_kib(os.getpid(), "VmHWM") / 1024,
        "worker_mb": max(sampler.workers.values(), default=0) / 1024,
        "seconds": seconds,
        "statuses": statuses,
        "scores": sorted({r.score for r in results}),
    }


def template(work: Path) -> Path:
    """The solution's real Result for lesson 01, graded once (the stand-in hands it out)."""
    from autograder.grader import Settings
    from autograder.grader.notebook.grade import grade_notebook
    from conftest import grading_lesson

    target = work / "result.json"
    r = grade_notebook("template", grading_lesson(LESSON), notebook(0.01), Settings(seed=57), ROOT)
    assert r.status == "ok" and r.score == r.max_score, (r.status, r.detail)
    target.write_text(json.dumps(r.to_dict()))
    return target


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, nargs="+", default=[100, 300, 1000])
    ap.add_argument("--mb", type=float, default=3.2, help="each notebook's image output, MB")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dask", action="store_true", help="on a Dask LocalCluster of --jobs workers")
    ap.add_argument("--real", action="store_true", help="grade for real, not with the stand-in")
    ap.add_argument("--one", nargs=2, metavar=("N", "WORK"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(int(args.one[0]), args.mb, args.jobs, args.dask, args.real, Path(args.one[1]))))
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-class-") as tmp:
        env = {**os.environ, TEMPLATE_ENV: str(template(Path(tmp)))}
        for n in args.students:
            work = Path(tmp) / f"class-{n}"
            cmd = [sys.executable, __file__, "--one", str(n), str(work), "--mb", str(args.mb), "--jobs", str(args.jobs)]
            cmd += ["--dask"] * args.dask + ["--real"] * args.real
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
            if proc.returncode != 0:
                print(proc.stderr[-3000:], file=sys.stderr)
                return 1
            rows.append(json.loads(proc.stdout.strip().splitlines()[-1]))
            subprocess.run(["rm", "-rf", str(work)])
    how = ("Dask LocalCluster" if args.dask else "--jobs") + f" {args.jobs}, "
    how += "real grading" if args.real else "stand-in"
    print(f"lesson {LESSON}, {args.mb} MB notebooks, {how}")
    print(
        f"{'students':>8} {'class MB':>9} {'parent MB':>10} {'KB/student':>11} {'worker MB':>10} "
        f"{'seconds':>8} {'/s':>6}  x parent"
    )
    base = rows[0]["parent_mb"]
    for r in rows:
        rate = r["students"] / r["seconds"]
        print(
            f"{r['students']:>8} {r['class_mb']:>9.0f} {r['parent_mb']:>10.0f} "
            f"{1024 * r['parent_mb'] / r['students']:>11.0f}"
            f" {r['worker_mb']:>10.0f} {r['seconds']:>8.1f} {rate:>6.2f}  {r['parent_mb'] / base:.2f}"
            f"  {'/'.join(r['statuses'])} {r['scores']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
