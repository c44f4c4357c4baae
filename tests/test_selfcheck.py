"""The student's self-check (notebooks/selfcheck.py, issue 64): what grading runs on a notebook, the
hidden inputs aside, from the published tree alone, and the same visible verdicts as grading.

- The release carries it, generated from autograder/course/presubmit.py and the grader's own
  studentcode.py (what grading keeps of a cell), with grading's time limits.
- Its plan keeps, of every kind of cell, exactly what the grader's plan.py keeps.
- Run on lesson 02's solution, its stub, a TPU-only mistake of its library (the DEFAULT-precision
  reference: the chip's visible check fails, the CPU's own arithmetic passes it) and an answer that
  works in a kernel only through a demo cell's global, it gives each visible check grading's outcome
  and message; the last passes in one process that ran the demo cell (a kernel) and fails here, as graded.
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest

from autograder.common.mistakes import load
from autograder.common.notebooks import cell_grade_id, fill_answers, solution_code
from autograder.course import presubmit_build
from autograder.grader.core.settings import Settings
from autograder.grader.notebook.plan import build_plan
from conftest import ROOT, source_nb, student_nb

SHIPPED = ROOT / "notebooks" / presubmit_build.STUDENT_MODULE
LESSON = "02_matmul_accumulation"
RELEASE = ROOT / "notebooks" / LESSON / f"{LESSON}.ipynb"


def shipped():
    """notebooks/selfcheck.py as a student's Python loads it (no course package)."""
    spec = importlib.util.spec_from_file_location("selfcheck_shipped", SHIPPED)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def answer(function: str) -> str:
    nb = source_nb(LESSON)
    return next(solution_code(c.source) for c in nb.cells if cell_grade_id(c) == f"answer_{function}")


def trap() -> dict:
    """A TPU-only mistake whose visible check fails on the chip (solutions/02/chip/outcomes.json)."""
    mistake = next(m for m in load(LESSON) if m.key.endswith("evaluate_precision_policies:default-precision-reference"))
    assert mistake.only_under == "tpu"
    outcomes = json.loads((ROOT / "solutions" / LESSON / "chip" / "outcomes.json").read_text())["outcomes"]
    chip = next(o for o in outcomes if o["key"] == mistake.key)
    assert chip["checks"]["test_evaluate_precision_policies_visible"] == "failed"
    return {"evaluate_precision_policies": mistake.source}


# The solution with its data taken from the globals x, w that the lesson's demo cell `x, w = seed_data(0)`
# made in the student's kernel: grading keeps no call of a lesson cell (plan.py: definitions_only(calls=False)).
DATA_LINES = (
    "    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))\n"
    "    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)\n"
    "    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25\n"
)


def kernel_global() -> dict:
    code = answer("evaluate_precision_policies")
    assert DATA_LINES in code
    return {"evaluate_precision_policies": code.replace(DATA_LINES, "")}


def submissions() -> dict:
    nb = student_nb(LESSON)
    return {
        "solution": fill_answers(nb, source_nb(LESSON)),
        "stub": nb,
        "tpu-trap": fill_answers(nb, source_nb(LESSON), trap()),
        "kernel-global": fill_answers(nb, source_nb(LESSON), kernel_global()),
    }


def test_the_release_carries_the_self_check_with_gradings_limits():
    assert SHIPPED.read_text(encoding="utf-8") == presubmit_build.student_module(), "run: python -m autograder release"
    module, settings = shipped(), Settings()
    assert (module.CELL_TIMEOUT, module.NOTEBOOK_TIMEOUT, module.MAX_RESTARTS) == (
        settings.cell_timeout,
        settings.notebook_timeout,
        settings.max_restarts,
    )


def with_added_cells(nb):
    """A submission with cells of every kind grading reads: a helper cell the student added (a def,
    a kept constant, a dropped call, a refused rebinding of a lesson name), an edited demo cell."""
    nb = fill_answers(nb, source_nb(LESSON), kernel_global())
    added = nbformat.v4.new_code_cell(
        "import math\nSCALE = 0.25\nTABLE = make_table()\nseed_data = None\n\ndef helper(v):\n    return v * SCALE\n"
    )
    index = next(i for i, c in enumerate(nb.cells) if cell_grade_id(c) == "answer_emulated_bf16_accumulation")
    nb.cells.insert(index, added)
    nb.cells.append(nbformat.v4.new_code_cell("LAST = 3\nprint(LAST)"))
    demo = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith("x, w = seed_data(0)"))
    demo.source = "x = 1\n" + demo.source
    return nb


