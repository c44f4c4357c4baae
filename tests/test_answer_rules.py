"""Issue 65: what an answer may name, read statically on the trusted side (notebook/answer_rules.py).

Fast, no kernel: every answer the course knows (each solution's answer cells and the release's
stubs, alternatives.py, heldout.py, independent/, the library of known mistakes: wrong, not
hostile) is read as a worker reads a student's cell, and none breaks a rule; the attacks of the
issue and their variants each do, with the line and the rule named. Graded attacks (the emulation
undone at run time, the probe) are in tests/test_grader_attacks.py.
"""

from __future__ import annotations

import pytest

from autograder.common.notebooks import cell_grade_id, is_test, lessons, solution_code
from autograder.grader.core.studentcode import Protected
from autograder.grader.notebook.attacks import static_attacks
from conftest import source_nb, student_nb
from test_mistakes import instructor_answers

SETUP = Protected(
    [
        "import importlib.util, os, pathlib, urllib.request\nimport sys, subprocess\nimport numpy as np\n"
        "import jax\nimport jax.numpy as jnp\nimport ml_dtypes\nfrom pathlib import Path\n"
        "import matplotlib.pyplot as plt\nimport glob, dataclasses\n"
    ]
)


def instructor_cells(lesson: str) -> Protected:
    """What the plan protects for the lesson: its own non-answer, non-test cells (plan.build_plan)."""
    nb = source_nb(lesson)
    return Protected(
        [
            c.source
            for c in nb.cells
            if c.cell_type == "code" and not cell_grade_id(c).startswith("answer_") and not is_test(c)
        ]
    )


def known_answers(lesson: str) -> list[tuple[str, str]]:
    """(key, source) of every answer of the lesson's folder (test_mistakes.instructor_answers: the
    library, alternatives, held-out and independent answers) and of its solution's and release's
    answer cells."""
    found = [
        (f"{lesson}:{cell_grade_id(c)}:{kind}", solution_code(c.source))
        for kind, nb in (("solution", source_nb(lesson)), ("release", student_nb(lesson)))
        for c in nb.cells
        if cell_grade_id(c).startswith("answer_")
    ]
    return found + instructor_answers(lesson)


def test_no_answer_the_course_knows_breaks_a_rule():
    """The false positives, measured: 0 of every known answer (printed: how many were read)."""
    flagged, read = [], 0
    for lesson in lessons():
        protected = instructor_cells(lesson)
        for key, source in known_answers(lesson):
            read += 1
            found = static_attacks([source], protected)
            if found:
                flagged.append((key, found))
    print(f"{read} answers read, {len(flagged)} flagged")
    kinds = {key.rsplit(":", 1)[-1] for lesson in lessons() for key, _ in known_answers(lesson)}
    assert {"solution", "release", "alternative", "heldout", "independent"} <= kinds, kinds
    assert read > 700 and flagged == [], flagged[:10]


