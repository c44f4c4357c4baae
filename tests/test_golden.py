"""The CPU emulation of TPU precision (autograder/chip/) held to a real chip's bits.

tests/data/tpu/tpu_golden.{npz,json} were recorded on a TPU v5e (JAX 0.10.2, libtpu 0.0.42.1,
2026-12-05) by ``python -m autograder.chip.hardware golden --out tests/data/tpu``: seeded inputs and what
the chip computed from them. Here the emulation recomputes every float32 dot from the stored inputs
in a fresh process with COURSE_EMULATE=tpu (as a graded notebook runs) and must agree with the chip
within stated tolerances; the chip's own behaviour (HIGH's truncated split, single products, casts
inside jit, bf16 outputs) is asserted from the data, so that a golden file recorded on a future
libtpu that changes any of it fails here and names the text to revisit. docs/HARDWARE.md says how
to re-record and what to do when this fails.
"""

import json
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

from autograder.chip.golden import DOTS, load
from benchmarks.tpu_precision_models import chip_dot
from conftest import ROOT

GOLDEN = ROOT / "tests" / "data" / "tpu"
U = 2.0**-24  # float32 unit roundoff
# Where a failure sends the maintainer (the claims these assertions hold up)
MATMUL_TEXT = (
    "autograder/chip/emulate_precision.py and tpu_compiler.py (docstrings and model), docs/GRADING.md and "
    "docs/HARDWARE.md ('Calibrated against the chip'), lesson 02's HIGH/HIGHEST text, docs/COURSE.md's matmul facts"
)
CAST_TEXT = (
    "lesson 05's section on casts inside jit, lesson 02's bf16-output policy, docs/GRADING.md "
    "('what the emulation does not model'), docs/COURSE.md's cast facts"
)

EMULATE = """
import json, sys
import numpy as np
from autograder.chip.emulation import source
exec(compile(source(), "emulation", "exec"))
import jax, jax.numpy as jnp
from autograder.chip.golden import DOTS, load
arrays, _ = load("tests/data/tpu")
out = {}
for name in DOTS:
    x, w = jnp.asarray(arrays[name + "_x"]), jnp.asarray(arrays[name + "_w"])
    for p in ("default", "high", "highest"):
        out[f"{name}_{p}_jit"] = jax.jit(lambda a, b, p=p: jnp.dot(a, b, precision=p))(x, w)
        out[f"{name}_{p}"] = jnp.dot(x, w, precision=p)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    out[name + "_bf16_f32out"] = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    out[name + "_bf16_bf16out"] = jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16).astype(jnp.float32)
np.savez(sys.argv[1], **{k: np.asarray(v) for k, v in out.items()})
"""


@pytest.fixture(scope="module")
def golden():
    arrays, meta = load(GOLDEN)
    return arrays, meta


