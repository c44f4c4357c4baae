"""Known wrong answers to 05_precision_policy's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

MISTAKES = [
    # ------------------------------------------------------------- benchmark
    {
        "id": "no-warm-up-the-first-timed-call-includes",
        "function": "benchmark",
        "name": "no warm-up: the first timed call includes compilation",
        "explanation": "",
        "section": "",
        "why": "no warm-up: the first timed call includes compilation",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    times_ms = []
    for _ in range(iters):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times_ms.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": float(np.median(times_ms)), "min_ms": float(np.min(times_ms))}
""",
    },
    {
        "id": "no-synchronisation-measures-asynchronous",
        "function": "benchmark",
        "name": "no synchronisation: measures asynchronous dispatch only",
        "explanation": "",
        "section": "",
        "why": "no synchronisation: measures asynchronous dispatch only",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        fn(*args)
    times_ms = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn(*args)
        times_ms.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": float(np.median(times_ms)), "min_ms": float(np.min(times_ms))}
""",
    },
    {
        "id": "synchronises-only-once-after-the-timed-l",
        "function": "benchmark",
        "name": "synchronises only once, after the timed loop",
        "explanation": "",
        "section": "",
        "why": "synchronises only once, after the timed loop",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times_ms = []
    out = None
    for _ in range(iters):
        t0 = time.perf_counter()
        out = fn(*args)
        times_ms.append((time.perf_counter() - t0) * 1e3)
    jax.block_until_ready(out)
    return {"median_ms": float(np.median(times_ms)), "min_ms": float(np.min(times_ms))}
""",
    },
    {
        "id": "reports-the-mean-not-the-median",
        "function": "benchmark",
        "name": "reports the mean, not the median",
        "explanation": "",
        "section": "",
        "why": "reports the mean, not the median",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times_ms = []
    for _ in range(iters):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times_ms.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": float(np.mean(times_ms)), "min_ms": float(np.min(times_ms))}
""",
    },
    {
        "id": "seconds-instead-of-milliseconds",
        "function": "benchmark",
        "name": "seconds instead of milliseconds",
        "explanation": "",
        "section": "",
        "why": "seconds instead of milliseconds",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - t0)
    return {"median_ms": float(np.median(times)), "min_ms": float(np.min(times))}
""",
    },
    {
        "id": "times-the-whole-loop-and-divides-by-iter",
        "function": "benchmark",
        "name": "times the whole loop and divides by iters (median = min = mean)",
        "explanation": "",
        "section": "",
        "why": "times the whole loop and divides by iters (median = min = mean)",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    t0 = time.perf_counter()
    for _ in range(iters):
        jax.block_until_ready(fn(*args))
    per_call = (time.perf_counter() - t0) * 1e3 / iters
    return {"median_ms": per_call, "min_ms": per_call}
""",
    },
    # ---------------------------------------------------------- policy_table
    {
        "id": "int8-weight-bytes-forget-the-per-column",
        "function": "policy_table",
        "name": "int8 weight_bytes forget the per-column scales",
        "explanation": "",
        "section": "",
        "why": "int8 weight_bytes forget the per-column scales",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=1)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "bf16-weight-bytes-counted-as-the-fp32-co",
        "function": "policy_table",
        "name": "bf16 weight_bytes counted as the fp32 copy",
        "explanation": "",
        "section": "",
        "why": "bf16 weight_bytes counted as the fp32 copy",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=1)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "w8a8-int8-x-int8-dot-without-preferred-e",
        "function": "policy_table",
        "name": "w8a8 int8 x int8 dot without preferred_element_type (int8 wraps)",
        "explanation": "",
        "section": "",
        "why": "w8a8 int8 x int8 dot without preferred_element_type (int8 wraps)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=1)
        acc = jnp.dot(q_x, q_w)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "w8a8-quantizes-activations-with-one-per",
        "function": "policy_table",
        "name": "w8a8 quantizes activations with one per-tensor scale",
        "explanation": "",
        "section": "",
        "why": "w8a8 quantizes activations with one per-tensor scale",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=None)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "w8a8-truncates-instead-of-rounding-the-a",
        "function": "policy_table",
        "name": "w8a8 truncates instead of rounding the activations",
        "explanation": "",
        "section": "",
        "why": "w8a8 truncates instead of rounding the activations",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = (lambda s: (jnp.trunc(x / s).astype(jnp.int8), s))(jnp.max(jnp.abs(x), axis=1, keepdims=True) / 127.0)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "relies-on-default-precision-meaning-bf16",
        "function": "policy_table",
        "name": "relies on DEFAULT precision meaning bf16 (true on TPU only)",
        "explanation": "",
        "section": "",
        "why": "relies on DEFAULT precision meaning bf16 (true on TPU only)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x, w))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=1)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "bf16-policy-without-preferred-element-ty",
        "function": "policy_table",
        "name": "bf16 policy without preferred_element_type: bf16 output",
        "explanation": "",
        "section": "",
        "why": "bf16 policy without preferred_element_type: bf16 output",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=1)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "bf16-policy-rounds-to-float16-instead-of",
        "function": "policy_table",
        "name": "bf16 policy rounds to float16 instead of bfloat16",
        "explanation": "",
        "section": "",
        "why": "bf16 policy rounds to float16 instead of bfloat16",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.float16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.float16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=1)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "reference-built-from-bf16-inputs-not-exa",
        "function": "policy_table",
        "name": "reference built from bf16 inputs, not exact",
        "explanation": "",
        "section": "",
        "why": "reference built from bf16 inputs, not exact",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32), np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=1)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "element-wise-relative-error-max-out-exac",
        "function": "policy_table",
        "name": "element-wise relative error max(|out-exact|/|exact|)",
        "explanation": "",
        "section": "",
        "why": "element-wise relative error max(|out-exact|/|exact|)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = quantize_symmetric(x, axis=1)
        acc = jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact) / np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    # ----------------------------------------------- train_linear_regression
    {
        "id": "bf16-params-keeps-fp32-parameters-casts",
        "function": "train_linear_regression",
        "name": "bf16_params keeps fp32 parameters (casts only for compute)",
        "explanation": "",
        "section": "",
        "why": "bf16_params keeps fp32 parameters (casts only for compute)",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(float(loss))
        if False:
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "master-weights-rounded-back-to-bf16-ever",
        "function": "train_linear_regression",
        "name": "master weights rounded back to bf16 every step",
        "explanation": "",
        "section": "",
        "why": "master weights rounded back to bf16 every step",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(float(loss))
        if policy != "fp32":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "returns-jax-arrays-not-python-floats",
        "function": "train_linear_regression",
        "name": "returns jax arrays, not Python floats",
        "explanation": "",
        "section": "",
        "why": "returns jax arrays, not Python floats",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(loss)
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "returns-steps-1-losses-adds-the-final-on",
        "function": "train_linear_regression",
        "name": "returns steps + 1 losses (adds the final one)",
        "explanation": "",
        "section": "",
        "why": "returns steps + 1 losses (adds the final one)",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps + 1):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "ignores-the-seed-always-prngkey-0",
        "function": "train_linear_regression",
        "name": "ignores the seed (always PRNGKey(0))",
        "explanation": "",
        "section": "",
        "why": "ignores the seed (always PRNGKey(0))",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(0)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "ignores-lr-hard-coded-0-1",
        "function": "train_linear_regression",
        "name": "ignores lr (hard-coded 0.1)",
        "explanation": "",
        "section": "",
        "why": "ignores lr (hard-coded 0.1)",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - 0.1 * g).astype(jnp.bfloat16)
        else:
            w = w - 0.1 * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "records-the-loss-after-each-update-not-b",
        "function": "train_linear_regression",
        "name": "records the loss after each update, not before",
        "explanation": "",
        "section": "",
        "why": "records the loss after each update, not before",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not True:
            losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if True:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "bf16-master-fp32-computes-entirely-in-fp",
        "function": "train_linear_regression",
        "name": "bf16_master_fp32 computes entirely in fp32",
        "explanation": "",
        "section": "",
        "why": "bf16_master_fp32 computes entirely in fp32",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy != "bf16_params":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "gradient-1-n-x-t-r-instead-of-2-n-x-t-r",
        "function": "train_linear_regression",
        "name": "gradient (1/n) X^T r instead of (2/n) X^T r",
        "explanation": "",
        "section": "",
        "why": "gradient (1/n) X^T r instead of (2/n) X^T r",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (1.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (1.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    {
        "id": "fp32-policy-at-default-precision-one-bf1",
        "function": "train_linear_regression",
        "name": "fp32 policy at DEFAULT precision (one bf16 pass on a TPU)",
        "explanation": "",
        "section": "",
        "why": "fp32 policy at DEFAULT precision (one bf16 pass on a TPU)",
        "only_under": "tpu",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w) - y
            g = (2.0 / n) * jnp.dot(X.T, r)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        if not False:
            losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        if False:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
""",
    },
    # ---------------------------------------------------------- policy_table
    {
        "id": "fp32-policy-at-default-precision-one-bf1",
        "function": "policy_table",
        "name": "fp32 policy at DEFAULT precision (one bf16 pass on TPU, TF32 on A100/H100): not exact on every backend",
        "explanation": "",
        "section": "",
        "why": "fp32 policy at DEFAULT precision (one bf16 pass on TPU, TF32 on A100/H100): not exact on every backend",
        "only_under": "tpu",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / math.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    denom = np.max(np.abs(exact))
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    f_fp32 = jax.jit(lambda x, w: jnp.dot(x, w))
    f_bf16 = jax.jit(lambda x, wb: jnp.dot(x.astype(jnp.bfloat16), wb, preferred_element_type=jnp.float32))
    f_wo = jax.jit(lambda x, q, s: jnp.dot(x.astype(jnp.bfloat16), q.astype(jnp.bfloat16),
                                           preferred_element_type=jnp.float32) * s)
    f_w8a8 = jax.jit(w8a8_matmul)
    rows = []
    for name, f, args, nbytes in [("fp32", f_fp32, (x, w), 4 * k * n), ("bf16", f_bf16, (x, w_bf16), 2 * k * n),
                                  ("int8_weight_only", f_wo, (x, q_w, s_w), k * n + 4 * n),
                                  ("w8a8", f_w8a8, (x, q_w, s_w), k * n + 4 * n)]:
        out = np.asarray(f(*args), np.float64)
        rows.append({"policy": name, "max_rel_err": float(np.max(np.abs(out - exact)) / denom),
                     "weight_bytes": int(nbytes), "median_ms": benchmark(f, *args)["median_ms"]})
    return rows
""",
    },
    # ------------------------------------------------------------- benchmark
    {
        "id": "always-at-least-one-warm-up-call-max-war",
        "function": "benchmark",
        "name": "always at least one warm-up call: max(warmup, 1) -> fn called 1+iters times when warmup=0",
        "explanation": "",
        "section": "",
        "why": "always at least one warm-up call: max(warmup, 1) -> fn called 1+iters times when warmup=0",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(max(warmup, 1)):
        jax.block_until_ready(fn(*args))
    times_ms = []
    for _ in range(iters):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times_ms.append((time.perf_counter() - t0) * 1e3)
    med = float(np.median(times_ms)); mn = float(np.min(times_ms))
    return {"median_ms": med, "min_ms": mn}
""",
    },
    {
        "id": "upper-median-sorted-len-2-wrong-for-even",
        "function": "benchmark",
        "name": "upper median sorted[len//2] (wrong for even iters, e.g. the default 10)",
        "explanation": "",
        "section": "",
        "why": "upper median sorted[len//2] (wrong for even iters, e.g. the default 10)",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times_ms = []
    for _ in range(iters):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times_ms.append((time.perf_counter() - t0) * 1e3)
    s = sorted(times_ms); med = float(s[len(s) // 2]); mn = float(s[0])
    return {"median_ms": med, "min_ms": mn}
""",
    },
    {
        "id": "uses-the-block-until-ready-method-fails",
        "function": "benchmark",
        "name": "uses the .block_until_ready() method: fails for pytree (tuple/dict) outputs",
        "explanation": "",
        "section": "",
        "why": "uses the .block_until_ready() method: fails for pytree (tuple/dict) outputs",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        fn(*args).block_until_ready()
    times_ms = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn(*args).block_until_ready()
        times_ms.append((time.perf_counter() - t0) * 1e3)
    med = float(np.median(times_ms)); mn = float(np.min(times_ms))
    return {"median_ms": med, "min_ms": mn}
""",
    },
    # ---------------------------------------------------------- policy_table
    {
        "id": "int8-weight-only-dequantizes-then-rounds",
        "function": "policy_table",
        "name": "int8_weight_only dequantizes then rounds the dequantized weights to bf16 (extra bf16 rounding of w)",
        "explanation": "",
        "section": "",
        "why": "int8_weight_only dequantizes then rounds the dequantized weights to bf16 (extra bf16 rounding of w)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(x.astype(jnp.bfloat16), (q_w * s_w).astype(jnp.bfloat16), preferred_element_type=jnp.float32))
    w8a8 = jax.jit(w8a8_matmul)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "id": "w-drawn-as-n-k-and-transposed",
        "function": "policy_table",
        "name": "w drawn as (n, k) and transposed",
        "explanation": "",
        "section": "",
        "why": "w drawn as (n, k) and transposed",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (n, k), dtype=jnp.float32).T / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    w8a8 = jax.jit(w8a8_matmul)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
""",
    },
    # ----------------------------------------------- train_linear_regression
    {
        "id": "fp32-gradient-dot-at-default-precision-x",
        "function": "train_linear_regression",
        "name": "fp32 gradient dot at DEFAULT precision (X.T @ r), forward at HIGHEST",
        "explanation": "",
        "section": "",
        "why": "fp32 gradient dot at DEFAULT precision (X.T @ r), forward at HIGHEST",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    y_c = y
    def loss_and_grad(w):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            r = pred - y
            g = (2.0 / n) * (X.T @ r)
            loss = jnp.mean(r * r)
        else:
            w_c = w.astype(jnp.bfloat16)
            pred = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32)
            r = pred - y_c
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
            loss = jnp.mean(r * r)
        return loss, g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
    return losses
""",
    },
    {
        "id": "bf16-policies-also-round-the-targets-y-t",
        "function": "train_linear_regression",
        "name": "bf16 policies also round the targets y to bf16",
        "explanation": "",
        "section": "",
        "why": "bf16 policies also round the targets y to bf16",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    y_c = y.astype(jnp.bfloat16).astype(jnp.float32)
    def loss_and_grad(w):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            r = pred - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
            loss = jnp.mean(r * r)
        else:
            w_c = w.astype(jnp.bfloat16)
            pred = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32)
            r = pred - y_c
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
            loss = jnp.mean(r * r)
        return loss, g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
    return losses
""",
    },
    {
        "id": "bf16-policies-report-the-loss-rounded-to",
        "function": "train_linear_regression",
        "name": "bf16 policies report the loss rounded to bf16",
        "explanation": "",
        "section": "",
        "why": "bf16 policies report the loss rounded to bf16",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    y_c = y
    def loss_and_grad(w):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            r = pred - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
            loss = jnp.mean(r * r)
        else:
            w_c = w.astype(jnp.bfloat16)
            pred = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32)
            r = pred - y_c
            g = (2.0 / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
            loss = jnp.mean(r * r).astype(jnp.bfloat16)
        return loss, g
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grad(w)
        losses.append(float(loss))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
    return losses
""",
    },
]
