"""Issue 64: the visible checks of lessons 02 and 03 compare with expected values, and those values
are the hidden reference's: each expectation a visible cell computes (its host helpers, its crafted
cases) is recomputed here from the hidden test cell's own reference of the source notebook, so that
neither drifts from the other. Only the cells' definitions run (their function definitions and
constant assignments), with NumPy, ml_dtypes and JAX on this CPU."""

import ast

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from conftest import source_nb

from autograder.common.notebooks import cell_grade_id

L02, L03 = "02_matmul_accumulation", "03_int8_quantization"


def definitions(lesson: str, grade_id: str, extra: dict | None = None, assigns: tuple = ()) -> dict:
    """The function definitions and imports of one test cell, and the assignments to ``assigns``,
    run in a namespace holding what the lesson's setup cell defines for them (nothing of the cell's
    checks runs)."""
    cell = next(c for c in source_nb(lesson).cells if cell_grade_id(c) == grade_id)
    tree = ast.parse(cell.source.replace("### BEGIN HIDDEN TESTS", "").replace("### END HIDDEN TESTS", ""))
    keep = [
        n
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.Import, ast.ImportFrom))
        or (isinstance(n, ast.Assign) and [getattr(t, "id", None) for t in n.targets][0] in assigns)
    ]
    ns = {"np": np, "jax": jax, "jnp": jnp, "ml_dtypes": ml_dtypes, **(extra or {})}
    exec(compile(ast.Module(body=keep, type_ignores=[]), grade_id, "exec"), ns)
    return ns


def code_of(lesson: str, grade_id: str) -> str:
    return next(c.source for c in source_nb(lesson).cells if cell_grade_id(c) == grade_id)


def seed_data(seed=0, k=256):
    """Lesson 02's setup-cell helper (the visible checks call it)."""
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    return jax.random.normal(k1, (64, k), dtype=jnp.float32), jax.random.normal(k2, (k, 64), dtype=jnp.float32) * 0.25


def exact_matmul(a, b):
    return np.asarray(a, np.float64) @ np.asarray(b, np.float64)


HELPERS = {"seed_data": seed_data, "exact_matmul": exact_matmul}


def test_the_crafted_sums_of_emulated_bf16_accumulation_are_the_hidden_references():
    """Every crafted case of the visible check: its expected output is what both correct
    trajectories of the hidden reference give (every addition exact, or in float32), bit for bit."""
    visible = definitions(L02, "test_emulated_bf16_accumulation_visible", assigns=("_b", "_cases"))
    hidden = definitions(L02, "test_emulated_bf16_accumulation_hidden", assigns=("_U",))
    assert len(visible["_cases"]) >= 7
    for what, x, w, want in visible["_cases"]:
        x, w, want = (np.asarray(a, np.float32) for a in (x, w, want))
        for ref in (hidden["_ref_emulated_bf16_accumulation"], hidden["_ref_emulated_f32_add"]):
            got = np.asarray(ref(x, w))
            assert got.shape == want.shape and np.array_equal(got, want), what
            assert not np.signbit(got[want == 0]).any(), what


@pytest.mark.parametrize("k", [256, 4, 16])
def test_the_expected_errors_of_accumulation_error_curve_lie_in_the_hidden_ranges(k):
    """The visible check's fp32_accum and bf16_output at each of its K lie in the hidden test's
    ranges of every correct answer."""
    visible = definitions(L02, "test_accumulation_error_curve_visible", HELPERS)
    hidden = definitions(L02, "test_accumulation_error_curve_hidden", HELPERS, assigns=("_U",))
    want = visible["_expected_curve"](k)
    ranges = hidden["_ref_curve_ranges"]((k,), 0)
    for name, v in want.items():
        lo, hi = ranges[name][0]
        assert lo <= v <= hi, (name, lo, v, hi)


@pytest.mark.parametrize("seed", [9, 10])
def test_the_expected_errors_of_granularity_errors_are_the_hidden_references(seed):
    """The visible check's host errors, computed from the student's own Exercises 1-3 (here the
    hidden references of those), equal the hidden reference's: the check ships no quantizer."""
    hidden = definitions(L03, "test_granularity_errors_hidden", assigns=("_U",))
    own = {
        "quantize_per_channel": hidden["_ref_quantize_per_channel"],
        "quantize_per_tensor": hidden["_ref_quantize_per_tensor"],
        "dequantize": hidden["_ref_dequantize"],
    }
    visible = definitions(L03, "test_granularity_errors_visible", own)
    want = hidden["_ref_granularity_errors"](seed)
    got = visible["_expected_granularity"](seed)
    for name in ("per_channel", "per_tensor"):
        # float32 dequantized weights against float64 ones: far inside the check's 2e-5 + 0.1 %
        assert abs(got[name] - want[name]) <= 1e-6 * want[name], (name, got[name], want[name])
    assert "_host_quantize" not in visible and "def _host" not in code_of(L03, "test_granularity_errors_visible")
