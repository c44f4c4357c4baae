"""Golden data from an accelerator: small seeded inputs and what the chip computes from them.

    python -m autograder.chip.hardware golden --out DIR   # DIR/tpu_golden.npz and .json, DIR/tpu_matvec.npz and .json

Run on a TPU, the file is what tests/test_golden.py holds the CPU emulation of TPU precision
(autograder/chip/) to: float32 dots at DEFAULT, HIGH and HIGHEST (inside and outside
jit), bf16-input dots with float32 and bfloat16 outputs, cast round trips eagerly and inside jit,
``jax.lax.reduce_precision`` inside jit, and dots fed by casts inside jit. Every input is stored
beside the outputs (a few hundred KB in all, compressed), so nothing has to be regenerated; the
JSON says what each array is, and the device, versions and date. Only stdlib, NumPy and JAX.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

import numpy as np

NPZ = "tpu_golden.npz"
META = "tpu_golden.json"
# The float32 dots: name -> (lhs shape, rhs shape, how the inputs are drawn)
DOTS = {
    "l02": ((64, 256), (256, 64), "lesson 02's data: k1, k2 = split(PRNGKey(0)); x normal, w normal * 0.25"),
    "k1024": ((16, 1024), (1024, 16), "NumPy default_rng(1024): standard normal, float32"),
    "k4": ((32, 4), (4, 32), "NumPy default_rng(4): standard normal, float32 (four products a sum)"),
    "k1": ((64, 1), (1, 64), "NumPy default_rng(1): standard normal, float32 (single products: an outer product)"),
}
PRECISIONS = ("default", "high", "highest")
CAST_DTYPES = ("bfloat16", "float16", "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn")


def cast_inputs() -> np.ndarray:
    """Values for the cast round trips: normals, a wide spread of exponents, and the special cases
    of the formats (ties, the largest finite values and just past them, subnormals, +-0, inf, nan)."""
    rng = np.random.default_rng(7)
    normal = rng.standard_normal(1024)
    spread = rng.standard_normal(512) * 2.0 ** rng.integers(-30, 20, 512)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-11, 1 + 3 * 2**-11]
    special += [448.0, 449.0, 464.0, 480.0, 57344.0, 61439.0, 61440.0, 65504.0, 65520.0, 3.0e38, 6.0, 7.0]
    special += [1e-45, 2.0**-126, 2.0**-133, 2.0**-24, 2.0**-25, 2.0**-9, 2.0**-17, 1.25, 1.75, 2.5, 5.0]
    return np.concatenate([normal, spread, np.array(special)]).astype(np.float32)


def record() -> tuple[dict[str, np.ndarray], dict]:
    """Compute every golden array on this process's default JAX backend: (arrays, metadata)."""
    import jax
    import jax.numpy as jnp

    arrays: dict[str, np.ndarray] = {}
    what: dict[str, str] = {}
    failed: dict[str, str] = {}

    identical: dict[str, str] = {}

    def keep(name, description, compute, same_as=None):
        """Compute and keep one array; where ``same_as`` holds the same bits, only say so (in the
        JSON's "identical"), which keeps the file small."""
        try:
            value = np.asarray(jax.block_until_ready(compute()))
        except Exception as exc:  # noqa: BLE001  a dtype or op this backend refuses: recorded, not fatal
            failed[name] = f"{type(exc).__name__}: {str(exc)[:300]}"
            return
        what[name] = description
        if same_as in arrays and arrays[same_as].shape == value.shape and _same_bits(arrays[same_as], value):
            identical[name] = same_as
        else:
            arrays[name] = value

    f32 = jnp.float32
    for name, (ls, rs, how) in DOTS.items():
        if name == "l02":
            k1, k2 = jax.random.split(jax.random.PRNGKey(0))
            x = np.asarray(jax.random.normal(k1, ls, f32))
            w = np.asarray(jax.random.normal(k2, rs, f32) * 0.25)
        else:
            rng = np.random.default_rng(int(name[1:]))
            x, w = rng.standard_normal(ls).astype(np.float32), rng.standard_normal(rs).astype(np.float32)
        arrays[f"{name}_x"], arrays[f"{name}_w"] = x, w
        what[f"{name}_x"], what[f"{name}_w"] = f"lhs {ls}: {how}", f"rhs {rs}: {how}"
        xd, wd = jnp.asarray(x), jnp.asarray(w)
        for p in PRECISIONS:
            keep(
                f"{name}_{p}_jit",
                f"jax.jit(jnp.dot(x, w, precision={p!r})), float32",
                lambda p=p: jax.jit(lambda a, b: jnp.dot(a, b, precision=p))(xd, wd),
            )
            keep(
                f"{name}_{p}",
                f"jnp.dot(x, w, precision={p!r}), float32, eager",
                lambda p=p: jnp.dot(xd, wd, precision=p),
                same_as=f"{name}_{p}_jit",
            )
        xb, wb = xd.astype(jnp.bfloat16), wd.astype(jnp.bfloat16)
        keep(
            f"{name}_bf16_f32out",
            "jnp.dot(x.astype(bf16), w.astype(bf16), preferred_element_type=float32), eager casts",
            lambda: jnp.dot(xb, wb, preferred_element_type=f32),
        )
        keep(
            f"{name}_bf16_bf16out",
            "jnp.dot(x.astype(bf16), w.astype(bf16), preferred_element_type=bfloat16), eager casts; stored as float32",
            lambda: jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16).astype(f32),
        )
        if name in ("l02", "k4"):
            keep(
                f"{name}_castdot_jit",
                "jax.jit: jnp.dot(x.astype(bf16), w.astype(bf16), preferred_element_type=float32)",
                lambda: jax.jit(
                    lambda a, b: jnp.dot(a.astype(jnp.bfloat16), b.astype(jnp.bfloat16), preferred_element_type=f32)
                )(xd, wd),
            )
            keep(
                f"{name}_castdot_highest_jit",
                "jax.jit: jnp.dot(x.astype(bf16).astype(f32), w.astype(bf16).astype(f32), precision='highest')",
                lambda: jax.jit(
                    lambda a, b: jnp.dot(
                        a.astype(jnp.bfloat16).astype(f32), b.astype(jnp.bfloat16).astype(f32), precision="highest"
                    )
                )(xd, wd),
            )
            keep(
                f"{name}_castdot_highest",
                "eager: jnp.dot(x.astype(bf16).astype(f32), w.astype(bf16).astype(f32), precision='highest')",
                lambda: jnp.dot(xb.astype(f32), wb.astype(f32), precision="highest"),
            )
            keep(
                f"{name}_rpdot_highest_jit",
                "jax.jit: jnp.dot(reduce_precision(x, 8, 7), reduce_precision(w, 8, 7), precision='highest')",
                lambda: jax.jit(
                    lambda a, b: jnp.dot(
                        jax.lax.reduce_precision(a, 8, 7), jax.lax.reduce_precision(b, 8, 7), precision="highest"
                    )
                )(xd, wd),
            )

    c = cast_inputs()
    arrays["cast_x"], what["cast_x"] = c, "float32 inputs of the cast round trips (cast_inputs())"
    cd = jnp.asarray(c)
    for dtype in CAST_DTYPES:
        t = getattr(jnp, dtype, None)
        if t is None:
            failed[f"cast_{dtype}"] = f"jax.numpy has no {dtype}"
            continue
        keep(f"cast_{dtype}", f"x.astype({dtype}).astype(float32), eager", lambda t=t: cd.astype(t).astype(f32))
        keep(
            f"cast_{dtype}_jit",
            f"jax.jit(x.astype({dtype}).astype(float32))",
            lambda t=t: jax.jit(lambda a: a.astype(t).astype(f32))(cd),
        )
    keep(
        "cast_bfloat16_mul3_jit",
        "jax.jit((x.astype(bf16) * 3).astype(float32))",
        lambda: jax.jit(lambda a: (a.astype(jnp.bfloat16) * 3).astype(f32))(cd),
    )
    keep(
        "cast_bfloat16_mul3",
        "(x.astype(bf16) * 3).astype(float32), eager",
        lambda: (cd.astype(jnp.bfloat16) * 3).astype(f32),
    )
    for e, m, label in ((8, 7, "bfloat16"), (5, 10, "float16"), (4, 3, "e4m3")):
        keep(
            f"reduce_precision_{label}_jit",
            f"jax.jit(jax.lax.reduce_precision(x, exponent_bits={e}, mantissa_bits={m}))",
            lambda e=e, m=m: jax.jit(lambda a: jax.lax.reduce_precision(a, e, m))(cd),
        )
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        **environment(),
        "arrays": {k: {"shape": list(arrays[k].shape), "dtype": str(arrays[k].dtype), "what": what[k]} for k in arrays},
        "identical": {k: {"same_bits_as": v, "what": what[k]} for k, v in identical.items()},
        "failed": failed,
    }
    return arrays, meta


