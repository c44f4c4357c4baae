"""The skeleton of a new lesson: ``python -m autograder.course.lessoncheck new NN_name "Title"``.

A small, complete lesson (one exercise) that passes every lesson check as it is, written into
solutions/NN_name/ with every companion of a lesson's folder (common/lessonfolder.py): the notebook,
written with the authoring helper (course/authoring.py), and lesson.toml, mistakes.py,
alternatives.py, heldout.py and claims.py. The author replaces its example by their own lesson.
``worked_example`` is docs/AUTHORING.md's worked example, line for line (tests/test_new_lesson.py).
"""

from __future__ import annotations

from pathlib import Path

from ..common.config import ROOT
from ..common.lessonfolder import NAME, folder
from ..common.notebooks import every_lesson
from .authoring import Lesson


# --- worked example: begin (docs/AUTHORING.md shows this function as it stands)
def worked_example(name: str, title: str, root: Path = ROOT) -> Lesson:
    """A lesson with one exercise, bf16_spacing, cell by cell, for the course at ``root``."""
    lesson = Lesson(name, root)
    lesson.md(f"""
        <!-- colab-badge -->
        # {name[:2]} · {title}

        bfloat16 keeps 7 of float32's 23 mantissa bits. This lesson measures what that costs: how
        far apart neighbouring bfloat16 numbers are, and how that gap grows with the value.

        **You will be able to**
        - compute the gap between a bfloat16 number and the next one up;
        - explain why the gap doubles at every power of two.

        **Time**: 10–20 minutes. **Prerequisites**: NumPy, powers of two.

        <details><summary>What the time assumes</summary>

        Reading the main text, about 350 words, at 150 words a minute: about 2 minutes. The notes
        are extra. Running the 4 demo cells and reading what they print: 1 minute each. The
        exercises' 3 points: 2 minutes a point, a first attempt with its visible check.

        </details>

        **Grading** (3 points): 1 exercise. It has an answer cell, a visible test you can run, and
        hidden tests that the grader runs with fresh inputs and edge cases.
        Replace `raise NotImplementedError()` in each answer cell with your code and keep the `def`
        line. At grading, only the answer cells' imports, `def`s, classes and constants run, with the
        setup cell and the lesson's given functions: put any helper in the answer cell.
        Run the notebook top to bottom before you submit.
    """)
    lesson.setup(
        """
        import re

        import jax
        import jax.numpy as jnp
        import matplotlib.pyplot as plt
        import ml_dtypes  # ships with JAX: bfloat16 for NumPy
        import numpy as np
        """,
        after="""
        print("jax", jax.__version__, "| backend:", jax.default_backend(), "| device:", jax.devices()[0].device_kind)
        """,
    )
    lesson.md("""
        ## 1. Within a power of two, bfloat16 numbers are evenly spaced

        A bfloat16 number is $1.m \\cdot 2^e$ with 7 stored mantissa bits. Between $2^e$ and
        $2^{e+1}$ there are $2^7 = 128$ of them, evenly spaced: the gap is $2^{e-7}$. The cell below
        lists every bfloat16 number in $[1, 4)$ from its bits and plots the gaps.
    """)
    lesson.code("""
        bits = np.arange(0x3F80, 0x4080, dtype=np.uint16)  # the bit patterns of 1.0 up to 4.0
        values = bits.view(ml_dtypes.bfloat16).astype(np.float32)
        gaps = np.diff(values)
        print("gap in [1, 2):", gaps[0], "| gap in [2, 4):", gaps[-1])
        assert np.all(gaps[values[:-1] < 2] == 2.0**-7) and np.all(gaps[values[:-1] >= 2] == 2.0**-6)

        fig, ax = plt.subplots(figsize=(6, 3))
        ax.plot(values[:-1], gaps, ".")
        ax.set_xlabel("bfloat16 value")
        ax.set_ylabel("gap to the next one")
        ax.set_title("The gap doubles at 2")
        fig.tight_layout()
        plt.show()
    """)
    lesson.md("""
        ## 2. Rounding to bfloat16 loses at most half a gap

        Rounding to the nearest bfloat16 moves a value by at most half the gap around it. Relative
        to the value, that is at most $2^{-8}$. The cell below checks this on random numbers.
    """)
    lesson.code("""
        x = np.asarray(jax.random.normal(jax.random.PRNGKey(0), (10_000,)), np.float32)
        rounded = jnp.asarray(x).astype(jnp.bfloat16).astype(jnp.float32)
        relative = np.abs(np.asarray(rounded) - x) / np.abs(x)
        print(f"largest relative rounding error: {relative.max():.2e} (bound: {2.0**-8:.2e})")
        assert relative.max() <= 2.0**-8
    """)
    lesson.md("""
        ## Exercise 1: `bf16_spacing` (3 points)

        - **Input**: `x`, a float32 array of finite values with $2^{-126} \\le |x| \\le 2^{100}$.
        - **Output**: a float32 array of the shape of `x`: the gap between $r$, the bfloat16 nearest
          $|x|$, and the next bfloat16 above $r$.
        - **Recipe**: round $|x|$ to bfloat16 first. If $2^e \\le r < 2^{e+1}$, the gap is $2^{e-7}$.

        The hidden test feeds random values over that whole range, negative ones, and values that
        round up to the next power of two. It compares exactly: the gap is a power of two.
    """)
    lesson.answer(
        "bf16_spacing",
        '''
        def bf16_spacing(x):
            """The gap between |x| rounded to bfloat16 and the next bfloat16 up (float32, x's shape)."""
            ### BEGIN SOLUTION
            r = np.abs(np.asarray(x, np.float32)).astype(ml_dtypes.bfloat16).astype(np.float32)
            _, e = np.frexp(r)  # r = m * 2**e with 0.5 <= m < 1
            return np.ldexp(np.float32(1), e - 8).astype(np.float32)
            ### END SOLUTION
    ''',
    )
    lesson.test(
        "bf16_spacing",
        "visible",
        1,
        '''
        """bf16_spacing: the gap at 1 is 2**-7, at 3 it is 2**-6."""
        got = bf16_spacing(np.array([1.0, 3.0], np.float32))
        print("expected [2**-7, 2**-6], got", got)
        assert got.dtype == np.float32 and np.array_equal(got, [2.0**-7, 2.0**-6])
    ''',
    )
    lesson.test(
        "bf16_spacing",
        "hidden",
        2,
        '''
        """bf16_spacing on fresh random values, negative ones and values that round up to a power of two."""
        ### BEGIN HIDDEN TESTS
        # default rule: `bf16_spacing` returns a float32 array of x's shape, the gap above |x| rounded to bfloat16
        def _ref_bf16_spacing(x):
            r = np.abs(np.asarray(x, np.float32)).astype(ml_dtypes.bfloat16).astype(np.float64)
            return (2.0 ** (np.floor(np.log2(r)) - 7)).astype(np.float32)

        rng = np.random.default_rng(globals().get("GRADING_SEED", 2024))
        x = (rng.choice([-1.0, 1.0], 64) * 2.0 ** rng.uniform(-126, 100, 64)).astype(np.float32)
        crafted = np.array([1.0, 1.999, -3.0, 2.0**-126, 2.0**100, 255.9], np.float32)
        for label, data in (("random", x.reshape(8, 8)), ("crafted", crafted)):
            before = data.copy()
            expected = _ref_bf16_spacing(data)
            got = np.asarray(bf16_spacing(data))
            print(f"{label}: {data.size} values from {np.abs(data).min():.3g} to {np.abs(data).max():.3g}")
            # rule: the result is a float32 array of the shape of x
            assert got.dtype == np.float32 and got.shape == data.shape, (got.dtype, got.shape)
            # rule: |x| is rounded to bfloat16 first, and the gap above it is 2**(e - 7)
            assert np.array_equal(got, expected), f"{label}: {int((got != expected).sum())} gaps differ"
            # rule: `bf16_spacing` leaves its input unchanged
            assert np.array_equal(data, before), "x was changed"
        ### END HIDDEN TESTS
    ''',
    )
    lesson.code("""
        magnitudes = np.float32(2.0) ** np.arange(-10, 11, dtype=np.float32)
        try:
            fig, ax = plt.subplots(figsize=(6, 3))
            ax.loglog(magnitudes, bf16_spacing(magnitudes), "o-")
            ax.set_xlabel("|x|")
            ax.set_ylabel("gap")
            ax.set_title("The gap grows with the value")
            fig.tight_layout()
            plt.show()
        except NotImplementedError:
            plt.close("all")
            print("Finish Exercise 1 to see this.")
    """)
    lesson.md("""
        ## Summary

        - Between two powers of two, bfloat16 numbers are evenly spaced: $2^{-7}$ apart in $[1, 2)$,
          $2^{-6}$ in $[2, 4)$.
        - The gap doubles at every power of two, so the relative gap stays within $[2^{-8}, 2^{-7}]$.
        - Rounding to bfloat16 moves a value by at most $2^{-8}$ of itself.
    """)
    return lesson


