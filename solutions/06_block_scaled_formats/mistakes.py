"""Known wrong answers to 06_block_scaled_formats's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

# Numbers compared by value, whatever type carries them (autograder/common/mistakes.py): the reason.
NUMBERS_BY_VALUE = {
    "nvfp4_quantize": "the tensor scale t: a NumPy float32 scalar or a 0-d float32 array",
}

MISTAKES = [
    # ----------------------------------------------------------- mx_quantize
    {
        "id": "rounded-exponent",
        "function": "mx_quantize",
        "name": "shared exponent rounded to nearest instead of rounded down",
        "explanation": "Your function rounds log2 of the block maximum to the nearest integer, so a block whose maximum lies in the upper part of its binade gets an exponent one too high and a scale twice too large. The OCP rule rounds down, which puts the block maximum in the element format's top binade; one binade lower, the top of the format goes unused and small elements fall sooner into the subnormals or to zero.",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "no-saturation",
        "function": "mx_quantize",
        "name": "no saturation: values past the format's largest become NaN or inf",
        "explanation": "Your function casts the scaled values straight to the element format. The floor rule can put a block maximum above the format's largest finite value (448 for e4m3), and the cast turns values well past it into NaN (e4m3) or infinity (e5m2). The spec saturates them to the largest finite value instead.",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "strided-blocks",
        "function": "mx_quantize",
        "name": "blocks gather strided values instead of consecutive ones",
        "explanation": "Your function splits the last axis the wrong way round: each of its blocks collects every (K / block)-th value instead of block consecutive values. The shapes come out right, but each scale is computed from, and applied to, the wrong set of values; an MX block is a run of consecutive values along the last axis.",
        "section": "Exercise 1: `mx_quantize` (4 points)",
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
        "id": "one-scale-per-row",
        "function": "mx_quantize",
        "name": "one scale per row, repeated for every block",
        "explanation": "Your function takes the maximum over the whole last axis and gives every block of the row that one scale, which is per-channel scaling with extra copies of the scale. The point of block scaling is that each block gets its own scale from its own maximum, so one large value coarsens only its own block.",
        "section": "5. An outlier inside one block vs an outlier under a per-channel scale",
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
        "id": "non-power-of-two-scale",
        "function": "mx_quantize",
        "name": "scale is the block max over the format's max, not a power of two",
        "explanation": "Your function divides the block by the exact ratio of its maximum to the format's largest value, then stores that ratio rounded to e8m0, a power of two. The elements were computed with a scale the block does not store, so decoding them gives wrong values; an MX scale is the power of two given by the maximum's exponent, and dividing by it is exact.",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "double-rounding",
        "function": "mx_quantize",
        "name": "scaled values rounded to bfloat16 first, then to the element format",
        "explanation": "Your function rounds the scaled values to bfloat16 before casting them to the element format, so each value is rounded twice. A value just off a halfway point can land exactly on it in the first rounding and then go the wrong way under ties to even; dividing by a power of two is exact, so the only rounding is the one to the element format.",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "float32-log2",
        "function": "mx_quantize",
        "name": "exponent from a float32 log2: wrong just below a power of two",
        "explanation": "Your function computes the floor of log2 of the block maximum in float32. Just below a power of two (from 8 up, e.g. the float just below 8) the float32 logarithm rounds up to the exact integer, so the exponent comes out one too high and that block's scale twice too large; the exponent can be read exactly from the number's bits (trap 1).",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "inf-gets-largest-scale",
        "function": "mx_quantize",
        "name": "a block holding an infinity gets the largest scale, not the NaN scale",
        "explanation": "Your function clamps the exponent of an infinite block maximum to 127 like any large exponent, so a block holding an infinity gets the scale 2^127 and finite elements. The spec gives such a block the NaN scale (its shared exponent overflows), which marks the whole block as invalid when it is decoded.",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "no-exponent-clamp",
        "function": "mx_quantize",
        "name": "shared exponent not clamped at -127 for tiny blocks",
        "explanation": "For a block of very small values your shared exponent falls below -127, which e8m0 cannot store: the stored scale becomes e8m0's smallest, 2^-127, while the elements were scaled with the smaller, unclamped power of two. Elements and scale no longer match and the block decodes too large; the exponent has to be clamped to e8m0's range before it is used.",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "emax-off-by-one",
        "function": "mx_quantize",
        "name": "emax taken one too large: every scale twice too small",
        "explanation": "Your function uses the dtype's maxexp as emax, but maxexp is one more than the exponent of the largest normal (9 instead of 8 for e4m3). The shared exponent comes out one lower, so every scale is half what it should be and x / scale twice too large: a block's largest elements overflow the format and saturate to its largest value (448 for e4m3), losing their ratios to each other.",
        "section": "2. The grids: a 4-bit float has 15 values, a scale has 255",
        "why": "emax from finfo.maxexp without the -1 (9 for e4m3): every scale half the reference's, block maxima saturate",
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
        "id": "zero-block-tiny-scale",
        "function": "mx_quantize",
        "name": "all-zero block gets the smallest scale instead of 1.0",
        "explanation": "Your function gives an all-zero block the smallest e8m0 scale, 2^-127, as the spec authors' reference library does. This course's contract gives such a block the scale 1.0 with zero elements, a value that is harmless to decode on every backend.",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "jax-subnormal-scale",
        "function": "mx_quantize",
        "name": "scale computed as a JAX float32 power: 2^-127 flushes to zero",
        "explanation": "Your function builds each scale as a float32 power of two in JAX and divides by it. The smallest scale, 2^-127, is a subnormal float32 and XLA on CPU flushes subnormals to zero, so a block with that scale is divided by zero. Trap 3 shows how to scale exactly without ever forming that float32.",
        "section": "3. The shared exponent, and three traps on the way",
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
        "id": "tile-not-repeat",
        "function": "mx_dequantize",
        "name": "scales cycled over the blocks instead of repeated per block",
        "explanation": "Your function lays the scales out by repeating the whole list of scales, so element k gets the scale of block k modulo the number of blocks instead of its own block's. Each scale covers block consecutive elements: the first block elements share the first scale, the next block the second, and so on.",
        "section": "Exercise 2: `mx_dequantize` (3 points)",
        "why": "np.tile instead of np.repeat: scales cycle over the blocks",
        "source": """
