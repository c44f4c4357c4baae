"""Known wrong answers to 06_block_scaled_formats's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

MISTAKES = [
    # ----------------------------------------------------------- mx_quantize
    {
        "id": "round-log2-max-instead-of-floor-for-the",
        "function": "mx_quantize",
        "name": "round(log2(max)) instead of floor for the shared exponent",
        "explanation": "",
        "section": "",
        "why": "round(log2(max)) instead of floor for the shared exponent",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block).astype(np.float64)
    amax = np.max(np.abs(xb), axis=-1)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.round(np.log2(np.where(amax > 0, amax, 1.0))) - emax
    e = np.where(np.isfinite(amax), np.clip(e, -127, 127), np.nan)
    e = np.where(amax == 0, 0, e)
    scale = np.exp2(e)
    fmax = float(ml_dtypes.finfo(dt).max)
    q = np.clip(np.nan_to_num(xb / scale[..., None]), -fmax, fmax)
    return q.astype(np.float32).astype(dt).reshape(x.shape), scale.astype(np.float32).astype(ml_dtypes.float8_e8m0fnu)
""",
    },
    {
        "id": "no-saturation-x-scale-cast-directly-e4m3",
        "function": "mx_quantize",
        "name": "no saturation: x / scale cast directly (e4m3 gives NaN, e5m2 inf past the top)",
        "explanation": "",
        "section": "",
        "why": "no saturation: x / scale cast directly (e4m3 gives NaN, e5m2 inf past the top)",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    _, e = np.frexp(np.where(finite & (amax > 0), amax, np.float32(1)))
    shared = np.where(amax > 0, np.clip(e.astype(np.int64) - 1 - emax, -127, 127), 0)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    q = np.ldexp(xb, (-shared[..., None]).astype(np.int32))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "blocks-along-the-wrong-axis-strided-bloc",
        "function": "mx_quantize",
        "name": "blocks along the wrong axis: strided blocks (reshape (..., block, K // block), max over axis -2)",
        "explanation": "",
        "section": "",
        "why": "blocks along the wrong axis: strided blocks (reshape (..., block, K // block), max over axis -2)",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], block, x.shape[-1] // block)
    amax = np.max(np.abs(xb), axis=-2)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    _, e = np.frexp(np.where(finite & (amax > 0), amax, np.float32(1)))
    shared = np.where(amax > 0, np.clip(e.astype(np.int64) - 1 - emax, -127, 127), 0)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb, (-shared[..., None, :]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None, :], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "one-scale-per-row-max-over-the-whole-las",
        "function": "mx_quantize",
        "name": "one scale per row (max over the whole last axis), repeated for every block",
        "explanation": "",
        "section": "",
        "why": "one scale per row (max over the whole last axis), repeated for every block",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    nb = x.shape[-1] // block
    amax = np.max(np.abs(x), axis=-1, keepdims=True)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    _, e = np.frexp(np.where(finite & (amax > 0), amax, np.float32(1)))
    shared = np.where(amax > 0, np.clip(e.astype(np.int64) - 1 - emax, -127, 127), 0)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(x, (-shared).astype(np.int32)), -fmax, fmax)
    q = np.where(finite, q, np.float32(0))
    return q.astype(dt), np.repeat(scales, nb, axis=-1)
