"""What a test's calls to the student's functions were, kept so that diagnose.py can replay them,
when two results are "the same" (``same``: one small pure function, unit-tested in
tests/test_grader_core.py), and when two outcomes of a call agree and a mistake's differ from the
reference's (``agrees``, ``differs``: what diagnose.py decides a match with).

A ``Recorder`` keeps, per test cell, the (args, kwargs, result) of each OUTERMOST call per
function (standins.StudentFunction calls it): copies of plain data only, taken before the call
(the student's function may mutate its arguments) and of the decoded result after it. A call whose
arguments are not plain data (a callable, a lent object, a planned answer), a call that reaches
the student's work folder through a path, or more calls or bytes than settings allow, make that
function unreplayable for the test: diagnosis then says nothing about it, it never guesses.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import PurePath

import numpy as np

from ..core.settings import MAX_RECORDED_BYTES, MAX_RECORDED_CALLS
from ..core.wire import MAX_DEPTH as WIRE_DEPTH

MAX_DEPTH = WIRE_DEPTH  # what the wire carries nests no deeper
SCALARS = (type(None), bool, int, float, complex, str, bytes)


class Unreplayable(Exception):
    """A call that cannot be replayed soundly (its reason is the message)."""


def is_jax_array(x) -> bool:
    jax = sys.modules.get("jax")
    return jax is not None and isinstance(x, jax.Array)


def is_scalar_type(x) -> bool:
    """A dtype given as its type: ``np.float16``, ``ml_dtypes.bfloat16``, ``jnp.bfloat16``."""
    return isinstance(x, type) and (
        issubclass(x, np.generic) or ((type(x).__module__ or "").startswith("jax") and hasattr(x, "dtype"))
    )


def plain_copy(value, depth: int = 0):
    """A copy of plain data that nobody can change afterwards (JAX arrays are immutable and kept);
    Unreplayable for anything else."""
    if depth > MAX_DEPTH:
        raise Unreplayable("nested too deep")
    t = type(value)
    if t in SCALARS or isinstance(value, (np.generic, np.dtype, PurePath)) or is_scalar_type(value):
        return value
    if t is np.ndarray:
        if value.dtype.hasobject:
            raise Unreplayable("an object array")
        return value.copy()
    if is_jax_array(value):
        return value
    if t in (list, tuple):
        return t(plain_copy(v, depth + 1) for v in value)
    if t is dict and all(type(k) in (str, int) for k in value):
        return {k: plain_copy(v, depth + 1) for k, v in value.items()}
    raise Unreplayable(f"an argument of type {t.__name__} is not plain data")


def walk(value):
    """Every leaf of plain data."""
    if type(value) in (list, tuple):
        for v in value:
            yield from walk(v)
    elif type(value) is dict:
        for v in value.values():
            yield from walk(v)
    else:
        yield value


def size_of(value) -> int:
    return sum(
        len(v)
        if type(v) in (str, bytes)
        else v.nbytes
        if isinstance(v, (np.ndarray, np.generic)) or is_jax_array(v)
        else 8
        for v in walk(value)
    )


def fingerprint(value) -> str:
    """A digest of plain data (types, shapes, dtypes, bytes): the replay cache's key."""
    h = hashlib.sha256()

    def feed(v):
        if type(v) in (list, tuple, dict):
            items = sorted(v.items(), key=lambda kv: repr(kv[0])) if type(v) is dict else enumerate(v)
            h.update(f"<{type(v).__name__} {len(v)}".encode())
            for k, x in items:
                h.update(repr(k).encode())
                feed(x)
            h.update(b">")
        elif isinstance(v, np.ndarray) or is_jax_array(v):
            # a JAX array is not a NumPy one to an answer that writes its argument in place (lesson
            # 06's overwrites-input) or promotes by its weak type: the kind is part of the call
            kind = ("jax weak " if getattr(v, "weak_type", False) else "jax ") if is_jax_array(v) else ""
            a = np.asarray(v)
            h.update(f"[{kind}{a.dtype} {a.shape}]".encode())
            h.update(np.ascontiguousarray(a).tobytes())
        else:
            h.update(f"({type(v).__name__} {v!r})".encode())

    feed(value)
    return h.hexdigest()


