"""Independent held-out answers for lesson 03 (int8 quantization).

Written from the student notebook and COURSE.md only (plus public reports of zero-scale guards
with an epsilon, e.g. GPTQModel#1531, and of int8 dots that wrap). Wrong answers each make one
mistake a student could plausibly make; correct answers are alternative implementations.
"""

ANSWERS = [
    # ---------------------------------------------------------------- quantize_per_channel
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "reduces over axis=1 (one scale per input row) instead of per output column", "source": '''
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.max(jnp.abs(w), axis=1, keepdims=True)
    scale = jnp.where(amax == 0, 1.0, amax / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "divides max|w| by 128 (thinking of the int8 range -128..127), then clips to 127",
     "source": '''
def quantize_per_channel(w):
    w = np.asarray(w, np.float32)
    amax = np.max(np.abs(w), axis=0, keepdims=True)
    scale = np.where(amax == 0, np.float32(1.0), amax / np.float32(128)).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "guards zero columns with a tiny epsilon floor on the scale (as some libraries do) instead of 1.0",
     "source": '''
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    scale = jnp.maximum(scale, 1e-8).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "no zero-column guard: the scale of an all-zero column stays 0 (JAX hides the 0/0 NaN codes as 0)",
     "source": '''
def quantize_per_channel(w):
    w = jnp.asarray(w, dtype=jnp.float32)
    scale = (jnp.max(jnp.abs(w), axis=0) / 127.0).reshape(1, -1)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "float64 input: computes the scale in float64 and never converts it to float32", "source": '''
def quantize_per_channel(w):
    w = np.asarray(w)
    amax = np.abs(w).max(axis=0, keepdims=True)
    scale = np.where(amax == 0, 1.0, amax / 127)
    q = np.clip(np.rint(w / scale), -127, 127).astype(np.int8)
    return q, scale.astype(w.dtype)
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "uses max(w) instead of max(|w|), so a column whose extreme is negative gets a wrong scale",
     "source": '''
def quantize_per_channel(w):
    w = np.asarray(w, dtype=np.float32)
    K, N = w.shape
    scale = np.ones((1, N), np.float32)
    for j in range(N):
        m = w[:, j].max()
        if m != 0:
            scale[0, j] = m / np.float32(127)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "correct",
     "why": "float64 computation, scale converted to float32 at the end, loop-free NumPy", "source": '''
def quantize_per_channel(w):
    w64 = np.asarray(w, dtype=np.float64)
    colmax = np.max(np.abs(w64), axis=0)
    scale = np.ones_like(colmax)
    nz = colmax > 0
    scale[nz] = colmax[nz] / 127.0
    scale = scale.astype(np.float32).reshape(1, -1)
    q = np.clip(np.round(w64 / scale.astype(np.float64)), -127, 127).astype(np.int8)
    return q, scale
'''},
    # ---------------------------------------------------------------- quantize_per_tensor
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": "keeps keepdims=True so the single scale has shape (1, 1) instead of ()", "source": '''
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    amax = np.max(np.abs(w), keepdims=True)
    scale = np.where(amax == 0, np.float32(1), amax / np.float32(127)).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
'''},
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": "no guard for an all-zero tensor: scale 0 (and 0/0 codes)", "source": '''
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    scale = (jnp.max(jnp.abs(w)) / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": "uses the full range (max - min) / 254 like an asymmetric quantizer instead of max|w| / 127",
     "source": '''
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    rng = np.float32(w.max() - w.min())
    scale = np.float32(1.0) if rng == 0 else np.float32(rng / np.float32(254))
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, np.asarray(scale, np.float32)
'''},
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": "returns the scale as a Python float (becomes float64), not a float32 array", "source": '''
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    m = float(np.abs(w).max())
    scale = m / 127 if m > 0 else 1.0
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
'''},
    # ---------------------------------------------------------------- dequantize
    {"function": "dequantize", "intent": "wrong",
     "why": "returns q * scale without casting, so a float64 scale (or Python float) gives float64",
     "source": '''
def dequantize(q, scale):
    return np.asarray(q) * np.asarray(scale)
'''},
    {"function": "dequantize", "intent": "wrong",
     "why": "multiplies in float16 to save memory, then casts to float32: rounding and underflow of small scales",
     "source": '''
