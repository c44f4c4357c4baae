"""Independent held-out answers for lesson 02 (matmul precision and accumulation).

Written from the student notebook and COURSE.md only. Wrong answers each make one mistake a
student could plausibly make; correct answers are alternative implementations of the contract.
"""

ANSWERS = [
    # ---------------------------------------------------------------- evaluate_precision_policies
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "keeps the seed's reference jnp.dot(x, w) at DEFAULT precision, which is one bf16 pass on TPU",
     "source": '''
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
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
            ("bf16 inputs, f32 accumulation, f32 output", out1, 2 * w.size, 0),
            ("bf16 inputs, f32 accumulation, bf16 output", out2, 2 * w.size, 0),
            ("int8 per-column weights, f32 accumulation", out3, w.size, 4 * w.shape[1])]:
        err = jnp.abs(out - ref)
        rows.append({"policy": label, "max_abs_err": round(float(err.max()), 5),
                     "mean_abs_err": round(float(err.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "exact reference is fine but the int8 policy's dot x @ (q*scale) is left at DEFAULT precision (a bf16 pass on TPU)",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    f32acc = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    bf16out = f32acc.astype(jnp.bfloat16)
    s = jnp.max(jnp.abs(w), axis=0) / 127.0
    s = jnp.where(s == 0, 1.0, s)
    q = jnp.clip(jnp.round(w / s), -127, 127).astype(jnp.int8)
    int8w = jnp.dot(x, q.astype(jnp.float32) * s)
    def stats(o):
        e = np.abs(np.asarray(o, np.float64) - truth)
        return round(float(e.max()), 5), round(float(e.mean()), 5)
    out = []
    for name, o, wb_, sb in [("bf16 in / f32 accum / f32 out", f32acc, 2 * 256 * 64, 0),
                             ("bf16 in / f32 accum / bf16 output", bf16out, 2 * 256 * 64, 0),
                             ("int8 weights (per column) / f32 accum", int8w, 256 * 64, 4 * 64)]:
        mx, mn = stats(o)
        out.append({"policy": name, "max_abs_err": mx, "mean_abs_err": mn, "weight_bytes": wb_, "scale_bytes": sb})
    return out
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "reports the bytes of the float32 arrays in memory (w.nbytes, 4 per weight) for the bf16 policies",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    wn = np.asarray(w, np.float32)
    sc = np.abs(wn).max(axis=0, keepdims=True) / np.float32(127)
    sc[sc == 0] = 1.0
    q = np.clip(np.round(wn / sc), -127, 127).astype(np.int8)
    o3 = exact_matmul(x, q.astype(np.float32) * sc)
    res = []
    for label, o, wbytes, sbytes in [("bf16 inputs, f32 accumulation", o1, w.nbytes, 0),
                                     ("bf16 inputs, f32 accumulation, bf16 output", o2, w.nbytes, 0),
                                     ("int8 weight storage, f32 accumulation", o3, q.nbytes, sc.nbytes)]:
        e = np.abs(np.asarray(o, np.float64) - truth)
        res.append(dict(policy=label, max_abs_err=round(float(e.max()), 5), mean_abs_err=round(float(e.mean()), 5),
                        weight_bytes=int(wbytes), scale_bytes=int(sbytes)))
    return res
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "quantizes with astype(int8) after dividing (truncation toward zero) instead of rounding",
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
    o3 = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    labels = ["bf16 x bf16, f32 accumulation, f32 result", "bf16 x bf16, f32 accumulation, rounded to bf16",
              "int8 stored weights, dequantized, f32 accumulation"]
    rows = []
    for lab, o, wbt, sbt in zip(labels, [o1, o2, o3], [32768, 32768, 16384], [0, 0, 256]):
        err = np.abs(np.asarray(o, np.float64) - truth)
        rows.append({"policy": lab, "max_abs_err": round(float(err.max()), 5),
                     "mean_abs_err": round(float(err.mean()), 5), "weight_bytes": wbt, "scale_bytes": sbt})
    return rows
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "one scale for the whole tensor (max over all of w) instead of one per column",
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
    rows = []
    for lab, o, wbt, sbt in [("bf16 in, f32 accumulation", o1, 32768, 0),
                             ("bf16 in, f32 accumulation, bf16 output", o2, 32768, 0),
                             ("int8 weights, f32 accumulation", o3, 16384, 256)]:
        err = np.abs(np.asarray(o, np.float64) - truth)
        rows.append({"policy": lab, "max_abs_err": round(float(err.max()), 5),
                     "mean_abs_err": round(float(err.mean()), 5), "weight_bytes": wbt, "scale_bytes": sbt})
    return rows
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "keeps the seed's label 'bf16 (bf16 accum)' for the bf16-output policy, which accumulates in f32",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = jnp.dot(xb, wb, preferred_element_type=jnp.float32).astype(jnp.bfloat16)
    s = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    s = jnp.where(s == 0, 1.0, s)
    q = jnp.clip(jnp.round(w / s), -127, 127).astype(jnp.int8)
    o3 = jnp.dot(x, q.astype(jnp.float32) * s, precision=jax.lax.Precision.HIGHEST)
    table = []
    for name, o, wbt, sbt in [("bf16 (fp32 accum)", o1, 2 * w.size, 0),
                              ("bf16 (bf16 accum)", o2, 2 * w.size, 0),
                              ("int8 per-channel weights (fp32 accum)", o3, w.size, 4 * w.shape[1])]:
        e = jnp.abs(o.astype(jnp.float32) - ref)
        table.append({"policy": name, "max_abs_err": round(float(e.max()), 5),
                      "mean_abs_err": round(float(e.mean()), 5), "weight_bytes": int(wbt), "scale_bytes": int(sbt)})
    return table
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "uses the exact product of the bf16-ROUNDED inputs as the reference, hiding the input rounding error",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    ref = exact_matmul(xb, wb)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    s = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
    s = jnp.where(s == 0, 1.0, s)
    q = jnp.clip(jnp.round(w / s), -127, 127).astype(jnp.int8)
    o3 = exact_matmul(x, q.astype(jnp.float32) * s)
    out = []
    for name, o, wbt, sbt in [("bf16 inputs, f32 accumulation", o1, 32768, 0),
                              ("bf16 inputs, f32 accumulation, bf16 output", o2, 32768, 0),
                              ("int8 per-column weights, f32 accumulation", o3, 16384, 256)]:
        e = np.abs(np.asarray(o, np.float64) - ref)
        out.append({"policy": name, "max_abs_err": round(float(e.max()), 5),
                    "mean_abs_err": round(float(e.mean()), 5), "weight_bytes": wbt, "scale_bytes": sbt})
    return out
'''},
    {"function": "evaluate_precision_policies", "intent": "correct",
     "why": "everything on the host with ml_dtypes and float64", "source": '''
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = np.asarray(jax.random.normal(k1, (64, 256), dtype=jnp.float32))
    w = np.asarray(jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25)
    truth = x.astype(np.float64) @ w.astype(np.float64)
    xb = x.astype(ml_dtypes.bfloat16).astype(np.float64)
    wb = w.astype(ml_dtypes.bfloat16).astype(np.float64)
    p1 = (xb @ wb).astype(np.float32)
    p2 = p1.astype(ml_dtypes.bfloat16).astype(np.float64)
    amax = np.abs(w).max(axis=0, keepdims=True)
    scale = np.where(amax == 0, np.float32(1.0), amax / np.float32(127)).astype(np.float32)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    p3 = x.astype(np.float64) @ (q.astype(np.float64) * scale.astype(np.float64))
    K, N = w.shape
    specs = [("bf16 inputs, f32 accumulation, f32 output", p1, 2 * K * N, 0),
             ("bf16 inputs, f32 accumulation, bf16 output", p2, 2 * K * N, 0),
             ("int8 per-column weights, dequantized, f32 accumulation", p3, K * N, 4 * N)]
    rows = []
    for name, p, wbt, sbt in specs:
        err = np.abs(p.astype(np.float64) - truth)
        rows.append({"policy": name, "max_abs_err": round(float(err.max()), 5),
                     "mean_abs_err": round(float(err.mean()), 5), "weight_bytes": int(wbt), "scale_bytes": int(sbt)})
    return rows
'''},
    # ---------------------------------------------------------------- emulated_bf16_accumulation
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "multiplies the bf16 arrays in bf16, so every product is rounded before it is added",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16)
    M, K = xb.shape
    N = wb.shape[1]
    acc = np.zeros((M, N), dtype=ml_dtypes.bfloat16)
    for k in range(K):
        prod = xb[:, k:k + 1] * wb[k:k + 1, :]
        acc = (acc.astype(np.float32) + prod.astype(np.float32)).astype(ml_dtypes.bfloat16)
    return acc.astype(np.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "rounds the running sum to bf16 by clearing the low 16 bits (truncation) instead of to nearest even",
     "source": '''
def emulated_bf16_accumulation(x, w):
    def trunc(a):
        return (np.asarray(a, np.float32).view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        acc = trunc(acc + np.outer(xb[:, k], wb[k, :]))
    return acc
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "trusts preferred_element_type=bfloat16 to accumulate in bf16 (it accumulates in f32 and rounds once)",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = jnp.asarray(x, jnp.float32).astype(jnp.bfloat16)
    wb = jnp.asarray(w, jnp.float32).astype(jnp.bfloat16)
    return jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16).astype(jnp.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "keeps the running sum in float32 and rounds to bf16 only once after the loop",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        acc = acc + xb[:, k, None] * wb[None, k, :]
    return acc.astype(ml_dtypes.bfloat16).astype(np.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "loops over k from K-1 down to 0 (order matters with a rounding accumulator)",
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    s = np.zeros((xb.shape[0], wb.shape[1]), ml_dtypes.bfloat16)
    for k in reversed(range(xb.shape[1])):
        s = (s.astype(np.float32) + np.outer(xb[:, k], wb[k])).astype(ml_dtypes.bfloat16)
    return s.astype(np.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": "does not round the inputs to bf16 first: products of the raw float32 inputs are accumulated",
     "source": '''
def emulated_bf16_accumulation(x, w):
    x = np.asarray(x, np.float32)
    w = np.asarray(w, np.float32)
    acc = np.zeros((x.shape[0], w.shape[1]), dtype=ml_dtypes.bfloat16)
    for k in range(x.shape[1]):
        prod = x[:, k][:, None] * w[k, :][None, :]
        acc = (acc.astype(np.float32) + prod).astype(ml_dtypes.bfloat16)
    return acc.astype(np.float32)
'''},
    {"function": "emulated_bf16_accumulation", "intent": "correct",
     "why": "jax.lax.scan over k with a bfloat16 carry", "source": '''
def emulated_bf16_accumulation(x, w):
    xb = jnp.asarray(x, jnp.float32).astype(jnp.bfloat16).astype(jnp.float32)
    wb = jnp.asarray(w, jnp.float32).astype(jnp.bfloat16).astype(jnp.float32)

    def step(acc, kw):
        xk, wk = kw
        new = (acc.astype(jnp.float32) + xk[:, None] * wk[None, :]).astype(jnp.bfloat16)
        return new, None

    init = jnp.zeros((xb.shape[0], wb.shape[1]), jnp.bfloat16)
    acc, _ = jax.lax.scan(step, init, (xb.T, wb))
    return np.asarray(acc.astype(jnp.float32))
'''},
    # ---------------------------------------------------------------- accumulation_error_curve
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "measures against the exact product of the bf16-rounded inputs instead of the original float32 x and w",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    res = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        ref = exact_matmul(xb, wb)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        b16 = f32.astype(jnp.bfloat16)
        emu = emulated_bf16_accumulation(x, w)
        res["k"].append(K)
        for key, o in [("fp32_accum", f32), ("bf16_output", b16), ("bf16_accum", emu)]:
            res[key].append(float(np.max(np.abs(np.asarray(o, np.float64) - ref))))
    return res
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "forgets the * 0.25 on w when rebuilding the data for each K",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    out = {"k": list(ks), "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32)
        truth = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        b = jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16)
        c = emulated_bf16_accumulation(x, w)
        out["fp32_accum"].append(float(np.abs(np.asarray(a, np.float64) - truth).max()))
        out["bf16_output"].append(float(np.abs(np.asarray(b, np.float64) - truth).max()))
        out["bf16_accum"].append(float(np.abs(np.asarray(c, np.float64) - truth).max()))
    return out
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "rounds the errors to 5 decimals as in Exercise 1, which zeroes the small-K values",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        truth = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        outs = {"fp32_accum": f32, "bf16_output": f32.astype(jnp.bfloat16),
                "bf16_accum": emulated_bf16_accumulation(x, w)}
        curve["k"].append(K)
        for name, o in outs.items():
            curve[name].append(round(float(np.max(np.abs(np.asarray(o, np.float64) - truth))), 5))
    return curve
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "records the mean abs error instead of the max abs error",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        truth = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        outs = [f32, f32.astype(jnp.bfloat16), emulated_bf16_accumulation(x, w)]
        curve["k"].append(int(K))
        for name, o in zip(["fp32_accum", "bf16_output", "bf16_accum"], outs):
            curve[name].append(float(np.mean(np.abs(np.asarray(o, np.float64) - truth))))
    return curve
'''},
    {"function": "accumulation_error_curve", "intent": "correct",
     "why": "host-side NumPy with ml_dtypes for the two f32-accumulation columns", "source": '''
def accumulation_error_curve(ks, seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    result = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x = np.asarray(jax.random.normal(k1, (64, K), dtype=jnp.float32))
        w = np.asarray(jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25)
        truth = x.astype(np.float64) @ w.astype(np.float64)
        xb = x.astype(ml_dtypes.bfloat16).astype(np.float64)
        wb = w.astype(ml_dtypes.bfloat16).astype(np.float64)
        f32 = (xb @ wb).astype(np.float32)
        b16 = f32.astype(ml_dtypes.bfloat16).astype(np.float64)
        emu = np.asarray(emulated_bf16_accumulation(x, w), np.float64)
        result["k"].append(K)
        result["fp32_accum"].append(float(np.abs(f32 - truth).max()))
        result["bf16_output"].append(float(np.abs(b16 - truth).max()))
        result["bf16_accum"].append(float(np.abs(emu - truth).max()))
    return result
'''},
    # ---------------------------------------------------------------- a blind writer (2026-12-07):
    # the student notebook only, never the library, the solutions or the hidden tests
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": "Uses the starter script's float32 jnp.dot at DEFAULT precision as the 'exact' reference instead of exact_matmul(x, w), which on a TPU is itself one bf16 pass.",
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    reference = np.asarray(jnp.dot(x, w, preferred_element_type=jnp.float32), np.float64)   # fp32 reference
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    p1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    p2 = p1.astype(jnp.bfloat16)
    wn = np.asarray(w, np.float32)
    amax = np.max(np.abs(wn), axis=0, keepdims=True)
    scale = np.where(amax == 0, np.float32(1.0), amax / np.float32(127)).astype(np.float32)
    q = np.clip(np.round(wn / scale), -127, 127).astype(np.int8)
    p3 = np.asarray(x, np.float64) @ (q.astype(np.float64) * scale.astype(np.float64))
    policies = [
        ("bf16 inputs, f32 accumulation, f32 output", p1, 2 * wn.size, 0),
        ("bf16 inputs, f32 accumulation, bf16 output", p2, 2 * wn.size, 0),
        ("int8 per-column weights, f32 accumulation", p3, q.size, 4 * scale.size),
    ]
    rows = []
    for label, out, wbytes, sbytes in policies:
        err = np.abs(np.asarray(out, np.float64) - reference)
        rows.append({"policy": label,
                     "max_abs_err": round(float(err.max()), 5),
                     "mean_abs_err": round(float(err.mean()), 5),
                     "weight_bytes": int(wbytes),
                     "scale_bytes": int(sbytes)})
    return rows
