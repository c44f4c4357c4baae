"""Known wrong answers to 02_matmul_accumulation's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

# Numbers compared by value, whatever type carries them (autograder/common/mistakes.py): the reason.
NUMBERS_BY_VALUE = {
    "evaluate_precision_policies": "errors and bytes: their values are the data",
    "accumulation_error_curve": "lists of errors: their values are the data",
}
# Labels compared by the phrases the hidden test reads in them (lowercased): the wording is free.
PHRASES = {"evaluate_precision_policies": {"policy": ["bf16 accum", "bf16 out", "int8", "int32"]}}

MISTAKES = [
    # ------------------------------------------- evaluate_precision_policies
    {
        "id": "float16-not-bfloat16",
        "function": "evaluate_precision_policies",
        "name": "float16 used where bfloat16 is asked",
        "explanation": "Your first two policies round the inputs (and the second policy's output) to float16 instead of bfloat16. float16 keeps more mantissa bits, so its errors come out several times smaller than the bfloat16 errors the table is meant to report. Revisit the policies of the exercise and which 16-bit format each one uses.",
        "section": "Exercise 1: `evaluate_precision_policies` (4 points)",
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
        "id": "int8-bytes-for-bf16",
        "function": "evaluate_precision_policies",
        "name": "bf16 policies counted at one byte a weight",
        "explanation": "Your table reports the int8 policy's weight bytes for the two bfloat16 policies as well, as the seed script did. Each policy's bytes are its own stored weights: a bfloat16 weight takes two bytes, an int8 weight one, plus its scales. Revisit the exercise's note on what each policy stores.",
        "section": "Exercise 1: `evaluate_precision_policies` (4 points)",
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
        "id": "per-row-scale",
        "function": "evaluate_precision_policies",
        "name": "one scale per row instead of per output column",
        "explanation": "Your int8 policy computes one scale per row of the weights, that is per input feature, instead of one per output column. A per-column scale follows each output channel's own range; per-row scales mix every column's range into each scale and change both the error and the number of scale bytes. Revisit the int8 policy's definition of a per-column scale.",
        "section": "Exercise 1: `evaluate_precision_policies` (4 points)",
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
        "id": "scale-128",
        "function": "evaluate_precision_policies",
        "name": "int8 scale divides the max by 128, not 127",
        "explanation": "Your int8 scale divides the column's largest magnitude by 128, so that value would need the code 128, which symmetric int8 does not have: it is clipped to 127. The largest weight of every column then loses accuracy. Revisit the symmetric int8 range and how the scale maps the largest magnitude onto it.",
        "section": "Exercise 1: `evaluate_precision_policies` (4 points)",
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
        "id": "reference-from-bf16-inputs",
        "function": "evaluate_precision_policies",
        "name": "reference computed from bf16-rounded inputs",
        "explanation": "Your reference multiplies the inputs after rounding them to bfloat16, so it already contains the input rounding the bfloat16 policies are judged on: the first policy's error comes out as exactly 0 (it is your reference's own computation), and the second one's shrinks to its output rounding alone (about 0.031 instead of 0.055 on the seed-0 data). The reference must be the exact product of the original float32 data. Revisit how to build a reference that is exact on every backend.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
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
        "id": "f32-accumulator",
        "function": "emulated_bf16_accumulation",
        "name": "sums in float32 and rounds once at the end",
        "explanation": "Your function accumulates in float32 and rounds to bfloat16 only once, at the end: that is a bfloat16 output, not a bfloat16 accumulator. The error of a true bfloat16 accumulator comes from rounding the running sum after every addition, and it grows much faster with K. Revisit how a bfloat16 accumulator is emulated.",
        "section": "3. True bf16 accumulation, emulated",
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
        "name": "running sum rounded to float16, not bfloat16",
        "explanation": "Your function rounds the running sum to float16 instead of bfloat16. float16 has three more mantissa bits and a much smaller range, so its errors are smaller and it can overflow where bfloat16 does not. Revisit the exercise: the accumulator is bfloat16.",
        "section": "3. True bf16 accumulation, emulated",
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
        "id": "right-to-left",
        "function": "emulated_bf16_accumulation",
        "name": "sums the products from the last k to the first",
        "explanation": "Your function adds the products from the last k to the first. With the running sum rounded after every addition, the order of the additions changes the result. Revisit the contract: k runs from 0 up to K - 1.",
        "section": "Exercise 2: `emulated_bf16_accumulation` (4 points)",
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
        "id": "products-rounded",
        "function": "emulated_bf16_accumulation",
        "name": "rounds each product to bf16 before adding",
        "explanation": "Your function rounds every product to bfloat16 before adding it, which adds a rounding error the contract does not have. The product of two bfloat16 numbers fits in float32 exactly, and only the running sum is rounded. Revisit the exercise's hint about multiplying.",
        "section": "Exercise 2: `emulated_bf16_accumulation` (4 points)",
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
        "id": "inputs-not-rounded",
        "function": "emulated_bf16_accumulation",
        "name": "inputs not rounded to bf16 first",
        "explanation": "Your function multiplies the original float32 inputs: only the running sum is rounded to bfloat16. The emulated matmul takes bfloat16 inputs, so both matrices are rounded first and their products are then exact. Revisit the first step of the contract.",
        "section": "Exercise 2: `emulated_bf16_accumulation` (4 points)",
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
        "id": "keys-swapped",
        "function": "accumulation_error_curve",
        "name": "random keys swapped between x and w",
        "explanation": "Your function draws x from the second key and w from the first, so its data differ from the experiment's and from Exercise 1's at the same K. The contract fixes which key makes which matrix. Revisit the data the exercise asks for.",
        "section": "Exercise 3: `accumulation_error_curve` (3 points)",
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
        "id": "no-weight-scale",
        "function": "accumulation_error_curve",
        "name": "weights not scaled by 0.25",
        "explanation": "Your weights are standard normal, without the factor that makes them smaller, so every error is four times too large. The exercise builds the same data as Exercise 1, only with inner dimension K. Revisit the data the exercise asks for.",
        "section": "Exercise 3: `accumulation_error_curve` (3 points)",
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
        "id": "mean-not-max",
        "function": "accumulation_error_curve",
        "name": "mean error recorded instead of max error",
        "explanation": "Your curve records the mean absolute error where the contract asks for the maximum. The two grow at the same rate but the maximum is several times larger, and the figure and its guides are read as maxima. Revisit the contract's error measure.",
        "section": "Exercise 3: `accumulation_error_curve` (3 points)",
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
        "id": "bf16-output-is-f32",
        "function": "accumulation_error_curve",
        "name": "bf16 output column computed with a float32 output",
        "explanation": "Your bf16_output column uses the same float32-output matmul as the fp32_accum column, so it never rounds the output to bfloat16. A bfloat16 output adds one final rounding of each result. Revisit the difference between accumulation precision and output precision.",
        "section": "2. Accumulation precision vs output precision",
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
        "id": "default-precision-reference",
        "function": "evaluate_precision_policies",
        "name": "reference is a DEFAULT-precision float32 matmul",
        "explanation": "Your exact reference is a float32 matmul at the default precision, which on a TPU is one bfloat16 pass, bit for bit the first policy's own computation: there the first policy's error comes out as exactly 0 and the second one's shrinks to its output rounding alone (on a CPU it happens to be right). A reference must be exact on every backend. Revisit what the default precision means on CPU, GPU and TPU, and the two ways to get an exact result.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
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
        "id": "int8-matmul-default-precision",
        "function": "evaluate_precision_policies",
        "name": "int8 policy's matmul at DEFAULT precision",
        "explanation": "Your int8 policy multiplies the inputs by the dequantized weights at the default precision, which on a TPU rounds both to bfloat16 first, so its error mixes bfloat16 rounding into the int8 policy. This policy's matmul is meant to be exact, so that its error is the quantization's alone. Revisit what the default precision means on a TPU and how to ask for an exact product.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
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
        "id": "default-precision-reference",
        "function": "accumulation_error_curve",
        "name": "reference is a DEFAULT-precision float32 matmul",
        "explanation": "Your exact reference is a float32 matmul at the default precision, which on a TPU is one bfloat16 pass, bit for bit the f32-accumulation curve's own computation: there that curve comes out as exactly 0 at every K and the bf16-output curve shrinks to its output rounding alone (on a CPU it happens to be right). A reference must be exact on every backend. Revisit what the default precision means on CPU, GPU and TPU, and the two ways to get an exact result.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
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
        "id": "unrounded-inputs-default",
        "function": "accumulation_error_curve",
        "name": "fp32_accum column skips rounding the inputs",
        "explanation": "Your fp32_accum column multiplies the float32 inputs at the default precision, counting on a TPU to round them to bfloat16. Only a TPU does that: on a CPU or GPU this column then has no bfloat16 input rounding at all. Revisit what the default precision does on each backend, and round the inputs yourself.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
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
        "id": "unrounded-inputs-default",
        "function": "evaluate_precision_policies",
        "name": "bf16 policies skip rounding the inputs",
        "explanation": "Your bfloat16 policies multiply the float32 inputs at the default precision, counting on a TPU to round them to bfloat16. That happens only on a TPU: on a CPU or GPU nothing is rounded to bfloat16, so the policies measure something else there. Revisit what the default precision does on each backend, and round the inputs yourself.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
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
        "id": "starts-at-first-product",
        "function": "emulated_bf16_accumulation",
        "name": "running sum starts at the first product; K = 0 fails",
        "explanation": "Your running sum starts from the first product instead of 0, so with an inner dimension of 0 there is no first product and the function raises an error. The contract starts every sum at 0, which also gives a zero matrix when K is 0. Revisit the contract's starting value.",
        "section": "Exercise 2: `emulated_bf16_accumulation` (4 points)",
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
        "id": "errors-truncated",
        "function": "evaluate_precision_policies",
        "name": "errors truncated to 5 decimals instead of rounded",
        "explanation": "Your errors are cut off after five decimals instead of rounded to five decimals, so about half of them come out one unit too small in the last place. Rounding to nearest and truncating differ, as lesson 01 showed. Revisit the exercise's return format.",
        "section": "Exercise 1: `evaluate_precision_policies` (4 points)",
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
        "id": "labels-swapped",
        "function": "evaluate_precision_policies",
        "name": "labels of the first two policies swapped",
        "explanation": "Your first two rows carry each other's labels: the numbers are in the right order but the row that keeps a float32 output says bfloat16 output, and the other way round. The labels are the point of this exercise: they must say what each policy really does. Revisit the difference between accumulation precision and output precision.",
        "section": "2. Accumulation precision vs output precision",
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
        "id": "label-claims-w8a8",
        "function": "evaluate_precision_policies",
        "name": "int8 policy labelled as int8 x int8, int32 accumulation",
        "explanation": "Your third label says the policy multiplies int8 by int8 and accumulates in int32, but only the weights are stored as int8: the matmul multiplies float32 activations by the dequantized weights and sums in float32. A label must say what the computation really does. Revisit the exercise's description of the int8 policy.",
        "section": "Exercise 1: `evaluate_precision_policies` (4 points)",
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
        "id": 'int8-bytes-with-scales',
        "function": 'evaluate_precision_policies',
        "name": 'int8 weight bytes counted with their scales',
        "explanation": "Your int8 row's weight_bytes adds the scales' bytes to the int8 weights' (16384 + 256), so the scales are counted twice: once there and once in scale_bytes. weight_bytes is the stored weights alone, one byte each; scale_bytes holds the four bytes of each per-column scale. Revisit the exercise's note on what each policy stores.",
        "section": 'Exercise 1: `evaluate_precision_policies` (4 points)',
        "why": 'weight_bytes of the int8 policy = q.size + 4 * scale.size (16640), scale_bytes 256 as well',
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
    labels = ["bf16 inputs, f32 accumulation", "bf16 inputs, f32 accumulation, bf16 output", "int8 per-column weights, f32 accumulation"]
    out = []
    for label, t, wbytes, sbytes in [(labels[0], o1, 2 * w.size, 0), (labels[1], o2, 2 * w.size, 0),
                                     (labels[2], o3, q.size + 4 * scale.size, 4 * scale.size)]:
        d = np.abs(np.asarray(t, np.float64) - np.asarray(ref, np.float64))
        out.append({"policy": label, "max_abs_err": (lambda v: round(float(v), 5))(d.max()), "mean_abs_err": (lambda v: round(float(v), 5))(d.mean()),
                    "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return out
""",
    },
    {
        "id": 'per-tensor-scale',
        "function": 'evaluate_precision_policies',
        "name": 'one scale for the whole weight matrix',
        "explanation": 'Your int8 policy quantizes the weights with one scale for the whole matrix (its largest |w| / 127) instead of one per column. Every column then shares the step of the largest one, so columns with smaller weights keep fewer levels and the error grows; the table also stores one scale, not 64. Revisit the per-column scheme the exercise asks for.',
        "section": 'Exercise 1: `evaluate_precision_policies` (4 points)',
        "why": 'scale = max|w| / 127 over the whole matrix (shape (1, 1)): larger errors, scale_bytes 4',
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
    cm = jnp.max(jnp.abs(wq), keepdims=True)
    scale = jnp.where(cm == 0, 1.0, cm / 127.0)
    q = jnp.clip(jnp.round(wq / scale), -127, 127).astype(jnp.int8)
    deq = q.astype(jnp.float32) * scale
    o3 = np.asarray(x, np.float64) @ np.asarray(deq, np.float64)
    labels = ["bf16 inputs, f32 accumulation", "bf16 inputs, f32 accumulation, bf16 output", "int8 per-column weights, f32 accumulation"]
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
        "id": 'truncated-codes',
        "function": 'evaluate_precision_policies',
        "name": 'int8 codes truncated instead of rounded',
        "explanation": "Your int8 codes drop the fraction of w / scale (a plain cast to int8 truncates toward zero) instead of rounding to the nearest code. Every weight then moves by up to a whole step instead of half a step, so the int8 policy's errors come out about twice as large. Revisit how the codes are made: round, then clip, then cast.",
        "section": 'Exercise 1: `evaluate_precision_policies` (4 points)',
        "why": 'q = clip(w / scale, -127, 127).astype(int8): truncation toward zero, errors about doubled',
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
    q = jnp.clip(wq / scale, -127, 127).astype(jnp.int8)
    deq = q.astype(jnp.float32) * scale
    o3 = np.asarray(x, np.float64) @ np.asarray(deq, np.float64)
    labels = ["bf16 inputs, f32 accumulation", "bf16 inputs, f32 accumulation, bf16 output", "int8 per-column weights, f32 accumulation"]
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
        "id": 'seed-label-bf16-accum',
        "function": 'evaluate_precision_policies',
        "name": 'the bf16-output policy labelled as bf16 accumulation',
        "explanation": "Your second label says the policy accumulates in bfloat16, as the seed script's did. It does not: its products are summed in float32 and only the result is rounded to bfloat16 (a bf16 output), while a true bfloat16 accumulation, measured later in the lesson, is far worse. A label must say what the computation really does.",
        "section": 'Exercise 1: `evaluate_precision_policies` (4 points)',
        "why": "policy 2 labelled 'bf16 inputs, bf16 accumulation' (the seed's label): its values are the reference's",
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
    labels = ["bf16 inputs, f32 accumulation", "bf16 inputs, bf16 accumulation", "int8 per-column weights, f32 accumulation"]
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
        "id": 'errors-not-rounded',
        "function": 'evaluate_precision_policies',
        "name": 'errors not rounded to 5 decimals',
        "explanation": "Your errors are returned with every digit instead of rounded to five decimals, as the exercise's return format (and the seed's table) asks. The values are right; the table is not in the form asked for. Revisit the exercise's return format.",
        "section": 'Exercise 1: `evaluate_precision_policies` (4 points)',
        "why": 'max_abs_err and mean_abs_err returned as float(...) without round(v, 5)',
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
    labels = ["bf16 inputs, f32 accumulation", "bf16 inputs, f32 accumulation, bf16 output", "int8 per-column weights, f32 accumulation"]
    out = []
    for label, t, wbytes, sbytes in [(labels[0], o1, 2 * w.size, 0), (labels[1], o2, 2 * w.size, 0),
                                     (labels[2], o3, q.size, 4 * scale.size)]:
        d = np.abs(np.asarray(t, np.float64) - np.asarray(ref, np.float64))
        out.append({"policy": label, "max_abs_err": float(d.max()), "mean_abs_err": float(d.mean()),
                    "weight_bytes": int(wbytes), "scale_bytes": int(sbytes)})
    return out
""",
    },
    # -------------------------------------------- emulated_bf16_accumulation
    {
        "id": "unrounded-inputs-default",
        "function": "emulated_bf16_accumulation",
        "name": "products of unrounded inputs at DEFAULT precision",
        "explanation": "Your function forms the products with float32 matmuls at the default precision, counting on a TPU to round the inputs to bfloat16. Only a TPU does that: on a CPU or GPU the inputs are never rounded to bfloat16. Revisit what the default precision does on each backend, and round the inputs yourself.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
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
        "id": "starts-at-negative-zero",
        "function": "emulated_bf16_accumulation",
        "name": "running sum starts at negative zero",
        "explanation": "Your running sum starts at negative zero instead of 0. The values are equal, but the sign of zero is not: when every product is a negative zero, or K is 0, your sum is negative zero where the contract's is positive zero. Revisit the contract's starting value.",
        "section": "Exercise 2: `emulated_bf16_accumulation` (4 points)",
        "why": "running sum starts at -0.0: (-0) + (+0) = +0, so only where every product is -0 (or K = 0) does the sum keep the wrong sign",
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
        "id": "high-precision-reference",
        "function": "accumulation_error_curve",
        "name": "reference at HIGH precision, not exact",
        "explanation": "Your reference is a float32 matmul at HIGH precision, which on a TPU is three bfloat16 passes, not an exact result (on a TPU v5e its error measured 100 to 120 times HIGHEST's). Its own error then blurs the small errors the curve measures (on a CPU, which ignores matmul precision, it happens to be right). Revisit the precision levels on a TPU and the two ways to get an exact reference.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
        "why": "reference at Precision.HIGH (three bf16 passes on a TPU), not exact",
        "only_under": "tpu",
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
        "id": "sorts-ks",
        "function": "accumulation_error_curve",
        "name": "sorts and deduplicates the requested K values",
        "explanation": "Your function goes through the K values sorted and without repeats, not in the order they were given. The contract returns one entry for each K in the caller's order, repeats included. Revisit the contract's k list.",
        "section": "Exercise 3: `accumulation_error_curve` (3 points)",
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
        "id": "k-not-a-list",
        "function": "accumulation_error_curve",
        "name": "k entry is the caller's object, not a list",
        "explanation": "Your dict's k entry is the very object the caller passed (a tuple or an array, say), not a list. The contract fixes every entry as a list. Revisit the contract's return format.",
        "section": "Exercise 3: `accumulation_error_curve` (3 points)",
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
        "id": "fabricated-table",
        "function": "evaluate_precision_policies",
        "name": "the table is typed in, not computed",
        "explanation": "Your function returns fixed numbers with the right labels and plausible values, without running the experiment. The errors must be measured from the data the seed describes, and they change with the seed. Revisit the exercise: build the data, compute each policy and measure it against the exact reference.",
        "section": "Exercise 1: `evaluate_precision_policies` (4 points)",
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
    # -------------------------------------------- emulated_bf16_accumulation
    {
        "id": "first-product-unrounded",
        "function": "emulated_bf16_accumulation",
        "name": "running sum starts at the first product, left unrounded",
        "explanation": "Your running sum starts from the first product itself instead of from 0, and that first product is never rounded to bfloat16 on its own: with a single product (K of 1) your result is the exact float32 product, not a bfloat16 number. In the contract the sum starts at 0 and every addition, the first one included, is rounded to bfloat16. Revisit the contract's starting value and when the rounding happens.",
        "section": "Exercise 2: `emulated_bf16_accumulation` (4 points)",
        "why": "acc = p0 (float32, unrounded), then acc = bf16(acc + p_k) for k >= 1: K = 1 returns an unrounded product; K = 0 raises IndexError",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.outer(xb[:, 0], wb[0, :]).astype(np.float32)
    for k in range(1, xb.shape[1]):
        acc = (acc + np.outer(xb[:, k], wb[k, :])).astype(ml_dtypes.bfloat16).astype(np.float32)
    return acc
""",
    },
    {
        "id": "returns-bfloat16",
        "function": "emulated_bf16_accumulation",
        "name": "returns the bfloat16 accumulator, not float32",
        "explanation": "Your function returns the running sum in its bfloat16 dtype. The values are right, but the contract's output is float32 (M, N): the bfloat16 accumulator is internal to the emulation. Revisit the contract's return type.",
        "section": "Exercise 2: `emulated_bf16_accumulation` (4 points)",
        "why": "returns the bf16 accumulator as is (dtype bfloat16), not cast to float32",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), dtype=ml_dtypes.bfloat16)
    for k in range(xb.shape[1]):
        acc = (acc.astype(np.float32) + np.outer(xb[:, k], wb[k, :])).astype(ml_dtypes.bfloat16)
    return acc
