"""notebooks/selfcheck.py, the student's self-check (``python -m autograder release`` writes it beside
the lessons and tpu_emulation.py): presubmit_plan.py's and presubmit.py's text after the grader's own
autograder/grader/core/studentcode.py (what grading keeps of a cell), its settings written in as
constants, so that the self-check reduces a cell exactly as grading does and needs no course package.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

from ..common import notebooks
from ..grader.core import settings, studentcode
from . import presubmit, presubmit_plan

STUDENT_MODULE = "selfcheck.py"
_COURSE_ONLY = re.compile(r"^# >>> course only.*?^# <<< course only\n", re.M | re.S)
_FUTURE = "from __future__ import annotations\n"


def _without_docstring(text: str) -> str:
    """``text`` from its first statement after the module docstring."""
    first = ast.parse(text).body[0]
    lines = text.splitlines(keepends=True)
    return "".join(lines[first.end_lineno :]).lstrip("\n")


def _studentcode() -> str:
    """studentcode.py without its docstring and ``__future__`` import, its settings as constants."""
    text = _without_docstring(Path(studentcode.__file__).read_text(encoding="utf-8")).replace(_FUTURE, "")

    def constants(match: re.Match) -> str:
        names = [n.strip() for n in match.group(1).split(",")]
        return "\n".join(f"{n} = {getattr(settings, n)!r}  # the grader's settings.py" for n in names)

    text, count = re.subn(r"^from \.settings import (.+)$", constants, text, flags=re.M)
    if count == 0 or re.search(r"^from \.|^import \.", text, re.M):
        raise ValueError("studentcode.py's imports changed: update presubmit_build.py")
    return text


# what the self-check reads of a cell's nbgrader metadata: the grader's own functions (common/notebooks.py)
_NOTEBOOK_HELPERS = (notebooks.nbgrader_meta, notebooks.cell_grade_id, notebooks.is_test)


def student_module() -> str:
    """notebooks/selfcheck.py: presubmit.py's docstring, the grader's studentcode and notebook helpers,
    then presubmit.py."""
    part = Path(presubmit.__file__).read_text(encoding="utf-8")
    doc = part[: len(part) - len(_without_docstring(part))].rstrip("\n") + "\n\n"
    bodies = []
    for module in (presubmit_plan, presubmit):
        body, count = _COURSE_ONLY.subn("", _without_docstring(Path(module.__file__).read_text(encoding="utf-8")))
        if count != 1:
            raise ValueError(f"{module.__name__} holds one course-only block")
        bodies.append(f"# ---- autograder/course/{Path(module.__file__).name}\n\n{body}")
    helpers = "\n\n".join(inspect.getsource(f) for f in _NOTEBOOK_HELPERS)
    return (
        f"{doc}{_FUTURE}\n# ---- the grader's autograder/grader/core/studentcode.py\n\n{_studentcode()}\n\n"
        f"# ---- the grader's autograder/common/notebooks.py\n\n\n{helpers}\n\n" + "\n\n".join(bodies)
    )
