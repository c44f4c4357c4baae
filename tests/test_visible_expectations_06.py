"""Issue 64, lesson 06: every visible check's crafted inputs and expected codes, scales and values are
the hidden reference's (the visible cell run with the hidden test's `_ref_*` functions as the answers
passes), and each mistake the chip's hidden test charges fails its visible check (no surprise at
grading: lesson.toml's [chip.surprises] was emptied by these checks). Plain CPU, no emulation: none
of these mistakes is a TPU-only one (the emulated figures: `hardware compare --setup student`)."""

import contextlib
import io
import runpy
import warnings

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from conftest import ROOT
from test_visible_expectations_05_06 import cell_source

from autograder.chip.outcomes import candidates
from autograder.common.mistakes import load

LESSON = "06_block_scaled_formats"
FUNCTIONS = ["mx_quantize", "mx_dequantize", "mx_matmul", "granularity_sweep", "nvfp4_quantize", "nvfp4_dequantize"]
# The mistakes the chip's hidden tests charge and the visible checks recorded on the chip passed
# (lesson.toml's [chip.surprises] before these checks changed).
FORMER_SURPRISES = {
    "mx_quantize": [
        "double-rounding",
        "e8m0-code-wraps",
        "exponent-of-max-over-fmax",
        "exponent-truncated-toward-zero",
        "float32-log2",
        "inf-gets-largest-scale",
        "jax-subnormal-scale",
        "no-exponent-clamp",
    ],
    "mx_dequantize": ["jax-power-scale-flushed", "jax-scales-flushed", "nan-code-becomes-inf"],
    "mx_matmul": ["dequantize-default-block", "ignores-elem-and-block"],
    "granularity_sweep": ["activations-quantized", "blocks-along-n", "mxfp8-e5m2"],
    "nvfp4_quantize": ["elements-divided-by-s-only", "no-zero-scale-guard"],
    "nvfp4_dequantize": ["bf16-arithmetic"],
}


def fresh_namespace() -> dict:
    return {"jax": jax, "jnp": jnp, "np": np, "ml_dtypes": ml_dtypes, "HIGHEST": jax.lax.Precision.HIGHEST}


@pytest.fixture(scope="module")
def reference() -> dict:
    """The hidden test's reference functions (the first hidden cell defines them all), under the
    exercise names."""
    source = cell_source(LESSON, "test_mx_quantize_hidden").split("# Fresh data and shapes")[0]
    namespace = fresh_namespace()
    exec(source, namespace)  # noqa: S102 - the course's own source notebook
    return {f: namespace[f"_ref_{f}"] for f in FUNCTIONS}


def run_visible(function: str, answers: dict) -> str:
    """The visible cell of `function` run with these answers; its printed lines."""
    namespace = fresh_namespace() | answers
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        exec(cell_source(LESSON, f"test_{function}_visible"), namespace)  # noqa: S102
    return out.getvalue()


@pytest.mark.parametrize("function", FUNCTIONS)
def test_visible_check_passes_the_hidden_reference(function, reference):
    """Every literal of the visible check (codes, scales, elements, decoded values) is the hidden
    reference's answer: a drift in either fails here."""
    assert run_visible(function, reference).rstrip().endswith("ok")


@pytest.mark.parametrize(
    "function, mistake", [(f, m) for f, ids in FORMER_SURPRISES.items() for m in ids], ids=lambda v: str(v)
)
def test_visible_check_fails_the_mistake_grading_charges(function, mistake, reference):
    """The mistake, with the reference's other functions (as grading runs it), fails the visible check."""
    (wrong,) = [m for m in load(LESSON) if m.function == function and m.id == mistake]
    with pytest.raises(Exception):  # noqa: B017, PT011 - any failure of the cell: an assertion or a crash
        run_visible(function, with_answer(reference, function, wrong.source))


def with_answer(reference: dict, function: str, source: str) -> dict:
    """The reference's functions, `function` replaced by the one `source` defines."""
    answers = dict(reference)
    namespace = fresh_namespace() | answers
    exec(source, namespace)  # noqa: S102 - the course's own answers
    answers[function] = namespace[function]
    return answers


def correct_answers(function: str) -> dict[str, str]:
    """The solution's answer cell, alternatives.py, and the answers independent/ marks correct."""
    found = {"solution": cell_source(LESSON, f"answer_{function}")}
    found |= {
        c["key"]: c["source"] for c in candidates(LESSON) if c["kind"] == "alternative" and c["function"] == function
    }
    for name in ("train", "heldout"):
        answers = runpy.run_path(str(ROOT / "solutions" / LESSON / "independent" / f"{name}.py"))["ANSWERS"]
        found |= {
            f"independent/{name}.py:{i}": a["source"]
            for i, a in enumerate(answers)
            if a["function"] == function and a["intent"] == "correct"
        }
    return found


@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_correct_answer_passes_the_visible_check(function, reference):
    """No correct answer loses its visible point (plain CPU; the emulated verdicts: `hardware compare`)."""
    failed = {}
    for key, source in correct_answers(function).items():
        try:
            run_visible(function, with_answer(reference, function, source))
        except Exception as exc:  # noqa: BLE001 - reported with its answer
            failed[key] = f"{type(exc).__name__}: {exc}"[:300]
    assert not failed, failed


def test_the_former_surprises_left_lesson_toml():
    from autograder.common import lessonfolder

    notes = lessonfolder.settings(LESSON)
    named = set(notes.surprises) | set(notes.hidden_only)
    assert not named & {f"{f}:{m}" for f, ids in FORMER_SURPRISES.items() for m in ids}


def solution_with(function: str, source: str) -> dict:
    """The solution's six answers in one namespace (each calls the others by name, as a student's
    notebook does), `function` replaced by the one `source` defines."""
    namespace = fresh_namespace()
    for f in FUNCTIONS:
        exec(cell_source(LESSON, f"answer_{f}"), namespace)  # noqa: S102 - the course's own solution
    exec(source, namespace)  # noqa: S102 - the course's own mistake library
    return {f: namespace[f] for f in FUNCTIONS}


@pytest.mark.parametrize(
    "mistake", [m for m in load(LESSON) if m.function in ("mx_quantize", "mx_dequantize")], ids=lambda m: m.key
)
def test_a_wrong_mx_quantizer_costs_no_other_visible_check(mistake):
    """mx_matmul's and granularity_sweep's visible checks compare with the student's own mx_quantize
    and mx_dequantize: a mistake there (NaN, inf, an input changed in place) costs only its own points."""
    answers = solution_with(mistake.function, mistake.source)
    for function in ("mx_matmul", "granularity_sweep"):
        assert run_visible(function, answers).rstrip().endswith("ok"), function
