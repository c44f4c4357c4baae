"""Issue 45 (3): a function's results are compared, for the diagnosis, as its lesson declares
(autograder/common/mistakes.py's NUMBERS_BY_VALUE and PHRASES; diagnosis/compare.as_compared): numbers by
value whatever type carries them, labels by the phrases the hidden test reads in them. A wrong
answer that keeps finfo's NumPy scalars, or words its labels its own way, is named as the mistake
it makes; a function without the declaration still tells a NumPy scalar from a Python float."""

import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

from autograder.common import mistakes
from autograder.grader.diagnosis.compare import as_compared, by_value, same


def test_by_value_makes_one_number_of_every_carrier_and_leaves_arrays_alone():
    for carrier in (0.5, np.float32(0.5), np.float64(0.5), np.array(0.5, np.float32), jnp.float32(0.5)):
        assert type(by_value(carrier)) is float and by_value(carrier) == 0.5, carrier
    assert type(by_value(np.int64(3))) is int and type(by_value(np.array(3))) is int
    assert by_value(np.bool_(True)) is True and by_value(True) is True
    finfo = [ml_dtypes.finfo(t).eps for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3fn)]
    for small in (*finfo, np.array(1.5, ml_dtypes.float8_e4m3fn)):
        assert type(by_value(small)) is float and by_value(small) == float(small), small
    one = np.array([0.5])
    assert by_value(one) is one and by_value("0.5") == "0.5"


def test_as_compared_applies_only_what_is_declared():
    row = {"policy": "BF16 inputs, bf16 Accumulation", "err": np.float32(0.25), "ms": 3.0}
    plain = as_compared(row)
    assert plain == row and type(plain["err"]) is np.float32
    seen = as_compared([row], timings=["ms"], numbers=True, phrases={"policy": ["bf16 accum", "bf16 out", "int8"]})
    assert seen == [{"policy": "<text with: bf16 accum>", "err": 0.25, "ms": "<timing: float>"}]
    assert type(seen) is list and type(as_compared((row,), numbers=True)) is tuple, "containers keep their type"
    assert not same(np.float32(0.25), 0.25), "undeclared: a NumPy scalar is not a Python float"
    assert same(as_compared(np.float32(0.25), numbers=True), as_compared(0.25, numbers=True))


def test_the_declarations_name_functions_of_their_lessons_whose_mistakes_are_not_types_alone():
    """A function whose library holds a type-only mistake must not compare by value (it would
    become unnameable): those stay undeclared."""
    declared = set(mistakes.NUMBERS_BY_VALUE) | set(mistakes.PHRASES)
    for key in declared:
        lesson, function = key.split(":")
        assert any(m.function == function for m in mistakes.load(lesson)), key
    type_only = {
        "01_number_formats:sequential_sum",  # returns-numpy-scalar
        "01_number_formats:bf16_round",  # scalar-for-0d
        "03_int8_quantization:quantize_per_tensor",  # python-float-scale
        "05_precision_policy:train_linear_regression",  # returns-jax-arrays
    }
    assert not declared & type_only


FINFO_RAW = """def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": fi.bits, "exponent_bits": fi.nexp,
                     "mantissa_bits": fi.nmant + 1, "eps": fi.eps, "max": fi.max,
                     "smallest_normal": fi.smallest_normal})
    return rows
"""
FINFO_RAW_RIGHT = FINFO_RAW.replace("fi.nmant + 1", "fi.nmant")


@pytest.mark.slow
def test_a_mistake_carried_by_numpy_scalars_is_named_and_a_right_one_is_not():
    from autograder.course.lessoncheck.variants import grade_variants

    candidates = [
        {"key": "raw", "function": "format_table", "why": "raw", "source": FINFO_RAW},
        {"key": "raw-right", "function": "format_table", "why": "right", "source": FINFO_RAW_RIGHT},
    ]
    _, (wrong, right) = grade_variants("01_number_formats", candidates, solution_tests=False)
    named = {k for keys in wrong.diagnosed.values() for k in keys}
    print(wrong.failed_tests, named, right.failed_tests, right.diagnosed)
    assert named == {"01_number_formats:format_table:nmant-plus-one"}
    assert not any(right.diagnosed.values())


@pytest.mark.compat  # make compat (CI): lessons graded with relabelled mistakes
@pytest.mark.slow
def test_a_mistake_with_its_own_labels_is_named_and_a_false_label_still_tells():
    from autograder.course.lessoncheck.variants import grade_variants

    source = next(m.source for m in mistakes.load("02_matmul_accumulation") if m.id == "scale-128")
    worded = (
        source.replace('"bf16 f32 acc"', '"BF16 x BF16 -> F32 (accumulate in fp32)"')
        .replace('"bf16 out"', '"bf16 in, f32 sum, BF16 OUTPUT"')
        .replace('("int8",', '("INT8 weights (per column)",')
    )
    assert worded != source
    seed_label = source.replace('"bf16 out"', '"bf16 accumulation"')  # the seed's false label, and scale 128
    candidates = [
        {"key": "worded", "function": "evaluate_precision_policies", "why": "worded", "source": worded},
        {"key": "seed-label", "function": "evaluate_precision_policies", "why": "seed", "source": seed_label},
    ]
    _, (a, b) = grade_variants("02_matmul_accumulation", candidates, solution_tests=False)
    named_a = {k for keys in a.diagnosed.values() for k in keys}
    named_b = {k for keys in b.diagnosed.values() for k in keys}
    print(named_a, named_b)
    assert named_a == {"02_matmul_accumulation:evaluate_precision_policies:scale-128"}
    assert "02_matmul_accumulation:evaluate_precision_policies:scale-128" not in named_b, "its label is another"
