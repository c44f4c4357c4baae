"""The channel between the trusted checker and the sandboxed student process: plain data only.

Both sides import this file (the student side from a read-only copy inside its sandbox), so it
depends on nothing but the standard library, NumPy and (lazily) JAX.

A message is one frame: 8 bytes of length, then that many bytes of JSON. The reader refuses a
frame over its cap before reading it, and ``json.loads`` is linear in the frame's size. Inside the
JSON, values that JSON cannot say are tagged objects, decoded into fresh objects of the reader's
own types; nothing of the writer's survives the trip:

    {"$": "tuple", "v": [...]}          {"$": "dict", "v": [[key, value], ...]}
    {"$": "nd", "dtype": "bfloat16", "shape": [2, 3], "b64": "...", "jax": false}
    {"$": "scalar", "dtype": "float32", "b64": "..."}      (a NumPy scalar)
    {"$": "dtype", "name": "float16", "form": "dtype" | "type" | "jnp"}
    {"$": "float", "v": "nan" | "inf" | "-inf"}             {"$": "path", "v": "/abs/path"}
    {"$": "handle", "id": 7}    an object that stays in the checker (lent to a call)
    {"$": "lent", "id": 3}      an object that stays in the student's process

An object that is not plain data never crosses: its owner lends it, and the other side gets a
stand-in whose calls travel back as messages. The checker lends what a test hands to a student's
function (a callable for ``benchmark``, a reference bound in place of another exercise); the
student's process lends what its code hands to such a callable (a jitted function). A stand-in
only calls; whatever a call returns crosses as plain data again. Neither side ever decodes a
handle into an object of the other side.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import struct

import numpy as np

# bytes of JSON in one message: json.loads builds at most about 45 bytes of Python objects a byte (a
# frame of nested one-item arrays; tests/test_stage_bounds.py), 720 MB at the cap
MAX_FRAME = 16 * 2**20
MAX_DEPTH = 64
MAX_ITEMS = 1_000_000  # values in one decoded message: a frame of [[],[],...] cannot fill memory
_HEADER = struct.Struct(">Q")


class WireError(Exception):
    """A value that cannot cross, or a broken frame."""


# ---- dtypes: only numeric NumPy and ml_dtypes types cross, by name -----------------------

_NUMPY_NAMES = frozenset(
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 complex64 complex128".split()
)
_ML_NAMES = frozenset(
    "bfloat16 float8_e4m3fn float8_e5m2 float8_e4m3fnuz float8_e5m2fnuz float8_e4m3b11fnuz "
    "float8_e4m3 float8_e3m4 float8_e8m0fnu float4_e2m1fn float6_e2m3fn float6_e3m2fn int4 "
    "uint4 int2 uint2".split()
)


def dtype_of(name: str) -> np.dtype:
    if name in _NUMPY_NAMES:
        return np.dtype(name)
    if name in _ML_NAMES:
        import ml_dtypes

        if hasattr(ml_dtypes, name):
            return np.dtype(getattr(ml_dtypes, name))
    raise WireError(f"dtype {name!r} cannot cross")


def _dtype_name(dt) -> str:
    name = np.dtype(dt).name
    if name not in _NUMPY_NAMES and name not in _ML_NAMES:
        raise WireError(f"arrays of dtype {name} cannot cross")
    return name


# ---- encoding ----------------------------------------------------------------------------


def _is_jax_array(x) -> bool:
    mod = type(x).__module__ or ""
    return (
        (mod.startswith("jax") or mod.startswith("jaxlib"))
        and hasattr(x, "__array__")
        and hasattr(x, "dtype")
        and hasattr(x, "shape")
    )


def _is_jnp_scalar_type(x) -> bool:
    return isinstance(x, type) and (type(x).__module__ or "").startswith("jax") and hasattr(x, "dtype")


class Encoder:
    """Plain data to JSON-able values. ``lend(obj)`` (or None: refuse) turns any other object into
    a tagged handle of its owner; ``unlent(obj)`` gives a stand-in's tagged handle back (or None)."""

    def __init__(self, lend=None, unlent=None):
        self.lend, self.unlent = lend, unlent

    def __call__(self, value, depth: int = 0):
        if depth > MAX_DEPTH:
            raise WireError("data nested too deeply")
        t = type(value)
        if value is None or t is bool or t is str:
            return value
        if t is int:
            return value
        if t is float:
            return value if math.isfinite(value) else {"$": "float", "v": repr(value)}
        if t is list:
            return [self(v, depth + 1) for v in value]
        if t is tuple:
            return {"$": "tuple", "v": [self(v, depth + 1) for v in value]}
        if t is dict:
            return {"$": "dict", "v": [[self(k, depth + 1), self(v, depth + 1)] for k, v in value.items()]}
        if self.unlent is not None:
            handle = self.unlent(value)
            if handle is not None:
                return handle
        if isinstance(value, np.ndarray) or _is_jax_array(value):
            arr = np.asarray(value)  # tobytes() is C order; ascontiguousarray would make 0-d 1-d
            return {
                "$": "nd",
                "dtype": _dtype_name(arr.dtype),
                "shape": list(arr.shape),
                "b64": base64.b64encode(arr.tobytes()).decode("ascii"),
                "jax": _is_jax_array(value),
            }
        if isinstance(value, np.generic):
            return {
                "$": "scalar",
                "dtype": _dtype_name(value.dtype),
                "b64": base64.b64encode(np.asarray(value).tobytes()).decode("ascii"),
            }
        if isinstance(value, np.dtype):
            return {"$": "dtype", "name": _dtype_name(value), "form": "dtype"}
        if isinstance(value, type) and issubclass(value, np.generic):
            return {"$": "dtype", "name": _dtype_name(value), "form": "type"}
        if _is_jnp_scalar_type(value):
            return {"$": "dtype", "name": _dtype_name(value.dtype), "form": "jnp"}
        if isinstance(value, os.PathLike) and type(value).__module__ == "pathlib":
            return {"$": "path", "v": os.fspath(value)}
        if self.lend is not None:
            return self.lend(value)
        raise WireError(
            f"a value of type {t.__module__}.{t.__qualname__} cannot be returned: return "
            "numbers, strings, lists, tuples, dicts, NumPy/JAX arrays or dtypes"
        )


