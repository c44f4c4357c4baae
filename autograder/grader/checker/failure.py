"""Where a test cell's exception came from, read from the checker's own traceback: the facts the
rule a failed check broke is decided from (core/rules.py), never from what the student's process
sends. The traceback is of code that ran in this process: the test cell (compiled as ``<grade_id>``),
the libraries it calls, and the stand-ins whose calls went to the student's process (standins.py,
remote.py), where the student's exceptions are rebuilt and raised."""

from __future__ import annotations

import traceback

from . import remote, standins

# the stand-ins' code: an exception raised below one of these came out of a call of the student's
_BRIDGE = frozenset({remote.__file__, standins.__file__})


def failure_site(exc: BaseException, filename: str) -> tuple[int, str]:
    """(line, raised_by) of an exception a test cell compiled as ``filename`` raised: the line of
    the innermost frame of the cell's code (0: none), and the exercise whose call (a stand-in's) it
    came out of, "" where the test's own code raised it. An exception that came out of the
    student's process but out of no exercise's call (an object it lent) has no line: it names no
    rule of the test's."""
    frames = list(traceback.walk_tb(exc.__traceback__))
    cell = [k for k, (frame, _) in enumerate(frames) if frame.f_code.co_filename == filename]
    if not cell:
        return 0, ""
    line, below = frames[cell[-1]][1], frames[cell[-1] + 1 :]
    if not any(frame.f_code.co_filename in _BRIDGE for frame, _ in below):
        return line, ""
    for frame, _ in below:
        if frame.f_code is standins.StudentFunction.__call__.__code__:
            function = frame.f_locals.get("self")
            if isinstance(function, standins.StudentFunction):
                return line, function.name
    return 0, ""
