"""Independent student answers for lesson 03_int8_quantization (train set).

Written from the student notebook and COURSE.md only. Some mistakes follow public reports: int8 x
int8 matmuls that return int8 and wrap (jax-ml/jax #4465, triton-lang/triton #2296, and NumPy's
int8 matmul in triton-lang/triton #3566), and PyTorch-style observers that clamp the scale to
float32 eps instead of guarding only all-zero channels.
"""

ANSWERS = [
    # ------------------------------------------------------------ quantize_per_channel
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "takes the max over axis=1 (one scale per row / input feature) instead of per output column",
     "source": '''
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.max(jnp.abs(w), axis=1, keepdims=True)
    scale = jnp.where(amax == 0, 1.0, amax / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "no zero-column guard: an all-zero column gets scale 0 (its codes come out 0 after the NaN cast)",
     "source": '''
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale.astype(jnp.float32)
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "divides the max by 128 (thinking of the int8 range -128..127), clipping to -128..127",
     "source": '''
def quantize_per_channel(w):
    w = np.asarray(w, np.float32)
    amax = np.abs(w).max(axis=0, keepdims=True)
    scale = np.where(amax == 0, np.float32(1.0), amax / np.float32(128)).astype(np.float32)
    q = np.clip(np.round(w / scale), -128, 127).astype(np.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "PyTorch-observer style guard: clamps the scale to at least float32 eps, which breaks tiny (but non-zero) columns",
     "source": '''
def quantize_per_channel(w):
    w = np.asarray(w, np.float32)
    amax = np.max(np.abs(w), axis=0, keepdims=True)
    scale = np.maximum(amax / np.float32(127), np.finfo(np.float32).eps).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "truncates toward zero (astype int8 without rounding) instead of rounding to nearest",
     "source": '''
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.abs(w).max(axis=0, keepdims=True)
    scale = jnp.where(amax > 0, amax / 127, 1.0).astype(jnp.float32)
    q = jnp.clip(w / scale, -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "wrong",
     "why": "forgets keepdims: scale has shape (N,) instead of (1, N)",
     "source": '''
def quantize_per_channel(w):
    w = np.asarray(w, dtype=np.float32)
    amax = np.abs(w).max(axis=0)
    scale = np.where(amax == 0, 1.0, amax / 127).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
'''},
    {"function": "quantize_per_channel", "intent": "correct",
     "why": "column loop in NumPy, float64 scale converted to float32",
     "source": '''
def quantize_per_channel(w):
    w = np.asarray(w)
    K, N = w.shape
    scale = np.ones((1, N), np.float32)
    for j in range(N):
        m = float(np.max(np.abs(w[:, j].astype(np.float64))))
        if m > 0:
            scale[0, j] = np.float32(m / 127.0)
    q = np.clip(np.rint(w.astype(np.float32) / scale), -127, 127).astype(np.int8)
    return q, scale
'''},
    # ------------------------------------------------------------ quantize_per_tensor
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": "uses max(w) instead of max(|w|): a negative extreme is not covered and gets clipped",
     "source": '''
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(w)
    scale = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": "asymmetric-range thinking: scale = (max - min) / 255 instead of max|w| / 127",
     "source": '''
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    rng = np.float32(w.max() - w.min())
    scale = np.float32(1.0) if rng == 0 else np.float32(rng / np.float32(255))
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, np.asarray(scale, np.float32)
'''},
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": "keeps the reduced dims: scale has shape (1, 1) instead of ()",
     "source": '''
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    amax = jnp.max(jnp.abs(w), keepdims=True)
    scale = jnp.where(amax == 0, 1.0, amax / 127).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
'''},
    {"function": "quantize_per_tensor", "intent": "wrong",
     "why": "no all-zero guard: an all-zero tensor gets scale 0",
     "source": '''
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    scale = np.float32(np.abs(w).max() / np.float32(127))
    with np.errstate(invalid="ignore"):
        q = np.nan_to_num(np.round(w / scale))
    q = np.clip(q, -127, 127).astype(np.int8)
    return q, np.asarray(scale, dtype=np.float32)
'''},
    {"function": "quantize_per_tensor", "intent": "correct",
     "why": "jnp version with a 0-d float32 scale from where()",
     "source": '''
def quantize_per_tensor(w):
    w32 = jnp.asarray(w).astype(jnp.float32)
    amax = jnp.max(jnp.abs(w32))
    scale = jnp.where(amax > 0, amax / jnp.float32(127), jnp.float32(1)).astype(jnp.float32)
    q = jnp.clip(jnp.round(w32 / scale), -127, 127).astype(jnp.int8)
    return q, scale
'''},
    # ------------------------------------------------------------ dequantize
    {"function": "dequantize", "intent": "wrong",
     "why": "no cast: int8 codes times a float64 scale (or a Python float) give float64",
     "source": '''
def dequantize(q, scale):
    return np.asarray(q) * np.asarray(scale)
'''},
    {"function": "dequantize", "intent": "wrong",
     "why": "divides the codes by the scale (inverts quantize's division the wrong way)",
     "source": '''
def dequantize(q, scale):
    return (jnp.asarray(q, jnp.float32) / jnp.asarray(scale, jnp.float32)).astype(jnp.float32)
'''},
    # ------------------------------------------------------------ w8a8_matmul
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "int8 x int8 jnp.dot without preferred_element_type: the result is int8 and wraps",
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
     "why": "accumulates in int16 (preferred_element_type=jnp.int16), which overflows for larger K",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    amax = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(amax == 0, 1.0, amax / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int16)
    return acc.astype(jnp.float32) * s_x * jnp.asarray(s_w, jnp.float32)
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "one per-tensor activation scale instead of one scale per row",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    amax = jnp.max(jnp.abs(x))
    s_x = jnp.where(amax == 0, 1.0, amax / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int32)
    return (acc.astype(jnp.float32) * s_x * jnp.asarray(s_w, jnp.float32)).astype(jnp.float32)
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "rescales by the weight scale only, forgetting the activation scale s_x",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = np.asarray(x, np.float32)
    amax = np.abs(x).max(axis=1, keepdims=True)
    s_x = np.where(amax == 0, np.float32(1), amax / np.float32(127)).astype(np.float32)
    q_x = np.clip(np.round(x / s_x), -127, 127).astype(np.int8)
    acc = q_x.astype(np.int32) @ np.asarray(q_w).astype(np.int32)
    return (acc.astype(np.float32) * np.asarray(s_w, np.float32)).astype(np.float32)
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "NumPy int8 @ int8 matmul: NumPy keeps int8 and wraps modulo 256",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = np.asarray(x, np.float32)
    amax = np.abs(x).max(axis=1, keepdims=True)
    s_x = np.where(amax == 0, np.float32(1), amax / np.float32(127)).astype(np.float32)
    q_x = np.clip(np.round(x / s_x), -127, 127).astype(np.int8)
    acc = np.matmul(q_x, np.asarray(q_w, np.int8))
    return (acc.astype(np.float32) * s_x * np.asarray(s_w, np.float32)).astype(np.float32)
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "fake-quant: dequantizes both operands and multiplies as a float32 jnp.dot at DEFAULT precision (one bf16 pass on a TPU)",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    amax = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(amax == 0, 1.0, amax / 127.0)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    x_hat = q_x.astype(jnp.float32) * s_x
    w_hat = jnp.asarray(q_w).astype(jnp.float32) * jnp.asarray(s_w, jnp.float32)
    return jnp.dot(x_hat, w_hat)
