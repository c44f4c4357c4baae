"""Check one lesson the way the test suite does, in a few seconds per mutant.

    python -m autograder.course.lessoncheck check solutions/NN_name/NN_name.ipynb

0. every assertion of every hidden test has its rule (``# rule: ...`` above it) and each hidden
   test a ``# default rule: ...`` (grader/core/rules.py; ``lessoncheck rules NOTEBOOK`` checks this
   alone, in a second);
1. the solution notebook runs clean (hidden tests included) and how long it takes;
2. its stubbed student version errors only with NotImplementedError or in test cells;
3. graded by the grader itself under TPU matmul precision (its default): every plausible wrong
   answer in ``solutions/<NN_name>/mistakes.py`` fails its own exercise's hidden test and no test
   of any other exercise (and the grader's diagnosis of its failed checks names it), and every
   correct alternative in ``solutions/<NN_name>/alternatives.py`` passes its own.

    python -m autograder.course.lessoncheck try CANDIDATES.py solutions/NN_name/NN_name.ipynb [tpu|gpu]

swaps each answer listed in CANDIDATES.py (lists MUTANTS, CORRECT or WRONG of dicts
``function, why, source``) into the solution and prints which test cells fail (not their code),
optionally under emulated TPU or GPU matmul precision.

    python -m autograder.course.lessoncheck sweep NN_name [--seeds N] [--first I] [--seed S ...]

grades the solution, every mutant and every alternative once per grading seed (the
``GRADING_SEED`` hidden tests draw their inputs from; N seeds drawn as the grader draws them, or
the seeds given) and prints, per seed, any test the solution fails, any alternative rejected and
any mutant not caught: run it before committing a hidden test that draws random data.

One module per job: kernels.py (running notebooks, under emulated precision too), candidates.py
(the known wrong and correct answers, which tests reach a function), variants.py (grading them as
the grader grades), sweep.py (over grading seeds), __main__.py (this command line).
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
