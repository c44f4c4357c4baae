"""Issue 65 (1): an answer cell cannot switch the chip off.

The review's attack: a helper in the answer cell, called at the top of a TPU-trap answer, puts JAX's
original lowering back in place of the emulation's (the public ``jax.interpreters.mlir`` holds it),
every name built at run time from bytes, and clears JAX's caches; lesson 02's DEFAULT-precision
reference (a known mistake that only a TPU shows) then took 11/11, status ok. Each notebook here is
graded in this process as a worker grades it (no class), lesson 02 with the trap exercise's checks
only (4 points: the trap gets 0 of them under the emulation, 4 with the CPU's own arithmetic):

- the attack as the review wrote it: the static reading (notebook/answer_rules.py) names its lines
  and rules, the row is ``tampered`` with 0 points;
- the same attack written plainly, with the static reading switched off in this test: the run-time
  probe (checker/integrity.py) finds the emulation undone, the row is ``tampered`` with 0 points;
- names built at run time that break no written rule: the student's process refuses them in
  ``getattr`` (student_side.guarded_builtins), the answer raises, no point beyond the chip's.

On the old code all three took 11/11, status ok. The fast reading of every variant (``sys.modules``,
``importlib.reload``, ``jax.config.update``, XLA_FLAGS, ``gc``, closures...) is tests/test_answer_rules.py.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import nbformat
import pytest

from autograder.common.mistakes import load as load_mistakes
from autograder.common.notebooks import cell_grade_id, fill_answers
from autograder.grader import Settings
from autograder.grader.notebook import plan as planning
from autograder.grader.notebook.grade import Lesson, grade_notebook
from conftest import ROOT, grading_lesson, source_nb, student_nb
from test_answer_rules import instructor_cells

pytestmark = pytest.mark.slow
LESSON = "02_matmul_accumulation"
TRAP = f"{LESSON}:evaluate_precision_policies:default-precision-reference"  # exact on a CPU, wrong on the chip

UNDO = """def _restore_cpu():
    d = lambda b: bytes(b).decode()
    public = getattr(getattr(jax, d(b"interpreters")), d(b"mlir"))
    internal = getattr(getattr(getattr(jax, d(b"_src")), d(b"interpreters")), d(b"mlir"))
    internal.__setattr__(d(b"lower_jaxpr_to_module"), getattr(public, d(b"lower_jaxpr_to_module")))
    getattr(jax, d(b"clear_caches"))()

"""
# The same, written plainly: with the static reading off, nothing in the student's process refuses it
PLAIN = """def _restore_cpu():
    jax._src.interpreters.mlir.lower_jaxpr_to_module = jax.interpreters.mlir.lower_jaxpr_to_module
    jax.clear_caches()

"""
# No rule of the code is broken: the names exist only at run time
RUNTIME_NAMES = """def _restore_cpu():
    n = lambda *parts: "".join(bytes(p).decode() for p in parts)
    internal = getattr(getattr(getattr(jax, n(b"_s", b"rc")), n(b"interp", b"reters")), n(b"mlir"))
    name = n(b"lower_jax", b"pr_to_module")
    public = getattr(getattr(getattr(jax, n(b"interp", b"reters")), n(b"mlir")), name)
    getattr(internal, n(b"_", b"_setattr_", b"_"))(name, public)
    getattr(jax, n(b"clear_", b"caches"))()

"""


def attacked(helper: str) -> str:
    """The trap answer, the helper before it, called at its top."""
    (trap,) = [m.source for m in load_mistakes(LESSON) if m.key == TRAP]
    head = "def evaluate_precision_policies(seed=0):\n"
    assert head in trap
    return helper + trap.replace(head, head + "    _restore_cpu()\n")


# The trap's own checks: the lesson's other tests are left out of these gradings (issue 66: each took
# lesson 02's whole grading, about 19 s, to test the one exercise the attacks aim at); its setup, its
# own cells and every answer cell stay as the lesson has them
KEPT = ("test_evaluate_precision_policies_visible", "test_evaluate_precision_policies_hidden")


def trimmed(nb):
    """``nb`` without the test cells of the lesson's other exercises."""
    nb = copy.deepcopy(nb)
    nb.cells = [c for c in nb.cells if not cell_grade_id(c).startswith("test_") or cell_grade_id(c) in KEPT]
    return nb


