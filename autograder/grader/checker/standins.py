"""What the checker's namespace holds in place of the student's functions: ``StudentFunction`` (an
exercise, called in the student's process, with the checker's state the call depends on) and
``lends`` (what a call may borrow from the checker: a test's planned answers, never a reference).
A function the student's process lends back is remote.StudentObject; the student's exceptions
are rebuilt by faults.rebuilt_exception."""

from __future__ import annotations

import os

import numpy as np

from .compile_events import replay_compiles
from ..core.faults import InputsChanged
from ..core.model import Happened, ProcessEvent


def matmul_precision():
    """The checker's current ``jax.default_matmul_precision`` (None: the default)."""
    try:
        from jax._src import config

        value = config.default_matmul_precision.value
    except Exception:  # noqa: BLE001
        import jax

        value = getattr(jax.config, "jax_default_matmul_precision", None)
    return None if value is None else str(value)


def lends(obj) -> bool:
    """Whether the checker lends ``obj`` to a student's call in place of an exercise: only a test's
    planned answers (a class with a ``planned_answer(args, kwargs) -> (found, value)`` method, the
    lessons' ``_PlannedAnswers``), which answer the inputs the test listed before the call and
    nothing else. A plain reference function would be an oracle for any input."""
    return (
        obj is not None
        and not isinstance(obj, StudentFunction)
        and callable(getattr(type(obj), "planned_answer", None))
    )


class StudentFunction:
    """Stands, in the checker's namespace, for the student's function of the same name, answered by
    ``student`` (remote.Student: their sandboxed process)."""

    def __init__(self, student, name: str, namespace: dict, base_env: dict):
        self.student, self.name, self.namespace, self.base_env = student, name, namespace, base_env
        self.__name__ = self.__qualname__ = name
        self.__doc__ = f"the student's {name}, called in their sandboxed process"

    def __repr__(self):
        return f"<student function {self.name}>"

    def _context(self) -> dict:
        env = {k: v for k, v in os.environ.items() if self.base_env.get(k) != v}
        env.update({k: None for k in self.base_env if k not in os.environ})
        bind = {}
        for other in self.student.contract:
            current = self.namespace.get(other)
            # only planned answers are lent (a test's table of a sibling's reference answers for
            # the inputs it will pass, see ``lends``); a general reference never is: the student's
            # own function answers in its place
            if other != self.name and lends(current):
                bind[other] = current
        return {"cwd": os.getcwd(), "env": env, "precision": matmul_precision(), "bind": bind}

    def __call__(self, *args, **kwargs):
        observer = self.student.observer
        if not observer.call_allowed():  # a diagnosis runs the checker's answers only
            raise RuntimeError("the student's process is never called while a diagnosis runs")
        # the checker's input files, digested around the test's own (outermost) call
        outermost = self.student.depth == 0
        if outermost:  # what the test made for the student since, the student's (before the digest)
            self.student.hand_over()
        guard = self.student.inputs_digest if outermost else None
        before = guard() if guard else None
        context = self._context()
        token = observer.before_call(self.name, args, kwargs, context["precision"]) if outermost else None
        try:
            value, after = self.student.call(self.name, args, kwargs, context)
        except BaseException as exc:
            self.student.raised_in = self.name  # the checker's _caps_shown asks which answer raised
            if token is not None:
                observer.raised(token, self.name, exc)
            raise
        finally:  # raised or returned: a test must not go on with inputs the student's code changed
            if guard and guard() != before:
                self.student.events.append(Happened(ProcessEvent.INPUTS_CHANGED))
                raise InputsChanged("the files this test handed to your code were changed during the call")
        if outermost:  # its compilations, as if they had happened here
            replay_compiles(self.student.compiles)
        for i, new in after:  # what the student's function did to its (mutable) arguments
            old = args[i] if isinstance(i, int) and 0 <= i < len(args) else None
            if type(old) is list and type(new) is list:
                old[:] = new
            elif (
                isinstance(old, np.ndarray)
                and isinstance(new, np.ndarray)
                and new.shape == old.shape
                and new.dtype == old.dtype
            ):
                np.copyto(old, new)
        if token is not None:  # what the test got back (a diagnosis replays the call, diagnose.py)
            observer.returned(token, self.name, value, args)
        return value
