"""Grade a class: every notebook of every student, in parallel, fail closed, leaking nothing.

    python -m autograder grade SUBMISSIONS --out OUT [--jobs N] [--timeout S] [--force]

How one notebook is graded (the design and threat model are in docs/GRADING.md):

1. **Plan, outside any kernel.** The submission is read as JSON by the grader. Its test cells are
   compared with the release (edited or deleted => ``tampered``; the originals from the SOURCE
   notebook are what runs, hidden tests included). The student's code cells (answers and any
   cells they added) are scanned statically for attacks on the checking machinery (input/AST
   transformers, traceback and exception hooks, frame inspection, monkeypatching modules,
   shadowing builtins or the notebook's own names...) and reduced, with ``ast``, to what the
   contract needs: imports, ``def``/``class`` statements and simple constants. Other top-level
   statements never run. The instructor's setup cell runs in full, the other instructor cells
   contribute their definitions only (demo computations and figures do not affect grades).
2. **Run, in a sandboxed kernel** (autograder/sandbox.py): a fresh temporary folder holding only
   the submission, an address-space cap, a per-cell and a per-notebook time limit, Landlock
   (read-only Python/system, nothing else readable, no network, no signals out) where the OS
   has it. A kernel that dies or hangs is restarted and the definitions replayed, so the other
   tests are still graded.
3. **Prove execution, outside the kernel.** Every test cell ends with a line, unknown to the
   student's code until that cell runs, printing a fresh random nonce and a fingerprint of the
   checking machinery (builtins, numpy/numpy.testing/jax.numpy/math callables, the setup cell's
   names, IPython's transformers, hooks and event callbacks, trace/profile functions). A test
   passes only if its cell ran without error and printed its own nonce with a fingerprint
   equal to the one taken before any student code ran. A missing proof or a changed
   fingerprint means the machinery was tampered with: status ``tampered``, no points.
4. **Record, in the parent process only.** Scores go to nbgrader's gradebook (OUT/gradebook.db,
   made by nbgrader's generate_assignment from the source notebooks) through its Gradebook API,
   one writer, and to OUT/journal.jsonl as each notebook finishes, so an interrupt loses no
   finished grade and a rerun resumes (``--force`` regrades). OUT/grades.csv, OUT/tests.csv and
   OUT/feedback/<student>/<lesson>.html are written from the journal. Feedback names each check,
   its docstring and outcome; a visible test's error message is shown, a hidden test's only by
   exception type (its messages may hold hidden inputs); no test code is ever shown.
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import copy
import csv
import hashlib
import html
import json
import logging
import multiprocessing
import os
import re
import secrets
import shutil
import sys
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat

from .config import RELEASE_DIR, ROOT, SOURCE_DIR
from .notebooks import cell_grade_id, lessons

STATUSES = ("ok", "timeout", "error", "tampered", "missing")
SANDBOX = Path(__file__).resolve().parent / "sandbox.py"
# Grading runs as if on a TPU by default: a float32 dot at DEFAULT precision is one bf16 pass
# (see emulate_precision.py), so a "fp32 reference" that is exact only on CPU loses its points.
EMULATION = Path(__file__).resolve().parent / "emulate_precision.py"
EMULATION_MODES = ("tpu", "gpu", "none")


def emulation_mode() -> str:
    mode = os.environ.get("COURSE_EMULATE", "tpu").lower() or "none"
    if mode not in EMULATION_MODES:
        raise ValueError(f"COURSE_EMULATE={mode!r}: one of {', '.join(EMULATION_MODES)}")
    return mode
MAX_RESTARTS = 3


@dataclass
class TestResult:
    grade_id: str
    score: float
    max_score: float
    error: str = ""  # what the student may see: never test code, never a hidden test's message
    hidden: bool = False
    doc: str = ""  # the test's docstring (visible in the release)


@dataclass
class Result:
    student: str
    notebook: str
    score: float = 0.0
    max_score: float = 0.0
    status: str = "missing"
    detail: str = ""
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # for the feedback: what did not run, and why
    seconds: float = 0.0
    digest: str = ""  # sha256 of the submission and the lesson source: a rerun skips it if unchanged


# ---------------------------------------------------------------------------------------------
# Finding submissions
# ---------------------------------------------------------------------------------------------

def find_submissions(folder: Path, names: list[str]) -> tuple[dict, list[str]]:
    """{(student, lesson): path} from SUBMISSIONS/<student>/<NN_name>.ipynb or nbgrader's
    submitted/<student>/<NN_name>/<NN_name>.ipynb; plus the files that fit neither."""
    found, unknown = {}, []
    for student_dir in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for path in sorted(student_dir.rglob("*")):
            if path.is_dir() or ".ipynb_checkpoints" in path.parts:
                continue
            rel = path.relative_to(student_dir)
            lesson = path.stem
            flat = len(rel.parts) == 1
            nested = len(rel.parts) == 2 and rel.parts[0] == lesson
            if path.suffix == ".ipynb" and lesson in names and (flat or nested):
                if (student_dir.name, lesson) in found:
                    unknown.append(f"{path.relative_to(folder)} (a second copy of {lesson})")
                else:
                    found[(student_dir.name, lesson)] = path
            else:
                unknown.append(str(path.relative_to(folder)))
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        unknown.append(path.name)
    return found, unknown


def _test_cells(nb) -> dict:
    return {cell_grade_id(c): c for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade")}


def tampering(submitted, released, *older) -> list[str]:
    """Test cells deleted or edited in a submission, compared with the student release (a cell
    equal to its version in any of the ``older`` releases, such as the committed notebooks/ while
    an instructor's fix is not yet released, counts as untouched)."""
    mine, theirs = _test_cells(submitted), _test_cells(released)
    accepted = {gid: {cell.source.strip()} for gid, cell in theirs.items()}
    for nb in older:
        for gid, cell in _test_cells(nb).items():
            accepted.setdefault(gid, set()).add(cell.source.strip())
    problems = [f"deleted {gid}" for gid in theirs if gid not in mine]
    problems += [f"edited {gid}" for gid in theirs
                 if gid in mine and mine[gid].source.strip() not in accepted[gid]]
    return problems


# ---------------------------------------------------------------------------------------------
# Static analysis of the student's code
# ---------------------------------------------------------------------------------------------

# Attribute names with no use in these exercises but every use in an attack on the grader.
SUSPICIOUS_ATTRS = {
    "input_transformers_cleanup", "input_transformers_post", "input_transformer_manager",
    "ast_transformers", "showtraceback", "_showtraceback", "showsyntaxerror", "excepthook",
    "displayhook", "settrace", "setprofile", "_getframe", "f_back", "f_globals", "f_locals",
    "f_code", "f_builtins", "co_consts", "tb_frame", "gi_frame", "cr_frame", "user_ns",
    "user_global_ns", "run_cell", "run_cell_async", "transform_cell", "run_ast_nodes", "run_code",
    "__code__", "__globals__", "__builtins__", "__dict__",
    "__closure__", "__subclasses__", "register_magic_function", "set_custom_exc", "audit",
    "addaudithook", "modules", "meta_path", "path_hooks",
}
SUSPICIOUS_MODULES = {"builtins", "__builtin__", "ctypes", "gc", "inspect", "IPython", "ipykernel",
                      "atexit", "signal", "importlib", "traceback", "sysconfig", "_thread",
                      "threading", "multiprocessing", "subprocess", "pty", "code", "codeop",
                      "unittest", "pytest", "numpy.testing"}
SUSPICIOUS_CALLS = {"globals", "vars", "setattr", "delattr", "exec", "eval", "compile",
                    "__import__", "get_ipython", "breakpoint"}
SAFE_CALLS = {"int", "float", "complex", "bool", "str", "tuple", "list", "dict", "set",
              "frozenset", "range", "bytes", "abs", "min", "max", "len", "round", "pow", "sorted",
              "reversed", "zip", "enumerate"}


def _cell_python(source: str) -> str:
    """A cell's source as plain Python: IPython magics become get_ipython() calls."""
    from IPython.core.inputtransformer2 import TransformerManager
    try:
        return TransformerManager().transform_cell(source)
    except Exception:
        return source


def _root_name(node) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


_NO_CALLS = False  # set while filtering the instructor's demo cells: their computations are skipped


def _simple(node) -> bool:
    """An expression that runs no student code: constants, names, public attributes, containers,
    arithmetic, and calls of public library functions (np.float32(...)) or safe builtins."""
    if node is None:
        return True
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, ast.Attribute):
        return not node.attr.startswith("_") and _simple(node.value)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_simple(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(_simple(k) and _simple(v) for k, v in zip(node.keys, node.values))
    if isinstance(node, ast.UnaryOp):
        return _simple(node.operand)
    if isinstance(node, ast.BinOp):
        return _simple(node.left) and _simple(node.right)
    if isinstance(node, ast.BoolOp):
        return all(_simple(v) for v in node.values)
    if isinstance(node, ast.Compare):
        return _simple(node.left) and all(_simple(c) for c in node.comparators)
    if isinstance(node, ast.IfExp):
        return _simple(node.test) and _simple(node.body) and _simple(node.orelse)
    if isinstance(node, ast.Subscript):
        return _simple(node.value) and _simple(node.slice)
    if isinstance(node, ast.Slice):
        return _simple(node.lower) and _simple(node.upper) and _simple(node.step)
    if isinstance(node, ast.JoinedStr):
        return all(_simple(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return _simple(node.value)
    if isinstance(node, ast.Call):
        if _NO_CALLS:
            return False
        func_ok = (isinstance(node.func, ast.Name) and node.func.id in SAFE_CALLS) or (
            isinstance(node.func, ast.Attribute) and _simple(node.func)
            and isinstance(_root_name(node.func), str))
        return func_ok and all(_simple(a) for a in node.args) and all(_simple(k.value) for k in node.keywords)
    return False


def _keep(stmt) -> ast.stmt | None:
    """The statement if it only defines things, else None (it will not run when grading)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
        return stmt
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = stmt.args
        parts = stmt.decorator_list + a.defaults + [d for d in a.kw_defaults if d is not None]
        parts += [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs if x.annotation]
        parts += [stmt.returns] if stmt.returns else []
        return stmt if all(_simple(p) for p in parts) else None
    if isinstance(stmt, ast.ClassDef):
        if not all(_simple(p) for p in stmt.decorator_list + stmt.bases + [k.value for k in stmt.keywords]):
            return None
        stmt = copy.copy(stmt)
        stmt.body = [s for s in (_keep(s) for s in stmt.body) if s is not None] or [ast.Pass()]
        return stmt
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        names_only = all(isinstance(t, ast.Name) or (isinstance(t, ast.Tuple) and all(
            isinstance(e, ast.Name) for e in t.elts)) for t in targets)
        return stmt if names_only and _simple(stmt.value) else None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return stmt  # a docstring
    if isinstance(stmt, ast.Try):
        stmt = copy.copy(stmt)
        stmt.body = [s for s in (_keep(s) for s in stmt.body) if s is not None] or [ast.Pass()]
        handlers = []
        for h in stmt.handlers:
            if not _simple(h.type):
                return None
            h = copy.copy(h)
            h.body = [s for s in (_keep(s) for s in h.body) if s is not None] or [ast.Pass()]
            handlers.append(h)
        stmt.handlers = handlers
        stmt.orelse = [s for s in (_keep(s) for s in stmt.orelse) if s is not None]
        stmt.finalbody = [s for s in (_keep(s) for s in stmt.finalbody) if s is not None]
        return stmt
    return None


def definitions_only(source: str, protected: "Protected | None" = None) -> tuple[str, int, list[str]]:
    """(code keeping only imports, defs, classes and simple constants, number of statements
    dropped, names the student may not rebind). With ``protected``, statements rebinding a builtin
    or a name the instructor's cells define (helpers the tests use, ``_ref_`` references) are
    dropped too, unless they are the instructor's own import. Code that does not parse is returned
    as it is: it defines nothing and its SyntaxError is what the student should see."""
    code = _cell_python(source)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, 0, []
    kept, refused = [], []
    for stmt in tree.body:
        stmt = _keep(stmt)
        if stmt is None:
            continue
        if protected is not None:
            clash = [n for n, st in _bound_names(ast.Module(body=[stmt], type_ignores=[])).items()
                     if protected.refuses(n, st)]
            if clash:
                refused += clash
                continue
        kept.append(stmt)
    dropped = len(tree.body) - len(kept)
    return (ast.unparse(ast.Module(body=kept, type_ignores=[])) if kept else ""), dropped, refused


class Protected:
    """Names the student's code may not rebind: builtins and whatever the instructor's cells
    bind (setup imports and helpers, demo helpers, test references), except by the same import."""

    def __init__(self, instructor_sources: list[str]):
        self.bound, self.imports = set(), set()
        for src in instructor_sources:
            try:
                tree = ast.parse(_cell_python(src))
            except SyntaxError:
                continue
            for name, stmt in _bound_names(tree).items():
                self.bound.add(name)
                key = _import_key(stmt, name)
                if key:
                    self.imports.add((name, key))

    @property
    def modules(self) -> set[str]:
        return {n for n, _ in self.imports}

    def refuses(self, name: str, stmt) -> bool:
        if not (name in self.bound or hasattr(builtins, name) or name.startswith("_ref_")):
            return False
        key = _import_key(stmt, name)
        return key is None or (name, key) not in self.imports


def _bound_names(tree) -> dict[str, ast.stmt]:
    """Top-level names bound by a module, with the statement binding each."""
    bound = {}
    for stmt in tree.body:
        names = []
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [stmt.name]
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in stmt.names]
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                names += [n.id for n in ast.walk(t) if isinstance(n, ast.Name)]
        for n in names:
            bound[n] = stmt
    return bound


def _import_key(stmt, name):
    if isinstance(stmt, ast.Import):
        return next((("import", a.name) for a in stmt.names if (a.asname or a.name).split(".")[0] == name), None)
    if isinstance(stmt, ast.ImportFrom):
        return next((("from", stmt.module, a.name) for a in stmt.names if (a.asname or a.name) == name), None)
    return None


def static_attacks(student_sources: list[str], protected: Protected) -> list[str]:
    """Attacks on the checking machinery visible in the student's code (empty when none)."""
    module_names = protected.modules | {"sys", "os", "np", "jnp", "jax", "math", "numpy"}
    found = []
    for src in student_sources:
        try:
            tree = ast.parse(_cell_python(src))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in SUSPICIOUS_ATTRS:
                found.append(f"uses .{node.attr}")
            elif isinstance(node, ast.Name) and node.id in ("__builtins__", "__import__"):
                found.append(f"uses {node.id}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SUSPICIOUS_CALLS:
                found.append(f"calls {node.func.id}()")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.module in ("numpy", "sys", "os", "jax"):
                    mods += [f"{node.module}.{a.name}" for a in node.names]
                for m in mods:
                    if m in SUSPICIOUS_MODULES or m.split(".")[0] in SUSPICIOUS_MODULES:
                        found.append(f"imports {m}")
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = (node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target])
                for t in targets:
                    for sub in ast.walk(t):
                        if isinstance(sub, ast.Attribute) and _root_name(sub) in module_names:
                            found.append(f"assigns {ast.unparse(sub)}")
    return sorted(set(found))


# ---------------------------------------------------------------------------------------------
# The grading plan: what runs in the kernel, in order
# ---------------------------------------------------------------------------------------------

FINGERPRINT = r'''
def __course_fingerprint():
    import sys, threading
    fp = {}
    ip = get_ipython()
    for m in ("builtins", "numpy", "numpy.testing", "math", "jax", "jax.numpy", "jax.lax", "ml_dtypes"):
        mod = sys.modules.get(m)
        if mod is None:
            continue
        for k, v in list(vars(mod).items()):
            if callable(v) and not isinstance(v, type(sys)) and k not in ("input", "raw_input"):
                fp[m + "." + k] = id(v)
    for k, v in list(ip.user_ns.items()):
        if not k.startswith("_") and k not in ("In", "Out", "exit", "quit"):
            fp["user_ns." + k] = id(v)
    fp["user_ns.__builtins__"] = id(ip.user_ns.get("__builtins__"))
    for name in ("input_transformers_cleanup", "input_transformers_post", "ast_transformers"):
        fp["shell." + name] = [id(t) for t in getattr(ip, name)]
    tm = ip.input_transformer_manager
    for name in ("cleanup_transforms", "line_transforms", "token_transformers"):
        fp["transformer_manager." + name] = [id(t) for t in getattr(tm, name, [])]
    fp["shell.input_transformer_manager"] = id(tm)
    for name in ("showtraceback", "_showtraceback", "showsyntaxerror", "run_cell", "run_cell_async",
                 "run_code", "run_ast_nodes", "transform_cell", "transform_ast", "ex", "system",
                 "run_line_magic", "run_cell_magic", "get_exception_only", "CustomTB"):
        fp["shell_class." + name] = id(getattr(type(ip), name, None))
        fp["shell_instance." + name] = name in vars(ip)
    fp["shell.custom_exceptions"] = repr(ip.custom_exceptions)
    trusted = ("IPython.", "ipykernel.", "matplotlib", "matplotlib_inline.", "ipywidgets.")
    fp["shell.events"] = sorted(  # pyplot registers its own callbacks lazily: only others count
        e + ":" + str(getattr(c, "__module__", "?")) + "." + str(getattr(c, "__qualname__", "?"))
        for e, cbs in ip.events.callbacks.items() for c in cbs
        if not str(getattr(c, "__module__", "")).startswith(trusted))
    def ident(f):  # a bound method is a fresh object each time it is stored: compare its parts
        return [id(getattr(f, "__func__", f)), id(getattr(f, "__self__", None))]
    fp["sys.excepthook"] = ident(sys.excepthook)
    fp["sys.displayhook"] = ident(sys.displayhook)
    fp["sys.gettrace"] = id(sys.gettrace())
    fp["sys.getprofile"] = id(sys.getprofile())
    fp["threading.gettrace"] = id(threading.gettrace() if hasattr(threading, "gettrace") else None)
    fp["sys.stdout"] = id(type(sys.stdout))
    fp["python_threads"] = sorted(t.name for t in threading.enumerate() if not t.daemon)
    return fp
'''


def _marker_code(nonce: str) -> str:
    return (FINGERPRINT + "import json as __course_json\n"
            f"print('\\n<<COURSE-GRADED {nonce} ' + __course_json.dumps(__course_fingerprint()) + '>>')\n"
            "del __course_fingerprint, __course_json\n")


MARKER = re.compile(r"<<COURSE-GRADED (\w+) (.*?)>>\s*$", re.S)


@dataclass
class Step:
    kind: str  # setup | baseline | code | test
    source: str
    grade_id: str = ""
    points: float = 0.0
    hidden: bool = False
    doc: str = ""
    nonce: str = ""


def _docstring(source: str) -> str:
    try:
        tree = ast.parse(source)
        return (ast.get_docstring(tree) or "").strip().splitlines()[0] if ast.get_docstring(tree) else ""
    except SyntaxError:
        m = re.match(r'\s*"""(.*?)(?:"""|\n)', source, re.S)
        return m.group(1).strip() if m else ""


def build_plan(source_nb, release_nb, submitted_nb, committed_nb=None) -> tuple[list[Step], list[str], list[str], list[str]]:
    """(steps, test-cell edits, static attacks, notes for the student)."""
    edits = tampering(submitted_nb, release_nb, *([committed_nb] if committed_nb is not None else []))
    # Cells the student added: code cells that are neither graded nor one of the release's cells.
    # A release cell is recognised by its text or by its cell id, so a demo cell from an older
    # release (the instructor fixed it since) is still the instructor's: it does not run, the
    # current source's version does.
    releases = [release_nb] + ([committed_nb] if committed_nb is not None else [])
    release_code = {c.source.strip() for nb in releases for c in nb.cells if c.cell_type == "code"}
    release_ids = {c.get("id") for nb in releases for c in nb.cells if c.get("id")}
    answers, extras, pending = {}, {}, []
    for cell in submitted_nb.cells:
        if cell.get("cell_type") != "code":
            continue
        gid = cell_grade_id(cell)
        if gid.startswith("answer_") and gid not in answers:
            answers[gid] = cell.source
            extras[gid], pending = pending, []
        elif (not gid and cell.source.strip() and cell.source.strip() not in release_code
              and cell.get("id") not in release_ids):
            pending.append(cell.source)
    answer_ids = [cell_grade_id(c) for c in source_nb.cells if cell_grade_id(c).startswith("answer_")]
    if pending and answer_ids:  # cells added after the last answer: define them with it
        extras.setdefault(answer_ids[-1], []).extend(pending)
    release_answers = {cell_grade_id(c): c.source for c in release_nb.cells if cell_grade_id(c).startswith("answer_")}

    student_sources = list(answers.values()) + [s for v in extras.values() for s in v]
    instructor_sources = [c.source for c in source_nb.cells if c.cell_type == "code"
                          and not cell_grade_id(c).startswith("answer_")]
    protected = Protected(instructor_sources)
    attacks = static_attacks(student_sources, protected)

    steps, notes, dropped, refused = [], [], 0, []
    code_cells = [c for c in source_nb.cells if c.cell_type == "code"]
    setup = code_cells[0] if code_cells else None
    for cell in source_nb.cells:
        if cell.cell_type != "code":
            continue
        gid = cell_grade_id(cell)
        meta = cell.metadata.get("nbgrader", {})
        if cell is setup:
            steps.append(Step("setup", cell.source))
            steps.append(Step("baseline", ""))
        elif meta.get("grade") and not meta.get("solution"):
            hidden = "### BEGIN HIDDEN TESTS" in cell.source
            steps.append(Step("test", cell.source, gid, float(meta.get("points", 0) or 0), hidden,
                              _docstring(cell.source), secrets.token_hex(16)))
        elif gid.startswith("answer_") or meta.get("solution"):
            for src in extras.get(gid, []):
                code, n, r = definitions_only(src, protected)
                dropped, refused = dropped + n, refused + r
                if code.strip():
                    steps.append(Step("code", code))
            if gid not in answers:
                notes.append(f"answer cell {gid} is missing: graded as the unanswered stub")
            code, n, r = definitions_only(answers.get(gid, release_answers.get(gid, "")), protected)
            dropped, refused = dropped + n, refused + r
            if code.strip():
                steps.append(Step("code", code))
        else:  # an instructor cell: its definitions only, none of its demo computations
            global _NO_CALLS
            _NO_CALLS = True
            try:
                code, _, _ = definitions_only(cell.source)
            finally:
                _NO_CALLS = False
            if code.strip():
                steps.append(Step("code", code))
    steps.append(Step("final", "", nonce=secrets.token_hex(16)))  # the integrity check after all tests
    if refused:
        notes.append("not run when grading, since they would replace a builtin or a name the notebook "
                     "itself defines (tests rely on those): " + ", ".join(sorted(set(refused))))
    if dropped:
        notes.append(f"{dropped} top-level statement(s) in your cells did not run when grading: only "
                     "imports, def/class statements and simple constants do (the exercises are functions)")
    return steps, edits, attacks, notes


# ---------------------------------------------------------------------------------------------
# Running a plan in a sandboxed kernel (in a worker process)
# ---------------------------------------------------------------------------------------------

def _kernel_env(job_dir: Path, workdir: Path, memory: int, deny: list[str]) -> dict:
    keep = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "JAX_PLATFORMS", "XLA_FLAGS", "CUDA_VISIBLE_DEVICES",
            "TPU_VISIBLE_CHIPS", "LD_LIBRARY_PATH", "SYSTEMROOT", "COURSE_EMULATE")
    env = {k: v for k, v in os.environ.items() if k in keep}
    (workdir / "tmp").mkdir(exist_ok=True)
    mode = emulation_mode()
    env["COURSE_EMULATE"] = mode
    if mode != "none":  # an IPython start-up file: runs before any cell, student code included
        startup = workdir / ".ipython" / "profile_default" / "startup"
        startup.mkdir(parents=True, exist_ok=True)
        shutil.copy(EMULATION, startup / "00-emulate-precision.py")
    env.update(HOME=str(workdir), TMPDIR=str(workdir / "tmp"), MPLCONFIGDIR=str(workdir / ".matplotlib"),
               IPYTHONDIR=str(workdir / ".ipython"), MPLBACKEND="agg", PYTHONDONTWRITEBYTECODE="1",
               COURSE_SANDBOX_WORKDIR=str(workdir), COURSE_SANDBOX_MEMORY=str(memory),
               COURSE_SANDBOX_DENY=os.pathsep.join(deny))
    return env


def _outputs_error(outputs) -> tuple[str, str] | None:
    for out in outputs:
        if out.get("output_type") == "error":
            return out.get("ename", ""), str(out.get("evalue", ""))
    return None


def _stdout(outputs) -> str:
    return "".join(o.get("text", "") for o in outputs
                   if o.get("output_type") == "stream" and o.get("name") == "stdout")


def run_steps(steps: list[Step], workdir: Path, job_dir: Path, cell_timeout: float,
              notebook_timeout: float, memory: int, deny: list[str]) -> list[dict]:
    """Execute the steps, restarting a dead or hung kernel; one record per step:
    {state: ok|error|timeout|died|skipped, outputs, baseline} (baseline: for test steps, the
    fingerprint taken in the same kernel before any student code ran)."""
    from jupyter_client import AsyncKernelManager
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_core.utils import run_sync
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    def code(s: Step) -> str:
        if s.kind == "baseline":
            return _marker_code("baseline")
        if s.kind == "final":
            return _marker_code(s.nonce)
        return s.source + ("\n" + _marker_code(s.nonce) if s.kind == "test" else "")

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code(s)) for s in steps])
    records = [{"state": "skipped", "outputs": [], "baseline": None} for _ in steps]
    deadline = time.monotonic() + notebook_timeout
    env = _kernel_env(job_dir, workdir, memory, deny)
    i, restarts = 0, 0
    while i < len(steps) and restarts <= MAX_RESTARTS:
        km = AsyncKernelManager(kernel_name="course-sandbox")
        km._kernel_spec = KernelSpec(argv=[sys.executable, str(SANDBOX), "{connection_file}",
                                           "--HistoryManager.enabled=False"],
                                     display_name="graded", language="python", env={})
        km.connection_file = str(job_dir / f"kernel-{restarts}.json")
        client = NotebookClient(nb, km=km, timeout=int(cell_timeout), allow_errors=True,
                                interrupt_on_timeout=False, startup_timeout=120,
                                resources={"metadata": {"path": str(workdir)}})
        replies: dict = {}
        client.on_cell_executed = lambda cell, cell_index, execute_reply: replies.__setitem__(
            cell_index, execute_reply.get("content", {}).get("status"))
        baseline = None
        try:
            log = open(job_dir / "kernel.log", "ab")
            with contextlib.closing(log), client.setup_kernel(cwd=str(workdir), env=env, stdout=log, stderr=log):
                if restarts:  # replay the definitions made before the cell that killed the kernel
                    for j in range(i):
                        if steps[j].kind in ("setup", "baseline", "code") and records[j]["state"] not in ("timeout", "died"):
                            cell = copy.deepcopy(nb.cells[j])
                            client.execute_cell(cell, j)
                            if steps[j].kind == "baseline":
                                baseline = _parse_marker(_stdout(cell.outputs), "baseline")
                while i < len(steps):
                    left = deadline - time.monotonic()
                    if left <= 1:
                        for j in range(i, len(steps)):
                            records[j]["state"] = "timeout"
                        i = len(steps)
                        break
                    client.timeout = int(max(1, min(cell_timeout, left)))
                    cell = nb.cells[i]
                    records[i]["t0"] = time.monotonic()
                    try:
                        client.execute_cell(cell, i)
                    except CellTimeoutError:
                        records[i].update(state="timeout", outputs=list(cell.get("outputs", [])), baseline=baseline)
                        i += 1
                        raise
                    except DeadKernelError:
                        records[i].update(state="died", outputs=list(cell.get("outputs", [])), baseline=baseline)
                        i += 1
                        raise
                    err = _outputs_error(cell.outputs)
                    if not err and replies.get(i) != "ok":  # an error whose traceback was hidden
                        cell.outputs.append({"output_type": "error", "ename": "Error",
                                             "evalue": f"execution status {replies.get(i)!r}"})
                        err = True
                    records[i].update(state="error" if err else "ok", outputs=list(cell.outputs), baseline=baseline,
                                      seconds=time.monotonic() - records[i]["t0"])
                    if steps[i].kind == "baseline":
                        baseline = _parse_marker(_stdout(cell.outputs), "baseline")
                    i += 1
        except (CellTimeoutError, DeadKernelError):
            restarts += 1
        except Exception as exc:  # the kernel never started, or the protocol broke
            records[min(i, len(steps) - 1)].update(state="died", outputs=[
                {"output_type": "error", "ename": type(exc).__name__, "evalue": str(exc)[:300]}])
            i += 1
            restarts += 1
        finally:
            with contextlib.suppress(Exception):
                run_sync(km.shutdown_kernel)(now=True)
    return records