@pytest.mark.parametrize("name", ["solution", "stub", "tpu-trap", "kernel-global", "added-cells"])
def test_the_plan_keeps_what_gradings_plan_keeps(name):
    module = shipped()
    nb = with_added_cells(student_nb(LESSON)) if name == "added-cells" else submissions()[name]
    release = student_nb(LESSON)
    graded = build_plan(source_nb(LESSON), release, nb, release)
    mine = module.plan(json.loads(nbformat.writes(nb)), json.loads(RELEASE.read_text()))
    assert [tuple(c) for c in mine["cells"]] == [tuple(c) for c in graded.student_cells]
    assert mine["setup"] == graded.setup
    visible = [(t.grade_id, t.source) for t in graded.tests if not t.hidden]
    assert [tuple(t) for t in mine["tests"]] == visible
    assert mine["hidden"] == [t.grade_id for t in graded.tests if t.hidden]
    assert sorted(mine["contract"]) == sorted(graded.contract)
    if name == "added-cells":
        assert any("seed_data" in n for n in mine["notes"]), "a refused rebinding is named"
        assert ("cell added after answer_accumulation_error_curve", "LAST = 3") in mine["cells"]


def run_shipped(path: Path, out: Path, *args) -> tuple[int, list[dict], str]:
    """The command a student runs, in a folder of its own (the published tree's notebooks/ beside)."""
    run = subprocess.run(
        [sys.executable, str(SHIPPED), str(path), "--json", str(out), *args],
        capture_output=True,
        text=True,
        cwd=path.parent,
        timeout=900,
    )
    return run.returncode, json.loads(out.read_text()) if out.is_file() else [], run.stdout + run.stderr


@pytest.fixture(scope="module")
def self_checked(tmp_path_factory):
    """{name: (exit status, the self-check's records, its printed text)} and the grader's results."""
    from autograder.grader.classroom.classrun import load_lessons
    from autograder.grader.notebook.grade import grade_notebook

    folder = tmp_path_factory.mktemp("selfcheck")
    checked, graded = {}, {}
    with tempfile.TemporaryDirectory(prefix="gradebook-") as work:
        data = load_lessons(ROOT, [LESSON], Path(work) / "gradebook.db")[LESSON]
    for name, nb in submissions().items():
        path = folder / name / f"{LESSON}.ipynb"
        path.parent.mkdir()
        nbformat.write(nb, str(path))
        checked[name] = run_shipped(path, folder / name / "checks.json")
        graded[name] = grade_notebook(name, data, path.read_bytes(), Settings(), ROOT)
    return checked, graded


VISIBLE = ["test_evaluate_precision_policies_visible", "test_emulated_bf16_accumulation_visible"]
VISIBLE += ["test_accumulation_error_curve_visible"]
EXPECTED = {  # which visible checks fail
    "solution": set(),
    "stub": set(VISIBLE),
    "tpu-trap": {"test_evaluate_precision_policies_visible"},
    "kernel-global": {"test_evaluate_precision_policies_visible"},
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(EXPECTED))
def test_the_self_check_gives_gradings_visible_verdicts(self_checked, name):
    checked, graded = self_checked
    status, records, printed = checked[name]
    print(printed)
    assert [r["id"] for r in records] == VISIBLE, printed
    assert {r["id"] for r in records if r["outcome"] != "passed"} == EXPECTED[name]
    assert status == (1 if EXPECTED[name] else 0)
    grading = {t.grade_id: t for t in graded[name].tests if not t.hidden}
    for r in records:
        t = grading[r["id"]]
        assert r["outcome"] == str(t.outcome.value), (r, t)
        assert r["message"] == t.error, (r, t)
    assert "hidden check: not run here" in printed
    assert f"{3 - len(EXPECTED[name])} of 3 visible checks pass" in printed


