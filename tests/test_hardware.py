"""autograder/chip/hardware.py, the run on a real accelerator: its probe names the arithmetic of DEFAULT
precision correctly (checked here under emulated TPU and GPU precision); it runs student releases
(only stub errors allowed), solutions (every test must pass) and device-only wrong answers in one
process with the plain cell runner (autograder/chip/cellrunner.py), and reports each failure as failed;
and it needs nothing beside the standard library, NumPy and JAX: no nbformat, nbclient, IPython
kernel, nbgrader or traitlets, and no TCP socket (a TPU machine may refuse even loopback)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from autograder.chip import cellrunner, hardware
from autograder.chip import emulation
from conftest import ROOT

EMULATION = emulation.source()
JUPYTER = ("nbformat", "nbclient", "ipykernel", "jupyter_client", "nbgrader", "IPython", "traitlets", "zmq")


@pytest.mark.parametrize("mode, expected", [("none", "exact"), ("tpu", "one bf16 pass"), ("gpu", "tf32 inputs")])
def test_probe_names_what_default_precision_computes(mode, expected):
    prelude = EMULATION if mode != "none" else ""
    result = hardware.probe(prelude, env={**os.environ, "COURSE_EMULATE": mode})
    print(f"{mode}: expected DEFAULT = {expected}, got {result['default_is']}; {result['errors']}")
    assert result["default_is"] == expected
    assert result["errors"]["highest"] < 1e-3 < result["references"]["one bf16 pass"]
    if mode == "tpu":
        assert result["errors"]["high"] < result["errors"]["default"] / 10, "HIGH = 3 bf16 passes"


def cell(source, grade_id=None, solution=False):
    meta = {"nbgrader": {"grade_id": grade_id, "grade": not solution, "solution": solution, "points": 1}}
    return {"cell_type": "code", "metadata": meta if grade_id else {}, "source": source, "outputs": []}


def write_nb(path, cells):
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


SETUP = "import numpy as np\nprint('JAX x | backend: cpu')\n"
GOOD_ANSWER = "def double(x):\n    return 2 * x\n"
STUB = "def double(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"
VISIBLE = "assert double(2) == 4, 'double(2)'"
HIDDEN = "### BEGIN HIDDEN TESTS\nassert double(np.float32(3)) == 6, 'double(3)'\n### END HIDDEN TESTS"
MISTAKES = """MISTAKES = [
    {"id": "adds", "function": "double", "name": "Adds two", "explanation": "e", "section": "s",
     "why": "adds 2 instead of doubling: wrong only at 3", "source": "def double(x):\\n    return x + 2\\n",
     "only_under": "cpu"},
    {"id": "never-caught", "function": "double", "name": "Doubles twice over", "explanation": "e",
     "section": "s", "why": "right everywhere: its hidden test cannot catch it",
     "source": "def double(x):\\n    return x * 2.0\\n", "only_under": "cpu"},
]
"""


def fake_course(root):
    """Two lessons: 01_good (solution passes, release fails only at its stub and the test after
    it), 02_bad (solution fails its hidden test, release fails in a demo cell)."""
    write_nb(
        root / "solutions/01_good/01_good.ipynb",
        [
            cell(SETUP),
            cell(GOOD_ANSWER, "answer_double", solution=True),
            cell(VISIBLE, "test_double_visible"),
            cell(HIDDEN, "test_double_hidden"),
        ],
    )
    write_nb(
        root / "notebooks/01_good/01_good.ipynb",
        [
            cell(SETUP + "%matplotlib inline\nif False:\n    !pip install nothing\n"),
            cell(STUB, "answer_double", solution=True),
            cell(VISIBLE, "test_double_visible"),
            cell("try:\n    double(1)\nexcept NotImplementedError:\n    print('finish the exercise')\n"),
        ],
    )
    (root / "solutions/01_good/mistakes.py").write_text(MISTAKES)
    write_nb(
        root / "solutions/02_bad/02_bad.ipynb",
        [
            cell(SETUP),
            cell("def double(x):\n    return 2 * x + (x == 3)\n", "answer_double", True),
            cell(HIDDEN, "test_double_hidden"),
        ],
    )
    write_nb(
        root / "notebooks/02_bad/02_bad.ipynb",
        [
            cell(SETUP),
            cell(STUB, "answer_double", solution=True),
            cell("np.seterr(all='raise')\nassert 1 + 1 == 3, 'demo'"),
        ],
    )


NO_JUPYTER_NO_TCP = f"""
import socket, sys
for name in {JUPYTER!r}:
    sys.modules[name] = None  # "import nbformat" and the like raise ImportError
_socket = socket.socket
class NoTCP(_socket):
    def __init__(self, family=socket.AF_INET, *args, **kwargs):
        if family in (socket.AF_INET, socket.AF_INET6):
            raise OSError("TCP refused, as on the TPU machine")
        super().__init__(family, *args, **kwargs)
