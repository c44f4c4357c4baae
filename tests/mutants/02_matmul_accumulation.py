"""Plausible wrong answers for lesson 02 (see docs/AUTHORING.md)."""

_EVAL = """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    reference = {REFERENCE}
    xb, wb = x.astype({LOW}), w.astype({LOW})
    a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    b = jnp.dot(xb, wb, preferred_element_type={LOW})
    cmax = jnp.max(jnp.abs(w), axis={AXIS}, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / {QMAX})
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wbytes, sbytes in [("bf16 f32 acc", a, {BF16_BYTES}, 0), ("bf16 out", b, {BF16_BYTES}, 0),
                                       ("int8", c, q.size, {SCALE_BYTES})]:
        d = np.abs(np.asarray(out, np.float64) - np.asarray(reference, np.float64))
        rows.append({{"policy": label, "max_abs_err": round(float(d.max()), 5),
                     "mean_abs_err": round(float(d.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)}})
    return rows
"""
_OK = dict(
    REFERENCE="np.asarray(x, np.float64) @ np.asarray(w, np.float64)",
    LOW="jnp.bfloat16",
    AXIS=0,
    QMAX="127.0",
    BF16_BYTES="2 * w.size",
    SCALE_BYTES="4 * scale.size",
)


def _eval(**change):
    return _EVAL.format(**{**_OK, **change})


_EMUL = """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in {ORDER}:
        acc = (acc + {PRODUCT}).astype({ACC}).astype(np.float32)
    return acc
"""
_EMUL_OK = dict(ORDER="range(xb.shape[1])", PRODUCT="np.outer(xb[:, k], wb[k, :])", ACC="ml_dtypes.bfloat16")


def _emul(**change):
    return _EMUL.format(**{**_EMUL_OK, **change})


_CURVE = """
def accumulation_error_curve(ks, seed=0):
    curve = {{"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}}
    for k in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal({KX}, (64, k), dtype=jnp.float32)
        w = jax.random.normal({KW}, (k, 64), dtype=jnp.float32) * {SCALE}
        ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        outs = {{"fp32_accum": jnp.dot(xb, wb, preferred_element_type=jnp.float32),
                "bf16_output": jnp.dot(xb, wb, preferred_element_type={OUT}),
                "bf16_accum": {EMUL}}}
        curve["k"].append(k)
        for name, out in outs.items():
            curve[name].append(float(np.{STAT}(np.abs(np.asarray(out, np.float64) - ref))))
    return curve
"""
_CURVE_OK = dict(
    KX="k1", KW="k2", SCALE="0.25", OUT="jnp.bfloat16", EMUL="emulated_bf16_accumulation(x, w)", STAT="max"
)


def _curve(**change):
    return _CURVE.format(**{**_CURVE_OK, **change})


