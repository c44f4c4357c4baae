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
]
