"""Known wrong answers to 03_int8_quantization's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

# Numbers compared by value, whatever type carries them (autograder/common/mistakes.py): the reason.
NUMBERS_BY_VALUE = {
    "granularity_errors": "two mean errors: their values are the data",
}

MISTAKES = [
    # -------------------------------------------------- quantize_per_channel
    {
        "id": "per-row-scale",
        "function": "quantize_per_channel",
        "name": "one scale per row instead of per output column",
        "explanation": "Your function computes one scale per row of w (per input) instead of one per output column. Each output channel needs its own step, set by that channel's own largest magnitude, so that one large column does not coarsen the others. Revisit which axis holds the output channels of a (K, N) weight matrix.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "wrong axis: one scale per row (axis=1)",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(jnp.abs(w), axis=1, keepdims=True)
    scale = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "scale-128",
        "function": "quantize_per_channel",
        "name": "scale divides the max by 128, not 127",
        "explanation": "Your scale divides the largest magnitude by 128, so that weight maps to plus or minus 128: a positive maximum is clipped to 127 and a negative one takes the code -128, which breaks the symmetric grid. Symmetric int8 uses the 255 codes from -127 to 127, and the largest magnitude lands exactly on the last level. Revisit why the scale uses 127 and not 128.",
        "section": "1. Symmetric int8 in one picture",
        "why": "scale uses 128, not 127 (and clips to [-128, 127])",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(m == 0, 1.0, m / 128.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -128, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "no-clip-wraps",
        "function": "quantize_per_channel",
        "name": "scale by 128 and no clip: the maximum wraps to -128",
        "explanation": "Your scale divides the largest magnitude by 128 and the codes are never clipped, so a positive maximum becomes 128, which NumPy's cast to int8 wraps around to -128: its sign flips. Symmetric int8 lands the largest magnitude exactly on 127, and a quantizer clips explicitly rather than trusting the cast. Revisit the casting traps and why the scale uses 127.",
        "section": "3. Casting and rounding traps",
        "why": "NumPy, scale /128 and no clipping: the extreme wraps to -128",
        "source": """
def quantize_per_channel(w):
    w = np.asarray(w, np.float32)
    m = np.max(np.abs(w), axis=0, keepdims=True)
    scale = np.where(m == 0, 1.0, m / 128.0).astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        q = np.round(w / scale).astype(np.int8)
    return q, scale