# --- worked example: end


LESSON_TOML = """# What the course says of {lesson} outside its notebook (docs/AUTHORING.md, "A lesson is one folder").

# The student README's line under "What you will learn": **{number} short_title**: learn
short_title = "{title}"
learn = "how far apart neighbouring bfloat16 numbers are, and why the gap doubles at every power of two."

# The exercise functions docs/COURSE.md fixes for this lesson (none for a new lesson until the design does)
contract = []
"""

MISTAKES = '''"""Known wrong answers of {lesson} (docs/AUTHORING.md, "The library of known mistakes")."""

MISTAKES = [
    {{
        "id": "float16-spacing",
        "function": "bf16_spacing",
        "name": "the gap of float16, not of bfloat16",
        "explanation": "Your gaps are eight times too small: they are those of float16, which keeps 10 mantissa bits. bfloat16 keeps only 7, so its numbers are further apart. Revisit how many bits bfloat16 stores.",
        "section": "1. Within a power of two, bfloat16 numbers are evenly spaced",
        "why": "2**(e - 10): float16's mantissa width",
        "source": """
def bf16_spacing(x):
    r = np.abs(np.asarray(x, np.float32)).astype(ml_dtypes.bfloat16).astype(np.float32)
    _, e = np.frexp(r)
    return np.ldexp(np.float32(1), e - 11).astype(np.float32)
""",
    }},
    {{
        "id": "not-rounded-first",
        "function": "bf16_spacing",
        "name": "the exponent of x itself, not of x rounded to bfloat16",
        "explanation": "Your gap is right for most values but half too small for a value that rounds up to the next power of two, such as 1.999. The gap belongs to the bfloat16 number the value becomes. Round first, then read the exponent.",
        "section": "Exercise 1: `bf16_spacing` (3 points)",
        "why": "frexp of |x| in float32: misses values that round up across a power of two",
        "source": """
def bf16_spacing(x):
    _, e = np.frexp(np.abs(np.asarray(x, np.float32)))
    return np.ldexp(np.float32(1), e - 8).astype(np.float32)
""",
    }},
    {{
        "id": "relative-gap",
        "function": "bf16_spacing",
        "name": "the gap as a fixed fraction of the value",
        "explanation": "Your gap is the value times 2 to the power of minus 7, which is a power of two only at powers of two. The gap is the same for every number between two powers of two. Revisit the plot of section 1.",
        "section": "1. Within a power of two, bfloat16 numbers are evenly spaced",
        "why": "|r| * 2**-7: proportional, not stepwise",
        "source": """
def bf16_spacing(x):
    r = np.abs(np.asarray(x, np.float32)).astype(ml_dtypes.bfloat16).astype(np.float32)
    return (r * np.float32(2.0**-7)).astype(np.float32)
""",
    }},
]
'''

