"""Check one lesson the way the test suite does: docs/AUTHORING.md, "A new lesson, step by step".

    python -m autograder.course.lessoncheck new NN_name "Title"

writes a new lesson's folder, solutions/NN_name/, from the skeleton (course/skeleton.py): a small
complete lesson that passes every check, to replace with the author's own.

    python -m autograder.course.lessoncheck check NN_name [--step NAME] [--keep-going]

runs every per-lesson test of the suite (``make test``'s and ``make compat``'s) for that lesson, the
same functions, in the order an author needs them (steps.py: folder, skeleton, library, release,
runs, graded, other arithmetic, chip), and stops at the first failing step with the tests' own
messages; where a step's input is missing (the folder, the release) it says the command to run.
A lesson not yet recorded on a TPU passes its chip step, which says so.

    python -m autograder.course.lessoncheck rules solutions/NN_name/NN_name.ipynb

every assertion of every hidden test has its rule (``# rule: ...``), in a second.

    python -m autograder.course.lessoncheck try CANDIDATES.py solutions/NN_name/NN_name.ipynb [tpu|gpu]

swaps each answer listed in CANDIDATES.py (lists MUTANTS, CORRECT or WRONG of dicts
``function, why, source``) into the solution and prints which test cells fail (not their code),
optionally under emulated TPU or GPU matmul precision.

    python -m autograder.course.lessoncheck sweep NN_name [--seeds N] [--first I] [--seed S ...]

grades the solution, every mutant and every alternative once per grading seed (the
``GRADING_SEED`` hidden tests draw their inputs from; N seeds drawn as the grader draws them, or
the seeds given) and prints, per seed, any test the solution fails, any alternative rejected and
any mutant not caught: run it before committing a hidden test that draws random data.

One module per job: steps.py (check's steps), kernels.py (running notebooks, under emulated
precision too), candidates.py (the known wrong and correct answers, which tests reach a function),
variants.py (grading them as the grader grades), sweep.py (over grading seeds), __main__.py (this
command line).
"""

from .candidates import (
    MutantResult,
    cpu_mutants,
    emulated_mutants,
    tpu_mutants,
    load_alternatives,
    load_candidates,
    load_heldout,
    load_mutants,
    reachable_tests,
)
from .kernels import TIMEOUT, cell_errors, disallowed_student_errors, emulation_env, execute
from .sweep import sweep, sweep_problems
from .variants import grade_variants

__all__ = [
    "MutantResult",
    "TIMEOUT",
    "cell_errors",
    "cpu_mutants",
    "disallowed_student_errors",
    "emulated_mutants",
    "tpu_mutants",
    "emulation_env",
    "execute",
    "grade_variants",
    "load_alternatives",
    "load_candidates",
    "load_heldout",
    "load_mutants",
    "reachable_tests",
    "sweep",
    "sweep_problems",
]