""",
    },
    {
        "id": "truncates",
        "function": "quantize_per_channel",
        "name": "codes truncated toward zero instead of rounded",
        "explanation": "Your codes are truncated toward zero instead of rounded to the nearest integer: a float to int cast drops the fraction. Each code is then up to a whole step off instead of half a step, and always toward zero, a biased error. Revisit the casting and rounding traps.",
        "section": "3. Casting and rounding traps",
        "why": "truncation instead of rounding (astype without round)",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q = jnp.clip(w / scale, -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "no-zero-guard",
        "function": "quantize_per_channel",
        "name": "no guard for an all-zero column (scale 0)",
        "explanation": "For an all-zero column your scale is 0, so its quotients are 0/0, NaN, and the scale you return is 0. A pruned or dead channel needs the zero-channel guard, a harmless scale with codes 0, or the NaN reaches every output of that channel on any float path. Revisit the zero-channel guard.",
        "section": "2. Round trip, bytes saved, and the zero-channel guard",
        "why": "missing zero-channel guard (scale 0, 0/0)",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "max-not-abs",
        "function": "quantize_per_channel",
        "name": "scale from the largest value, not the largest magnitude",
        "explanation": "Your scale comes from each column's largest value rather than its largest magnitude, so a column whose extreme weight is negative gets too small a scale and its most negative weights are clipped (and a column with no positive weight falls back to the guard scale). Symmetric quantization covers both signs with one step. Revisit how the scale maps the largest magnitude onto the last level.",
        "section": "1. Symmetric int8 in one picture",
        "why": "max(w) instead of max(|w|): negative extremes ignored",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(w, axis=0, keepdims=True)
    scale = jnp.where(m <= 0, 1.0, m / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "scale-shape-n",
        "function": "quantize_per_channel",
        "name": "scale returned as a flat vector, not a (1, N) row",
        "explanation": "Your scale has shape (N,) instead of one row of shape (1, N). The values are right, but the contract fixes the shape, so that the scale broadcasts against the codes as a row wherever it is used. Revisit the exercise's contract for the scale.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "scale returned with shape (N,) (no keepdims)",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(jnp.abs(w), axis=0)
    scale = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    # --------------------------------------------------- quantize_per_tensor
    {
        "id": "scale-128",
        "function": "quantize_per_tensor",
        "name": "scale divides the max by 128, not 127",
        "explanation": "Your scale divides the largest magnitude by 128, so that weight maps to plus or minus 128: a positive maximum is clipped to 127 and a negative one takes the code -128, which breaks the symmetric grid. Symmetric int8 uses the 255 codes from -127 to 127, and the largest magnitude lands exactly on the last level. Revisit why the scale uses 127 and not 128.",
        "section": "1. Symmetric int8 in one picture",
        "why": "scale uses 128, not 127",
        "source": """
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(jnp.abs(w))
    scale = jnp.where(m == 0, 1.0, m / 128.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -128, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "scale-shape-1x1",
        "function": "quantize_per_tensor",
        "name": "scale kept as a (1, 1) array, not a 0-d scalar",
        "explanation": "Your per-tensor scale has shape (1, 1) instead of being a 0-d array of shape (). The value is right, but the contract fixes the shape. Revisit the exercise's contract for the scale.",
        "section": "Exercise 2: `quantize_per_tensor` (3 points)",
        "why": "scale kept as shape (1, 1) (keepdims)",
        "source": """
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(jnp.abs(w), keepdims=True)
    scale = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "no-zero-guard",
        "function": "quantize_per_tensor",
        "name": "no guard for an all-zero tensor (scale 0)",
        "explanation": "For an all-zero tensor your scale is 0, so every quotient is 0/0, NaN, and the scale you return is 0. An all-zero tensor needs the same guard as an all-zero channel: a harmless scale with codes 0. Revisit the zero-channel guard.",
        "section": "2. Round trip, bytes saved, and the zero-channel guard",
        "why": "missing zero guard: all-zero tensor gives scale 0",
        "source": """
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    scale = (jnp.max(jnp.abs(w)) / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "truncates",
        "function": "quantize_per_tensor",
        "name": "codes truncated toward zero instead of rounded",
        "explanation": "Your codes are truncated toward zero instead of rounded to the nearest integer: a float to int cast drops the fraction. Each code is then up to a whole step off instead of half a step, and always toward zero, a biased error. Revisit the casting and rounding traps.",
        "section": "3. Casting and rounding traps",
        "why": "truncation toward zero instead of rounding",
        "source": """
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    m = np.max(np.abs(w))
    scale = np.float32(1.0) if m == 0 else np.float32(m / np.float32(127))
    q = np.clip(np.trunc(w / scale), -127, 127).astype(np.int8)
    return q, np.asarray(scale, np.float32)
""",
    },
    {
        "id": "python-float-scale",
        "function": "quantize_per_tensor",
        "name": "scale returned as a Python float",
        "explanation": "Your function returns the scale as a Python float, computed in double precision, instead of a float32 array of shape (). The contract fixes the scale's type and shape: it is what gets stored beside the codes. Revisit the exercise's contract for the scale.",
        "section": "Exercise 2: `quantize_per_tensor` (3 points)",
        "why": "returns a Python float scale (float64, not float32 ())",
        "source": """
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    m = float(np.max(np.abs(w)))
    scale = 1.0 if m == 0 else m / 127.0
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    {
        "id": "max-not-abs",
        "function": "quantize_per_tensor",
        "name": "scale from the largest value, not the largest magnitude",
        "explanation": "Your scale comes from the tensor's largest value rather than its largest magnitude, so when the extreme weight is negative the scale is too small and the most negative weights are clipped (and a tensor with no positive weight falls back to the guard scale). Symmetric quantization covers both signs with one step. Revisit how the scale maps the largest magnitude onto the last level.",
        "section": "1. Symmetric int8 in one picture",
        "why": "max(w) instead of max(|w|)",
        "source": """
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(w)
    scale = jnp.where(m <= 0, 1.0, m / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    # ------------------------------------------------------------ dequantize
    {
        "id": "divides-by-scale",
        "function": "dequantize",
        "name": "divides the codes by the scale instead of multiplying",
        "explanation": "Your function divides the codes by the scale. The scale is the size of one integer step, so reconstructing a weight scales its code up by the step, not down. Revisit the symmetric int8 picture and what the scale stands for.",
        "section": "1. Symmetric int8 in one picture",
        "why": "divides by the scale instead of multiplying",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.float32) / jnp.asarray(scale, jnp.float32)
""",
    },
    {
        "id": "float64-result",
        "function": "dequantize",
        "name": "returns float64, not float32",
        "explanation": "Your function computes and returns float64, NumPy's default float, instead of float32. Dequantized weights of twice the size undo part of what quantization saved, and the contract fixes float32. Revisit the exercise's warning about the result's dtype.",
        "section": "Exercise 3: `dequantize` (3 points)",
        "why": "returns float64 (NumPy default float)",
        "source": """
def dequantize(q, scale):
    return np.asarray(q).astype(np.float64) * np.asarray(scale, np.float64)
""",
    },
    {
        "id": "casts-to-int8",
        "function": "dequantize",
        "name": "casts the dequantized values back to int8",
        "explanation": "Your function multiplies correctly but then casts the result back to the codes' integer type, so the reconstructed weights lose their fractional part. Dequantized weights are real numbers, float32 by the contract. Revisit the exercise's note on the result's dtype.",
        "section": "Exercise 3: `dequantize` (3 points)",
        "why": "casts back to the codes' dtype (int8)",
        "source": """
def dequantize(q, scale):
    return (jnp.asarray(q) * jnp.asarray(scale)).astype(jnp.asarray(q).dtype)
""",
    },
    {
        "id": "bfloat16-result",
        "function": "dequantize",
        "name": "computes and returns bfloat16, not float32",
        "explanation": "Your function computes and returns bfloat16 instead of float32, so the scale and every product are rounded to 8 significant bits. The codes fit bfloat16 exactly but the reconstructed weights do not, and the contract asks for float32. Revisit the exercise's note on the result's dtype.",
        "section": "Exercise 3: `dequantize` (3 points)",
        "why": "computes in bfloat16 to save memory",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.bfloat16) * jnp.asarray(scale).astype(jnp.bfloat16)
""",
    },
    {
        "id": "float16-product",
        "function": "dequantize",
        "name": "multiplies in float16, then returns float32",
        "explanation": "Your function multiplies the codes and the scale in float16 and only then converts to float32. float16 keeps 11 significant bits, so the scale and every product are rounded by up to 1 part in 2,000, and the conversion to float32 cannot bring those bits back. Multiply in float32: the contract's float32 is the type of the arithmetic, not only of the result.",
        "section": "Exercise 3: `dequantize` (3 points)",
        "why": "an independent writer's answer (issue 64): multiplies in float16 to save memory; the visible check's products were exact in float16",
        "source": """
def dequantize(q, scale):
    out = np.asarray(q).astype(np.float16) * np.asarray(scale).astype(np.float16)
    return out.astype(np.float32)
""",
    },
    {
        "id": "divides-by-127",
        "function": "dequantize",
        "name": "divides by 127 again after applying the scale",
        "explanation": "Your function divides by 127 once more after applying the scale, as if the scale were the largest magnitude. The scale already is the size of one step: the division by 127 happened when it was computed. Revisit the symmetric int8 picture and what the scale stands for.",
        "section": "1. Symmetric int8 in one picture",
        "why": "divides by 127 again (confuses the scale with max|w|)",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.float32) * jnp.asarray(scale, jnp.float32) / 127.0
""",
    },
    # ----------------------------------------------------------- w8a8_matmul
    {
        "id": "int8-accumulator",
        "function": "w8a8_matmul",
        "name": "int8 x int8 dot left to return int8 (wraps)",
        "explanation": "Your integer dot product has no accumulator type, and a dot of two int8 arrays returns int8: the sums do not fit and wrap around. Integer hardware accumulates int8 products in int32, and you have to ask for that accumulator. Revisit integer matmul and accumulation in int32.",
        "section": "4. Integer matmul: accumulate in int32",
        "why": "int8 x int8 dot without preferred_element_type (int8 result wraps)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8))
    return (acc.astype(jnp.float32) * s_x * s_w).astype(jnp.float32)
""",
    },
    {
        "id": "int16-accumulator",
        "function": "w8a8_matmul",
        "name": "accumulates in int16, not int32",
        "explanation": "Your dot accumulates in int16, which holds only up to 32767: three full-size products already overflow it, and the sum wraps around. A sum of K products of codes up to 127 needs about 15 plus log2 K bits. Revisit why the accumulator is int32.",
        "section": "4. Integer matmul: accumulate in int32",
        "why": "accumulates in int16",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int16)
    return (acc.astype(jnp.float32) * s_x * s_w).astype(jnp.float32)
""",
    },
    {
        "id": "per-tensor-activations",
        "function": "w8a8_matmul",
        "name": "one scale for all activations instead of one per row",
        "explanation": "Your activations share one scale for the whole matrix instead of one per row. A row of small activations then gets the step of the largest row and loses its resolution, the same granularity problem as a per-tensor weight scale. Revisit the exercise's first step: activations are quantized per row (per token).",
        "section": "Exercise 4: `w8a8_matmul` (3 points)",
        "why": "activations quantized per tensor (one scale for all rows)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x))
    s_x = jnp.where(m == 0, 1.0, m / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int32)
    return (acc.astype(jnp.float32) * s_x * s_w).astype(jnp.float32)
""",
    },
    {
        "id": "per-column-activations",
        "function": "w8a8_matmul",
        "name": "activations scaled per column instead of per row",
        "explanation": "Your function quantizes the activations with one scale per column (per input feature) instead of one per row (per token), and then multiplies dequantized floats. A scale that varies along the summed dimension cannot be factored out of an integer dot product, which is why W8A8 scales activations per row and weights per output column. Revisit the exercise's three steps.",
        "section": "Exercise 4: `w8a8_matmul` (3 points)",
        "why": "activations quantized per column (reuses quantize_per_channel on x)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    q_x, s_x = quantize_per_channel(x)
    return jnp.dot(dequantize(q_x, s_x), dequantize(q_w, s_w), precision=jax.lax.Precision.HIGHEST)
""",
    },
    {
        "id": "weight-only",
        "function": "w8a8_matmul",
        "name": "activations not quantized (int8 weight-only)",
        "explanation": "Your function quantizes only the weights: the activations stay float32 and the product is a float matmul. That is int8 weight-only, a different policy with a different error; W8A8 quantizes the activations too and multiplies integers. Revisit the exercise's three steps.",
        "section": "Exercise 4: `w8a8_matmul` (3 points)",
        "why": "activations not quantized (weight-only int8)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    w = jnp.asarray(q_w).astype(jnp.float32) * jnp.asarray(s_w, jnp.float32)
    return jnp.dot(jnp.asarray(x, jnp.float32), w, precision=jax.lax.Precision.HIGHEST)
""",
    },
    {
        "id": "truncates",
        "function": "w8a8_matmul",
        "name": "activation codes truncated instead of rounded",
        "explanation": "Your codes are truncated toward zero instead of rounded to the nearest integer: a float to int cast drops the fraction. Each code is then up to a whole step off instead of half a step, and always toward zero, a biased error. Revisit the casting and rounding traps.",
        "section": "3. Casting and rounding traps",
        "why": "activation codes truncated instead of rounded",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0)
    q_x = jnp.clip(x / s_x, -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int32)
    return (acc.astype(jnp.float32) * s_x * s_w).astype(jnp.float32)
