"""Held-out wrong answers for 02_matmul_accumulation (see README.md)."""

HELDOUT = [
    {
        "key": "02_matmul_accumulation:emulated_bf16_accumulation:f32-accumulator",
        "function": "emulated_bf16_accumulation",
        "why": "held-out: one float32 matmul of the bf16 inputs, then one rounding",
        "source": """
def emulated_bf16_accumulation(x, w):
    to_bf16 = lambda a: np.asarray(a, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    xb, wb = to_bf16(x), to_bf16(w)
    out = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        out += xb[:, k:k + 1] * wb[k:k + 1, :]
    return out.astype(ml_dtypes.bfloat16).astype(np.float32)
""",
    },
    {
        "key": "02_matmul_accumulation:emulated_bf16_accumulation:float16-accumulator",
        "function": "emulated_bf16_accumulation",
        "why": "held-out: a float16 running sum",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    m, kk = xb.shape
    n = wb.shape[1]
    acc = np.zeros((m, n), np.float16)
    for k in range(kk):
        acc = (acc.astype(np.float32) + xb[:, k][:, None] * wb[k][None, :]).astype(np.float16)
    return acc.astype(np.float32)
""",
    },
    {
        "key": "02_matmul_accumulation:emulated_bf16_accumulation:inputs-not-rounded",
        "function": "emulated_bf16_accumulation",
        "why": "held-out: float32 inputs as they are",
        "source": """
def emulated_bf16_accumulation(x, w):
    a, b = np.asarray(x, np.float32), np.asarray(w, np.float32)
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(a.shape[1]):
        acc = (acc + np.outer(a[:, k], b[k])).astype(ml_dtypes.bfloat16).astype(np.float32)
    return acc
""",
    },
    {
        "key": "02_matmul_accumulation:evaluate_precision_policies:scale-128",
        "function": "evaluate_precision_policies",
        "why": "held-out, second writer: seed_data/exact_matmul helpers, NumPy int8 path, row() helper, /128",
        "source": """
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    exact = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    y_f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    y_b16 = y_f32.astype(jnp.bfloat16)

    w_np = np.asarray(w, np.float32)
    amax = np.abs(w_np).max(axis=0, keepdims=True)
    scale = np.where(amax > 0, amax / np.float32(128), np.float32(1)).astype(np.float32)
    codes = np.clip(np.round(w_np / scale), -127, 127).astype(np.int8)
    y_i8 = np.asarray(x, np.float64) @ (codes.astype(np.float64) * scale.astype(np.float64))

    K, N = w_np.shape

    def row(label, y, wbytes, sbytes):
        d = np.abs(np.asarray(y, np.float64) - exact)
        return {"policy": label, "max_abs_err": round(float(d.max()), 5),
                "mean_abs_err": round(float(d.mean()), 5),
                "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)}

    return [
        row("bf16 x bf16 products, f32 accumulate, f32 result", y_f32, 2 * K * N, 0),
        row("bf16 inputs, f32 accumulate, result rounded to bf16", y_b16, 2 * K * N, 0),
        row("int8 weights with per-column scales, f32 activations and f32 sums", y_i8, K * N, 4 * N),
    ]
""",
    },
    {
        "key": "02_matmul_accumulation:evaluate_precision_policies:int8-bytes-with-scales",
        "function": "evaluate_precision_policies",
        "why": "held-out, second writer: all-jnp, f64 error via np, tuple table, int8 bytes = codes + scales",
        "source": """
def evaluate_precision_policies(seed=0):
    ka, kb = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(ka, (64, 256), dtype=jnp.float32)
    w = 0.25 * jax.random.normal(kb, (256, 64), dtype=jnp.float32)
    ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)

    x16 = x.astype(jnp.bfloat16)
    w16 = w.astype(jnp.bfloat16)
    acc32 = jnp.dot(x16, w16, preferred_element_type=jnp.float32)
    out16 = acc32.astype(jnp.bfloat16)

    peak = jnp.abs(w).max(axis=0)
    step = jnp.where(peak == 0, 1.0, peak / 127.0)
    q = jnp.clip(jnp.round(w / step), -127, 127).astype(jnp.int8)
    w_hat = q.astype(jnp.float32) * step
    out_q = jnp.dot(x, w_hat, precision=jax.lax.Precision.HIGHEST)

    n_w = w.shape[0] * w.shape[1]
    n_s = step.shape[0]
    table = [
        ("bf16 in, fp32 accumulation, fp32 out", acc32, 2 * n_w, 0),
        ("bf16 in, fp32 accumulation, output rounded to bf16", out16, 2 * n_w, 0),
        ("int8 per-column weights, fp32 accumulation", out_q, n_w + 4 * n_s, 4 * n_s),
    ]
    rows = []
    for name, y, wb, sb in table:
        e = np.abs(np.asarray(y).astype(np.float64) - ref)
        rows.append({"policy": name, "max_abs_err": round(float(np.max(e)), 5),
                     "mean_abs_err": round(float(np.mean(e)), 5),
                     "weight_bytes": int(wb), "scale_bytes": int(sb)})
    return rows
""",
    },
    {
        "key": "02_matmul_accumulation:emulated_bf16_accumulation:right-to-left",
        "function": "emulated_bf16_accumulation",
        "why": "held-out, second writer: bf16-typed accumulator array, reversed range loop, column/row slicing",
        "source": """
def emulated_bf16_accumulation(x, w):
    bf16 = ml_dtypes.bfloat16
    a = np.asarray(x, dtype=np.float32).astype(bf16).astype(np.float32)
    b = np.asarray(w, dtype=np.float32).astype(bf16).astype(np.float32)
    m, depth = a.shape
    n = b.shape[1]
    total = np.zeros((m, n), dtype=bf16)
    for k in range(depth - 1, -1, -1):
        term = a[:, k][:, None] * b[k, :][None, :]
        total = (total.astype(np.float32) + term).astype(bf16)
    return total.astype(np.float32)
""",
    },
    {
        "key": "02_matmul_accumulation:emulated_bf16_accumulation:products-rounded",
        "function": "emulated_bf16_accumulation",
        "why": "held-out, second writer: everything kept as ml_dtypes bf16 arrays, np.multiply.outer",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16)
    M, K = xb.shape
    N = wb.shape[1]
    s = np.zeros((M, N), ml_dtypes.bfloat16)
    for k in range(K):
        s = s + np.multiply.outer(xb[:, k], wb[k])
    return s.astype(np.float32)
""",
    },
    {
        "key": "02_matmul_accumulation:accumulation_error_curve:mean-not-max",
        "function": "accumulation_error_curve",
        "why": "held-out, second writer: seed_data(seed, k=K) and exact_matmul helpers, zip over names, mean",
        "source": """
def accumulation_error_curve(ks, seed=0):
    result = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        ref = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        outs = [f32, f32.astype(jnp.bfloat16), emulated_bf16_accumulation(x, w)]
        result["k"].append(int(K))
        for name, out in zip(["fp32_accum", "bf16_output", "bf16_accum"], outs):
            result[name].append(float(np.mean(np.abs(np.asarray(out, np.float64) - ref))))
    return result
""",
    },
]
