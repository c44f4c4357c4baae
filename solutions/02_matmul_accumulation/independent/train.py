"""Independent student answers for lesson 02_matmul_accumulation (train set).

Written from the student notebook and COURSE.md only. Some mistakes follow public reports: the
"TPU cannot do simple arithmetic" family (jax-ml/jax #9973, #16349: a float32 dot at DEFAULT is
one bf16 pass, so it is no reference; people reach for Precision.HIGH or a float32 dot and call it
exact), and the seed's own `preferred_element_type=jnp.bfloat16` taken for bf16 accumulation
(jax-ml/jax #39878).
"""

_DATA = '''
def _data(seed, k=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, 64), dtype=jnp.float32) * 0.25
    return x, w
'''

ANSWERS = [
    # ------------------------------------------------------------ evaluate_precision_policies
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "keeps the seed's reference jnp.dot(x, w, preferred_element_type=f32) at DEFAULT precision: one bf16 pass on a TPU",
     "source": _DATA + '''
def evaluate_precision_policies(seed=0):
    x, w = _data(seed)
    ref = jnp.dot(x, w, preferred_element_type=jnp.float32)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    out1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    out2 = out1.astype(jnp.bfloat16).astype(jnp.float32)
    scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    scale = jnp.where(scale == 0, 1.0, scale)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    out3 = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wbytes, sbytes in [
            ("bf16 inputs, f32 accumulation", out1, 2 * w.size, 0),
            ("bf16 inputs, f32 accumulation, bf16 output", out2, 2 * w.size, 0),
            ("int8 per-column weights, f32 accumulation", out3, w.size, 4 * scale.size)]:
        err = jnp.abs(out.astype(jnp.float32) - ref)
        rows.append({"policy": label, "max_abs_err": round(float(err.max()), 5),
                     "mean_abs_err": round(float(err.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "int8 policy output computed with a plain jnp.dot (DEFAULT precision), so on a TPU the dequantized weights and x are rounded to bf16 too",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    p1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    p2 = p1.astype(jnp.bfloat16)
    s = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127
    s = jnp.where(s == 0, 1.0, s)
    q = jnp.clip(jnp.round(w / s), -127, 127).astype(jnp.int8)
    p3 = jnp.dot(x, q.astype(jnp.float32) * s)
    labels = ["bf16 in, f32 accumulate, f32 out", "bf16 in, f32 accumulate, bf16 out",
              "int8 per-column weights (dequantized), f32 accumulate"]
    wbytes = [w.size * 2, w.size * 2, w.size]
    sbytes = [0, 0, s.size * 4]
    res = []
    for lab, out, wb_, sb_ in zip(labels, [p1, p2, p3], wbytes, sbytes):
        e = np.abs(np.asarray(out, np.float64) - truth)
        res.append(dict(policy=lab, max_abs_err=round(float(e.max()), 5), mean_abs_err=round(float(e.mean()), 5),
                        weight_bytes=int(wb_), scale_bytes=int(sb_)))
    return res
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "counts the scales inside weight_bytes of the int8 policy (16384 + 256)",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xn, wn = np.asarray(x), np.asarray(w)
    xb = xn.astype(ml_dtypes.bfloat16).astype(np.float64)
    wb = wn.astype(ml_dtypes.bfloat16).astype(np.float64)
    p1 = (xb @ wb).astype(np.float32)
    p2 = p1.astype(ml_dtypes.bfloat16).astype(np.float32)
    scale = np.abs(wn).max(axis=0, keepdims=True) / np.float32(127)
    scale[scale == 0] = 1.0
    q = np.clip(np.round(wn / scale), -127, 127).astype(np.int8)
    p3 = xn.astype(np.float64) @ (q.astype(np.float64) * scale)
    out = []
    for name, p, wbytes, sbytes in [("bf16 inputs, fp32 accumulation, fp32 output", p1, 2 * wn.size, 0),
                                    ("bf16 inputs, fp32 accumulation, rounded to bf16 output", p2, 2 * wn.size, 0),
                                    ("int8 weights per column, fp32 accumulation", p3, wn.size + 4 * scale.size, 4 * scale.size)]:
        e = np.abs(p.astype(np.float64) - truth)
        out.append({"policy": name, "max_abs_err": round(float(e.max()), 5), "mean_abs_err": round(float(e.mean()), 5),
                    "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return out
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "quantizes the weights with one per-tensor scale instead of one scale per column",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    scale = jnp.max(jnp.abs(w)) / 127.0
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    o3 = exact_matmul(x, q.astype(jnp.float32) * scale)
    def row(name, o, wbytes, sbytes):
        e = np.abs(np.asarray(o, np.float64) - truth)
        return {"policy": name, "max_abs_err": round(float(e.max()), 5), "mean_abs_err": round(float(e.mean()), 5),
                "weight_bytes": wbytes, "scale_bytes": sbytes}
    return [row("bf16 x bf16, f32 accumulation", o1, 2 * 256 * 64, 0),
            row("bf16 x bf16, f32 accumulation, bf16 result", o2, 2 * 256 * 64, 0),
            row("int8 weights, f32 accumulation", o3, 256 * 64, 4 * 64)]
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "quantizes with truncation (astype int8 of w/scale) instead of round-to-nearest",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    scale = jnp.where(scale == 0, 1.0, scale)
    q = jnp.clip(w / scale, -127, 127).astype(jnp.int8)
    o3 = exact_matmul(x, q.astype(jnp.float32) * scale)
    rows = []
    for name, o, wbytes, sbytes in [("bf16 inputs / f32 accumulation", o1, 32768, 0),
                                    ("bf16 inputs / f32 accumulation / bf16 output", o2, 32768, 0),
                                    ("int8 per-column weights / f32 accumulation", o3, 16384, 256)]:
        e = np.abs(np.asarray(o, np.float64) - truth)
        rows.append({"policy": name, "max_abs_err": round(float(e.max()), 5),
                     "mean_abs_err": round(float(e.mean()), 5), "weight_bytes": wbytes, "scale_bytes": sbytes})
    return rows
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "keeps the seed's labels: calls the bf16-output policy 'bf16 (bf16 accum)'",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    scale = jnp.where(scale == 0, 1.0, scale)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    o3 = exact_matmul(x, q.astype(jnp.float32) * scale)
    rows = []
    for name, o, wbytes, sbytes in [("bf16 (fp32 accum)", o1, 32768, 0),
                                    ("bf16 (bf16 accum)", o2, 32768, 0),
                                    ("int8 weights (fp32 accum)", o3, 16384, 256)]:
        e = np.abs(np.asarray(o, np.float64) - truth)
        rows.append({"policy": name, "max_abs_err": round(float(e.max()), 5),
                     "mean_abs_err": round(float(e.mean()), 5), "weight_bytes": wbytes, "scale_bytes": sbytes})
    return rows
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "does not round the errors to 5 decimals",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    scale = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    scale = jnp.where(scale == 0, 1.0, scale)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    o3 = exact_matmul(x, q.astype(jnp.float32) * scale)
    rows = []
    for name, o, wbytes, sbytes in [("bf16 inputs, f32 accumulation, f32 output", o1, 32768, 0),
                                    ("bf16 inputs, f32 accumulation, bf16 output", o2, 32768, 0),
                                    ("int8 per-column weights, f32 accumulation", o3, 16384, 256)]:
        e = np.abs(np.asarray(o, np.float64) - truth)
        rows.append({"policy": name, "max_abs_err": float(e.max()),
                     "mean_abs_err": float(e.mean()), "weight_bytes": wbytes, "scale_bytes": sbytes})
    return rows
'''},
    {"function": "evaluate_precision_policies", "intent": "correct",
     "why": "everything on the host in float64 / ml_dtypes, scales per column with the all-zero guard",
     "source": '''
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = np.asarray(jax.random.normal(k1, (64, 256), dtype=jnp.float32))
    w = np.asarray(jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25)
    exact = x.astype(np.float64) @ w.astype(np.float64)
    b = lambda a: a.astype(ml_dtypes.bfloat16).astype(np.float64)
    f32acc = (b(x) @ b(w)).astype(np.float32)
    bf16out = f32acc.astype(ml_dtypes.bfloat16)
    amax = np.max(np.abs(w), axis=0, keepdims=True)
    scale = np.where(amax > 0, amax / np.float32(127), np.float32(1)).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    int8out = x.astype(np.float64) @ (q.astype(np.float64) * scale.astype(np.float64))
    specs = [("bf16 inputs, f32 accumulation (f32 output)", f32acc, w.size * 2, 0),
             ("bf16 inputs, f32 accumulation, bf16 output", bf16out, w.size * 2, 0),
             ("int8 per-column weights, dequantized, f32 accumulation", int8out, w.size, scale.size * 4)]
    table = []
    for label, out, wbytes, sbytes in specs:
        err = np.abs(out.astype(np.float64) - exact)
        table.append({"policy": label, "max_abs_err": round(float(err.max()), 5),
                      "mean_abs_err": round(float(err.mean()), 5),
                      "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return table
'''},
    # ------------------------------------------------------------ emulated_bf16_accumulation
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "multiplies the bf16 inputs in bf16, so every product is rounded to bf16 before it is added",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16)
    M, K = xb.shape
    N = wb.shape[1]
    acc = np.zeros((M, N), dtype=ml_dtypes.bfloat16)
    for k in range(K):
        prod = xb[:, k:k + 1] * wb[k:k + 1, :]          # bf16 * bf16
        acc = (acc.astype(np.float32) + prod.astype(np.float32)).astype(ml_dtypes.bfloat16)
    return acc.astype(np.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "rounds the running sum to bf16 by cutting off the low 16 bits (truncation) instead of round-to-nearest-even",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        acc = acc + np.outer(xb[:, k], wb[k, :]).astype(np.float32)
        acc = (acc.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    return acc
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "forgets to round the inputs to bf16: float32 products, only the running sum is bf16",
     "source": '''
def emulated_bf16_accumulation(x, w):
    x = np.asarray(x, np.float32)
    w = np.asarray(w, np.float32)
    acc = np.zeros((x.shape[0], w.shape[1]), dtype=ml_dtypes.bfloat16)
    for k in range(x.shape[1]):
        p = x[:, k][:, None] * w[k, :][None, :]
        acc = (acc.astype(np.float32) + p).astype(ml_dtypes.bfloat16)
    return acc.astype(np.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "starts the running sum from the first product (unrounded) instead of 0, so product 0 never gets rounded to bf16",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.outer(xb[:, 0], wb[0, :]).astype(np.float32)
    for k in range(1, xb.shape[1]):
        acc = (acc + np.outer(xb[:, k], wb[k, :]).astype(np.float32)).astype(ml_dtypes.bfloat16).astype(np.float32)
    return acc.astype(np.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "sums the exact products in f32 over all k and rounds to bf16 once at the end (that is the bf16-output policy)",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = jnp.asarray(x).astype(jnp.bfloat16).astype(jnp.float32)
    wb = jnp.asarray(w).astype(jnp.bfloat16).astype(jnp.float32)
    prods = xb[:, :, None] * wb[None, :, :]
    s = jnp.sum(prods, axis=1)
    return np.asarray(s.astype(jnp.bfloat16).astype(jnp.float32))
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "loops over k from K-1 down to 0 (reverse order)",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    M, K = xb.shape
    acc = np.zeros((M, wb.shape[1]), dtype=ml_dtypes.bfloat16)
    for k in reversed(range(K)):
        acc = (acc.astype(np.float32) + xb[:, k:k + 1] * wb[k:k + 1, :]).astype(ml_dtypes.bfloat16)
    return acc.astype(np.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "returns the bf16 accumulator as is: dtype bfloat16, not float32",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), dtype=ml_dtypes.bfloat16)
    for k in range(xb.shape[1]):
        acc = (acc.astype(np.float32) + np.outer(xb[:, k], wb[k])).astype(ml_dtypes.bfloat16)
    return acc
'''},
    {"function": "emulated_bf16_accumulation", "intent": "correct",
     "why": "jax.lax.scan over k with a bf16 carry, float32 products, add in f32 then round",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = jnp.asarray(x, jnp.float32).astype(jnp.bfloat16)
    wb = jnp.asarray(w, jnp.float32).astype(jnp.bfloat16)
    def step(acc, kw):
        xk, wk = kw
        prod = xk.astype(jnp.float32)[:, None] * wk.astype(jnp.float32)[None, :]
        return (acc.astype(jnp.float32) + prod).astype(jnp.bfloat16), None
    init = jnp.zeros((xb.shape[0], wb.shape[1]), jnp.bfloat16)
    acc, _ = jax.lax.scan(step, init, (xb.T, wb))
    return np.asarray(acc.astype(jnp.float32))
'''},
    # ------------------------------------------------------------ accumulation_error_curve
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "takes the exact reference from the bf16-rounded inputs (exact_matmul(xb, wb)), so input rounding is not counted",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    out = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        ref = exact_matmul(xb, wb)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        b16 = f32.astype(jnp.bfloat16)
        emu = emulated_bf16_accumulation(x, w)
        out["k"].append(K)
        for key, o in [("fp32_accum", f32), ("bf16_output", b16), ("bf16_accum", emu)]:
            out[key].append(float(np.max(np.abs(np.asarray(o, np.float64) - ref))))
    return out
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "reference is a float32 dot at Precision.HIGH (bf16x3 on a TPU), believed to be exact",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    res = {"k": list(ks), "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25
        ref = np.asarray(jnp.dot(x, w, precision=jax.lax.Precision.HIGH), np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        res["fp32_accum"].append(float(np.abs(np.asarray(f32, np.float64) - ref).max()))
        res["bf16_output"].append(float(np.abs(np.asarray(f32.astype(jnp.bfloat16), np.float64) - ref).max()))
        res["bf16_accum"].append(float(np.abs(np.asarray(emulated_bf16_accumulation(x, w), np.float64) - ref).max()))
    return res
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "forgets the * 0.25 on w when building the data for each K",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    res = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32)
        ref = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        res["k"].append(K)
        res["fp32_accum"].append(float(np.max(np.abs(np.asarray(f32, np.float64) - ref))))
        res["bf16_output"].append(float(np.max(np.abs(np.asarray(f32.astype(jnp.bfloat16), np.float64) - ref))))
        res["bf16_accum"].append(float(np.max(np.abs(np.asarray(emulated_bf16_accumulation(x, w), np.float64) - ref))))
    return res
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "rounds every error to 5 decimals as in Exercise 1, so the small-K errors become 0.0",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    res = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        ref = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        err = lambda o: round(float(np.max(np.abs(np.asarray(o, np.float64) - ref))), 5)
        res["k"].append(K)
        res["fp32_accum"].append(err(f32))
        res["bf16_output"].append(err(f32.astype(jnp.bfloat16)))
        res["bf16_accum"].append(err(emulated_bf16_accumulation(x, w)))
    return res
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "records the mean abs error instead of the max abs error",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    res = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        ref = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        err = lambda o: float(np.mean(np.abs(np.asarray(o, np.float64) - ref)))
        res["k"].append(K)
        res["fp32_accum"].append(err(f32))
        res["bf16_output"].append(err(f32.astype(jnp.bfloat16)))
        res["bf16_accum"].append(err(emulated_bf16_accumulation(x, w)))
    return res
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "draws x and w from a fresh key per K (PRNGKey(seed + K)) instead of the same split of PRNGKey(seed)",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    res = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed + K))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25
        ref = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        res["k"].append(K)
        res["fp32_accum"].append(float(np.max(np.abs(np.asarray(f32, np.float64) - ref))))
        res["bf16_output"].append(float(np.max(np.abs(np.asarray(f32.astype(jnp.bfloat16), np.float64) - ref))))
        res["bf16_accum"].append(float(np.max(np.abs(np.asarray(emulated_bf16_accumulation(x, w), np.float64) - ref))))
    return res
'''},
    {"function": "accumulation_error_curve", "intent": "correct",
     "why": "host-side NumPy: float64 sums of bf16-rounded inputs for the f32 columns, the student's emulation for bf16 accumulation",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = np.asarray(jax.random.normal(k1, (64, K), dtype=jnp.float32))
        w = np.asarray(jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25)
        exact = x.astype(np.float64) @ w.astype(np.float64)
        xb = x.astype(ml_dtypes.bfloat16).astype(np.float64)
        wb = w.astype(ml_dtypes.bfloat16).astype(np.float64)
        f32acc = (xb @ wb).astype(np.float32)
        bf16out = f32acc.astype(ml_dtypes.bfloat16).astype(np.float64)
        emu = np.asarray(emulated_bf16_accumulation(x, w), np.float64)
        curve["k"].append(K)
        curve["fp32_accum"].append(float(np.abs(f32acc.astype(np.float64) - exact).max()))
        curve["bf16_output"].append(float(np.abs(bf16out - exact).max()))
        curve["bf16_accum"].append(float(np.abs(emu - exact).max()))
    return curve
'''},
]
