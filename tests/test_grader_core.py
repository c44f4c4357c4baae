"""The grader's pure core, table-driven and fast (no kernels, no processes): `make test-fast`.

wire (what may cross between the student's process and the checker), studentcode (what of a
cell runs), plan (what runs where), verdict (points and status), outputs (what people read),
submissions (what is found and refused), settings (one source for every default)."""

import json
import math
import os
from pathlib import Path

import ml_dtypes
import nbformat
import numpy as np
import pytest

from autograder.grader.core import wire
from autograder.grader.core.model import Happened, ProcessEvent, Result, TestRecord, TestResult
from autograder.grader.classroom.outputs import feedback_html, write_outputs
from autograder.grader.notebook.plan import TestStep, build_plan, contract_names, docstring, run_order
from autograder.grader.core.faults import StudentRaised
from autograder.grader.checker.compile_events import MAX_COMPILES, compile_events
from autograder.grader.core.faults import rebuilt_exception
from autograder.grader.core.settings import Limits, Settings
from autograder.grader.notebook.attacks import static_attacks
from autograder.grader.core.studentcode import Protected, definitions_only, parse_error
from autograder.grader.classroom.intake import take
from autograder.grader.notebook.submissions import parse_notebook, tampering
from autograder.common.textsafe import printable
from autograder.grader.notebook.verdict import HIDDEN_FAILED, PRECEDENCE, decide, points_of, status


def roundtrip(value, **decoder):
    frame = wire.dumps({"v": wire.Encoder()(value)})
    n = wire.frame_length(frame[: wire.HEADER_SIZE])
    return wire.Decoder(**decoder)(wire.parse(frame[wire.HEADER_SIZE : wire.HEADER_SIZE + n])["v"])


# ------------------------------------------------------------------------------------------ wire
PLAIN = [
    None,
    True,
    False,
    0,
    -7,
    2**80,
    1.5,
    -0.0,
    "text \x1b[31m",
    [1, [2.5, "x"]],
    (1, (2,)),
    {"a": 1, 2: (3, 4), (5, 6): None},
    [],
    (),
    {},
]


@pytest.mark.parametrize("value", PLAIN, ids=repr)
def test_plain_values_cross_unchanged_with_their_types(value):
    got = roundtrip(value)
    assert got == value and type(got) is type(value)
    if isinstance(value, float):
        assert math.copysign(1, got) == math.copysign(1, value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_floats_cross(value):
    got = roundtrip(value)
    assert type(got) is float and (math.isnan(got) if math.isnan(value) else got == value)


@pytest.mark.parametrize(
    "dtype",
    [
        "bool",
        "int8",
        "uint8",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "bfloat16",
        "float8_e4m3fn",
        "float8_e5m2",
    ],
)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0, 4)])
def test_arrays_cross_with_dtype_shape_and_bits(dtype, shape):
    dt = wire.dtype_of(dtype)
    x = (np.arange(math.prod(shape)) % 5 - 2).astype(np.float32).reshape(shape).astype(dt)
    got = roundtrip(x)
    assert type(got) is np.ndarray and got.dtype == dt and got.shape == shape
    assert got.tobytes() == x.tobytes()


def test_jax_arrays_stay_jax_arrays_and_numpy_scalars_stay_scalars():
    import jax
    import jax.numpy as jnp

    got = roundtrip(jnp.arange(4, dtype=jnp.bfloat16))
    assert isinstance(got, jax.Array) and got.dtype == jnp.bfloat16
    assert type(roundtrip(jnp.arange(3), jax_arrays=False)) is np.ndarray
    for s in (np.float32(1.5), np.int8(-3), ml_dtypes.bfloat16(2.0), np.float64(0.1)):
        got = roundtrip(s)
        assert type(got) is type(s) and got == s


@pytest.mark.parametrize(
    "value,expected",
    [
        (np.dtype("float16"), np.dtype("float16")),
        (np.float16, np.float16),
        (ml_dtypes.bfloat16, ml_dtypes.bfloat16),
        (np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e4m3fn)),
    ],
)
def test_dtypes_cross_in_the_form_given(value, expected):
    assert roundtrip(value) is expected or roundtrip(value) == expected


def test_jnp_scalar_types_and_paths_cross():
    import jax.numpy as jnp

    assert roundtrip(jnp.bfloat16) is jnp.bfloat16
    assert roundtrip(Path("/tmp/x")) == Path("/tmp/x") and isinstance(roundtrip(Path("a")), Path)


class EvilFloat(float):
    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


class EvilList(list):
    pass


class EvilDict(dict):
    pass


@pytest.mark.parametrize(
    "value",
    [
        EvilFloat(1.0),
        EvilList([1]),
        EvilDict(a=1),
        np.array([object()]),
        np.array(["a"]),
        lambda: 0,
        object(),
        {1, 2},
        b"bytes",
        [EvilFloat(2.0)],
        {"k": EvilFloat(3.0)},
    ],
    ids=lambda v: type(v).__name__,
)
def test_anything_but_plain_data_is_refused(value):
    with pytest.raises(wire.WireError):
        wire.Encoder()(value)


@pytest.mark.parametrize(
    "payload",
    [
        {"$": "nd", "dtype": "object", "shape": [1], "b64": "AAAA"},
        {"$": "nd", "dtype": "float32", "shape": [2], "b64": "AAAA"},  # 4 bytes for 8
        {"$": "nd", "dtype": "float32", "shape": [-1], "b64": ""},
        {"$": "nd", "dtype": "float32", "shape": [1], "b64": "!!!!"},
        {"$": "float", "v": "1e999"},
        {"$": "tuple", "v": "abc"},
        {"$": "dict", "v": [[[1], 2]]},
        {"$": "handle", "id": 1},
        {"$": "lent", "id": 1},
        {"$": "exec", "v": "os.system('x')"},
        {"no tag": 1},
        {"$": "scalar", "dtype": "float32", "b64": "AA=="},
        {"$": "dtype", "name": "object", "form": "dtype"},
        {"$": "path", "v": 5},
    ],
)
def test_malformed_or_unknown_data_is_refused(payload):
    with pytest.raises(wire.WireError):
        wire.Decoder()(payload)


