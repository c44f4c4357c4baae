"""A plain in-process notebook runner: each code cell exec'd in one namespace dict, as a kernel
would, with no Jupyter at all (no nbformat, nbclient, ipykernel, sockets).

For machines where a kernel cannot start (autograder/chip/hardware.py on a TPU VM with no loopback TCP)
and where opening the accelerator costs seconds per process: many notebooks run one after the
other in one process, each in a fresh namespace, its own temporary working folder, and with the
process-wide state a notebook may change (NumPy's error handling, warning filters, environment
variables, matplotlib's figures and rc) put back afterwards. Only stdlib at import.

What differs from a kernel, and how it is handled:
- ``get_ipython`` does not exist (the notebooks never need it); lines that start with ``%`` or
  ``!`` (IPython magics, shell escapes: Colab-style ``!pip install``) become ``pass``; a cell
  magic ``%%time``/``%%capture`` runs its body, any other ``%%`` cell is skipped and reported;
- ``display`` is IPython's where IPython is importable, else a print of the object's repr;
- matplotlib uses the Agg backend and, as the inline backend does, every figure is closed after
  its cell (``plt.show()`` shows nothing);
- an error ends its cell only: later cells still run (a kernel run with allow_errors);
- a cell past ``cell_timeout`` seconds is interrupted by SIGALRM (between Python bytecodes: a
  single long device computation finishes first) and recorded as a TimeoutError.
"""

from __future__ import annotations

import contextlib
import io
import json
import linecache
import os
import re
import signal
import sys
import tempfile
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from .other_reading import NOTED_ENV

MAGIC_LINE = re.compile(r"^(\s*)[%!]")
CELL_MAGICS_RUN = ("%%time", "%%timeit", "%%capture")


def read_notebook(path: Path) -> dict:
    """A notebook's JSON (nbformat 4), every cell's ``source`` joined into one string."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        if isinstance(cell.get("source"), list):
            cell["source"] = "".join(cell["source"])
    return nb


def grade_id(cell: dict) -> str:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    gid = meta.get("grade_id") if isinstance(meta, dict) else None
    return gid if isinstance(gid, str) else ""


def python_source(source: str) -> str | None:
    """The cell as plain Python: magic and shell lines become ``pass`` (same indentation, so an
    ``if`` around them stays valid); None for a cell magic that cannot run without IPython."""
    first = source.lstrip().split("\n", 1)[0]
    if first.startswith("%%"):
        if first.split()[0] not in CELL_MAGICS_RUN:
            return None
        source = source.lstrip().split("\n", 1)[1] if "\n" in source.lstrip() else ""
    return "\n".join(MAGIC_LINE.sub(r"\1pass  # ", line) for line in source.split("\n"))


def _display(*objs, **_):
    for obj in objs:
        print(repr(obj))


def display_function():
    try:
        from IPython.display import display
    except ImportError:
        return _display
    return display


@dataclass
class CellResult:
    index: int
    grade_id: str
    seconds: float
    ename: str = ""
    evalue: str = ""
    line: str = ""  # where in the cell it failed: "line N: <source line>"
    stdout: str = ""
    stderr: str = ""
    skipped: str = ""

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v not in ("", None) or k in ("index", "grade_id")}


@dataclass
class NotebookRun:
    """One notebook run: its namespace (kept afterwards, for swapping answers in) and cells."""

    path: Path
    cells: list[CellResult] = field(default_factory=list)
    namespace: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def errors(self) -> list[CellResult]:
        return [c for c in self.cells if c.ename]

    def first_line(self) -> str | None:
        return next((c.stdout.strip().splitlines()[0] for c in self.cells if c.stdout.strip()), None)


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def exec_cell(code: str, namespace: dict, index: int, gid: str = "", cell_timeout: float = 600) -> CellResult:
    """Run one cell's code in ``namespace``; its outputs, error and the failing line of the cell."""
    name = f"<cell {index}{' ' + gid if gid else ''}>"
    source = python_source(code)
    if source is None:
        return CellResult(index, gid, 0.0, skipped=f"cell magic {code.lstrip().split()[0]} needs IPython")
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    out, err = io.StringIO(), io.StringIO()
    result = CellResult(index, gid, 0.0)
    start = time.perf_counter()
    alarm = hasattr(signal, "SIGALRM") and cell_timeout
    old = signal.signal(signal.SIGALRM, _on_alarm) if alarm else None
    try:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, cell_timeout)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            exec(compile(source, name, "exec"), namespace)
    except BaseException as exc:  # noqa: BLE001  a cell's error is data, as in a kernel (KeyboardInterrupt aside)
        if isinstance(exc, KeyboardInterrupt):
            raise
        if isinstance(exc, _Timeout):
            exc = TimeoutError(f"cell ran past {cell_timeout} s")
        result.ename, result.evalue = type(exc).__name__, str(exc)[:2000]
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == name]
        if frames:
            result.line = f"line {frames[-1].lineno}: {(frames[-1].line or '').strip()}"
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    result.seconds = round(time.perf_counter() - start, 3)
    result.stdout, result.stderr = out.getvalue(), err.getvalue()
    _close_figures()
    return result


