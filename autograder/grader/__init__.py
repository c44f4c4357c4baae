"""The grader, one room per job. How a submission becomes a grade:

intake.py          what a download holds: student folders, Canvas and Moodle names, zips; lesson by exercises
submissions.py     read a submission as a notebook and compare its tests (trusted side only)
studentcode.py     the student's code as text: definitions only, names it may not rebind
attacks.py         code aimed at the grader, named (status tampered; decides no point)
plan.py            what runs where: the student's process gets the definitions, the checker the tests
classrun.py        a class: lessons built once, workers in parallel, the parent records
distribute.py      the same jobs on a Dask cluster's workers (--scheduler), the parent still records
run.py             one notebook: start and watch its checker, then decide
spawn.py           a checker forked from a warm zygote (JAX imported once per worker)
checker.py         the trusted process: setup, references, tests; every point is decided here
names.py           which names the checker binds: the exercises only, never the student's word
events.py          what the checker tells its worker, typed (Ready, Start, Restart, Tested, Diagnosed, Done)
recording.py       a test's calls to the student's functions, kept to replay; when two results are the same
observer.py        what watches a check without deciding it: the one interface, a do-nothing default
plugin.py          diagnosis plugged in: the only reader of a job's opaque diagnosis payload
diagnose.py        which known mistake a failed check's calls behave like, replayed in the checker
guard.py           while a replay runs: an audit hook refuses every write and every read of the student's
replay_cache.py    replays' compilations kept in the checker's memory, so a program compiles once
replay_folder.py   a run's folder of compiled replays its checkers share (bubblewrap only): private, bounded
replayed.py        replays' outcomes a worker keeps for its next checkers: a visible check replays once
candidates.py      authoring only: an author's candidate answer swapped in (lessoncheck), never grading
remote.py          one student process from the checker: frames, calls, callbacks, restarts
faults.py          what can end a call to it (timeout, death, changed inputs, a sandbox that fails)
canary.py          before a class: the grader proves its sandbox and its grading (fail closed)
standins.py        what the checker holds for the student's functions and objects
compile_events.py  what a call compiled (JAX monitoring), re-recorded for the test: lesson 04 evidence
wire.py            the channel: plain data in frames, size-capped, linear-time parsing
student_side.py    the student's process: definitions, then answers calls (untrusted)
sandbox.py         the student's process in fresh namespaces (bubblewrap), caps, a fallback
cgroup.py          the student's processes as one cgroup: pids, memory, cpu caps; freeze; kill
workdir.py         the student's work folder on the host: files, bytes, depth measured; removed
landlock.py        the second layer inside the sandbox
verdict.py         points_of (how a cell becomes points) and status (which status wins)
model.py           the result model: Status, Outcome; the records TestRecord, TestResult, Result
gradebook.py       nbgrader's gradebook and the journal, the class an OUT holds across runs (parent only)
overrides.py       an instructor's score for one row, with its reason: kept across regrades until removed
outputs.py         grades.csv, tests.csv, feedback pages, the terminal table
studentview.py     what a student may read of a row, decided once: feedback pages, Gradescope, check
settings.py        every limit and default, declared once; a notebook's time budget
"""

import importlib

# The package's names, each from its room, imported when first used: importing one room (wire.py
# in the student's process, model.py in the report) never pulls in the whole grader.
_EXPORTS = {
    "grade": "classrun",
    "Result": "model",
    "TestResult": "model",
    "Status": "model",
    "Outcome": "model",
    "print_table": "outputs",
    "Limits": "settings",
    "Settings": "settings",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
