"""``outcomes`` under the TPU emulation grades as the grader does where the chip computes either way
(grader/core/readings.py): an answer whose checks failed on code that met one of the chip's choices
(the emulation's note, COURSE_EMULATION_CHOICES, read around each answer: cellrunner.swapped) is run
again in a fresh process under the other reading (COURSE_EMULATE_WITHOUT=choices: the lesson's
solution run, then those answers' same checks), and where more of its checks pass there, that run's
verdicts count, whole, the answer marked ``regraded``. On a chip nothing is emulated, nothing is
noted, nothing runs again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from ..common.notebooks import ROOT

NOTED_ENV = "COURSE_EMULATION_CHOICES"  # grader/core/readings.py's NOTED_ENV, written by the emulation
OTHER = "choices"  # grader/core/readings.py's OTHER

AGAIN = """
import json, os, sys
from pathlib import Path
from autograder.chip.emulation import source
exec(compile(source(), "<emulation>", "exec"), {"__name__": "__emulation__"})
from autograder.chip.cellrunner import run_notebook
from autograder.chip.outcomes import CELL_TIMEOUT, check_outcomes
name, sets, wanted = sys.argv[1], tuple(sys.argv[2].split(",")), json.loads(sys.argv[3])
run = run_notebook(Path("solutions") / name / f"{name}.ipynb", CELL_TIMEOUT)
select = lambda c: wanted.get(c["key"], [])
print(json.dumps(check_outcomes(name, run, select=select, sets=sets)))
"""


def grade_again(name: str, results: list[dict], sets: tuple[str, ...], echo=print) -> None:
    """The answers of ``results`` (check_outcomes's) that failed a check with a choice noted, run
    again under the other reading; where more of an answer's checks pass there, its verdicts and
    errors are that run's (in place)."""
    again = {r["key"]: r for r in results if r.get("choices") and "failed" in r["checks"].values()}
    if not again:
        return
    wanted = {key: sorted(r["checks"]) for key, r in again.items()}
    without = ",".join(filter(None, [os.environ.get("COURSE_EMULATE_WITHOUT", ""), OTHER]))
    env = {**os.environ, "COURSE_EMULATE": "tpu", "COURSE_EMULATE_WITHOUT": without}
    env.pop(NOTED_ENV, None)
    cmd = [sys.executable, "-c", AGAIN, name, ",".join(sets), json.dumps(wanted)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:  # the comparison's own fault: no verdict may come of it
        raise RuntimeError(f"{name}: the run under the chip's other reading failed: {proc.stderr[-2000:]}")
    passed = lambda checks: sum(v == "passed" for v in checks.values())  # noqa: E731
    for second in json.loads(proc.stdout.strip().splitlines()[-1]):
        first = again[second["key"]]
        if set(second["checks"]) == set(first["checks"]) and passed(second["checks"]) > passed(first["checks"]):
            first.update(checks=second["checks"], errors=second["errors"], regraded=first["choices"])
            echo(f"  {first['key']}: under the chip's other reading {first['checks']}")