'''},
    {"function": "evaluate_precision_policies", "intent": "wrong",
     "why": 'Computes the int8 scales per row of w (axis=1, one per input feature) instead of per output column (axis=0).',
     "source": '''
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    exact = exact_matmul(x, w)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    p1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    p2 = p1.astype(jnp.bfloat16)

    w32 = jnp.asarray(w, jnp.float32)
    amax = jnp.max(jnp.abs(w32), axis=1, keepdims=True)
    scale = jnp.where(amax == 0, 1.0, amax / 127.0).astype(jnp.float32)
    q = jnp.clip(jnp.round(w32 / scale), -127, 127).astype(jnp.int8)
    p3 = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)

    def errors(out):
        e = np.abs(np.asarray(out, np.float64) - exact)
        return round(float(np.max(e)), 5), round(float(np.mean(e)), 5)

    rows = []
    for label, out, wbytes, sbytes in (
            ("bf16 in, f32 accumulation, f32 out", p1, wb.size * 2, 0),
            ("bf16 in, f32 accumulation, bf16 output", p2, wb.size * 2, 0),
            ("int8 weights with f32 scales, f32 accumulation", p3, q.size, scale.size * 4)):
        mx, mean = errors(out)
        rows.append(dict(policy=label, max_abs_err=mx, mean_abs_err=mean,
                         weight_bytes=int(wbytes), scale_bytes=int(sbytes)))
    return rows