# ---- decoding: builds only the reader's own plain types ----------------------------------


class Decoder:
    """JSON-able values to plain data. ``handles`` maps a handle's tag ("handle", "lent") to what
    makes its object: the owner's own object, or a stand-in for the other side's."""

    def __init__(self, handles: dict | None = None, jax_arrays: bool = True):
        self.handles, self.jax_arrays = handles or {}, jax_arrays
        self.items = 0

    def __call__(self, value, depth: int = 0):
        if depth > MAX_DEPTH:
            raise WireError("data nested too deeply")
        self.items = self.items + 1 if depth else 1
        if self.items > MAX_ITEMS:
            raise WireError(f"more than {MAX_ITEMS} values in one message")
        t = type(value)
        if value is None or t in (bool, int, float, str):
            return value
        if t is list:
            return [self(v, depth + 1) for v in value]
        if t is not dict:
            raise WireError(f"unexpected {t.__name__} on the wire")
        tag = value.get("$")
        if tag == "tuple":
            return tuple(self(v, depth + 1) for v in _list(value.get("v")))
        if tag == "dict":
            out = {}
            for pair in _list(value.get("v")):
                if type(pair) is not list or len(pair) != 2:
                    raise WireError("bad dict entry")
                key = self(pair[0], depth + 1)
                try:
                    out[key] = self(pair[1], depth + 1)
                except TypeError:
                    raise WireError("unhashable dict key") from None
            return out
        if tag == "float":
            v = value.get("v")
            if v not in ("nan", "inf", "-inf"):
                raise WireError("bad float")
            return float(v)
        if tag == "nd":
            dt = dtype_of(_str(value.get("dtype")))
            shape = tuple(_int(n) for n in _list(value.get("shape")))
            raw = _b64(value.get("b64"))
            count = math.prod(shape)
            if any(n < 0 for n in shape) or len(raw) != count * dt.itemsize:
                raise WireError("array data does not match its shape")
            arr = np.frombuffer(raw, dtype=dt).reshape(shape).copy()
            if value.get("jax") is True and self.jax_arrays:
                import jax.numpy as jnp

                return jnp.asarray(arr)
            return arr
        if tag == "scalar":
            dt = dtype_of(_str(value.get("dtype")))
            raw = _b64(value.get("b64"))
            if len(raw) != dt.itemsize:
                raise WireError("bad scalar")
            return np.frombuffer(raw, dtype=dt)[0]
        if tag == "dtype":
            dt = dtype_of(_str(value.get("name")))
            form = value.get("form")
            if form == "type":
                return dt.type
            if form == "jnp":
                import jax.numpy as jnp

                return getattr(jnp, dt.name, dt.type)
            return dt
        if tag == "path":
            from pathlib import Path

            return Path(_str(value.get("v")))
        if tag in ("handle", "lent"):
            if tag not in self.handles:
                raise WireError(f"no {tag} accepted here")
            return self.handles[tag](_int(value.get("id")))
        raise WireError(f"unknown tag {tag!r}")


def _b64(v) -> bytes:
    try:
        return base64.b64decode(_str(v), validate=True)
    except (ValueError, TypeError):  # binascii.Error is a ValueError
        raise WireError("bad base64") from None


def _list(v):
    if type(v) is not list:
        raise WireError("expected a list")
    return v


def _str(v):
    if type(v) is not str:
        raise WireError("expected a string")
    return v


def _int(v):
    if type(v) is not int:
        raise WireError("expected an integer")
    return v


# ---- frames ------------------------------------------------------------------------------


def dumps(message: dict) -> bytes:
    body = json.dumps(message, allow_nan=False, separators=(",", ":")).encode("utf-8")
    if len(body) > MAX_FRAME:
        raise WireError(f"message of {len(body)} bytes is over the {MAX_FRAME}-byte cap")
    return _HEADER.pack(len(body)) + body


def write_frame(fd: int, message: dict) -> None:
    data = memoryview(dumps(message))
    while data:
        n = os.write(fd, data)
        data = data[n:]


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # JSON's way to a lone surrogate: \\ud800


def whole_text(text: str) -> str:
    """``text`` with each lone surrogate (no UTF-8 file, feedback page or CSV can hold one) as U+FFFD."""
    try:
        return text if text.encode("utf-8") else text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def whole_strings(value):
    if type(value) is str:
        return whole_text(value)
    if type(value) is list:
        return [whole_strings(v) for v in value]
    return {whole_text(k): whole_strings(v) for k, v in value.items()} if type(value) is dict else value


def parse(body: bytes) -> dict:
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"malformed message: {type(exc).__name__}") from None
    if type(message) is not dict:
        raise WireError("a message is a JSON object")
    try:
        return whole_strings(message) if _SURROGATE_ESCAPE.search(body) else message
    except RecursionError:
        raise WireError("malformed message: nested too deeply") from None


def frame_length(header: bytes, cap: int = MAX_FRAME) -> int:
    (n,) = _HEADER.unpack(header)
    if n > cap:
        raise WireError(f"message of {n} bytes is over the {cap}-byte cap")
    return n


HEADER_SIZE = _HEADER.size
