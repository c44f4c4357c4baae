"""Lesson 05's bf16 policy written as students write it, and dots at a precision given as a
``DotAlgorithmPreset`` or a string: what a backend computes from each, recorded (golden data).

    python -m autograder.chip.dot_record --out DIR   # DIR/tpu_dots.npz, tpu_dots.json, tpu_dots_hlo.json.gz

On a TPU v5e this is tests/data/tpu/tpu_dots.* that tests/test_golden_dots.py holds the CPU
emulation to. Each form (FORMS) is a dot of seeded x (m, k) and w (k, n) (w / sqrt(k), as lesson 05
draws them; ``wb`` is w stored in bfloat16 outside the program, ``xb`` x likewise), at several shapes
(SHAPES: the lesson's 256 x 1024 x 256, K = 1, a matrix-vector product, small ones), then used
(USES: returned, cast to bfloat16, summed, fed to a max|.|, a relative error against the float64
product), inside ``jax.jit`` and eagerly, and also under ``jax.default_matmul_precision("highest")``
as lesson 05's hidden test calls it. Inputs are stored beside the outputs (nothing is regenerated);
of an output above ROWS rows only the first ROWS are kept (the scalar uses cover the whole product).
Only stdlib, NumPy and JAX: it runs on the accelerator's machine as it is.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import sys
from pathlib import Path

import numpy as np

NPZ, META, HLO = "tpu_dots.npz", "tpu_dots.json", "tpu_dots_hlo.json.gz"
ROWS = 8  # rows kept of a larger output

# name -> (m, k, n)
SHAPES = {
    "lesson": (256, 1024, 256),
    "k1": (8, 1, 8),
    "n1": (64, 256, 1),
    "small": (8, 64, 8),
    "mid": (64, 256, 64),
}

PRESETS = ("BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6", "TF32_TF32_F32", "TF32_TF32_F32_X3")
PRESETS += ("F32_F32_F32", "DEFAULT", "BF16_BF16_BF16", "F16_F16_F32")
STRINGS = ("bfloat16", "tensorfloat32", "float32", "fastest", "default", "high", "highest")

# name -> the body of a function of (x, w, wb, xb) returning the dot's result y, as a student writes it
FORMS = {
    # lesson 05's bf16 policy: the reference's form with a plain cast, and the three answers of issue 64
    "pet_f32": "jnp.dot(x.astype(bf16), wb, preferred_element_type=f32)",
    "matmul_astype": "(x.astype(bf16) @ wb).astype(f32)",
    "matmul_bf16": "x.astype(bf16) @ wb",
    "pet_bf16_astype": "jnp.dot(x.astype(bf16), wb, preferred_element_type=bf16).astype(f32)",
    "xb_pet_bf16_astype": "jnp.dot(xb, wb, preferred_element_type=bf16).astype(f32)",
    "xb_matmul_astype": "(xb @ wb).astype(f32)",
    "xb_pet_f32": "jnp.dot(xb, wb, preferred_element_type=f32)",
    "mixed_default": "jnp.dot(x, wb)",
    "mixed_preset": "jnp.dot(x, wb, precision=P.BF16_BF16_F32)",
    "bf16ops_preset": "jnp.dot(x.astype(bf16), wb, precision=P.BF16_BF16_F32)",
    "bf16ops_preset_pet": "jnp.dot(x.astype(bf16), wb, precision=P.BF16_BF16_F32, preferred_element_type=f32)",
    "einsum_preset": "jnp.einsum('mk,kn->mn', x, w, precision=P.BF16_BF16_F32)",
    "lax_preset": "jax.lax.dot(x, w, precision=P.BF16_BF16_F32)",
}
FORMS |= {f"preset_{p}": f"jnp.dot(x, w, precision=P.{p})" for p in PRESETS}
FORMS |= {f"string_{s}": f"jnp.dot(x, w, precision={s!r})" for s in STRINGS}
FORMS |= {"string_preset": "jnp.dot(x, w, precision='BF16_BF16_F32')"}

USES = {
    "ret": "y",
    "tobf16": "y.astype(bf16)",
    "sum": "jnp.sum(y)",
    "maxabs": "jnp.max(jnp.abs(y))",
    "relerr": "jnp.max(jnp.abs(y.astype(f32) - e)) / jnp.max(jnp.abs(e))",
}
# under jax.default_matmul_precision("highest"), as lesson 05's hidden test calls policy_table
HIGHEST_FORMS = ("pet_f32", "matmul_astype", "pet_bf16_astype", "xb_pet_bf16_astype", "xb_matmul_astype")
HIGHEST_FORMS += ("xb_pet_f32", "mixed_preset", "bf16ops_preset_pet", "preset_BF16_BF16_F32", "string_bfloat16")


def inputs() -> dict[str, np.ndarray]:
    """Seeded x, w (w / sqrt(k)) per shape, and e: their float64 product rounded to float32."""
    rng = np.random.default_rng(20261207)
    data = {}
    for name, (m, k, n) in SHAPES.items():
        x = rng.standard_normal((m, k)).astype(np.float32)
        w = (rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32)
        data[f"{name}_x"], data[f"{name}_w"] = x, w
        data[f"{name}_e"] = (x.astype(np.float64) @ w.astype(np.float64)).astype(np.float32)
    return data


def namespace() -> dict:
    import jax
    import jax.numpy as jnp

    return {"jax": jax, "jnp": jnp, "bf16": jnp.bfloat16, "f32": jnp.float32, "P": jax.lax.DotAlgorithmPreset}


def program(form: str, use: str, ns: dict | None = None):
    """The function (x, w, wb, xb, e) -> the form's result, used."""
    source = f"lambda x, w, wb, xb, e: (lambda y: {USES[use]})({FORMS[form]})"
    return eval(compile(source, f"<dot {form} {use}>", "eval"), dict(ns or namespace()))


