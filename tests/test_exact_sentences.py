"""Sentences that expert readers found inexact stay out of the student release (issue 67), and the
sentences that replaced them keep agreeing with the code they describe.

Where a sentence states a computed fact, the lesson's own cell asserts the fact (lesson 01's
float16 mean, lesson 03's 127.00001 quotient, lesson 06's MXFP4 decode to bf16 ...): those run
with the notebooks (tests/test_notebooks.py). This file holds the rest: the retired wording,
matched on the published markdown with its line breaks folded, and the sentences that describe
another cell of the lesson (a visible check's inputs, a hidden test's tolerance, where traces go),
checked against that cell's source.
"""

import ast
import json
import re

import pytest

from autograder.common.notebooks import cell_grade_id
from conftest import ROOT, source_nb

# lesson -> (retired wording as a regular expression, why it is inexact)
RETIRED = {
    "01_number_formats": [
        (r"\(\"\*\*f\*\*inite, \*\*n\*\*o inf\"\)", "in ml_dtypes' names n is the NaN encoding, not 'no inf'"),
        (r"An exponent field of zero marks a subnormal number, which", "a zero exponent field is also +-0"),
        (r"The mean itself is safe", "the mean square, about 90,000, is inf in float16 on its own"),
        (r"±inf \(\|x\| ≥ `0x7F7F8000`", "compares a value with a bit pattern"),
        (r"has a square above 65504, which is `inf`", "65510 rounds to 65504: inf starts at 65520"),
        (r"every binade of every format", "the cell counts the 16- and 8-bit formats only"),
        (r"JAX adds 16-bit floats in float32", "only reductions widen: a bf16 + in JAX still rounds to bf16"),
    ],
    "02_matmul_accumulation": [
        (r"section 3 prints the ratio", "the cell after Exercise 1, in section 2, prints it"),
        (r"return that bf16 array", "the function returns dicts"),
        (r"small enough that a v5e keeps the rounding", "a jitted round trip drops it past 1 x 1"),
        (r"is computed in float32 at any precision", "an explicit algorithm (BF16_BF16_F32) is obeyed"),
        (r"the cell after Exercise 1 prints the ratio", "the cell after it is its visible check"),
        (r"computed exactly, in float32 at `HIGHEST`", "a float32 dot at HIGHEST is float32-accurate, not exact"),
        (r"exact to about 1e-15", "float64 sums err by up to 3.7e-14 at K = 4096"),
    ],
    "03_int8_quantization": [
        (r"JAX follows NumPy's type rules", "the next cell shows the rules differ (int32 x float32)"),
        (r"an exact reference needs `precision=jax\.lax\.Precision\.HIGHEST`", "HIGHEST is float32-accurate"),
        (r"against an \*exact\* reference", "the references are float64 or HIGHEST"),
        (r"Both products must be exact", "HIGHEST is float32-accurate, not exact"),
        (r"the quotients never exceed 127", "a float32 quotient reaches 127.00001"),
        (r"The visible check does the same, with seeds 9 and 10", "it compares with the student's own Exercises 1-3"),
        (r"rounds at every addition past 2²⁴", "2^24 + 2 and + 4 are exact"),
        (r"The int32 accumulation is exact on every backend;", "only while K * 127^2 < 2^31"),
        (r"so `-q` always fits and no zero point", "no zero point comes from zero mapping to 0"),
        (r"\"fn\" for finite, no infinities\.", "n is the NaN encoding, not 'no infinities' (a second reading)"),
        (
            r"which is why this lesson's tests accept either neighbour",
            "near-ties, not rare ties, are why (second reading)",
        ),
    ],
    "04_xprof_profiling": [
        (r"Every trace goes to a temporary directory, or to `\$TPU_TRACE_DIR`", "the visible checks ignore it"),
        (r"counting them too would double the time", "a launch lasts as long as the API call, not the kernel"),
        (r"over 100x on a CPU", "about 150x emulated and 90x native: it depends on CHIP"),
    ],
    "05_precision_policy": [
        (r"ready after about 28 ms", "72-193 ms were measured on 2 cores: the figure depends on the machine"),
        (r"the XLA client's thread on a CPU", "a CPU trace spreads the ops over XLA's worker threads"),
    ],
    "06_block_scaled_formats": [
        (r"lands within 1/16 of 6, instead", "the bound is relative, and maxima above 6 are clipped"),
        (r"keeps every weight exact, and MXFP8 too", "weights below 2^-126 are bf16 subnormals, flushed"),
        (r"MXFP8 is the same with section 4's tiny scales", "under the flush MXFP8 needs scales from 2^-117 or 2^-110"),
        (r"helps a 4-bit grid most at small blocks", "at 128 values a block it errs more than a power of two"),
        (r"It follows IEEE rules, with a largest finite value of 240", "reduce_precision has no subnormals"),
    ],
}


def release_cells(lesson):
    return json.loads((ROOT / "notebooks" / lesson / f"{lesson}.ipynb").read_text())["cells"]


def folded(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def retired_found(lesson: str, cells) -> list[str]:
    markdown = folded("\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown"))
    return [f"{pattern!r}: {why}" for pattern, why in RETIRED[lesson] if re.search(pattern, markdown)]


@pytest.mark.parametrize("lesson", sorted(RETIRED))
def test_retired_inexact_sentences_stay_out(lesson):
    assert retired_found(lesson, release_cells(lesson)) == []