# Dots with an output dimension of 1 (matrix-vector) beside ones of 2 and 8: (m, k, n)
MATVEC_NPZ, MATVEC_META = "tpu_matvec.npz", "tpu_matvec.json"
MATVEC_SHAPES = ((256, 16, 1), (64, 256, 1), (1, 256, 64), (64, 256, 2), (64, 256, 8), (8, 256, 64))


def record_matvec() -> tuple[dict[str, np.ndarray], dict]:
    """Whether the chip makes a float32 matrix-vector dot a bf16 pass (a v5e does not: it computes
    M = 1 or N = 1 in float32 at every precision, where N = 2 is one bf16 pass). For each (m, k, n):
    x (m, k) and w (k, n) standard normal from ``split(PRNGKey(7), 4)``'s first two keys, the dot at
    each precision eagerly and inside jit, and ``x @ w[:, 0]`` with a 1-D vector. The inputs are
    drawn on the recording device and stored: a v5e's ``jax.random.normal`` differs from a CPU's by
    up to 3.5e-5 (its own transcendental functions), so nothing is regenerated from the seed."""
    import jax
    import jax.numpy as jnp

    ks = jax.random.split(jax.random.PRNGKey(7), 4)
    arrays, errors = {}, {}
    for m, k, n in MATVEC_SHAPES:
        x, w = jax.random.normal(ks[0], (m, k), jnp.float32), jax.random.normal(ks[1], (k, n), jnp.float32)
        name, exact = f"{m}x{k}x{n}", np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        arrays[name + "_x"], arrays[name + "_w"] = np.asarray(x), np.asarray(w)
        for p in PRECISIONS:
            arrays[f"{name}_{p}"] = np.asarray(jnp.dot(x, w, precision=p))
            arrays[f"{name}_{p}_jit"] = np.asarray(jax.jit(lambda a, b, p=p: jnp.dot(a, b, precision=p))(x, w))
            errors[f"{name} {p}"] = float(np.max(np.abs(arrays[f"{name}_{p}"] - exact)))
        arrays[name + "_default_vec1d"] = np.asarray(jnp.dot(x, w[:, 0]))
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), **environment()}
    return arrays, {**meta, "errors": errors}


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