""",
    },
    {
        "id": "scale-max-elem-max-not-a-power-of-two-st",
        "function": "mx_quantize",
        "name": "scale max / elem_max (not a power of two), stored rounded to e8m0",
        "explanation": "",
        "section": "",
        "why": "scale max / elem_max (not a power of two), stored rounded to e8m0",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    amax = np.max(np.abs(xb), axis=-1, keepdims=True)
    scale = np.where(amax > 0, amax / fmax, np.float32(1)).astype(np.float32)
    with np.errstate(invalid="ignore"):
        q = np.clip(xb / scale, -fmax, fmax)
    return q.astype(dt).reshape(x.shape), scale[..., 0].astype(ml_dtypes.float8_e8m0fnu)
""",
    },
    {
        "id": "double-rounding-x-scale-rounded-to-bfloa",
        "function": "mx_quantize",
        "name": "double rounding: x / scale rounded to bfloat16 first, then to the element format",
        "explanation": "",
        "section": "",
        "why": "double rounding: x / scale rounded to bfloat16 first, then to the element format",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    _, e = np.frexp(np.where(finite & (amax > 0), amax, np.float32(1)))
    shared = np.where(amax > 0, np.clip(e.astype(np.int64) - 1 - emax, -127, 127), 0)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb, (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0)).astype(ml_dtypes.bfloat16)
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "floor-log2-max-computed-in-float32-wrong",
        "function": "mx_quantize",
        "name": "floor(log2(max)) computed in float32: wrong just below a power of two",
        "explanation": "",
        "section": "",
        "why": "floor(log2(max)) computed in float32: wrong just below a power of two",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.floor(np.log2(np.where(finite & (amax > 0), amax, np.float32(1)))).astype(np.int64)
    shared = np.where(amax > 0, np.clip(e - emax, -127, 127), 0)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb, (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "inf-clamped-to-2-127-like-any-exponent-n",
        "function": "mx_quantize",
        "name": "inf clamped to 2^127 like any exponent (np.clip(inf) = 127), not the NaN scale",
        "explanation": "",
        "section": "",
        "why": "inf clamped to 2^127 like any exponent (np.clip(inf) = 127), not the NaN scale",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block).astype(np.float64)
    amax = np.max(np.abs(xb), axis=-1)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.clip(np.floor(np.log2(amax)) - emax, -127, 127)
    e = np.where(amax == 0, 0, e)
    scale = np.exp2(e)
    fmax = float(ml_dtypes.finfo(dt).max)
    with np.errstate(invalid="ignore"):
        q = np.clip(xb / scale[..., None], -fmax, fmax)
    return q.astype(np.float32).astype(dt).reshape(x.shape), scale.astype(np.float32).astype(ml_dtypes.float8_e8m0fnu)