def arguments(shape: str, data: dict) -> list:
    import jax.numpy as jnp

    x, w, e = (jnp.asarray(data[f"{shape}_{v}"]) for v in "xwe")
    return [x, w, w.astype(jnp.bfloat16), x.astype(jnp.bfloat16), e]  # wb, xb: stored in bf16 eagerly


def keys():
    """(key, form, use, shape, mode) of every recorded program; mode "jit", "eager" or "jit_highest"."""
    for shape in SHAPES:
        for form in FORMS:
            for use in USES if not form.startswith(("preset_", "string_")) else ("ret", "relerr"):
                yield f"{form}.{use}.{shape}.jit", form, use, shape, "jit"
                if use == "ret":
                    yield f"{form}.{use}.{shape}.eager", form, use, shape, "eager"
                if form in HIGHEST_FORMS and use in ("ret", "relerr"):
                    yield f"{form}.{use}.{shape}.jit_highest", form, use, shape, "jit_highest"


def as_stored(value) -> np.ndarray:
    """An output as stored: narrow floats widened to float32 (exact); the first ROWS rows of a matrix."""
    value = np.asarray(value)
    value = value.astype(np.float32) if value.dtype.kind in "fV" and value.dtype.itemsize < 4 else value
    return value[:ROWS] if value.ndim == 2 else value


def compute(data=None, wanted=None, hlo_for=("lesson", "k1"), budget_s=None) -> tuple[dict, dict, dict, dict]:
    """Every program on this process's default backend: (outputs, output dtypes, failures, HLO texts);
    past ``budget_s`` seconds the rest are left out (the record says which were run)."""
    import time

    import jax

    start = time.monotonic()
    data = data if data is not None else inputs()
    ns = namespace()
    out, dtypes, failed, texts = {}, {}, {}, {}
    for i, (key, form, use, shape, mode) in enumerate(keys()):
        if wanted is not None and key not in wanted:
            continue
        if i % 100 == 0:
            print(f"{i} programs done", file=sys.stderr, flush=True)
        if budget_s is not None and time.monotonic() - start > budget_s:
            break
        args = arguments(shape, data)
        try:
            f = program(form, use, ns)
            if mode == "eager":
                value = f(*args)
            else:
                with jax.default_matmul_precision("highest") if mode == "jit_highest" else _nothing():
                    compiled = jax.jit(f).lower(*args).compile()
                    value = compiled(*args)
                    if shape in hlo_for and use == "ret" and mode == "jit":
                        texts[key] = compiled.as_text()
            value = jax.block_until_ready(value)
        except Exception as exc:  # noqa: BLE001  a precision this backend refuses: recorded, not fatal
            failed[key] = f"{type(exc).__name__}: {str(exc)[:300]}"
            continue
        dtypes[key] = str(np.asarray(value).dtype)
        out[key] = as_stored(value)
    return out, dtypes, failed, texts


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def environment() -> dict:
    import jax

    versions = {"python": sys.version.split()[0], "numpy": np.__version__, "jax": jax.__version__}
    for name in ("jaxlib", "libtpu"):
        try:
            from importlib.metadata import version

            versions[name] = version(name)
        except Exception:  # noqa: BLE001
            pass
    return {"backend": jax.default_backend(), "device_kind": jax.devices()[0].device_kind, "versions": versions}


def write(out: Path, budget_s: float | None = None) -> dict:
    data = inputs()
    values, dtypes, failed, texts = compute(data, budget_s=budget_s)
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / NPZ, **{f"in_{k}": v for k, v in data.items()}, **values)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        **environment(),
        "shapes": SHAPES,
        "forms": FORMS,
        "uses": USES,
        "rows_kept": ROWS,
        "dtypes": dtypes,
        "failed": failed,
        "npz_bytes": (out / NPZ).stat().st_size,
    }
    (out / META).write_text(json.dumps(meta, indent=1) + "\n")
    with gzip.open(out / HLO, "wt", encoding="utf-8") as f:
        json.dump(texts, f)
    return meta


def load(folder: Path) -> tuple[dict[str, np.ndarray], dict]:
    """The recorded arrays (inputs as in_<name>) and the metadata."""
    meta = json.loads((Path(folder) / META).read_text())
    with np.load(Path(folder) / NPZ) as npz:
        return {k: npz[k] for k in npz.files}, meta


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.chip.dot_record", description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--budget-s", type=float, help="stop starting programs after this many seconds")
    args = parser.parse_args(argv)
    meta = write(args.out, args.budget_s)
    summary = {k: meta[k] for k in ("backend", "device_kind", "versions", "npz_bytes")}
    print(json.dumps(summary | {"programs": len(meta["dtypes"]), "failed": meta["failed"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
