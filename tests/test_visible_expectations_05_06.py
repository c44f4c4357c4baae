"""Issue 64: lessons 05 and 06's visible checks compare with expected values, held here to the hidden
references of the source notebooks (a drift in either fails).

- 06 `granularity_sweep`: the visible cell's EXPECTED literals (seed 9, blocks (16, 64)) are the hidden
  test's exact float64 reference, to the 6 decimals printed.
- 05 `policy_table`: the visible cell recomputes each policy's error from the runtime's own draws
  (`_policy_errors`); every reading it accepts lies in the hidden test's range for every correct
  answer, and every mistake it names lies outside it (the visible check names only what grading
  charges)."""

import ast

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from conftest import source_nb

from autograder.common.notebooks import cell_grade_id


def cell_source(lesson: str, grade_id: str) -> str:
    cells = [c for c in source_nb(lesson).cells if cell_grade_id(c) == grade_id]
    assert len(cells) == 1, grade_id
    return cells[0].source


def definitions(source: str, names: set[str]) -> dict:
    """The named top-level functions and assignments of a cell, executed alone (nothing else runs)."""
    tree = ast.parse(source)
    keep = [
        n
        for n in tree.body
        if (isinstance(n, ast.FunctionDef) and n.name in names)
        or (isinstance(n, ast.Assign) and {getattr(t, "id", "") for t in n.targets} & names)
    ]
    assert {getattr(n, "name", None) or n.targets[0].id for n in keep} == names, names
    namespace = {"jax": jax, "jnp": jnp, "np": np, "ml_dtypes": ml_dtypes}
    exec(compile(ast.Module(body=keep, type_ignores=[]), grade_id_of(source), "exec"), namespace)  # noqa: S102
    return namespace


def grade_id_of(source: str) -> str:
    return source.splitlines()[0][:60]


def test_granularity_sweep_visible_expectations_are_the_hidden_reference():
    lesson = "06_block_scaled_formats"
    visible = definitions(cell_source(lesson, "test_granularity_sweep_visible"), {"EXPECTED"})["EXPECTED"]
    hidden = definitions(
        cell_source(lesson, "test_granularity_sweep_hidden"),
        {"_ref_mx_quantize", "_ref_mx_dequantize", "_ref_sweep_data", "_ref_int8", "_ref_granularity_sweep"},
    )
    reference = hidden["_ref_granularity_sweep"](9, (16, 64))
    assert set(visible) == {"per_tensor", "per_channel"}
    for key, values in visible.items():
        assert values == pytest.approx(reference[key], abs=5e-7), (key, values, reference[key])


@pytest.fixture(scope="module")
def policy_table_cells():
    lesson = "05_precision_policy"
    toolbox = next(c.source for c in source_nb(lesson).cells if "def quantize_symmetric" in c.source)
    visible = definitions(cell_source(lesson, "test_policy_table_visible"), {"_policy_errors"})
    visible.update(definitions(toolbox, {"quantize_symmetric"}))
    hidden = definitions(
        cell_source(lesson, "test_policy_table_hidden"), {"_U", "_bf16", "_int8_range", "_ref_error_ranges"}
    )
    return visible, hidden


# Each policy: the visible check's accepted readings (a rounded bf16 output only where the runtime's
# own arithmetic rounds it: checked apart) and the mistakes its messages name.
ACCEPTED = {
    "bf16": ["bf16"],
    "int8_weight_only": ["int8_weight_only, x in float32", "int8_weight_only, x in bf16"],
    "w8a8": ["w8a8"],
}
NAMED = {
    "bf16": ["bf16 output rounded to bf16", "bf16 with x left in float32"],
    "int8_weight_only": ["int8_weight_only as one bf16 pass (DEFAULT float32 dot)"],
}
# Inside the hidden test's range at this size (a bound for any data, wider than the contract): an
# unrounded x is charged by its K = 1 case (next test); the DEFAULT dot of dequantized weights is not
# what the contract allows (x times the exactly dequantized weights), 3 % to 5 % from both readings.
WITHIN_THE_WIDE_BOUND = {"bf16 with x left in float32", "int8_weight_only as one bf16 pass (DEFAULT float32 dot)"}


def test_policy_table_visible_expectations_lie_in_the_hidden_ranges(policy_table_cells):
    """On the lesson's data (seed 0, 256 x 1024 x 256), which the visible check calls."""
    visible, hidden = policy_table_cells
    errors = visible["_policy_errors"](0, 256, 1024, 256)
    ranges = hidden["_ref_error_ranges"](0, 256, 1024, 256)
    for policy, readings in ACCEPTED.items():
        for reading in readings:
            assert any(lo <= errors[reading] <= hi for lo, hi in ranges[policy]), (reading, errors[reading])
        for mistake in NAMED.get(policy, []):
            # the visible check's tolerance (1e-3 for bf16, 5e-3 for int8) keeps it apart from every reading
            assert all(abs(errors[mistake] - errors[r]) > 1e-2 * errors[r] for r in readings), mistake
            if mistake not in WITHIN_THE_WIDE_BOUND:
                assert not any(lo <= errors[mistake] <= hi for lo, hi in ranges[policy]), (mistake, errors[mistake])


def test_policy_table_visible_k1_expectation_is_the_hidden_reading(policy_table_cells):
    """K = 1 (seed 1, 8 x 1 x 8): the bf16 policy's expected error is the hidden test's, within float32
    roundings, and the unrounded x it names lies outside the hidden range."""
    visible, hidden = policy_table_cells
    errors = visible["_policy_errors"](1, 8, 1, 8)
    ((lo, hi),) = hidden["_ref_error_ranges"](1, 8, 1, 8)["bf16"]
    assert lo <= errors["bf16"] <= hi
    assert not lo <= errors["bf16 with x left in float32"] <= hi
    assert abs(errors["bf16 with x left in float32"] - errors["bf16"]) > 1e-4 * errors["bf16"]


@pytest.mark.parametrize("seed, steps, lr", [(0, 60, 0.1), (1, 20, 0.05)])
def test_train_linear_regression_visible_losses_are_the_hidden_exact_losses(seed, steps, lr):
    """The fp32 losses the visible check expects (seed 0 at lr 0.1, seed 1 at lr 0.05) are the hidden
    test's exact float64 losses of the update rule, held with the hidden test's own tolerance on its
    fixed problem (1e-5 relative; a float32 run at HIGHEST deviates by at most 4.1e-7 on these inputs,
    measured on a TPU v5e and 3.9e-7 on a CPU)."""
    lesson = "05_precision_policy"
    given = next(c.source for c in source_nb(lesson).cells if "def regression_problem" in c.source)
    problem = definitions(given, {"regression_problem"})
    problem["HIGHEST"] = jax.lax.Precision.HIGHEST
    visible = definitions(cell_source(lesson, "test_train_linear_regression_visible"), {"_exact_losses"})
    hidden = definitions(cell_source(lesson, "test_train_linear_regression_hidden"), {"_U", "_fp32_loss_ranges"})
    visible["regression_problem"] = hidden["regression_problem"] = problem["regression_problem"]
    want = visible["_exact_losses"](seed, steps, lr)
    ranges = hidden["_fp32_loss_ranges"](seed, steps, lr)
    assert want == pytest.approx([c for c, _ in ranges], rel=1e-12)
    tolerance = "rtol=1e-5"
    assert tolerance in cell_source(lesson, "test_train_linear_regression_hidden")
    assert "abs(_got[t] - _want[t]) > 1e-5 * _want[t]" in cell_source(lesson, "test_train_linear_regression_visible")
