"""autograder/hardware.py, the run on a real accelerator: its probe names the arithmetic of DEFAULT
precision correctly (checked here under emulated TPU and GPU precision), it reports a failing
notebook as failed, and it needs nothing beside JAX but nbformat, nbclient and a kernel (no nbgrader)."""

import json
import os
import subprocess
import sys

import nbformat
import pytest

from autograder import hardware
from conftest import ROOT

EMULATION = (ROOT / "autograder" / "emulate_precision.py").read_text()


@pytest.mark.parametrize("mode, expected", [("none", "exact"), ("tpu", "one bf16 pass"), ("gpu", "tf32 inputs")])
def test_probe_names_what_default_precision_computes(mode, expected):
    prelude = EMULATION if mode != "none" else ""
    result = hardware.probe(prelude, env={**os.environ, "COURSE_EMULATE": mode})
    print(f"{mode}: expected DEFAULT = {expected}, got {result['default_is']}; {result['errors']}")
    assert result["default_is"] == expected
    assert result["errors"]["highest"] < 1e-3 < result["references"]["one bf16 pass"]
    if mode == "tpu":
        assert result["errors"]["high"] < result["errors"]["default"] / 10, "HIGH = bf16x3"


def test_run_reports_each_notebook_and_fails_on_an_error(tmp_path):
    for name, code in [("01_good", "print('JAX x | backend: cpu')"), ("02_bad", "assert 1 + 1 == 3, 'arithmetic'")]:
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
        nb.cells[0].metadata["nbgrader"] = {"grade_id": f"test_{name}", "grade": True, "points": 1}
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        (tmp_path / "solutions" / name).mkdir(parents=True)
        nbformat.write(nb, str(tmp_path / "solutions" / name / f"{name}.ipynb"))
    out = tmp_path / "out"
    assert hardware.run(out, root=tmp_path) == 1
    report = json.loads((out / "hardware.json").read_text())
    table = (out / "hardware.md").read_text()
    print(table)
    assert report["lessons"]["01_good"]["ok"] and report["lessons"]["01_good"]["first_line"].startswith("JAX")
    assert not report["lessons"]["02_bad"]["ok"]
    assert "| 01_good | passed |" in table
    assert "| 02_bad | FAILED: test_02_bad: AssertionError: arithmetic |" in table
    assert report["probe"]["backend"] == "cpu" and "DEFAULT behaves as exact" in table


def test_needs_no_nbgrader():
    code = "import sys; sys.modules['nbgrader'] = None\nimport autograder.hardware, autograder.lessoncheck; print('ok')"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