# The attack and its variants, each a rule broken (the line and the rule named)
UNDO = (
    "def _restore():\n"
    "    m = getattr(jax, bytes([105, 110]).decode() + 'terpreters')\n"
    "    setattr(m.mlir, 'lower_' + 'jaxpr_to_module', m.mlir.lower_jaxpr_to_module)\n"
)
BROKEN = [
    (UNDO, "line 3: uses setattr"),
    (UNDO, "line 3: reads .lower_jaxpr_to_module"),
    ("def f():\n    importlib.reload(jax.numpy)", "line 2: uses importlib"),
    ("import importlib\n", "line 1: imports importlib"),
    ("def f():\n    return sys.modules['jax']", "line 2: uses sys"),
    ("def f():\n    jax.config.update('jax_default_matmul_precision', 'highest')", "line 2: reads .config"),
    ("def f():\n    os.environ['XLA_FLAGS'] = '--xla_cpu_enable_fast_math=true'", "line 2: reads .environ"),
    ("from os import environ\n", "line 1: imports os.environ"),
    ("def f():\n    os.putenv('JAX_PLATFORMS', 'cpu')", "line 2: reads .putenv"),
    ("import gc\ndef f():\n    return gc.get_referents(jax.jit)", "line 1: imports gc"),
    ("def f(g):\n    return g.__closure__[0].cell_contents", "line 2: reads .__closure__"),
    ("def f(g):\n    return g.f_back", "line 2: reads .f_back"),
    ("def f():\n    return type(1).mro()[-1].__subclasses__()", "line 2: reads .mro"),
    ("import operator\ndef f():\n    return operator.attrgetter('x')", "line 3: reads .attrgetter"),
    ("def f():\n    del jax.lax.dot", "line 2: deletes .dot of jax"),
    ("def f(g):\n    jax.numpy.dot = g", "line 2: assigns .dot of jax"),
    ("def f():\n    global jnp\n    jnp = None", "line 2: global jnp"),
    ("def f():\n    return vars(jax)", "line 2: uses vars"),
    ("def f():\n    return eval('1')", "line 2: uses eval"),
    ("def f():\n    return __builtins__", "line 2: uses __builtins__"),
    ("def f(x):\n    return '{0.__class__}'.format(x)", "line 2: a string naming a dunder"),
    ("def f(x):\n    return f'__{x}__'", "line 2: a string naming a dunder"),
    ("def f():\n    return b'jax._src'", "line 2: a string naming _src"),
    ("from jax import export\n", "line 1: imports jax.export"),
    ("import jax.experimental.pallas as pl\n", "line 1: imports jax.experimental.pallas"),
    ("def f():\n    return jax.clear_caches()", "line 2: reads .clear_caches"),
    ("def f(p):\n    return np.load(p, allow_pickle=True)", "line 2: passes allow_pickle="),
    ("def f(x):\n    return np.lib.stride_tricks.as_strided(x, (9,), (8,))", "line 2: reads .as_strided"),
    (
        "def f(f):\n    return jax.jit(f, compiler_options={'xla_cpu_enable_fast_math': True})",
        "line 2: passes compiler_options=",
    ),
    ("class A:\n    def __getattr__(self, n):\n        return n", "line 2: defines __getattr__"),
    ("def f(x):\n    match x:\n        case object(__class__=c):\n            return c", "line 3: reads .__class__"),
    ("from . import x\n", "line 1: a relative import"),
    ("from numpy import *\n", "line 1: from numpy import *"),
    ("def f():\n    os.system('python -c 1')", "line 2: reads .system"),
    ("def f():\n    return jax.lib.xla_bridge", "line 2: reads .xla_bridge"),
    # the author's own review of these rules (issue 65's step 5)
    ("def f(p):\n    return np.load(p, None, True)", "line 2: passes allow_pickle by position"),
    (
        "def f(g, x):\n    return jax.jit(g).lower(x).compile({'xla_cpu_enable_fast_math': True})",
        "line 2: passes options",
    ),
    ("def f(x):\n    return id(x)", "line 2: calls id()"),
    ("def f():\n    return open('/proc/self/mem', 'r+b')", "line 2: a string naming /proc/"),
    ("def f():\n    plt.switch_backend('module://jax._src')", "line 2: reads matplotlib.pyplot.switch_backend"),
    ("def f():\n    return os.environ.setdefault('JAX_PLATFORMS', 'cpu')", "line 2: reads .environ"),
    ("def f():\n    d = os.environ\n    d['XLA_FLAGS'] = ''", "line 2: reads .environ"),
    ("def f():\n    return glob.sys", "line 2: reads .sys"),
    ("def f():\n    return dataclasses.builtins", "line 2: reads .builtins"),
    ("def f():\n    return course_chip('native')", "line 2: uses course_chip"),
    ("def f():\n    j = jax\n    return j.extend.backend", "line 3: reads jax.extend"),
    ("def f():\n    return (j := jax).extend.backend", "line 2: reads jax.extend"),
    ("def f(j=jax):\n    return j.extend.backend.backends()", "line 2: reads .backends"),
    # public paths of allowed modules to reflection (found by walking their public attributes)
    ("import enum\ndef f(n):\n    return enum.bltns.getattr(jax, n)", "line 3: reads .bltns"),
    ("import re\ndef f(n):\n    return [re][0].copyreg", "line 3: reads .copyreg"),
    (
        "def f(n):\n    return plt.matplotlib.ticker.string.Formatter().get_field(n, [jax], {})",
        "line 2: reads .Formatter",
    ),
    ("def f():\n    return plt.matplotlib.logging", "line 2: reads .logging"),
    ("def f():\n    return jax.devices()[0].client.compile('module {}')", "line 2: reads .client"),
    ("def f(g):\n    jax.lax.dot_general_p.def_impl(g)", "line 2: reads .def_impl"),
]


@pytest.mark.parametrize("source,finding", BROKEN)
def test_each_way_to_the_emulation_breaks_a_rule(source, finding):
    found = static_attacks([source], SETUP)
    assert any(f.startswith(finding) for f in found), found


@pytest.mark.parametrize(
    "source",
    [
        "def f(elem):\n    return np.dtype(getattr(ml_dtypes, elem))",
        "class Acc:\n    def __init__(self):\n        super().__init__()\n        self._total = 0.0\n"
        "    def __call__(self, x):\n        self._total += x\n        return self._total",
        "def f(x):\n    with jax.default_matmul_precision('highest'):\n        return jnp.dot(x, x)",
        "import statistics, time\nfrom collections import Counter\ndef f(xs):\n    return statistics.median(xs)",
        "def f(n):\n    print('_' * 40, '____')\n    return os.path.join('a', str(n))",
        "if __name__ == '__main__':\n    print(1)",
        # a process that ends itself (graded as a death, not as tampering: test_outcomes' attack)
        "def f(x):\n    import os\n    os._exit(3)",
        "from os import _exit\ndef f(x):\n    _exit(3)",
    ],
)
def test_ordinary_answers_break_no_rule(source):
    assert static_attacks([source], SETUP) == []
