"""Every limit and default of grading, declared once: the command line, the grader and the sandbox
all read them from here (``python -m autograder grade --help`` shows the same numbers)."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from dataclasses import dataclass, field

GiB = 2**30

# -- The grader's internal limits and intervals: not options, each explained here and used from here.
# (wire.py's frame caps, MAX_FRAME, MAX_DEPTH and MAX_ITEMS, and student_side.py's MAX_COMPILES stay in
# those files: they run alone inside the sandbox, where this module is not importable.)
CHECKER_GRACE = 30.0  # seconds notebook/watch.py's watchdog allows a checker beyond a cell's own limit
SETUP_CELLS = 2  # cells' time watch.py's watchdog allows a checker's setup and the student's definitions
VARIANT_CELLS = 4  # cells' time it allows one authoring variant (lessoncheck: definitions, tests, restore)
CANARY_MIN_SECONDS = 60.0  # the canary's cell and notebook time at least, whatever --timeout says
ALARM_GRACE = 5.0  # seconds past the cell's budget before the checker's own timer stops its code
# (the student's calls time out at the budget itself; the watchdog waits CHECKER_GRACE more)
INTERRUPT_POLL = 0.5  # seconds between a class run's looks for a Ctrl-C its handler noted (classroom/pool.py)
WATCH_SECONDS = 0.5  # how often a running student's work folder is measured (remote.py)
PROBE_SECONDS = 20.0  # the emulation's probe, its own time (checker/integrity.py: about 0.05 s on an idle core)
# after a failed check, the question which of the chip's choices the student's process met (checker/choices.py):
# with the probe before it, within CHECKER_GRACE, so that the test's record (and a tampering found) is sent
ASK_SECONDS = 5.0
RULE_FINDINGS = 20  # a cell's broken rules kept (notebook/answer_rules.py; the row's detail shows five)
# -- Reading a submission (notebook/submissions.py, core/studentcode.py): each bound is checked BEFORE
# the step it protects, and a notebook past one is its own row's `error` ("unreadable notebook: ..."),
# never the run's. docs/GRADING.md ("Bounds on what reads a submission") states each stage's cost.
MAX_NOTEBOOK_BYTES = 50 * 2**20  # a larger submission is unreadable, never parsed
# the JSON's nesting of arrays and objects, counted on its bytes before json.loads (an honest
# notebook nests 6 deep, widget or plot outputs a few more): what walks the notebook after the parse
# never meets a recursion limit
MAX_JSON_DEPTH = 64
# values and keys of the JSON, counted on its bytes (its commas, colons, brackets and braces) before
# json.loads: the parse builds at most this many objects (an honest lesson holds about 1,500, an
# executed one with its outputs tens of thousands), at most about 90 bytes each (a chain of one-item
# arrays), where a byte count alone allows 45 bytes of objects a byte of JSON
MAX_JSON_ITEMS = 1_000_000
MAX_CELLS = 10_000  # cells of a notebook (a lesson has about 50)
# outputs of one code cell and of the whole notebook: the grader never reads them (a schema
# validator on a submission spent 45 KB and 0.36 ms on each malformed one: issue 50); an honest
# run of these lessons makes a few per cell
MAX_CELL_OUTPUTS = 1_000
MAX_OUTPUTS = 10_000
# characters of one code cell's source: no answer comes near it (the longest honest answer cell of
# the course is about 6,000), and Python's parser takes 270 to 640 bytes of memory per character,
# so one cell's parse stays under about 170 MB; a markdown cell (an image pasted inline) is not parsed
MAX_CELL_SOURCE_CHARS = 256 * 2**10
MAX_CODE_CHARS = 512 * 2**10  # characters of all the code cells together (a lesson's are about 40,000)
# nesting of a cell's syntax tree (an honest cell: under 20): deeper code does not parse, so the
# grader's own walks of the tree (ast.unparse recurses) stay far from Python's recursion limit
MAX_CODE_DEPTH = 100
# the student's kept code (what the plan sends the checker and the student's process: the cells'
# definitions written back by ast.unparse), as the wire carries it (JSON with \\u escapes: an emoji
# is 12 bytes), all cells together: a lesson's is about 20 KB; the frames' cap is 16 MiB (wire.py),
# and a frame also carries the lesson's own code and the emulation. A cell past it is that cell's
# note (the student's row), never a frame the wire refuses (issue 57)
MAX_KEPT_CODE_BYTES = 4 * 2**20
# a cell's string constants, as Python reads them, at most this many times the cell's source (plus
# 1 Ki): a self-documenting f-string (f"{x=}") holds its expression's text again, so nested ones
# repeat the text once per level (48 levels of a 160 KB cell: 23 M characters); an honest cell's
# constants are at most its source's size
MAX_CONSTANT_GROWTH = 2
# IPython's syntax (%magics, !commands, ?help) is turned into Python by IPython's transformer, which
# tokenizes the whole cell again for each one it turns and keeps a copy of a line for each of the
# line's tokens (a 32,000-character line: 1 GB). It reads a cell only where the cell is at most
# IPYTHON_CELL_CHARS, no line is longer than IPYTHON_LINE_CHARS and at most IPYTHON_ESCAPES lines
# may hold IPython syntax; any other cell is read as plain Python (and a magic in it does not parse)
IPYTHON_CELL_CHARS = 16 * 2**10
IPYTHON_LINE_CHARS = 1_000
IPYTHON_ESCAPES = 8
# files or cells one note names one by one (a student's duplicate notebooks, intake.py; cells that do
# not parse, plan.py); the rest are counted: a row's notes stay short whatever was submitted
NAMED_IN_A_NOTE = 10
# notebooks of one student read, uncompressed, together: the rest are named, not read; only notebooks
# count, each student against their own (one uploader's members never decide a classmate's; intake.py)
MAX_STUDENT_BYTES = 1 * GiB
# notebooks of one student read to find their lessons (4 per lesson): the rest are named, not parsed,
# so one student's thousands of uploads cannot hold up the class (intake.py)
MAX_NOTEBOOKS_PER_STUDENT = 24
# a submitted file's or folder's name, in UTF-8 bytes, as every common file system allows (intake.py): a
# longer one (a zip may hold it: 90 CJK characters are 270 bytes) no LMS wrote, and no feedback folder could hold
MAX_NAME_BYTES = 255
# a MemoryError is the address-space cap's only where the process's peak address space came this
# close to the cap (share of it; sandbox/evidence.py): a student's own `raise MemoryError` is not
NEAR_MEMORY_CAP = 1 / 8
MAX_FOLDER_DEPTH = 64  # deeper folders in the work folder: a limit reached, not a place to hide files
MAX_COMPILES = 256  # compile events one call may report (compile_events.py)
READY_NAMES = 10_000  # entries of a student process's ready message read; more are named as forged (remote.py)
FORGED_NAMES = 20  # forged names a row's record keeps, each cut to 60 characters (remote.py)
STUDENT_LOG_LINES = 200  # lines of the student process's stderr the checker keeps (remote.py)
LOG_TAIL_LINES = 50  # of those, sent back with the checker's last event (checker/main.py)
SHOWN_OUTPUT_CHARS = 2000  # of a failed visible check's printed lines on its feedback page (verdict.py)
# -- A class run's worker processes (classroom/pool.py, classroom/distribute.py).
# Each worker's own memory cap: address space (RLIMIT_AS, the soft limit; a checker its zygote forks
# sets its own, checker_memory_bytes, and the student's process its own, Limits.memory_bytes). An honest
# worker never comes near it. Measured grading the example class (every lesson, 24 rows, diagnosis on;
# benchmarks/bench_worker_memory.py): --jobs 2 workers VmPeak 0.18 GiB (VmHWM 0.07 GiB), their zygotes,
# which inherit the cap, VmPeak 0.41 GiB (VmHWM 0.18 GiB); --scheduler local:2 workers VmPeak 0.49 GiB
# (VmHWM 0.10 GiB); an honest lesson 01 notebook of 44 MiB (a large figure in its outputs; submissions
# stop at MAX_NOTEBOOK_BYTES) VmPeak 0.35 GiB: 2 GiB is 4x the largest. A notebook that makes its worker
# allocate past it is a grader fault, that notebook's alone (classroom/pool.py).
WORKER_MEMORY_BYTES = 2 * GiB
WORKER_START_FAILURES = 3  # workers in a row that end before taking a notebook: the pool gives up (pool.py)
WORKER_STOP_GRACE = 10.0  # seconds a stopped or interrupted worker has to end before it is killed
# for the tests only: a worker about to grade the student this variable of the grader's environment
# names kills itself (SIGKILL); no student's process sees the grader's environment (spawn.checker_env)
WORKER_DIES_ENV = "COURSE_TEST_WORKER_DIES"
DASK_CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler before giving up (distribute.py)
DASK_ALLOWED_FAILURES = 2  # local:N: a notebook whose worker died is run again at most twice
# freezing a student's processes by SIGSTOP (no cgroup v2 freezer): at most this long for every
# thread to have stopped before the checker's code goes on (cgroup.stopped)
FREEZE_WAIT = 1.0
NO_ZYGOTE_ENV = "COURSE_NO_ZYGOTE"  # =1: every checker a fresh interpreter, no zygote (spawn.py; to compare)
NO_COMPILE_MEMO_ENV = "COURSE_NO_COMPILE_MEMO"  # =1: no student process keeps its compilations (to compare)
# The sandbox's own (sandbox/launch.py, launcher.py, owner.py, workfs.py, reaper.py):
# - the student's uid and gid: bubblewrap maps the student to it, and under the fallback a grader
#   running as root switches the student's process to it, without any capability, before its code
UNPRIVILEGED = 65534
# - the work folder is a tmpfs of its own where the checker can make one (workfs.py): Limits.work_bytes
#   and Limits.work_files plus this slack, so that the watch (WATCH_SECONDS) still sees the limit
#   passed and names it, while a write past the slack fails at once (ENOSPC) in the student's process
WORK_FS_SLACK_BYTES = 16 * 2**20
WORK_FS_SLACK_FILES = 64
# - set by a worker whose probe found that a checker can have a mount namespace of its own (spawn.py)
PRIVATE_MOUNTS_ENV = "COURSE_PRIVATE_MOUNTS"
# - a checker ends its student's processes, its descendants, in at most this many rounds of SIGKILL
#   (a fork-and-exit chain moves on between two rounds; reaper.py)
END_ROUNDS = 200
EMULATION_MODES = ("tpu", "gpu", "none")
# a Gradescope autograder's notebook time (python -m autograder gradescope): under Gradescope's
# default 10-minute timeout with time left for start-up, so the platform never kills a submission
# before the grader has written its results
GRADESCOPE_NOTEBOOK_TIMEOUT = 420.0
# Diagnosis (diagnose.py): a failed check's calls replayed on the function's known wrong answers.
# Its budgets are CPU seconds of the checker: a busy machine stretches the wall clock, not them, so
# it names the same mistakes; the wall clock may run DIAGNOSIS_WALL_FACTOR times them at most.
DIAGNOSIS_SECONDS = 20.0  # at most this per failed test, out of the test's own remaining time
DIAGNOSIS_CALL_SECONDS = 5.0  # one wrong answer (or the reference) on one call: longer does not match
DIAGNOSIS_WALL_FACTOR = 4.0
MAX_RULE_CHARS = 200  # a hidden test's rule (core/rules.py) is one short sentence
DIAGNOSIS_MARGIN = 3.0  # seconds of the test's time diagnosis leaves unused (it never ends a test)
# the checker's address space may grow this much while one answer replays one call: a student's
# small results passed on as another call's arguments (lesson 06: mx_quantize's scales into
# mx_dequantize) cannot make a reference broadcast gigabytes in the trusted process
DIAGNOSIS_MEMORY_BYTES = 512 * 2**20
DIAGNOSIS_RTOL = 1e-5  # floats are "the same" within |a - b| <= ATOL + RTOL * max(|a|, |b|) (compare.same)
DIAGNOSIS_ATOL = 1e-12
# the checker's own compilations kept in its memory where diagnosis is on (replay_cache.py): replays
# compile the same kernels as the reference and one another
COMPILE_CACHE_BYTES = 64 * 2**20
# the student's process keeps its own compilations in its memory too (sandbox/compile_memo.py), for a
# lesson whose tests do not watch compilations (checker/compile_events.memo_bytes)
STUDENT_COMPILE_MEMO_BYTES = 64 * 2**20
# and across a class's checkers on one machine where the student's process has namespaces of its
# own: a folder of compiled replays that its workers share (replay_cache.Folder), the oldest out first
COMPILED_FOLDER_BYTES = 512 * 2**20
# replays' outcomes kept across one worker's checkers (replayed.py): one outcome at most this many
# bytes of wire JSON, one lesson's at most that many (the oldest out first); each job of
# the lesson carries them to its checker
SHARED_OUTCOME_BYTES = 256 * 2**10
SHARED_OUTCOMES_BYTES = 4 * 2**20
SHARED_OUTCOME_LESSONS = 8  # lessons (versions) a worker keeps outcomes for; a long-lived Dask worker's oldest go
MAX_RECORDED_CALLS = 64  # outermost calls kept per function and test; more: that function is not diagnosed
MAX_RECORDED_BYTES = 64 * 2**20  # arguments and results kept per test; more: not diagnosed


@dataclass(frozen=True)
class Limits:
    """What one student process may use."""

    memory_bytes: int = 4 * GiB  # address space (RLIMIT_AS): a huge allocation is a MemoryError
    file_bytes: int = 1 * GiB  # largest file it may write (RLIMIT_FSIZE)
    open_files: int = 1024  # open file descriptors (RLIMIT_NOFILE)
    processes: int = 256  # processes and threads (pids cgroup; RLIMIT_NPROC when not root)
    group_memory_bytes: int = 4 * GiB  # memory all its processes hold together (memory cgroup, no swap)
    cpus: float = 0.0  # cores all its processes may use together (cpu cgroup); 0: no cap (the default:
    # a 1-core cap throttled JAX's threads and ran a loaded grader's cells past their limits)
    tmpfs_bytes: int = 256 * 2**20  # its private /tmp and /dev/shm, each
    work_files: int = 20_000  # files it may leave in its work folder
    work_bytes: int = 2 * GiB  # bytes it may leave there (measured twice a second while it runs)


@dataclass(frozen=True)
class Settings:
    """How a class is graded."""

    cell_timeout: float = 120.0  # seconds for one test cell, the student's calls included
    notebook_timeout: float = 900.0  # seconds for a whole notebook: every cell, restart and replay
    max_restarts: int = 3  # student processes restarted after a death or a timeout
    emulation: str = "tpu"  # matmul precision graded under: tpu | gpu | none
    jobs: int | None = None  # notebooks graded at once (None: CPU cores)
    seed: int | None = None  # recorded in run.json; None: the OUT's first run's (run.json), else drawn
    max_output_chars: int = 20_000  # of a test's printed output kept for its feedback
    checker_memory_bytes: int = 4 * GiB  # address space of each notebook's trusted checker (RLIMIT_AS;
    # it holds JAX and the tests' references: about 1.7 GB measured on lesson 04): a test that parses
    # a student's bomb gets a MemoryError there, never the host's memory
    diagnose: bool = True  # name the known mistake a failed check's calls behave like (diagnose.py)
    rules: bool = True  # show the rule of the contract a wrong hidden check broke (core/rules.py)
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self):
        if self.emulation not in EMULATION_MODES:
            raise ValueError(f"emulation {self.emulation!r}: one of {', '.join(EMULATION_MODES)}")

    # The one way settings become plain data (a worker's Job, a checker's CheckerJob, a Gradescope
    # zip's config, run.json, the regrade fingerprint) and the one way back: a missing key takes
    # the field's one default above, an unknown key is an error, never silently dropped.
    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Settings":
        data = dict(data)
        limits = data.pop("limits", {})
        for what, names, given in ((cls, data, data), (Limits, limits, limits)):
            unknown = set(names) - {f.name for f in dataclasses.fields(what)}
            if unknown or type(given) is not dict:
                raise ValueError(f"{what.__name__}: unknown settings {sorted(unknown) or given!r}")
        return cls(**data, limits=Limits(**limits))


class Budget:
    """Monotonic deadlines: the notebook's, and the current cell's."""

    def __init__(self, notebook_seconds: float, cell_seconds: float):
        self.notebook_deadline = time.monotonic() + notebook_seconds
        self.cell_seconds = cell_seconds
        self.cell_deadline = self.notebook_deadline

    def start_cell(self) -> None:
        self.cell_deadline = min(self.notebook_deadline, time.monotonic() + self.cell_seconds)

    def left(self) -> float:
        return min(self.cell_deadline, self.notebook_deadline) - time.monotonic()

    @contextlib.contextmanager
    def restart(self):
        """A restart of the student's process has a cell's time of its own (the notebook's time
        still bounds it), and the cell's clock resumes where it stopped: on a busy machine a
        restart (a fresh interpreter, JAX imported, definitions replayed) can take most of a
        cell, and that is not the test's time. ``max_restarts`` bounds how often this happens."""
        paused = self.cell_deadline - time.monotonic()
        self.cell_deadline = min(self.notebook_deadline, time.monotonic() + self.cell_seconds)
        try:
            yield
        finally:
            self.cell_deadline = min(self.notebook_deadline, time.monotonic() + max(paused, 0.0))