def dequantize(q, scale):
    out = np.asarray(q).astype(np.float16) * np.asarray(scale).astype(np.float16)
    return out.astype(np.float32)
'''},
    {"function": "dequantize", "intent": "correct",
     "why": "jax.numpy with explicit float32 conversion of both operands", "source": '''
def dequantize(q, scale):
    return jnp.asarray(q).astype(jnp.float32) * jnp.asarray(scale, dtype=jnp.float32)
'''},
    # ---------------------------------------------------------------- w8a8_matmul
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "jnp.dot(int8, int8) without preferred_element_type: the accumulator is int8 and wraps",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    amax = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(amax == 0, 1.0, amax / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8))
    return (acc.astype(jnp.float32) * s_x * jnp.asarray(s_w, jnp.float32)).astype(jnp.float32)
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "one activation scale for the whole x (per tensor) instead of one per row", "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    amax = jnp.max(jnp.abs(x))
    s_x = jnp.where(amax == 0, 1.0, amax / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w), preferred_element_type=jnp.int32)
    return acc.astype(jnp.float32) * s_x * s_w
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "accumulates in int16 (thinking 127*127 fits), which overflows for larger K", "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    amax = jnp.max(jnp.abs(x), axis=-1, keepdims=True)
    s_x = jnp.where(amax == 0, 1.0, amax / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int16)
    return (acc.astype(jnp.float32) * s_x * s_w).astype(jnp.float32)
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "activation scale max/128 and a NumPy astype(int8) without clip: the row maximum wraps to -128",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = np.asarray(x, np.float32)
    amax = np.max(np.abs(x), axis=1, keepdims=True)
    s_x = np.where(amax == 0, np.float32(1), amax / np.float32(128)).astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        q_x = np.round(x / s_x).astype(np.int8)
    acc = q_x.astype(np.int32) @ np.asarray(q_w).astype(np.int32)
    return (acc.astype(np.float32) * s_x * np.asarray(s_w, np.float32)).astype(np.float32)
'''},
    {"function": "w8a8_matmul", "intent": "correct",
     "why": "NumPy with an int64 accumulator (exact) and float64 rescale, cast to float32", "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = np.asarray(x, dtype=np.float32)
    row_max = np.abs(x).max(axis=1, keepdims=True)
    s_x = np.where(row_max > 0, row_max / np.float32(127), np.float32(1.0)).astype(np.float32)
    q_x = np.clip(np.round(x / s_x), -127, 127).astype(np.int8)
    acc = q_x.astype(np.int64) @ np.asarray(q_w).astype(np.int64)
    out = acc.astype(np.float64) * s_x.astype(np.float64) * np.asarray(s_w, np.float64)
    return out.astype(np.float32)
'''},
    # ---------------------------------------------------------------- granularity_errors
    {"function": "granularity_errors", "intent": "wrong",
     "why": "both products at DEFAULT precision (jnp.dot), a bf16 pass on TPU", "source": '''
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w)
    out = {}
    for name, fn in [("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)]:
        q, s = fn(w)
        y = jnp.dot(x, jnp.asarray(dequantize(q, s)))
        out[name] = float(jnp.mean(jnp.abs(y - ref)))
    return out
'''},
    {"function": "granularity_errors", "intent": "wrong",
     "why": "multiplies row 0 by 10 instead of column 0", "source": '''
def granularity_errors(seed=9):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2)
    w[0, :] *= 10
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32))
    ref = x.astype(np.float64) @ w.astype(np.float64)
    res = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        wh = np.asarray(dequantize(q, s), np.float64)
        res[name] = float(np.mean(np.abs(x.astype(np.float64) @ wh - ref)))
    return res
'''},
    {"function": "granularity_errors", "intent": "wrong",
     "why": "draws w and x from a split of PRNGKey(seed) (lesson 02 habit) instead of PRNGKey(seed) and PRNGKey(seed+1)",
     "source": '''
