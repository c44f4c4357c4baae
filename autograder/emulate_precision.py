"""Matmul precision of a TPU or a GPU, emulated on a CPU: an IPython start-up file.

CPU XLA ignores matmul precision, so a notebook that is only ever run on CPU cannot show that its
"fp32 reference" is really one bf16 pass on a TPU, or TF32 on a GPU. The test suite copies this
file into the kernel's IPython start-up folder (``IPYTHONDIR/profile_default/startup/``) with
``COURSE_EMULATE=tpu`` or ``gpu`` set, so notebooks run untouched under these semantics for float32
operands of every ``jnp.dot``/``matmul``/``einsum``/``@``/``lax.dot_general``/``lax.dot``:

    TPU: DEFAULT (or none) = one bf16 pass, f32 accumulation; HIGH = bf16x3; HIGHEST = exact.
    GPU: DEFAULT and HIGH = TF32 (inputs rounded to a 10-bit mantissa), HIGHEST = exact.
    Both: dot algorithms such as "BF16_BF16_F32" or "TF32_TF32_F32_X3" round as they say.

Operands of other dtypes (bf16, int8, float64...) are untouched. The backend name stays "cpu".
Self-contained on purpose: it runs before the first cell, with nothing but jax importable.
"""


def _course_emulate_precision(mode):
    """Patch jax's dot for ``mode``; everything lives in this function so that, run as an IPython
    start-up file, it leaves no name behind in the notebook's namespace."""
    import os

    import jax
    import jax.numpy as jnp
    from jax._src.lax import lax as _lax

    original = _lax.dot
    Precision, Preset = _lax.Precision, _lax.DotAlgorithmPreset

    def tf32(x):
        """Round float32 to TF32 (1 + 10 mantissa bits), nearest even, by integer arithmetic."""
        bits = jax.lax.bitcast_convert_type(x, jnp.uint32)
        rounded = (bits + jnp.uint32(0xFFF) + ((bits >> 13) & 1)) & jnp.uint32(0xFFFFE000)
        finite = jnp.isfinite(x)
        return jnp.where(finite, jax.lax.bitcast_convert_type(rounded, jnp.float32), x)

    def bf16(x):
        return x.astype(jnp.bfloat16).astype(jnp.float32)

    def level(precision):
        """'bf16', 'bf16x3', 'tf32', 'tf32x3' or 'exact' for a float32 dot on the emulated device."""
        p = _lax.canonicalize_precision(precision)
        if isinstance(p, Preset):
            name = p.name
            if name == "DEFAULT":
                p = None
            elif name.startswith("BF16_BF16_F32_X3") or name.startswith("BF16_BF16_F32_X6"):
                return "bf16x3" if name.endswith("X3") else "exact"
            elif name.startswith("BF16_BF16"):
                return "bf16"
            elif name.startswith("TF32_TF32_F32_X3"):
                return "tf32x3"
            elif name.startswith("TF32_TF32"):
                return "tf32"
            else:
                return "exact"
        elif not isinstance(p, (tuple, type(None))):
            return "exact"  # an explicit DotAlgorithm: take it at its word
        top = Precision.DEFAULT if p is None else max(p, key=lambda q: q.value)
        if mode == "tpu":
            return {Precision.DEFAULT: "bf16", Precision.HIGH: "bf16x3"}.get(top, "exact")
        return {Precision.DEFAULT: "tf32", Precision.HIGH: "tf32"}.get(top, "exact")

    def emulated_dot(lhs, rhs, *, dimension_numbers=None, precision=None,
                     preferred_element_type=None, out_sharding=None):
        lhs_a, rhs_a = jnp.asarray(lhs), jnp.asarray(rhs)
        dtypes = {lhs_a.dtype, rhs_a.dtype}
        small_floats = {jnp.dtype(jnp.float32), jnp.dtype(jnp.bfloat16), jnp.dtype(jnp.float16)}
        if jnp.dtype(jnp.float32) not in dtypes or not dtypes <= small_floats:
            # bf16 x bf16, int8 x int8, float64...: the device computes these as written
            return original(lhs, rhs, dimension_numbers=dimension_numbers, precision=precision,
                            preferred_element_type=preferred_element_type, out_sharding=out_sharding)
        # f32 x f32, or f32 mixed with bf16/f16 (XLA upcasts the narrow side): a float32 dot
        lhs_a, rhs_a = lhs_a.astype(jnp.float32), rhs_a.astype(jnp.float32)
        how = level(precision)
        out_type = preferred_element_type or jnp.float32

        def exact(a, b):
            return original(a, b, dimension_numbers=dimension_numbers, precision=Precision.HIGHEST,
                            preferred_element_type=jnp.float32, out_sharding=out_sharding)

        if how == "exact":
            out = exact(lhs_a, rhs_a)
        elif how == "bf16":  # one MXU pass: bf16 inputs, products exact, f32 accumulation
            out = original(lhs_a.astype(jnp.bfloat16), rhs_a.astype(jnp.bfloat16),
                           dimension_numbers=dimension_numbers, preferred_element_type=jnp.float32,
                           out_sharding=out_sharding)
        elif how in ("bf16x3", "tf32x3"):  # split x = hi + lo, drop the lo*lo pass
            r = bf16 if how == "bf16x3" else tf32
            lh, rh = r(lhs_a), r(rhs_a)
            ll, rl = r(lhs_a - lh), r(rhs_a - rh)
            out = exact(lh, rh) + exact(lh, rl) + exact(ll, rh)
        else:  # tf32: inputs rounded to a 10-bit mantissa, products exact in f32
            out = exact(tf32(lhs_a), tf32(rhs_a))
        return out.astype(out_type)

    _lax.dot = emulated_dot
    jax.lax.dot = emulated_dot
    os.environ["COURSE_EMULATED_PRECISION"] = mode


def _course_emulation_mode():
    import os
    return os.environ.get("COURSE_EMULATE", "").lower()


if _course_emulation_mode() in ("tpu", "gpu"):
    _course_emulate_precision(_course_emulation_mode())
del _course_emulate_precision, _course_emulation_mode
