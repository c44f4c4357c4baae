"""Running the cast patterns (cast_patterns.py) and recording what a backend computes from them.

    python -m autograder.chip.hardware casts --out DIR   # DIR/tpu_casts.npz, tpu_casts.json, tpu_casts_hlo.json.gz

On a TPU this is the golden data tests/data/tpu/tpu_casts.* (the inputs stored beside the outputs,
nothing regenerated) that tests/test_golden_casts.py holds the CPU emulation to; the compiled HLO
the chip's compiler made of each pattern is kept too, as the evidence of where a rounding stays.
Only stdlib, NumPy and JAX.
"""

from __future__ import annotations

import datetime
import gzip
import json
from pathlib import Path

import numpy as np

from .cast_patterns import BF16_IN, PATTERNS, arguments, function, namespace

NPZ, META, HLO = "tpu_casts.npz", "tpu_casts.json", "tpu_casts_hlo.json.gz"


def inputs() -> dict[str, np.ndarray]:
    """The seeded inputs every pattern draws from (stored with the record: nothing is regenerated)."""
    rng = np.random.default_rng(20261206)
    normal = rng.standard_normal(1024)
    spread = rng.standard_normal(256) * 2.0 ** rng.integers(-30, 20, 256)
    special = [0.0, -0.0, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-11, 1 + 3 * 2**-11, 448.0, 449.0, 464.0, 480.0]
    special += [57344.0, 61439.0, 61440.0, 65504.0, 65520.0, 6.0, 7.0, 1.25, 1.75, 2.5, 5.0, -3.0, 0.3]
    # subnormal float32 values, and normal ones whose narrow roundings or products are subnormal
    special += [1e-45, -1e-45, 2.0**-133, 2.0**-127, -(2.0**-130), 2.0**-126, 2.0**-125, 1.5 * 2**-126]
    v = np.concatenate([normal, spread, np.array(special)]).astype(np.float32)
    v = np.concatenate([v, np.zeros((-len(v)) % 32, np.float32)])  # a multiple of 32 (reshapes)
    a = rng.standard_normal((64, 256)).astype(np.float32)
    b = (rng.standard_normal((256, 64)) * 0.25).astype(np.float32)
    return {
        "v": v,  # elementwise patterns
        "vi": np.where(np.isfinite(v) & (np.abs(v) < 3e38), v, 1.0).astype(np.float32),  # finite only
        "a": a,  # (64, 256): matrix-matrix dots with b
        "b": b,  # (256, 64)
        "u": rng.standard_normal(256).astype(np.float32),  # a vector: matrix-vector dots
        "col": rng.standard_normal((256, 1)).astype(np.float32),  # (256, 1): an N = 1 dot
        "a1": rng.standard_normal((64, 1)).astype(np.float32),  # K = 1: an outer product
        "b1": rng.standard_normal((1, 64)).astype(np.float32),
        "ba": rng.standard_normal((4, 32, 128)).astype(np.float32),  # batched dots
        "bb": rng.standard_normal((4, 128, 32)).astype(np.float32),
        "p": rng.uniform(0.0, 0.02, 1024).astype(np.float32),  # small positives: accumulation stalls
        "x2": rng.standard_normal((128, 16)).astype(np.float32),  # a regression problem (grad, scan)
        "y2": rng.standard_normal(128).astype(np.float32),
        "w2": (rng.standard_normal(16) * 0.1).astype(np.float32),
        "s": rng.uniform(0.5, 2.0, 64).astype(np.float32),  # positive scales (fp8/fp4 block scales)
    }


def as_stored(value) -> np.ndarray:
    """An output as stored: narrow floats widened to float32 (exact), other dtypes as they are."""
    value = np.asarray(value)
    return value.astype(np.float32) if value.dtype.kind in "fV" and value.dtype.itemsize < 4 else value


def compute(jit: bool = True, names=None, data=None) -> tuple[dict, dict, dict]:
    """Run every pattern on this process's default backend: (outputs, output dtypes, failures)."""
    import jax

    data = data if data is not None else inputs()
    ns = namespace()
    out, dtypes, failed = {}, {}, {}
    for name in names or PATTERNS:
        if not jit and not PATTERNS[name][2]:
            continue
        key = name + ("_jit" if jit else "_eager")
        try:
            f = function(name, ns)
            value = jax.block_until_ready((jax.jit(f) if jit else f)(*arguments(name, data)))
        except Exception as exc:  # noqa: BLE001  a dtype or op this backend refuses: recorded, not fatal
            failed[key] = f"{type(exc).__name__}: {str(exc)[:300]}"
            continue
        dtypes[key] = str(np.asarray(value).dtype)
        out[key] = as_stored(value)
    return out, dtypes, failed


def compiled_hlo(names=None, data=None) -> dict[str, str]:
    """The optimized HLO this backend's compiler made of each pattern inside jit (the evidence for
    where a rounding stays), or the reason it could not be had."""
    import jax

    data = data if data is not None else inputs()
    ns = namespace()
    texts = {}
    for name in names or PATTERNS:
        try:
            texts[name] = jax.jit(function(name, ns)).lower(*arguments(name, data)).compile().as_text()
        except Exception as exc:  # noqa: BLE001
            texts[name] = f"(no HLO: {type(exc).__name__}: {str(exc)[:200]})"
    return texts


def write(out: Path) -> dict:
    """Record every pattern on this backend: OUT/tpu_casts.npz (inputs and outputs), tpu_casts.json
    (what each is, the backend, versions, date) and tpu_casts_hlo.json.gz (the compiled HLO)."""
    from .golden import environment

    data = inputs()
    jit_out, jit_dtypes, jit_failed = compute(True, data=data)
    eager_out, eager_dtypes, eager_failed = compute(False, data=data)
    arrays = {f"in_{k}": v for k, v in data.items()} | jit_out | eager_out
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / NPZ, **arrays)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        **environment(),
        "patterns": {
            n: {"inputs": list(a), "source": s, "eager": e, "bf16_in": n in BF16_IN}
            for n, (a, s, e) in PATTERNS.items()
        },
        "dtypes": jit_dtypes | eager_dtypes,
        "failed": jit_failed | eager_failed,
        "npz_bytes": (out / NPZ).stat().st_size,
    }
    (out / META).write_text(json.dumps(meta, indent=1) + "\n")
    with gzip.open(out / HLO, "wt", encoding="utf-8") as f:
        json.dump(compiled_hlo(data=data), f)
    return meta


def load(folder: Path) -> tuple[dict[str, np.ndarray], dict]:
    """The recorded arrays (inputs as in_<name>) and the metadata."""
    meta = json.loads((Path(folder) / META).read_text())
    with np.load(Path(folder) / NPZ) as npz:
        return {k: npz[k] for k in npz.files}, meta


def load_hlo(folder: Path) -> dict[str, str]:
    with gzip.open(Path(folder) / HLO, "rt", encoding="utf-8") as f:
        return json.load(f)
