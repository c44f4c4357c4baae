"""When two results are the same, for the diagnosis: a student's call's and a known mistake's
replay of it (``same``), seen as the function's lesson declares (``as_compared``: timings by kind,
numbers by value, labels by phrase), and when a mistake that agrees with the student names what
they did wrong (``differs``)."""

from __future__ import annotations

from pathlib import PurePath

import numpy as np

from ..core.settings import DIAGNOSIS_ATOL, DIAGNOSIS_RTOL
from .recording import is_jax_array, is_scalar_type


# -- sameness ---------------------------------------------------------------------------------------
def _kind(x) -> str:
    """A Python scalar's kind: bool, int, float, complex; text (str or path) and bytes; None; a
    dtype."""
    if x is None:
        return "none"
    if isinstance(x, (str, PurePath)):
        return "text"
    if isinstance(x, bytes):
        return "bytes"
    if isinstance(x, np.dtype) or is_scalar_type(x):
        return "dtype"
    for kind in (bool, int, float, complex):
        if isinstance(x, kind):
            return kind.__name__
    return "other:" + type(x).__name__


def _close(a: np.ndarray, b: np.ndarray, rtol: float, atol: float) -> bool:
    if a.dtype.kind in "biuSUM" and b.dtype.kind in "biuSUM":
        return bool(np.array_equal(a, b))
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        return _close(a.real, b.real, rtol, atol) and _close(a.imag, b.imag, rtol, atol)
    x, y = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        both_nan = np.isnan(x) & np.isnan(y)
        equal = x == y  # infinities of one sign, and exact values
        near = (np.abs(x - y) <= atol + rtol * np.maximum(np.abs(x), np.abs(y))) & np.isfinite(x) & np.isfinite(y)
    if rtol == 0 and atol == 0:  # exactly: -0.0 is not +0.0
        return bool(np.all(both_nan | (equal & (np.signbit(x) == np.signbit(y)))))
    return bool(np.all(both_nan | equal | near))


def same(a, b, rtol: float = DIAGNOSIS_RTOL, atol: float = DIAGNOSIS_ATOL) -> bool:
    """Whether two results are the same (``_same``); anything that cannot be compared is not."""
    try:
        return _same(a, b, rtol, atol)
    except Exception:  # noqa: BLE001
        return False


def _same(a, b, rtol: float, atol: float) -> bool:
    """Whether two results are the same. Structure first: lists (or tuples) of the same length
    (a list is not a tuple); dicts have the same keys; typed values (NumPy or JAX arrays, 0-d included, and NumPy
    scalars) the same shape and dtype; Python scalars the same kind (bool, int, float, complex,
    text: a str or a path, bytes, None); a typed value is never the same as a Python scalar.
    Then values: integers, bools, text and bytes exactly; floats within
    |a - b| <= atol + rtol * max(|a|, |b|) elementwise, NaN equal to NaN, infinities equal to
    themselves (settings.DIAGNOSIS_RTOL, DIAGNOSIS_ATOL); with rtol = atol = 0, exactly (-0.0 is
    not +0.0; a NaN's payload is not compared)."""
    seq = (list, tuple)
    if type(a) in seq or type(b) in seq:
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y, rtol, atol) for x, y in zip(a, b))
    if type(a) is dict or type(b) is dict:
        return (
            type(a) is dict
            and type(b) is dict
            and a.keys() == b.keys()
            and all(_same(a[k], b[k], rtol, atol) for k in a)
        )
    typed = [isinstance(v, (np.ndarray, np.generic)) or is_jax_array(v) for v in (a, b)]
    if any(typed):
        if not all(typed):
            return False
        if isinstance(a, np.generic) != isinstance(b, np.generic):
            return False  # a NumPy scalar is not a 0-d array
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and a.dtype == b.dtype and _close(a, b, rtol, atol)
    kind = _kind(a)
    if kind != _kind(b) or kind.startswith("other"):
        return False
    if kind == "dtype":
        return np.dtype(a) == np.dtype(b)
    if kind in ("none", "bytes", "bool", "int"):
        return bool(a == b)
    if kind == "text":
        return str(a) == str(b)
    return _close(np.asarray(a), np.asarray(b), rtol, atol)


# -- outcomes of one call (("ok", result) | ("raised", "Type: message")), compared -----------------
def as_compared(value, timings=(), numbers: bool = False, phrases: dict | None = None):
    """``value`` as its function's declared comparison sees it (the lesson's constants,
    autograder/common/mistakes.py): each dict's ``timings`` keys by their kind only (a float is a float);
    its ``phrases`` keys, where text, by which of those phrases they contain, lowercased (what the
    hidden test reads of a label); with ``numbers``, every number by its value whatever its type (a
    Python float, a NumPy scalar and a 0-d array of one value are one float; integers one int)."""
    phrases = phrases or {}
    if type(value) in (list, tuple):
        return type(value)(as_compared(v, timings, numbers, phrases) for v in value)
    if type(value) is dict:
        out = {}
        for k, v in value.items():
            if k in timings:
                out[k] = f"<timing: {type(v).__name__}>"
            elif k in phrases and isinstance(v, str):
                out[k] = "<text with: " + ", ".join(p for p in phrases[k] if p in v.lower()) + ">"
            else:
                out[k] = as_compared(v, timings, numbers, phrases)
        return out
    return by_value(value) if numbers else value


def by_value(v):
    """A real number as a Python int or float (a bool as a bool), whatever carries it: a Python
    scalar, a NumPy or ml_dtypes scalar (finfo(bfloat16).eps), a 0-d NumPy or JAX array; anything
    else as it is."""
    if (isinstance(v, np.ndarray) or is_jax_array(v)) and getattr(v, "ndim", None) == 0:
        v = np.asarray(v)[()]
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    if isinstance(v, np.generic) and v.dtype.kind not in "cSUOMm":  # ml_dtypes' scalars: bfloat16, float8_*
        try:
            return float(v)
        except (TypeError, ValueError):
            return v
    return v


def agrees(a: tuple, b: tuple, rtol: float = DIAGNOSIS_RTOL, atol: float = DIAGNOSIS_ATOL) -> bool:
    """Two outcomes of one call, ("ok", result) or ("raised", "Type: message"): both returned the
    same results (compare.same), or both raised the same exception with the same message."""
    if a[0] != b[0] or a[0] == "unfinished":
        return False
    return a[1] == b[1] if a[0] == "raised" else same(a[1], b[1], rtol, atol)


def differs(student: list, outs: list, reference) -> bool | None:
    """Whether a mistake whose outcomes ``outs`` agree with the student's (within the tolerance)
    names what the student did wrong: they are the student's exactly and differ from the
    reference's on some call, or they differ from the reference's beyond the tolerance on a call
    where the student's do too. (A correct answer can match no mistake: its outcomes are the
    reference's exactly, or within the tolerance wherever such a mistake's are not.) ``reference``
    gives call i's outcome, asked for in order up to the first call that shows it; None: one of
    those did not finish."""
    exact = all(agrees(s, o, 0, 0) for s, o in zip(student, outs))
    for i, (s, o) in enumerate(zip(student, outs)):
        r = reference(i)
        if r[0] == "unfinished":
            return None
        if exact and not agrees(o, r, 0, 0):
            return True
        if not agrees(o, r) and not agrees(s, r):
            return True
    return False