def mx_dequantize(elements, scales, block=32):
    s = np.asarray(scales).astype(np.float32)
    reps = (1,) * (s.ndim - 1) + (block,)
    return (np.asarray(elements).astype(np.float32) * np.tile(s, reps)).astype(np.float32)
""",
    },
    {
        "id": "bias-not-removed",
        "function": "mx_dequantize",
        "name": "e8m0 code used as the exponent without removing the bias",
        "explanation": "Your function raises 2 to the raw 8-bit code of each scale, but e8m0 stores the exponent with a bias of 127 (the code 127 means a scale of one). Every scale comes out 2^127 times too large, and for codes of 128 and above it overflows float32 to infinity.",
        "section": "2. The grids: a 4-bit float has 15 values, a scale has 255",
        "why": "e8m0 bits used as the exponent without removing the bias 127",
        "source": """
def mx_dequantize(elements, scales, block=32):
    bits = np.asarray(scales).view(np.uint8).astype(np.float32)
    s = np.where(bits == 255, np.nan, np.exp2(bits)).astype(np.float32)
    return (np.asarray(elements).astype(np.float32) * np.repeat(s, block, axis=-1)).astype(np.float32)
""",
    },
    {
        "id": "divides-by-scale",
        "function": "mx_dequantize",
        "name": "divides by the scale instead of multiplying",
        "explanation": "Your function divides each element by its block's scale. Quantizing divided the values by the scale, so decoding has to undo that with the opposite operation; dividing again moves every block further from its original size.",
        "section": "Exercise 2: `mx_dequantize` (3 points)",
        "why": "divides by the scale instead of multiplying",
        "source": """
def mx_dequantize(elements, scales, block=32):
    s = np.repeat(np.asarray(scales).astype(np.float32), block, axis=-1)
    return (np.asarray(elements).astype(np.float32) / s).astype(np.float32)
""",
    },
    {
        "id": "nan-code-becomes-inf",
        "function": "mx_dequantize",
        "name": "the NaN scale code decoded as infinity",
        "explanation": "Your function computes each scale from its bits as a power of two, which turns the code 255 into 2^128, an infinity. In e8m0 that code is NaN, and a NaN scale makes its whole block NaN when decoded; an infinite scale gives infinities instead (and NaN only for zero elements).",
        "section": "2. The grids: a 4-bit float has 15 values, a scale has 255",
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
        "id": "returns-bfloat16",
        "function": "mx_dequantize",
        "name": "returns bfloat16 instead of float32",
        "explanation": "Your function returns the decoded values as bfloat16. Most decoded MX values are exactly bfloat16, but not all (an e4m3 subnormal times a tiny scale is not), and the contract fixes the output as float32 so that decoding is exact and has the expected type.",
        "section": "Exercise 2: `mx_dequantize` (3 points)",
        "why": "returns bfloat16 (the MXU's input type) instead of float32",
        "source": """
def mx_dequantize(elements, scales, block=32):
    s = np.repeat(np.asarray(scales).astype(np.float32), block, axis=-1)
    return (np.asarray(elements).astype(np.float32) * s).astype(ml_dtypes.bfloat16)
