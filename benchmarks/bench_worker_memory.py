"""How much memory an honest class's grading workers use: the numbers behind ``WORKER_MEMORY_BYTES``
(autograder/grader/core/settings.py), the cap each worker process runs under.

    PYTHONPATH=. python benchmarks/bench_worker_memory.py [--jobs 2] [--dask] [SUBMISSIONS]

Grades SUBMISSIONS (default: the example class, examples/submissions: every lesson) in this
process, ``--jobs N`` (or ``--scheduler local:N`` with ``--dask``), into a scratch OUT, and samples
every 50 ms the /proc status of each process below it: the workers (the local pool's, or the Dask
workers), their zygotes (checker/spawn.py) and the checkers forked from them. Prints, per kind, the
largest VmPeak (peak address space: what RLIMIT_AS bounds), VmHWM (peak resident memory) and the
number of processes seen. VmPeak and VmHWM are high-water marks, so the last sample of a process
before it ends holds its peak up to then; a worker sits idle at the end of the run and is sampled.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.grader import Settings, grade  # noqa: E402

ZYGOTE = "checker.spawn import serve"
KINDS = ("worker", "zygote", "checker")


def status(pid: int) -> dict[str, int]:
    """VmPeak, VmHWM of ``pid`` in bytes ({} where it is gone)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmPeak", "VmHWM"):
                    out[key] = int(value.split()[0]) * 1024
    except (OSError, ValueError):
        return {}
    return out


def kind(proc: psutil.Process, me: int) -> str | None:
    """worker, zygote or checker; None for anything else (bwrap, the student's process, Dask's own)."""
    try:
        cmd = " ".join(proc.cmdline())
        parent = proc.parent()
        if ZYGOTE in cmd:  # a fork of the zygote keeps its command line
            return "checker" if parent is not None and ZYGOTE in " ".join(parent.cmdline()) else "zygote"
        if "checker.main" in cmd or "checker_main" in cmd:  # COURSE_NO_ZYGOTE=1: a fresh interpreter
            return "checker"
        if "multiprocessing" in cmd and "resource_tracker" not in cmd:
            return "worker"
    except psutil.Error:
        return None
    return None


def sample(stop: threading.Event, peaks: dict[int, tuple[str, dict]]) -> None:
    me = psutil.Process()
    while not stop.is_set():
        for proc in me.children(recursive=True):
            k = peaks[proc.pid][0] if proc.pid in peaks else kind(proc, me.pid)
            if k is None:
                continue
            now = status(proc.pid)
            if now:
                peaks[proc.pid] = (k, now)
        time.sleep(0.05)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submissions", nargs="?", default=str(ROOT / "examples" / "submissions"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dask", action="store_true", help="--scheduler local:N instead of --jobs N")
    parser.add_argument("--lessons", default="", help="comma-separated (default: every lesson found)")
    args = parser.parse_args()
    peaks: dict[int, tuple[str, dict]] = {}
    stop = threading.Event()
    sampler = threading.Thread(target=sample, args=(stop, peaks), daemon=True)
    sampler.start()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-worker-memory-") as out:
        scheduler = f"local:{args.jobs}" if args.dask else None
        results = grade(
            Path(args.submissions),
            Path(out),
            Settings(jobs=None if args.dask else args.jobs, seed=1),
            quiet=True,
            names=args.lessons.split(",") if args.lessons else None,
            scheduler=scheduler,
        )
    stop.set()
    sampler.join()
    wall = time.perf_counter() - t0
    how = f"--scheduler local:{args.jobs}" if args.dask else f"--jobs {args.jobs}"
    statuses = sorted({r.status for r in results})
    print(f"{len(results)} rows graded with {how} in {wall:.0f} s (statuses: {', '.join(statuses)})")
    gib = 2**30
    for k in KINDS:
        seen = [v for kk, v in peaks.values() if kk == k]
        if not seen:
            print(f"{k:8}: none seen")
            continue
        peak = max(v.get("VmPeak", 0) for v in seen) / gib
        hwm = max(v.get("VmHWM", 0) for v in seen) / gib
        print(f"{k:8}: {len(seen):3} processes, largest VmPeak {peak:.2f} GiB, largest VmHWM {hwm:.2f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
