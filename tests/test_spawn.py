"""Checkers are forks of one warm zygote per worker (autograder/grader/spawn.py): JAX is imported
once per worker, not once per notebook, and nothing of it outlives grading."""

import shutil
import threading
import time

import psutil
import pytest

from autograder.grader import Settings, grade
from conftest import ROOT

pytestmark = pytest.mark.slow
LESSON = "01_number_formats"


def _checkers_below(pid: int) -> set[tuple[int, int, int]]:
    """(checker pid, zygote pid, the zygote's worker pid) for each checker below ``pid`` now: a
    zygote runs spawn.serve and
    its parent does not (a fork keeps its zygote's command line, so a checker's own children, bwrap
    and the student's process, have a parent that looks like one)."""
    found = set()
    for proc in psutil.Process(pid).children(recursive=True):
        try:
            if "autograder.grader.spawn" in " ".join(proc.cmdline()) and "autograder.grader.spawn" not in " ".join(
                proc.parent().cmdline()
            ):
                found |= {(child.pid, proc.pid, proc.ppid()) for child in proc.children()}
        except psutil.Error:
            continue
    return found


def test_checkers_are_forks_of_one_zygote_per_worker_and_nothing_outlives_grading(tmp_path):
    subs = tmp_path / "subs"
    for student in ("ada", "bob", "cy"):
        (subs / student).mkdir(parents=True)
        shutil.copy(ROOT / "examples" / "submissions" / student / f"{LESSON}.ipynb", subs / student)
    seen, done, caps = set(), threading.Event(), {}
    settings = Settings(jobs=1, checker_memory_bytes=3 * 2**30 + 2**20)  # a cap no default equals

    def watch():
        while not done.is_set():
            found = _checkers_below(psutil.Process().pid)
            for pid, _, _ in found:  # the last cap seen: a fork sets its own a moment after it starts
                try:
                    caps[pid] = psutil.Process(pid).rlimit(psutil.RLIMIT_AS)[0]
                except psutil.Error:
                    pass
            seen.update(found)
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        results = grade(subs, tmp_path / "out", settings, quiet=True, names=[LESSON])
    finally:
        done.set()
        watcher.join()
    print({r.student: (r.score, r.status) for r in results}, seen)
    assert {r.student: r.score for r in results} == {"ada": 13, "bob": 0, "cy": 10}  # cy: one wrong answer
    assert all(r.status == "ok" for r in results)
    # each checker holds its own stated address-space cap (the trace bomb's MemoryError is there)
    print("checkers' RLIMIT_AS:", caps)
    assert set(caps.values()) == {settings.checker_memory_bytes}, caps
    # the pool's one worker grades the three notebooks; the parent may have graded the solution
    # canary before them (when no pass of it is remembered for this grader), in a zygote of its own
    zygotes = {z: w for _, z, w in seen}
    workers = {w: {z for z, w2 in zygotes.items() if w2 == w} for w in zygotes.values()}
    assert all(len(z) == 1 for z in workers.values()), f"one zygote per worker: {workers}"
    pool = [z for z, w in zygotes.items() if w != psutil.Process().pid]
    assert len(pool) == 1, f"one worker in the pool (jobs=1), with one zygote: {zygotes}"
    checkers = {c for c, z, _ in seen if z == pool[0]}
    assert len(checkers) >= 3, "one checker a notebook, each a fork of the worker's zygote"
    time.sleep(1)
    left = [
        p for p in psutil.process_iter(["cmdline"]) if "autograder.grader.spawn" in " ".join(p.info["cmdline"] or [])
    ]
    assert not [p for p in left if p.pid in zygotes], "the zygote ends with its worker"