""",
    },
    # ------------------------------------------------------------- mx_matmul
    {
        "id": "w-blocks-along-n",
        "function": "mx_matmul",
        "name": "weights quantized in blocks along N instead of along K",
        "explanation": "Your function quantizes w as it is laid out, in blocks along its last axis, which is N, the output dimension. An MX matmul scales both operands in blocks along the contraction dimension K, so that each block of a row of x meets a block of a column of w scaled over the same K values.",
        "section": "Exercise 3: `mx_matmul` (3 points)",
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
        "id": "x-not-quantized",
        "function": "mx_matmul",
        "name": "only the weights quantized: x stays float32",
        "explanation": "Your function quantizes only w and multiplies it by the float32 x. In an MX matmul both operands are in the block format, each in blocks along K; leaving x in float32 measures a weight-only scheme, not the MX product.",
        "section": "Exercise 3: `mx_matmul` (3 points)",
        "why": "only the weights quantized (x stays float32)",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qw, sw = mx_quantize(np.asarray(w, np.float32).T, elem=elem, block=block)
    wd = np.asarray(mx_dequantize(qw, sw, block=block), np.float64).T
    return (np.asarray(x, np.float64) @ wd).astype(np.float32)
""",
    },
    {
        "id": "bf16-accumulation",
        "function": "mx_matmul",
        "name": "bfloat16 result instead of float32 accumulation and output",
        "explanation": "Your function asks the dot for a bfloat16 result, so the output (and, on some hardware, the running sum) is rounded to 8 significant bits. The decoded operands and their products are exact, and the accumulation and the result have to be float32 (or wider) to keep the product close to exact.",
        "section": "Exercise 3: `mx_matmul` (3 points)",
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
        "id": "ignores-elem-and-block",
        "function": "mx_matmul",
        "name": "ignores elem and block: always MXFP8 e4m3 in blocks of 32",
        "explanation": "Your function quantizes with the default format and block size whatever the caller passes, so asking for MXFP4 or another block size returns the MXFP8, block-32 result. Both arguments have to reach the quantization of both operands.",
        "section": "Exercise 3: `mx_matmul` (3 points)",
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
        "id": "blocks-along-n",
        "function": "granularity_sweep",
        "name": "MX blocks run along a row of w (N) instead of down each column (K)",
        "explanation": "Your function quantizes w row by row, in blocks along N, the output dimension (with blocks capped at N's 32). The experiment puts the blocks along K for each output column, the contraction dimension; across a row, the skewed column 0 shares a block with ordinary columns and sets their step.",
        "section": "Exercise 4: `granularity_sweep` (3 points)",
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
        "id": "activations-quantized",
        "function": "granularity_sweep",
        "name": "activations quantized too: not a weight-only experiment",
        "explanation": "Your function runs the full MX matmul, quantizing x as well as w, so the MX errors include the activations' rounding while the int8 errors do not. The experiment quantizes the weights only, as lesson 03 did, so that the four schemes are compared on the same footing.",
        "section": "Exercise 4: `granularity_sweep` (3 points)",
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
        "id": "default-precision-dots",
        "function": "granularity_sweep",
        "name": "reference and products at default precision (one bf16 pass on a TPU)",
        "explanation": "Your function computes the reference and the quantized products with float32 dots at default precision, which on a TPU is a single bf16 pass. The reference is then not exact, and rounding x to bf16 adds an error of its own to the one you want to measure; the reference must be exact on every backend.",
        "section": "Exercise 4: `granularity_sweep` (3 points)",
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
        "id": "tensor-scale-ignores-448",
        "function": "nvfp4_quantize",
        "name": "tensor scale leaves out e4m3's 448: block scales squeezed below 1",
        "explanation": "Your tensor scale divides the maximum by 6 only, so the largest block scale is 1 instead of e4m3's maximum 448. All block scales are crowded into [0, 1], and blocks much smaller than the maximum fall into e4m3's subnormals or to zero; the tensor scale is chosen so that the block scales use e4m3's whole range.",
        "section": "7. NVFP4: two-level scaling",
        "why": "tensor scale max / 6 (forgets e4m3's 448): block scales squeezed into [0, 1], the small ones into e4m3's subnormals",
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
        "id": "unrounded-block-scale",
        "function": "nvfp4_quantize",
        "name": "elements divided by the unrounded block scale, not the stored one",
        "explanation": "Your function computes the elements with the float32 block scale and only afterwards rounds the scale to e4m3. Decoding multiplies by the stored, rounded scale, so the decoded values carry that rounding and some elements get another code than the reference's; the elements must be computed with the scale exactly as it is stored.",
        "section": "7. NVFP4: two-level scaling",
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
        "id": "blocks-of-32",
        "function": "nvfp4_quantize",
        "name": "blocks of 32 (MXFP4's size) instead of 16",
        "explanation": "Your function computes each block scale over 32 values and repeats it for both halves, so the scales have the right shape but each covers two NVFP4 blocks. NVFP4 uses blocks of 16, half MXFP4's size, one of the ways it follows the data more closely.",
        "section": "7. NVFP4: two-level scaling",
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
        "id": "no-zero-scale-guard",
        "function": "nvfp4_quantize",
        "name": "no guard for a block scale that rounds to 0",
        "explanation": "Your function divides by the block scale even when it is 0 (an all-zero block, or one far smaller than the tensor's maximum). The nonzero values of such a block become infinite and saturate to plus or minus 6, and its zeros become 0/0, an undefined value that e2m1 cannot hold; the recipe gives such a block zero elements.",
        "section": "7. NVFP4: two-level scaling",
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
        "id": "power-of-two-block-scales",
        "function": "nvfp4_quantize",
        "name": "MX-style power-of-two block scales instead of e4m3 values",
        "explanation": "Your function rounds each block scale down to a power of two before storing it as e4m3, as MX does. NVFP4's e4m3 scale keeps 3 mantissa bits so that each block's maximum lands close to e2m1's 6; rounded down to a power of two, the scale puts the maximum anywhere from 6 to 12, and everything past 6 is clipped.",
        "section": "7. NVFP4: two-level scaling",
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
        "id": "no-tensor-scale",
        "function": "nvfp4_dequantize",
        "name": "forgets the tensor scale",
        "explanation": "Your function multiplies each element by its block scale only. NVFP4 scales in two levels and the block scales are relative to the fp32 tensor scale, so without it every value is off by the same large factor.",
        "section": "7. NVFP4: two-level scaling",
        "why": "forgets the tensor scale",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    s = np.repeat(np.asarray(block_scales).astype(np.float32), 16, axis=-1)
    return (np.asarray(elements).astype(np.float32) * s).astype(np.float32)
""",
    },
    {
        "id": "divides-by-tensor-scale",
        "function": "nvfp4_dequantize",
        "name": "divides by the tensor scale instead of multiplying",
        "explanation": "Your function divides by the tensor scale. Quantizing divided the values by the block scale times the tensor scale, so decoding multiplies by both; dividing by the tensor scale leaves every value off by its square.",
        "section": "7. NVFP4: two-level scaling",
        "why": "divides by the tensor scale (the encode scale's habit)",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    s = np.repeat(np.asarray(block_scales).astype(np.float32), 16, axis=-1)
    return (np.asarray(elements).astype(np.float32) * s / np.float32(tensor_scale)).astype(np.float32)
""",
    },
    {
        "id": "tile-not-repeat",
        "function": "nvfp4_dequantize",
        "name": "block scales cycled over the elements instead of repeated per block",
        "explanation": "Your function lays the block scales out by repeating the whole list of scales, so element k gets the scale of block k modulo the number of blocks instead of its own block's. Each block scale covers 16 consecutive elements along the last axis.",
        "section": "Exercise 6: `nvfp4_dequantize` (2 points)",
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
        "id": "overwrites-input",
        "function": "mx_quantize",
        "name": "overwrites the caller's x, then returns the answer for zeros",
        "explanation": "Your function writes zeros into the x array it was given and returns zero elements with scale 1.0, the answer for an all-zero input. A function must never modify its caller's inputs, and the exercise is to quantize the values actually passed.",
        "section": "Exercise 1: `mx_quantize` (4 points)",
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
        "id": "overwrites-input",
        "function": "mx_dequantize",
        "name": "overwrites the caller's elements, then decodes zeros",
        "explanation": "Your function writes zeros into the elements array it was given and then decodes those zeros. A function must never modify its caller's inputs; here it also destroys the data it was meant to decode, so every block with a finite scale comes out zero.",
        "section": "Exercise 2: `mx_dequantize` (3 points)",
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
        "id": "overwrites-input",
        "function": "mx_matmul",
        "name": "overwrites the caller's x, then returns zeros",
        "explanation": "Your function writes zeros into the x array it was given and returns an all-zero product. A function must never modify its caller's inputs, and the exercise asks for the product of the quantized operands.",
        "section": "Exercise 3: `mx_matmul` (3 points)",
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
        "id": "overwrites-input",
        "function": "nvfp4_dequantize",
        "name": "overwrites the caller's elements, then returns zeros",
        "explanation": "Your function writes zeros into the elements array it was given and returns zeros. A function must never modify its caller's inputs; here it also destroys the data it was meant to decode.",
        "section": "Exercise 6: `nvfp4_dequantize` (2 points)",
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
        "id": "jax-scales-flushed",
        "function": "mx_dequantize",
        "name": "scales multiplied as JAX float32: 2^-127 flushes to zero",
        "explanation": "Your function converts the scales to float32 and multiplies in JAX. The smallest scale, 2^-127, is a subnormal float32 and XLA on CPU flushes subnormals to zero, so a block with that scale decodes to zeros although its products (448 times 2^-127, say) are normal float32 numbers.",
        "section": "3. The shared exponent, and three traps on the way",
        "why": "jnp float32 scales multiplied (once an alternative): XLA flushes the subnormal scale 2^-127 to 0",
        "source": """
def mx_dequantize(elements, scales, block=32):
    return jnp.asarray(elements).astype(jnp.float32) * jnp.repeat(jnp.asarray(scales).astype(jnp.float32), block, axis=-1)
""",
    },
    {
        "id": "jax-power-scale-flushed",
        "function": "mx_dequantize",
        "name": "scale rebuilt as a JAX float32 power of two: 2^-127 flushes to zero",
        "explanation": "Your function rebuilds each scale from its bits as a float32 power of two in JAX. The smallest scale, 2^-127, is a subnormal float32 that XLA on CPU flushes to zero, so a block with that scale decodes to zeros although its true values are normal float32 numbers.",
        "section": "3. The shared exponent, and three traps on the way",
        "why": "scale built as a JAX float32 power 2.0 ** (bits - 127): 2^-127 flushed to 0 in the product",
        "source": """
def mx_dequantize(elements, scales, block=32):
    bits = jax.lax.bitcast_convert_type(jnp.asarray(scales), jnp.uint8).astype(jnp.float32)
    s = jnp.where(bits == 255, jnp.nan, jnp.float32(2.0) ** (bits - 127.0))
    return jnp.asarray(elements).astype(jnp.float32) * jnp.repeat(s, block, axis=-1)
""",
    },
    # ------------------------------------------ rounding by a cast inside jit (a TPU drops it)
    {
        "id": "cast-round-trip-in-jit",
        "function": "nvfp4_quantize",
        "name": "rounding by a cast round trip inside jit",
        "explanation": "Your function rounds the block scales to e4m3 with a cast round trip inside a jitted function and divides the elements by the result. A CPU keeps that rounding, but inside jit a TPU's compiler may drop it: the elements are then divided by the unrounded scale while the stored scale is rounded, so every decoded element is off by the scale's rounding. Round the scales where the rounding is kept (NumPy or eager operations) and compute the elements with the stored scale.",
        "section": "Exercise 5: `nvfp4_quantize` (4 points)",
        "why": "s.astype(float8_e4m3fn).astype(f32) inside jax.jit: on a v5e (JAX 0.10.2) it returned s unrounded, 768 of 16384 elements differed (the unrounded-block-scale mistake); plain CPU rounds, the TPU emulation drops it as the chip does",
        "only_under": "tpu",
        "visible_fails": True,
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // 16, 16)
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)

    @jax.jit
    def stored_scale(ratio):
        return ratio.astype(jnp.float8_e4m3fn).astype(jnp.float32)

    sf = np.asarray(stored_scale((np.max(np.abs(xb), axis=-1) / np.float32(6)) / t))
    s = sf.astype(ml_dtypes.float8_e4m3fn)
    st = sf[..., None] * t
    q = np.where(st > 0, xb / np.where(st > 0, st, np.float32(1)), np.float32(0))
    return np.clip(q, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape), s, np.asarray(t, np.float32)