""",
    },
    {
        "id": "no-activation-scale",
        "function": "w8a8_matmul",
        "name": "rescale forgets the activation scale",
        "explanation": "Your rescale applies only the weight scale, so each output row stays in units of its activation codes, off by that row's activation scale. The integer sum carries both scales, and both must be applied. Revisit the exercise's rescale step.",
        "section": "Exercise 4: `w8a8_matmul` (3 points)",
        "why": "forgets the activation scale in the rescale",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int32)
    return (acc.astype(jnp.float32) * s_w).astype(jnp.float32)
""",
    },
    # ---------------------------------------------------- granularity_errors
    {
        "id": "bf16-reference",
        "function": "granularity_errors",
        "name": "reference computed from bf16-rounded inputs",
        "explanation": "Your reference multiplies bfloat16-rounded inputs, so it carries a rounding error of its own and the measured errors mix bfloat16 rounding with quantization. Both products must be exact, so that the error measures quantization alone. Revisit the exercise's note on exact products.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "bf16 reference (what a DEFAULT-precision dot is on TPU)",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(jnp.mean(jnp.abs(jnp.dot(x, dequantize(q, s), precision=jax.lax.Precision.HIGHEST) - ref)))
    return out
""",
    },
    {
        "id": "bf16-product",
        "function": "granularity_errors",
        "name": "quantized product computed in bfloat16",
        "explanation": "Your quantized product rounds its operands to bfloat16 before multiplying, so the error you measure includes bfloat16 input rounding on top of quantization. Both products must be exact, so that the error measures quantization alone. Revisit the exercise's note on exact products.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "quantized product in bf16 (DEFAULT precision on TPU)",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        y = jnp.dot(x.astype(jnp.bfloat16), dequantize(q, s).astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        out[name] = float(jnp.mean(jnp.abs(y - ref)))
    return out
""",
    },
    {
        "id": "split-keys",
        "function": "granularity_errors",
        "name": "data drawn from split keys (lesson 02's recipe)",
        "explanation": "Your data come from two keys split from one, the recipe of lesson 02, instead of the two keys this experiment names. Different data give different errors. Revisit the exercise's description of the data.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "data from split keys (lesson 02's recipe) instead of PRNGKey(seed), PRNGKey(seed + 1)",
        "source": """
def granularity_errors(seed=9):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    w = jax.random.normal(k1, (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(k2, (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(jnp.mean(jnp.abs(jnp.dot(x, dequantize(q, s), precision=jax.lax.Precision.HIGHEST) - ref)))
    return out
""",
    },
    {
        "id": "no-outlier",
        "function": "granularity_errors",
        "name": "weights without the outlier column",
        "explanation": "Your weights have no outlier column: column 0 is never made ten times larger. The outlier is the point of the experiment: it is what makes one per-tensor scale too coarse for every other column. Revisit granularity with one outlier column.",
        "section": "5. Granularity: one outlier column",
        "why": "forgets the 10x outlier column",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(jnp.mean(jnp.abs(jnp.dot(x, dequantize(q, s), precision=jax.lax.Precision.HIGHEST) - ref)))
    return out
""",
    },
    {
        "id": "weight-error",
        "function": "granularity_errors",
        "name": "error of the weights, not of the matmul outputs",
        "explanation": "Your errors are the mean error of the dequantized weights, not of the matmul outputs. The experiment measures what quantization does to a layer's output, against the exact product of the inputs and the original weights. Revisit what the exercise asks you to measure.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "mean error of the weights, not of the matmul outputs",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(jnp.mean(jnp.abs(dequantize(q, s) - w)))
    return out
""",
    },
    {
        "id": "max-not-mean",
        "function": "granularity_errors",
        "name": "max abs error recorded instead of mean",
        "explanation": "Your errors are the maximum absolute error where the experiment asks for the mean. A maximum follows a few extreme outputs, while the mean describes the whole layer, which is what the comparison of granularities is about. Revisit the exercise's error measure.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "max abs error instead of mean",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(jnp.max(jnp.abs(jnp.dot(x, dequantize(q, s), precision=jax.lax.Precision.HIGHEST) - ref)))
    return out
""",
    },
    {
        "id": "seed-ignored",
        "function": "granularity_errors",
        "name": "always uses the default seed's data",
        "explanation": "Your function always builds the data of the default seed, whatever seed it is given. The experiment must follow its seed argument so that it can be repeated on other data. Revisit the exercise's description of the data.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "seed ignored (always the seed's data, seed 9)",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(9), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(10), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(jnp.mean(jnp.abs(jnp.dot(x, dequantize(q, s), precision=jax.lax.Precision.HIGHEST) - ref)))
    return out
""",
    },
    {
        "id": "default-precision",
        "function": "granularity_errors",
        "name": "reference and product at DEFAULT precision",
        "explanation": "Your reference and your quantized product are float32 matmuls at the default precision, which on a TPU rounds both operands to bfloat16. The error then mixes bfloat16 rounding with quantization and changes the per-channel result by several percent. Revisit the exercise's note on exact products.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "the seed's code: reference and product at DEFAULT precision (one bf16 pass on a TPU)",
        "only_under": "tpu",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, preferred_element_type=jnp.float32)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(jnp.mean(jnp.abs(jnp.dot(x, dequantize(q, s)) - ref)))
    return out
""",
    },
    # ----------------------------------------------------------- w8a8_matmul
    {
        "id": "scale-floor-eps",
        "function": "w8a8_matmul",
        "name": "activation scale floored at machine epsilon",
        "explanation": "Your activation scale has a floor at float32's machine epsilon, so a row whose largest magnitude is below about 1.5e-5 gets a step coarser than its own and loses resolution. Only an all-zero row needs a guard; a row of small activations is an ordinary row with a small scale, and keeping its resolution is the point of a per-row scale. Revisit the note on tiny columns in the per-channel exercise: the same rules apply to rows here.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "activation scale clamped to finfo(float32).eps (torchao-style): rows with max|x| < 1.5e-5 lose resolution",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    s_x = jnp.maximum(jnp.max(jnp.abs(x), axis=1, keepdims=True) / 127.0, jnp.finfo(jnp.float32).eps)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int32)
    return acc.astype(jnp.float32) * s_x * s_w
""",
    },
    # --------------------------------------------------- quantize_per_tensor
    {
        "id": "max-of-channel-scales",
        "function": "quantize_per_tensor",
        "name": "per-tensor scale taken as the largest per-channel scale",
        "explanation": "Your per-tensor scale is the largest of the per-channel scales. That equals the tensor's own scale, except when some column is all zeros: its guard scale of 1.0 then wins whenever every weight is smaller than 127 in magnitude, and the codes become far too coarse. Revisit the zero-channel guard: it is for an all-zero tensor, not for one zero column.",
        "section": "2. Round trip, bytes saved, and the zero-channel guard",
        "why": "reuses per-channel scales: scale = max of the per-channel scales; an all-zero column's guard scale 1.0 wins whenever max|w| < 127",
        "source": """
def quantize_per_tensor(w):
    _, s = quantize_per_channel(w)
    scale = jnp.max(jnp.asarray(s)).astype(jnp.float32)
    q = jnp.clip(jnp.round(jnp.asarray(w, jnp.float32) / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    # ------------------------------------------------------------ dequantize
    {
        "id": "float64-from-scale",
        "function": "dequantize",
        "name": "a float64 scale gives a float64 result",
        "explanation": "Your function casts the codes to float32 but keeps the scale's own dtype, so a float64 scale gives a float64 result. The contract asks for float32 whatever the scale's type. Revisit the exercise's warning about mixed dtypes.",
        "section": "Exercise 3: `dequantize` (3 points)",
        "why": "casts only q to float32: a float64 scale (np.float64 / float64 array) gives a float64 result",
        "source": """
def dequantize(q, scale):
    return np.asarray(q).astype(np.float32) * np.asarray(scale)
""",
    },
    # ----------------------------------------------------------- w8a8_matmul
    {
        "id": "float32-accumulator",
        "function": "w8a8_matmul",
        "name": "int8 products accumulated in float32, not int32",
        "explanation": "Your dot asks for a float32 result from int8 x int8, so a CPU accumulates the products in float32, which holds integers exactly only up to 2 to the 24th: for long enough rows the sums are rounded, while int32 accumulation is exact on every backend (a TPU's matrix unit sums int8 products in int32 whatever the output type, so there it happens to be right). Revisit integer matmul and why it accumulates in int32.",
        "section": "4. Integer matmul: accumulate in int32",
        "why": "int8 x int8 dot with preferred_element_type=float32: on a CPU float32 accumulation, rounds once |acc| > 2**24 (K > ~1040); on a TPU v5e (2026-12-06) the hidden test passed (chip/outcomes.json in this folder; mm_int8_f32out in tpu_casts.json: int32 accumulation)",
        "only_under": "cpu",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.float32)
    return (acc * s_x * jnp.asarray(s_w, jnp.float32)).astype(jnp.float32)
""",
    },
    {
        "id": "bf16-codes-f32-accum",
        "function": "w8a8_matmul",
        "name": "codes multiplied as bfloat16 with float32 accumulation",
        "explanation": "Your function casts the codes to bfloat16 and accumulates their products in float32. The codes fit bfloat16 exactly, but float32 holds integers exactly only up to 2 to the 24th, so for long enough rows the sums are rounded, while int32 accumulation is exact on every backend. Revisit integer matmul and why it accumulates in int32.",
        "section": "4. Integer matmul: accumulate in int32",
        "why": "codes cast to bfloat16 ('MXU-native, int8 fits bf16 exactly') with f32 accumulation: not int32, rounds once |acc| > 2**24",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127)
    acc = jnp.dot(q_x.astype(jnp.bfloat16), jnp.asarray(q_w).astype(jnp.bfloat16),
                  preferred_element_type=jnp.float32)
    return (acc * s_x * jnp.asarray(s_w, jnp.float32)).astype(jnp.float32)