def test_deep_nesting_and_oversized_frames_are_refused_before_reading():
    deep = []
    for _ in range(wire.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(wire.WireError):
        wire.Encoder()(deep)
    with pytest.raises(wire.WireError):
        wire.Decoder()(json.loads(json.dumps(deep)))
    with pytest.raises(wire.WireError):
        wire.frame_length((wire.MAX_FRAME + 1).to_bytes(8, "big"))
    with pytest.raises(wire.WireError):
        wire.parse(b"\xff\xfe not json")
    with pytest.raises(wire.WireError):
        wire.parse(b"[1, 2]")


def test_handles_decode_only_through_their_owner():
    lent = {3: "the checker's object"}
    decoder = wire.Decoder(handles={"handle": lent.__getitem__})
    assert decoder({"$": "handle", "id": 3}) == "the checker's object"
    with pytest.raises(wire.WireError):
        decoder({"$": "lent", "id": 3})


def test_reported_compilations_are_plain_bounded_data():
    """A call's compile events (remote.compile_events) keep [str, finite float >= 0] pairs only,
    names cut to 200 characters, at most MAX_COMPILES: anything else the student's process sends
    there is dropped."""
    good = [["jit(step)", 0.02], ["x" * 500, 1.5]]
    bad = [
        ["jit(f)", -1.0],
        ["jit(f)", float("nan")],
        ["jit(f)", float("inf")],
        ["jit(f)", 3],
        [1, 0.1],
        ["a", 0.1, "extra"],
        "jit(f)",
        None,
    ]
    assert compile_events(good + bad) == [("jit(step)", 0.02), ("x" * 200, 1.5)]
    assert compile_events({"$": "dict"}) == compile_events(None) == compile_events("x") == []
    assert len(compile_events([["f", 0.001]] * (MAX_COMPILES + 10))) == MAX_COMPILES


def test_a_rebuilt_oserror_keeps_its_errno_and_only_its_errno_names_a_cap():
    """RLIMIT_FSIZE is named from EFBIG's number (checker/main.py), never from the words "File too large"."""
    import errno

    assert rebuilt_exception({"type": "OSError", "message": "x", "errno": errno.EFBIG}).errno == errno.EFBIG
    assert rebuilt_exception({"type": "OSError", "message": "File too large"}).errno is None
    assert rebuilt_exception({"type": "OSError", "message": "x", "errno": "27"}).errno is None


def test_rebuilt_exceptions_are_the_checkers_own():
    assert type(rebuilt_exception({"type": "FileNotFoundError", "message": "/x"})) is FileNotFoundError
    assert type(rebuilt_exception({"type": "AssertionError", "message": "m"})) is AssertionError
    for name in ("MyError", "KeyboardInterrupt", "SystemExit", "BaseException", "GeneratorExit", "__import__"):
        exc = rebuilt_exception({"type": name, "message": "m"})
        assert type(exc) is StudentRaised, name


# ------------------------------------------------------------------------------- student code
DEFINITIONS = [
    ("def f(x):\n    return x\n", "def f(x):\n    return x", 0),
    ("import numpy as np\nX = 3\nY = np.float32(2)\n", "import numpy as np\nX = 3\nY = np.float32(2)", 0),
    ("print('hi')\nf(3)\n", "", 2),
    ("x = f(1)\n", "", 1),  # a call of a student name
    ("def g(a=h()):\n    pass\n", "", 1),  # runs h at definition time
    ("@my_decorator\ndef g():\n    pass\n", "@my_decorator\ndef g():\n    pass", 0),
    ("@make()\ndef g():\n    pass\n", "", 1),
    ("class A(Base):\n    x = 1\n    run()\n", "class A(Base):\n    x = 1", 0),
    ("class A(metaclass=M):\n    pass\n", "class A(metaclass=M):\n    pass", 0),
    ("for i in range(3):\n    pass\n", "", 1),
    (
        "try:\n    import ml_dtypes\nexcept ImportError:\n    pass\n",
        "try:\n    import ml_dtypes\nexcept ImportError:\n    pass",
        0,
    ),
    ("obj.attr = 3\n", "", 1),
    ("x[0] = 1\n", "", 1),
    ("_ready = Precision.setup()\n", "_ready = Precision.setup()", 0),
    ("%timeit f()\n", "", 1),
]


@pytest.mark.parametrize("source,kept,dropped", DEFINITIONS)
def test_definitions_only(source, kept, dropped):
    code, n, _ = definitions_only(source)
    assert (code, n) == (kept, dropped)


def test_instructor_cells_keep_no_calls_and_protected_names_are_refused():
    assert definitions_only("Y = np.float32(2)\nZ = 3\n", calls=False)[:2] == ("Z = 3", 1)
    protected = Protected(["import numpy as np\ndef exact_matmul(a, b):\n    return a @ b\n"])
    code, _, refused = definitions_only(
        "def exact_matmul(a, b):\n    return 0\ndef isinstance(*a):\n    return True\n"
        "import numpy as np\nimport os as np2\n",
        protected,
    )
    assert set(refused) == {"exact_matmul", "isinstance"}
    assert code == "import numpy as np\nimport os as np2"


ATTACKS = [
    ("get_ipython().input_transformers_cleanup.append(f)", "uses .input_transformers_cleanup"),
    ("import builtins\nbuiltins.AssertionError = E", "imports builtins"),
    ("import sys\nsys.excepthook = f", "assigns sys.excepthook"),
    ("np.testing.assert_allclose = f", "assigns np.testing.assert_allclose"),
    ("def f():\n    return sys._getframe(1).f_globals", "uses ._getframe"),
    ("import ctypes", "imports ctypes"),
    ("import inspect", "imports inspect"),
    ("def f():\n    g = globals()", "calls globals()"),
    ("exec('x')", "calls exec()"),
    ("x = (lambda: 0).__globals__", "uses .__globals__"),
    ("import gc", "imports gc"),
    ("from numpy import testing", "imports numpy.testing"),
    ("import signal", "imports signal"),
    ("import subprocess", "imports subprocess"),
    # undoing the TPU emulation in the student's process (a review's attack, 2026-12-06): its hook's
    # closure holds XLA's own lowering
    (
        "from jax._src.interpreters import mlir as _m\nfor c in getattr(_m.lower_jaxpr_to_module, '__clo' 'sure__'):\n"
        "    _m.lower_jaxpr_to_module = c.cell_contents",
        "imports jax._src.interpreters (JAX's internals)",
    ),
    ("f = getattr(g, '__clo' 'sure__')", "names __closure__ in a string"),
    ("f = getattr(g, '__clo' + 'sure__')", "names __closure__ in a string"),
    ("m = getattr(jax, '_s' + 'rc')", "names _src in a string"),
    ("import jax.extend", "imports jax.extend (JAX's internals)"),
    ("v = x.cell_contents", "uses .cell_contents"),
    ("jax.interpreters.mlir.lower_jaxpr_to_module = f", "uses .interpreters"),
]


@pytest.mark.parametrize("source,finding", ATTACKS)
def test_static_attacks_are_named(source, finding):
    assert finding in static_attacks([source], Protected([]))


@pytest.mark.parametrize(
    "source",
    [
        "import numpy as np\ndef f(x):\n    return np.sum(x)",
        "import math\nimport jax.numpy as jnp\nclass P:\n    pass",
        "def f(elem):\n    return getattr(ml_dtypes, elem), f'{elem} source'",
    ],
)
def test_ordinary_answers_are_not_attacks(source):
    assert static_attacks([source], Protected(["import numpy as np"])) == []


def test_parse_errors_give_the_line():
    assert parse_error("def f(:\n    pass") == "line 1: invalid syntax"
    assert parse_error("def f():\n    return 1\n") is None


# --------------------------------------------------------------------------------------- plan
def _cell(source, gid="", **meta):
    cell = nbformat.v4.new_code_cell(source)
    if gid:
        cell.metadata["nbgrader"] = {"grade_id": gid, **meta}
    return cell


def small_lesson():
    source = nbformat.v4.new_notebook(
        cells=[
            _cell("import numpy as np\nN = 3"),
            _cell(
                "def f(x):\n    '''Add one.'''\n    ### BEGIN SOLUTION\n    return x + 1\n    ### END SOLUTION",
                "answer_f",
                solution=True,
                grade=False,
            ),
            _cell('"""f adds one."""\nassert f(1) == 2', "test_f_visible", grade=True, points=1),
            _cell(
                '"""Hidden: fresh inputs."""\n### BEGIN HIDDEN TESTS\nassert f(5) == 6\n### END HIDDEN TESTS',
                "test_f_hidden",
                grade=True,
                points=2,
            ),
            _cell("def helper():\n    return f(0)\nresult = helper()\nplot()"),
        ]
    )
    release = nbformat.v4.new_notebook(
        cells=[
            source.cells[0],
            _cell(
                "def f(x):\n    '''Add one.'''\n    raise NotImplementedError()", "answer_f", solution=True, grade=False
            ),
            source.cells[2],
            _cell('"""Hidden: fresh inputs."""', "test_f_hidden", grade=True, points=2),
            source.cells[4],
        ]
    )
    return source, release


def test_plan_runs_definitions_on_the_student_side_and_the_source_tests_in_the_checker():
    source, release = small_lesson()
    submitted = nbformat.reads(nbformat.writes(release), as_version=4)
    submitted.cells[1].source = "def f(x):\n    return x + 1\nprint('top level')"
    submitted.cells.append(_cell("import os\nos.system('x')"))
    plan = build_plan(source, release, submitted)
    assert plan.contract == ["f"] and plan.setup == "import numpy as np\nN = 3"
    assert [t.grade_id for t in plan.tests] == ["test_f_visible", "test_f_hidden"]
    assert plan.tests[1].hidden and "assert f(5) == 6" in plan.tests[1].source  # from the source
    assert [t.points for t in plan.tests] == [1.0, 2.0] and plan.tests[0].doc == "f adds one."
    student = dict(plan.student_cells)
    assert "print" not in student["answer_f"] and "def f(x)" in student["answer_f"]
    assert any("import os" in code for code in student.values())
    assert all("os.system" not in code for code in student.values())
    assert all("BEGIN HIDDEN" not in code and "f(5)" not in code for code in student.values())
    assert any("def helper" in code for _, code in plan.checker_cells)
    assert all("plot()" not in code and "result" not in code for _, code in plan.checker_cells)
    # a top-level call is dropped (never run), not an attack: the row is graded as usual
    assert plan.edits == [] and plan.attacks == []
    assert any("did not run" in n for n in plan.notes)


@pytest.mark.parametrize(
    "hidden, expected",
    [
        ([False, True, False, True, False], [0, 2, 4, 1, 3]),
        ([True, True, False], [2, 0, 1]),
        ([False, False], [0, 1]),
        ([True], [0]),
        ([], []),
    ],
)
def test_every_visible_test_runs_before_any_hidden_one(hidden, expected):
    """One student process answers both: no hidden input reaches it before the last visible
    test (whose message a student reads); within each kind, notebook order."""
    tests = [TestStep(f"t{i}", 1.0, h, "", "") for i, h in enumerate(hidden)]
    assert run_order(tests) == expected


def test_plan_names_edits_missing_answers_and_parse_errors():
    source, release = small_lesson()
    submitted = nbformat.reads(nbformat.writes(release), as_version=4)
    submitted.cells[2].source = "pass"
    del submitted.cells[3]
    plan = build_plan(source, release, submitted)
    assert plan.edits == ["deleted test_f_hidden", "edited test_f_visible"]
    submitted.cells[1].source = "def f(x:\n    return 1"
    assert any("does not parse (line 1" in n for n in build_plan(source, release, submitted).notes)
    del submitted.cells[1]
    plan = build_plan(source, release, submitted)
    assert any("answer_f is missing" in n for n in plan.notes)
    assert any("raise NotImplementedError" in code for _, code in plan.student_cells)


def test_contract_and_docstrings():
    source, _ = small_lesson()
    assert contract_names(source) == ["f"]
    assert docstring('"""First line.\n\nMore."""\nx = 1') == "First line."
    assert docstring('"""Unclosed\n') == "Unclosed"


# ------------------------------------------------------------------------------------ verdict
STEP = TestStep("test_f_hidden", 2.0, True, "Hidden: fresh inputs.", "")
VISIBLE = TestStep("test_f_visible", 1.0, False, "f adds one.", "")


@pytest.mark.parametrize(
    "state,points", [("ok", 2.0), ("error", 0.0), ("timeout", 0.0), ("died", 0.0), ("skipped", 0.0)]
)
def test_a_cell_earns_its_points_only_by_running_to_the_end(state, points):
    t = points_of(STEP, TestRecord("test_f_hidden", state, "AssertionError", "expected 6 got 5"), 10)
    assert t.score == points
    assert "expected 6" not in t.error, "a hidden check's message never reaches the student"
    assert (t.message == "") == (state == "ok")


def test_visible_messages_are_shown():
    step = TestStep("test_f_visible", 1.0, False, "", "")
    assert (
        points_of(step, TestRecord("test_f_visible", "error", "AssertionError", "expected 2 got 3"), 10).error
        == "AssertionError: expected 2 got 3"
    )


@pytest.mark.parametrize(
    "attacks,edits,states,expected",
    [
        ([], [], ["ok", "ok"], "ok"),
        ([], [], ["ok", "timeout"], "timeout"),
        ([], [], ["died", "timeout"], "error"),
        # restarts used up by timeouts: the tests left are "not run", the row says timeout
        ([], [], ["timeout", "timeout", "not_run", "not_run"], "timeout"),
        ([], [], ["died", "died", "not_run"], "error"),
        ([], ["edited test_f_visible"], ["died"], "tampered"),
        (["imports ctypes"], [], ["ok"], "tampered"),
    ],
)
def test_status_precedence(attacks, edits, states, expected):
    records = [TestRecord(f"t{i}", s) for i, s in enumerate(states)]
    assert status(attacks, edits, records)[0] == expected


PARTS = {"ok": ([], [], ["ok"]), "timeout": ([], [], ["timeout"]), "error": ([], [], ["died"])}
PARTS["tampered"] = (["imports ctypes"], [], ["ok"])


@pytest.mark.parametrize("a", sorted(PARTS))
@pytest.mark.parametrize("b", sorted(PARTS))
def test_a_rows_status_is_the_most_severe_of_its_parts(a, b):
    """verdict.PRECEDENCE orders the statuses: a notebook with the findings of two rows takes the
    status that comes first in it (tampered, then error, then timeout, then ok)."""
    (att_a, ed_a, st_a), (att_b, ed_b, st_b) = PARTS[a], PARTS[b]
    records = [TestRecord(f"t{i}", s) for i, s in enumerate(st_a + st_b)]
    assert status(att_a + att_b, ed_a + ed_b, records)[0] == min(a, b, key=PRECEDENCE.index)


def test_the_status_enums_order_is_the_precedence_status_applies(monkeypatch):
    """model.Status's order, not the code's if-chain, decides which status wins: with another order
    the same findings give another status."""
    from autograder.grader.notebook import verdict
    from autograder.grader.core.model import Status

    assert PRECEDENCE == tuple(Status)[:4] == ("tampered", "error", "timeout", "ok")
    records = [TestRecord("a", "died"), TestRecord("b", "timeout")]
    assert status([], ["edited a"], records)[0] == Status.TAMPERED
    monkeypatch.setattr(verdict, "PRECEDENCE", (Status.TIMEOUT, Status.ERROR, Status.TAMPERED, Status.OK))
    assert status([], ["edited a"], records)[0] == Status.TIMEOUT


@pytest.mark.parametrize(
    "record,outcome",
    [
        (TestRecord("t", "ok"), "passed"),
        (TestRecord("t", "error", "AssertionError", "expected 6 got 5"), "wrong"),
        (TestRecord("t", "error", "TypeError", "unsupported operand"), "wrong"),
        (TestRecord("t", "error", "NotImplementedError", ""), "unanswered"),
        (
            TestRecord("t", "timeout", "TimeoutError", "timed out", student=[Happened(ProcessEvent.TIMED_OUT)]),
            "timed out",
        ),
        (TestRecord("t", "error", "MemoryError", "", student=[Happened(ProcessEvent.MEMORY_LIMIT)]), "limit reached"),
        (TestRecord("t", "died", "StudentDied", "", student=[Happened(ProcessEvent.FILE_LIMIT)]), "limit reached"),
        (
            TestRecord(
                "t", "timeout", "", "", student=[Happened(ProcessEvent.DISK_LIMIT), Happened(ProcessEvent.TIMED_OUT)]
            ),
            "limit reached",
        ),
        (TestRecord("t", "died", "StudentDied", "the student's process died"), "process died"),
        (TestRecord("t", "not_run", "StudentDied", "not run: 3 restarts used"), "not run"),
        (TestRecord("t", "skipped"), "not run"),
    ],
)
def test_each_check_gets_its_outcome_where_its_points_are_decided(record, outcome):
    """verdict.points_of sets the typed outcome the report and the feedback read (never a message):
    a timeout, a limit or a lost process is never a wrong answer; a hidden check's page says
    passed or failed only, whatever the outcome."""
    from autograder.grader.core.model import Outcome
    from autograder.grader.classroom.studentview import shown_outcome

    visible = points_of(TestStep("t", 1.0, False, "", ""), record, 10)
    hidden = points_of(STEP, record, 10)
    assert visible.outcome == hidden.outcome == Outcome(outcome)
    assert (visible.score == 1.0) == (outcome == "passed")
    assert shown_outcome(hidden) == ("passed" if outcome == "passed" else "failed")
    assert shown_outcome(visible) == {"wrong": "failed", "unanswered": "not answered yet"}.get(outcome, outcome)


def test_code_aimed_at_the_grader_voids_every_check():
    from autograder.grader.core.model import Outcome, Result

    steps = [TestStep("a", 1.0, False, "", ""), STEP]
    records = [TestRecord("a", "ok"), TestRecord("test_f_hidden", "error", "AssertionError", "")]
    r = decide(Result("s", "n"), steps, records, ["imports ctypes"], [], 10)
    assert r.score == 0 and [t.outcome for t in r.tests] == [Outcome.VOIDED, Outcome.VOIDED]


def test_a_visible_test_left_when_the_restarts_are_used_up_says_so():
    why = "not run: the student's process could not be restarted (3 restarts used)"
    step = TestStep("test_f_visible", 2.0, False, "", "")
    got = points_of(step, TestRecord(step.grade_id, "not_run", "StudentDied", why), 10)
    assert (got.score, got.error) == (0.0, why)


HIDDEN_ENDINGS = [
    TestRecord("test_f_hidden", "error", "ValueError", "bit"),
    TestRecord("test_f_hidden", "error", "AssertionError", "expected 6 got 5"),
    TestRecord("test_f_hidden", "timeout", "TimeoutError", ""),
    TestRecord("test_f_hidden", "died", "StudentDied", "exit 1"),
    TestRecord("test_f_hidden", "died", "StudentDied", "", student=[Happened(ProcessEvent.PROCESS_LIMIT)]),
    TestRecord("test_f_hidden", "died", "StudentDied", "", student=[Happened(ProcessEvent.FILE_LIMIT)]),
    TestRecord("test_f_hidden", "died", "MemoryError", "", student=[Happened(ProcessEvent.MEMORY_LIMIT)]),
    TestRecord("test_f_hidden", "not_run", "StudentDied", "not run: 3 restarts used"),
    TestRecord("test_f_hidden", "skipped"),
]


def test_every_way_a_hidden_test_can_fail_looks_the_same_to_the_student():
    """An answer that chooses how a hidden test ends (raise, hang, die, hit a limit) cannot send a
    hidden input's bits through the kind of failure: the student's page shows one message, and its
    status comes from the visible tests only; the instructor's records keep the detail."""
    seen = set()
    for record in HIDDEN_ENDINGS:
        t = points_of(STEP, record, 10)
        seen.add((t.score, t.error, t.output))
        r = decide(Result("s", "l"), [VISIBLE, STEP], [TestRecord("test_f_visible", "ok"), record], [], [], 10)
        seen.add((r.shown_status, r.shown_detail))
        page = feedback_html(r)
        for word in ("limit", "timed out", "died", "not run", "bit", "expected 6"):
            assert word not in page, (record, word)
    assert seen == {(0.0, HIDDEN_FAILED, ""), ("ok", "")}, seen
    r = decide(Result("s", "l"), [STEP], [HIDDEN_ENDINGS[4]], [], [], 10)
    assert (r.status, r.detail) == ("error", "process limit reached in test_f_hidden (the other tests were graded)")


def test_the_detail_names_each_tests_own_limit():
    records = [
        TestRecord("test_a", "died", student=[Happened(ProcessEvent.MEMORY_LIMIT)]),
        TestRecord("test_b", "died", student=[Happened(ProcessEvent.PROCESS_LIMIT)]),
        TestRecord("test_c", "died"),
    ]
    assert status([], [], records)[1] == (
        "memory limit reached in test_a; process limit reached in test_b; "
        "the student's process died in test_c (the other tests were graded)"
    )


def test_code_aimed_at_the_grader_zeroes_the_notebook():
    r = decide(Result("s", "l"), [STEP], [TestRecord("test_f_hidden", "ok")], ["imports ctypes"], [], 10)
    assert (r.score, r.status) == (0.0, "tampered")
    r = decide(Result("s", "l"), [STEP], [TestRecord("test_f_hidden", "ok")], [], [], 10)
    assert (r.score, r.status) == (2.0, "ok")


# ------------------------------------------------------------------------------------ outputs
def test_feedback_escapes_and_hides(tmp_path):
    r = Result(
        "<script>alert(1)</script>",
        "01_x",
        1,
        3,
        "ok",
        tests=[
            TestResult(
                "test_a_hidden",
                0,
                2,
                "failed (the hidden test's details are not shown)",
                True,
                "doc <b>",
                message="AssertionError: expected SECRET",
            )
        ],
    )
    page = feedback_html(r)
    assert "<script>" not in page and "&lt;script&gt;" in page and "SECRET" not in page
    r2 = Result("=HYPERLINK(1)", "01_x", 0, 1, "ok")
    write_outputs(tmp_path, [r, r2])
    text = (tmp_path / "grades.csv").read_text()
    assert "\n=HYPERLINK" not in text and "'=HYPERLINK" in text


def test_printable_escapes_terminal_controls():
    assert printable("a\x1b[2Jb\u202e") == "a\\x1b[2Jb\\u202e"
    assert len(printable("x" * 1000)) == 300


# -------------------------------------------------------------------------------- submissions
def test_symlinks_are_refused_and_layouts_found(tmp_path):
    nb = tmp_path / "real.ipynb"
    nb.write_text("{}")
    (tmp_path / "subs" / "ann").mkdir(parents=True)
    (tmp_path / "subs" / "ann" / "01_x.ipynb").write_text("{}")
    (tmp_path / "subs" / "bo" / "01_x").mkdir(parents=True)
    (tmp_path / "subs" / "bo" / "01_x" / "01_x.ipynb").write_text("{}")
    (tmp_path / "subs" / "cy").mkdir()
    os.symlink(nb, tmp_path / "subs" / "cy" / "01_x.ipynb")
    os.symlink(tmp_path / "subs" / "ann", tmp_path / "subs" / "dee")
    (tmp_path / "subs" / "eve").mkdir()
    os.symlink(tmp_path / "subs" / "ann", tmp_path / "subs" / "eve" / "01_x")
    taken = take(tmp_path / "subs", {"01_x": frozenset({"answer_f"})})
    assert set(taken.found) == {("ann", "01_x"), ("bo", "01_x")}
    assert set(taken.refused) == {("cy", "01_x")}
    assert any("dee" in u and "symlink" in u for u in taken.notes) and "dee" not in taken.students
    assert any("eve/01_x" in u and "symlink" in u for u in taken.notes)


@pytest.mark.parametrize(
    "raw", [b"{not json", "\u00e9".encode("latin-1"), b'{"cells": 3, "nbformat": 4}', b"x" * (51 * 2**20)]
)
def test_unreadable_notebooks_give_a_short_reason(raw):
    with pytest.raises(ValueError) as err:
        parse_notebook(raw)
    assert len(str(err.value)) <= 300


def test_tampering_accepts_older_releases():
    source, release = small_lesson()
    older = nbformat.reads(nbformat.writes(release), as_version=4)
    older.cells[2].source = '"""f adds one."""\nassert f(1) == 2  # older wording'
    assert tampering(older, release) == ["edited test_f_visible"]
    assert tampering(older, release, older) == []


# ----------------------------------------------------------------------------------- settings
def test_command_line_defaults_are_the_settings_defaults():
    from autograder.__main__ import _settings, main  # noqa: F401
    import argparse
    from autograder.__main__ import _settings_arguments

    parser = argparse.ArgumentParser()
    _settings_arguments(parser, jobs=True)
    s = _settings(parser.parse_args([]))
    assert s == Settings(seed=None), s
    assert s.limits == Limits()
    with pytest.raises(ValueError):
        Settings(emulation="quantum")


def test_a_frame_built_to_exhaust_the_checker_is_refused(monkeypatch):
    """Red team: a 65,536-deep JSON list crashed the parser; a frame of a million empty lists would
    cost the checker gigabytes once decoded (the cap, made small here to keep this test quick)."""
    with pytest.raises(wire.WireError):
        wire.parse(b"[" * 65536)
    monkeypatch.setattr(wire, "MAX_ITEMS", 1000)
    flat = json.loads(json.dumps([[] for _ in range(wire.MAX_ITEMS + 1)]))
    with pytest.raises(wire.WireError):
        wire.Decoder()(flat)
    decoder = wire.Decoder()
    for _ in range(3):  # the budget is per message, not per process
        assert len(decoder([[] for _ in range(wire.MAX_ITEMS // 2)])) == wire.MAX_ITEMS // 2


def test_each_notebook_gets_its_own_reproducible_seed():
    from autograder.grader.notebook.grade import notebook_seed

    assert notebook_seed(7, "ann", "01_x") == notebook_seed(7, "ann", "01_x")
    assert len({notebook_seed(7, s, "01_x") for s in ("ann", "bo", "cy")}) == 3
    assert notebook_seed(7, "ann", "01_x") != notebook_seed(8, "ann", "01_x")
    assert 0 <= notebook_seed(None, "ann", "01_x") < 2**31


def test_a_failed_visible_check_shows_what_it_printed_and_a_hidden_one_nothing():
    visible = TestStep("test_f_visible", 1.0, False, "", "")
    record = TestRecord("t", "error", "AssertionError", "", output="expected 2, got 3\n")
    t = points_of(visible, record, 10)
    assert t.output == "expected 2, got 3\n" and "expected 2, got 3" in feedback_html(Result("s", "l", tests=[t]))
    hidden = points_of(STEP, TestRecord("t", "error", "AssertionError", "", output="expected 6, got 5\n"), 10)
    assert hidden.output == "" and "expected 6" not in feedback_html(Result("s", "l", tests=[hidden]))


def test_the_sandbox_says_in_one_line_what_holds(monkeypatch):
    from autograder.grader.sandbox import launch as sandbox

    monkeypatch.setattr(sandbox, "bwrap_works", lambda: "bubblewrap (bwrap) is not installed")
    line = sandbox.describe()
    assert line.startswith("WARNING: bubblewrap (bwrap) is not installed") and "rlimits and Landlock" in line
    assert "\n" not in line


def test_a_release_that_silences_a_docstring_is_no_edit():
    source, release = small_lesson()
    old = nbformat.reads(nbformat.writes(release), as_version=4)
    release.cells[3].source = '"""Hidden: fresh inputs.""";'
    assert tampering(old, release) == []
    old.cells[3].source = '"""Hidden: fresh inputs."""\nassert True'
    assert tampering(old, release) == ["edited test_f_hidden"]


# ------------------------------------------------------------------------ text a student controls
@pytest.mark.parametrize(
    "text, whole",
    [
        ("bad \ud800 value", "bad \ufffd\ufffd\ufffd value"),  # a lone high surrogate: \ud800 in JSON
        ("\udc00", "\ufffd\ufffd\ufffd"),
        ("emoji \U0001f600 stays", "emoji \U0001f600 stays"),  # a pair in JSON, one character here
        ("plain", "plain"),
    ],
)
def test_lone_surrogates_never_outlive_the_channel(text, whole, tmp_path):
    """A student's string may hold a lone surrogate (JSON's \\ud800 decodes to one): no UTF-8 file
    can hold it, so writing the feedback page once stopped the whole class's outputs. The channel
    replaces it, and the writers and printable() are safe on their own too."""
    frame = wire.dumps({"op": "error", "evalue": text, "v": [text, {text: text}]})
    message = wire.parse(frame[wire.HEADER_SIZE :])
    print(repr(text), "->", repr(message["evalue"]))
    assert message == {"op": "error", "evalue": whole, "v": [whole, {whole: whole}]}
    assert printable(text).encode("utf-8")
    t = TestResult("test_f_visible", 0, 1, hidden=False, error=f"ValueError: {text}")
    r = Result("s\udcff", "01_x", score=0, max_score=1, status="error", detail=text, tests=[t])
    write_outputs(tmp_path, [r])
    assert (tmp_path / "grades.csv").exists() and (tmp_path / "results.json").exists()
    assert list((tmp_path / "feedback").rglob("*.html"))


# ------------------------------------------------------------------------ the student's work folder
def _nested(root: Path, depth: int) -> None:
    fd = os.open(root, os.O_RDONLY)
    for _ in range(depth):  # by descriptors: the path would pass PATH_MAX
        os.mkdir("d", dir_fd=fd)
        child = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(fd)


@pytest.mark.parametrize(
    "build, why",
    [
        (lambda r: [(r / f"f{i}").touch() for i in range(120)], ProcessEvent.FILE_LIMIT),
        (lambda r: (r / "big").write_bytes(b"x" * 3 * 2**20), ProcessEvent.DISK_LIMIT),
        (lambda r: _nested(r, 3000), ProcessEvent.DEPTH_LIMIT),
        (lambda r: [(r / "w" / f"s{i}").mkdir(parents=True) for i in range(90)], None),  # wide, under the cap
        (lambda r: (r / "link").symlink_to("/usr"), None),  # a link counts once: never followed
        (lambda r: _nested(r, 60), None),
    ],
)
def test_the_work_folder_is_measured_without_recursion_and_removed_at_any_depth(build, why, tmp_path):
    """workdir.over_limit counts entries, allocated bytes and depth by descriptors (no recursion,
    at most 65 folders open), stopping at the limit; remove_tree removes any depth (Python's
    os.walk and shutil.rmtree raised RecursionError on 3,000 nested folders and crashed a worker)."""
    from autograder.grader.sandbox.workdir import empty, new_job_dir, over_limit, remove_tree

    folder = tmp_path / "work"
    folder.mkdir()
    build(folder)
    got = over_limit(folder, max_files=100, max_bytes=2 * 2**20)
    print(f"expected {why!r}, got {got!r}")
    assert got == why
    empty(folder)
    assert [p.name for p in folder.iterdir()] == ["tmp"]
    build(folder)
    remove_tree(folder)
    assert not os.path.lexists(folder)
    job = new_job_dir()
    try:
        assert os.stat(job).st_mode & 0o777 == 0o700, "no other user reaches what a student wrote"
    finally:
        remove_tree(job)


class _Clock:
    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now


def test_a_restart_has_its_own_time_and_the_cells_clock_resumes_after_it(monkeypatch):
    """A restart of the student's process (slow on a busy machine) takes none of the test's
    time: it has a cell's time of its own, never past the notebook's, and the cell's clock
    resumes where it stopped. The watchdog is told first. A fake clock, no wall-clock margin."""
    from autograder.grader.checker import remote
    from autograder.grader.core import settings as settings_module
    from autograder.grader.checker.remote import Student
    from autograder.grader.core.settings import Budget

    clock = _Clock()
    monkeypatch.setattr(settings_module, "time", clock)
    budget = Budget(100, 10)
    budget.start_cell()
    clock.now += 7  # the test's own work before its call
    seen, told = [], []
    s = Student(lambda: None, {}, budget, 3)
    s.on_restart = lambda: told.append(budget.left())

    def slow_start():
        seen.append(budget.left())  # the restart's own time: a whole cell
        clock.now += 9
        s.starts += 1

    monkeypatch.setattr(s, "start", slow_start)
    monkeypatch.setattr(s, "wait_ready", lambda: None)
    monkeypatch.setattr(s, "stop", lambda why="": None)
    s.ensure()
    assert told == [3] and seen == [10]
    assert budget.left() == 3, "the cell's 3 s are still the test's after a 9 s restart"
    # near the notebook's end the restart gets only what is left of the notebook
    clock.now = budget.notebook_deadline - 4
    budget.start_cell()
    s.ensure()
    assert seen[-1] == 4 and budget.left() == -5
    with pytest.raises(remote.StudentTimeout):
        s.ensure()  # no time left: no restart


def test_the_checkers_events_are_typed_records_and_anything_else_is_ignored():
    """events.py: each kind round-trips through its frame; a frame with an unknown kind, a missing
    field or a field of another type (a bool for an index, a number in a list of strings) is no
    event (None), so the watchdog never reads an unchecked key."""
    from autograder.grader.core import events

    for event in (
        events.Ready(["f"], [["answer_f", "NameError", "x"]], "", "", ""),
        events.Start(2),
        events.Restart(),
        events.Tested(2, "error", "AssertionError", "expected 1", 0.5, "printed", [["timed-out", ""]]),
        events.Variant(0, ["test_f_hidden"], []),
        events.Done(["a line"]),
    ):
        assert events.parse(wire.parse(wire.dumps(events.to_frame(event))[wire.HEADER_SIZE :])) == event
    for frame in (
        {"event": "start", "index": True},
        {"event": "start", "index": "1"},
        {"event": "start"},
        {"event": "test", "index": 1, "state": "ok", "student": [1]},
        {"event": "test", "index": 1, "state": None},
        {"event": "test", "index": 1, "state": "exploded"},  # a state of no kind
        {"event": "test", "index": 1, "state": "died", "student": [["memory limit reached", ""]]},  # words, no kind
        {"event": "test", "index": 1, "state": "died", "student": [["memory-limit"]]},
        {"event": "ready", "defined": "f"},
        {"event": "nonsense"},
        {},
    ):
        assert events.parse(frame) is None, frame


def test_a_killed_workers_job_folder_is_removed_by_the_next_worker(tmp_path):
    """workdir: a job folder's lock lives as long as its worker. A worker killed mid-notebook (a
    lost Dask worker) leaves its folder; the next sweep removes it, and never one whose worker is
    still grading, nor another user's or a folder without a lock."""
    import subprocess
    import sys

    from autograder.grader.sandbox import workdir

    script = (
        "import sys, tempfile, time; tempfile.tempdir = sys.argv[1]\n"
        "from autograder.grader.sandbox.workdir import new_job_dir\n"
        "print(new_job_dir(), flush=True); time.sleep(60)\n"
    )
    killed = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    alive = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        left, busy = Path(killed.stdout.readline().strip()), Path(alive.stdout.readline().strip())
        (left / "work" / "deep").mkdir(parents=True)
        killed.kill()
        killed.wait()
        older = tmp_path / "course-grade-older"  # an older grader's folder: no lock, left alone
        older.mkdir()
        assert workdir.remove_orphans(str(tmp_path)) == [left]
        assert not left.exists() and busy.is_dir() and older.is_dir()
    finally:
        alive.kill()
        alive.wait()
    assert workdir.remove_orphans(str(tmp_path)) == [busy]


def test_a_feedback_page_has_the_lessons_title_and_whole_docstrings_grouped_by_exercise():
    """Issue 31: a check's docstring is its whole first paragraph (a sentence wrapped over lines was
    cut: "half an ulp of 1 (a tie, rounds to"); the page names the lesson by its title, says when it
    was graded, and groups the checks under their exercise with its points."""
    from autograder.grader.core.model import Outcome, Result, TestResult
    from autograder.grader.classroom.outputs import feedback_html
    from autograder.grader.notebook.plan import docstring
    from autograder.common.notebooks import lesson_title

    wrapped = '"""Visible: 1 + 2**-8 is half an ulp of 1 (a tie,\n    rounds to even: 1).\n\nMore."""\nx = 1'
    assert docstring(wrapped) == "Visible: 1 + 2**-8 is half an ulp of 1 (a tie, rounds to even: 1)."
    tests = [
        TestResult("test_bf16_round_visible", 1, 1, doc=docstring(wrapped)),
        TestResult("test_bf16_round_hidden", 0, 3, "failed", True, outcome=Outcome.WRONG),
        TestResult("test_format_table_visible", 1, 1),
    ]
    title = lesson_title("01_number_formats")
    assert title != "01_number_formats" and not title.startswith("#")
    page = feedback_html(Result("ada", "01_number_formats", 2, 5, "ok", tests=tests), title, "2026-12-05")
    assert f"<h1>{title}</h1>" in page.replace("&#x27;", "'") and "graded on 2026-12-05" in page
    assert "rounds to even: 1)." in page
    first, second = page.index("Exercise <code>bf16_round</code>: 1 / 4"), page.index("Exercise <code>format_table")
    assert first < page.index("test_bf16_round_hidden") < second


def test_a_ctrl_c_during_a_class_run_is_noted_and_raised_by_the_loop_itself():
    """classroom/pool.py: a SIGINT is noted by the run's handler (never raised inside whatever
    library callback runs at that moment, where Python prints it as "ignored" and loses it) and
    raised by the loop's own ``raise_if_interrupted``; the previous handler comes back after."""
    import os
    import signal

    from autograder.grader.classroom.pool import Interrupts

    before = signal.getsignal(signal.SIGINT)
    with Interrupts() as stop:
        stop.raise_if_interrupted()  # nothing noted yet
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs between bytecodes: give it some
            if stop.noted:
                break
        assert stop.noted
        with pytest.raises(KeyboardInterrupt):
            stop.raise_if_interrupted()
    assert signal.getsignal(signal.SIGINT) is before
