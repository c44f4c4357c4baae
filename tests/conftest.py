import ast
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.common.notebooks import cell_grade_id, lessons  # noqa: E402

LESSONS = lessons(ROOT)


def source_nb(lesson: str):
    return nbformat.read(str(ROOT / "solutions" / lesson / f"{lesson}.ipynb"), as_version=4)


def student_nb(lesson: str):
    return nbformat.read(str(ROOT / "notebooks" / lesson / f"{lesson}.ipynb"), as_version=4)


@pytest.fixture(params=LESSONS)
def lesson(request):
    return request.param


# Files whose tests `--dist loadfile` hands out lesson by lesson rather than as one unit: grading
# every known answer of every lesson (tests/test_notebooks.py) is the longest work of `make test`.
BY_LESSON = ("tests/test_notebooks.py",)
_LESSON_ID = re.compile(r"\[(\d\d_[a-z0-9_]+)[\]-]")


def work_unit(nodeid: str) -> str:
    """The work unit of a test under `--dist loadfile`: its file, and in a BY_LESSON file the lesson
    its id names (``tests/test_notebooks.py[05_precision_policy]``), so that a new lesson is one
    more unit, never a split of the lessons over files to keep in step."""
    path = nodeid.split("::", 1)[0]
    found = _LESSON_ID.search(nodeid) if path.endswith(BY_LESSON) else None
    return f"{path}[{found.group(1)}]" if found else path


# The longest work units, longest first (seconds of one worker, `--durations`, 2026-12-07): handed out
# before any other, so that the two workers end together. xdist's own order (units with the most
# tests first) started them last: a fresh clone's make test ran one worker alone for minutes at its
# end (101 % of the two cores). A unit not named here comes after these, in xdist's order.
HEAVIEST_FIRST = (
    "tests/test_notebooks.py[05_precision_policy]",  # every known answer graded: 155 s
    "tests/test_grading.py",  # the class: 145 s
    "tests/test_selfcheck.py",  # every lesson's self-check in a fresh process: 110 s
    "tests/test_notebooks.py[02_matmul_accumulation]",  # 90 s
    "tests/test_notebooks.py[04_xprof_profiling]",  # 85 s
    "tests/test_new_lesson.py",  # 83 s
    "tests/test_grader_attacks.py",  # 75 s
    "tests/test_notebooks.py[06_block_scaled_formats]",  # 70 s
    "tests/test_notebooks.py[03_int8_quantization]",  # 65 s
    "tests/test_hostile_code.py",  # 54 s
    "tests/test_golden_dots.py",  # 48 s
    "tests/test_report.py",  # 45 s
    "tests/test_emulation.py",  # 42 s
)


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile` with ``work_unit``'s units (the Makefile's make test and make compat), the
    longest (HEAVIEST_FIRST) handed out first."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class ByLesson(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node) -> None:
            waiting = [unit for unit in HEAVIEST_FIRST if unit in self.workqueue]
            if waiting:  # the queue is xdist's OrderedDict, popped from its front
                self.workqueue.move_to_end(waiting[0], last=False)
            super()._assign_work_unit(node)

    return ByLesson(config, log)


def assert_runs_clean_under_emulation(executed, lesson, mode):
    """Every graded test and every demo cell passes: a demo cell asserts a fact about whose arithmetic
    it shows by ARITH (the emulated chip's, under emulation) and about the device by BACKEND (issue 60)."""
    from autograder.course.lessoncheck import cell_errors

    errors = cell_errors(executed)
    graded = [e for e in errors if e[1]]
    print(f"{lesson} under {mode} precision: errors {errors}")
    assert graded == [], f"graded tests fail under {mode} matmul precision: {graded}"
    other = [e for e in errors if not e[1]]
    assert other == [], f"demo cells fail under {mode} matmul precision: {other}"


# A native library's error or fatal log line (absl's format: E0000 00:00:… file.cc:170] message),
# which a student reads as a failure: lesson 04 printed six from xprof (issue 58).
NATIVE_ERROR_LOG = re.compile(r"^[EF]\d{4} \d\d:\d\d:\S+\s+\d+ \S+:\d+\] .*$", re.M)


def native_error_logs(executed) -> list[tuple[int, str]]:
    """(cell index, line) of every native error log line a run's cells wrote to stderr."""
    return [
        (i, m.group(0))
        for i, cell in enumerate(executed.cells)
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream" and out.get("name") == "stderr"
        for m in NATIVE_ERROR_LOG.finditer(out.get("text", ""))
    ]


def _random_sources(tree):
    """(call, kind) for each call in ``tree`` that makes or seeds a random source: ``"seeded"`` for
    jax.random.PRNGKey / key and NumPy's default_rng / RandomState / SeedSequence / seed (their
    first argument is the seed), ``"global"`` for draws from NumPy's global state
    (np.random.normal(...)), which no GRADING_SEED reaches."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        dotted = ast.unparse(node.func)
        name = dotted.rsplit(".", 1)[-1]
        if name in ("PRNGKey", "default_rng", "RandomState", "SeedSequence") or dotted.endswith(
            ("random.key", "random.seed")
        ):
            yield node, "seeded"
        elif dotted.startswith(("np.random.", "numpy.random.")):
            yield node, "global"


def _is_literal(expr) -> bool:
    """An expression made of constants only (41, 2 ** 10, -3): the same value in every run."""
    return not any(isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) for n in ast.walk(expr))


def draws_random_data(cell) -> bool:
    """A cell that makes or seeds a random source, or passes a ``seed=`` argument."""
    tree = ast.parse(cell.source)
    return bool(list(_random_sources(tree))) or any(
        kw.arg == "seed" for n in ast.walk(tree) if isinstance(n, ast.Call) for kw in n.keywords
    )


def hidden_test_seed_problems(nb) -> list[str]:
    """What breaks AUTHORING.md's "fresh inputs per run" in ``nb``'s hidden tests: a hidden test that
    draws random data (a PRNG key or a generator, or passes a ``seed=`` argument) must derive it from
    ``GRADING_SEED``; no key or generator may have a literal seed (fixed crafted cases are written
    out, or passed to the exercise as fixed arguments, next to the fresh ones)."""
    problems = []
    for cell in nb.cells:
        gid = cell_grade_id(cell)
        if not (gid.startswith("test_") and gid.endswith("_hidden")):
            continue
        tree = ast.parse(cell.source)
        sources = list(_random_sources(tree))
        seed_args = [kw for n in ast.walk(tree) if isinstance(n, ast.Call) for kw in n.keywords if kw.arg == "seed"]
        for node, kind in sources:
            code = ast.unparse(node)
            if kind == "global":
                problems.append(f"{gid}: draws from NumPy's global random state: {code}")
            elif not node.args and not node.keywords:
                problems.append(f"{gid}: an unseeded random source: {code}")
            elif node.args and _is_literal(node.args[0]):
                problems.append(f"{gid}: a literal seed: {code}")
        if (sources or seed_args) and "GRADING_SEED" not in cell.source:
            problems.append(f"{gid}: draws random data, but not from GRADING_SEED")
    return problems


def grading_lesson(lesson: str, mistakes: bool = True):
    """The lesson as ``grade_notebook`` takes it: the source, the committed release (as release and
    as what students downloaded) and, with ``mistakes``, its known wrong answers."""
    from autograder.grader.notebook.grade import Lesson

    committed = (ROOT / "notebooks" / lesson / f"{lesson}.ipynb").read_text()
    library = (ROOT / "solutions" / lesson / "mistakes.py").read_text() if mistakes else ""
    return Lesson(lesson, nbformat.writes(source_nb(lesson)), committed, committed, library)
