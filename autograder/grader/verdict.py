"""From the checker's records to points and a status: the two decisions, each in one function.

``points_of`` answers "how does a test cell become points"; ``status`` answers "which status
wins". Both are pure: records in, plain values out.
"""

from __future__ import annotations

from .model import Result, TestRecord, TestResult
from .plan import TestStep

# Which status wins when several apply, strongest first.
PRECEDENCE = ("tampered", "error", "timeout", "ok")


HIDDEN_FAILED = "failed (the hidden test's details are not shown)"


def student_error(record: TestRecord, hidden: bool, cell_timeout: float) -> str:
    """The message a student sees for a failed check: a visible test's exception or what stopped
    it; for a hidden test always the same words, whatever happened (what it raised may hold hidden
    inputs or expected values, and the kind of failure, a timeout, a death, a limit, is a signal an
    answer could choose to send about a hidden input)."""
    if hidden:
        return HIDDEN_FAILED
    limit = next((e for e in record.student if "limit" in e), "")
    if record.state == "timeout":
        return f"timed out (over {cell_timeout:g} s per cell or the notebook's time limit)"
    if record.state == "died":
        why = limit or "the student's process died while this test ran"
        return why + (f" ({record.evalue})" if record.evalue and not limit else "")
    if record.state == "skipped":
        return "not run"
    if record.state == "not_run":  # the restarts were used up by earlier timeouts or deaths
        return record.evalue or "not run"
    return f"{record.ename}: {record.evalue}" if record.evalue else record.ename


def points_of(step: TestStep, record: TestRecord, cell_timeout: float) -> TestResult:
    """A test's points: all of them when its cell ran to the end in the trusted checker and the
    student's process neither timed out nor died meanwhile; else none."""
    passed = record.state == "ok"
    shown = "" if passed or step.hidden else record.output[-2000:]  # a hidden check shows nothing
    return TestResult(
        step.grade_id,
        step.points if passed else 0.0,
        step.points,
        "" if passed else student_error(record, step.hidden, cell_timeout),
        step.hidden,
        step.doc,
        "" if passed else (f"{record.ename}: {record.evalue}" if record.evalue else record.ename or record.state),
        shown,
    )


def status(attacks: list[str], edits: list[str], records: list[TestRecord]) -> tuple[str, str]:
    """(status, detail) of a graded notebook. Precedence: tampered (code aimed at the grader, or
    test cells edited or deleted), then error (the student's process died), then timeout, then ok.
    The detail names, for each test whose process died, the limit it hit there (or none)."""
    died = [r for r in records if r.state == "died"]
    timed_out = [r.grade_id for r in records if r.state == "timeout"]
    limits = sorted({e for r in records for e in r.student if "limit" in e})
    if attacks:
        detail = "code aimed at the grader, no points: " + "; ".join(attacks[:5])
        return "tampered", detail + ("; also " + ", ".join(edits) if edits else "") + (
            "; " + ", ".join(limits) if limits else ""
        )
    if edits:
        return "tampered", ", ".join(edits) + " (originals restored and graded)"
    also = ("; " + ", ".join(limits)) if limits else ""
    if died:
        why: dict[str, list[str]] = {}
        for r in died:
            reason = ", ".join(sorted({e for e in r.student if "limit" in e})) or "the student's process died"
            why.setdefault(reason, []).append(r.grade_id)
        parts = [f"{reason} in " + ", ".join(ids[:3]) for reason, ids in why.items()]
        named = {e for reason in why for e in reason.split(", ")}
        parts += [f"timed out in {', '.join(timed_out[:3])}"] if timed_out else []
        parts += [e for e in limits if e not in named]  # hit where the process lived on (a MemoryError)
        return "error", "; ".join(parts) + " (the other tests were graded)"
    if timed_out:
        return "timeout", "timed out in " + ", ".join(timed_out[:3]) + " (the other cells were graded)" + also
    return "ok", also.lstrip("; ")


def decide(
    result: Result,
    steps: list[TestStep],
    records: list[TestRecord],
    attacks: list[str],
    edits: list[str],
    cell_timeout: float,
) -> Result:
    result.tests = [points_of(s, r, cell_timeout) for s, r in zip(steps, records)]
    result.status, result.detail = status(attacks, edits, records)
    # what the student's page says: from the visible tests alone (a hidden test's kind of failure
    # stays with the instructor: see student_error)
    shown = [r for s, r in zip(steps, records) if not s.hidden]
    result.shown_status, result.shown_detail = status(attacks, edits, shown)
    if attacks:
        for t in result.tests:
            t.score = 0.0
            t.error = t.error or "no points: code aimed at the grader"
    result.score = float(sum(t.score for t in result.tests))
    return result