ALTERNATIVES = '''"""Correct answers of {lesson} other than the reference (docs/AUTHORING.md, "Other people's correct answers")."""

ALTERNATIVES = [
    {{
        "function": "bf16_spacing",
        "why": "the next bfloat16 up from its bits, minus the rounded value",
        "source": """
def bf16_spacing(x):
    r = np.abs(np.asarray(x, np.float32)).astype(ml_dtypes.bfloat16)
    above = (r.view(np.uint16) + np.uint16(1)).view(ml_dtypes.bfloat16)
    return (above.astype(np.float32) - r.astype(np.float32)).astype(np.float32)
""",
    }},
]
'''

HELDOUT = '''"""Wrong answers of {lesson} written apart from the library (docs/AUTHORING.md, "Wrong answers written
apart from the library"): each names the library's mistake it makes."""

HELDOUT = [
    {{
        "key": "{lesson}:bf16_spacing:float16-spacing",
        "function": "bf16_spacing",
        "why": "held-out: float16's ten bits, value by value with math.log2",
        "source": """
def bf16_spacing(x):
    import math

    gaps = []
    for v in np.abs(np.asarray(x, np.float32)).ravel():
        r = float(np.float32(v).astype(ml_dtypes.bfloat16))
        gaps.append(2.0 ** (math.floor(math.log2(r)) - 10))
    return np.array(gaps, np.float32).reshape(np.shape(x))
""",
    }},
]
'''

