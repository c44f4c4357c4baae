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

It refuses a JAX it cannot wrap (JAX < 0.7.1, where jnp.dot bypasses lax.dot): it probes every
route above and raises a RuntimeError that says which escaped; as a kernel's start-up file it then
writes that error to the kernel's stderr and ends the kernel, never grading without emulation.
"""


def _course_emulate_precision(mode):
    """Patch jax's dot for ``mode``; everything lives in this function so that, run as an IPython
    start-up file, it leaves no name behind in the notebook's namespace."""
    import os

    import jax
    import jax.numpy as jnp

    try:
        from jax._src.lax import lax as _lax

        original = _lax.dot
        Precision, Preset, canonicalize = _lax.Precision, _lax.DotAlgorithmPreset, _lax.canonicalize_precision
    except (ImportError, AttributeError) as exc:
        raise RuntimeError(
            f"COURSE_EMULATE={mode}: cannot emulate {mode.upper()} matmul precision on JAX "
            f"{jax.__version__} ({exc}); use the course's pinned JAX (pyproject.toml)"
        ) from None

    def tf32(x):
        """Round float32 to TF32 (1 + 10 mantissa bits), nearest even, by integer arithmetic."""
        bits = jax.lax.bitcast_convert_type(x, jnp.uint32)
        rounded = (bits + jnp.uint32(0xFFF) + ((bits >> 13) & 1)) & jnp.uint32(0xFFFFE000)
        finite = jnp.isfinite(x)
        return jnp.where(finite, jax.lax.bitcast_convert_type(rounded, jnp.float32), x)

    def bf16(x):
        """Round float32 to the nearest bfloat16, kept in float32: reduce_precision rounds inside jit
        too, where XLA may drop a cast round trip's rounding (it does on a TPU: jax-ml/jax#6283)."""
        return jax.lax.reduce_precision(x, exponent_bits=8, mantissa_bits=7)

    def level(precision):
        """'bf16', 'bf16x3', 'tf32', 'tf32x3' or 'exact' for a float32 dot on the emulated device."""
        p = canonicalize(precision)
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

    def emulated_dot(
        lhs, rhs, *, dimension_numbers=None, precision=None, preferred_element_type=None, out_sharding=None
    ):
        lhs_a, rhs_a = jnp.asarray(lhs), jnp.asarray(rhs)
        dtypes = {lhs_a.dtype, rhs_a.dtype}
        small_floats = {jnp.dtype(jnp.float32), jnp.dtype(jnp.bfloat16), jnp.dtype(jnp.float16)}
        if jnp.dtype(jnp.float32) not in dtypes or not dtypes <= small_floats:
            # bf16 x bf16, int8 x int8, float64...: the device computes these as written
            return original(
                lhs,
                rhs,
                dimension_numbers=dimension_numbers,
                precision=precision,
                preferred_element_type=preferred_element_type,
                out_sharding=out_sharding,
            )
        # f32 x f32, or f32 mixed with bf16/f16 (XLA upcasts the narrow side): a float32 dot
        lhs_a, rhs_a = lhs_a.astype(jnp.float32), rhs_a.astype(jnp.float32)
        how = level(precision)
        out_type = preferred_element_type or jnp.float32

        def exact(a, b):
            return original(
                a,
                b,
                dimension_numbers=dimension_numbers,
                precision=Precision.HIGHEST,
                preferred_element_type=jnp.float32,
                out_sharding=out_sharding,
            )

        if how == "exact":
            out = exact(lhs_a, rhs_a)
        elif how == "bf16":  # one MXU pass: bf16 inputs, products exact, f32 accumulation
            out = original(
                lhs_a.astype(jnp.bfloat16),
                rhs_a.astype(jnp.bfloat16),
                dimension_numbers=dimension_numbers,
                preferred_element_type=jnp.float32,
                out_sharding=out_sharding,
            )
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

    # Every public route to a matmul must reach the wrapper (before JAX 0.7.1, jnp.dot, @ and
    # einsum called dot_general, which did not go through lax.dot): probe each with 1 + 2^-12,
    # which bf16 and TF32 both round to 1, so an emulated DEFAULT-precision dot gives exactly 2.
    a, b = jnp.full((1, 2), 1 + 2.0**-12, jnp.float32), jnp.ones((2, 1), jnp.float32)
    routes = {
        "jax.numpy.dot": jnp.dot,
        "@": lambda p, q: p @ q,
        "jax.numpy.matmul": jnp.matmul,
        "jax.numpy.einsum": lambda p, q: jnp.einsum("ik,kj->ij", p, q),
        "jax.lax.dot_general": lambda p, q: jax.lax.dot_general(p, q, (((1,), (0,)), ((), ()))),
        "jax.jit(jax.numpy.dot)": jax.jit(jnp.dot),
    }
    escaped = [name for name, f in routes.items() if float(f(a, b)[0, 0]) != 2.0]
    if escaped:
        _lax.dot = jax.lax.dot = original
        raise RuntimeError(
            f"COURSE_EMULATE={mode}: cannot emulate {mode.upper()} matmul precision on JAX "
            f"{jax.__version__}: {', '.join(escaped)} do not go through jax.lax.dot; "
            "use the course's pinned JAX (pyproject.toml)"
        )
    os.environ["COURSE_EMULATED_PRECISION"] = mode


def _course_emulation_mode():
    import os

    return os.environ.get("COURSE_EMULATE", "").lower()


if _course_emulation_mode() in ("tpu", "gpu"):
    try:
        _course_emulate_precision(_course_emulation_mode())
    except RuntimeError as _course_exc:
        if "get_ipython" not in globals():
            raise
        # An IPython start-up file: IPython would print the error and run the notebook anyway,
        # without emulation. A kernel that cannot grade as asked stops instead, saying why.
        import os as _os
        import sys as _sys

        print(f"emulate_precision.py: {_course_exc}", file=_sys.__stderr__, flush=True)
        _os._exit(3)
del _course_emulate_precision, _course_emulation_mode