@pytest.fixture(scope="module")
def emulated(tmp_path_factory):
    """Every dot of the golden file, computed on this CPU under COURSE_EMULATE=tpu."""
    out = tmp_path_factory.mktemp("golden") / "emulated.npz"
    env = {"COURSE_EMULATE": "tpu", "JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", EMULATE, str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    with np.load(out) as npz:
        return {k: npz[k] for k in npz.files}


def exact(arrays, name):
    return arrays[name + "_x"].astype(np.float64) @ arrays[name + "_w"].astype(np.float64)


def err(value, reference):
    return float(np.abs(np.asarray(value, np.float64) - reference).max())


def bits_equal(a, b):
    return float(np.mean(np.asarray(a, np.float32).view(np.uint32) == np.asarray(b, np.float32).view(np.uint32)))


def summation_bound(arrays, name, passes=1):
    """Two float32 sums of the same exact products, in any orders, differ by at most
    2 (n - 1) u sum|products| (each is within (n - 1) u sum|p| of the exact sum; Higham, Accuracy
    and Stability, 4.2): n = passes * K terms. For one bf16 pass the products are those of the
    bf16-rounded inputs."""
    x, w = arrays[name + "_x"], arrays[name + "_w"]
    xb = x.astype(ml_dtypes.bfloat16).astype(np.float64)
    wb = w.astype(ml_dtypes.bfloat16).astype(np.float64)
    n = passes * x.shape[1]
    return 2 * (n - 1) * U * (np.abs(xb) @ np.abs(wb))


def test_the_golden_file_is_a_tpu_record(golden):
    arrays, meta = golden
    assert meta["backend"] == "tpu" and meta["device_kind"].startswith("TPU"), meta["device_kind"]
    assert meta["versions"]["jax"] and meta["date"] and not meta["failed"], meta["failed"]
    for name in DOTS:
        for p in ("default", "high", "highest"):
            # eager and jit gave the same bits on the chip: one model serves both
            assert np.array_equal(arrays[f"{name}_{p}"].view(np.uint32), arrays[f"{name}_{p}_jit"].view(np.uint32))
    assert (GOLDEN / "tpu_golden.npz").stat().st_size < 1_000_000


# --- the chip's matmul arithmetic, as the data shows it (benchmarks/tpu_precision_models.py) ---

# Share of elements bit-equal to the chip that the NumPy model (chip_dot) reaches, per dot: it is
# the chip's arithmetic up to the order of a few float32 additions. Measured: DEFAULT 96.0/91.0/100
# % (l02/k1024/k4), HIGH 95.2/91.4/99.9 %, HIGHEST 94.7/91.8/100 %; single products 100 %.
MODEL_BITS = {"l02": 0.93, "k1024": 0.88, "k4": 0.99, "k1": 1.0}


@pytest.mark.parametrize("precision", ["default", "high", "highest"])
def test_the_chip_model_reproduces_the_chips_bits(golden, precision):
    arrays, meta = golden
    for name in DOTS:
        chip = arrays[f"{name}_{precision}_jit"]
        model = chip_dot(arrays[name + "_x"], arrays[name + "_w"], precision)
        share = bits_equal(model, chip)
        assert share >= MODEL_BITS[name], (
            f"{meta['device_kind']} ({meta['versions']}): {precision.upper()} on {name} is no longer the "
            f"model of benchmarks/tpu_precision_models.py (bit-equal {share:.1%}); rerun that script "
            f"and revisit {MATMUL_TEXT}"
        )


def test_high_splits_with_a_truncated_hi(golden):
    """HIGH on the chip: x = hi + lo with hi TRUNCATED to bf16, not rounded to nearest; its error is
    2.2-2.5x that of the textbook bf16x3 (hi nearest), and equal to the truncated model's."""
    arrays, _ = golden
    for name in ("l02", "k1024"):
        ex, chip = exact(arrays, name), arrays[f"{name}_high_jit"]
        x, w = arrays[name + "_x"], arrays[name + "_w"]
        truncated, nearest = err(chip_dot(x, w, "high", "truncate"), ex), err(chip_dot(x, w, "high", "nearest"), ex)
        chip_err = err(chip, ex)
        assert abs(truncated / chip_err - 1) < 0.01, (name, truncated, chip_err, MATMUL_TEXT)
        assert 1.8 < chip_err / nearest < 3.5, (name, chip_err, nearest, MATMUL_TEXT)
        assert bits_equal(chip_dot(x, w, "high", "nearest"), chip) < 0.1


def test_a_single_product_is_a_float32_multiply_at_every_precision(golden):
    """K = 1: the chip returns the rounded float32 product at DEFAULT, HIGH and HIGHEST (XLA makes
    the dot a multiply), while a bf16-input dot gives the product of the bf16 inputs."""
    arrays, _ = golden
    x, w = arrays["k1_x"], arrays["k1_w"]
    for p in ("default", "high", "highest"):
        assert np.array_equal(arrays[f"k1_{p}_jit"], (x * w).astype(np.float32)), (p, MATMUL_TEXT)
    xb, wb = x.astype(ml_dtypes.bfloat16).astype(np.float32), w.astype(ml_dtypes.bfloat16).astype(np.float32)
    assert np.array_equal(arrays["k1_bf16_f32out"], xb * wb)


def test_default_is_the_chips_own_bf16_dot(golden):
    arrays, _ = golden
    for name in ("l02", "k1024", "k4"):
        assert np.array_equal(arrays[f"{name}_default_jit"], arrays[f"{name}_bf16_f32out"]), (name, MATMUL_TEXT)


def test_a_bf16_output_dot_accumulates_in_float32_and_rounds_once(golden):
    arrays, _ = golden
    for name in DOTS:
        once = arrays[f"{name}_bf16_f32out"].astype(ml_dtypes.bfloat16).astype(np.float32)
        assert np.array_equal(arrays[f"{name}_bf16_bf16out"], once), (name, CAST_TEXT)


# --- the emulation against the chip ---


def test_default_is_within_summation_order_of_the_chip(golden, emulated):
    arrays, _ = golden
    for name in DOTS:
        chip = arrays[f"{name}_default_jit"].astype(np.float64)
        bound = summation_bound(arrays, name)
        for key in (f"{name}_default_jit", f"{name}_default", f"{name}_bf16_f32out"):
            diff = np.abs(emulated[key] - arrays[key])
            assert np.all(diff <= bound), (key, float((diff - bound).max()), MATMUL_TEXT)
        assert np.array_equal(emulated[f"{name}_default"], emulated[f"{name}_bf16_f32out"]) or name == "k1"
        # measured: 39.8 % (k1024), 58.5 % (l02), 98.3 % (k4), 100 % (k1)
        assert bits_equal(emulated[f"{name}_default_jit"], chip) >= {"k4": 0.95, "k1": 1.0}.get(name, 0.3)


def test_high_is_the_chips_high(golden, emulated):
    """Within 5 % of the chip's own error of the chip (measured 0.2-1.3 %), the same error (ratio
    0.95-1.05), a share of bit-equal elements like DEFAULT's, and within summation order."""
    arrays, _ = golden
    for name in DOTS:
        ex, chip = exact(arrays, name), arrays[f"{name}_high_jit"].astype(np.float64)
        chip_err = err(chip, ex)
        for key in (f"{name}_high_jit", f"{name}_high"):
            got = emulated[key]
            assert err(got, chip) <= 0.05 * chip_err, (key, err(got, chip) / chip_err, MATMUL_TEXT)
            assert 0.95 <= err(got, ex) / chip_err <= 1.05, (key, err(got, ex) / chip_err, MATMUL_TEXT)
            assert np.all(np.abs(got - chip) <= summation_bound(arrays, name, passes=3)), key
        # measured: 38.3 % (k1024), 58.7 % (l02), 99.0 % (k4), 100 % (k1)
        assert bits_equal(emulated[f"{name}_high_jit"], chip) >= {"k4": 0.95, "k1": 1.0}.get(name, 0.3)


def test_highest_is_the_chips_highest(golden, emulated):
    """The chip's HIGHEST error is its float32 summation error (the six passes' products are exact
    to 2^-24): the emulation's error is within 0.8-1.5x of it (measured 1.00-1.34) and differs from
    the chip by at most 2x of it (measured 1.44); a plain float32 CPU dot is 7-9x worse."""
    arrays, _ = golden
    for name in DOTS:
        ex, chip = exact(arrays, name), arrays[f"{name}_highest_jit"].astype(np.float64)
        chip_err = err(chip, ex)
        got = emulated[f"{name}_highest_jit"]
        assert err(got, chip) <= 2 * chip_err, (name, err(got, chip) / chip_err, MATMUL_TEXT)
        assert 0.8 <= err(got, ex) / chip_err <= 1.5, (name, err(got, ex) / chip_err, MATMUL_TEXT)
        assert np.array_equal(got, emulated[f"{name}_highest"])
    assert np.array_equal(emulated["k1_highest_jit"], arrays["k1_highest_jit"])


def test_bf16_input_dots_are_the_chips(golden, emulated):
    arrays, _ = golden
    for name in DOTS:
        assert np.array_equal(emulated[f"{name}_bf16_bf16out"], arrays[f"{name}_bf16_bf16out"]), name
        diff = np.abs(emulated[f"{name}_bf16_f32out"] - arrays[f"{name}_bf16_f32out"])
        assert np.all(diff <= summation_bound(arrays, name)), name


# --- casts: what the chip does and the emulation (a CPU) cannot ---


def normal_f32(x):
    """Inputs that are not float32 subnormals (the chip flushes those to zero) and not NaN."""
    return ~np.isnan(x) & ((np.abs(x) >= 2.0**-126) | (x == 0) | np.isinf(x))


CASTS = ("bfloat16", "float16", "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn")


@pytest.mark.parametrize("dtype", CASTS)
def test_eager_casts_round_and_inside_jit_the_round_trip_is_dropped(golden, dtype):
    arrays, meta = golden
    x = arrays["cast_x"]
    keep = normal_f32(x)
    with np.errstate(over="ignore"):
        rounded = x.astype(getattr(ml_dtypes, dtype, None) or np.dtype(dtype)).astype(np.float32)
    eager = arrays[f"cast_{dtype}"]
    assert np.array_equal(eager[keep], rounded[keep], equal_nan=True), (
        f"{meta['device_kind']}: eager x.astype({dtype}).astype(float32) no longer rounds as ml_dtypes; "
        f"revisit {CAST_TEXT}"
    )
    assert np.array_equal(arrays[f"cast_{dtype}_jit"], x, equal_nan=True), (
        f"{meta['device_kind']} ({meta['versions']}): inside jit x.astype({dtype}).astype(float32) is no longer x "
        f"unchanged (XLA's allow_excess_precision); revisit {CAST_TEXT}"
    )
    assert not np.array_equal(rounded[keep], x[keep])  # the test would be empty otherwise


def test_a_multiply_between_the_casts_does_not_bring_the_rounding_back(golden):
    arrays, _ = golden
    x = arrays["cast_x"]
    with np.errstate(over="ignore"):
        times3 = x * np.float32(3)
    keep = normal_f32(times3)
    assert np.array_equal(arrays["cast_bfloat16_mul3_jit"][keep], times3[keep], equal_nan=True), CAST_TEXT
    assert not np.array_equal(arrays["cast_bfloat16_mul3"][keep], times3[keep]), CAST_TEXT


@pytest.mark.parametrize("label,bits", [("bfloat16", (8, 7)), ("float16", (5, 10)), ("e4m3", (4, 3))])
def test_reduce_precision_rounds_inside_jit(golden, label, bits):
    """reduce_precision inside jit is the rounding the course prescribes; it equals the CPU's."""
    import jax

    arrays, _ = golden
    x = arrays["cast_x"]
    cpu = np.asarray(jax.jit(lambda a: jax.lax.reduce_precision(a, *bits))(x))  # tests run on CPU
    keep = normal_f32(x)
    chip = arrays[f"reduce_precision_{label}_jit"]
    assert np.array_equal(chip[keep], cpu[keep], equal_nan=True), CAST_TEXT
    assert not np.array_equal(chip[keep], x[keep]), CAST_TEXT


def test_a_dot_fed_by_cast_round_trips_inside_jit_sees_rounded_operands(golden):
    """jnp.dot(x.astype(bf16).astype(f32), ..., precision='highest') inside jit gave the bits of the
    eager version and of reduce_precision operands: one bf16 pass, bit for bit. Here XLA keeps the
    rounding (it turns the pair into a bf16 dot); a round trip whose result is not a dot operand
    is dropped (above)."""
    arrays, _ = golden
    for name in ("l02", "k4"):
        one_pass = arrays[f"{name}_bf16_f32out"]
        for key in ("castdot_jit", "castdot_highest_jit", "castdot_highest", "rpdot_highest_jit"):
            assert np.array_equal(arrays[f"{name}_{key}"], one_pass), (name, key, CAST_TEXT)


def test_the_chip_flushes_float32_subnormals(golden):
    """Not modelled by the emulation (the CPU keeps subnormals): stated in docs/GRADING.md."""
    arrays, _ = golden
    x = arrays["cast_x"]
    sub = (np.abs(x) < 2.0**-126) & (x != 0)
    assert sub.any() and np.all(arrays["cast_bfloat16"][sub] == 0), CAST_TEXT


def test_the_metadata_names_every_array(golden):
    arrays, meta = golden
    described = set(meta["arrays"]) | set(meta["identical"])
    assert set(arrays) == described
    json.dumps(meta)


# --- matrix-vector dots (tests/data/tpu/tpu_matvec.{npz,json}, autograder.chip.golden.record_matvec) ---

EMULATE_MATVEC = """
import sys
import numpy as np
from autograder.chip.emulation import source
exec(compile(source(), "emulation", "exec"))
import jax, jax.numpy as jnp
from autograder.chip.golden import MATVEC_SHAPES
arrays = dict(np.load("tests/data/tpu/tpu_matvec.npz"))
out = {}
for m, k, n in MATVEC_SHAPES:
    name = f"{m}x{k}x{n}"
    x, w = jnp.asarray(arrays[name + "_x"]), jnp.asarray(arrays[name + "_w"])
    for p in ("default", "high", "highest"):
        out[f"{name}_{p}"] = jnp.dot(x, w, precision=p)
        out[f"{name}_{p}_jit"] = jax.jit(lambda a, b, p=p: jnp.dot(a, b, precision=p))(x, w)
    out[name + "_default_vec1d"] = jnp.dot(x, w[:, 0])
np.savez(sys.argv[1], **{k: np.asarray(v) for k, v in out.items()})
"""


@pytest.fixture(scope="module")
def matvec():
    from autograder.chip.golden import MATVEC_META, MATVEC_NPZ

    with np.load(GOLDEN / MATVEC_NPZ) as npz:
        return {k: npz[k] for k in npz.files}, json.loads((GOLDEN / MATVEC_META).read_text())


def f32_bound(x, w):
    """How far two float32 sums of the products of x @ w (each product rounded once) may be from the
    exact result, in any order: (K + 1) u sum|x||w| (Higham 3.5)."""
    return (x.shape[1] + 1) * U * (np.abs(x.astype(np.float64)) @ np.abs(w.astype(np.float64)))


def test_a_matrix_vector_dot_is_float32_on_the_chip_at_every_precision(matvec):
    """M = 1 or N = 1 (a 1-D vector too): the chip's DEFAULT, HIGH and HIGHEST are float32 dots, within
    float32 summation error of the exact product, eager and in jit; the same data with N = 2 or 8, or
    M = 8, is one bf16 pass at DEFAULT (error 0.1-0.17, far outside that bound). On a v5e with JAX
    0.10.2 a matrix-vector product never reaches the MXU as a bf16 pass."""
    arrays, meta = matvec
    assert meta["device_kind"].startswith("TPU"), meta["device_kind"]
    from autograder.chip.golden import MATVEC_SHAPES

    for m, k, n in MATVEC_SHAPES:
        name = f"{m}x{k}x{n}"
        x, w = arrays[name + "_x"], arrays[name + "_w"]
        ex, bound = x.astype(np.float64) @ w.astype(np.float64), f32_bound(x, w)
        for p in ("default", "high", "highest"):
            for key in (f"{name}_{p}", f"{name}_{p}_jit"):
                inside = bool(np.all(np.abs(arrays[key] - ex) <= bound))
                print(f"{key}: max error {err(arrays[key], ex):.2e}, float32 bound {float(bound.max()):.2e}")
                assert inside or (min(m, n) > 1 and p != "highest"), (key, MATMUL_TEXT)
        if min(m, n) == 1:  # one float32 dot, whatever the precision asked
            assert np.array_equal(arrays[f"{name}_default"], arrays[f"{name}_highest"]), (name, MATMUL_TEXT)
            assert np.array_equal(arrays[f"{name}_high_jit"], arrays[f"{name}_highest_jit"]), (name, MATMUL_TEXT)
        else:  # DEFAULT one bf16 pass, far outside float32's bound
            assert not np.all(np.abs(arrays[f"{name}_default_jit"] - ex) <= bound), (name, MATMUL_TEXT)
        v1 = arrays[name + "_default_vec1d"]
        assert np.all(np.abs(v1 - ex[:, 0]) <= bound[:, 0]), (name, "a 1-D vector", MATMUL_TEXT)
        if min(m, n) > 1:
            one_pass = chip_dot(x, w, "default", "nearest")
            assert err(arrays[f"{name}_default_jit"], ex) == pytest.approx(err(one_pass, ex), rel=0.01)


def test_the_emulation_computes_a_matrix_vector_dot_as_the_chip_does(tmp_path, matvec):
    """Under COURSE_EMULATE=tpu a matrix-vector dot is a float32 dot at every precision (within
    summation order of the chip's), and N = 2 or 8 stays one bf16 pass."""
    arrays, _ = matvec
    out = tmp_path / "emulated_matvec.npz"
    env = {"COURSE_EMULATE": "tpu", "JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", EMULATE_MATVEC, str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    from autograder.chip.golden import MATVEC_SHAPES

    with np.load(out) as emulated:
        for m, k, n in MATVEC_SHAPES:
            name = f"{m}x{k}x{n}"
            x, w = arrays[name + "_x"], arrays[name + "_w"]
            passes = {"default": 1, "high": 3, "highest": 6}
            for p in ("default", "high", "highest"):
                for key in (f"{name}_{p}", f"{name}_{p}_jit"):
                    if min(m, n) == 1:
                        bound = 2 * f32_bound(x, w)  # both within f32_bound of the exact product
                    else:
                        bound = summation_bound({"a_x": x, "a_w": w}, "a", passes=passes[p])
                        bound = np.maximum(bound, 2 * f32_bound(x, w)) if p == "highest" else bound
                    diff = np.abs(emulated[key] - arrays[key])
                    assert np.all(diff <= bound), (key, float((diff - bound).max()), MATMUL_TEXT)
            assert np.all(
                np.abs(emulated[name + "_default_vec1d"] - arrays[name + "_default_vec1d"]) <= 2 * f32_bound(x, w)[:, 0]
            )
