"""Running notebooks for lesson checks: a fresh kernel, optionally under emulated TPU or GPU
matmul precision, and the errors a run shows."""

from __future__ import annotations

from pathlib import Path

from ...chip import emulation
from ...common.notebooks import ROOT
from ...common.notebooks import cell_errors as notebook_errors
from ...common.notebooks import disallowed_student_errors as stub_only
from ...common.notebooks import execute as run_notebook

TIMEOUT = 300


def cell_errors(nb) -> list[tuple[int, str, str]]:
    """(index, grade_id, ename) of every code cell whose output holds an error."""
    return [(i, gid, ename) for i, gid, ename, _ in notebook_errors(nb)]


def execute(nb, cwd: Path | None = None, env: dict | None = None):
    """Run a copy of ``nb`` in a fresh kernel (extra environment variables in ``env``); a run that
    stops early (dead kernel, timeout) raises, as nbclient does."""
    executed, crash = run_notebook(nb, cwd or ROOT, TIMEOUT, env)
    if crash:
        raise RuntimeError(crash)
    return executed


def disallowed_student_errors(executed) -> list[tuple[int, str, str]]:
    """Errors a student version may not show: anything but NotImplementedError outside test cells
    (autograder.common.notebooks.disallowed_student_errors)."""
    return stub_only(cell_errors(executed))


def emulation_env(folder: Path, mode: str) -> dict:
    """Environment for a kernel that emulates a TPU's or a GPU's arithmetic (the emulation script,
    autograder/chip/emulation.py, as an IPython start-up file in ``folder``)."""
    startup = Path(folder) / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    emulation.write_startup(startup)
    return {"IPYTHONDIR": str(Path(folder) / "ipython"), "COURSE_EMULATE": mode}
