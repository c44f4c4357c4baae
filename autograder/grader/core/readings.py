"""Issue 64: no correct answer loses a point to a choice the emulation makes for the chip.

Where the chip's compiler computes a program one of two ways and the recorded programs do not pin
down which (docs/HARDWARE.md's limit ``loop-casts``: whether a narrow cast in a loop's body is moved
out of the loop and rounded), the TPU emulation takes one reading and notes that it met the choice:
COURSE_EMULATION_CHOICES in the process's environment (tpu_compiler.py's ``chose``). A check that
fails on an answer whose process noted one is graded again, whole notebook, in a fresh checker and
student process under the other reading (COURSE_EMULATE_WITHOUT=choices), and earns its points if it
passes there: the chip could have given them. The row says so. The recorded loops show both
readings are the chip's (tests/test_readings.py). Not so for ``narrow-reductions``: the other
reading of a reduction's narrow result made none of the recorded mismatches the chip's, and sums
are recorded rounded, so the emulation keeps its one reading there.

The note comes from the student's process, which the student's code controls: it can only buy a
second grading (its cost is one more notebook's time), never a point. The second grading's verdict
is the trusted checker's, as the first one's.
"""

from __future__ import annotations

from .model import CellState, TestRecord

NOTED_ENV = "COURSE_EMULATION_CHOICES"  # written by the emulation in the student's process
OTHER = "choices"  # COURSE_EMULATE_WITHOUT's name for the other reading (tpu_compiler.py)
LIMITS = ("loop-casts",)  # docs/HARDWARE.md's names of the choices
WHAT = {"loop-casts": "whether a narrow cast in a loop's body is moved out of the loop and rounded"}

# The question the checker sends after a failed check (student_side.probe runs it; it reads only
# what the emulation wrote)
ASK_CODE = """
def run_probe(args):
    import os

    return [os.environ.get("COURSE_EMULATION_CHOICES", "")]
"""


def noted(value) -> list[str]:
    """The choices a reply names, of the known ones only, in LIMITS's order (anything else: none)."""
    if type(value) is not list or len(value) != 1 or type(value[0]) is not str:
        return []
    named = set(value[0][:200].split(","))
    return [limit for limit in LIMITS if limit in named]


def failed_on_the_answer(record: TestRecord) -> bool:
    """A check that ran to its end and failed on the student's answer (not a stub's
    NotImplementedError, not a timeout, a death or a limit): one another reading could pass."""
    return record.state == CellState.ERROR and record.ename != "NotImplementedError"


def worth_regrading(records: list[TestRecord]) -> bool:
    """Whether a second grading under the other reading could change a verdict."""
    return any(failed_on_the_answer(r) and r.choices for r in records)


def merged(first: list[TestRecord], second: list[TestRecord]) -> list[TestRecord]:
    """The first grading's records, but where a check failed on an answer whose process met a
    choice and passed under the other reading: the second grading's record, marked ``regraded``
    with the choices. A check that passed first keeps its pass (the chip could give it)."""
    out = []
    for a, b in zip(first, second, strict=True):
        if failed_on_the_answer(a) and a.choices and b.state == CellState.OK and b.grade_id == a.grade_id:
            b.regraded = ",".join(a.choices)
            out.append(b)
        else:
            out.append(a)
    return out


def note(grade_id: str, regraded: str) -> str:
    """The row's note for the student: which check, and the chip's choice it met."""
    named = [limit for limit in LIMITS if limit in regraded.split(",")] or list(LIMITS)
    choices = "; ".join(f"{WHAT[limit]} ({limit})" for limit in named)
    return (
        f"{grade_id} failed under the TPU emulation's reading and passed under the other one the chip "
        f"may compute, so its points are given: your program meets a choice the chip's compiler makes "
        f"either way, {choices} (docs/HARDWARE.md)"
    )
