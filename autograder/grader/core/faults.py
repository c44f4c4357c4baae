"""What can end a call to a student's process, as exceptions (raised by remote.py, caught by the
checker and the canary). All but ``StudentRaised`` are BaseExceptions: a test's ``except
Exception`` cannot swallow them, so a test that catches everything still cannot pass on them."""

import builtins


class StudentTimeout(BaseException):
    """The student's code ran past the cell's (or the notebook's) time."""


class StudentDied(BaseException):
    """The student's process ended, broke the channel, or could not be (re)started."""


class InputsChanged(BaseException):
    """The files the checker handed to the student's code changed during its call: the test's
    expectation cannot be trusted, so the test fails (a BaseException: no test catches it)."""


class SandboxFault(BaseException):
    """The grader's own start of a student's process failed (before any code of the student's ran):
    the sandbox, the Python installation or the grader's prelude is broken. Never the student's."""


class RestartsUsed(StudentDied):
    """The process is gone and its restarts are used up: the test did not run (its own state,
    "not_run": the status comes from what used the restarts, a timeout or a death)."""


class StudentRaised(Exception):
    """An exception of a type the checker does not rebuild (a class of the student's)."""


def rebuilt_exception(message: dict) -> BaseException:
    """The student's exception as one of the checker's own: a builtin Exception type by name
    (FileNotFoundError stays FileNotFoundError, with its errno), anything else StudentRaised. Never
    an object of the student's."""
    name = str(message.get("type"))[:100]
    text = str(message.get("message"))[:2000]
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, Exception) and cls.__module__ == "builtins":
        try:
            exc = cls(text)
            if isinstance(exc, OSError) and type(message.get("errno")) is int:
                exc.errno = message["errno"]
            return exc
        except Exception:  # noqa: BLE001  (UnicodeDecodeError and friends want other arguments)
            pass
    return StudentRaised(f"{name}: {text}")


def first_line(exc: BaseException) -> str:
    """The first line of what ``exc`` says, at most 500 characters (what a record keeps of it)."""
    text = str(exc).strip()
    return text.splitlines()[0][:500] if text else ""
