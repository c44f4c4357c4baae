"""Known wrong answers to 03_int8_quantization's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

MISTAKES = [
    # -------------------------------------------------- quantize_per_channel
    {
        "id": "wrong-axis-one-scale-per-row-axis-1",
        "function": "quantize_per_channel",
        "name": "wrong axis: one scale per row (axis=1)",
        "explanation": "",
        "section": "",
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
        "id": "scale-uses-128-not-127-and-clips-to-128",
        "function": "quantize_per_channel",
        "name": "scale uses 128, not 127 (and clips to [-128, 127])",
        "explanation": "",
        "section": "",
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
        "id": "numpy-scale-128-and-no-clipping-the-extr",
        "function": "quantize_per_channel",
        "name": "NumPy, scale /128 and no clipping: the extreme wraps to -128",
        "explanation": "",
        "section": "",
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
        "id": "truncation-instead-of-rounding-astype-wi",
        "function": "quantize_per_channel",
        "name": "truncation instead of rounding (astype without round)",
        "explanation": "",
        "section": "",
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
        "id": "missing-zero-channel-guard-scale-0-0-0",
        "function": "quantize_per_channel",
        "name": "missing zero-channel guard (scale 0, 0/0)",
        "explanation": "",
        "section": "",
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
        "id": "max-w-instead-of-max-w-negative-extremes",
        "function": "quantize_per_channel",
        "name": "max(w) instead of max(|w|): negative extremes ignored",
        "explanation": "",
        "section": "",
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
        "id": "scale-returned-with-shape-n-no-keepdims",
        "function": "quantize_per_channel",
        "name": "scale returned with shape (N,) (no keepdims)",
        "explanation": "",
        "section": "",
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
        "id": "scale-uses-128-not-127",
        "function": "quantize_per_tensor",
        "name": "scale uses 128, not 127",
        "explanation": "",
        "section": "",
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
        "id": "scale-kept-as-shape-1-1-keepdims",
        "function": "quantize_per_tensor",
        "name": "scale kept as shape (1, 1) (keepdims)",
        "explanation": "",
        "section": "",
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
        "id": "missing-zero-guard-all-zero-tensor-gives",
        "function": "quantize_per_tensor",
        "name": "missing zero guard: all-zero tensor gives scale 0",
        "explanation": "",
        "section": "",
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
        "id": "truncation-toward-zero-instead-of-roundi",
        "function": "quantize_per_tensor",
        "name": "truncation toward zero instead of rounding",
        "explanation": "",
        "section": "",
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
        "id": "returns-a-python-float-scale-float64-not",
        "function": "quantize_per_tensor",
        "name": "returns a Python float scale (float64, not float32 ())",
        "explanation": "",
        "section": "",
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
        "id": "max-w-instead-of-max-w",
        "function": "quantize_per_tensor",
        "name": "max(w) instead of max(|w|)",
        "explanation": "",
        "section": "",
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
        "id": "divides-by-the-scale-instead-of-multiply",
        "function": "dequantize",
        "name": "divides by the scale instead of multiplying",
        "explanation": "",
        "section": "",
        "why": "divides by the scale instead of multiplying",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.float32) / jnp.asarray(scale, jnp.float32)
""",
    },
    {
        "id": "returns-float64-numpy-default-float",
        "function": "dequantize",
        "name": "returns float64 (NumPy default float)",
        "explanation": "",
        "section": "",
        "why": "returns float64 (NumPy default float)",
        "source": """
def dequantize(q, scale):
    return np.asarray(q).astype(np.float64) * np.asarray(scale, np.float64)
""",
    },
    {
        "id": "casts-back-to-the-codes-dtype-int8",
        "function": "dequantize",
        "name": "casts back to the codes' dtype (int8)",
        "explanation": "",
        "section": "",
        "why": "casts back to the codes' dtype (int8)",
        "source": """
def dequantize(q, scale):
    return (jnp.asarray(q) * jnp.asarray(scale)).astype(jnp.asarray(q).dtype)
""",
    },
    {
        "id": "computes-in-bfloat16-to-save-memory",
        "function": "dequantize",
        "name": "computes in bfloat16 to save memory",
        "explanation": "",
        "section": "",
        "why": "computes in bfloat16 to save memory",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.bfloat16) * jnp.asarray(scale).astype(jnp.bfloat16)
