"""Emulated TPU and GPU matmul precision (see autograder/chip/emulate_precision.py): CPU CI then
catches what only a TPU or GPU would show, such as the seed's DEFAULT-precision "fp32 reference"
(on a TPU, an error of 0 and a division by zero). The emulation is on; every solution notebook
passes under GPU precision (tests/test_figures.py, the same run that checks its figures) and under
TPU precision (tests/test_notebooks.py); wrong answers that only a TPU reveals pass on plain CPU."""

import os
import subprocess
import sys

import nbformat
import numpy as np
import pytest
from jupyter_client import KernelManager

from autograder.course.lessoncheck import cell_errors, emulated_mutants, execute, grade_variants, load_mutants
from autograder.course.lessoncheck import emulation_env as lessoncheck_emulation_env
from autograder.chip import emulation
from conftest import LESSONS

pytestmark = pytest.mark.slow
MODES = ["tpu", "gpu"]


def emulation_env(tmp_path, mode):
    return lessoncheck_emulation_env(tmp_path, mode)


PROBE = """
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
"""


@pytest.mark.parametrize("mode", MODES)
def test_emulation_is_on(tmp_path, mode):
    """A DEFAULT float32 matmul differs from HIGHEST under emulation, as it would on the device."""
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(PROBE),
            nbformat.v4.new_code_cell(
                "assert err['default'] > 10 * err['highest'], err\n"
                "assert err['matmul'] == err['default'] and err['einsum'] == err['default']\n"
                + (
                    "assert same_as_bf16_pass and err['high'] < err['default'] / 10\n"
                    if mode == "tpu"
                    else "assert not same_as_bf16_pass and err['high'] == err['default']\n"
                )
            ),
        ]
    )
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    out = execute(nb, cwd=tmp_path, env=emulation_env(tmp_path, mode))
    print(out.cells[0].outputs)
    assert cell_errors(out) == []
    assert out.cells[0].outputs[0]["text"].startswith(mode)


TPU_ONLY = [name for name in LESSONS if emulated_mutants(load_mutants(name), "tpu")]


def test_the_seed_mistake_is_among_the_tpu_only_wrong_answers():
    assert {"02_matmul_accumulation", "03_int8_quantization", "05_precision_policy"} <= set(TPU_ONLY)


@pytest.mark.compat  # make compat (CI): device-only wrong answers graded on plain CPU, as make compat's stacks run
@pytest.mark.parametrize("lesson_name", TPU_ONLY)
def test_wrong_answers_that_only_a_tpu_shows_pass_on_plain_cpu(lesson_name):
    """Mutants marked "only_under": "tpu" (e.g. the seed's DEFAULT-precision "fp32 reference")
    pass their hidden test when graded with ``--emulate none`` on a CPU; tests/test_notebooks.py
    shows that graded as on a TPU (the grader's default) they lose their points."""
    mutants = emulated_mutants(load_mutants(lesson_name), "tpu")
    for r in grade_variants(lesson_name, mutants, "none", solution_tests=False)[1]:
        print(f"{r.why}: on plain CPU failed {r.failed_tests}")
        assert f"test_{r.function}_hidden" not in r.failed_tests, "plain CPU catches it: not only_under"


CPU_ONLY = [name for name in LESSONS if emulated_mutants(load_mutants(name), "cpu")]


def test_the_int8_float32_accumulator_is_among_the_cpu_only_wrong_answers():
    assert "03_int8_quantization" in CPU_ONLY


@pytest.mark.compat  # make compat (CI): the mirror: CPU-only wrong answers graded as on a TPU
@pytest.mark.parametrize("lesson_name", CPU_ONLY)
def test_wrong_answers_that_only_a_cpu_shows_pass_as_on_a_tpu(lesson_name):
    """Mutants marked "only_under": "cpu" (int8 products accumulated in float32: the chip's matrix
    unit sums them in int32 whatever the output type, tests/data/tpu/tpu_casts.json mm_int8_f32out)
    fail their hidden test on plain CPU and pass graded as on a TPU, as on the chip
    (each lesson's solutions/NN_name/chip/outcomes.json)."""
    mutants = emulated_mutants(load_mutants(lesson_name), "cpu")
    for r in grade_variants(lesson_name, mutants, "none", solution_tests=False)[1]:
        assert f"test_{r.function}_hidden" in r.failed_tests, (r.why, "plain CPU misses it: not a mistake there")
    for r in grade_variants(lesson_name, mutants, "tpu", solution_tests=False)[1]:
        assert f"test_{r.function}_hidden" not in r.failed_tests, (r.why, "caught as on a TPU: the chip computes it")


# A JAX before 0.7.1, simulated on this one: dot_general reaches the original dot directly, so
# jnp.dot, @ and lax.dot_general no longer go through the lax.dot that the emulation wraps.
OLD_JAX = """
import jax
from jax._src.lax import lax as _l
_bound_dot = _l.dot
def _old_dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None, **kw):
    return _bound_dot(lhs, rhs, dimension_numbers=dimension_numbers, precision=precision,
                      preferred_element_type=preferred_element_type, **kw)
_l.dot_general = jax.lax.dot_general = _old_dot_general
"""
# A JAX whose jit no longer lowers through mlir.lower_jaxpr_to_module (where the TPU emulation
# makes each program what the chip computes), simulated on this one: pxla keeps its own binding.
OLD_LOWERING = """
import types
from jax._src.interpreters import mlir, pxla
pxla.mlir = types.SimpleNamespace(**{k: getattr(mlir, k) for k in dir(mlir) if not k.startswith("__")})
"""
OLD = {"gpu": OLD_JAX, "tpu": OLD_LOWERING}