""",
    },
    # ------------------------------------------------------------ mx_quantize
    {
        "id": "exponent-of-max-over-fmax",
        "function": "mx_quantize",
        "name": "shared exponent from max over the element format's largest value",
        "explanation": "Your shared exponent is the exponent of the block's largest magnitude divided by the element format's largest value (448 for e4m3, 6 for e2m1). That is not the OCP rule, which takes the exponent of the largest magnitude itself and subtracts the format's largest exponent: the two agree only when the block maximum's significand is at least the format maximum's (1.75 for e4m3, 1.5 for e2m1), and otherwise your scale is half as large as it should be, so the block maximum saturates. Revisit the shared-exponent rule and its traps.",
        "section": "3. The shared exponent, and three traps on the way",
        "why": "shared = floor(log2(amax / fmax)) (frexp of amax / fmax) instead of floor(log2 amax) - emax: one lower whenever amax's significand is below fmax's",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    _, e = np.frexp(np.where(finite & (amax > 0), amax / fmax, np.float32(1)))
    shared = np.where(amax > 0, np.clip(e.astype(np.int64) - 1, -127, 127), 0)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    q = np.clip(np.ldexp(xb, (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "e8m0-code-wraps",
        "function": "mx_quantize",
        "name": "shared exponent not clamped: the e8m0 code wraps around",
        "explanation": "Your shared exponent is not clamped to e8m0's range before you build the scale's 8-bit code, so for a block of very small values the exponent plus the bias 127 is negative and the code wraps around to a huge scale (an exponent of -130 becomes the code 253, a scale of 2 to the 126th). The elements were scaled with the unclamped exponent, so the block no longer decodes to its values. Revisit the clamping step of the shared-exponent rule.",
        "section": "3. The shared exponent, and three traps on the way",
        "why": "no clip of shared to [-127, 127]: (shared + 127).astype(uint8) wraps for tiny blocks (shared < -127); elements scaled by the unclamped exponent",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // block, block)
    amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    _, e = np.frexp(np.where(finite & (amax > 0), amax, np.float32(1)))
    shared = np.where(amax > 0, e.astype(np.int64) - 1 - emax, 0)
    scales = np.where(finite, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb.astype(np.float64), (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, 0.0)
    return q.astype(np.float32).astype(dt).reshape(x.shape), scales
""",
    },
    # ------------------------------------------------------ granularity_sweep
    {
        "id": "mxfp8-e5m2",
        "function": "granularity_sweep",
        "name": "MXFP8 with e5m2 elements instead of e4m3",
        "explanation": "Your mxfp8 entries quantize the weights with e5m2 elements. e5m2 trades a mantissa bit for range, which a block scale already provides, so its errors come out larger than those of e4m3, the element format the experiment's MXFP8 uses. Revisit the two fp8 element formats and which one the exercise asks for.",
        "section": "Exercise 4: `granularity_sweep` (3 points)",
        "why": "elem='float8_e5m2' for the mxfp8 column (contract: MX e4m3)",
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
        for key, elem in (("mxfp8", "float8_e5m2"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(w.T, elem=elem, block=b)
            out[key].append(err(np.asarray(mx_dequantize(q, s, block=b)).T))
    return out
""",
    },
    # --------------------------------------------------------- nvfp4_quantize
    {
        "id": "divides-by-unrounded-scale",
        "function": "nvfp4_quantize",
        "name": "elements divided by the unrounded block scale, not the stored one",
        "explanation": "Your elements are divided by the block scale before it is rounded to float8_e4m3fn, but the decoder multiplies them by the stored, rounded scale. Whenever rounding moved the scale, every element of the block decodes off by the same factor. Quantize the elements with exactly the scale you store.",
        "section": "7. NVFP4: two-level scaling",
        "why": "x / (s_unrounded * t), zeros where the stored s is 0; t returned as a NumPy float32 scalar (unrounded-block-scale returns a 0-d array and has no zero guard)",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // 16, 16))
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    s = (np.max(np.abs(xb), axis=-1) / np.float32(6)) / t
    s_stored = s.astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    keep = s_stored.astype(np.float32)[..., None] > 0
    q = np.where(keep, xb / np.where(keep, s[..., None] * t, np.float32(1)), np.float32(0))
    elements = np.clip(q, -6, 6).astype(np.float32).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return elements, s_stored, t
""",
    },
    {
        "id": "tensor-scale-max-over-6",
        "function": "nvfp4_quantize",
        "name": "tensor scale leaves out e4m3's 448: block scales squeezed below 1",
        "explanation": "Your tensor scale divides the largest magnitude by 6 only. The tensor scale is there to map the largest block scale onto e4m3's largest value, 448, so that the block scales use e4m3's whole range; without the 448 every block scale is at most 1, so e4m3's range above 1 goes unused and blocks much smaller than the largest one get scales among e4m3's subnormals (below 2^-6), with fewer significant bits, or 0. Revisit the two levels of NVFP4 scaling and what each one maps.",
        "section": "7. NVFP4: two-level scaling",
        "why": "t = max|x| / 6 instead of max|x| / (448 * 6); t returned as a NumPy float32 scalar (tensor-scale-ignores-448 returns a 0-d array)",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // 16, 16))
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(6)) if amax > 0 else np.float32(1.0)
    s = ((np.max(np.abs(xb), axis=-1) / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    st = s.astype(np.float32)[..., None] * t
    q = np.where(st > 0, xb / np.where(st > 0, st, np.float32(1)), np.float32(0))
    elements = np.clip(q, -6, 6).astype(np.float32).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return elements, s, t
""",
    },
    {
        "id": "block-scale-ieee-e4m3",
        "function": "nvfp4_quantize",
        "name": "block scales rounded as IEEE-style e4m3 (max 240), not e4m3fn",
        "explanation": "Your block scales are rounded with reduce_precision to 4 exponent and 3 mantissa bits, which follows IEEE conventions: the top exponent is kept for inf and NaN, so the largest finite value is 240 and scales from 248 up (the tensor scale maps the largest one onto 448) overflow to inf, which float8_e4m3fn cannot hold and turns into NaN. float8_e4m3fn has no inf and reaches 448. Round the block scales to float8_e4m3fn itself, and revisit the two e4m3 variants from lesson 01.",
        "section": "7. NVFP4: two-level scaling",
        "why": "block scale via jax.lax.reduce_precision(s, 4, 3) (IEEE e4m3: max 240, overflow to inf) then cast to e4m3fn: scales above 240 become NaN",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // 16, 16))
    amax = np.float32(np.max(np.abs(x)))
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    s = (np.max(np.abs(xb), axis=-1) / np.float32(6)) / t
    s = np.asarray(jax.lax.reduce_precision(jnp.asarray(s, jnp.float32), exponent_bits=4, mantissa_bits=3))
    s = s.astype(ml_dtypes.float8_e4m3fn)
    st = s.astype(np.float32)[..., None] * t
    with np.errstate(invalid="ignore"):
        q = np.where(st > 0, xb / np.where(st > 0, st, np.float32(1)), np.float32(0))
    elements = np.clip(q, -6, 6).astype(np.float32).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return elements, s, t
""",
    },
    # ------------------------------------------------------- nvfp4_dequantize
    {
        "id": "bf16-arithmetic",
        "function": "nvfp4_dequantize",
        "name": "decodes in bfloat16 arithmetic, then converts to float32",
        "explanation": "Your function multiplies element, block scale and tensor scale in bfloat16 and converts to float32 only at the end. The tensor scale is a float32 number that bfloat16 rounds, and each product is rounded to bfloat16's 8 significant bits, so the decoded values differ from element times block scale times tensor scale. Revisit the decoding rule: compute it in float32.",
        "section": "Exercise 6: `nvfp4_dequantize` (2 points)",
        "why": "e, s, t cast to bfloat16 and multiplied there (each product rounded), then cast to float32",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = jnp.asarray(np.asarray(elements).astype(np.float32)).astype(jnp.bfloat16)
    s = jnp.asarray(np.asarray(block_scales).astype(np.float32)).astype(jnp.bfloat16)
    t = jnp.asarray(tensor_scale, jnp.float32).astype(jnp.bfloat16)
    return np.asarray((e * jnp.repeat(s, 16, axis=-1) * t).astype(jnp.float32))
""",
    },
    {
        "id": "emax-fixed-8",
        "function": "mx_quantize",
        "name": "shared exponent always subtracts e4m3's emax, whatever the format",
        "explanation": "Your shared exponent always subtracts 8, the largest exponent of e4m3, whatever element format is asked for. For e5m2 (emax 15) the scales come out far too large and the elements use only the bottom of their range; for e2m1 (emax 2) they are far too small and every large element saturates at 6. The subtracted emax is the element format's own.",
        "section": "3. The shared exponent, and three traps on the way",
        "why": "emax = 8 for every elem",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    K = x.shape[-1]
    xb = x.reshape(*x.shape[:-1], K // block, block)
    amax = np.abs(xb).max(axis=-1)
    finite = np.isfinite(amax)
    emax = 8
    safe = np.where(finite & (amax > 0), amax, np.float32(1))
    e = np.floor(np.log2(safe.astype(np.float64))).astype(np.int64) - emax
    shared = np.where(amax > 0, np.clip(e, -127, 127), 0)
    codes = np.where(finite, shared + 127, 255).astype(np.uint8)
    scales = codes.view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb, (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "exponent-truncated-toward-zero",
        "function": "mx_quantize",
        "name": "log2 of the block max truncated toward zero instead of floored",
        "explanation": "Your exponent converts the logarithm of the block's largest magnitude to an integer by truncation, which rounds toward zero. Below 1 the logarithm is negative, so unless the maximum is a power of two the exponent comes out one too large: the scale is twice too large and the elements use only half of the format's range. The shared exponent is the floor, rounded toward minus infinity.",
        "section": "3. The shared exponent, and three traps on the way",
        "why": "np.log2(amax).astype(int): truncation, wrong for amax < 1",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    K = x.shape[-1]
    xb = x.reshape(*x.shape[:-1], K // block, block)
    amax = np.abs(xb).max(axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    safe = np.where(finite & (amax > 0), amax, np.float32(1))
    e = np.log2(safe.astype(np.float64)).astype(np.int64) - emax
    shared = np.where(amax > 0, np.clip(e, -127, 127), 0)
    codes = np.where(finite, shared + 127, 255).astype(np.uint8)
    scales = codes.view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb, (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "scales-float32",
        "function": "mx_quantize",
        "name": "scales returned as float32 values instead of float8_e8m0fnu",
        "explanation": "Your scales have the right values but are returned as float32, four bytes a block, where an MX format stores each scale as a one-byte float8_e8m0fnu power of two. The dtype is part of the contract: the storage it counts and the decoders that read the codes depend on it. Cast or view the scales as the e8m0 type.",
        "section": "2. The grids: a 4-bit float has 15 values, a scale has 255",
        "why": "scales = 2.0**shared as float32",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    K = x.shape[-1]
    xb = x.reshape(*x.shape[:-1], K // block, block)
    amax = np.abs(xb).max(axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    safe = np.where(finite & (amax > 0), amax, np.float32(1))
    e = np.floor(np.log2(safe.astype(np.float64))).astype(np.int64) - emax
    shared = np.where(amax > 0, np.clip(e, -127, 127), 0)
    codes = np.where(finite, shared + 127, 255).astype(np.uint8)
    scales = np.where(finite, np.ldexp(np.float32(1), shared.astype(np.int32)), np.float32(np.nan)).astype(np.float32)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.ldexp(xb, (-shared[..., None]).astype(np.int32)), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "elements-rounded-to-integers",
        "function": "mx_quantize",
        "name": "scaled values rounded to integers before the cast to the format",
        "explanation": "Your elements round each scaled value to an integer before converting it to the element format, as for int8. A float8 or float4 element holds fractions (e4m3 has steps of an eighth between 1 and 2, and finer ones below), so the integer rounding throws away the small values' precision and sends values below one half to zero. Convert the scaled values directly: the cast rounds to the nearest element value.",
        "section": "Exercise 1: `mx_quantize` (4 points)",
        "why": "np.round(x / scale) before .astype(elem)",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    K = x.shape[-1]
    xb = x.reshape(*x.shape[:-1], K // block, block)
    amax = np.abs(xb).max(axis=-1)
    finite = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    safe = np.where(finite & (amax > 0), amax, np.float32(1))
    e = np.floor(np.log2(safe.astype(np.float64))).astype(np.int64) - emax
    shared = np.where(amax > 0, np.clip(e, -127, 127), 0)
    codes = np.where(finite, shared + 127, 255).astype(np.uint8)
    scales = codes.view(ml_dtypes.float8_e8m0fnu)
    fmax = np.float32(ml_dtypes.finfo(dt).max)
    q = np.clip(np.round(np.ldexp(xb, (-shared[..., None]).astype(np.int32))), -fmax, fmax)
    q = np.where(finite[..., None], q, np.float32(0))
    return q.astype(dt).reshape(x.shape), scales
""",
    },
    {
        "id": "float64-result",
        "function": "mx_dequantize",
        "name": "returns float64 instead of float32",
        "explanation": "Your decoded values are float64: the elements and scales were converted to float64 before the multiply. The contract returns float32, which holds every product of an element and a scale exactly. Convert to float32, not to float64.",
        "section": "Exercise 2: `mx_dequantize` (3 points)",
        "why": "astype(np.float64) for elements and scales",
        "source": """
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float64)
    s = np.repeat(np.asarray(scales).astype(np.float64), block, axis=-1)
    return e * s
""",
    },
    {
        "id": "dequantize-default-block",
        "function": "mx_matmul",
        "name": "decodes with the default block size, not the block it quantized with",
        "explanation": "Your function quantizes both operands with the block size it was given but decodes them without passing it on, so the decoder repeats each scale over its default of 32 elements. With any other block size the decoded shape no longer matches the elements and the call fails. Pass the same block to every step.",
        "section": "Exercise 3: `mx_matmul` (3 points)",
        "why": "mx_dequantize(q, s) without block=block",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    x = np.asarray(x, np.float32); w = np.asarray(w, np.float32)
    qx, sx = mx_quantize(x, elem=elem, block=block)
    qw, sw = mx_quantize(w.T, elem=elem, block=block)
    xd = np.asarray(mx_dequantize(qx, sx), np.float64)
    wd = np.asarray(mx_dequantize(qw, sw), np.float64).T
    return (xd @ wd).astype(np.float32)
""",
    },
    {
        "id": "float64-result",
        "function": "mx_matmul",
        "name": "returns the float64 product instead of float32",
        "explanation": "Your function multiplies the decoded operands in float64, which is fine, but returns that float64 product as it is. The contract returns float32 of shape (M, N). Convert the result to float32 at the end.",
        "section": "Exercise 3: `mx_matmul` (3 points)",
        "why": "xd @ wd (float64) not cast to float32",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    x = np.asarray(x, np.float32); w = np.asarray(w, np.float32)
    qx, sx = mx_quantize(x, elem=elem, block=block)
    qw, sw = mx_quantize(w.T, elem=elem, block=block)
    xd = np.asarray(mx_dequantize(qx, sx, block=block), np.float64)
    wd = np.asarray(mx_dequantize(qw, sw, block=block), np.float64).T
    return xd @ wd
""",
    },
    {
        "id": "per-channel-per-row",
        "function": "granularity_sweep",
        "name": "per-channel baseline with one scale per row of w instead of per column",
        "explanation": "Your per_channel baseline takes one int8 scale per row of w (per input) instead of one per output column. The outlier is a column, so each row's scale is set by its entry in that column and every ordinary column is quantized with a step about ten times too coarse, as per tensor. Revisit which axis holds the output channels, as in lesson 03.",
        "section": "Exercise 4: `granularity_sweep` (3 points)",
        "why": "int8(axis=1) for per_channel",
        "source": """
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] *= np.float32(10.0)
    x = np.array(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    exact = x @ w.astype(np.float64)
    def error(w_hat):
        d = np.abs(x @ np.asarray(w_hat, np.float64) - exact)
        return float(np.mean(d))
    def int8(axis):
        m = np.max(np.abs(w), axis=axis, keepdims=True)
        s = np.where(m == 0, np.float32(1), m / np.float32(127)).astype(np.float32)
        return np.clip(np.round(w / s), -127, 127) * s
    pt, pc = error(int8(None)), error(int8(1))
    out = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        out["block"].append(int(b))
        out["per_tensor"].append(pt)
        out["per_channel"].append(pc)
        for key, elem in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(w.T, elem=elem, block=b)
            out[key].append(error(np.asarray(mx_dequantize(q, s, block=b)).T))
    return out
""",
    },
    {
        "id": "max-not-mean",
        "function": "granularity_sweep",
        "name": "max abs error recorded instead of mean",
        "explanation": "Your errors are the largest absolute difference over all outputs, not the mean absolute difference. One worst output says little about a scheme's typical error, and the exercise compares the schemes by their mean error. Use the mean of the absolute errors.",
        "section": "Exercise 4: `granularity_sweep` (3 points)",
        "why": "np.max(|x @ w_hat - exact|)",
        "source": """
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] *= np.float32(10.0)
    x = np.array(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    exact = x @ w.astype(np.float64)
    def error(w_hat):
        d = np.abs(x @ np.asarray(w_hat, np.float64) - exact)
        return float(np.max(d))
    def int8(axis):
        m = np.max(np.abs(w), axis=axis, keepdims=True)
        s = np.where(m == 0, np.float32(1), m / np.float32(127)).astype(np.float32)
        return np.clip(np.round(w / s), -127, 127) * s
    pt, pc = error(int8(None)), error(int8(0))
    out = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        out["block"].append(int(b))
        out["per_tensor"].append(pt)
        out["per_channel"].append(pc)
        for key, elem in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(w.T, elem=elem, block=b)
            out[key].append(error(np.asarray(mx_dequantize(q, s, block=b)).T))
    return out
""",
    },
    {
        "id": "int8-not-repeated",
        "function": "granularity_sweep",
        "name": "int8 baselines as single numbers, not repeated for every block size",
        "explanation": "Your per_tensor and per_channel entries are single numbers, not lists. The contract returns every key as a list with one entry per block size, the int8 errors repeated, so that the columns line up and plot against the block sizes. Repeat each int8 error once for every block.",
        "section": "Exercise 4: `granularity_sweep` (3 points)",
        "why": "per_tensor/per_channel as floats",
        "source": """
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] *= np.float32(10.0)
    x = np.array(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    exact = x @ w.astype(np.float64)
    def error(w_hat):
        d = np.abs(x @ np.asarray(w_hat, np.float64) - exact)
        return float(np.mean(d))
    def int8(axis):
        m = np.max(np.abs(w), axis=axis, keepdims=True)
        s = np.where(m == 0, np.float32(1), m / np.float32(127)).astype(np.float32)
        return np.clip(np.round(w / s), -127, 127) * s
    pt, pc = error(int8(None)), error(int8(0))
    out = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        out["block"].append(int(b))
        out["per_tensor"].append(pt)
        out["per_channel"].append(pc)
        for key, elem in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(w.T, elem=elem, block=b)
            out[key].append(error(np.asarray(mx_dequantize(q, s, block=b)).T))
    out["per_tensor"], out["per_channel"] = pt, pc
    return out
""",
    },
    {
        "id": "elements-divided-by-s-only",
        "function": "nvfp4_quantize",
        "name": "elements divided by the block scale alone, without the tensor scale",
        "explanation": "Your elements divide each block by its e4m3 block scale but not by the tensor scale. The block scale is measured in units of the tensor scale, so the quotient is far smaller than intended and nearly every element rounds to zero. Each element is divided by the product of its block scale and the tensor scale.",
        "section": "7. NVFP4: two-level scaling",
        "why": "x / s instead of x / (s * t)",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    xb = x.reshape(*x.shape[:-1], x.shape[-1] // 16, 16)
    amax = np.float32(np.abs(x).max())
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    s = ((np.abs(xb).max(axis=-1) / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    sf = s.astype(np.float32)[..., None]
    q = np.where(sf > 0, xb / np.where(sf > 0, sf, np.float32(1)), np.float32(0))
    q = np.clip(q, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return q, s, np.asarray(t, np.float32)
""",
    },
    {
        "id": "divides-by-block-scale",
        "function": "nvfp4_dequantize",
        "name": "divides by the block scale instead of multiplying",
        "explanation": "Your function divides the elements by their block scales instead of multiplying by them. Quantizing divided by the scales; decoding undoes that by multiplying by the block scale and by the tensor scale. Revisit the decoding rule of the exercise.",
        "section": "Exercise 6: `nvfp4_dequantize` (2 points)",
        "why": "e / s * t",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = np.asarray(elements).astype(np.float32)
    s = np.repeat(np.asarray(block_scales).astype(np.float32), 16, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (e / s * np.float32(tensor_scale)).astype(np.float32)
""",
    },
]
