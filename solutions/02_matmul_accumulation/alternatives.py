"""Correct answers for 02_matmul_accumulation that are not the reference solution (see docs/AUTHORING.md).

Written from COURSE.md's contracts and the student notebook alone, without the solutions or the
hidden tests, the way other students and instructors write them: NumPy or jax.numpy, loops or
vectorised, other valid readings where the contract is silent. Each one must get full marks
(tests/test_notebooks.py): the hidden tests test the contract, not the reference's habits.
"""

ALTERNATIVES = [
    {
        "function": "evaluate_precision_policies",
        "why": "jax.numpy throughout, f32 reference at HIGHEST, diffs and means in f32, round(float, 5)",
        "source": """def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    out_f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    out_bf16 = jnp.dot(xb, wb, preferred_element_type=jnp.float32).astype(jnp.bfloat16)
    col_max = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(col_max == 0, 1.0, col_max / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    out_int8 = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = [
        ("bf16 inputs, f32 accumulation", out_f32, int(wb.size) * 2, 0),
        ("bf16 inputs, f32 accumulation, bf16 output", out_bf16, int(wb.size) * 2, 0),
        ("int8 per-column weights, f32 accumulation", out_int8, int(q.size), int(scale.size) * 4),
    ]
    results = []
    for label, out, wbytes, sbytes in rows:
        diff = jnp.abs(out.astype(jnp.float32) - ref)
        results.append({"policy": label,
                        "max_abs_err": round(float(jnp.max(diff)), 5),
                        "mean_abs_err": round(float(jnp.mean(diff)), 5),
                        "weight_bytes": wbytes, "scale_bytes": sbytes})
    return results
""",
    },
    {
        "function": "evaluate_precision_policies",
        "why": "NumPy float64 on the host for the reference, the int8 path and the error statistics",
        "source": """def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = np.asarray(jax.random.normal(k1, (64, 256), dtype=jnp.float32))
    w = np.asarray(jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25)
    ref = x.astype(np.float64) @ w.astype(np.float64)
    xb = jnp.asarray(x).astype(jnp.bfloat16)
    wb = jnp.asarray(w).astype(jnp.bfloat16)
    acc = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    out1 = np.asarray(acc, np.float64)
    out2 = np.asarray(acc.astype(jnp.bfloat16).astype(jnp.float32), np.float64)
    amax = np.abs(w).max(axis=0)
    scale = np.where(amax == 0, np.float32(1.0), amax / np.float32(127)).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    deq = (q.astype(np.float32) * scale).astype(np.float64)
    out3 = x.astype(np.float64) @ deq

    def stats(out):
        d = np.abs(out - ref)
        return round(float(d.max()), 5), round(float(d.mean()), 5)

    labels = ["bf16 in / fp32 accum / fp32 out",
              "bf16 in / fp32 accum / bf16 out",
              "int8 per-channel weights / fp32 accum"]
    wbytes = [2 * w.size, 2 * w.size, q.size]
    sbytes = [0, 0, 4 * scale.size]
    table = []
    for label, out, wb_, sb_ in zip(labels, (out1, out2, out3), wbytes, sbytes):
        mx, mn = stats(out)
        table.append(dict(policy=label, max_abs_err=mx, mean_abs_err=mn,
                          weight_bytes=int(wb_), scale_bytes=int(sb_)))
    return table
""",
    },
    {
        "function": "evaluate_precision_policies",
        "why": "uses the notebook helpers seed_data/exact_matmul; int8 output as (x @ q) * scale in float64; bytes from .nbytes",
        "source": """def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    p1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    p2 = p1.astype(jnp.bfloat16)
    w_np = np.asarray(w)
    col = np.max(np.abs(w_np), axis=0, keepdims=True)
    scale = np.where(col == 0, 1.0, col / 127.0).astype(np.float32)
    q = np.clip(np.round(w_np / scale), -127, 127).astype(np.int8)
    p3 = (np.asarray(x, np.float64) @ q.astype(np.float64)) * scale.astype(np.float64)
    policies = [
        ("bf16 x bf16 -> float32 output (float32 accumulation)", p1, int(wb.nbytes), 0),
        ("bf16 x bf16 -> bfloat16 output (float32 accumulation)", p2, int(wb.nbytes), 0),
        ("int8 per-column weight-only, float32 accumulation", p3, int(q.nbytes), int(scale.nbytes)),
    ]
    out = []
    for name, y, wbytes, sbytes in policies:
        err = np.abs(np.asarray(y, dtype=np.float64) - truth)
        out.append({"policy": name, "max_abs_err": round(float(np.max(err)), 5),
                    "mean_abs_err": round(float(np.mean(err)), 5),
                    "weight_bytes": wbytes, "scale_bytes": sbytes})
    return out
""",
    },
    {
        "function": "evaluate_precision_policies",
        "why": "errors as NumPy float64 scalars via np.round(v, 5) (a float subclass), otherwise standard",
        "source": """def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    cm = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(cm == 0, 1.0, cm / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    o3 = exact_matmul(x, q.astype(jnp.float32) * scale)
    out = []
    for label, t, wb_, sb in [("bf16 inputs, f32 accumulation", o1, 32768, 0),
                              ("bf16 inputs, f32 accumulation, bf16 output", o2, 32768, 0),
                              ("int8 per-column weights, f32 accumulation", o3, 16384, 256)]:
        d = np.abs(np.asarray(t, np.float64) - truth)
        out.append({"policy": label, "max_abs_err": np.round(d.max(), 5),
                    "mean_abs_err": np.round(d.mean(), 5), "weight_bytes": wb_, "scale_bytes": sb})
    return out
""",
    },
    {
        "function": "evaluate_precision_policies",
        "why": "terse but truthful labels ('bf16 in, f32 acc, bf16 out'), tuple-driven loop",
        "source": """def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    acc = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
    m = jnp.abs(w).max(axis=0)
    s = jnp.where(m == 0, 1.0, m / 127.0)
    q = jnp.clip(jnp.round(w / s), -127, 127).astype(jnp.int8)
    deq = np.asarray(q, np.float64) * np.asarray(s, np.float64)[None, :]
    specs = (("bf16 in, f32 acc, f32 out", np.asarray(acc, np.float64), 2, 0),
             ("bf16 in, f32 acc, bf16 out", np.asarray(acc.astype(jnp.bfloat16), np.float64), 2, 0),
             ("int8 per-column w, f32 acc", np.asarray(x, np.float64) @ deq, 1, 4 * 64))
    rows = []
    for name, y, per_weight, sbytes in specs:
        e = np.abs(y - exact)
        rows.append({"policy": name, "max_abs_err": round(float(e.max()), 5),
                     "mean_abs_err": round(float(e.mean()), 5),
                     "weight_bytes": per_weight * 256 * 64, "scale_bytes": sbytes})
    return rows
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "NumPy: bf16 running sum (ml_dtypes), float32 outer products, Python loop over k",
        "source": """def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    s = np.zeros((xb.shape[0], wb.shape[1]), dtype=ml_dtypes.bfloat16)
    for k in range(xb.shape[1]):
        s = (s.astype(np.float32) + np.outer(xb[:, k], wb[k, :])).astype(ml_dtypes.bfloat16)
    return s.astype(np.float32)
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "jax.lax.scan over k with a bfloat16 carry, jitted, returns a jax float32 array",
        "source": """def emulated_bf16_accumulation(x, w):
    x = jnp.asarray(x, jnp.float32).astype(jnp.bfloat16)
    w = jnp.asarray(w, jnp.float32).astype(jnp.bfloat16)

    @jax.jit
    def run(xb, wb):
        def step(acc, kw):
            xk, wk = kw
            prod = xk.astype(jnp.float32)[:, None] * wk.astype(jnp.float32)[None, :]
            return (acc.astype(jnp.float32) + prod).astype(jnp.bfloat16), None
        init = jnp.zeros((xb.shape[0], wb.shape[1]), jnp.bfloat16)
        acc, _ = jax.lax.scan(step, init, (xb.T, wb))
        return acc.astype(jnp.float32)

    return run(x, w)
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "adds in float64 (exact for bf16 sum + bf16 product) and rounds to bf16 once per step",
        "source": """def emulated_bf16_accumulation(x, w):
    bf16 = ml_dtypes.bfloat16
    xb = np.asarray(x, dtype=np.float32).astype(bf16).astype(np.float64)
    wb = np.asarray(w, dtype=np.float32).astype(bf16).astype(np.float64)
    m, kdim = xb.shape
    n = wb.shape[1]
    acc = np.zeros((m, n), dtype=np.float64)
    for k in range(kdim):
        acc = (acc + xb[:, k:k + 1] * wb[k:k + 1, :]).astype(bf16).astype(np.float64)
    return acc.astype(np.float32)
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "eager jax.numpy Python loop, all products precomputed as an (M,K,N) float32 tensor",
        "source": """def emulated_bf16_accumulation(x, w):
    xb = jnp.asarray(x).astype(jnp.bfloat16).astype(jnp.float32)
    wb = jnp.asarray(w).astype(jnp.bfloat16).astype(jnp.float32)
    products = xb[:, :, None] * wb[None, :, :]          # (M, K, N), exact in float32
    total = jnp.zeros((xb.shape[0], wb.shape[1]), dtype=jnp.bfloat16)
    for k in range(xb.shape[1]):
        total = (total.astype(jnp.float32) + products[:, k, :]).astype(jnp.bfloat16)
    return total.astype(jnp.float32)
""",
    },
    {
        "function": "accumulation_error_curve",
        "why": "notebook helpers seed_data / exact_matmul / emulated_bf16_accumulation, Python floats",
        "source": """def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, int(K))
        truth = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32acc = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        bf16out = f32acc.astype(jnp.bfloat16)
        bf16acc = emulated_bf16_accumulation(x, w)
        curve["k"].append(int(K))
        for key, out in (("fp32_accum", f32acc), ("bf16_output", bf16out), ("bf16_accum", bf16acc)):
            curve[key].append(float(np.max(np.abs(np.asarray(out, np.float64) - truth))))
    return curve
""",
    },
    {
        "function": "accumulation_error_curve",
        "why": "explicit keys, jax.numpy, float32 reference at HIGHEST, list(ks) for k",
        "source": """def accumulation_error_curve(ks, seed=0):
    ks = list(ks)
    fp32_accum, bf16_output, bf16_accum = [], [], []
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25
        ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
        acc32 = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        out16 = acc32.astype(jnp.bfloat16).astype(jnp.float32)
        emu = jnp.asarray(emulated_bf16_accumulation(x, w), jnp.float32)
        fp32_accum.append(float(jnp.max(jnp.abs(acc32 - ref))))
        bf16_output.append(float(jnp.max(jnp.abs(out16 - ref))))
        bf16_accum.append(float(jnp.max(jnp.abs(emu - ref))))
    return {"k": ks, "fp32_accum": fp32_accum, "bf16_output": bf16_output, "bf16_accum": bf16_accum}
""",
    },
    {
        "function": "accumulation_error_curve",
        "why": "own inline bf16-accumulation emulation (scan, bf16 carry) instead of calling Exercise 2; NumPy float64 errors",
        "source": """def accumulation_error_curve(ks, seed=0):
    def bf16_acc(x, w):
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        def step(s, xw):
            return (s.astype(jnp.float32) + jnp.outer(xw[0].astype(jnp.float32),
                                                      xw[1].astype(jnp.float32))).astype(jnp.bfloat16), None
        s, _ = jax.lax.scan(step, jnp.zeros((x.shape[0], w.shape[1]), jnp.bfloat16), (xb.T, wb))
        return s.astype(jnp.float32)

    result = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    key = jax.random.PRNGKey(seed)
    for K in ks:
        k1, k2 = jax.random.split(key)
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25
        exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        a = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        outs = {"fp32_accum": a, "bf16_output": a.astype(jnp.bfloat16), "bf16_accum": bf16_acc(x, w)}
        result["k"].append(K)
        for name, o in outs.items():
            result[name].append(np.abs(np.asarray(o.astype(jnp.float32), np.float64) - exact).max())
    return result
""",
    },
    {
        "function": "accumulation_error_curve",
        "why": "NumPy on the host: bf16 inputs via ml_dtypes, float32 NumPy matmul (f32 accumulation), float64 truth",
        "source": """def accumulation_error_curve(ks, seed=0):
    out = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = np.asarray(jax.random.normal(k1, (64, K), dtype=jnp.float32))
        w = np.asarray(jax.random.normal(k2, (K, 64), dtype=jnp.float32)) * np.float32(0.25)
        truth = x.astype(np.float64) @ w.astype(np.float64)
        xb = x.astype(ml_dtypes.bfloat16).astype(np.float32)
        wb = w.astype(ml_dtypes.bfloat16).astype(np.float32)
        f32acc = xb @ wb
        bf16out = f32acc.astype(ml_dtypes.bfloat16).astype(np.float64)
        emu = np.asarray(emulated_bf16_accumulation(x, w), np.float64)
        out["k"].append(int(K))
        out["fp32_accum"].append(float(np.abs(f32acc - truth).max()))
        out["bf16_output"].append(float(np.abs(bf16out - truth).max()))
        out["bf16_accum"].append(float(np.abs(emu - truth).max()))
    return out
""",
    },
]
