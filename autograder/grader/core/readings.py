"""Issue 64: no correct answer loses a point to a choice the emulation makes for the chip.

Where the chip's compiler computes a program one of two ways and the recorded programs do not pin
down which (docs/HARDWARE.md's limit ``loop-casts``: whether a narrow cast in a loop's body is moved
out of the loop and rounded), the TPU emulation takes one reading and notes that it met the choice:
COURSE_EMULATION_CHOICES in the process's environment (tpu_compiler.py's ``chose``). A check that
fails on an answer whose process noted one is graded again, whole notebook, in a fresh checker and
student process, the student's computing under the other reading (COURSE_EMULATE_WITHOUT=choices; the
checker's references keep the emulation's), and the notebook takes the better of the two gradings,
each whole: the chip computes the program one way or the other, and an answer that can tell the
readings apart (the same bf16 scan gives other bits) must not take each check from the grading it
suits. The rows that passed only there say so. The recorded loops show both
readings are the chip's (tests/test_readings.py). Not so for ``narrow-reductions``: the other
reading of a reduction's narrow result made none of the recorded mismatches the chip's, and sums
are recorded rounded, so the emulation keeps its one reading there.

The note comes from the student's process, which the student's code controls: it can only buy a
second grading (its cost is one more notebook's time, at most), never a point: each grading's
verdicts are the trusted checker's, and the better is one of them.
"""

from __future__ import annotations

from .model import CellState, TestRecord

NOTED_ENV = "COURSE_EMULATION_CHOICES"  # written by the emulation in the student's process
OTHER = "choices"  # COURSE_EMULATE_WITHOUT's name for the other reading (tpu_compiler.py)
LIMITS = ("loop-casts",)  # docs/HARDWARE.md's names of the choices
WHAT = {"loop-casts": "whether a narrow cast in a loop's body is moved out of the loop and rounded"}

# The question the checker sends after a failed check (student_side.probe runs it; it reads only
# what the emulation wrote), and, before an author's candidate answer is swapped in (lessoncheck),
# the emulation's note forgotten: each candidate is asked about its own programs
ASK_CODE = f"""
def run_probe(args):
    import os

    return [os.environ.get("{NOTED_ENV}", "")]
"""
FORGET_CODE = ASK_CODE.replace("os.environ.get(", "os.environ.pop(")


def noted(value) -> list[str]:
    """The choices a reply names, of the known ones only, in LIMITS's order (anything else: none)."""
    if type(value) is not list or len(value) != 1 or type(value[0]) is not str:
        return []
    named = set(value[0][:200].split(","))
    return [limit for limit in LIMITS if limit in named]


def failed_on_the_answer(record: TestRecord) -> bool:
    """A check that ran to its end and failed on the student's answer (not a stub's
    NotImplementedError, not a timeout, a death or a cap the host saw): one another reading could pass."""
    capped = any(h.kind.limit for h in record.student)
    return record.state == CellState.ERROR and record.ename != "NotImplementedError" and not capped


def worth_regrading(records: list[TestRecord]) -> bool:
    """Whether a second grading under the other reading could change a verdict."""
    return any(failed_on_the_answer(r) and r.choices for r in records)


def better(first: list[TestRecord], second: list[TestRecord], points: list[float]) -> list[TestRecord]:
    """The grading whose passed checks are worth more points (``points``, per check in the records'
    order), whole; the first on a tie. Where the second wins, its checks that the first failed are
    marked ``regraded`` with the choices the first grading's process met."""
    if len(first) != len(second) or len(first) != len(points):
        raise ValueError("two gradings of one notebook have one record per check")
    worth = lambda records: sum(p for r, p in zip(records, points) if r.state == CellState.OK)  # noqa: E731
    if worth(second) <= worth(first):
        return first
    met = ",".join(sorted({c for r in first for c in r.choices})) or LIMITS[0]
    for a, b in zip(first, second):
        if b.state == CellState.OK and a.state != CellState.OK:
            b.regraded = met
    return second


def note(grade_ids: list[str], regraded: str) -> str:
    """The notebook's note for the student: which checks passed only under the other reading, and
    the chip's choice its code met."""
    named = [limit for limit in LIMITS if limit in regraded.split(",")] or list(LIMITS)
    choices = "; ".join(f"{WHAT[limit]} ({limit})" for limit in named)
    return (
        f"your code meets a choice the chip's compiler makes either way, {choices} (docs/HARDWARE.md): "
        f"graded both ways, the other way scored more, so its grading counts; "
        f"{', '.join(grade_ids)} passed only there"
    )