""",
    },
    {
        "id": "no-clamp-at-127-a-tiny-block-s-exponent",
        "function": "mx_quantize",
        "name": "no clamp at -127: a tiny block's exponent -130 stored as e8m0 (rounded), elements scaled by 2^130",
        "explanation": "",
        "section": "",
        "why": "no clamp at -127: a tiny block's exponent -130 stored as e8m0 (rounded), elements scaled by 2^130",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block).astype(np.float64)
    amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    _, e = np.frexp(np.where(finite & (amax > 0), amax, 1.0))
    shared = np.where(amax > 0, e - 1 - emax, 0)
    scale = np.where(finite, np.exp2(shared.astype(np.float64)), np.nan)
    fmax = float(ml_dtypes.finfo(dt).max)
    q = np.clip(np.nan_to_num(xb / scale[..., None]), -fmax, fmax)
    return q.astype(np.float32).astype(dt).reshape(x.shape), scale.astype(np.float32).astype(ml_dtypes.float8_e8m0fnu)
""",
    },
    {
        "id": "emax-from-finfo-maxexp-without-the-1-9-f",
        "function": "mx_quantize",
        "name": "emax from finfo.maxexp without the -1 (9 for e4m3): every scale twice too big",
        "explanation": "",
        "section": "",
        "why": "emax from finfo.maxexp without the -1 (9 for e4m3): every scale twice too big",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp)
    _, e = np.frexp(np.where(finite & (amax > 0), amax, np.float32(1)))
    shared = np.where(amax > 0, np.clip(e.astype(np.int64) - 1 - emax, -127, 127), 0)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb, (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "all-zero-block-gets-the-smallest-scale-2",
        "function": "mx_quantize",
        "name": "all-zero block gets the smallest scale 2^-127 (microxcaling's habit), not 1.0",
        "explanation": "",
        "section": "",
        "why": "all-zero block gets the smallest scale 2^-127 (microxcaling's habit), not 1.0",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    _, e = np.frexp(np.where(finite & (amax > 0), amax, np.float32(1)))
    shared = np.where(amax > 0, np.clip(e.astype(np.int64) - 1 - emax, -127, 127), -127)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb, (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "jax-x-2-0-e-the-subnormal-scale-2-127-is",
        "function": "mx_quantize",
        "name": "JAX, x / 2.0 ** e: the subnormal scale 2^-127 is flushed to zero on XLA CPU (x / 0)",
        "explanation": "",
        "section": "",
        "why": "JAX, x / 2.0 ** e: the subnormal scale 2^-127 is flushed to zero on XLA CPU (x / 0)",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = jnp.dtype(getattr(ml_dtypes, elem))
    x = jnp.asarray(x, jnp.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    amax = jnp.max(jnp.abs(xb), axis=-1)
    finite = jnp.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    _, e = jnp.frexp(jnp.where(finite & (amax > 0), amax, 1.0))
    shared = jnp.where(amax > 0, jnp.clip(e - 1 - emax, -127, 127), 0)
    scale = jnp.float32(2.0) ** shared.astype(jnp.float32)
    fmax = float(ml_dtypes.finfo(dt).max)
    q = jnp.clip(xb / scale[..., None], -fmax, fmax)
    q = jnp.where(finite[..., None], q, 0.0)
    bits = jnp.where(finite, shared + 127, 255).astype(jnp.uint8)
    return q.astype(dt).reshape(x.shape), jax.lax.bitcast_convert_type(bits, jnp.float8_e8m0fnu)
""",
    },
    # --------------------------------------------------------- mx_dequantize
    {
        "id": "np-tile-instead-of-np-repeat-scales-cycl",
        "function": "mx_dequantize",
        "name": "np.tile instead of np.repeat: scales cycle over the blocks",
        "explanation": "",
        "section": "",
        "why": "np.tile instead of np.repeat: scales cycle over the blocks",
        "source": """
def mx_dequantize(elements, scales, block=32):
    s = np.asarray(scales).astype(np.float32)
    reps = (1,) * (s.ndim - 1) + (block,)
    return (np.asarray(elements).astype(np.float32) * np.tile(s, reps)).astype(np.float32)
""",
    },
    {
        "id": "e8m0-bits-used-as-the-exponent-without-r",
        "function": "mx_dequantize",
        "name": "e8m0 bits used as the exponent without removing the bias 127",
        "explanation": "",
        "section": "",
        "why": "e8m0 bits used as the exponent without removing the bias 127",
        "source": """
def mx_dequantize(elements, scales, block=32):
    bits = np.asarray(scales).view(np.uint8).astype(np.float32)
    s = np.where(bits == 255, np.nan, np.exp2(bits)).astype(np.float32)
    return (np.asarray(elements).astype(np.float32) * np.repeat(s, block, axis=-1)).astype(np.float32)
""",
    },
    {
        "id": "divides-by-the-scale-instead-of-multiply",
        "function": "mx_dequantize",
        "name": "divides by the scale instead of multiplying",
        "explanation": "",
        "section": "",
        "why": "divides by the scale instead of multiplying",
        "source": """
def mx_dequantize(elements, scales, block=32):
    s = np.repeat(np.asarray(scales).astype(np.float32), block, axis=-1)
    return (np.asarray(elements).astype(np.float32) / s).astype(np.float32)
""",
    },
    {
        "id": "scale-as-2-0-bits-127-the-nan-code-255-b",
        "function": "mx_dequantize",
        "name": "scale as 2.0 ** (bits - 127): the NaN code 255 becomes 2^128 = inf, not NaN",
        "explanation": "",
        "section": "",
        "why": "scale as 2.0 ** (bits - 127): the NaN code 255 becomes 2^128 = inf, not NaN",
        "source": """
def mx_dequantize(elements, scales, block=32):
    bits = np.asarray(scales).view(np.uint8).astype(np.float32)
    s = np.float32(2.0) ** (bits - np.float32(127))
    with np.errstate(invalid="ignore", over="ignore"):
        return (np.asarray(elements).astype(np.float32) * np.repeat(s, block, axis=-1)).astype(np.float32)
""",
    },
    {
        "id": "returns-bfloat16-the-mxu-s-input-type-in",
        "function": "mx_dequantize",
        "name": "returns bfloat16 (the MXU's input type) instead of float32",
        "explanation": "",
        "section": "",
        "why": "returns bfloat16 (the MXU's input type) instead of float32",
        "source": """
def mx_dequantize(elements, scales, block=32):
    s = np.repeat(np.asarray(scales).astype(np.float32), block, axis=-1)
    return (np.asarray(elements).astype(np.float32) * s).astype(ml_dtypes.bfloat16)
""",
    },
    # ------------------------------------------------------------- mx_matmul
    {
        "id": "w-quantized-in-blocks-along-n-mx-quantiz",
        "function": "mx_matmul",
        "name": "w quantized in blocks along N (mx_quantize(w)), not along K",
        "explanation": "",
        "section": "",
        "why": "w quantized in blocks along N (mx_quantize(w)), not along K",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32), elem=elem, block=block)
    qw, sw = mx_quantize(np.asarray(w, np.float32), elem=elem, block=block)
    xd = np.asarray(mx_dequantize(qx, sx, block=block), np.float64)
    wd = np.asarray(mx_dequantize(qw, sw, block=block), np.float64)
    return (xd @ wd).astype(np.float32)
""",
    },
    {
        "id": "only-the-weights-quantized-x-stays-float",
        "function": "mx_matmul",
        "name": "only the weights quantized (x stays float32)",
        "explanation": "",
        "section": "",
        "why": "only the weights quantized (x stays float32)",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qw, sw = mx_quantize(np.asarray(w, np.float32).T, elem=elem, block=block)
    wd = np.asarray(mx_dequantize(qw, sw, block=block), np.float64).T
    return (np.asarray(x, np.float64) @ wd).astype(np.float32)
""",
    },
    {
        "id": "bfloat16-accumulation-output-preferred-e",
        "function": "mx_matmul",
        "name": "bfloat16 accumulation/output (preferred_element_type=jnp.bfloat16)",
        "explanation": "",
        "section": "",
        "why": "bfloat16 accumulation/output (preferred_element_type=jnp.bfloat16)",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32), elem=elem, block=block)
    qw, sw = mx_quantize(np.asarray(w, np.float32).T, elem=elem, block=block)
    xd = jnp.asarray(mx_dequantize(qx, sx, block=block), jnp.bfloat16)
    wd = jnp.asarray(mx_dequantize(qw, sw, block=block), jnp.bfloat16).T
    return jnp.dot(xd, wd, preferred_element_type=jnp.bfloat16).astype(jnp.float32)
""",
    },
    {
        "id": "ignores-elem-and-block-always-mxfp8-e4m3",
        "function": "mx_matmul",
        "name": "ignores elem and block (always MXFP8 e4m3, blocks of 32)",
        "explanation": "",
        "section": "",
        "why": "ignores elem and block (always MXFP8 e4m3, blocks of 32)",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32))
    qw, sw = mx_quantize(np.asarray(w, np.float32).T)
    xd = np.asarray(mx_dequantize(qx, sx), np.float64)
    wd = np.asarray(mx_dequantize(qw, sw), np.float64).T
    return (xd @ wd).astype(np.float32)
""",
    },
    # ----------------------------------------------------- granularity_sweep
    {
        "id": "mx-blocks-along-n-mx-quantize-w-row-by-r",
        "function": "granularity_sweep",
        "name": "MX blocks along N (mx_quantize(w) row by row), not along K per column",
        "explanation": "",
        "section": "",
        "why": "MX blocks along N (mx_quantize(w) row by row), not along K per column",
        "source": """
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] *= np.float32(10.0)
    x = np.array(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    exact = x @ w.astype(np.float64)
    err = lambda wq: float(np.mean(np.abs(x @ np.asarray(wq, np.float64) - exact)))
    def int8(axis):
        m = np.max(np.abs(w), axis=axis, keepdims=axis is not None)
        s = np.where(m == 0, np.float32(1), m / np.float32(127)).astype(np.float32)
        return np.clip(np.round(w / s), -127, 127) * s
    out = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        out["block"].append(b)
        out["per_tensor"].append(err(int8(None)))
        out["per_channel"].append(err(int8(0)))
        for key, elem in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            bb = min(b, 32)
            q, s = mx_quantize(w, elem=elem, block=bb)
            out[key].append(err(mx_dequantize(q, s, block=bb)))
    return out
""",
    },
    {
        "id": "activations-quantized-too-mx-matmul-unli",
        "function": "granularity_sweep",
        "name": "activations quantized too (mx_matmul), unlike lesson 03's weight-only experiment",
        "explanation": "",
        "section": "",
        "why": "activations quantized too (mx_matmul), unlike lesson 03's weight-only experiment",
        "source": """
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] *= np.float32(10.0)
    x = np.array(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32))
    exact = x.astype(np.float64) @ w.astype(np.float64)
    def int8(axis):
        m = np.max(np.abs(w), axis=axis, keepdims=axis is not None)
        s = np.where(m == 0, np.float32(1), m / np.float32(127)).astype(np.float32)
        return np.clip(np.round(w / s), -127, 127) * s
    err = lambda y: float(np.mean(np.abs(np.asarray(y, np.float64) - exact)))
    out = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        out["block"].append(b)
        out["per_tensor"].append(err(x.astype(np.float64) @ int8(None)))
        out["per_channel"].append(err(x.astype(np.float64) @ int8(0)))
        out["mxfp8"].append(err(mx_matmul(x, w, elem="float8_e4m3fn", block=b)))
        out["mxfp4"].append(err(mx_matmul(x, w, elem="float4_e2m1fn", block=b)))
    return out
