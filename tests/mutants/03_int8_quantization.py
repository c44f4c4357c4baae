"""Plausible wrong answers for 03_int8_quantization (each must fail its own hidden test only)."""

MUTANTS = [
    # ------------------------------------------------------------------ quantize_per_channel
    {
        "function": "quantize_per_channel",
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
        "function": "quantize_per_channel",
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
        "function": "quantize_per_channel",
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
        "function": "quantize_per_channel",
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
        "function": "quantize_per_channel",
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
        "function": "quantize_per_channel",
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
        "function": "quantize_per_channel",
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
    # ------------------------------------------------------------------ quantize_per_tensor
    {
        "function": "quantize_per_tensor",
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
        "function": "quantize_per_tensor",
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
        "function": "quantize_per_tensor",
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
        "function": "quantize_per_tensor",
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
        "function": "quantize_per_tensor",
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
        "function": "quantize_per_tensor",
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
    # ------------------------------------------------------------------ dequantize
    {
        "function": "dequantize",
        "why": "divides by the scale instead of multiplying",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.float32) / jnp.asarray(scale, jnp.float32)
""",
    },
    {
        "function": "dequantize",
        "why": "returns float64 (NumPy default float)",
        "source": """
def dequantize(q, scale):
    return np.asarray(q).astype(np.float64) * np.asarray(scale, np.float64)
""",
    },
    {
        "function": "dequantize",
        "why": "casts back to the codes' dtype (int8)",
        "source": """
def dequantize(q, scale):
    return (jnp.asarray(q) * jnp.asarray(scale)).astype(jnp.asarray(q).dtype)
""",
    },
    {
        "function": "dequantize",
        "why": "computes in bfloat16 to save memory",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.bfloat16) * jnp.asarray(scale).astype(jnp.bfloat16)
""",
    },
    {
        "function": "dequantize",
        "why": "divides by 127 again (confuses the scale with max|w|)",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.float32) * jnp.asarray(scale, jnp.float32) / 127.0
""",
    },
    # ------------------------------------------------------------------ w8a8_matmul
    {
        "function": "w8a8_matmul",
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
        "function": "w8a8_matmul",
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
        "function": "w8a8_matmul",
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
        "function": "w8a8_matmul",
        "why": "activations quantized per column (reuses quantize_per_channel on x)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    q_x, s_x = quantize_per_channel(x)
    return jnp.dot(dequantize(q_x, s_x), dequantize(q_w, s_w), precision=jax.lax.Precision.HIGHEST)
""",
    },
    {
        "function": "w8a8_matmul",
        "why": "activations not quantized (weight-only int8)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    w = jnp.asarray(q_w).astype(jnp.float32) * jnp.asarray(s_w, jnp.float32)
    return jnp.dot(jnp.asarray(x, jnp.float32), w, precision=jax.lax.Precision.HIGHEST)
""",
    },
    {
        "function": "w8a8_matmul",
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
        "function": "w8a8_matmul",
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
    # ------------------------------------------------------------------ granularity_errors
    {
        "function": "granularity_errors",
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
        "function": "granularity_errors",
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
        "function": "granularity_errors",
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
        "function": "granularity_errors",
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
        "function": "granularity_errors",
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
        "function": "granularity_errors",
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
        "function": "granularity_errors",
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
]

# Wrong answers that only a TPU reveals (exact on CPU): checked under emulated TPU precision.
_SEED_STYLE = """
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
"""
MUTANTS += [
    {
        "function": "granularity_errors",
        "only_under": "tpu",
        "source": _SEED_STYLE,
        "why": "the seed's code: reference and product at DEFAULT precision (one bf16 pass on a TPU)",
    },
    # ------------------------------------------ found by independent reviewers (session 2)
    {
        "function": "w8a8_matmul",
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
    # ------------------------------------------ found by a second round of reviewers (session 2)
    {
        "function": "quantize_per_tensor",
        "why": "reuses per-channel scales: scale = max of the per-channel scales; an all-zero column's guard scale 1.0 wins whenever max|w| < 127",
        "source": """
def quantize_per_tensor(w):
    _, s = quantize_per_channel(w)
    scale = jnp.max(jnp.asarray(s)).astype(jnp.float32)
    q = jnp.clip(jnp.round(jnp.asarray(w, jnp.float32) / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "function": "dequantize",
        "why": "casts only q to float32: a float64 scale (np.float64 / float64 array) gives a float64 result",
        "source": """
def dequantize(q, scale):
    return np.asarray(q).astype(np.float32) * np.asarray(scale)
""",
    },
    {
        "function": "w8a8_matmul",
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
        "function": "w8a8_matmul",
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
        "function": "w8a8_matmul",
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
    {
        "function": "quantize_per_channel",
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
    {
        "function": "quantize_per_tensor",
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
        "function": "quantize_per_tensor",
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
    # ------------------------------------------------------------------ in-place vandals: each zeroes
    # its NumPy inputs, then returns the right answer for zeros; caught only because every hidden test
    # computes what it expects BEFORE calling the student's function (the grader carries in-place
    # changes of arguments back into the test's own objects, as a local call would)
    {
        "function": "quantize_per_channel",
        "why": "zeroes w in place, then answers for zeros (codes 0, scales 1.0)",
        "source": """
def quantize_per_channel(w):
    if isinstance(w, np.ndarray) and w.flags.writeable:
        w[...] = 0
    k, n = np.shape(w)
    return np.zeros((k, n), np.int8), np.ones((1, n), np.float32)
""",
    },
    {
        "function": "quantize_per_tensor",
        "why": "zeroes w in place, then answers for zeros (codes 0, scale 1.0)",
        "source": """
def quantize_per_tensor(w):
    if isinstance(w, np.ndarray) and w.flags.writeable:
        w[...] = 0
    return np.zeros(np.shape(w), np.int8), np.float32(1.0)
""",
    },
    {
        "function": "dequantize",
        "why": "zeroes the codes in place, then answers for zeros",
        "source": """
def dequantize(q, scale):
    if isinstance(q, np.ndarray) and q.flags.writeable:
        q[...] = 0
    return np.zeros(np.broadcast_shapes(np.shape(q), np.shape(scale)), np.float32)
""",
    },
    {
        "function": "w8a8_matmul",
        "why": "zeroes the activations in place, then answers for zeros",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    if isinstance(x, np.ndarray) and x.flags.writeable:
        x[...] = 0
    return np.zeros((np.shape(x)[0], np.shape(q_w)[1]), np.float32)
""",
    },
]
