"""The course's tooling: release (nbgrader generate_assignment), grading, and checks."""

import os
import sys
from pathlib import Path

# nbgrader runs `alembic` (and kernels run `python`) by name: make this interpreter's scripts
# findable even when the virtual environment is not activated (make calls .venv/bin/python).
_bin = str(Path(sys.executable).parent)
if _bin not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = _bin + os.pathsep + os.environ.get("PATH", "")
