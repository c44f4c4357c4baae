"""Held-out wrong answers for 03_int8_quantization (see README.md)."""

HELDOUT = [
    {
        "key": "03_int8_quantization:quantize_per_channel:per-row-scale",
        "function": "quantize_per_channel",
        "why": "held-out: NumPy, scales per row",
        "source": """
def quantize_per_channel(w):
    w = np.asarray(w, dtype=np.float32)
    peak = np.abs(w).max(axis=1, keepdims=True)
    scale = np.where(peak > 0, peak / np.float32(127), np.float32(1)).astype(np.float32)
    return np.clip(np.rint(w / scale), -127, 127).astype(np.int8), scale
""",
    },
    {
        "key": "03_int8_quantization:quantize_per_channel:truncates",
        "function": "quantize_per_channel",
        "why": "held-out: jnp.trunc",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    peak = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(peak == 0, jnp.float32(1.0), peak / 127.0).astype(jnp.float32)
    return jnp.clip(jnp.trunc(w / scale), -127, 127).astype(jnp.int8), scale
""",
    },
    {
        "key": "03_int8_quantization:quantize_per_tensor:scale-128",
        "function": "quantize_per_tensor",
        "why": "held-out: NumPy, one scale of 128 steps",
        "source": """
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    peak = np.float32(np.abs(w).max()) if w.size else np.float32(0)
    scale = np.float32(1.0) if peak == 0 else np.float32(peak / np.float32(128))
    q = np.clip(np.rint(w / scale), -127, 127).astype(np.int8)
    return q, np.asarray(scale, np.float32)
""",
    },
    {
        "key": "03_int8_quantization:dequantize:divides-by-scale",
        "function": "dequantize",
        "why": "held-out: q / scale",
        "source": """
def dequantize(q, scale):
    return (np.asarray(q, np.float32) / np.asarray(scale, np.float32)).astype(np.float32)
""",
    },
    {
        "key": "03_int8_quantization:dequantize:float64-result",
        "function": "dequantize",
        "why": "held-out: float() arithmetic in NumPy's default",
        "source": """
def dequantize(q, scale):
    return np.asarray(q).astype(float) * np.asarray(scale).astype(float)
""",
    },
    {
        "key": "03_int8_quantization:quantize_per_channel:max-not-abs",
        "function": "quantize_per_channel",
        "why": "held-out, second writer: NumPy, ndarray.max over the signed weights",
        "source": """
def quantize_per_channel(w):
    w32 = np.asarray(w, dtype=np.float32)
    top = w32.max(axis=0, keepdims=True)
    scale = np.where(top > 0, top / np.float32(127.0), np.float32(1.0)).astype(np.float32)
    q = np.clip(np.round(w32 / scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    {
        "key": "03_int8_quantization:quantize_per_tensor:no-zero-guard",
        "function": "quantize_per_tensor",
        "why": "held-out, second writer: jnp method chaining, scale straight from max/127",
        "source": """
def quantize_per_tensor(w):
    arr = jnp.asarray(w).astype(jnp.float32)
    scale = (jnp.abs(arr).max() / 127.0).astype(jnp.float32)
    codes = jnp.round(arr / scale)
    codes = jnp.clip(codes, -127, 127).astype(jnp.int8)
    return codes, scale
""",
    },
    {
        "key": "03_int8_quantization:dequantize:bfloat16-result",
        "function": "dequantize",
        "why": "held-out, second writer: both operands cast to jnp.bfloat16 to save memory",
        "source": """
def dequantize(q, scale):
    codes = jnp.asarray(q, dtype=jnp.bfloat16)
    step = jnp.asarray(scale, dtype=jnp.bfloat16)
    return codes * step
""",
    },
    {
        "key": "03_int8_quantization:w8a8_matmul:per-tensor-activations",
        "function": "w8a8_matmul",
        "why": "held-out, second writer: NumPy, np.rint, int32 np.matmul, one Python-level activation scale",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    xf = np.asarray(x, np.float32)
    peak = np.float32(np.abs(xf).max()) if xf.size else np.float32(0)
    s_x = np.float32(1.0) if peak == 0 else np.float32(peak / np.float32(127))
    q_x = np.clip(np.rint(xf / s_x), -127, 127).astype(np.int8)
    acc = np.matmul(q_x.astype(np.int32), np.asarray(q_w).astype(np.int32))
    return (acc.astype(np.float32) * s_x * np.asarray(s_w, np.float32)).astype(np.float32)
""",
    },
    {
        "key": "03_int8_quantization:granularity_errors:weight-error",
        "function": "granularity_errors",
        "why": "held-out, second writer: loop over (name, quantizer) pairs, float64 NumPy error of w_hat vs w",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    w64 = np.asarray(w, np.float64)
    out = {}
    for key, fn in [("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)]:
        q, s = fn(w)
        w_hat = np.asarray(dequantize(q, s), np.float64)
        out[key] = float(np.mean(np.abs(w_hat - w64)))
    return out
""",
    },
]
