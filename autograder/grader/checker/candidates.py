"""Authoring only (autograder.course.lessoncheck through run.run_variants), never a grading run: an
author's candidate answer swapped into a checker's student process, the tests that can reach it
run, the original swapped back. The checker calls this only when its job lists variants."""

from __future__ import annotations

import os

from ..core import events
from ..core.faults import StudentDied, StudentTimeout, first_line
from ..core.model import TestRecord
from .choices import asked, forget
from .standins import StudentFunction


def run_variant(checker, index: int, variant: dict) -> events.Variant:
    """Swap definitions into ``checker``'s student process (an author's wrong or correct answer),
    run the given tests in the checker, swap back: which tests failed, where (the rule each broke is
    decided from it, core/rules.py), and what went wrong."""
    checker.budget.start_cell()
    original = checker.student.init_message
    failed, errors, diagnosed, sites, met = [], [], [], [], set()
    checker.observer.another_answer()  # what earlier checks ruled out was another answer's
    try:
        forget(checker.student)  # the choices this answer's own programs meet, not the last one's
        errors = checker.student.define(variant["cells"])
        for name in variant.get("names", []):
            checker.ns.setdefault(name, StudentFunction(checker.student, name, checker.ns, dict(os.environ)))
        for position in variant["tests"]:
            checker.budget.start_cell()
            test = checker.job.tests[position]
            state, ename, _, _, _ = checker.run_cell(test["grade_id"], test["source"])
            if state != "ok":
                failed.append(test["grade_id"])
                line, raised_by = checker.site
                sites.append([test["grade_id"], line, raised_by])
                record = TestRecord(test["grade_id"], state, ename)
                met.update(asked(checker.student, record, checker.settings.emulation))
            if checker.observer.wants(state, ename, list(checker.student.events)):  # as grading (checker.main)
                diagnosed.append([test["grade_id"], *checker.observer.explain(checker.budget.left())])
    except (StudentDied, StudentTimeout) as exc:
        errors.append(["variant", type(exc).__name__, first_line(exc)])
    finally:
        checker.student.init_message = original
        try:
            checker.budget.start_cell()
            checker.student.define(variant["restore"])
            checker.student.init_message = original
        except (StudentDied, StudentTimeout):
            checker.student.stop()
    return events.Variant(index, failed, errors, diagnosed, sites, sorted(met))
