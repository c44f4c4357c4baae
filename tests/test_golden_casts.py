"""What a TPU's compiler does with narrow casts inside jit, held against the CPU emulation.

tests/data/tpu/tpu_casts.{npz,json} were recorded on a TPU v5e (JAX 0.10.2, libtpu 0.0.42.1) by
``python -m autograder.chip.hardware casts --out tests/data/tpu``: each pattern of
autograder/chip/cast_patterns.toml (a cast round trip, arithmetic between casts, casts feeding matrix-matrix
and matrix-vector dots, reductions, loops, gradients, nested jits...) run inside ``jax.jit`` (and
some eagerly) on seeded inputs, with the chip's outputs and the HLO its compiler made
(tpu_casts_hlo.json.gz). Here every pattern runs again on this CPU under ``COURSE_EMULATE=tpu``, in
a fresh process as a graded notebook runs, from the stored inputs, and must give the chip's result:

- bit for bit, where the pattern has no float32 sum (casts, elementwise arithmetic, loops,
  stored values, integer results; the sign of a zero included, a NaN's sign and payload not);
- within float32 summation order where it has a dot or a reduction: 1e-6 of the largest value
  (a rounding the chip skipped or added moves them by 1e-3 or more), and one unit in the last
  place of a narrow result (a sum in another order can cross a rounding boundary);
- the chip's float32 division multiplies by an approximate reciprocal (relative error up to 1.6e-5
  measured, when the divisor was cast up from bf16): within 2^-15, where a pattern divides.

Then each rule of the emulation is shown to be needed: with ``COURSE_EMULATE_WITHOUT=<rule>`` at
least one recorded pattern no longer matches. A rule no recorded pattern needs would fail here.
"""

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import ml_dtypes
import numpy as np
import pytest

from autograder.chip.cast_patterns import PATTERNS
from autograder.chip.cast_record import load
from conftest import ROOT

DATA = ROOT / "tests" / "data" / "tpu"
TEXT = "autograder/chip/tpu_compiler.py (its rules and docstring), docs/GRADING.md, lesson 05"

# Patterns whose result has a float32 sum (a dot, a reduction, a mean, a gradient of a dot)
SUMS = ("jnp.dot", "jnp.matmul", "jnp.einsum", "jnp.sum", "jnp.mean", "jax.grad")
# The chip divides by multiplying with an approximate reciprocal
DIVIDES = {"absmax_scale_bf16", "fq_e4m3_scaled", "fq_e2m1_scaled", "scale_div_e4m3", "div_f32", "recip_f32"}
# scan_body_mm_bf16's steps grow 2-3x each: the first step's summation-order difference (1e-7)
# reaches 6e-4 of the largest value by the fifth (a bf16 rounding would be 4e-3 at the first)
AMPLIFIED = {"scan_body_mm_bf16": 1e-3}
# jnp.ldexp on the chip returns a float32 subnormal input unchanged (not a cast rule: left out)
NOT_MODELLED = {"sub_ldexp": "the chip's ldexp returns a subnormal input unchanged"}

# Each rule of the emulation, and the recorded patterns that show it (leaving the rule out loses
# at least one of them)
EVIDENCE = {
    "unrounded-casts": ["rt_bf16", "rt_f16", "rt_e4m3", "rt_e5m2", "residual_bf16", "cond_bf16"],
    "arithmetic": ["mul3_bf16", "chain_bf16", "where_bf16", "to_int8_bf16"],
    "layout": ["reshape_bf16", "bcast_bf16"],
    "single-element": ["py_loop_rt_f32", "scalar_mul_rt", "one_elem_rt", "one_by_one_rt"],
    "constant-division": ["div3_bf16"],
    "reduction-casts": ["grad_cast_mv"],
    "hoisted-casts": ["scan_rows_rt", "scan_vec_carry_bf16"],
    "loops": ["train_master", "scan_body_vec_rt", "while_vec_rt"],
    "cond": ["cond_bf16"],
    "inlined": ["nested_jit_rt", "nested_jit_out"],
    "mxu-operands": ["mmrt_bf16_highest", "mm_lhs_only", "mmrt_e4m3_highest"],
    "e5m2-operands": ["mm_e5m2", "mmrt_e5m2_highest"],
    "f16-highest": ["mmrt_f16_highest"],
    "matrix-vector": ["mv_bf16", "k1_bf16", "mvrt_bf16_highest", "vm_bf16"],
    "integer-dots": ["mm_int8_f32out", "mv_int8_f32out"],
    "cumsum": ["cumsum_bf16"],
    "flush": ["out_bf16", "rp_bf16", "bitcast_bf16"],
    "no-fma": ["chain_bf16"],
}