def _close_figures():
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


@contextlib.contextmanager
def process_state(cwd: Path):
    """Put back what a notebook may change for the whole process: the working folder, environment
    variables, warning filters, NumPy's error handling, matplotlib's rc settings."""
    old_cwd, old_env = os.getcwd(), dict(os.environ)
    np = sys.modules.get("numpy")
    old_err = np.geterr() if np is not None else None
    mpl = sys.modules.get("matplotlib")
    old_rc = dict(mpl.rcParams) if mpl is not None else None
    os.chdir(cwd)
    try:
        with warnings.catch_warnings():
            yield
    finally:
        os.chdir(old_cwd)
        os.environ.clear()
        os.environ.update(old_env)
        np = sys.modules.get("numpy")
        if np is not None:
            np.seterr(**(old_err or {"all": "warn", "under": "ignore"}))
        mpl = sys.modules.get("matplotlib")
        if mpl is not None:
            _close_figures()
            if old_rc is not None:
                mpl.rcParams.update(old_rc)
            else:
                mpl.rcdefaults()


def run_notebook(path: Path, cell_timeout: float = 600, extra: dict | None = None, echo=None) -> NotebookRun:
    """Run every code cell of the notebook at ``path`` in a fresh namespace (``extra`` names added
    to it first, e.g. GRADING_SEED), in a temporary working folder. ``echo(line)`` is told each cell's
    result as it ends."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    nb = read_notebook(path)
    run = NotebookRun(Path(path))
    run.namespace.update({"__name__": "__main__", "__builtins__": __builtins__, "display": display_function()})
    run.namespace.update(extra or {})
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cellrunner-") as tmp, process_state(Path(tmp)):
        for index, cell in enumerate(nb.get("cells", [])):
            if cell.get("cell_type") != "code":
                continue
            result = exec_cell(cell.get("source", ""), run.namespace, index, grade_id(cell), cell_timeout)
            run.cells.append(result)
            if echo:
                echo(f"  cell {index} {result.grade_id} {result.seconds:.1f} s {result.ename}".rstrip())
    run.seconds = round(time.perf_counter() - start, 1)
    return run


def swapped(
    run: NotebookRun, code: str, cells: list[tuple[int, str, str]], cell_timeout: float = 600, noted: list | None = None
):
    """Exec ``code`` (another answer) in a finished run's namespace, then ``cells`` ((index,
    grade_id, source) of test cells); the namespace's bindings are put back afterwards. Returns the
    CellResults of the answer cell (index -1) and of each test cell. ``noted``: a list that gets the
    chip's choices the emulation met meanwhile (COURSE_EMULATION_CHOICES, other_reading.py)."""
    saved = dict(run.namespace)
    try:
        with tempfile.TemporaryDirectory(prefix="cellrunner-") as tmp, process_state(Path(tmp)):
            os.environ.pop(NOTED_ENV, None)  # the answer's own (the environment is put back)
            results = [exec_cell(code, run.namespace, -1, "answer", cell_timeout)]
            results += [exec_cell(src, run.namespace, i, gid, cell_timeout) for i, gid, src in cells]
            if noted is not None:
                noted.append(os.environ.get(NOTED_ENV, ""))
    finally:
        run.namespace.clear()
        run.namespace.update(saved)
    return results
