"""Correct answers for 03_int8_quantization that are not the reference solution (see docs/AUTHORING.md).

Written from COURSE.md's contracts and the student notebook alone, without the solutions or the
hidden tests, the way other students and instructors write them: NumPy or jax.numpy, loops or
vectorised, other valid readings where the contract is silent. Each one must get full marks
(tests/test_notebooks.py): the hidden tests test the contract, not the reference's habits.
"""

ALTERNATIVES = [
    # ------------------------------------------------------------------ quantize_per_channel
    {
        "function": "quantize_per_channel",
        "why": "NumPy, vectorised, np.where zero-column guard, keepdims",
        "source": """
def quantize_per_channel(w):
    w = np.asarray(w, dtype=np.float32)
    m = np.max(np.abs(w), axis=0, keepdims=True)
    scale = np.where(m == 0, np.float32(1.0), m / np.float32(127)).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    {
        "function": "quantize_per_channel",
        "why": "jax.numpy, additive guard m/127 + (m == 0), [None, :] instead of keepdims, JAX arrays out",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.abs(w).max(axis=0)[None, :]
    scale = m / 127.0 + (m == 0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "function": "quantize_per_channel",
        "why": "loop over columns, schoolbook rounding floor(z + 0.5) (ties up; the notebook says ties are not graded)",
        "source": """
def quantize_per_channel(w):
    w = np.asarray(w)
    K, N = w.shape
    q = np.zeros((K, N), dtype=np.int8)
    scale = np.ones((1, N), dtype=np.float32)
    for j in range(N):
        col = w[:, j].astype(np.float32)
        m = np.float32(np.abs(col).max())
        if m != 0:
            scale[0, j] = m / np.float32(127)
        z = (col / scale[0, j]).astype(np.float64)        # float32 quotient, rounded exactly
        q[:, j] = np.clip(np.floor(z + 0.5), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    {
        "function": "quantize_per_channel",
        "why": "float64 host math: max via inf-norm, codes rint(w * 127 / max) (the exact-math quotient), float32 scale out",
        "source": """
def quantize_per_channel(w):
    w64 = np.asarray(w, dtype=np.float64)
    m = np.linalg.norm(w64, ord=np.inf, axis=0, keepdims=True)   # max |w| per column
    safe = np.where(m > 0, m, 127.0)                               # all-zero column -> scale 1.0
    q = np.clip(np.rint(w64 * (127.0 / safe)), -127, 127).astype(np.int8)
    scale = (safe / 127.0).astype(np.float32)
    return q, scale
""",
    },
    {
        "function": "quantize_per_channel",
        "why": "jax.lax.round AWAY_FROM_ZERO (other tie rule), jnp.where(m > 0, ...) guard",
        "source": """
def quantize_per_channel(w):
    w = jnp.asarray(w, dtype=jnp.float32)
    m = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(m > 0, m / jnp.float32(127), jnp.float32(1))
    z = jax.lax.round(w / scale, jax.lax.RoundingMethod.AWAY_FROM_ZERO)
    q = jnp.clip(z, -127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    # ------------------------------------------------------------------ quantize_per_tensor
    {
        "function": "quantize_per_tensor",
        "why": "NumPy; the scale is a np.float32 scalar (shape (), dtype float32), as np.max returns it",
        "source": """
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    m = np.abs(w).max()
    scale = np.float32(m / np.float32(127)) if m != 0 else np.float32(1.0)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    {
        "function": "quantize_per_tensor",
        "why": "jax.numpy with jnp.where guard, 0-d JAX array scale",
        "source": """
def quantize_per_tensor(w):
    w = jnp.asarray(w, jnp.float32)
    m = jnp.max(jnp.abs(w))
    scale = jnp.where(m == 0, jnp.float32(1.0), m / 127)
    q = jnp.round(w / scale).clip(-127, 127).astype(jnp.int8)
    return q, scale
""",
    },
    {
        "function": "quantize_per_tensor",
        "why": "Python-float scale math (float64, correctly rounded to float32), 0-d np.ndarray scale",
        "source": """
def quantize_per_tensor(w):
    w = np.asarray(w, np.float32)
    m = float(np.max(np.abs(w)))
    scale = np.array(m / 127 if m > 0 else 1.0, dtype=np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale
""",
    },
    {
        "function": "quantize_per_tensor",
        "why": "reuses quantize_per_channel on w reshaped to one column, then reshapes back",
        "source": """
def quantize_per_tensor(w):
    q, s = quantize_per_channel(w.reshape(-1, 1))
    return q.reshape(w.shape), s.reshape(())
""",
    },
    {
        "function": "quantize_per_tensor",
        "why": "element-by-element pure-Python loop with Python round() (half-to-even) on float64 quotients",
        "source": """
def quantize_per_tensor(w):
    a = np.asarray(w, np.float32)
    flat = [float(v) for v in a.ravel()]
    m = max((abs(v) for v in flat), default=0.0)
    s = np.float32(m / 127) if m != 0 else np.float32(1.0)
    codes = [max(-127, min(127, round(v / float(s)))) for v in flat]
    return np.array(codes, dtype=np.int8).reshape(a.shape), np.asarray(s, dtype=np.float32)
""",
    },
    # ------------------------------------------------------------------ dequantize
    {
        "function": "dequantize",
        "why": "NumPy astype(float32) times float32 scale",
        "source": """
def dequantize(q, scale):
    return np.asarray(q).astype(np.float32) * np.asarray(scale, dtype=np.float32)
""",
    },
    {
        "function": "dequantize",
        "why": "jax.numpy, JAX float32 result",
        "source": """
def dequantize(q, scale):
    return jnp.asarray(q, jnp.float32) * jnp.asarray(scale, jnp.float32)
""",
    },
    {
        "function": "dequantize",
        "why": "product in float64 (exact: 8-bit x 24-bit), then rounded once to float32 (= the float32 product)",
        "source": """
def dequantize(q, scale):
    prod = np.asarray(q, np.float64) * np.asarray(scale, np.float64)
    return prod.astype(np.float32)
""",
    },
    {
        "function": "dequantize",
        "why": "np.multiply with dtype=float32",
        "source": """
def dequantize(q, scale):
    return np.multiply(np.asarray(q), np.asarray(scale), dtype=np.float32)
""",
    },
    {
        "function": "dequantize",
        "why": "jax.lax.convert_element_type then multiply",
        "source": """
def dequantize(q, scale):
    qf = jax.lax.convert_element_type(jnp.asarray(q), jnp.float32)
    return qf * jax.lax.convert_element_type(jnp.asarray(scale), jnp.float32)
""",
    },
    # ------------------------------------------------------------------ w8a8_matmul
    {
        "function": "w8a8_matmul",
        "why": "jnp.dot(int8, int8, preferred_element_type=int32), acc * s_x * s_w",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.max(jnp.abs(x), axis=1, keepdims=True)
    s_x = jnp.where(m == 0, 1.0, m / 127.0).astype(jnp.float32)
    q_x = jnp.clip(jnp.round(x / s_x), -127, 127).astype(jnp.int8)
    acc = jnp.dot(q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int32)
    return (acc.astype(jnp.float32) * s_x * jnp.asarray(s_w, jnp.float32)).astype(jnp.float32)
""",
    },
    {
        "function": "w8a8_matmul",
        "why": "NumPy: int8 codes widened to int32 and matmul'd on the host (exact int32 accumulation)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = np.asarray(x, np.float32)
    m = np.abs(x).max(axis=1, keepdims=True)
    s_x = np.where(m == 0, np.float32(1), m / np.float32(127)).astype(np.float32)
    q_x = np.clip(np.round(x / s_x), -127, 127).astype(np.int8)
    acc = q_x.astype(np.int32) @ np.asarray(q_w).astype(np.int32)
    return acc.astype(np.float32) * s_x * np.asarray(s_w, np.float32)
""",
    },
    {
        "function": "w8a8_matmul",
        "why": "reuses quantize_per_channel(x.T) for per-row scales; lax.dot_general int32; acc * (s_x * s_w)",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    q_xt, s_xt = quantize_per_channel(jnp.asarray(x, jnp.float32).T)
    q_x, s_x = jnp.asarray(q_xt).T, jnp.asarray(s_xt).T           # (M, K) int8, (M, 1)
    acc = jax.lax.dot_general(q_x, jnp.asarray(q_w), (((1,), (0,)), ((), ())),
                              preferred_element_type=jnp.int32)
    return acc.astype(jnp.float32) * (s_x * jnp.asarray(s_w, jnp.float32))
""",
    },
    {
        "function": "w8a8_matmul",
        "why": "row loop on the host, int32 dot per row, rescale in float64 then one rounding to float32",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = np.asarray(x, np.float32)
    qw = np.asarray(q_w).astype(np.int32)
    sw = np.asarray(s_w, np.float32).astype(np.float64)
    out = np.empty((x.shape[0], qw.shape[1]), np.float32)
    for i, row in enumerate(x):
        m = np.float32(np.max(np.abs(row)))
        s = m / np.float32(127) if m != 0 else np.float32(1)
        q = np.clip(np.round(row / s), -127, 127).astype(np.int8)
        acc = q.astype(np.int32) @ qw                               # exact int32
        out[i] = (acc.astype(np.float64) * np.float64(s) * sw[0]).astype(np.float32)
    return out
""",
    },
    {
        "function": "w8a8_matmul",
        "why": "jnp.einsum with preferred_element_type=int32",
        "source": """
def w8a8_matmul(x, q_w, s_w):
    x = jnp.asarray(x, jnp.float32)
    m = jnp.abs(x).max(axis=-1, keepdims=True)
    s_x = jnp.where(m > 0, m / jnp.float32(127), jnp.float32(1))
    q_x = jnp.round(x / s_x).clip(-127, 127).astype(jnp.int8)
    acc = jnp.einsum("mk,kn->mn", q_x, jnp.asarray(q_w, jnp.int8), preferred_element_type=jnp.int32)
    return acc * s_x * s_w
""",
    },
    # ------------------------------------------------------------------ granularity_errors
    {
        "function": "granularity_errors",
        "why": "float64 NumPy products on the host, w copied to NumPy and column 0 scaled in place",
        "source": """
def granularity_errors(seed=9):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2)
    w[:, 0] *= np.float32(10)
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    ref = x @ w.astype(np.float64)
    out = {}
    for name, quant in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        q, s = quant(w)
        y = x @ np.asarray(dequantize(q, s), np.float64)
        out[name] = float(np.mean(np.abs(y - ref)))
    return out
""",
    },
    {
        "function": "granularity_errors",
        "why": "jnp.dot(..., precision=HIGHEST), .at[:, 0].multiply(10), float() of a JAX scalar",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    q_c, s_c = quantize_per_channel(w)
    q_t, s_t = quantize_per_tensor(w)
    y_c = jnp.dot(x, jnp.asarray(dequantize(q_c, s_c)), precision=jax.lax.Precision.HIGHEST)
    y_t = jnp.dot(x, jnp.asarray(dequantize(q_t, s_t)), precision=jax.lax.Precision.HIGHEST)
    return {"per_channel": float(jnp.mean(jnp.abs(y_c - ref))),
            "per_tensor": float(jnp.mean(jnp.abs(y_t - ref)))}
""",
    },
    {
        "function": "granularity_errors",
        "why": "x @ w under the jax.default_matmul_precision('highest') context manager",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].set(w[:, 0] * 10)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    with jax.default_matmul_precision("highest"):
        ref = x @ w
        errs = {}
        for name, quant in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
            w_hat = jnp.asarray(dequantize(*quant(w)))
            errs[name] = float(jnp.mean(jnp.abs(x @ w_hat - ref)))
    return errs
""",
    },
    {
        "function": "granularity_errors",
        "why": "jnp.matmul with precision='highest' (string form) and the error as x @ (w_hat - w) in float32",
        "source": """
def granularity_errors(seed=9):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    res = {}
    for name, quant in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        delta = jnp.asarray(dequantize(*quant(w))) - w          # exact: both on the same float32 grid
        res[name] = float(jnp.mean(jnp.abs(jnp.matmul(x, delta, precision="highest"))))
    return res
""",
    },
    {
        "function": "granularity_errors",
        "why": "own inline per-channel / per-tensor quantization, float64 np.einsum, np.float64 values (a float subclass)",
        "source": """
def granularity_errors(seed=9):
    w = np.asarray(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] = w[:, 0] * np.float32(10)
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    ref = np.einsum("mk,kn->mn", x, w.astype(np.float64))
    m_c = np.abs(w).max(axis=0, keepdims=True)
    s_c = np.where(m_c == 0, np.float32(1), m_c / np.float32(127))
    m_t = np.abs(w).max()
    s_t = m_t / np.float32(127) if m_t != 0 else np.float32(1)
    out = {}
    for name, s in (("per_channel", s_c), ("per_tensor", s_t)):
        w_hat = np.clip(np.round(w / s), -127, 127).astype(np.int8).astype(np.float32) * s
        out[name] = np.mean(np.abs(np.einsum("mk,kn->mn", x, w_hat.astype(np.float64)) - ref))
    return out
""",
    },
]