# Rules the pinned JAX no longer needs, kept because the emulation runs on any JAX it can wrap: each
# is shown redundant here (its patterns match the chip without it), so the check fails if it is needed
KEPT_FOR_OLDER_JAX = {
    # XLA:CPU in JAX 0.12.0.1 summed an int8 x int8 -> float32 dot in float32 (127 * 127 * 4096 off by
    # roundings); from 0.12.1 it accumulates in int32 and converts once, as the chip's MXU does
    "integer-dots": "JAX 0.12.1",
}

RUN = """
import json, os, sys
import numpy as np
from autograder.chip.emulation import source
exec(compile(source(), "emulation", "exec"))
from autograder.chip.cast_record import compute, load
arrays, _ = load("tests/data/tpu")
data = {k[3:]: v for k, v in arrays.items() if k.startswith("in_") and not k.endswith(("_jit", "_eager"))}
names = json.loads(sys.argv[2]) or None
out = {}
failed = {}
for jit in (True, False):
    o, _, f = compute(jit, names=names, data=data)
    out.update(o)
    failed.update(f)
np.savez(sys.argv[1], **out)
print(json.dumps(failed))
"""


def emulate(path, without="", names=(), script=RUN, timeout=600):
    """The recorded patterns (``names``, default all) under the emulation in a fresh process
    (``script``: another record's runner, tests/test_golden_dots.py): (outputs, failures)."""
    env = {"COURSE_EMULATE": "tpu", "JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if without:
        env["COURSE_EMULATE_WITHOUT"] = without
    proc = subprocess.run(
        [sys.executable, "-c", script, str(path), json.dumps(list(names))],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    failed = json.loads(proc.stdout.strip().splitlines()[-1])
    with np.load(path) as npz:
        return {k: npz[k] for k in npz.files}, failed


@pytest.fixture(scope="module")
def chip():
    return load(DATA)


@pytest.fixture(scope="module")
def emulated(tmp_path_factory):
    return emulate(tmp_path_factory.mktemp("casts") / "emulated.npz")


def pattern_of(key: str) -> str:
    return key.rsplit("_", 1)[0]


def outputs(arrays: dict) -> dict:
    """The recorded outputs (``<pattern>_jit``, ``<pattern>_eager``), not the inputs (``in_<name>``)."""
    return {k: v for k, v in arrays.items() if k.endswith(("_jit", "_eager"))}


def mismatch(key: str, chip_value: np.ndarray, got: np.ndarray) -> str:
    """Why ``got`` is not the chip's result for pattern ``key`` by its class ("" if it is)."""
    if got.shape != chip_value.shape or got.dtype != chip_value.dtype:
        return f"shape/dtype {got.shape} {got.dtype}, the chip {chip_value.shape} {chip_value.dtype}"
    name = pattern_of(key)
    source = PATTERNS[name][1]
    a, b = chip_value.astype(np.float64), got.astype(np.float64)
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    if got.dtype.kind == "f":  # the sign of a zero counts; a NaN's sign and payload do not
        same &= (np.signbit(a) == np.signbit(b)) | np.isnan(a)
    if same.all():
        return ""
    finite = np.isfinite(a) & np.isfinite(b)
    if not np.array_equal(np.isfinite(a), np.isfinite(b)) or not finite.any():
        return f"{int((~same).sum())} elements differ (inf/nan)"
    diff = np.abs(a - b)[finite]
    if name in DIVIDES:
        ok = np.all(diff <= 2.0**-15 * np.maximum(np.abs(a[finite]), 2.0**-126))
        return "" if ok else f"past the chip's reciprocal error: max diff {diff.max():.3g}"
    if name in AMPLIFIED or any(s in source for s in SUMS):
        scale = np.abs(a[finite]).max()
        tol = AMPLIFIED.get(name, 1e-6) * scale
        if chip_value.dtype != np.float32 and not chip_value.dtype == np.int32:
            tol = max(tol, float(ml_dtypes.finfo(_recorded_dtype(key)).eps) * scale)
        return "" if diff.max() <= tol else f"past float32 summation order: max diff {diff.max():.3g} of {scale:.3g}"
    return f"{int((~same).sum())} of {same.size} elements differ (max {diff.max():.3g}): not bit for bit"


_DTYPES = json.loads((DATA / "tpu_casts.json").read_text())["dtypes"]


def _recorded_dtype(key):
    name = _DTYPES[key]
    return np.float16 if name == "float16" else getattr(ml_dtypes, name, np.float32)


def test_the_record_is_a_tpu_s(chip):
    arrays, meta = chip
    assert meta["backend"] == "tpu" and meta["device_kind"].startswith("TPU"), meta["device_kind"]
    assert not meta["failed"], meta["failed"]
    recorded = {pattern_of(k) for k in outputs(arrays)}
    assert recorded == set(PATTERNS), sorted(recorded ^ set(PATTERNS))
    assert (DATA / "tpu_casts.npz").stat().st_size < 2_500_000


@pytest.mark.compat  # make compat (CI): every recorded cast pattern again under the emulation
def test_every_recorded_pattern_is_the_chips(chip, emulated):
    arrays, _ = chip
    got, failed = emulated
    assert not failed, failed
    wrong = {}
    for key, value in outputs(arrays).items():
        if pattern_of(key) in NOT_MODELLED:
            continue
        why = mismatch(key, value, got[key])
        if why:
            wrong[key] = why
    assert not wrong, f"{wrong}: revisit {TEXT}"


@pytest.mark.compat  # make compat (CI): reads the same emulated run of every pattern
def test_what_is_not_modelled_is_stated(chip, emulated):
    """The chip's ldexp keeps a float32 subnormal input (the emulation computes it, flushed to 0 by
    the multiply): everything else of the pattern is bit for bit."""
    arrays, _ = chip
    got, _ = emulated
    for key in (k for k in outputs(arrays) if pattern_of(k) == "sub_ldexp"):
        x = arrays["in_vi"]
        subnormal = (np.abs(x) < 2.0**-126) & (x != 0)
        assert np.array_equal(arrays[key][subnormal], x[subnormal]), key
        assert np.array_equal(arrays[key][~subnormal], got[key][~subnormal]), key


def test_the_evidence_names_recorded_patterns():
    for rule, names in EVIDENCE.items():
        assert names and set(names) <= set(PATTERNS), (rule, set(names) - set(PATTERNS))


@pytest.mark.compat  # make compat (CI): each rule of the emulation turned off in turn over every pattern
def test_every_rule_is_needed_by_a_recorded_pattern(chip, tmp_path):
    """With one rule left out, at least one of its evidence patterns is no longer the chip's."""
    arrays, _ = chip

    def without(rule):
        got, _ = emulate(tmp_path / f"{rule}.npz", without=rule, names=EVIDENCE[rule])
        lost = [k for k in got if k in outputs(arrays) and mismatch(k, arrays[k], got[k])]
        return rule, lost

    with ThreadPoolExecutor(2) as pool:
        results = dict(pool.map(without, EVIDENCE))
    unneeded = [rule for rule, lost in results.items() if not lost and rule not in KEPT_FOR_OLDER_JAX]
    assert not unneeded, f"rules no recorded pattern needs: {unneeded} ({results})"
    # a rule kept for older JAX is redundant on the pinned one: its patterns are the chip's without it
    # (were one lost, the CPU changed again and the rule is needed: move it back into the check above)
    regained = {rule: results[rule] for rule in KEPT_FOR_OLDER_JAX if results[rule]}
    assert not regained, f"rules kept for older JAX are needed on this one: {regained}"


# Casts inside jax.checkpoint, custom_vmap and Pallas, probed on the chip (tests/data/tpu/tpu_probes.json,
# recorded by a review of the emulation): the first element of each, 1 + 2^-12 kept or rounded to 1
PROBES = json.loads((DATA / "tpu_probes.json").read_text())
NOT_MODELLED_PROBES = {
    "jit(pallas interpret)": "a Pallas kernel in interpret mode is computed as written",
    "jit(pallas mosaic)": "Mosaic kernels do not run on a CPU",
}
RUN_PROBES = """
import json, sys
from autograder.chip.emulation import source
exec(compile(source(), "emulation", "exec"))
printed = []
probes = sys.argv[1].replace("print(n, float(", "printed.append((n, float(")
exec(compile(probes.replace(".ravel()[0]))", ".ravel()[0])))"), "probes", "exec"))
print(json.dumps(dict(printed)))
"""


def test_casts_in_checkpoint_and_custom_vmap_are_the_chips():
    assert PROBES["backend"] == "tpu"
    env = {"COURSE_EMULATE": "tpu", "JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    code = "\n".join(line for line in PROBES["source"].splitlines() if "mosaic" not in line)
    proc = subprocess.run(
        [sys.executable, "-c", RUN_PROBES, code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    wrong = {
        name: (chip, got.get(name))
        for name, chip in PROBES["results"].items()
        if name not in NOT_MODELLED_PROBES and got.get(name) != chip
    }
    assert not wrong, f"{wrong}: revisit {TEXT}"