def paths_in(value, cwd: str) -> list[str]:  # only the checker's inputs are replayed (Recorder.before)
    """The real paths of the Path arguments, and of absolute string arguments that exist."""
    found = []
    for v in walk(value):
        if isinstance(v, PurePath) or (type(v) is str and os.path.isabs(v) and os.path.exists(v)):
            found.append(os.path.realpath(os.path.join(cwd, os.fspath(v))))
    return found


def path_digest(path: str) -> str:
    """What a checker-owned input file or folder holds now (re-verified before a replay)."""
    from ..sandbox.workdir import manifest

    if os.path.isdir(path):
        return manifest(path)
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return "missing"


@dataclass
class Call:
    args: tuple
    kwargs: dict
    precision: str | None
    paths: dict[str, str] = field(default_factory=dict)  # real path -> digest when called
    result: object = None
    raised: str = ""  # "Type: message" when the student's call raised (``described``)
    done: bool = False

    def key(self) -> str:
        return fingerprint([self.args, self.kwargs, self.precision, sorted(self.paths.items())])


class Recorder:
    """One test cell's outermost calls to ``functions`` (the ones with known mistakes)."""

    def __init__(
        self,
        functions,
        student_folder: str,
        inputs_folder: str,
        max_calls: int = MAX_RECORDED_CALLS,
        max_bytes: int = MAX_RECORDED_BYTES,
    ):
        self.functions, self.student_folder = set(functions), os.path.realpath(student_folder)
        self.inputs_folder = os.path.realpath(inputs_folder)
        self.max_calls, self.max_bytes = max_calls, max_bytes
        self.clear()

    def clear(self) -> None:
        self.calls: dict[str, list[Call]] = {}
        self.unreplayable: dict[str, str] = {}
        self.bytes = 0

    def _refuse(self, name: str, why: str) -> None:
        self.unreplayable.setdefault(name, why)
        self.calls.pop(name, None)

    def before(self, name: str, args: tuple, kwargs: dict, precision: str | None) -> Call | None:
        """The record of a call about to be made (None: not recorded)."""
        if name not in self.functions or name in self.unreplayable:
            return None
        try:
            args, kwargs = plain_copy(tuple(args)), plain_copy(dict(kwargs))
            cwd = os.getcwd()
            paths = paths_in([args, kwargs], cwd)
            if not all(p == self.inputs_folder or p.startswith(self.inputs_folder + os.sep) for p in paths):
                raise Unreplayable("a path outside the checker's inputs (the student's folder, say)")
            self.bytes += size_of([args, kwargs])
            if self.bytes > self.max_bytes or len(self.calls.get(name, ())) >= self.max_calls:
                raise Unreplayable("more calls or bytes than are recorded")
            call = Call(args, kwargs, precision, {p: path_digest(p) for p in paths})
        except Unreplayable as exc:
            self._refuse(name, str(exc))
            return None
        except Exception as exc:  # noqa: BLE001  recording never fails a test: the call is not replayed
            self._refuse(name, f"not recorded ({type(exc).__name__})")
            return None
        self.calls.setdefault(name, []).append(call)
        return call

    def returned(self, name: str, call: Call, value, args: tuple) -> None:
        """The call's outcome: what it returned, and its arguments after it (an answer that changes
        its caller's arrays or lists in place is told by them)."""
        try:
            call.result, call.done = (plain_copy(value), plain_copy(tuple(args))), True
            self.bytes += size_of(call.result)
            if self.bytes > self.max_bytes:
                raise Unreplayable("more bytes than are recorded")
        except Exception as exc:  # noqa: BLE001  Unreplayable, or anything else: not replayed
            self._refuse(name, str(exc) if isinstance(exc, Unreplayable) else f"not recorded ({type(exc).__name__})")

    def raised(self, name: str, call: Call, exc: BaseException) -> None:
        call.raised, call.done = described(exc), True


def described(exc: BaseException) -> str:
    """An exception as a student's call reports it ("Type: message"; faults.rebuilt_exception
    keeps a builtin's type and gives any other as StudentRaised("Type: message"))."""
    text = str(exc)[:2000]
    return text if type(exc).__name__ == "StudentRaised" else f"{type(exc).__name__}: {text}"