MUTANTS = [
    {
        "function": "evaluate_precision_policies",
        "why": "float16 where bfloat16 is asked",
        "source": _eval(LOW="jnp.float16"),
    },
    {
        "function": "evaluate_precision_policies",
        "why": "the seed's bytes: int8 bytes for every policy",
        "source": _eval(BF16_BYTES="q.size", SCALE_BYTES="4 * scale.size"),
    },
    {"function": "evaluate_precision_policies", "why": "per-row scales (wrong axis)", "source": _eval(AXIS=1)},
    {"function": "evaluate_precision_policies", "why": "scale divides by 128", "source": _eval(QMAX="128.0")},
    {
        "function": "evaluate_precision_policies",
        "why": "reference computed from bf16-rounded inputs",
        "source": _eval(
            REFERENCE="jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)"
        ),
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "f32 accumulation, one rounding at the end",
        # a def, not a top-level rebinding: the grader runs only definitions
        "source": _emul(ACC="np.float32").replace("def emulated_bf16_accumulation(", "def _f32_accumulation(")
        + "\n\ndef emulated_bf16_accumulation(x, w):\n"
        "    return np.asarray(_f32_accumulation(x, w)).astype(ml_dtypes.bfloat16).astype(np.float32)\n",
    },
    {"function": "emulated_bf16_accumulation", "why": "float16 accumulator", "source": _emul(ACC="np.float16")},
    {
        "function": "emulated_bf16_accumulation",
        "why": "sums right to left",
        "source": _emul(ORDER="reversed(range(xb.shape[1]))"),
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "rounds each product to bf16 before adding",
        "source": _emul(PRODUCT="np.outer(xb[:, k], wb[k, :]).astype(ml_dtypes.bfloat16).astype(np.float32)"),
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "does not round the inputs to bf16",
        "source": _emul()
        .replace(".astype(ml_dtypes.bfloat16).astype(np.float32)\n    wb", "\n    wb")
        .replace(
            "wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)",
            "wb = np.asarray(w, np.float32)",
        ),
    },
    {
        "function": "accumulation_error_curve",
        "why": "keys swapped (x from k2, w from k1)",
        "source": _curve(KX="k2", KW="k1"),
    },
    {"function": "accumulation_error_curve", "why": "forgets the 0.25 weight scale", "source": _curve(SCALE="1.0")},
    {"function": "accumulation_error_curve", "why": "mean instead of max error", "source": _curve(STAT="mean")},
    {
        "function": "accumulation_error_curve",
        "why": "bf16 output column is really f32 output",
        "source": _curve(OUT="jnp.float32"),
    },
]

