"""After a check fails on an answer, the checker asks the student's process which of the chip's
choices its emulation met (core/readings.py): a reason to grade the notebook again under the other
reading, never a point. The answer is plain data, read for the known names only; no answer (a
death, a timeout, anything else) is no choice, and a process that did not answer is stopped (its
next test starts in a fresh one, as after the emulation's probe)."""

from __future__ import annotations

from ..core import readings, wire
from ..core.faults import StudentDied, StudentTimeout
from ..core.model import TestRecord
from ..core.settings import ASK_SECONDS, Budget


def forget(student) -> None:
    """Authoring only (candidates.py): the note forgotten before another candidate answer runs."""
    if student.alive():
        message = {"op": "probe", "code": readings.FORGET_CODE, "args": wire.Encoder()({})}
        try:
            student.exchange(message, Budget(ASK_SECONDS, ASK_SECONDS))
        except (StudentDied, StudentTimeout):
            student.stop()


def asked(student, record: TestRecord, emulation: str) -> list[str]:
    """After a check that failed on the answer (``record``: how it ended), the choices the live
    student process says its programs met ([] for none, no answer, any other check, or no TPU
    emulation). Its own time, ASK_SECONDS: with the emulation's probe before it, within the
    watchdog's grace (settings.py), so the test's record is always sent."""
    if emulation != "tpu" or not readings.failed_on_the_answer(record) or not student.alive():
        return []
    message = {"op": "probe", "code": readings.ASK_CODE, "args": wire.Encoder()({})}
    try:
        reply = student.exchange(message, Budget(ASK_SECONDS, ASK_SECONDS))
    except (StudentDied, StudentTimeout):
        student.stop()
        return []
    except Exception:  # noqa: BLE001  a forged reply: no choice
        return []
    if reply.get("op") != "probed":
        return []
    try:
        return readings.noted(wire.Decoder(jax_arrays=False)(reply.get("value")))
    except (wire.WireError, TypeError, ValueError):
        return []