CLAIMS = '''"""Claims backing the explanations of {lesson}'s mistakes.py (tests/test_claims.py)."""

CLAIMS = {{
    "bf16_spacing:float16-spacing": [
        "bf16_spacing(np.float32([1.0]))[0] * 8 == reference['bf16_spacing'](np.float32([1.0]))[0]",
        "np.finfo(np.float16).nmant == 10 and ml_dtypes.finfo(ml_dtypes.bfloat16).nmant == 7",
    ],
    "bf16_spacing:not-rounded-first": [
        "bf16_spacing(np.float32([1.999]))[0] * 2 == reference['bf16_spacing'](np.float32([1.999]))[0]",
        "bf16_spacing(np.float32([1.5]))[0] == reference['bf16_spacing'](np.float32([1.5]))[0]",
    ],
    "bf16_spacing:relative-gap": [
        "bf16_spacing(np.float32([2.0]))[0] == 2.0**-6",
        "bf16_spacing(np.float32([3.0]))[0] != reference['bf16_spacing'](np.float32([3.0]))[0]",
    ],
}}

# (entry, another entry of the same function): the first's claims do not all hold for the second's code
DISTINCT = [
    ("bf16_spacing:float16-spacing", "bf16_spacing:not-rounded-first"),
]
'''


def new_lesson(name: str, title: str, root: Path = ROOT) -> Path:
    """Write the skeleton into solutions/<name>/; ValueError where the name is not NN_name, or its
    folder or its number is taken."""
    if not NAME.fullmatch(name):
        raise ValueError(f"a lesson's name is NN_name, two digits and lowercase words: not {name!r}")
    taken = [n for n in every_lesson(root) if n[:2] == name[:2]]
    if folder(name, root).exists() or taken:
        raise ValueError(f"{folder(name, root)} exists, or lesson number {name[:2]} is taken: {taken}")
    path = worked_example(name, title, root).write(root)
    fill = {"lesson": name, "number": name[:2], "title": title}
    for file, text in (("lesson.toml", LESSON_TOML), ("mistakes.py", MISTAKES), ("alternatives.py", ALTERNATIVES)):
        (path.parent / file).write_text(text.format(**fill), encoding="utf-8")
    for file, text in (("heldout.py", HELDOUT), ("claims.py", CLAIMS)):
        (path.parent / file).write_text(text.format(**fill), encoding="utf-8")
    return path.parent