def test_the_retired_patterns_find_the_old_wording():
    old = {
        "01_number_formats": '`float8_e4m3fn` ("**f**inite, **n**o inf") keeps only',
        "03_int8_quantization": "With `scale = max|w| / 127` the quotients never exceed 127 in\nmagnitude",
        "06_block_scaled_formats": "so that each block's maximum lands within 1/16 of 6, instead of anywhere",
    }
    for lesson, text in old.items():
        assert len(retired_found(lesson, [{"cell_type": "markdown", "source": [text]}])) == 1, lesson


def code_cell(lesson: str, grade_id: str) -> str:
    return next(c.source for c in source_nb(lesson).cells if cell_grade_id(c) == grade_id)


def test_lesson_02_says_what_its_visible_accumulation_check_feeds():
    """Exercise 2's text: under the emulation a jitted f32 -> bf16 -> f32 round trip keeps its
    rounding for a 1 x 1 output only (a fresh reader measured 1 x 2 and 2 x 2 dropping it), so the
    visible check holds a 2 x 2 output whose every sum is a tie (2 x 3 had exact integer sums)."""
    import numpy as np

    text = folded(next(c.source for c in source_nb("02_matmul_accumulation").cells if "## Exercise 2" in c.source))
    assert "keeps the rounding only for a 1 × 1 output: the visible check's 2 × 2 tie catches it" in text
    visible = code_cell("02_matmul_accumulation", "test_emulated_bf16_accumulation_visible")
    scope = {"np": np}
    exec(visible.split("for what, x_t, w_t, want in")[0], scope)
    b = scope["_b"]
    ties = [
        (x, w, want)
        for _, x, w, want in scope["_cases"]
        if np.asarray(want).shape == (2, 2) and np.array_equal(np.asarray(x), [[1.0, b / 2, b / 2]] * 2)
    ]
    assert len(ties) == 1 and np.array_equal(np.asarray(ties[0][2]), np.ones((2, 2))), scope["_cases"]


def test_lesson_03_says_which_tiny_rows_the_w8a8_test_feeds():
    text = folded(next(c.source for c in source_nb("03_int8_quantization").cells if "## Exercise 4" in c.source))
    assert "The hidden test's tiny rows have a maximum near 1e-6; the visible check's, 1.27e-13." in text
    assert "max |x| ~ 1e-6" in code_cell("03_int8_quantization", "test_w8a8_matmul_hidden")
    assert "1.27e-13" in code_cell("03_int8_quantization", "test_w8a8_matmul_visible")


def test_lesson_04_sections_trace_below_trace_root():
    """The title cell: the sections' traces go below $TPU_TRACE_DIR if set (TRACE_ROOT); the
    visible checks write to temporary folders of their own. So every folder a demo cell makes for a
    trace is made below TRACE_ROOT."""
    text = folded("".join(release_cells("04_xprof_profiling")[0]["source"]))
    assert "The sections' traces go below `$TPU_TRACE_DIR` if you set it" in text
    outside = []
    for i, cell in enumerate(source_nb("04_xprof_profiling").cells):
        gid = cell_grade_id(cell)
        if cell.cell_type != "code" or gid.startswith(("test_", "answer_")):
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "tempfile.mkdtemp":
                if not any(k.arg == "dir" and ast.unparse(k.value) == "TRACE_ROOT" for k in node.keywords):
                    outside.append(f"cell {i}: {ast.unparse(node)}")
    assert outside == ["cell 1: tempfile.mkdtemp(prefix='xprof-course-')"], "only TRACE_ROOT's own default"


def test_lesson_06_near_tie_tolerance_is_the_hidden_tests():
    text = folded(next(c.source for c in source_nb("06_block_scaled_formats").cells if "## Exercise 5" in c.source))
    assert "within 1e-5, relative, of a rounding boundary" in text and "where float32 rounding allows" in text
    hidden = code_cell("06_block_scaled_formats", "test_nvfp4_quantize_hidden")
    assert "rel=1e-5" in hidden and "where float32 rounding allows" in hidden


def test_the_release_step_says_nothing_of_git_that_it_does_not_check():
    """`lessoncheck check`'s release step compares notebooks/ with a fresh release and never looks at
    git (issue 67: it passed with nothing committed while it said "committed")."""
    from autograder.course.lessoncheck.steps import STEPS

    release = next(s for s in STEPS if s.name == "release")
    assert "committed" not in release.proves and "commit it" in release.proves
    row = next(
        line for line in (ROOT / "docs" / "AUTHORING.md").read_text().splitlines() if line.startswith("| `release` |")
    )
    assert "generated and committed" not in row and "does not look at git" in row


def test_the_authoring_steps_name_what_a_new_author_needed():
    """What slowed an author new to the course (issue 67), said where the step list says it: a
    venv-only first command that the Makefile has, prose run on solutions/ while writing, how to
    test results of random draws, what a wrong earlier exercise costs, how long a sweep takes."""
    guide = folded((ROOT / "docs" / "AUTHORING.md").read_text())
    steps = guide.split("## A new lesson, step by step", 1)[1].split("## ", 1)[0]
    assert "0. **`make test-fast`** makes the venv" in steps
    assert "\ntest-fast:" in (ROOT / "Makefile").read_text()
    assert "`python -m autograder.course.prose solutions/07_fp16_loss_scaling/" in steps
    assert '"No lent oracles", under "Test cells"' in steps and '"Results that depend on random draws"' in steps
    assert "about 12 minutes" in steps
    tests_section = guide.split("## Test cells", 1)[1].split("## ", 1)[0]
    for part in (
        "Results that depend on random draws",
        "Bounds that hold for every seed",
        "Random fields out of the diagnosis",
        "Held-out answers with their own random recipe",
        "No lent oracles (isolation)",
    ):
        assert part in tests_section, part
