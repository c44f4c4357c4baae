"""What a student's call compiled: the evidence lesson 04's warm-up check reads.

The student's process notes each XLA compilation JAX's own monitoring reports during a call
(student_side.py) and sends them with the call's result as ``[name, seconds]`` pairs.
``compile_events`` keeps only plain, bounded data of that shape; ``replay_compiles`` records them
again in the checker's own ``jax.monitoring``, so a test that listens for compilations around a
call sees the student's, as when the notebook runs alone (docs/AUTHORING.md, "Timings as
containment"). Data from the student's process like the value returned: evidence of what the call
did, never a grade by itself.
"""

from __future__ import annotations

import os

# (student_side.MAX_COMPILES is its sandboxed copy)
from ..core.settings import MAX_COMPILES, NO_COMPILE_MEMO_ENV, STUDENT_COMPILE_MEMO_BYTES


def compile_events(reported) -> list[tuple[str, float]]:
    """The XLA compilations a call reports, as (name, seconds): plain strings and finite
    non-negative floats only, names cut to 200 characters, at most MAX_COMPILES."""
    events = []
    for item in reported if type(reported) is list else []:
        if len(events) >= MAX_COMPILES:
            break
        if type(item) is list and len(item) == 2 and type(item[0]) is str and type(item[1]) is float:
            if 0.0 <= item[1] < 86400.0:
                events.append((item[0][:200], item[1]))
    return events


BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"  # jax._src.dispatch's name
# what a test that reads compilations names: JAX's monitoring, that event, its log of compilations,
# or the profiler (a trace shows what compiled); a lesson's author names one of them (AUTHORING.md)
WATCHES_COMPILES = ("monitoring", "backend_compile", "log_compiles", "jax.profiler")


def memo_bytes(tests: list[dict]) -> int:
    """The student's process's memo of its compilations (sandbox/compile_memo.py), in bytes, for a
    notebook's tests: none where a test reads compilations (a memo's hit compiles nothing, so a
    warm-up would show none: lesson 04), nor where the worker was started with
    COURSE_NO_COMPILE_MEMO=1 (to compare), else STUDENT_COMPILE_MEMO_BYTES."""
    if os.environ.get(NO_COMPILE_MEMO_ENV) == "1":
        return 0
    watched = any(word in str(t.get("source", "")) for t in tests for word in WATCHES_COMPILES)
    return 0 if watched else STUDENT_COMPILE_MEMO_BYTES


def replay_compiles(events) -> None:
    """Record again, in the checker's own ``jax.monitoring``, the compilations a call reported."""
    import sys

    if not events or "jax" not in sys.modules:
        return
    from jax import monitoring

    for name, seconds in events:
        monitoring.record_event_duration_secs(BACKEND_COMPILE_EVENT, seconds, fun_name=name)