""",
    },
    {
        "id": "truncates-running-sum",
        "function": "emulated_bf16_accumulation",
        "name": "running sum cut to bf16 by truncation, not rounded",
        "explanation": "Your function makes the running sum a bfloat16 number by dropping the low 16 bits of its float32 pattern, which rounds toward zero instead of to the nearest value (ties to even). Truncation never rounds a magnitude up, so its errors all point toward zero and add up instead of partly cancelling as rounding's do. Revisit how a value is rounded to bfloat16 (lesson 01's bf16_round).",
        "section": "3. True bf16 accumulation, emulated",
        "why": "acc &= 0xFFFF0000 after each addition: truncation (toward zero) instead of round to nearest even",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    acc = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        acc = (acc + np.outer(xb[:, k], wb[k, :])).astype(np.float32)
        acc = (acc.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    return acc
""",
    },
    # ---------------------------------------------- accumulation_error_curve
    {
        "id": "reference-from-bf16-inputs",
        "function": "accumulation_error_curve",
        "name": "reference computed from bf16-rounded inputs",
        "explanation": "Your reference multiplies the inputs after rounding them to bfloat16, so it leaves out the input rounding that every column of the curve should include: the fp32_accum column then shows only the float32 summation error, far smaller than the true error (exactly 0 when K is 1), and the other two columns lose the input rounding as well. The reference must be the exact product of the original float32 data. Revisit how to build a reference that is exact on every backend.",
        "section": "1. What does a float32 matmul compute? It depends on the backend",
        "why": "reference = exact product of the bf16-rounded inputs: the input rounding is left out of every error",
        "source": """
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        ref = exact_matmul(xb, wb)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        curve["k"].append(K)
        for name, o in (("fp32_accum", f32), ("bf16_output", f32.astype(jnp.bfloat16)),
                        ("bf16_accum", emulated_bf16_accumulation(x, w))):
            curve[name].append(float(np.max(np.abs(np.asarray(o, np.float64) - ref))))
    return curve
""",
    },
    {
        "id": "errors-rounded-5-decimals",
        "function": "accumulation_error_curve",
        "name": "errors rounded to 5 decimals as in Exercise 1",
        "explanation": "Your curve rounds every error to 5 decimals, as Exercise 1's table does. This contract asks for the errors themselves: rounding moves each value by up to 0.000005 and would turn any error below that into 0, which a log-log plot cannot show. Revisit the contract of this exercise, which differs from Exercise 1's.",
        "section": "Exercise 3: `accumulation_error_curve` (3 points)",
        "why": "round(err, 5) on every value (Exercise 1's format), so small-K fp32_accum errors become 0.0",
        "source": """
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        x, w = seed_data(seed, k=K)
        ref = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        curve["k"].append(K)
        for name, o in (("fp32_accum", f32), ("bf16_output", f32.astype(jnp.bfloat16)),
                        ("bf16_accum", emulated_bf16_accumulation(x, w))):
            curve[name].append(round(float(np.max(np.abs(np.asarray(o, np.float64) - ref))), 5))
    return curve
""",
    },
    {
        "id": "key-per-k",
        "function": "accumulation_error_curve",
        "name": "a new random key for each K (seed + K)",
        "explanation": "Your function draws the data for each K from its own key, built from the seed and K, instead of splitting the one key of the seed as Exercise 1 does. The data then differ from the contract's at every K, so the errors do too. Revisit the data the exercise asks for: the same recipe as Exercise 1 with inner dimension K.",
        "section": "Exercise 3: `accumulation_error_curve` (3 points)",
        "why": "PRNGKey(seed + K) per K instead of split(PRNGKey(seed))",
        "source": """
def accumulation_error_curve(ks, seed=0):
    curve = {"k": [], "fp32_accum": [], "bf16_output": [], "bf16_accum": []}
    for K in ks:
        k1, k2 = jax.random.split(jax.random.PRNGKey(seed + K))
        x = jax.random.normal(k1, (64, K), dtype=jnp.float32)
        w = jax.random.normal(k2, (K, 64), dtype=jnp.float32) * 0.25
        ref = exact_matmul(x, w)
        xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)
        f32 = jnp.dot(xb, wb, preferred_element_type=jnp.float32)
        curve["k"].append(K)
        for name, o in (("fp32_accum", f32), ("bf16_output", f32.astype(jnp.bfloat16)),
                        ("bf16_accum", emulated_bf16_accumulation(x, w))):
            curve[name].append(float(np.max(np.abs(np.asarray(o, np.float64) - ref))))
    return curve
""",
    },
]