'''},
    {"function": "w8a8_matmul", "intent": "wrong",
     "why": "activation scales per column (axis=0, like the weights) instead of per row",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = np.asarray(x, np.float32)
    amax = np.abs(x).max(axis=0, keepdims=True)
    s_x = np.where(amax == 0, np.float32(1), amax / np.float32(127)).astype(np.float32)
    q_x = np.clip(np.round(x / s_x), -127, 127).astype(np.int8)
    acc = q_x.astype(np.int64) @ np.asarray(q_w).astype(np.int64)
    row_scale = s_x.max() * np.ones((x.shape[0], 1), np.float32)
    return (acc.astype(np.float32) * row_scale * np.asarray(s_w, np.float32)).astype(np.float32)
'''},
    {"function": "w8a8_matmul", "intent": "correct",
     "why": "lax.dot_general with int32 preferred_element_type; per-row scales guarded",
     "source": '''
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    amax = jnp.max(jnp.abs(x), axis=-1, keepdims=True)
    s_x = jnp.where(amax > 0, amax / jnp.float32(127), jnp.float32(1))
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jax.lax.dot_general(q_x, jnp.asarray(q_w, jnp.int8), (((1,), (0,)), ((), ())),
                              preferred_element_type=jnp.int32)
    return acc.astype(jnp.float32) * s_x * jnp.asarray(s_w, jnp.float32)
'''},
    # ------------------------------------------------------------ granularity_errors
    {"function": "granularity_errors", "intent": "wrong",
     "why": "both products as plain jnp.dot at DEFAULT precision (one bf16 pass on a TPU)",
     "source": '''
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        out[name] = float(jnp.mean(jnp.abs(jnp.dot(x, dequantize(q, s)) - ref)))
    return out
'''},
    {"function": "granularity_errors", "intent": "wrong",
     "why": "multiplies row 0 by 10 instead of column 0",
     "source": '''
def granularity_errors(seed=9):
    w = np.asarray(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[0, :] *= np.float32(10)
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    ref = x @ w.astype(np.float64)
    res = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        res[name] = float(np.mean(np.abs(x @ np.asarray(dequantize(q, s), np.float64) - ref)))
    return res
'''},
    {"function": "granularity_errors", "intent": "wrong",
     "why": "draws x and w from one split of PRNGKey(seed) instead of PRNGKey(seed) and PRNGKey(seed + 1)",
     "source": '''
def granularity_errors(seed=9):
    kw, kx = jax.random.split(jax.random.PRNGKey(seed))
    w = jax.random.normal(kw, (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(kx, (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    res = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        y = jnp.dot(x, dequantize(q, s), precision=jax.lax.Precision.HIGHEST)
        res[name] = float(jnp.mean(jnp.abs(y - ref)))
    return res
'''},
    {"function": "granularity_errors", "intent": "wrong",
     "why": "reports the max abs error instead of the mean abs error",
     "source": '''
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    x64, w64 = np.asarray(x, np.float64), np.asarray(w, np.float64)
    ref = x64 @ w64
    res = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = fn(w)
        res[name] = float(np.max(np.abs(x64 @ np.asarray(dequantize(q, s), np.float64) - ref)))
    return res
'''},
    {"function": "granularity_errors", "intent": "correct",
     "why": "self-contained float64 version with its own quantizers",
     "source": '''
def granularity_errors(seed=9):
    w = np.asarray(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2)
    w = w.copy()
    w[:, 0] = w[:, 0] * np.float32(10.0)
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32))
    exact = x.astype(np.float64) @ w.astype(np.float64)
    def fake_quant(scale):
        scale = np.where(scale == 0, np.float32(1), scale).astype(np.float32)
        q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        return (q.astype(np.float32) * scale).astype(np.float32)
    col = fake_quant(np.abs(w).max(axis=0, keepdims=True) / np.float32(127))
    ten = fake_quant(np.asarray(np.abs(w).max() / np.float32(127), np.float32))
    err = lambda wq: float(np.mean(np.abs(x.astype(np.float64) @ wq.astype(np.float64) - exact)))
    return {"per_channel": err(col), "per_tensor": err(ten)}
'''},
]