""",
    },
    {
        "id": "divides-by-127-again-confuses-the-scale",
        "function": "dequantize",
        "name": "divides by 127 again (confuses the scale with max|w|)",
        "explanation": "",
        "section": "",
        "why": "divides by 127 again (confuses the scale with max|w|)",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.float32) * jnp.asarray(scale, jnp.float32) / 127.0
""",
    },
    # ----------------------------------------------------------- w8a8_matmul
    {
        "id": "int8-x-int8-dot-without-preferred-elemen",
        "function": "w8a8_matmul",
        "name": "int8 x int8 dot without preferred_element_type (int8 result wraps)",
        "explanation": "",
        "section": "",
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
        "id": "accumulates-in-int16",
        "function": "w8a8_matmul",
        "name": "accumulates in int16",
        "explanation": "",
        "section": "",
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
        "id": "activations-quantized-per-tensor-one-sca",
        "function": "w8a8_matmul",
        "name": "activations quantized per tensor (one scale for all rows)",
        "explanation": "",
        "section": "",
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
        "id": "activations-quantized-per-column-reuses",
        "function": "w8a8_matmul",
        "name": "activations quantized per column (reuses quantize_per_channel on x)",
        "explanation": "",
        "section": "",
        "why": "activations quantized per column (reuses quantize_per_channel on x)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    q_x, s_x = quantize_per_channel(x)
    return jnp.dot(dequantize(q_x, s_x), dequantize(q_w, s_w), precision=jax.lax.Precision.HIGHEST)
""",
    },
    {
        "id": "activations-not-quantized-weight-only-in",
        "function": "w8a8_matmul",
        "name": "activations not quantized (weight-only int8)",
        "explanation": "",
        "section": "",
        "why": "activations not quantized (weight-only int8)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    w = jnp.asarray(q_w).astype(jnp.float32) * jnp.asarray(s_w, jnp.float32)
    return jnp.dot(jnp.asarray(x, jnp.float32), w, precision=jax.lax.Precision.HIGHEST)
""",
    },
    {
        "id": "activation-codes-truncated-instead-of-ro",
        "function": "w8a8_matmul",
        "name": "activation codes truncated instead of rounded",
        "explanation": "",
        "section": "",
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
        "id": "forgets-the-activation-scale-in-the-resc",
        "function": "w8a8_matmul",
        "name": "forgets the activation scale in the rescale",
        "explanation": "",
        "section": "",
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
        "id": "bf16-reference-what-a-default-precision",
        "function": "granularity_errors",
        "name": "bf16 reference (what a DEFAULT-precision dot is on TPU)",
        "explanation": "",
        "section": "",
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
        "id": "quantized-product-in-bf16-default-precis",
        "function": "granularity_errors",
        "name": "quantized product in bf16 (DEFAULT precision on TPU)",
        "explanation": "",
        "section": "",
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
        "id": "data-from-split-keys-lesson-02-s-recipe",
        "function": "granularity_errors",
        "name": "data from split keys (lesson 02's recipe) instead of PRNGKey(seed), PRNGKey(seed + 1)",
        "explanation": "",
        "section": "",
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
        "id": "forgets-the-10x-outlier-column",
        "function": "granularity_errors",
        "name": "forgets the 10x outlier column",
        "explanation": "",
        "section": "",
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
        "id": "mean-error-of-the-weights-not-of-the-mat",
        "function": "granularity_errors",
        "name": "mean error of the weights, not of the matmul outputs",
        "explanation": "",
        "section": "",
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
        "id": "max-abs-error-instead-of-mean",
        "function": "granularity_errors",
        "name": "max abs error instead of mean",
        "explanation": "",
        "section": "",
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
        "id": "seed-ignored-always-the-seed-s-data-seed",
        "function": "granularity_errors",
        "name": "seed ignored (always the seed's data, seed 9)",
        "explanation": "",
        "section": "",
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
        "id": "the-seed-s-code-reference-and-product-at",
        "function": "granularity_errors",
        "name": "the seed's code: reference and product at DEFAULT precision (one bf16 pass on a TPU)",
        "explanation": "",
        "section": "",
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
        "id": "activation-scale-clamped-to-finfo-float3",
        "function": "w8a8_matmul",
        "name": "activation scale clamped to finfo(float32).eps (torchao-style): rows with max|x| < 1.5e-5 lose resolution",
        "explanation": "",
        "section": "",
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
        "id": "reuses-per-channel-scales-scale-max-of-t",
        "function": "quantize_per_tensor",
        "name": "reuses per-channel scales: scale = max of the per-channel scales; an all-zero column's guard scale 1.0 wins whenever max|w| < 127",
        "explanation": "",
        "section": "",
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
        "id": "casts-only-q-to-float32-a-float64-scale",
        "function": "dequantize",
        "name": "casts only q to float32: a float64 scale (np.float64 / float64 array) gives a float64 result",
        "explanation": "",
        "section": "",
        "why": "casts only q to float32: a float64 scale (np.float64 / float64 array) gives a float64 result",
        "source": """
def dequantize(q, scale):
    return np.asarray(q).astype(np.float32) * np.asarray(scale)
""",
    },
    # ----------------------------------------------------------- w8a8_matmul
    {
        "id": "int8-x-int8-dot-with-preferred-element-t",
        "function": "w8a8_matmul",
        "name": "int8 x int8 dot with preferred_element_type=float32 (float32 accumulation, not int32): rounds once |acc| > 2**24 (K > ~1040)",
        "explanation": "",
        "section": "",
        "why": "int8 x int8 dot with preferred_element_type=float32 (float32 accumulation, not int32): rounds once |acc| > 2**24 (K > ~1040)",
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
        "id": "codes-cast-to-bfloat16-mxu-native-int8-f",
        "function": "w8a8_matmul",
        "name": "codes cast to bfloat16 ('MXU-native, int8 fits bf16 exactly') with f32 accumulation: not int32, rounds once |acc| > 2**24",
        "explanation": "",
        "section": "",
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
        "id": "activation-scale-clamped-at-1e-12-common",
        "function": "w8a8_matmul",
        "name": "activation scale clamped at 1e-12 (common 'avoid divide by zero' clamp): rows with max|x| < 1e-12 lose resolution",
        "explanation": "",
        "section": "",
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
        "id": "numpy-dtype-follows-the-input-a-float64",
        "function": "quantize_per_channel",
        "name": "NumPy, dtype follows the input: a float64 NumPy w gives a float64 scale (contract: float32 (1, N))",
        "explanation": "",
        "section": "",
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
        "id": "numpy-dtype-follows-the-input-a-float64",
        "function": "quantize_per_tensor",
        "name": "NumPy, dtype follows the input: a float64 NumPy w gives a float64 scale (contract: float32 ())",
        "explanation": "",
        "section": "",
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
        "id": "dead-tensor-threshold-max-w-1e-12-treate",
        "function": "quantize_per_tensor",
        "name": "dead-tensor threshold: max|w| < 1e-12 treated as all-zero (scale 1.0, codes 0)",
        "explanation": "",
        "section": "",
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
        "id": "zeroes-w-in-place-then-answers-for-zeros",
        "function": "quantize_per_channel",
        "name": "zeroes w in place, then answers for zeros (codes 0, scales 1.0)",
        "explanation": "",
        "section": "",
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
        "id": "zeroes-w-in-place-then-answers-for-zeros",
        "function": "quantize_per_tensor",
        "name": "zeroes w in place, then answers for zeros (codes 0, scale 1.0)",
        "explanation": "",
        "section": "",
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
        "id": "zeroes-the-codes-in-place-then-answers-f",
        "function": "dequantize",
        "name": "zeroes the codes in place, then answers for zeros",
        "explanation": "",
        "section": "",
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
        "id": "zeroes-the-activations-in-place-then-ans",
        "function": "w8a8_matmul",
        "name": "zeroes the activations in place, then answers for zeros",
        "explanation": "",
        "section": "",
        "why": "zeroes the activations in place, then answers for zeros",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    if isinstance(x, np.ndarray) and x.flags.writeable:
        x[...] = 0
    return np.zeros((np.shape(x)[0], np.shape(q_w)[1]), np.float32)
""",
    },
]
