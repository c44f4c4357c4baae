"""Every solution notebook again under emulated TPU and GPU matmul precision (see
autograder/emulate_precision.py): CPU CI then catches what only a TPU or GPU would show, such as
the seed's DEFAULT-precision "fp32 reference" (on a TPU, an error of 0 and a division by zero)."""
import shutil

import nbformat
import pytest

from autograder.lessoncheck import cell_errors, execute
from autograder.notebooks import cell_grade_id
from conftest import ROOT, source_nb

pytestmark = pytest.mark.slow
MODES = ["tpu", "gpu"]


def emulation_env(tmp_path, mode):
    startup = tmp_path / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    shutil.copy(ROOT / "autograder" / "emulate_precision.py", startup / "00-emulate-precision.py")
    return {"IPYTHONDIR": str(tmp_path / "ipython"), "COURSE_EMULATE": mode}


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


def backend_specific(cell) -> bool:
    """Demo cells that assert a fact about the real backend (e.g. 'CPU ignores precision'): the
    emulation changes the numerics but the backend is still called "cpu", so such a fact may fail."""
    return "BACKEND" in cell.source and not cell_grade_id(cell)


@pytest.mark.parametrize("mode", MODES)
def test_solution_notebook_under_emulated_precision(lesson, mode, tmp_path):
    executed = execute(source_nb(lesson), cwd=tmp_path, env=emulation_env(tmp_path, mode))
    errors = cell_errors(executed)
    graded = [e for e in errors if e[1]]
    print(f"{lesson} under {mode} precision: errors {errors}")
    assert graded == [], f"graded tests fail under {mode} matmul precision: {graded}"
    other = [e for e in errors if not backend_specific(executed.cells[e[0]])]
    assert other == [], f"demo cells fail under {mode} matmul precision: {other}"


SEED_REFERENCE = '''
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    ref_fp32 = jnp.dot(x, w, preferred_element_type=jnp.float32)   # the seed's DEFAULT "reference"
    a = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
    b = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.bfloat16)
    cmax = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wb, sb in [("bf16 in, f32 acc", a, 32768, 0), ("bf16 in, f32 acc, bf16 out", b, 32768, 0),
                               ("int8 per-column, f32 acc", c, 16384, 256)]:
        d = jnp.abs(out.astype(jnp.float32) - ref_fp32)
        rows.append({"policy": label, "max_abs_err": round(float(jnp.max(d)), 5),
                     "mean_abs_err": round(float(jnp.mean(d)), 5), "weight_bytes": wb, "scale_bytes": sb})
    return rows
'''


def test_seed_reference_passes_on_cpu_but_is_caught_under_tpu_precision(tmp_path):
    """The reason for the emulation: the seed's DEFAULT-precision reference is right on CPU (so
    CPU-only tests accept it) and wrong on a TPU, where the hidden test must reject it."""
    from autograder.lessoncheck import run_mutants

    lesson = "02_matmul_accumulation"
    mutant = [{"function": "evaluate_precision_policies", "why": "seed's reference", "source": SEED_REFERENCE}]
    (on_cpu,) = run_mutants(source_nb(lesson), mutant, cwd=tmp_path)
    (on_tpu,) = run_mutants(source_nb(lesson), mutant, cwd=tmp_path, env=emulation_env(tmp_path, "tpu"))
    print("cpu:", on_cpu.failed_tests, "tpu:", on_tpu.failed_tests)
    assert on_cpu.failed_tests == []
    assert "test_evaluate_precision_policies_hidden" in on_tpu.failed_tests