def graded(answer: str):
    nb = fill_answers(student_nb(LESSON), source_nb(LESSON), {"evaluate_precision_policies": answer})
    settings = Settings(jobs=1, seed=1, diagnose=False)
    full = grading_lesson(LESSON, mistakes=False)
    release = nbformat.writes(trimmed(nbformat.reads(full.release, as_version=4)))
    lesson = Lesson(LESSON, nbformat.writes(trimmed(source_nb(LESSON))), release, release, "")
    r = grade_notebook("ada", lesson, nbformat.writes(trimmed(nb)).encode(), settings, ROOT)
    assert sorted(t.grade_id for t in r.tests) == sorted(KEPT), "the trap's checks, graded"
    return r


def show(r):
    print(r.score, r.max_score, r.status, r.detail, [(t.grade_id, t.score, t.error[:120]) for t in r.tests])


def test_the_reviews_attack_is_named_by_the_static_reading():
    r = graded(attacked(UNDO))
    show(r)
    assert (r.status, r.score) == ("tampered", 0)
    assert "line 5: reads .__setattr__ (private attributes and dunders: none)" in r.detail, r.detail


def test_without_the_static_reading_the_probe_finds_the_emulation_undone(monkeypatch):
    monkeypatch.setattr(planning, "attacks_in", lambda tree, protected: [])  # the first layer off
    r = graded(attacked(PLAIN))
    show(r)
    assert (r.status, r.score) == ("tampered", 0)
    assert "the TPU emulation was undone in the student's process (probed after test_" in r.detail, r.detail
    assert "was not computed as the chip computes it" in r.detail


def test_names_built_at_run_time_are_refused_by_getattr():
    answer = attacked(RUNTIME_NAMES)
    assert planning.attacks_in(ast.parse(answer), _setup()) == [], "no rule of the code is broken"
    r = graded(answer)
    show(r)
    scores = {t.grade_id: t.score for t in r.tests}
    assert r.status == "ok" and scores["test_evaluate_precision_policies_hidden"] == 0
    assert r.score < r.max_score
    assert "refused when grading" in {t.grade_id: t.error for t in r.tests}["test_evaluate_precision_policies_visible"]


def _setup():
    """What the plan protects for lesson 02 (its own cells' names)."""
    return instructor_cells(LESSON)


# A second hostile review (2026-12-07) ran code that no reading of the answer saw: a pickle through
# np.load (eval named inside the pickle) and a string annotation that functools.singledispatch has
# typing evaluate. Each defined chip_off(), a context manager putting JAX's original lowering back
# (from the hook's closure) for the answer's call only, so no probe between calls saw it: 11/11, ok.
CHIP_OFF = """import contextlib, jax
from jax._src.interpreters import mlir
hook = mlir.lower_jaxpr_to_module
orig = dict(zip(hook.__code__.co_freevars, [c.cell_contents for c in hook.__closure__]))["lower"]
@contextlib.contextmanager
def chip_off():
    saved = mlir.lower_jaxpr_to_module
    mlir.lower_jaxpr_to_module = orig
    jax.clear_caches()
    try:
        yield
    finally:
        mlir.lower_jaxpr_to_module = saved
        jax.clear_caches()
"""


class _Evil:
    def __reduce__(self):
        return (eval, ("exec(c, g) or g", {"c": CHIP_OFF, "g": {}}))


def by_pickle() -> str:
    import base64
    import pickle

    blob = base64.b64encode(pickle.dumps({"off": _Evil()}, protocol=2)).decode()
    return f'''import base64, os, tempfile


def chip_off():
    path = os.path.join(tempfile.mkdtemp(), "h.bin")
    with open(path, "wb") as f:
        f.write(base64.b64decode("{blob}"))
    return np.load(path, **{{"allow_pickle": True}})["off"]["chip_off"]()

'''


def registered(note: str) -> str:
    """A helper cell whose singledispatch registration has typing evaluate the string ``note``."""
    return f"""import functools


@functools.singledispatch
def route(x):
    return x


@route.register
def hint(x: "{note}"):
    return x

"""


def by_annotation() -> str:
    payload = (CHIP_OFF + "globals()['chip_off'] = chip_off\n").encode().hex()
    return registered(f"[exec(bytes.fromhex('{payload}').decode(), globals()), int][1]")


def _full_width(text: str) -> str:
    """Letters and "_" as their full-width forms, which Python reads (NFKC) as the ASCII ones."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and (c.isalpha() or c == "_") else c for c in text)


# The review's payload: the private module by a string escape, the original lowering through inspect
FULL_WIDTH_PAYLOAD = """import sys, inspect, contextlib, jax
m = sys.modules['jax.\\x5fsrc.\\x69nterpreters.mlir']
orig = inspect.getclosurevars(m.lower_jaxpr_to_module).nonlocals['lower']
@contextlib.contextmanager
def chip_off():
    saved = m.lower_jaxpr_to_module
    m.lower_jaxpr_to_module = orig
    jax.clear_caches()
    try:
        yield
    finally:
        m.lower_jaxpr_to_module = saved
        jax.clear_caches()
