"""Emulated TPU and GPU matmul precision (see autograder/emulate_precision.py): CPU CI then
catches what only a TPU or GPU would show, such as the seed's DEFAULT-precision "fp32 reference"
(on a TPU, an error of 0 and a division by zero). The emulation is on; every solution notebook
passes under GPU precision here and under TPU precision in tests/test_notebooks.py; wrong answers
that only a TPU reveals pass on plain CPU."""
import nbformat
import pytest

from autograder.lessoncheck import cell_errors, emulated_mutants, execute, load_mutants, run_mutants
from autograder.lessoncheck import emulation_env as lessoncheck_emulation_env
from conftest import LESSONS, assert_runs_clean_under_emulation, source_nb

pytestmark = pytest.mark.slow
MODES = ["tpu", "gpu"]


def emulation_env(tmp_path, mode):
    return lessoncheck_emulation_env(tmp_path, mode)


PROBE = '''
import os, jax, jax.numpy as jnp, numpy as np
k1, k2 = jax.random.split(jax.random.PRNGKey(0))
x = jax.random.normal(k1, (64, 256)); w = jax.random.normal(k2, (256, 64))
exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
err = {p: float(np.max(np.abs(np.asarray(jnp.dot(x, w, precision=p), np.float64) - exact)))
       for p in ("default", "high", "highest")}
err["matmul"] = float(np.max(np.abs(np.asarray(x @ w, np.float64) - exact)))
err["einsum"] = float(np.max(np.abs(np.asarray(jnp.einsum("ik,kj->ij", x, w), np.float64) - exact)))
bf16_pass = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
same_as_bf16_pass = bool(jnp.array_equal(jnp.dot(x, w), bf16_pass))
print(os.environ.get("COURSE_EMULATED_PRECISION"), err, same_as_bf16_pass)
'''


@pytest.mark.parametrize("mode", MODES)
def test_emulation_is_on(tmp_path, mode):
    """A DEFAULT float32 matmul differs from HIGHEST under emulation, as it would on the device."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PROBE), nbformat.v4.new_code_cell(
        "assert err['default'] > 10 * err['highest'], err\n"
        "assert err['matmul'] == err['default'] and err['einsum'] == err['default']\n"
        + ("assert same_as_bf16_pass and err['high'] < err['default'] / 10\n" if mode == "tpu" else
           "assert not same_as_bf16_pass and err['high'] == err['default']\n"))])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    out = execute(nb, cwd=tmp_path, env=emulation_env(tmp_path, mode))
    print(out.cells[0].outputs)
    assert cell_errors(out) == []
    assert out.cells[0].outputs[0]["text"].startswith(mode)


@pytest.mark.parametrize("mode", ["gpu"])
def test_solution_notebook_under_emulated_precision(lesson, mode, tmp_path):
    """Under TF32 (GPU) precision. TPU precision: tests/test_notebooks.py, which grades every
    wrong and correct candidate in the same emulated-TPU kernel that ran the solution."""
    executed = execute(source_nb(lesson), cwd=tmp_path, env=emulation_env(tmp_path, mode))
    assert_runs_clean_under_emulation(executed, lesson, mode)


TPU_ONLY = [name for name in LESSONS if emulated_mutants(load_mutants(name), "tpu")]


def test_the_seed_mistake_is_among_the_tpu_only_wrong_answers():
    assert {"02_matmul_accumulation", "03_int8_quantization", "05_precision_policy"} <= set(TPU_ONLY)


@pytest.mark.parametrize("lesson_name", TPU_ONLY)
def test_wrong_answers_that_only_a_tpu_shows_pass_on_plain_cpu(lesson_name, tmp_path):
    """Mutants marked "only_under": "tpu" (e.g. the seed's DEFAULT-precision "fp32 reference")
    pass their hidden test on plain CPU; tests/test_notebooks.py shows that graded as on a TPU
    (the grader's default) they lose their points."""
    mutants = emulated_mutants(load_mutants(lesson_name), "tpu")
    for r in run_mutants(source_nb(lesson_name), mutants, cwd=tmp_path):
        print(f"{r.why}: on plain CPU failed {r.failed_tests}")
        assert f"test_{r.function}_hidden" not in r.failed_tests, "plain CPU catches it: not only_under"
