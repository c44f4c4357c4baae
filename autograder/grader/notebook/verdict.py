"""From the checker's records to points, outcomes and a status: each decision in one function.

``points_of`` answers "how does a test cell become points" (and ``outcome_of`` what happened to
it); ``status`` answers "which status wins" (model.PRECEDENCE's order). All pure: records in,
plain values out.
"""

from __future__ import annotations

from ..core.model import PRECEDENCE, CellState, Happened, Outcome, Result, Status, TestRecord, TestResult
from ..core import readings
from ..core.rules import rule_for
from .plan import TestStep
from ..core.settings import SHOWN_OUTPUT_CHARS


HIDDEN_FAILED = "failed (the hidden test's details are not shown)"


def limits_of(records: list[TestRecord]) -> list[Happened]:
    """The sandbox's caps the records name (``ProcessEvent.limit`` kinds), each once, in order."""
    return list(dict.fromkeys(h for r in records for h in r.student if h.kind.limit))


def student_error(record: TestRecord, hidden: bool, cell_timeout: float) -> str:
    """The message a student sees for a failed check: a visible test's exception or what stopped
    it; for a hidden test always the same words, whatever happened (what it raised may hold hidden
    inputs or expected values, and the kind of failure, a timeout, a death, a limit, is a signal an
    answer could choose to send about a hidden input)."""
    if hidden:
        return HIDDEN_FAILED
    limit = next((h.text for h in limits_of([record])), "")
    if record.state == CellState.TIMEOUT:
        return f"timed out (over {cell_timeout:g} s per cell or the notebook's time limit)"
    if record.state == CellState.DIED:
        why = limit or "the student's process died while this test ran"
        return why + (f" ({record.evalue})" if record.evalue and not limit else "")
    if record.state == CellState.SKIPPED:
        return "not run"
    if record.state == CellState.NOT_RUN:  # the restarts were used up by earlier timeouts or deaths
        return record.evalue or "not run"
    return f"{record.ename}: {record.evalue}" if record.evalue else record.ename


def outcome_of(record: TestRecord) -> Outcome:
    """What happened to a check, from the checker's record alone (its state, the exception's type
    name, the kinds of what happened to the student's process, never their words): a cap beats the
    timeout or death it caused; a stub's NotImplementedError is unanswered; any other failure ran
    to its end on the student's answer and is wrong."""
    if record.state == CellState.OK:
        return Outcome.PASSED
    if limits_of([record]):
        return Outcome.LIMIT_REACHED
    if record.state == CellState.TIMEOUT:
        return Outcome.TIMED_OUT
    if record.state == CellState.DIED:
        return Outcome.PROCESS_DIED
    if record.state in (CellState.NOT_RUN, CellState.SKIPPED):
        return Outcome.NOT_RUN
    return Outcome.UNANSWERED if record.ename == "NotImplementedError" else Outcome.WRONG


def rule_of(step: TestStep, record: TestRecord) -> str:
    """The rule a hidden check's wrong answer broke, in the words its author declared next to the
    assertion in the solution (core/rules.py), found from the test cell's source this plan holds
    and where the checker's own traceback says the exception came from (``TestRecord.line`` and
    ``raised_by``): never from what the student's process said. "" for a visible check (its message
    is shown), a check that passed, or one that did not end on the answer (a timeout, a death, a
    limit: how a hidden check failed stays with the instructor)."""
    if not step.hidden or outcome_of(record) != Outcome.WRONG:
        return ""
    return rule_for(step.source, record.line, record.raised_by)


def points_of(step: TestStep, record: TestRecord, cell_timeout: float) -> TestResult:
    """A test's points: all of them when its cell ran to the end in the trusted checker and the
    student's process neither timed out nor died meanwhile; else none."""
    passed = record.state == CellState.OK
    shown = "" if passed or step.hidden else record.output[-SHOWN_OUTPUT_CHARS:]  # a hidden check shows nothing
    outcome = outcome_of(record)
    message = "" if passed else f"{record.ename}: {record.evalue}" if record.evalue else record.ename or record.state
    return TestResult(
        step.grade_id,
        step.points if passed else 0.0,
        step.points,
        "" if passed else student_error(record, step.hidden, cell_timeout),
        step.hidden,
        step.doc,
        message,
        shown,
        outcome,
        # the known mistakes it behaves like: for a wrong answer only (keys of the library, no data)
        list(record.mistakes) if outcome == Outcome.WRONG else [],
        rule_of(step, record),
    )


def status(attacks: list[str], edits: list[str], records: list[TestRecord]) -> tuple[Status, str]:
    """(status, detail) of a graded notebook: every status whose finding holds, with its detail,
    and the first of them in model.PRECEDENCE wins (tampered: code aimed at the grader, or test
    cells edited or deleted; error: the student's process died; timeout; ok). The detail names,
    for each test whose process died, the limit it hit there (or none)."""
    died = [r for r in records if r.state == CellState.DIED]
    timed_out = [r.grade_id for r in records if r.state == CellState.TIMEOUT]
    limits = limits_of(records)
    also = ("; " + ", ".join(h.text for h in limits)) if limits else ""
    found = {Status.OK: also.lstrip("; ")}
    if timed_out:
        found[Status.TIMEOUT] = "timed out in " + ", ".join(timed_out[:3]) + " (the other cells were graded)" + also
    if died:
        why: dict[tuple[Happened, ...], list[str]] = {}
        for r in died:  # grouped by the caps each death hit (none: it died)
            why.setdefault(tuple(limits_of([r])), []).append(r.grade_id)
        parts = [
            (", ".join(h.text for h in caps) or "the student's process died") + " in " + ", ".join(ids[:3])
            for caps, ids in why.items()
        ]
        named = {h for caps in why for h in caps}
        parts += [f"timed out in {', '.join(timed_out[:3])}"] if timed_out else []
        parts += [h.text for h in limits if h not in named]  # hit where the process lived on (a MemoryError)
        found[Status.ERROR] = "; ".join(parts) + " (the other tests were graded)"
    if edits:
        found[Status.TAMPERED] = ", ".join(edits) + " (originals restored and graded)"
    if attacks:
        detail = "code aimed at the grader, no points: " + "; ".join(attacks[:5])
        found[Status.TAMPERED] = detail + ("; also " + ", ".join(edits) if edits else "") + also
    winner = next(s for s in PRECEDENCE if s in found)
    return winner, found[winner]


def decide(
    result: Result,
    steps: list[TestStep],
    records: list[TestRecord],
    attacks: list[str],
    edits: list[str],
    cell_timeout: float,
) -> Result:
    result.tests = [points_of(s, r, cell_timeout) for s, r in zip(steps, records)]
    regraded = [(t, r) for t, r in zip(result.tests, records) if r.regraded and t.score and not attacks]
    for t, r in regraded:  # the instructor's row says where a pass came from (core/readings.py)
        t.message = f"passed under the chip's other reading ({r.regraded})"
    if regraded:
        result.notes.append(readings.note([t.grade_id for t, _ in regraded], regraded[0][1].regraded))
    result.status, result.detail = status(attacks, edits, records)
    # what the student's page says: from the visible tests alone (a hidden test's kind of failure
    # stays with the instructor: see student_error)
    shown = [r for s, r in zip(steps, records) if not s.hidden]
    result.shown_status, result.shown_detail = status(attacks, edits, shown)
    if attacks:
        for t in result.tests:
            t.score, t.outcome, t.mistakes, t.rule = 0.0, Outcome.VOIDED, [], ""
            t.error = t.error or "no points: code aimed at the grader"
    result.score = float(sum(t.score for t in result.tests))
    return result