@pytest.mark.slow
def test_a_demo_cells_global_passes_in_a_kernel_and_fails_in_the_fresh_process(self_checked):
    """The kernel-global answer passes its visible check in one process that ran the demo cell before
    it (the student's kernel, top to bottom); the self-check and grading both fail it: NameError."""
    module = shipped()
    release = json.loads(RELEASE.read_text())
    cells = {c.get("id"): "".join(c["source"]) for c in release["cells"]}
    nb = json.loads(nbformat.writes(submissions()["kernel-global"]))
    mine = next("".join(c["source"]) for c in nb["cells"] if module._gid(c) == "answer_evaluate_precision_policies")
    kernel = {
        **module.plan(nb, release),
        "cells": [("demo cell", cells["cell-004"]), ("answer", mine)],
        "bound": ["x", "w"] + module.plan(nb, release)["bound"],
    }
    kernel["tests"] = [t for t in kernel["tests"] if t[0] == VISIBLE[0]]
    assert [r[1] for r in module.run(kernel, module.find_emulation(), say=lambda *_: None)] == ["passed"]
    checked, _ = self_checked
    record = next(r for r in checked["kernel-global"][1] if r["id"] == VISIBLE[0])
    assert record["outcome"] == "wrong" and record["message"] == "NameError: name 'x' is not defined"


# ---------------------------------------------------------------- the lesson's "Before you submit" cell


def run_lesson_cell(folder: Path, env: dict) -> str:
    """The release's self-check cell, run in a folder with no course files near it (Colab's /content),
    after a setup cell's ``course_chip`` naming an unreachable repository: the module, the emulation
    and the release come from COURSE_EMULATION_URL's folder (the published notebooks/, as file URLs)."""
    cell = next(c.source for c in student_nb(LESSON).cells if c.get("id") == "before-you-submit-code")
    setup = "def course_chip(chip, url='https://example.invalid/notebooks/tpu_emulation.py'):\n    pass\n\n"
    base = {k: v for k, v in os.environ.items() if k not in ("COURSE_EMULATE", "COURSE_EMULATED_PRECISION")}
    base.pop("JPY_SESSION_NAME", None)
    base["COURSE_EMULATION_URL"] = (ROOT / "notebooks" / "tpu_emulation.py").as_uri()
    run = subprocess.run(
        [sys.executable, "-c", setup + cell],
        cwd=folder,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=900,
    )
    return run.stdout + run.stderr


def lesson_cell_folder(tmp_path: Path, name: str) -> tuple[Path, Path]:
    folder = tmp_path / "content"
    (folder / "work").mkdir(parents=True)
    path = folder / "work" / f"{name}.ipynb"
    nbformat.write(submissions()[name], str(path))
    return folder, path


@pytest.mark.slow
def test_the_lesson_cell_checks_the_notebook_colab_holds(tmp_path):
    """On Colab the notebook comes from the frontend (google.colab._message's get_ipynb, faked here
    with the TPU-trap answer): one visible check fails, the others pass."""
    folder, path = lesson_cell_folder(tmp_path, "tpu-trap")
    fake = tmp_path / "fake" / "google" / "colab"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "_message.py").write_text(
        "import json\n\ndef blocking_request(kind, request='', timeout_sec=None):\n"
        f"    assert kind == 'get_ipynb'\n    return {{'ipynb': json.load(open({str(path)!r}))}}\n"
    )
    printed = run_lesson_cell(folder, {"PYTHONPATH": str(tmp_path / "fake")})
    assert (folder / "selfcheck.py").is_file(), printed
    assert "FAIL  test_evaluate_precision_policies_visible" in printed and "2 of 3 visible checks pass" in printed
    assert "note: the lesson's release" not in printed, "the release came from the course's folder"


@pytest.mark.slow
def test_the_lesson_cell_checks_the_saved_file_in_jupyter_or_says_how(tmp_path):
    folder, path = lesson_cell_folder(tmp_path, "solution")
    printed = run_lesson_cell(folder, {"JPY_SESSION_NAME": str(path)})
    assert f"checking {path} as last saved" in printed and "3 of 3 visible checks pass" in printed, printed
    printed = run_lesson_cell(folder, {})
    assert "Cannot find this notebook's file" in printed and "python selfcheck.py" in printed