# Wrong answers that only a TPU reveals: exact on CPU, where precision settings are ignored, so
# the hidden tests can catch them only under emulated TPU matmul precision (as the grader runs).
MUTANTS += [
    {
        "function": "evaluate_precision_policies",
        "only_under": "tpu",
        "why": "the seed's DEFAULT-precision 'fp32 reference' (one bf16 pass on a TPU)",
        "source": _eval(REFERENCE="jnp.dot(x, w, preferred_element_type=jnp.float32)"),
    },
    {
        "function": "evaluate_precision_policies",
        "only_under": "tpu",
        "why": "int8 policy dequantized and multiplied at DEFAULT precision",
        "source": _eval().replace(", precision=jax.lax.Precision.HIGHEST)", ")"),
    },
    {
        "function": "accumulation_error_curve",
        "only_under": "tpu",
        "why": "exact reference computed with a DEFAULT-precision f32 dot",
        "source": _curve().replace(
            "ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)", "ref = np.asarray(jnp.dot(x, w), np.float64)"
        ),
    },
    # ------------------------------------------ found by independent reviewers (session 2)
    {
        "function": "accumulation_error_curve",
        "why": "fp32_accum from the float32 inputs at DEFAULT precision ('a TPU rounds to bf16 anyway'): no bf16 input rounding on CPU",
        "source": """
def accumulation_error_curve(ks, seed=0):
    res = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, K)
        truth = exact_matmul(x, w)
        a = jnp.dot(x, w, preferred_element_type=jnp.float32)
        b = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        res["k"].append(K)
        for key, o in (("fp32_accum", a), ("bf16_output", b.astype(jnp.bfloat16)),
                       ("bf16_accum", emulated_bf16_accumulation(x, w))):
            res[key].append(float(np.max(np.abs(np.asarray(o, np.float64) - truth))))
    return res
""",
    },
    {
        "function": "evaluate_precision_policies",
        "why": "policy 1/2 from the float32 inputs at DEFAULT precision ('a TPU rounds to bf16 anyway'): on CPU/GPU no bf16 inputs",
        "source": """
def evaluate_precision_policies(seed=0):
    x, w = seed_data(seed)
    truth = exact_matmul(x, w)
    o1 = jnp.dot(x, w, preferred_element_type=jnp.float32)
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
        out.append({"policy": label, "max_abs_err": round(float(d.max()), 5),
                    "mean_abs_err": round(float(d.mean()), 5), "weight_bytes": wb_, "scale_bytes": sb})
    return out
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "starts the running sum at round(p0) and loops from k = 1: crashes (IndexError) when K == 0",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    s = np.outer(xb[:, 0], wb[0, :]).astype(ml_dtypes.bfloat16)
    for k in range(1, xb.shape[1]):
        s = (s.astype(np.float32) + np.outer(xb[:, k], wb[k, :])).astype(ml_dtypes.bfloat16)
    return s.astype(np.float32)
""",
    },
    # ------------------------------------------ found by a second round of reviewers (session 2)
    {
        "function": "evaluate_precision_policies",
        "why": "errors truncated (floor) to 5 decimals instead of round(v, 5)",
        "source": """
def evaluate_precision_policies(seed=0):
    import math
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    wq = w
    cm = jnp.max(jnp.abs(wq), axis=0, keepdims=True)
    scale = jnp.where(cm == 0, 1.0, cm / 127.0)
    q = jnp.clip(jnp.round(wq / scale), -127, 127).astype(jnp.int8)
    deq = q.astype(jnp.float32) * scale
    o3 = np.asarray(x, np.float64) @ np.asarray(deq, np.float64)
    labels = ["bf16 inputs, f32 accumulation", "bf16 inputs, f32 accumulation, bf16 output", "int8 per-column weights, f32 accumulation"]
    out = []
    for label, t, wbytes, sbytes in [(labels[0], o1, 2 * w.size, 0), (labels[1], o2, 2 * w.size, 0),
                                     (labels[2], o3, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(t, np.float64) - np.asarray(ref, np.float64))
        out.append({"policy": label, "max_abs_err": (lambda v: math.floor(float(v) * 1e5) / 1e5)(d.max()), "mean_abs_err": (lambda v: math.floor(float(v) * 1e5) / 1e5)(d.mean()),
                    "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return out
""",
    },
    {
        "function": "evaluate_precision_policies",
        "why": "labels of policies 1 and 2 swapped (values in the right order)",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    wq = w
    cm = jnp.max(jnp.abs(wq), axis=0, keepdims=True)
    scale = jnp.where(cm == 0, 1.0, cm / 127.0)
    q = jnp.clip(jnp.round(wq / scale), -127, 127).astype(jnp.int8)
    deq = q.astype(jnp.float32) * scale
    o3 = np.asarray(x, np.float64) @ np.asarray(deq, np.float64)
    labels = ["bf16 inputs, f32 accumulation, bf16 output", "bf16 inputs, f32 accumulation", "int8 per-column weights, f32 accumulation"]
    out = []
    for label, t, wbytes, sbytes in [(labels[0], o1, 2 * w.size, 0), (labels[1], o2, 2 * w.size, 0),
                                     (labels[2], o3, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(t, np.float64) - np.asarray(ref, np.float64))
        out.append({"policy": label, "max_abs_err": (lambda v: round(float(v), 5))(d.max()), "mean_abs_err": (lambda v: round(float(v), 5))(d.mean()),
                    "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return out
""",
    },
    {
        "function": "evaluate_precision_policies",
        "why": "policy-3 label claims W8A8 / int32 accumulation (false: only weights are int8, f32 accumulation)",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    o1 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    o2 = o1.astype(jnp.bfloat16)
    wq = w
    cm = jnp.max(jnp.abs(wq), axis=0, keepdims=True)
    scale = jnp.where(cm == 0, 1.0, cm / 127.0)
    q = jnp.clip(jnp.round(wq / scale), -127, 127).astype(jnp.int8)
    deq = q.astype(jnp.float32) * scale
    o3 = np.asarray(x, np.float64) @ np.asarray(deq, np.float64)
    labels = ["bf16 inputs, f32 accumulation", "bf16 inputs, f32 accumulation, bf16 output", "int8 x int8 (w8a8), int32 accumulation"]
    out = []
    for label, t, wbytes, sbytes in [(labels[0], o1, 2 * w.size, 0), (labels[1], o2, 2 * w.size, 0),
                                     (labels[2], o3, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(t, np.float64) - np.asarray(ref, np.float64))
        out.append({"policy": label, "max_abs_err": (lambda v: round(float(v), 5))(d.max()), "mean_abs_err": (lambda v: round(float(v), 5))(d.mean()),
                    "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return out
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "products from a float32 K=1 dot of the UNROUNDED inputs at DEFAULT precision ('a TPU rounds to bf16 anyway'); on CPU/GPU inputs are not rounded",
        "source": """
def emulated_bf16_accumulation(x, w):
    x = jnp.asarray(x, jnp.float32)
    w = jnp.asarray(w, jnp.float32)
    s = jnp.zeros((x.shape[0], w.shape[1]), jnp.bfloat16)
    for k in range(x.shape[1]):
        p = jnp.dot(x[:, k:k + 1], w[k:k + 1, :])
        s = (s.astype(jnp.float32) + p).astype(jnp.bfloat16)
    return np.asarray(s.astype(jnp.float32))
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "why": "running sum starts at np.float32 -0.0 style: s = -np.zeros(...) (negative zero start): sum of +0 products gives -0 -> wrong sign",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    s = -np.zeros((xb.shape[0], wb.shape[1]), ml_dtypes.bfloat16)
    for k in range(xb.shape[1]):
        s = (s.astype(np.float32) + np.outer(xb[:, k], wb[k, :])).astype(ml_dtypes.bfloat16)
    return s.astype(np.float32)
""",
    },
    {
        "function": "accumulation_error_curve",
        "why": "reference at Precision.HIGH (bf16x3 on a TPU), not exact",
        "source": """
def accumulation_error_curve(ks, seed=0):
    pass
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25
        ref = jnp.dot(x, w, precision=jax.lax.Precision.HIGH)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        curve["k"].append(K)
        for name, o in (("fp32_accum", a), ("bf16_output", a.astype(jnp.bfloat16)), ("bf16_accum", emulated_bf16_accumulation(x, w))):
            curve[name].append(float(np.max(np.abs(np.asarray(o, np.float64) - np.asarray(ref, np.float64)))))
    pass
    return curve
""",
    },
    {
        "function": "accumulation_error_curve",
        "why": "iterates over sorted(set(ks)): reorders and deduplicates K (contract: for each K in ks)",
        "source": """
def accumulation_error_curve(ks, seed=0):
    pass
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in sorted(set(ks)):
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25
        ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        curve["k"].append(K)
        for name, o in (("fp32_accum", a), ("bf16_output", a.astype(jnp.bfloat16)), ("bf16_accum", emulated_bf16_accumulation(x, w))):
            curve[name].append(float(np.max(np.abs(np.asarray(o, np.float64) - np.asarray(ref, np.float64)))))
    pass
    return curve
""",
    },
    {
        "function": "accumulation_error_curve",
        "why": "'k' is the ks object itself (tuple/array), not a list (contract: dict with lists)",
        "source": """
def accumulation_error_curve(ks, seed=0):
    pass
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25
        ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        curve["k"].append(K)
        for name, o in (("fp32_accum", a), ("bf16_output", a.astype(jnp.bfloat16)), ("bf16_accum", emulated_bf16_accumulation(x, w))):
            curve[name].append(float(np.max(np.abs(np.asarray(o, np.float64) - np.asarray(ref, np.float64)))))
    curve['k'] = ks
    return curve
""",
    },
]

# issue 28: a table made up to look right (labels, bytes, ordering, plausible errors) computes
# nothing: the visible check compares values and catches it as the hidden one does
MUTANTS += [
    {
        "function": "evaluate_precision_policies",
        "visible_fails": True,
        "why": "a fabricated table: the right labels, bytes and ordering, plausible errors, nothing computed",
        "source": """
def evaluate_precision_policies(seed=0):
    labels = ["bf16 inputs, f32 accumulation, f32 output", "bf16 inputs, f32 accumulation, bf16 output",
              "int8 per-column weights, f32 accumulation"]
    return [{"policy": p, "max_abs_err": m, "mean_abs_err": a, "weight_bytes": wb, "scale_bytes": sb}
            for p, m, a, wb, sb in zip(labels, (0.031, 0.047, 0.098), (0.0061, 0.0079, 0.0187),
                                       (32768, 32768, 16384), (0, 0, 256))]
""",
    },
]