def load(folder: Path) -> tuple[dict[str, np.ndarray], dict]:
    """The golden arrays of ``folder`` (an array the JSON lists as identical to another is that
    other's), and the metadata."""
    meta = json.loads((Path(folder) / META).read_text())
    with np.load(Path(folder) / NPZ) as npz:
        arrays = {k: npz[k] for k in npz.files}
    for name, entry in meta.get("identical", {}).items():
        arrays[name] = arrays[entry["same_bits_as"]]
    return arrays, meta


def environment() -> dict:
    """The backend, device and versions of this process's JAX stack."""
    import importlib.metadata
    import platform

    import jax

    def version(*names):
        for n in names:
            try:
                return importlib.metadata.version(n)
            except importlib.metadata.PackageNotFoundError:
                pass
        return None

    device = jax.devices()[0]
    try:
        platform_version = device.client.platform_version
    except Exception:  # noqa: BLE001  an older or other client
        platform_version = None
    return {
        "backend": jax.default_backend(),
        "device_kind": device.device_kind,
        "device_count": jax.device_count(),
        "platform_version": platform_version,
        "python": sys.version.split()[0],
        "machine": platform.platform(),
        "versions": {
            "jax": jax.__version__,
            "jaxlib": version("jaxlib"),
            "libtpu": version("libtpu", "libtpu-nightly"),
            "ml_dtypes": version("ml_dtypes", "ml-dtypes"),
            "numpy": np.__version__,
            "scipy": version("scipy"),
            "matplotlib": version("matplotlib"),
        },
    }


def write(out: Path) -> dict:
    """Record the golden data and write OUT/tpu_golden.npz and OUT/tpu_golden.json; the metadata."""
    arrays, meta = record()
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / NPZ, **arrays)
    meta["npz_bytes"] = (out / NPZ).stat().st_size
    (out / META).write_text(json.dumps(meta, indent=1) + "\n")
    matvec, matvec_meta = record_matvec()
    np.savez_compressed(out / MATVEC_NPZ, **matvec)
    (out / MATVEC_META).write_text(json.dumps(matvec_meta, indent=1) + "\n")
    return meta