socket.socket = NoTCP
"""


def test_run_reports_student_and_solution_notebooks_and_device_only_mistakes(tmp_path):
    """One run, in a process where no Jupyter package imports and TCP is refused: the student
    release that fails only at its stub (and the test after it) is clean, one failing in a demo
    cell is not; the passing solution passes, the failing one fails with its error line; the
    device-only mistake its hidden test catches is caught, the one it cannot catch is reported and
    fails the run; the record is written."""
    fake_course(tmp_path)
    out = tmp_path / "out"
    code = NO_JUPYTER_NO_TCP + (
        f"from pathlib import Path\nfrom autograder.chip import hardware\n"
        f"sys.exit(hardware.run(Path({str(out)!r}), root=Path({str(tmp_path)!r})))"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    print(proc.stdout[-3000:], proc.stderr[-3000:])
    assert proc.returncode == 1, "a failing notebook and a device-only mistake not caught fail the run"
    report = json.loads((out / "hardware.json").read_text())
    table = (out / "hardware.md").read_text()
    student, solutions, mutants = report["student"], report["lessons"], report["mutants"]
    assert student["01_good"]["ok"] and student["01_good"]["stub_errors"] == 1, student["01_good"]
    assert student["01_good"]["first_line"] == "JAX x | backend: cpu"
    # what a demo cell printed is in the record (a lesson's chip figures, test_chip_numbers.py)
    assert "JAX x | backend: cpu" in "".join(student["01_good"]["printed"].values())
    assert not student["02_bad"]["ok"]
    assert student["02_bad"]["errors"] == [
        {"cell": 2, "grade_id": "", "error": "AssertionError: demo", "line": "line 2: assert 1 + 1 == 3, 'demo'"}
    ]
    assert solutions["01_good"]["ok"] and not solutions["02_bad"]["ok"]
    assert solutions["02_bad"]["errors"][0]["grade_id"] == "test_double_hidden"
    assert solutions["02_bad"]["errors"][0]["error"] == "AssertionError: double(3)"
    assert [(m["key"], m["caught"], m["must_be_caught"]) for m in mutants["01_good"]] == [
        ("01_good:double:adds", True, True),
        ("01_good:double:never-caught", False, True),
    ]
    assert mutants["01_good"][0]["failed_tests"] == ["test_double_hidden"]
    assert report["environment"]["versions"]["numpy"] and report["probe"]["backend"] == "cpu"
    assert "| 01_good | clean but for stubs (1 stub error) |" in table
    assert "| 02_bad | FAILED: cell 2: AssertionError: demo; no stub was reached |" in table
    assert (
        "| 01_good | passed |" in table
        and "| 02_bad | FAILED: test_double_hidden: AssertionError: double(3) |" in table
    )
    assert "| 01_good: right everywhere: its hidden test cannot catch it | cpu | no |" in table
    assert "DEFAULT behaves as exact" in table


@pytest.mark.compat  # make compat (CI): the made-up course again, a subprocess a notebook
def test_isolated_run_gives_the_same_results(tmp_path):
    """--isolate: each notebook in its own subprocess, one after the other, same record."""
    fake_course(tmp_path)
    assert hardware.run(tmp_path / "out", root=tmp_path, isolate=True) == 1
    report = json.loads((tmp_path / "out" / "hardware.json").read_text())
    assert report["isolated"] and report["student"]["01_good"]["ok"] and not report["student"]["02_bad"]["ok"]
    assert report["lessons"]["01_good"]["ok"] and not report["lessons"]["02_bad"]["ok"]
    assert [m["caught"] for m in report["mutants"]["01_good"]] == [True, False]


def test_cell_runner_runs_cells_as_a_kernel_would(tmp_path):
    """Magics and shell lines become pass, display exists, an error ends its cell only (with its
    line), a notebook's process-wide changes are put back, each notebook has a fresh namespace."""
    import numpy as np

    write_nb(
        tmp_path / "a.ipynb",
        [
            cell("%load_ext autoreload\nx = 1\nif x:\n    !echo hi\n    y = 2\ndisplay(x)"),
            cell("%%bash\necho no"),
            cell(
                "import os, numpy as np, warnings\nnp.seterr(all='ignore')\nos.environ['COURSE_X'] = '1'\n"
                "warnings.simplefilter('error')\nfrom pathlib import Path\nPath('made.txt').write_text('x')\n"
                "z = 1\n1 / 0",
                "test_z",
            ),
            cell("print(x + y + z)"),
        ],
    )
    before = np.geterr()
    run = cellrunner.run_notebook(tmp_path / "a.ipynb")
    assert [c.stdout for c in run.cells] == ["1\n", "", "", "4\n"]
    assert run.cells[1].skipped and not run.cells[1].ename
    assert (run.cells[2].ename, run.cells[2].evalue, run.cells[2].line) == (
        "ZeroDivisionError",
        "division by zero",
        "line 8: 1 / 0",
    )
    assert np.geterr() == before and "COURSE_X" not in os.environ and not (tmp_path / "made.txt").exists()
    write_nb(tmp_path / "b.ipynb", [cell("print('x' in globals())")])
    assert cellrunner.run_notebook(tmp_path / "b.ipynb").cells[0].stdout == "False\n"


def test_imports_need_only_the_standard_library_numpy_and_jax():
    """autograder.chip.hardware (and what it loads for a run: the cell runner, the golden recorder, the
    mistakes library) imports with every Jupyter package missing, and loads nothing outside the
    standard library but NumPy."""
    code = NO_JUPYTER_NO_TCP + textwrap.dedent(
        """
        def loaded():
            return {m.split(".")[0] for m in sys.modules if sys.modules[m] is not None}
        before = loaded()  # the interpreter's own start-up (site, .pth files)
        import autograder.chip.hardware, autograder.chip.golden, autograder.common.mistakes, autograder.chip.cellrunner
        print(sorted(loaded() - before - set(sys.stdlib_module_names) - {"autograder"}))
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert set(json.loads(proc.stdout.strip().replace("'", '"'))) <= {"numpy"}, proc.stdout