'''},
    {"function": "emulated_bf16_accumulation", "intent": "wrong",
     "why": 'Multiplies the bf16 inputs as bf16 arrays, so every product is itself rounded to bf16 instead of being exact in float32.',
     "source": '''
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16)
    M, K = xb.shape
    N = wb.shape[1]
    acc = np.zeros((M, N), dtype=ml_dtypes.bfloat16)
    for k in range(K):
        prod = xb[:, k, None] * wb[None, k, :]          # bf16 times bf16
        acc = (acc.astype(np.float32) + prod.astype(np.float32)).astype(ml_dtypes.bfloat16)
    return acc.astype(np.float32)
'''},
    {"function": "accumulation_error_curve", "intent": "wrong",
     "why": "Relies on a DEFAULT-precision float32 jnp.dot being a bf16 pass instead of rounding x and w to bf16 itself, so under default_matmul_precision('highest') fp32_accum and bf16_output are computed from unrounded inputs.",
     "source": '''
def accumulation_error_curve(ks, seed=0):
    out = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for k in ks:
        x, w = seed_data(seed, k)
        truth = exact_matmul(x, w)
        # a float32 dot already feeds bf16 inputs to the MXU and accumulates in f32
        f32_acc = jnp.dot(x, w, preferred_element_type=jnp.float32)
        bf16_out = f32_acc.astype(jnp.bfloat16)
        bf16_acc = emulated_bf16_accumulation(x, w)
        out["k"].append(k)
        for name, res in (("fp32_accum", f32_acc), ("bf16_output", bf16_out), ("bf16_accum", bf16_acc)):
            out[name].append(float(np.max(np.abs(np.asarray(res, np.float64) - truth))))
    return out
'''},
]