"""


def by_full_width() -> str:
    """A third hostile review (2026-12-07): the annotation's exec and globals, and every name of the
    code it runs, in full-width letters that no ASCII pattern finds (11/11, ok, on the code before)."""
    import io
    import keyword
    import tokenize

    tokens = [
        t._replace(string=_full_width(t.string)) if t.type == tokenize.NAME and not keyword.iskeyword(t.string) else t
        for t in tokenize.generate_tokens(io.StringIO(FULL_WIDTH_PAYLOAD).readline)
    ]
    hexed = tokenize.untokenize(tokens).encode().hex()
    note = f"[{_full_width('exec')}(bytes.fromhex('{hexed}').decode(), {_full_width('globals')}()), int][1]"
    return registered(note)


def wrapped(helper: str) -> str:
    """The trap answer under ``with chip_off():``, the helper before it."""
    (trap,) = [m.source for m in load_mistakes(LESSON) if m.key == TRAP]
    head = "def evaluate_precision_policies(seed=0):\n"
    call = head + "    with chip_off():\n        return trap_impl(seed)\n\n\n"
    return helper + call + trap.replace(head, "def trap_impl(seed=0):\n")


@pytest.mark.parametrize(
    "helper", [by_pickle, by_annotation, by_full_width], ids=["pickle", "annotation", "full-width"]
)
def test_code_no_reading_saw_is_refused_in_the_students_process(helper):
    """The audit hook (sandbox/audit_rules.py, installed after the lesson's setup cell) refuses
    unpickling and compiling source at run time: the answer raises where it would have run unread
    code (np.load's UnpicklingError; the cell's definitions stop at the decorator), and gains no
    point the chip would not give (with the hook not installed, each took 11/11, status ok)."""
    answer = wrapped(helper())
    assert planning.attacks_in(ast.parse(answer), _setup()) == [], "no rule of the code is broken"
    r = graded(answer)
    show(r)
    scores = {t.grade_id: t.score for t in r.tests}
    assert scores["test_evaluate_precision_policies_hidden"] == 0 and r.score < r.max_score
    assert scores["test_evaluate_precision_policies_visible"] == 0  # as the trap alone gets


AUDIT_PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
import audit_rules
audit_rules.install(refused={"config", "exec", "globals"}, paths=("jax.core", "numpy.lib.format"))
verdicts = []
for text in sys.argv[2:]:
    try:
        compile(text, "<string>", "eval")
        verdicts.append("ok")
    except RuntimeError:
        verdicts.append("refused")
print(" ".join(verdicts))
"""


def test_the_audit_hook_reads_type_expressions_and_refuses_code():
    """The student's process's audit hook (sandbox/audit_rules.py) lets typing compile the type
    expressions libraries write in string annotations, a module's private TypeVar included
    (protobuf's, on importing xprof's converter: a top_ops answer that reads the trace through it
    raised "compiling code that names _T" when graded, and its mistake was named by nothing), and
    refuses a call, a private attribute, a dunder and a refused name in the same place; and, after a
    third hostile review took 11/11 with an annotation naming exec and globals in full-width
    letters (which Python reads as ASCII), any character outside ASCII, a private name written as a
    string escape, and a path the static reading refuses."""
    import subprocess
    import sys

    from autograder.grader.sandbox import audit_rules

    texts = {
        "RepeatedCompositeFieldContainer[_T]": "ok",
        "Union[Mapping[str, _V], None] | int": "ok",
        "Callable | None": "ok",
        "_T(1)": "refused",
        "jax._src": "refused",
        "Foo[__T]": "refused",
        "jax.config": "refused",
        "[exec(x), int][1]": "refused",
        "lambda: _T": "refused",
        # a hostile review (2026-12-07, third): full-width letters, which Python reads as ASCII names
        "[\uff45\uff58\uff45\uff43(x, \uff47\uff4c\uff4f\uff42\uff41\uff4c\uff53()), int][1]": "refused",
        "m['jax.\\x5fsrc.mlir']": "refused",
        "jax.core.Primitive": "refused",
        "Union[jax . core . Primitive, int]": "refused",
        "numpy.lib.format.x": "refused",
        "numpy.linalg.norm": "ok",
    }
    run = subprocess.run(
        [sys.executable, "-c", AUDIT_PROBE, str(Path(audit_rules.__file__).parent), *texts],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.stdout.split() == list(texts.values()), run.stdout + run.stderr
