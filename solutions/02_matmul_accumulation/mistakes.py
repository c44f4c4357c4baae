"""Known wrong answers to 02_matmul_accumulation's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

MISTAKES = [
    # ------------------------------------------- evaluate_precision_policies
    {
        "id": "float16-where-bfloat16-is-asked",
        "function": "evaluate_precision_policies",
        "name": "float16 where bfloat16 is asked",
        "explanation": "",
        "section": "",
        "why": "float16 where bfloat16 is asked",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    reference = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    xb, wb = x.astype(jnp.float16), w.astype(jnp.float16)
    a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    b = jnp.dot(xb, wb, preferred_element_type=jnp.float16)
    cmax = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wbytes, sbytes in [("bf16 f32 acc", a, 2 * w.size, 0), ("bf16 out", b, 2 * w.size, 0),
                                       ("int8", c, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(out, np.float64) - np.asarray(reference, np.float64))
        rows.append({"policy": label, "max_abs_err": round(float(d.max()), 5),
                     "mean_abs_err": round(float(d.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
""",
    },
    {
        "id": "the-seed-s-bytes-int8-bytes-for-every-po",
        "function": "evaluate_precision_policies",
        "name": "the seed's bytes: int8 bytes for every policy",
        "explanation": "",
        "section": "",
        "why": "the seed's bytes: int8 bytes for every policy",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    reference = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    b = jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16)
    cmax = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wbytes, sbytes in [("bf16 f32 acc", a, q.size, 0), ("bf16 out", b, q.size, 0),
                                       ("int8", c, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(out, np.float64) - np.asarray(reference, np.float64))
        rows.append({"policy": label, "max_abs_err": round(float(d.max()), 5),
                     "mean_abs_err": round(float(d.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
""",
    },
    {
        "id": "per-row-scales-wrong-axis",
        "function": "evaluate_precision_policies",
        "name": "per-row scales (wrong axis)",
        "explanation": "",
        "section": "",
        "why": "per-row scales (wrong axis)",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    reference = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    b = jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16)
    cmax = jnp.max(jnp.abs(w), axis=1, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wbytes, sbytes in [("bf16 f32 acc", a, 2 * w.size, 0), ("bf16 out", b, 2 * w.size, 0),
                                       ("int8", c, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(out, np.float64) - np.asarray(reference, np.float64))
        rows.append({"policy": label, "max_abs_err": round(float(d.max()), 5),
                     "mean_abs_err": round(float(d.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
""",
    },
    {
        "id": "scale-divides-by-128",
        "function": "evaluate_precision_policies",
        "name": "scale divides by 128",
        "explanation": "",
        "section": "",
        "why": "scale divides by 128",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    reference = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    b = jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16)
    cmax = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / 128.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wbytes, sbytes in [("bf16 f32 acc", a, 2 * w.size, 0), ("bf16 out", b, 2 * w.size, 0),
                                       ("int8", c, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(out, np.float64) - np.asarray(reference, np.float64))
        rows.append({"policy": label, "max_abs_err": round(float(d.max()), 5),
                     "mean_abs_err": round(float(d.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
""",
    },
    {
        "id": "reference-computed-from-bf16-rounded-inp",
        "function": "evaluate_precision_policies",
        "name": "reference computed from bf16-rounded inputs",
        "explanation": "",
        "section": "",
        "why": "reference computed from bf16-rounded inputs",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    reference = jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    b = jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16)
    cmax = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wbytes, sbytes in [("bf16 f32 acc", a, 2 * w.size, 0), ("bf16 out", b, 2 * w.size, 0),
                                       ("int8", c, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(out, np.float64) - np.asarray(reference, np.float64))
        rows.append({"policy": label, "max_abs_err": round(float(d.max()), 5),
                     "mean_abs_err": round(float(d.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
""",
    },
    # -------------------------------------------- emulated_bf16_accumulation
    {
        "id": "f32-accumulation-one-rounding-at-the-end",
        "function": "emulated_bf16_accumulation",
        "name": "f32 accumulation, one rounding at the end",
        "explanation": "",
        "section": "",
        "why": "f32 accumulation, one rounding at the end",
        "source": """
def _f32_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        acc = (acc + np.outer(xb[:, k], wb[k, :])).astype(np.float32).astype(np.float32)
    return acc


def emulated_bf16_accumulation(x, w):
    return np.asarray(_f32_accumulation(x, w)).astype(ml_dtypes.bfloat16).astype(np.float32)
""",
    },
    {
        "id": "float16-accumulator",
        "function": "emulated_bf16_accumulation",
        "name": "float16 accumulator",
        "explanation": "",
        "section": "",
        "why": "float16 accumulator",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        acc = (acc + np.outer(xb[:, k], wb[k, :])).astype(np.float16).astype(np.float32)
    return acc
""",
    },
    {
        "id": "sums-right-to-left",
        "function": "emulated_bf16_accumulation",
        "name": "sums right to left",
        "explanation": "",
        "section": "",
        "why": "sums right to left",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in reversed(range(xb.shape[1])):
        acc = (acc + np.outer(xb[:, k], wb[k, :])).astype(ml_dtypes.bfloat16).astype(np.float32)
    return acc
""",
    },
    {
        "id": "rounds-each-product-to-bf16-before-addin",
        "function": "emulated_bf16_accumulation",
        "name": "rounds each product to bf16 before adding",
        "explanation": "",
        "section": "",
        "why": "rounds each product to bf16 before adding",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        acc = (acc + np.outer(xb[:, k], wb[k, :]).astype(ml_dtypes.bfloat16).astype(np.float32)).astype(ml_dtypes.bfloat16).astype(np.float32)
    return acc
""",
    },
    {
        "id": "does-not-round-the-inputs-to-bf16",
        "function": "emulated_bf16_accumulation",
        "name": "does not round the inputs to bf16",
        "explanation": "",
        "section": "",
        "why": "does not round the inputs to bf16",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32)
    wb = np.asarray(w, np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        acc = (acc + np.outer(xb[:, k], wb[k, :])).astype(ml_dtypes.bfloat16).astype(np.float32)
    return acc
""",
    },
    # ---------------------------------------------- accumulation_error_curve
    {
        "id": "keys-swapped-x-from-k2-w-from-k1",
        "function": "accumulation_error_curve",
        "name": "keys swapped (x from k2, w from k1)",
        "explanation": "",
        "section": "",
        "why": "keys swapped (x from k2, w from k1)",
        "source": """
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for k in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k2, (64, k), dtype=jnp.float32)
        w = jax.random.normal(k1, (k, 64), dtype=jnp.float32) * 0.25
        ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        outs = {"fp32_accum": jnp.dot(xb, wb, preferred_element_type=jnp.float32),
                "bf16_output": jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16),
                "bf16_accum": emulated_bf16_accumulation(x, w)}
        curve["k"].append(k)
        for name, out in outs.items():
            curve[name].append(float(np.max(np.abs(np.asarray(out, np.float64) - ref))))
    return curve
""",
    },
    {
        "id": "forgets-the-0-25-weight-scale",
        "function": "accumulation_error_curve",
        "name": "forgets the 0.25 weight scale",
        "explanation": "",
        "section": "",
        "why": "forgets the 0.25 weight scale",
        "source": """
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for k in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, k), dtype=jnp.float32)
        w = jax.random.normal(k2, (k, 64), dtype=jnp.float32) * 1.0
        ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        outs = {"fp32_accum": jnp.dot(xb, wb, preferred_element_type=jnp.float32),
                "bf16_output": jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16),
                "bf16_accum": emulated_bf16_accumulation(x, w)}
        curve["k"].append(k)
        for name, out in outs.items():
            curve[name].append(float(np.max(np.abs(np.asarray(out, np.float64) - ref))))
    return curve
""",
    },
    {
        "id": "mean-instead-of-max-error",
        "function": "accumulation_error_curve",
        "name": "mean instead of max error",
        "explanation": "",
        "section": "",
        "why": "mean instead of max error",
        "source": """
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for k in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, k), dtype=jnp.float32)
        w = jax.random.normal(k2, (k, 64), dtype=jnp.float32) * 0.25
        ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        outs = {"fp32_accum": jnp.dot(xb, wb, preferred_element_type=jnp.float32),
                "bf16_output": jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16),
                "bf16_accum": emulated_bf16_accumulation(x, w)}
        curve["k"].append(k)
        for name, out in outs.items():
            curve[name].append(float(np.mean(np.abs(np.asarray(out, np.float64) - ref))))
    return curve
""",
    },
    {
        "id": "bf16-output-column-is-really-f32-output",
        "function": "accumulation_error_curve",
        "name": "bf16 output column is really f32 output",
        "explanation": "",
        "section": "",
        "why": "bf16 output column is really f32 output",
        "source": """
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for k in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, k), dtype=jnp.float32)
        w = jax.random.normal(k2, (k, 64), dtype=jnp.float32) * 0.25
        ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        outs = {"fp32_accum": jnp.dot(xb, wb, preferred_element_type=jnp.float32),
                "bf16_output": jnp.dot(xb, wb, preferred_element_type=jnp.float32),
                "bf16_accum": emulated_bf16_accumulation(x, w)}
        curve["k"].append(k)
        for name, out in outs.items():
            curve[name].append(float(np.max(np.abs(np.asarray(out, np.float64) - ref))))
    return curve
""",
    },
    # ------------------------------------------- evaluate_precision_policies
    {
        "id": "the-seed-s-default-precision-fp32-refere",
        "function": "evaluate_precision_policies",
        "name": "the seed's DEFAULT-precision 'fp32 reference' (one bf16 pass on a TPU)",
        "explanation": "",
        "section": "",
        "why": "the seed's DEFAULT-precision 'fp32 reference' (one bf16 pass on a TPU)",
        "only_under": "tpu",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    reference = jnp.dot(x, w, preferred_element_type=jnp.float32)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    b = jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16)
    cmax = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale, precision=jax.lax.Precision.HIGHEST)
    rows = []
    for label, out, wbytes, sbytes in [("bf16 f32 acc", a, 2 * w.size, 0), ("bf16 out", b, 2 * w.size, 0),
                                       ("int8", c, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(out, np.float64) - np.asarray(reference, np.float64))
        rows.append({"policy": label, "max_abs_err": round(float(d.max()), 5),
                     "mean_abs_err": round(float(d.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
""",
    },
    {
        "id": "int8-policy-dequantized-and-multiplied-a",
        "function": "evaluate_precision_policies",
        "name": "int8 policy dequantized and multiplied at DEFAULT precision",
        "explanation": "",
        "section": "",
        "why": "int8 policy dequantized and multiplied at DEFAULT precision",
        "only_under": "tpu",
        "source": """
def evaluate_precision_policies(seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (64, 256), dtype=jnp.float32)
    w = jax.random.normal(k2, (256, 64), dtype=jnp.float32) * 0.25
    reference = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    a = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
    b = jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16)
    cmax = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    scale = jnp.where(cmax == 0, 1.0, cmax / 127.0)
    q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)
    c = jnp.dot(x, q.astype(jnp.float32) * scale)
    rows = []
    for label, out, wbytes, sbytes in [("bf16 f32 acc", a, 2 * w.size, 0), ("bf16 out", b, 2 * w.size, 0),
                                       ("int8", c, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(out, np.float64) - np.asarray(reference, np.float64))
        rows.append({"policy": label, "max_abs_err": round(float(d.max()), 5),
                     "mean_abs_err": round(float(d.mean()), 5),
                     "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return rows
""",
    },
    # ---------------------------------------------- accumulation_error_curve
    {
        "id": "exact-reference-computed-with-a-default",
        "function": "accumulation_error_curve",
        "name": "exact reference computed with a DEFAULT-precision f32 dot",
        "explanation": "",
        "section": "",
        "why": "exact reference computed with a DEFAULT-precision f32 dot",
        "only_under": "tpu",
        "source": """
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for k in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
        x = jax.random.normal(k1, (64, k), dtype=jnp.float32)
        w = jax.random.normal(k2, (k, 64), dtype=jnp.float32) * 0.25
        ref = np.asarray(jnp.dot(x, w), np.float64)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        outs = {"fp32_accum": jnp.dot(xb, wb, preferred_element_type=jnp.float32),
                "bf16_output": jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16),
                "bf16_accum": emulated_bf16_accumulation(x, w)}
        curve["k"].append(k)
        for name, out in outs.items():
            curve[name].append(float(np.max(np.abs(np.asarray(out, np.float64) - ref))))
    return curve
""",
    },
    {
        "id": "fp32-accum-from-the-float32-inputs-at-de",
        "function": "accumulation_error_curve",
        "name": "fp32_accum from the float32 inputs at DEFAULT precision ('a TPU rounds to bf16 anyway'): no bf16 input rounding on CPU",
        "explanation": "",
        "section": "",
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
    # ------------------------------------------- evaluate_precision_policies
    {
        "id": "policy-1-2-from-the-float32-inputs-at-de",
        "function": "evaluate_precision_policies",
        "name": "policy 1/2 from the float32 inputs at DEFAULT precision ('a TPU rounds to bf16 anyway'): on CPU/GPU no bf16 inputs",
        "explanation": "",
        "section": "",
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
    # -------------------------------------------- emulated_bf16_accumulation
    {
        "id": "starts-the-running-sum-at-round-p0-and-l",
        "function": "emulated_bf16_accumulation",
        "name": "starts the running sum at round(p0) and loops from k = 1: crashes (IndexError) when K == 0",
        "explanation": "",
        "section": "",
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
    # ------------------------------------------- evaluate_precision_policies
    {
        "id": "errors-truncated-floor-to-5-decimals-ins",
        "function": "evaluate_precision_policies",
        "name": "errors truncated (floor) to 5 decimals instead of round(v, 5)",
        "explanation": "",
        "section": "",
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
        "id": "labels-of-policies-1-and-2-swapped-value",
        "function": "evaluate_precision_policies",
        "name": "labels of policies 1 and 2 swapped (values in the right order)",
        "explanation": "",
        "section": "",
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
        "id": "policy-3-label-claims-w8a8-int32-accumul",
        "function": "evaluate_precision_policies",
        "name": "policy-3 label claims W8A8 / int32 accumulation (false: only weights are int8, f32 accumulation)",
        "explanation": "",
        "section": "",
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
    # -------------------------------------------- emulated_bf16_accumulation
    {
        "id": "products-from-a-float32-k-1-dot-of-the-u",
        "function": "emulated_bf16_accumulation",
        "name": "products from a float32 K=1 dot of the UNROUNDED inputs at DEFAULT precision ('a TPU rounds to bf16 anyway'); on CPU/GPU inputs are not rounded",
        "explanation": "",
        "section": "",
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
        "id": "running-sum-starts-at-np-float32-0-0-sty",
        "function": "emulated_bf16_accumulation",
        "name": "running sum starts at np.float32 -0.0 style: s = -np.zeros(...) (negative zero start): sum of +0 products gives -0 -> wrong sign",
        "explanation": "",
        "section": "",
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
    # ---------------------------------------------- accumulation_error_curve
    {
        "id": "reference-at-precision-high-bf16x3-on-a",
        "function": "accumulation_error_curve",
        "name": "reference at Precision.HIGH (bf16x3 on a TPU), not exact",
        "explanation": "",
        "section": "",
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
        "id": "iterates-over-sorted-set-ks-reorders-and",
        "function": "accumulation_error_curve",
        "name": "iterates over sorted(set(ks)): reorders and deduplicates K (contract: for each K in ks)",
        "explanation": "",
        "section": "",
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
        "id": "k-is-the-ks-object-itself-tuple-array-no",
        "function": "accumulation_error_curve",
        "name": "'k' is the ks object itself (tuple/array), not a list (contract: dict with lists)",
        "explanation": "",
        "section": "",
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
    # ------------------------------------------- evaluate_precision_policies
    {
        "id": "a-fabricated-table-the-right-labels-byte",
        "function": "evaluate_precision_policies",
        "name": "a fabricated table: the right labels, bytes and ordering, plausible errors, nothing computed",
        "explanation": "",
        "section": "",
        "why": "a fabricated table: the right labels, bytes and ordering, plausible errors, nothing computed",
        "visible_fails": True,
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
