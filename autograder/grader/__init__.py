"""The grader, in six layers, one folder each; a module imports only its own layer and those above it
in this list (tests/test_project.py checks every import, module by module and package by package).
How a cell becomes points: notebook/plan.py puts the lesson's test cell in the checker's job,
notebook/watch.py starts checker/main.py, which runs it against stand-ins for the student's
functions and sends a typed record (core/events.py), and notebook/verdict.py decides its points.

core/        what every layer shares
  model.py          the result model: Status, Outcome, CellState, ProcessEvent; the records TestRecord, Result
  settings.py       every limit and default, declared once; Settings to and from plain data; a time budget
  events.py         what the checker tells its worker, typed (Ready, Start, Restart, Tested, Diagnosed, Done)
  faults.py         what can end a call to it (timeout, death, changed inputs, a sandbox that fails)
  wire.py           the channel: plain data in frames, size-capped, linear-time parsing
  studentcode.py    the student's code as text: definitions only, names it may not rebind
  observer.py       what watches a check without deciding it: the one interface, a do-nothing default
  rules.py          a hidden test's rules (its `# rule:` comments) and which one a failed check broke
  readings.py       the chip's choices the emulation met: a failed check graded again the other way
sandbox/     the student's process and its confinement
  launch.py         the student's process in fresh namespaces (bubblewrap), caps, a fallback
  launcher.py       its first program: caps, cgroup, session; under the fallback as root, uid 65534
  installation.py   the Python installation it runs: real folders, site-packages, never the repository
  owner.py          under the fallback as root: what uid 65534 must reach, reachable, and nothing else
  cgroup.py         the student's processes as one cgroup: pids, memory, cpu caps; freeze; kill
  processes.py      the student's processes from its checker: which, frozen, tended, ended
  reaper.py         every process below this one, found and ended (a checker is their subreaper)
  landlock.py       the second layer inside the sandbox
  workdir.py        the student's work folder on the host: files, bytes, depth measured; removed
  workfs.py         the work folder as a size-capped file system of its own, where one can be made
  evidence.py       what the host sees of a per-process cap (peak address space, a file at the cap)
  student_side.py   the student's process: definitions, then answers calls (untrusted)
  audit_rules.py    an audit hook in the student's process: no unpickling, no run-time source that runs more code
  compile_memo.py   the student's process keeps its compilations in memory: a program compiles once
  guard.py          an audit hook: the checker writes only in its job folder; a replay reads nothing of the student's
checker/     the trusted process, where every point is decided
  main.py           the checker: setup, references, tests, one typed event per test
  spawn.py          a checker forked from a warm zygote (JAX imported once per worker)
  remote.py         one student process from the checker: frames, calls, callbacks, restarts
  student_object.py a function the student's process lent the checker: it can only be called
  integrity.py      the emulation in the student's process: names no answer reaches, a probe of its bits
  choices.py        after a failed check: which of the chip's choices the student's process met
  standins.py       what the checker holds for the student's functions and objects
  names.py          which names the checker binds: the exercises only, never the student's word
  compile_events.py what a call compiled (JAX monitoring), re-recorded for the test: lesson 04 evidence
  candidates.py     authoring only: an author's candidate answer swapped in (lessoncheck), never grading
  failure.py        where a test cell's exception came from, read from the checker's own traceback
diagnosis/   a plug-in (core/observer.py finds it by name): which known mistake a failed check behaves like
  plugin.py         diagnosis plugged in: the only reader of a job's opaque diagnosis payload
  diagnose.py       which known mistake a failed check's calls behave like, replayed in the checker
  recording.py      a test's calls to the student's functions, kept to replay
  compare.py        when two results are the same, seen as the lesson declares (timings, numbers, labels)
  replayed.py       replays' outcomes a worker keeps for its next checkers: a visible check replays once
  replay_cache.py   replays' compilations kept in the checker's memory, so a program compiles once
  replay_folder.py  a run's folder of compiled replays its checkers share (bubblewrap only): private, bounded
notebook/    one notebook
  submissions.py    read a submission as a notebook and compare its tests (trusted side only)
  attacks.py        code aimed at the grader, named (status tampered; decides no point)
  answer_rules.py   what an answer may name, read statically: a broken rule is tampered (issue 65)
  plan.py           what runs where: the student's process gets the definitions, the checker the tests
  watch.py          run its checker and watch it: records, restarts, the notebook's time
  grade.py          one notebook, plain data in, a Result out: plan, watch, decide
  verdict.py        points_of (how a cell becomes points) and status (which status wins)
classroom/   a class
  intake.py         what a download holds: student folders, Canvas and Moodle names, zips; lesson by exercises
  reading.py        its files read once, capped, no link followed, never waiting; read again only as the same bytes
  classrun.py       a class: lessons built once, workers in parallel, the parent records
  pool.py           the local worker pool (--jobs N): outcomes recorded as they arrive, Ctrl-C between waits
  feed.py           the jobs still to hand out, made one at a time as workers take them (the class is streamed)
  distribute.py     the same jobs on a Dask cluster's workers (--scheduler), the parent still records
  canary.py         before a class: the grader proves its sandbox and its grading (fail closed)
  gradebook.py      nbgrader's gradebook and the journal, the class an OUT holds across runs (parent only)
  overrides.py      an instructor's score for one row, with its reason: kept across regrades until removed
  outputs.py        grades.csv, tests.csv, feedback pages, the terminal table
  studentview.py    what a student may read of a row, decided once: feedback pages, Gradescope, check
  selfcheck.py      a learner's self-check (python -m autograder check): one notebook, as its student reads it
"""

import importlib

# The package's names, each from its room, imported when first used: importing one room (core/wire.py
# in the student's process, core/model.py in the report) never pulls in the whole grader.
_EXPORTS = {
    "grade": "classroom.classrun",
    "Result": "core.model",
    "TestResult": "core.model",
    "Status": "core.model",
    "Outcome": "core.model",
    "print_table": "classroom.outputs",
    "Limits": "core.settings",
    "Settings": "core.settings",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