@pytest.mark.parametrize("mode", MODES)
def test_emulation_refuses_a_jax_it_cannot_wrap(mode, tmp_path):
    """Never a silent no-op: a clear RuntimeError naming the routes that escape the emulation."""
    script = tmp_path / "emulation.py"
    script.write_text(emulation.source())
    code = OLD[mode] + f"exec(open({str(script)!r}).read())\n"
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "COURSE_EMULATE": mode},
        timeout=120,
    )
    print(run.stderr[-600:])
    assert run.returncode != 0
    assert f"RuntimeError: COURSE_EMULATE={mode}: cannot emulate" in run.stderr
    assert "jax.numpy.dot" in run.stderr and "do not reach the emulation" in run.stderr
    # and on the JAX it can wrap, the same code runs
    ok = subprocess.run(
        [sys.executable, "-c", code.replace(OLD[mode], "")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "COURSE_EMULATE": mode},
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr[-600:]


def test_a_kernel_that_cannot_emulate_stops_instead_of_running_unemulated(tmp_path, capfd):
    """As an IPython start-up file (how tests and the grader use it), the kernel ends, saying why,
    before any cell runs: grading never goes on without the emulation it was asked for."""
    env = emulation_env(tmp_path, "tpu")
    startup = tmp_path / "ipython" / "profile_default" / "startup"
    (startup / "00-a-old-jax.py").write_text(OLD_LOWERING)  # runs before 00-emulate-precision.py
    km = KernelManager(kernel_name="python3")
    km.start_kernel(env={**os.environ, **env}, cwd=str(tmp_path))
    kc = km.client()
    kc.start_channels()
    try:
        with pytest.raises(RuntimeError, match="died"):
            kc.wait_for_ready(timeout=120)
        assert not km.is_alive()
    finally:
        kc.stop_channels()
        km.cleanup_resources()
    assert "cannot emulate TPU precision" in capfd.readouterr().err


PARTS_PROBE = """
import sys
import numpy as np
exec(open(sys.argv[1]).read())
import jax, jax.numpy as jnp
rng = np.random.default_rng(7)
outs, loops = [], []
# (m, k, n): parts = passes x ceil(k / 128): one pass (DEFAULT, bf16 inputs), three (HIGH), six (HIGHEST)
for m, k, n in [(3, 130, 4), (8, 300, 5), (2, 1000, 3), (4, 256, 1 + 1), (5, 2100, 2)]:
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = np.abs(rng.standard_normal((k, n))).astype(np.float32)
    zero = np.full((m, k), -0.0, np.float32)  # with b >= 0 below: every product -0
    spiky = a.copy()
    spiky[0, ::7], b[3, 0] = np.inf, np.nan
    for x in (a, zero, spiky, a * 1e-36):
        for precision in (None, "high", "highest"):
            f = jax.jit(lambda p, q: jnp.dot(p, q, precision=precision))
            outs.append(np.asarray(f(x, b)))
            loops.append("while" in f.lower(x, b).as_text())
        g = jax.jit(lambda p, q: jnp.dot(p, q, preferred_element_type=jnp.float32))
        outs.append(np.asarray(g(x.astype(jnp.bfloat16), b.astype(jnp.bfloat16))))
np.savez(sys.argv[2], loops=np.array(loops), *outs)
"""


def test_a_few_parts_summed_unrolled_give_the_scans_bits(tmp_path):
    """The chip's dot is emulated as (pass, 128-term chunk) parts added in order to one float32
    accumulator: a scan, or, for at most 16 small parts (most of what a lesson compiles), one batched
    dot and the same additions unrolled, which XLA compiles faster. Both give the same bits (NaN
    payloads aside), a sum of -0 products included; the scan stays for the parts past the limit."""
    script, probe = tmp_path / "emulation.py", tmp_path / "probe.py"
    script.write_text(emulation.source())
    probe.write_text(PARTS_PROBE)
    got = {}
    for name, parts in (("unrolled", None), ("scan", "0")):
        env = {**os.environ, "COURSE_EMULATE": "tpu", "COURSE_EMULATE_UNROLLED_PARTS": parts or "16"}
        out = tmp_path / f"{name}.npz"
        run = subprocess.run(
            [sys.executable, str(probe), str(script), str(out)], capture_output=True, text=True, env=env, timeout=300
        )
        assert run.returncode == 0, run.stderr[-1500:]
        got[name] = np.load(out)
    unrolled, scan = got["unrolled"], got["scan"]
    assert scan["loops"].all(), "with no unrolled parts allowed, every chunked dot is a scan"
    assert not unrolled["loops"][:3].any() and unrolled["loops"][-12:].all(), unrolled["loops"]
    arrays = [k for k in scan.files if k != "loops"]
    assert len(arrays) == 80
    for key in arrays:
        a, b = scan[key], unrolled[key]
        assert np.array_equal(np.isnan(a), np.isnan(b)), key
        keep = ~np.isnan(a)
        assert np.array_equal(a[keep].view(np.uint32), b[keep].view(np.uint32)), key  # -0 and +0 told apart
