"""The course's tooling, in packages by job; a package imports only those before it in this list
(tests/test_project.py checks every import, and that a planted upward import is caught):

common/      what every package shares: nbgrader notebook helpers, the course's settings, the library of
             known mistakes as data, safe text, the pages' templates
chip/        the accelerator: run the course on one (hardware, chiptiming, cellrunner), record it
             (golden data, cast patterns, verdicts) and model it on a CPU (the emulation script)
grader/      grading, in six layers of its own (grader/__init__.py): a notebook, then a class
report/      the instructor's class report and the LMS exports, from a graded OUT/
gradescope/  the same grading as Gradescope autograders
course/      making and checking the course: release, publish, build (make run), lab, authoring,
             prose limits, lessoncheck
__main__.py  the command line (python -m autograder ...): it composes them (grade, then report)
"""

import os
import sys
from pathlib import Path

# jsonschema (nbformat's validator) imports rfc3987_syntax where it is installed (JupyterLab's
# jupyter_events brings it), which builds a Lark grammar at import: about 1.7 s of every process
# that reads a notebook, for an "iri" format check no notebook schema uses. Left out of ours
# (tests/test_gradebook_schema.py: nbformat still validates); JupyterLab runs in its own process.
if "jsonschema" not in sys.modules:
    sys.modules.setdefault("rfc3987_syntax", None)

# nbgrader runs `alembic` (and kernels run `python`) by name: make this interpreter's scripts
# findable even when the virtual environment is not activated (make calls .venv/bin/python).
_bin = str(Path(sys.executable).parent)
if _bin not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = _bin + os.pathsep + os.environ.get("PATH", "")