def granularity_errors(seed=9):
    kw, kx = jax.random.split(jax.random.PRNGKey(seed))
    w = jax.random.normal(kw, (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].set(w[:, 0] * 10)
    x = jax.random.normal(kx, (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    qc, sc = quantize_per_channel(w)
    qt, st = quantize_per_tensor(w)
    yc = jnp.dot(x, jnp.asarray(dequantize(qc, sc)), precision=jax.lax.Precision.HIGHEST)
    yt = jnp.dot(x, jnp.asarray(dequantize(qt, st)), precision=jax.lax.Precision.HIGHEST)
    return {"per_channel": float(jnp.mean(jnp.abs(yc - ref))), "per_tensor": float(jnp.mean(jnp.abs(yt - ref)))}
'''},
    {"function": "granularity_errors", "intent": "wrong",
     "why": "reports the max abs error instead of the mean abs error", "source": '''
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    H = jax.lax.Precision.HIGHEST
    ref = jnp.dot(x, w, precision=H)
    qc, sc = quantize_per_channel(w)
    qt, st = quantize_per_tensor(w)
    ec = jnp.abs(jnp.dot(x, jnp.asarray(dequantize(qc, sc)), precision=H) - ref)
    et = jnp.abs(jnp.dot(x, jnp.asarray(dequantize(qt, st)), precision=H) - ref)
    return {"per_channel": float(ec.max()), "per_tensor": float(et.max())}
'''},
    {"function": "granularity_errors", "intent": "correct",
     "why": "float64 NumPy products, quantization written inline", "source": '''
def granularity_errors(seed=9):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2)
    w[:, 0] = w[:, 0] * np.float32(10)
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    ref = x @ w.astype(np.float64)

    def fake_quant(scale):
        scale = np.where(scale == 0, np.float32(1), scale).astype(np.float32)
        q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        return (q.astype(np.float32) * scale).astype(np.float64)

    per_ch = fake_quant(np.max(np.abs(w), axis=0, keepdims=True) / np.float32(127))
    per_t = fake_quant(np.asarray(np.max(np.abs(w)) / np.float32(127), np.float32))
    return {"per_channel": float(np.mean(np.abs(x @ per_ch - ref))),
            "per_tensor": float(np.mean(np.abs(x @ per_t - ref)))}
'''},
    # ---------------------------------------------------------------- a blind writer (2026-12-07):
    # the student notebook only, never the library, the solutions or the hidden tests
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": 'Guards against division by zero with a small epsilon floor on the scale (max(., 1e-8)) instead of giving exactly the all-zero columns a scale of 1.0, which also clamps tiny columns.',
     "source": '''
def quantize_per_channel(w):
    w32 = np.asarray(w, dtype=np.float32)
    amax = np.max(np.abs(w32), axis=0, keepdims=True)
    # keep the scale away from zero so that w / scale never divides by 0
    scale = np.maximum(amax / np.float32(127), np.float32(1e-8)).astype(np.float32)
    q = np.clip(np.round(w32 / scale), -127, 127).astype(np.int8)
    return q, scale
'''},
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": 'Skips the round and lets the int8 cast do it, but the cast truncates toward zero instead of rounding to nearest.',
     "source": '''
def quantize_per_tensor(w):
    w = jnp.asarray(w, dtype=jnp.float32)
    amax = jnp.max(jnp.abs(w))
    scale = jnp.where(amax == 0, 1.0, amax / 127.0).astype(jnp.float32)
    q = jnp.clip(w / scale, -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": 'Accumulates the int8 codes in a float32 matmul, believing it exact because the codes are exact in float32, instead of an int8 x int8 dot with int32 accumulation.',
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = np.asarray(x, dtype=np.float32)
    amax = np.max(np.abs(x), axis=1, keepdims=True)
    s_x = np.where(amax == 0, np.float32(1), amax / np.float32(127)).astype(np.float32)
    q_x = np.clip(np.round(x / s_x), -127, 127).astype(np.int8)
    # int8 @ int8 would wrap around, so multiply the codes as float32, which holds them exactly
    acc = q_x.astype(np.float32) @ np.asarray(q_w).astype(np.float32)
    return (acc * s_x * np.asarray(s_w, dtype=np.float32)).astype(np.float32)
'''},
    {"function": "granularity_errors", "intent": "wrong",
     "why": 'Computes both products with plain float32 jnp matmuls at DEFAULT precision, which on a TPU round x and w to bf16, instead of HIGHEST or float64.',
     "source": '''
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    reference = x @ w
    result = {}
    for name, quantize in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = quantize(w)
        w_hat = jnp.asarray(dequantize(q, s), dtype=jnp.float32)
        result[name] = float(jnp.mean(jnp.abs(x @ w_hat - reference)))
    return result
'''},
]