def _parse_marker(text: str, nonce: str):
    m = MARKER.search(text)
    if not m or m.group(1) != nonce:
        return None
    try:
        return json.loads(m.group(2))
    except ValueError:
        return None


def fingerprint_changes(base: dict, now: dict) -> list[str]:
    """Keys of the checking machinery that differ from the baseline (new names are fine)."""
    changed = []
    for key, value in base.items():
        if key not in now:
            changed.append(f"{key} deleted")
        elif now[key] != value:
            changed.append(f"{key} changed")
    return changed


def _visible_error(ename: str, evalue: str, hidden: bool) -> str:
    first = (evalue or "").strip().splitlines()[0][:300] if (evalue or "").strip() else ""
    if hidden and ename in ("AssertionError", ""):
        return f"{ename or 'failed'} (the hidden test's details are not shown)"
    return f"{ename}: {first}" if first else ename


# Worker-process globals, set by _init_worker: {lesson: (source_json, release_json)}
_LESSONS: dict = {}


def _init_worker(lessons_json: dict) -> None:
    logging.getLogger("traitlets").setLevel(logging.CRITICAL)
    _LESSONS.update(lessons_json)


def grade_one(student: str, lesson: str, submission: str, cell_timeout: float = 120,
              notebook_timeout: float = 900, memory: int = 4 * 2**30, deny: list[str] | None = None,
              digest: str = "") -> Result:
    """Grade one notebook (in a worker process)."""
    t0 = time.perf_counter()
    source_json, release_json, committed_json = _LESSONS[lesson]
    source_nb = nbformat.reads(source_json, as_version=4)
    release_nb = nbformat.reads(release_json, as_version=4)
    committed_nb = nbformat.reads(committed_json, as_version=4) if committed_json else None
    result = Result(student, lesson, digest=digest)
    tests_meta = [(cell_grade_id(c), float(c.metadata["nbgrader"].get("points", 0) or 0),
                   "### BEGIN HIDDEN TESTS" in c.source, _docstring(c.source))
                  for c in source_nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade")]
    result.max_score = sum(p for _, p, _, _ in tests_meta)
    try:
        with open(submission, encoding="utf-8") as f:
            raw = f.read()
        submitted = nbformat.reads(raw, as_version=4)
        if not isinstance(submitted.get("cells"), list):
            raise ValueError("no cells")
    except Exception as exc:  # unreadable JSON, wrong format, not UTF-8...
        result.status = "error"
        result.detail = f"unreadable notebook: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
        result.tests = [TestResult(g, 0.0, p, "not run: the notebook could not be read", h, d)
                        for g, p, h, d in tests_meta]
        result.seconds = time.perf_counter() - t0
        return result

    steps, edits, attacks, notes = build_plan(source_nb, release_nb, submitted, committed_nb)
    result.notes = notes
    job_dir = Path(tempfile.mkdtemp(prefix="course-grade-"))
    try:
        workdir = job_dir / "work"
        workdir.mkdir()
        shutil.copy(submission, workdir / f"{lesson}.ipynb")
        records = run_steps(steps, workdir, job_dir, cell_timeout, notebook_timeout, memory, deny or [])
    finally:
        shutil.rmtree(job_dir, ignore_errors=True)

    tampered_runtime, timed_out, died = [], [], []
    for step, rec in zip(steps, records):
        if step.kind == "final":  # after every test: the machinery must be as it was before
            if rec["state"] in ("ok", "error", "died"):
                proof = _parse_marker(_stdout(rec["outputs"]), step.nonce) if rec["state"] == "ok" else None
                if proof is None or rec["baseline"] is None:
                    tampered_runtime.append("the final integrity check did not run")
                elif fingerprint_changes(rec["baseline"], proof):
                    tampered_runtime.append("after the tests: " + ", ".join(fingerprint_changes(rec["baseline"], proof)[:4]))
            continue
        if step.kind == "setup" and rec["state"] != "ok":
            notes.append("the instructor's setup cell failed when grading: " + (
                "{}: {}".format(*_outputs_error(rec["outputs"])) if _outputs_error(rec["outputs"]) else rec["state"]))
        if step.kind != "test":
            if rec["state"] == "timeout":
                timed_out.append("a definition cell")
            elif rec["state"] == "died":
                died.append("a definition cell")
            continue
        score, error = 0.0, ""
        if rec["state"] == "ok":
            proof = _parse_marker(_stdout(rec["outputs"]), step.nonce)
            if proof is None:
                error = "no proof that the test ran (its code was skipped or rewritten)"
                tampered_runtime.append(f"{step.grade_id}: no proof of execution")
            elif rec["baseline"] is None:
                error = "no baseline fingerprint"
                tampered_runtime.append(f"{step.grade_id}: no baseline fingerprint")
            else:
                changes = fingerprint_changes(rec["baseline"], proof)
                if changes:
                    error = "the checking machinery was modified"
                    tampered_runtime.append(f"{step.grade_id}: " + ", ".join(changes[:4]))
                else:
                    score = step.points
        elif rec["state"] == "error":
            ename, evalue = _outputs_error(rec["outputs"])
            error = _visible_error(ename, evalue, step.hidden)
        elif rec["state"] == "timeout":
            error = f"timed out (over {cell_timeout:g} s per cell or the notebook's time limit)"
            timed_out.append(step.grade_id)
        elif rec["state"] == "died":
            err = _outputs_error(rec["outputs"])
            error = "the kernel died while this test ran" + (f" ({err[0]})" if err and err[0] != "DeadKernelError" else "")
            died.append(step.grade_id)
        else:
            error = "not run (the kernel could not be restarted)"
            died.append(step.grade_id)
        result.tests.append(TestResult(step.grade_id, score, step.points, error, step.hidden, step.doc))

    if attacks or tampered_runtime:
        for t in result.tests:
            t.score = 0.0
            t.error = t.error or "no points: the checking machinery was attacked"
        result.status = "tampered"
        result.detail = "checking machinery attacked, no points: " + "; ".join((attacks + tampered_runtime)[:5])
        if edits:
            result.detail += "; also " + ", ".join(edits)
    elif edits:
        result.status = "tampered"
        result.detail = ", ".join(edits) + " (originals restored and graded)"
    elif died:
        result.status = "error"
        result.detail = "kernel died in " + ", ".join(died[:3]) + " (earlier tests kept their points)"
    elif timed_out:
        result.status = "timeout"
        result.detail = "timed out in " + ", ".join(timed_out[:3]) + " (the other cells were graded)"
    else:
        result.status = "ok"
    result.score = float(sum(t.score for t in result.tests))
    result.seconds = time.perf_counter() - t0
    return result


def _grade_job(job: dict) -> dict:
    return asdict(grade_one(**job))


def result_from_dict(d: dict) -> Result:
    d = dict(d)
    d["tests"] = [TestResult(**t) for t in d.get("tests", [])]
    return Result(**d)


# ---------------------------------------------------------------------------------------------
# The course template (source, release, gradebook) and the gradebook writer (parent process)
# ---------------------------------------------------------------------------------------------

def load_lessons(root: Path, names: list[str], db_path: Path) -> dict:
    """{lesson: (source JSON, release JSON, committed release JSON or "")}: the release made by
    nbgrader's generate_assignment, which also records the lessons' grade cells in the gradebook
    at ``db_path``, and the committed notebooks/ (what students downloaded). Nothing is left on
    disk but the gradebook."""
    from .release import generate, prepare_course
    with tempfile.TemporaryDirectory(prefix="course-template-") as tmp:
        course = Path(tmp)
        prepare_course(course, root, names)
        generate(course, names, db_path)
        committed = {n: root / RELEASE_DIR / n / f"{n}.ipynb" for n in names}
        return {n: (nbformat.writes(nbformat.read(str(course / SOURCE_DIR / n / f"{n}.ipynb"), as_version=4)),
                    nbformat.writes(nbformat.read(str(course / RELEASE_DIR / n / f"{n}.ipynb"), as_version=4)),
                    committed[n].read_text() if committed[n].exists() else "")
                for n in names}


class GradebookWriter:
    """The only writer of OUT/gradebook.db: nbgrader's Gradebook API, in the parent process."""

    def __init__(self, db_path: Path):
        import warnings
        from nbgrader.api import Gradebook
        warnings.filterwarnings("ignore", module="nbgrader")  # SQLAlchemy autoflush chatter
        warnings.filterwarnings("ignore", message=".*not in session.*")
        self.gb = Gradebook(f"sqlite:///{db_path}")

    def record(self, r: Result) -> None:
        from nbgrader.api import MissingEntry
        if r.status == "missing":
            return
        try:
            self.gb.find_student(r.student)
        except MissingEntry:
            self.gb.add_student(r.student)
        self.gb.update_or_create_submission(r.notebook, r.student)
        nb = self.gb.find_submission_notebook(r.notebook, r.notebook, r.student)
        scores = {t.grade_id: t.score for t in r.tests}
        for g in nb.grades:
            g.auto_score = float(scores.get(g.name, 0.0))
            g.manual_score = None
        nb.flagged = r.status != "ok"
        self.gb.db.commit()

    def close(self) -> None:
        self.gb.close()


# ---------------------------------------------------------------------------------------------
# Outputs
# ---------------------------------------------------------------------------------------------

def feedback_html(r: Result) -> str:
    rows = "".join(
        f"<tr class={'pass' if t.score >= t.max_score else 'fail'}><td>{html.escape(t.grade_id)}"
        f"<br><small>{html.escape(t.doc)}</small></td>"
        f"<td>{t.score:g} / {t.max_score:g}</td><td>{'passed' if t.score >= t.max_score else 'failed'}</td>"
        f"<td><code>{html.escape(t.error)}</code></td></tr>" for t in r.tests)
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in r.notes)
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(r.notebook)}: {html.escape(r.student)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}td,th{{padding:.3em .8em;text-align:left;vertical-align:top}}
.pass{{background:#e8f5e9}}.fail{{background:#ffebee}}small{{color:#555}}</style></head><body>
<h1>{html.escape(r.notebook)}</h1><p>Student: <b>{html.escape(r.student)}</b>. Score: <b>{r.score:g} / {r.max_score:g}</b>.
Status: <b>{html.escape(r.status)}</b>{(' (' + html.escape(r.detail) + ')') if r.detail else ''}.</p>
{('<ul>' + notes + '</ul>') if notes else ''}
<table><tr><th>check</th><th>points</th><th>result</th><th>message</th></tr>{rows}</table>
<p>Hidden tests run fresh inputs and edge cases; their code and their messages are not shown.</p></body></html>"""


def write_outputs(out: Path, results: list[Result]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    results = sorted(results, key=lambda r: (r.student, r.notebook))
    with open(out / "grades.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "notebook", "score", "max_score", "status"])
        for r in results:
            w.writerow([r.student, r.notebook, f"{r.score:g}", f"{r.max_score:g}", r.status])
    with open(out / "tests.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "notebook", "grade_id", "score", "max_score"])
        for r in results:
            for t in r.tests:
                w.writerow([r.student, r.notebook, t.grade_id, f"{t.score:g}", f"{t.max_score:g}"])
    for r in results:
        if r.status != "missing":
            path = out / "feedback" / r.student / f"{r.notebook}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(feedback_html(r))
    (out / "results.json").write_text(json.dumps([asdict(r) for r in results], indent=1))


def _digest(path: Path, source_json: str) -> str:
    h = hashlib.sha256(path.read_bytes())
    h.update(source_json.encode())
    return h.hexdigest()


def _load_journal(path: Path) -> dict:
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            with contextlib.suppress(Exception):
                r = result_from_dict(json.loads(line))
                done[(r.student, r.notebook)] = r
    return done


class Progress:
    def __init__(self, total: int, quiet: bool):
        self.total, self.done, self.quiet, self.t0 = total, 0, quiet, time.perf_counter()
        self.tty = sys.stderr.isatty()

    def update(self, r: Result, skipped: bool = False) -> None:
        self.done += 1
        if self.quiet:
            return
        el = time.perf_counter() - self.t0
        eta = el / self.done * (self.total - self.done) if self.done else 0
        bar = "#" * int(20 * self.done / max(self.total, 1))
        line = (f"[{bar:<20}] {self.done}/{self.total} {r.student}/{r.notebook}: "
                f"{r.score:g}/{r.max_score:g} {r.status}{' (already graded)' if skipped else ''}"
                f"  {el:.0f} s, ~{eta:.0f} s left")
        print(line, file=sys.stderr, flush=True)


def grade(submissions: Path, out: Path, jobs: int | None = None, timeout: float = 120,
          root: Path = ROOT, quiet: bool = False, names: list[str] | None = None,
          force: bool = False, notebook_timeout: float = 900, memory_gb: float = 4.0,
          emulate: str | None = None) -> list[Result]:
    """Grade every notebook of every student; return one Result per student and lesson.

    ``emulate``: the matmul precision kernels grade under, "tpu" (the default, also taken from
    COURSE_EMULATE), "gpu" or "none" (the host's own: on CPU, exact f32)."""
    if emulate is not None:
        os.environ["COURSE_EMULATE"] = emulate  # read by every kernel this run starts
    emulation_mode()  # fail early on a bad value
    names = names or lessons(root)
    submissions, out = Path(submissions).resolve(), Path(out).resolve()
    found, unknown = find_submissions(submissions, names)
    students = sorted({s for s, _ in found} | {p.name for p in submissions.iterdir()
                                               if p.is_dir() and not p.name.startswith(".")})
    for path in unknown:
        print(f"note: ignored {path} (not SUBMISSIONS/<student>/<NN_name>.ipynb)", file=sys.stderr)
    out.mkdir(parents=True, exist_ok=True)
    logging.getLogger("traitlets").setLevel(logging.CRITICAL)
    if not quiet:
        from .sandbox import landlock_abi
        abi = landlock_abi()
        print(f"sandbox: Landlock ABI {abi}: kernels see only their own folder and the Python installation"
              if abi else "WARNING: no Landlock on this system: kernels can read any file this user can "
              "(see docs/GRADING.md: run the grader in a container for hostile classes)", file=sys.stderr)
    lessons_json = load_lessons(root, names, out / "gradebook.db")
    journal_path = out / "journal.jsonl"
    if force and journal_path.exists():
        journal_path.unlink()
    journal = _load_journal(journal_path)

    results = {(s, n): Result(s, n, status="missing") for s in students for n in names if (s, n) not in found}
    todo = []
    progress = Progress(len(found), quiet)
    writer = GradebookWriter(out / "gradebook.db")
    deny = [str(root), str(submissions), str(out)]
    try:
        for (s, n), p in sorted(found.items()):
            digest = _digest(p, lessons_json[n][0]) + ":" + emulation_mode()
            prev = journal.get((s, n))
            if prev is not None and prev.digest == digest:
                results[(s, n)] = prev
                writer.record(prev)
                progress.update(prev, skipped=True)
            else:
                todo.append(dict(student=s, lesson=n, submission=str(p), cell_timeout=timeout,
                                 notebook_timeout=notebook_timeout, memory=int(memory_gb * 2**30),
                                 deny=deny, digest=digest))
        jobs = max(1, jobs or os.cpu_count() or 1)
        interrupted = False
        if todo:
            ctx = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=ctx,
                                       initializer=_init_worker, initargs=(lessons_json,))
            futures = {pool.submit(_grade_job, job): job for job in todo}
            try:
                pending = set(futures)
                with open(journal_path, "a") as journal_file:
                    while pending:
                        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for fut in finished:
                            job = futures[fut]
                            try:
                                r = result_from_dict(fut.result())
                            except Exception as exc:  # a worker died: never a silent zero
                                r = Result(job["student"], job["lesson"], status="error",
                                           max_score=_max_score(lessons_json[job["lesson"]][0]),
                                           detail=f"grader crashed: {type(exc).__name__}: {exc}"[:300],
                                           digest="")
                            results[(r.student, r.notebook)] = r
                            journal_file.write(json.dumps(asdict(r)) + "\n")
                            journal_file.flush()
                            os.fsync(journal_file.fileno())
                            writer.record(r)
                            progress.update(r)
            except KeyboardInterrupt:
                interrupted = True
                print("\nInterrupted: finished grades are kept in the gradebook and the journal; "
                      "rerun the same command to resume.", file=sys.stderr)
                pool.shutdown(wait=False, cancel_futures=True)
                raise
            finally:
                if not interrupted:
                    pool.shutdown(wait=True)
    finally:
        writer.close()
        for (s, n), r in results.items():
            if r.status == "missing" or not r.max_score:
                r.max_score = r.max_score or _max_score(lessons_json[n][0])
        write_outputs(out, list(results.values()))
    return sorted(results.values(), key=lambda r: (r.student, r.notebook))


def _max_score(source_json: str) -> float:
    nb = nbformat.reads(source_json, as_version=4)
    return float(sum(c.metadata["nbgrader"].get("points", 0) or 0 for c in nb.cells
                     if c.get("metadata", {}).get("nbgrader", {}).get("grade")))


def print_table(results: list[Result]) -> None:
    print(f"{'student':<16} {'notebook':<26} {'score':>11}  status")
    for r in results:
        print(f"{r.student:<16} {r.notebook:<26} {r.score:>5g} / {r.max_score:<4g} {r.status}"
              + (f"  ({r.detail})" if r.detail else ""))
    counts = {s: sum(r.status == s for r in results) for s in STATUSES}
    print("  ".join(f"{s}: {c}" for s, c in counts.items() if c))