""",
    },
    {
        "id": "reference-and-products-at-default-precis",
        "function": "granularity_sweep",
        "name": "reference and products at DEFAULT precision (one bf16 pass on a TPU)",
        "explanation": "",
        "section": "",
        "why": "reference and products at DEFAULT precision (one bf16 pass on a TPU)",
        "only_under": "tpu",
        "source": """
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    exact = jnp.dot(x, w)
    err = lambda wq: float(jnp.mean(jnp.abs(jnp.dot(x, jnp.asarray(wq, jnp.float32)) - exact)))
    def int8(axis):
        m = jnp.max(jnp.abs(w), axis=axis, keepdims=axis is not None)
        s = jnp.where(m == 0, 1.0, m / 127.0)
        return jnp.clip(jnp.round(w / s), -127, 127) * s
    out = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        out["block"].append(b)
        out["per_tensor"].append(err(int8(None)))
        out["per_channel"].append(err(int8(0)))
        for key, elem in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(np.asarray(w).T, elem=elem, block=b)
            out[key].append(err(np.asarray(mx_dequantize(q, s, block=b)).T))
    return out
""",
    },
    # -------------------------------------------------------- nvfp4_quantize
    {
        "id": "tensor-scale-max-6-forgets-e4m3-s-448-bl",
        "function": "nvfp4_quantize",
        "name": "tensor scale max / 6 (forgets e4m3's 448): block scales pushed into e4m3's subnormals",
        "explanation": "",
        "section": "",
        "why": "tensor scale max / 6 (forgets e4m3's 448): block scales pushed into e4m3's subnormals",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // 16, 16)
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(6)) if amax > 0 else np.float32(1.0)
    s = ((np.max(np.abs(xb), axis=-1) / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    st = s.astype(np.float32)[..., None] * t
    q = np.where(st > 0, xb / np.where(st > 0, st, np.float32(1)), np.float32(0))
    return np.clip(q, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape), s, np.asarray(t, np.float32)
""",
    },
    {
        "id": "elements-divided-by-the-unrounded-float3",
        "function": "nvfp4_quantize",
        "name": "elements divided by the unrounded float32 block scale, not the stored e4m3 one",
        "explanation": "",
        "section": "",
        "why": "elements divided by the unrounded float32 block scale, not the stored e4m3 one",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // 16, 16)
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    s32 = (np.max(np.abs(xb), axis=-1) / np.float32(6)) / t
    st = s32[..., None] * t
    q = np.where(st > 0, xb / np.where(st > 0, st, np.float32(1)), np.float32(0))
    s = s32.astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    return np.clip(q, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape), s, np.asarray(t, np.float32)
""",
    },
    {
        "id": "blocks-of-32-mxfp4-s-size-instead-of-16",
        "function": "nvfp4_quantize",
        "name": "blocks of 32 (MXFP4's size) instead of 16",
        "explanation": "",
        "section": "",
        "why": "blocks of 32 (MXFP4's size) instead of 16",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // 32, 32)
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    s = ((np.max(np.abs(xb), axis=-1) / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    st = s.astype(np.float32)[..., None] * t
    q = np.where(st > 0, xb / np.where(st > 0, st, np.float32(1)), np.float32(0))
    return np.clip(q, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape), np.repeat(s, 2, axis=-1), np.asarray(t, np.float32)
""",
    },
    {
        "id": "no-guard-for-a-block-scale-of-0-0-0-elem",
        "function": "nvfp4_quantize",
        "name": "no guard for a block scale of 0: 0/0 elements (NaN cast to e2m1)",
        "explanation": "",
        "section": "",
        "why": "no guard for a block scale of 0: 0/0 elements (NaN cast to e2m1)",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // 16, 16)
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    s = ((np.max(np.abs(xb), axis=-1) / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = xb / (s.astype(np.float32)[..., None] * t)
    return np.clip(q, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape), s, np.asarray(t, np.float32)
""",
    },
    {
        "id": "mx-style-power-of-two-block-scales-round",
        "function": "nvfp4_quantize",
        "name": "MX-style power-of-two block scales (rounded down) stored as e4m3",
        "explanation": "",
        "section": "",
        "why": "MX-style power-of-two block scales (rounded down) stored as e4m3",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // 16, 16)
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    raw = (np.max(np.abs(xb), axis=-1) / np.float32(6)) / t
    with np.errstate(divide="ignore"):
        p2 = np.where(raw > 0, np.exp2(np.floor(np.log2(np.where(raw > 0, raw, 1)))), 0).astype(np.float32)
    s = p2.astype(ml_dtypes.float8_e4m3fn)
    st = s.astype(np.float32)[..., None] * t
    q = np.where(st > 0, xb / np.where(st > 0, st, np.float32(1)), np.float32(0))
    return np.clip(q, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape), s, np.asarray(t, np.float32)
""",
    },
    # ------------------------------------------------------ nvfp4_dequantize
    {
        "id": "forgets-the-tensor-scale",
        "function": "nvfp4_dequantize",
        "name": "forgets the tensor scale",
        "explanation": "",
        "section": "",
        "why": "forgets the tensor scale",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    s = np.repeat(np.asarray(block_scales).astype(np.float32), 16, axis=-1)
    return (np.asarray(elements).astype(np.float32) * s).astype(np.float32)
""",
    },
    {
        "id": "divides-by-the-tensor-scale-the-encode-s",
        "function": "nvfp4_dequantize",
        "name": "divides by the tensor scale (the encode scale's habit)",
        "explanation": "",
        "section": "",
        "why": "divides by the tensor scale (the encode scale's habit)",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    s = np.repeat(np.asarray(block_scales).astype(np.float32), 16, axis=-1)
    return (np.asarray(elements).astype(np.float32) * s / np.float32(tensor_scale)).astype(np.float32)
""",
    },
    {
        "id": "np-tile-instead-of-np-repeat-for-the-blo",
        "function": "nvfp4_dequantize",
        "name": "np.tile instead of np.repeat for the block scales",
        "explanation": "",
        "section": "",
        "why": "np.tile instead of np.repeat for the block scales",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    s = np.asarray(block_scales).astype(np.float32)
    s = np.tile(s, (1,) * (s.ndim - 1) + (16,))
    return (np.asarray(elements).astype(np.float32) * s * np.float32(tensor_scale)).astype(np.float32)
""",
    },
    # ----------------------------------------------------------- mx_quantize
    {
        "id": "zeroes-x-in-place-then-answers-for-zeros",
        "function": "mx_quantize",
        "name": "zeroes x in place, then answers for zeros (elements 0, scales 1.0)",
        "explanation": "",
        "section": "",
        "why": "zeroes x in place, then answers for zeros (elements 0, scales 1.0)",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    if isinstance(x, np.ndarray) and x.flags.writeable:
        x[...] = 0
    shape = np.shape(x)
    scales = np.ones(shape[:-1] + (shape[-1] // block,), np.float32).astype(ml_dtypes.float8_e8m0fnu)
    return np.zeros(shape, getattr(ml_dtypes, elem)), scales
""",
    },
    # --------------------------------------------------------- mx_dequantize
    {
        "id": "zeroes-the-elements-in-place-then-answer",
        "function": "mx_dequantize",
        "name": "zeroes the elements in place, then answers for zeros (NaN where the block's scale is NaN)",
        "explanation": "",
        "section": "",
        "why": "zeroes the elements in place, then answers for zeros (NaN where the block's scale is NaN)",
        "source": """
def mx_dequantize(elements, scales, block=32):
    if isinstance(elements, np.ndarray) and elements.flags.writeable:
        elements[...] = 0
    s = np.repeat(np.asarray(scales).astype(np.float32), block, axis=-1)
    return np.where(np.isnan(s), np.float32(np.nan), np.float32(0.0)).astype(np.float32)
""",
    },
    # ------------------------------------------------------------- mx_matmul
    {
        "id": "zeroes-x-in-place-then-answers-for-zeros",
        "function": "mx_matmul",
        "name": "zeroes x in place, then answers for zeros",
        "explanation": "",
        "section": "",
        "why": "zeroes x in place, then answers for zeros",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    if isinstance(x, np.ndarray) and x.flags.writeable:
        x[...] = 0
    return np.zeros((np.shape(x)[0], np.shape(w)[1]), np.float32)
""",
    },
    # ------------------------------------------------------ nvfp4_dequantize
    {
        "id": "zeroes-the-elements-in-place-then-answer",
        "function": "nvfp4_dequantize",
        "name": "zeroes the elements in place, then answers for zeros",
        "explanation": "",
        "section": "",
        "why": "zeroes the elements in place, then answers for zeros",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    if isinstance(elements, np.ndarray) and elements.flags.writeable:
        elements[...] = 0
    return np.zeros(np.shape(elements), np.float32)
""",
    },
    # --------------------------------------------------------- mx_dequantize
    {
        "id": "jnp-float32-scales-multiplied-once-an-al",
        "function": "mx_dequantize",
        "name": "jnp float32 scales multiplied (once an alternative): XLA flushes the subnormal scale 2^-127 to 0",
        "explanation": "",
        "section": "",
        "why": "jnp float32 scales multiplied (once an alternative): XLA flushes the subnormal scale 2^-127 to 0",
        "source": """
def mx_dequantize(elements, scales, block=32):
    return jnp.asarray(elements).astype(jnp.float32) * jnp.repeat(jnp.asarray(scales).astype(jnp.float32), block, axis=-1)
""",
    },
    {
        "id": "scale-built-as-a-jax-float32-power-2-0-b",
        "function": "mx_dequantize",
        "name": "scale built as a JAX float32 power 2.0 ** (bits - 127): 2^-127 flushed to 0 in the product",
        "explanation": "",
        "section": "",
        "why": "scale built as a JAX float32 power 2.0 ** (bits - 127): 2^-127 flushed to 0 in the product",
        "source": """
def mx_dequantize(elements, scales, block=32):
    bits = jax.lax.bitcast_convert_type(jnp.asarray(scales), jnp.uint8).astype(jnp.float32)
    s = jnp.where(bits == 255, jnp.nan, jnp.float32(2.0) ** (bits - 127.0))
    return jnp.asarray(elements).astype(jnp.float32) * jnp.repeat(s, block, axis=-1)
""",
    },
]
