"""What a TPU's compiler does with narrow casts inside ``jax.jit``: the patterns a student writes,
each recorded on the chip (autograder/chip/cast_record.py; ``python -m autograder.chip.hardware casts``).

Inside ``jax.jit`` XLA on a TPU may compute with more precision than the types say
(``--xla_allow_excess_precision``, default true; jax-ml/jax#6283): the rounding of a cast can vanish.
Where it vanishes depends on what the cast feeds (elementwise arithmetic, a reduction, a
matrix-vector or a matrix-matrix dot, a loop carry, the jit's output). The patterns are data, in
cast_patterns.toml beside this file: each one a small function of seeded inputs. The emulation of
the chip (tpu_compiler.py) is held to what the chip computed from each (tests/test_golden_casts.py):
every rule it applies comes from a pattern there, never from a guess.

Only stdlib, NumPy and JAX (ml_dtypes through JAX): this runs on the accelerator's machine too.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

TABLE = Path(__file__).resolve().parent / "cast_patterns.toml"
_RAW = tomllib.loads(TABLE.read_text(encoding="utf-8"))
# Pattern: name -> (input names, source of a function of those inputs, also run eagerly?)
PATTERNS: dict[str, tuple[tuple[str, ...], str, bool]] = {
    name: (tuple(p["inputs"].split()), p["source"].strip(), bool(p.get("eager", False))) for name, p in _RAW.items()
}
# The patterns whose inputs are passed in already bf16 (cast outside the jit: true narrow values)
BF16_IN = {name for name, p in _RAW.items() if p.get("bf16_in")}


def namespace() -> dict:
    """What a pattern's source sees."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    return {
        "jax": jax,
        "jnp": jnp,
        "lax": lax,
        "np": np,
        "bf16": jnp.bfloat16,
        "f16": jnp.float16,
        "e4m3": jnp.float8_e4m3fn,
        "e5m2": jnp.float8_e5m2,
        "e2m1": getattr(jnp, "float4_e2m1fn", None),
        "f32": jnp.float32,
        "i8": jnp.int8,
        "i32": jnp.int32,
        "HI": jax.lax.Precision.HIGHEST,
    }


def function(name: str, ns: dict | None = None):
    """The pattern's function, compiled from its source."""
    _, source, _ = PATTERNS[name]
    ns = dict(ns or namespace())
    if source.startswith("def "):
        exec(compile(source, f"<pattern {name}>", "exec"), ns)
        return ns["f"]
    return eval(compile(source, f"<pattern {name}>", "eval"), ns)


def arguments(name: str, data: dict[str, np.ndarray]) -> list:
    """The pattern's arguments as JAX arrays (bf16 for BF16_IN patterns)."""
    import jax.numpy as jnp

    args = [jnp.asarray(data[k]) for k in PATTERNS[name][0]]
    return [a.astype(jnp.bfloat16) for a in args] if name in BF16_IN else args