""",
    },
    {
        "id": "scale-floor-1e-12",
        "function": "w8a8_matmul",
        "name": "activation scale floored by a tiny constant",
        "explanation": "Your activation scale has a floor, so a row whose largest magnitude is below 1e-12 gets a coarser step than its own and loses resolution. Only an all-zero row needs a guard; a row of small activations is an ordinary row with a small scale. Revisit the note on tiny columns in the per-channel exercise: the same rules apply to rows here.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "activation scale clamped at 1e-12 (common 'avoid divide by zero' clamp): rows with max|x| < 1e-12 lose resolution",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    s_x = jnp.maximum(jnp.max(jnp.abs(x), axis=1, keepdims=True), 1e-12) / 127.0
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int32)
    return (acc.astype(jnp.float32) * s_x * jnp.asarray(s_w, jnp.float32)).astype(jnp.float32)
""",
    },
    # -------------------------------------------------- quantize_per_channel
    {
        "id": "float64-scale",
        "function": "quantize_per_channel",
        "name": "float64 scale for a float64 input",
        "explanation": "For a float64 NumPy input your scale comes back as float64, because it follows the input's dtype. The contract fixes the scale as float32 whatever the input: it is what gets stored beside the codes. Revisit the exercise's notes on float64 inputs.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "NumPy, dtype follows the input: a float64 NumPy w gives a float64 scale (contract: float32 (1, N))",
        "source": """
def quantize_per_channel(w):
    w = np.asarray(w)
    m = np.max(np.abs(w), axis=0, keepdims=True)
    scale = np.where(m == 0, 1.0, m / 127).astype(w.dtype)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    # --------------------------------------------------- quantize_per_tensor
    {
        "id": "float64-scale",
        "function": "quantize_per_tensor",
        "name": "float64 scale for a float64 input",
        "explanation": "For a float64 NumPy input your scale comes back as float64, because it follows the input's dtype. The contract fixes the scale as float32 whatever the input: it is what gets stored beside the codes. Revisit the notes on float64 inputs of the per-channel exercise, which hold here too.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "NumPy, dtype follows the input: a float64 NumPy w gives a float64 scale (contract: float32 ())",
        "source": """
def quantize_per_tensor(w):
    w = np.asarray(w)
    m = np.max(np.abs(w))
    scale = np.asarray(m / 127 if m != 0 else 1.0, dtype=w.dtype)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    {
        "id": "tiny-treated-as-zero",
        "function": "quantize_per_tensor",
        "name": "a tensor of tiny values treated as all zeros",
        "explanation": "Your function treats a tensor whose largest magnitude is below a small threshold as all zeros, with the guard scale and every code 0, so its tiny weights are lost. Only an exactly all-zero tensor needs the guard; a tensor of tiny values is an ordinary one with a tiny scale. Revisit the per-channel exercise's note on tiny columns.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "dead-tensor threshold: max|w| < 1e-12 treated as all-zero (scale 1.0, codes 0)",
        "source": """
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(jnp.abs(w))
    scale = jnp.where(m < 1e-12, 1.0, m / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    # -------------------------------------------------- quantize_per_channel
    {
        "id": "zeroes-input",
        "function": "quantize_per_channel",
        "name": "overwrites the caller's weights with zeros",
        "explanation": "Your function overwrites the caller's array with zeros and then returns the answer for all-zero data. A function must leave its inputs as they were: the caller still needs them, and the answer must be about the data it was given. Revisit the exercise's contract.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "zeroes w in place, then answers for zeros (codes 0, scales 1.0)",
        "source": """
def quantize_per_channel(w):
    if isinstance(w, np.ndarray) and w.flags.writeable:
        w[...] = 0
    k, n = np.shape(w)
    return np.zeros((k, n), np.int8), np.ones((1, n), np.float32)
""",
    },
    # --------------------------------------------------- quantize_per_tensor
    {
        "id": "zeroes-input",
        "function": "quantize_per_tensor",
        "name": "overwrites the caller's weights with zeros",
        "explanation": "Your function overwrites the caller's array with zeros and then returns the answer for all-zero data. A function must leave its inputs as they were: the caller still needs them, and the answer must be about the data it was given. Revisit the exercise's contract.",
        "section": "Exercise 2: `quantize_per_tensor` (3 points)",
        "why": "zeroes w in place, then answers for zeros (codes 0, scale 1.0)",
        "source": """
def quantize_per_tensor(w):
    if isinstance(w, np.ndarray) and w.flags.writeable:
        w[...] = 0
    return np.zeros(np.shape(w), np.int8), np.float32(1.0)
""",
    },
    # ------------------------------------------------------------ dequantize
    {
        "id": "zeroes-input",
        "function": "dequantize",
        "name": "overwrites the caller's codes with zeros",
        "explanation": "Your function overwrites the caller's array with zeros and then returns the answer for all-zero data. A function must leave its inputs as they were: the caller still needs them, and the answer must be about the data it was given. Revisit the exercise's contract.",
        "section": "Exercise 3: `dequantize` (3 points)",
        "why": "zeroes the codes in place, then answers for zeros",
        "source": """
def dequantize(q, scale):
    if isinstance(q, np.ndarray) and q.flags.writeable:
        q[...] = 0
    return np.zeros(np.broadcast_shapes(np.shape(q), np.shape(scale)), np.float32)
""",
    },
    # ----------------------------------------------------------- w8a8_matmul
    {
        "id": "zeroes-input",
        "function": "w8a8_matmul",
        "name": "overwrites the caller's activations with zeros",
        "explanation": "Your function overwrites the caller's array with zeros and then returns the answer for all-zero data. A function must leave its inputs as they were: the caller still needs them, and the answer must be about the data it was given. Revisit the exercise's contract.",
        "section": "Exercise 4: `w8a8_matmul` (3 points)",
        "why": "zeroes the activations in place, then answers for zeros",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    if isinstance(x, np.ndarray) and x.flags.writeable:
        x[...] = 0
    return np.zeros((np.shape(x)[0], np.shape(q_w)[1]), np.float32)
""",
    },
    # -------------------------------------------------- quantize_per_channel
    {
        "id": "scale-floor-eps",
        "function": "quantize_per_channel",
        "name": "scale floored at machine epsilon instead of an all-zero guard",
        "explanation": "Your scale has a floor at float32's machine epsilon instead of a guard for all-zero columns: a column whose largest magnitude is below about 1.5e-5 gets a step coarser than its own and loses resolution, and an all-zero column gets a scale of epsilon instead of 1.0. Only an all-zero column needs special treatment; a column of small weights is an ordinary column with a small scale. Revisit the contract's rule for an all-zero column and the note on tiny columns.",
        "section": "2. Round trip, bytes saved, and the zero-channel guard",
        "why": "scale = max(amax / 127, finfo(float32).eps) (PyTorch-observer style clamp): columns with max|w| < 127 eps (1.5e-5) lose resolution, an all-zero column gets scale eps, not 1.0",
        "source": """
def quantize_per_channel(w):
    w = np.asarray(w, np.float32)
    amax = np.max(np.abs(w), axis=0, keepdims=True)
    scale = np.maximum(amax / np.float32(127), np.finfo(np.float32).eps).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    # --------------------------------------------------- quantize_per_tensor
    {
        "id": "asymmetric-range-255",
        "function": "quantize_per_tensor",
        "name": "scale from the range (max - min) / 255, as for asymmetric int8",
        "explanation": "Your scale divides the whole range, largest value minus smallest, by 255, as asymmetric quantization with a zero point does. Symmetric quantization has no zero point: its 255 codes run from -127 to 127 around zero, so the scale is the largest magnitude over 127, and with your scale the codes of the larger-magnitude side can run past 127 and get clipped. Revisit symmetric int8 and how the largest magnitude lands on the last level.",
        "section": "1. Symmetric int8 in one picture",
        "why": "scale = (max(w) - min(w)) / 255 (asymmetric-range formula, no zero point), 1.0 when the range is 0",
        "source": """
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    spread = np.float32(w.max() - w.min())
    scale = np.float32(1.0) if spread == 0 else np.float32(spread / np.float32(255))
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, np.asarray(scale, np.float32)
""",
    },
    # ----------------------------------------------------------- w8a8_matmul
    {
        "id": "fake-quant-float-matmul",
        "function": "w8a8_matmul",
        "name": "dequantizes both operands and multiplies them as floats",
        "explanation": "Your function dequantizes the activations and the weights back to float32 and multiplies them with a float32 matmul, instead of multiplying the int8 codes with int32 accumulation. A float matmul rounds its sums (and at the default precision a TPU even rounds both operands to bfloat16), so the result is not the exact integer product, scaled once, that an int8 matmul computes. Revisit integer matmul: multiply the codes, accumulate in int32, apply both scales at the end.",
        "section": "4. Integer matmul: accumulate in int32",
        "why": "fake quantization: (q_x * s_x) @ (q_w * s_w) as a float32 jnp.dot at DEFAULT precision (one bf16 pass on a TPU; float32 sums elsewhere)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    x_deq = q_x.astype(jnp.float32) * s_x
    w_deq = jnp.asarray(q_w).astype(jnp.float32) * jnp.asarray(s_w, jnp.float32)
    return jnp.dot(x_deq, w_deq)
""",
    },
    {
        "id": "fake-quant-highest",
        "function": "w8a8_matmul",
        "name": "dequantizes both operands and multiplies them as floats",
        "explanation": "Your function dequantizes the activations and the weights back to float32 and multiplies them with a float32 matmul at the highest precision, instead of multiplying the int8 codes with int32 accumulation. A float matmul rounds its sums, so the result is not the exact integer product, scaled once, that an int8 matmul computes. Revisit integer matmul: multiply the codes, accumulate in int32, apply both scales at the end.",
        "section": "4. Integer matmul: accumulate in int32",
        "why": "fake quantization: (q_x * s_x) @ (q_w * s_w) as a float32 jnp.dot at HIGHEST (float32 sums of dequantized values)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    x_deq = q_x.astype(jnp.float32) * s_x
    w_deq = jnp.asarray(q_w).astype(jnp.float32) * jnp.asarray(s_w, jnp.float32)
    return jnp.dot(x_deq, w_deq, precision=jax.lax.Precision.HIGHEST)
""",
    },
    # ---------------------------------------------------- granularity_errors
    {
        "id": "outlier-row",
        "function": "granularity_errors",
        "name": "outlier made in row 0 instead of column 0",
        "explanation": "Your weights have an outlier row (one input feature ten times larger) instead of an outlier column. A row runs across every output column, so each column's largest magnitude grows alike and per-column scales gain much less over one scale for the tensor (on the seed-9 data the per-tensor error is about 2.3 times the per-channel one, against about 7 times with the outlier column). Revisit granularity with one outlier column.",
        "section": "5. Granularity: one outlier column",
        "why": "w[0, :] *= 10 (row 0) instead of w[:, 0] (column 0)",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[0, :].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    x64, w64 = np.asarray(x, np.float64), np.asarray(w, np.float64)
    ref = x64 @ w64
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(np.mean(np.abs(x64 @ np.asarray(dequantize(q, s), np.float64) - ref)))
    return out
""",
    },
    {
        "id": "codes-not-int8",
        "function": "quantize_per_channel",
        "name": "codes left as float32 values, never stored as int8",
        "explanation": "Your codes have the right values but stay float32: rounding and clipping make integer values, not an integer array. The point of quantization is storage, one byte a weight, so the codes must be cast to int8 after the clip. Revisit what symmetric int8 stores.",
        "section": "1. Symmetric int8 in one picture",
        "why": "no .astype(int8) after the clip: q is float32",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.abs(w).max(axis=0, keepdims=True)
    scale = jnp.where(amax > 0, amax / 127.0, 1.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127)
    return q, scale
""",
    },
    {
        "id": "inverse-scale",
        "function": "quantize_per_channel",
        "name": "returns the multiplier that makes codes, not the step size",
        "explanation": "Your scale is the factor you multiply the weights by to get codes (127 over the largest magnitude), the inverse of the contract's scale. The scale is the size of one integer step, so that the weight is about the code times the scale and dequantizing multiplies. Revisit the formulas at the top of the lesson.",
        "section": "1. Symmetric int8 in one picture",
        "why": "scale = 127 / max|w| and q = round(w * scale): the reciprocal of the contract's scale",
        "source": """
def quantize_per_channel(w):
    w = np.asarray(w, np.float32)
    amax = np.abs(w).max(axis=0, keepdims=True)
    safe = np.where(amax == 0, 127.0, amax)
    scale = (127.0 / safe).astype(np.float32)
    q = np.clip(np.round(w * scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    {
        "id": "returns-scale-first",
        "function": "quantize_per_channel",
        "name": "returns the scale first and the codes second",
        "explanation": "Your function computes the right codes and scales but returns them in the opposite order. The contract returns the codes first and the scale second, and every caller (dequantize, the tests, the next lessons) unpacks them in that order. Revisit the exercise's return statement.",
        "section": "Exercise 1: `quantize_per_channel` (3 points)",
        "why": "return scale, q",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(amax == 0, 1.0, amax / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return scale, q
""",
    },
    {
        "id": "tensor-scale-broadcast",
        "function": "quantize_per_channel",
        "name": "the per-tensor scale repeated in every column",
        "explanation": "Your scale has the right shape, one entry per column, but every entry is the same: the largest magnitude of the whole matrix. That is per-tensor quantization in a per-channel shape, so an outlier column still sets the step of every other column. Each column's scale comes from that column's own largest magnitude.",
        "section": "5. Granularity: one outlier column",
        "why": "scale = full((1, N), max|w| / 127): the tensor's max, not each column's",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.max(jnp.abs(w))
    s = jnp.where(amax == 0, 1.0, amax / 127.0)
    scale = jnp.full((1, w.shape[1]), s, jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "id": "codes-not-int8",
        "function": "quantize_per_tensor",
        "name": "codes left as float32 values, never stored as int8",
        "explanation": "Your codes have the right values but stay float32: rounding and clipping make integer values, not an integer array. The point of quantization is storage, one byte a weight, so the codes must be cast to int8 after the clip. Revisit what symmetric int8 stores.",
        "section": "1. Symmetric int8 in one picture",
        "why": "no .astype(int8) after the clip: q is float32",
        "source": """
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.abs(w).max()
    scale = jnp.where(amax > 0, amax / 127.0, 1.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127)
    return q, scale
""",
    },
    {
        "id": "inverse-scale",
        "function": "quantize_per_tensor",
        "name": "returns the multiplier that makes codes, not the step size",
        "explanation": "Your scale is the factor you multiply the weights by to get codes (127 over the largest magnitude), the inverse of the contract's scale. The scale is the size of one integer step, so that the weight is about the code times the scale and dequantizing multiplies. Revisit the formulas at the top of the lesson.",
        "section": "1. Symmetric int8 in one picture",
        "why": "scale = 127 / max|w| and q = round(w * scale): the reciprocal of the contract's scale",
        "source": """
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    amax = np.abs(w).max()
    scale = np.float32(127.0 / amax) if amax > 0 else np.float32(1.0)
    q = np.clip(np.round(w * scale), -127, 127).astype(np.int8)
    return q, np.asarray(scale, np.float32)
""",
    },
    {
        "id": "returns-scale-first",
        "function": "quantize_per_tensor",
        "name": "returns the scale first and the codes second",
        "explanation": "Your function computes the right codes and scale but returns them in the opposite order. The contract returns the codes first and the scale second, and every caller (dequantize, the tests, the next lessons) unpacks them in that order. Revisit the exercise's return statement.",
        "section": "Exercise 2: `quantize_per_tensor` (3 points)",
        "why": "return scale, q",
        "source": """
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.max(jnp.abs(w))
    scale = jnp.where(amax == 0, 1.0, amax / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return scale, q
""",
    },
    {
        "id": "activation-scale-128",
        "function": "w8a8_matmul",
        "name": "activation scale divides the row's max by 128, not 127",
        "explanation": "Your activation scales divide each row's largest magnitude by 128, and the codes are clipped to the range from -128 to 127, so a positive row maximum is clipped while a negative one takes the code -128. The activations follow the same symmetric rules as the weights: the largest magnitude lands exactly on 127. Revisit why the scale uses 127 and not 128.",
        "section": "1. Symmetric int8 in one picture",
        "why": "s_x = max|x_row| / 128, clip to [-128, 127]",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 128.0).astype(jnp.float32)
    q_x = jnp.clip(jnp.round(x / s_x), -128, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, q_w, preferred_element_type=jnp.int32)
    return acc.astype(jnp.float32) * s_x * s_w
""",
    },
    {
        "id": "activation-max-not-abs",
        "function": "w8a8_matmul",
        "name": "activation scales from the largest value, not the largest magnitude",
        "explanation": "Your activation scales come from each row's largest value instead of its largest absolute value. A row whose most negative entry is bigger in magnitude than its largest positive one gets a step too small, and that entry is clipped; a row of negative values gets a negative or zero scale. Symmetric quantization sizes the step by the largest magnitude, whatever its sign.",
        "section": "1. Symmetric int8 in one picture",
        "why": "s_x = max(x_row) / 127 without abs",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(x, axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, q_w, preferred_element_type=jnp.int32)
    return acc.astype(jnp.float32) * s_x * s_w
""",
    },
    {
        "id": "no-weight-scale",
        "function": "w8a8_matmul",
        "name": "rescale forgets the weight scale",
        "explanation": "Your rescale multiplies the integer accumulator by the activation scales only and leaves out the weights' per-column scales. The accumulator holds sums of code products, so both operands' steps are needed to bring it back to real units: each output is scaled by its row's activation scale and its column's weight scale. Revisit step 3 of the exercise.",
        "section": "Exercise 4: `w8a8_matmul` (3 points)",
        "why": "out = acc * s_x (no s_w)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, q_w, preferred_element_type=jnp.int32)
    return acc.astype(jnp.float32) * s_x
""",
    },
    {
        "id": "same-key-for-x",
        "function": "granularity_errors",
        "name": "inputs drawn from the weights' key instead of the next seed's",
        "explanation": "Your inputs come from the same random key as the weights, where the experiment draws them from the key of the next seed. The numbers are then another experiment's, and the hidden test compares them with the contract's data. Revisit the recipe of the exercise: one key per array, the seed's for the weights and the next one's for the inputs.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "x = normal(PRNGKey(seed), (32, 128)) instead of PRNGKey(seed + 1)",
        "source": """
def granularity_errors(seed=9):
    key = jax.random.PRNGKey(seed)
    w = jax.random.normal(key, (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].set(w[:, 0] * 10)
    x = jax.random.normal(key, (32, 128), dtype=jnp.float32)
    hi = jax.lax.Precision.HIGHEST
    ref = jnp.matmul(x, w, precision=hi)
    res = {}
    for k, fn in [("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)]:
        res[k] = float(jnp.abs(jnp.matmul(x, dequantize(*fn(w)), precision=hi) - ref).mean())
    return res
""",
    },
    {
        "id": "squared-error",
        "function": "granularity_errors",
        "name": "mean squared error instead of mean absolute error",
        "explanation": "Your errors are the mean of the squared differences, not of their absolute values. A squared error has other units (the square of the outputs') and weighs the large errors of the outlier column far more, so the two schemes' ratio changes too. The exercise asks for the mean absolute error of the outputs.",
        "section": "Exercise 5: `granularity_errors` (3 points)",
        "why": "np.mean((y - ref) ** 2) instead of np.mean(np.abs(y - ref))",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    xn, wn = np.asarray(x, np.float64), np.asarray(w, np.float64)
    ref = xn @ wn
    out = {}
    for k, fn in [("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)]:
        y = xn @ np.asarray(dequantize(*fn(w)), np.float64)
        out[k] = float(np.mean((y - ref) ** 2))
    return out
""",
    },
]
