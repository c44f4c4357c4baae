"""Known wrong answers to 05_precision_policy's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

# Never diagnosed, compared by kind only, answered without timing (autograder/common/mistakes.py).
NOT_DIAGNOSED = {"benchmark": "times the callables a test lends it: timings, and arguments that are not data"}
TIMINGS = {"policy_table": ["median_ms"]}
# Replaying policy_table would run its twelve timed calls per policy for each mistake: the
# replayed benchmark answers this instead (its values are TIMINGS, compared by kind only).
TIMERS = {"benchmark": {"median_ms": 0.0, "min_ms": 0.0}}

# Numbers compared by value, whatever type carries them (autograder/common/mistakes.py): the reason.
NUMBERS_BY_VALUE = {
    "policy_table": "errors and bytes: their values are the data",
}

MISTAKES = [
    # ------------------------------------------------------------- benchmark
    {
        "id": "no-warmup",
        "function": "benchmark",
        "name": "no warm-up calls: the first timed call includes compilation",
        "explanation": "Your function starts timing at once, so the first timed call traces and compiles the function and its time is mostly the compiler's. The warm-up calls pay that one-off cost before the clock runs; without them your function also calls fn fewer times than the contract's warm-up plus timed calls.",
        "section": "1. Timing JAX honestly",
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
        "id": "no-sync",
        "function": "benchmark",
        "name": "calls not synchronised: only the dispatch is timed",
        "explanation": "Your function never waits for the results, so each timing stops as soon as the call has been queued. JAX dispatches work asynchronously: a call returns before its result is computed, and only waiting for the result measures the work itself.",
        "section": "1. Timing JAX honestly",
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
        "id": "sync-once-after-loop",
        "function": "benchmark",
        "name": "synchronises once after the loop, not after each timed call",
        "explanation": "Your function waits for a result only after the timed loop, so each individual timing still stops when its call was queued, not when its work finished. Every timed call needs its own wait for its result before its clock stops.",
        "section": "1. Timing JAX honestly",
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
        "id": "mean-not-median",
        "function": "benchmark",
        "name": "reports the mean instead of the median",
        "explanation": "Your median_ms is the average of the timed calls. A single slow call (another process, a garbage collection) pulls the mean up while the median ignores it, and that robustness is why the benchmark reports the median.",
        "section": "Exercise 1: `benchmark` (3 points)",
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
        "id": "seconds-not-milliseconds",
        "function": "benchmark",
        "name": "times in seconds instead of milliseconds",
        "explanation": "Your function returns the timer's differences in seconds, so both numbers are 1000 times too small. The keys promise milliseconds: convert before returning.",
        "section": "Exercise 1: `benchmark` (3 points)",
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
        "id": "loop-average",
        "function": "benchmark",
        "name": "times the whole loop: an average, neither median nor minimum",
        "explanation": "Your function times all the timed calls together and divides by their number, so median_ms and min_ms are both the mean time per call. A median and a minimum need each call timed on its own, and the mean is pulled up by any slow call.",
        "section": "Exercise 1: `benchmark` (3 points)",
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
        "id": "int8-bytes-miss-scales",
        "function": "policy_table",
        "name": "int8 weight bytes leave out the per-column scales",
        "explanation": "Your weight_bytes for the two int8 policies count only the int8 values. Those weights are useless without their per-column float32 scales, which are stored as well, so the scales belong in what the policy costs in memory.",
        "section": "2. Four precision policies for one layer",
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
        "id": "bf16-bytes-as-fp32",
        "function": "policy_table",
        "name": "bf16 weight bytes counted from the float32 copy",
        "explanation": "Your bf16 row reports the bytes of the original float32 weights, twice what the policy stores. weight_bytes counts the weights in the format each policy keeps them in, and bfloat16 takes 2 bytes a value.",
        "section": "2. Four precision policies for one layer",
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
        "id": "int8-dot-wraps",
        "function": "policy_table",
        "name": "w8a8's int8 dot returns int8, so its sums wrap around",
        "explanation": "Your w8a8 multiplies the int8 activations and weights without asking for a wider result type, so the dot returns int8 and every sum beyond the int8 range wraps around. As in lesson 03, an int8 by int8 product has to be accumulated in int32, and that accumulator type must be requested.",
        "section": "2. Four precision policies for one layer",
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
        "id": "per-tensor-activations",
        "function": "policy_table",
        "name": "w8a8 quantizes the activations with one scale for the whole tensor",
        "explanation": "Your w8a8 uses a single scale for all the activations instead of one per row. Rows of small values then use only a few int8 levels and their error grows; the w8a8 policy quantizes activations per row, each row scaled by its own absolute maximum.",
        "section": "2. Four precision policies for one layer",
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
        "id": "truncates-activations",
        "function": "policy_table",
        "name": "w8a8 truncates the activations toward zero instead of rounding",
        "explanation": "Your w8a8 quantizes the activations by dropping the fractional part, which biases every value toward zero and doubles the worst-case quantization error. Lesson 03's quantizer rounds to the nearest integer (ties to even) and clips to the symmetric int8 range.",
        "section": "2. Four precision policies for one layer",
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
        "id": "bf16-via-default-precision",
        "function": "policy_table",
        "name": "bf16 policy relies on default precision meaning bf16 (TPU only)",
        "explanation": "Your bf16 policy multiplies the float32 activations by the float32 weights (not the stored bf16 copy) at default precision, counting on the backend to round them to bf16. Only a TPU does that; on a CPU, or under a higher default matmul precision, the same code computes in float32, so a bf16 policy has to say what it computes.",
        "section": "2. Four precision policies for one layer",
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
        "id": "bf16-output",
        "function": "policy_table",
        "name": "bf16 policy returns a bf16 output, not float32",
        "explanation": "Your bf16 policy multiplies bf16 inputs without asking for a float32 result, so the output is rounded to bfloat16 as well and adds its own rounding error. The policy is bf16 inputs with float32 accumulation and a float32 output, and the result type has to be requested explicitly.",
        "section": "Exercise 2: `policy_table` (4 points)",
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
        "id": "float16-not-bfloat16",
        "function": "policy_table",
        "name": "bf16 policy rounds to float16 instead of bfloat16",
        "explanation": "Your bf16 policy converts the inputs and weights to float16, a different 16-bit format with 10 fraction bits and a narrow exponent range, so on this unit-scale data its error is smaller than the policy's. bfloat16 keeps float32's exponent range with only 7 fraction bits, and its error is the one to measure.",
        "section": "2. Four precision policies for one layer",
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
        "id": "reference-not-exact",
        "function": "policy_table",
        "name": "reference computed from bf16 inputs, not exactly",
        "explanation": "Your reference product is itself computed from bf16-rounded inputs, so every error is measured against a rounded answer: the bf16 policy looks nearly perfect and the fp32 policy looks wrong. The reference must be the exact product, computed well above the precision of every policy, on every backend.",
        "section": "Exercise 2: `policy_table` (4 points)",
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
        "id": "elementwise-rel-err",
        "function": "policy_table",
        "name": "relative error per element, not against the whole output's scale",
        "explanation": "Your max_rel_err divides each element's error by that element's own size, so an output close to zero makes the ratio huge and the policy look far worse than it is. The contract measures the largest absolute error relative to the largest exact output, one scale for the whole output.",
        "section": "Exercise 2: `policy_table` (4 points)",
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
        "id": "bf16-params-kept-fp32",
        "function": "train_linear_regression",
        "name": "bf16_params keeps float32 parameters, rounding only for compute",
        "explanation": "Your bf16_params policy stores and updates its parameters in float32 and rounds them to bf16 only for the matmuls, which is the master-weights policy under another name. The point of bf16_params is that the stored parameters themselves are bfloat16, so updates smaller than half a bf16 ulp are rounded away and training stalls.",
        "section": "6. Mixed-precision training: why fp32 master weights",
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
        "id": "master-rounded-to-bf16",
        "function": "train_linear_regression",
        "name": "master weights rounded back to bf16 after every step",
        "explanation": "Your bf16_master_fp32 policy rounds its parameters to bfloat16 after each update, so small updates are lost exactly as in bf16_params and it stalls too. The float32 master copy must keep every update, so that small steps accumulate until they move the bf16 copy used for compute.",
        "section": "6. Mixed-precision training: why fp32 master weights",
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
        "id": "returns-jax-arrays",
        "function": "train_linear_regression",
        "name": "losses returned as JAX arrays, not Python floats",
        "explanation": "Your list holds JAX scalar arrays rather than Python floats. The contract asks for plain floats, which compare, print and save as ordinary numbers.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
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
        "id": "one-loss-too-many",
        "function": "train_linear_regression",
        "name": "one loss too many: steps + 1 values",
        "explanation": "Your function runs one update too many and returns steps + 1 losses. losses[t] is the loss before update t, for the steps updates the caller asked for, so the list has exactly steps values.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
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
        "id": "ignores-seed",
        "function": "train_linear_regression",
        "name": "ignores the seed: always the same problem",
        "explanation": "Your function always builds the regression problem of seed 0, whatever seed it is given. The seed chooses the data, and a function that ignores it cannot be run on a fresh problem.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
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
        "id": "ignores-lr",
        "function": "train_linear_regression",
        "name": "ignores lr: the learning rate is fixed",
        "explanation": "Your function updates with a fixed step size of 0.1 instead of the lr it receives, so any other learning rate gives the same losses as the default. Every argument of the contract must change what the function does.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
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
        "id": "loss-after-update",
        "function": "train_linear_regression",
        "name": "records the loss after each update, not before",
        "explanation": "Your function records the loss of the parameters after each update, so the first value is already one step in. losses[t] is the loss before update t: the first one is the loss at the starting point, with all parameters zero.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
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
        "id": "master-computes-in-fp32",
        "function": "train_linear_regression",
        "name": "bf16_master_fp32 computes in float32, not in bf16",
        "explanation": "Your bf16_master_fp32 policy runs the forward pass and the gradient in float32 at full precision, so it is the fp32 policy under another name. Mixed precision keeps a float32 master copy but computes with that copy rounded to bf16: the cheap bf16 compute is the reason to use it.",
        "section": "6. Mixed-precision training: why fp32 master weights",
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
        "id": "gradient-missing-factor-2",
        "function": "train_linear_regression",
        "name": "gradient off by a factor of two",
        "explanation": "Your gradient is half the gradient of the mean squared error: differentiating the square brings down a factor of 2 that your code drops. Every step is then half the size plain gradient descent takes with this lr, and the losses follow a different, slower trajectory.",
        "section": "6. Mixed-precision training: why fp32 master weights",
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
    # ---------------------------------------------------------- policy_table
    {
        "id": "fp32-default-precision",
        "function": "policy_table",
        "name": "fp32 policy at default precision: not exact on every backend",
        "explanation": "Your fp32 policy multiplies at default precision, which on a TPU is a single bf16 pass (and TF32 on recent NVIDIA GPUs), so there its error is far from float32's. A float32 policy has to ask for the highest matmul precision to mean the same thing on every backend.",
        "section": "2. Four precision policies for one layer",
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
        "id": "forces-one-warmup",
        "function": "benchmark",
        "name": "always makes a warm-up call, even when warmup is 0",
        "explanation": "Your function makes one warm-up call even when the caller asks for none, so fn runs once more than warmup plus iters. The caller decides how many untimed calls to make (the function may be warm already, or every call may cost something), and the contract fixes the total.",
        "section": "Exercise 1: `benchmark` (3 points)",
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
        "id": "upper-median",
        "function": "benchmark",
        "name": "median of an even count taken as the upper middle value",
        "explanation": "Your function takes the timing just above the middle of the sorted list. With an even number of timed calls, such as the default 10, the median lies halfway between the two middle values, so your value is too high whenever they differ.",
        "section": "Exercise 1: `benchmark` (3 points)",
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
        "id": "array-method-not-pytree",
        "function": "benchmark",
        "name": "waits with the array's own method: fails for tuple or dict results",
        "explanation": "Your function calls the block_until_ready method of each result, which only a single array has, so a function that returns several arrays (a tuple or a dict) makes it fail. JAX's function of the same name waits for a whole pytree of arrays, whatever its structure.",
        "section": "Exercise 1: `benchmark` (3 points)",
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
        "id": "dequantized-w-rounded-bf16",
        "function": "policy_table",
        "name": "weight-only policy rounds the dequantized weights to bf16",
        "explanation": "Your int8_weight_only policy multiplies the int8 values by their scales first and then rounds those weights to bf16, adding a bf16 rounding on top of the int8 one. Integers up to 256 are exact in bfloat16 but scaled weights are not, which is why the lesson's weight-only scheme applies the scales after the dot.",
        "section": "2. Four precision policies for one layer",
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
        "id": "w-drawn-transposed",
        "function": "policy_table",
        "name": "weights drawn in the transposed shape, then transposed",
        "explanation": "Your function draws the weights with the transposed shape and transposes them, so the same key gives different numbers from the ones the contract specifies. A random draw depends on the shape asked for: the data must be drawn exactly as the exercise describes.",
        "section": "Exercise 2: `policy_table` (4 points)",
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
        "id": "targets-rounded-bf16",
        "function": "train_linear_regression",
        "name": "bf16 policies round the targets to bf16 too",
        "explanation": "Your bf16 policies compare the predictions with targets rounded to bfloat16, so they fit slightly different data and even their first loss differs from the fp32 one. A precision policy decides how parameters are stored and computed with; the data stays the same for every policy.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
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
        "id": "loss-rounded-bf16",
        "function": "train_linear_regression",
        "name": "bf16 policies report the loss rounded to bf16",
        "explanation": "Your bf16 policies round the loss itself to bfloat16 before recording it, so it keeps only 8 significant bits (2 to 3 decimal digits) and differs from the float32 loss even at the start. The loss is computed in float32 for every policy, from that policy's predictions.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
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
    # ------------------------------------------ rounding by a cast inside jit (a TPU drops it)
    {
        "id": "cast-round-trip-in-jit",
        "function": "policy_table",
        "name": "rounding by a cast round trip inside jit",
        "explanation": "Your bf16 policy rounds x to bfloat16 with a plain cast inside the jitted function. A CPU keeps that rounding, but inside jit a TPU's compiler may compute with more precision than the types say: for a product with a single term it multiplied by the unrounded x, so your bf16 error was that of the weights alone. Round with reduce_precision (the toolbox's to_bf16), or pass x in already rounded.",
        "section": "Casts inside `jax.jit`: what the chip does with them",
        "why": "x.astype(bf16) inside jit: a v5e (JAX 0.10.2) dropped it for K = 1 under highest, bf16 max_rel_err 1.80e-3 vs [3.9527e-3, 3.9546e-3]; plain CPU rounds, the TPU emulation drops it as the chip does",
        "only_under": "tpu",
        "visible_fails": True,
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
    w8a8 = jax.jit(w8a8_matmul)
    runs = [("fp32", fp32, (x, w), w.nbytes), ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
            ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
            ("w8a8", w8a8, (x, q_w, s_w), q_w.nbytes + s_w.nbytes)]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({"policy": name, "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
                     "weight_bytes": int(nbytes), "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return rows
""",
    },
    {
        "id": "cast-round-trip-in-jit",
        "function": "train_linear_regression",
        "name": "rounding by a cast round trip inside jit",
        "explanation": "Your mixed-precision step rounds the master weights to bfloat16 with a plain cast inside a scanned (compiled) step. A CPU keeps that rounding, but a TPU's compiler may drop it inside jit: its matrix-vector products then used the unrounded float32 weights, and your bf16_master_fp32 losses equalled fp32's at every step. Round with reduce_precision (the toolbox's to_bf16) where a value must become bf16 inside a compiled step.",
        "section": "Casts inside `jax.jit`: what the chip does with them",
        "why": "w.astype(bf16) inside lax.scan: on a v5e (JAX 0.10.2) bf16_master_fp32 equalled fp32 at every step; plain CPU rounds, the TPU emulation drops it as the chip does",
        "only_under": "tpu",
        "visible_fails": True,
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

    def step(w, _):
        loss, g = loss_and_grad(w)
        if policy == "bf16_params":
            w_new = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w_new = w - lr * g
        return w_new, loss

    w0 = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    _, losses = jax.lax.scan(step, w0, None, length=steps)
    return [float(v) for v in np.asarray(losses)]
""",
    },
    # ---------------------------------------------------------- policy_table
    {
        "id": "bf16-weights-f32-activations",
        "function": "policy_table",
        "name": "bf16 policy keeps float32 activations, counting on default precision",
        "explanation": "Your bf16 policy multiplies the float32 activations by the stored bf16 weights, so the matmul is promoted to float32 and runs at default precision: the activations are rounded to bf16 only where the backend does it for you. Only a TPU does that; on a CPU, or under a higher default matmul precision, the activations stay float32 and the policy is not the bf16 matmul it claims to be. Revisit how the bf16 policy rounds its inputs itself.",
        "section": "2. Four precision policies for one layer",
        "why": "jnp.dot(x, w_bf16): f32 x bf16 promotes to an f32 dot at DEFAULT; x is rounded only by a TPU's DEFAULT precision (differs from bf16-via-default-precision: the weights are the bf16 copy)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(x, w_bf16))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        to_bf16(x), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
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
        "id": "keys-swapped",
        "function": "policy_table",
        "name": "random keys swapped between x and w",
        "explanation": "Your function draws x from the second key and w from the first, so its data differ from the ones the contract specifies and so do all the errors. The contract fixes which key makes which matrix. Revisit the data the exercise asks for.",
        "section": "Exercise 2: `policy_table` (4 points)",
        "why": "x from k2, w from k1",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    kw, kx = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(kx, (m, k), dtype=jnp.float32)
    w = jax.random.normal(kw, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_bf16: jnp.dot(to_bf16(x), w_bf16, preferred_element_type=jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        to_bf16(x), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
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
        "id": "absolute-not-relative",
        "function": "policy_table",
        "name": "max_rel_err is the largest absolute error, not a relative one",
        "explanation": "Your max_rel_err is the largest absolute difference from the exact output, never divided by the exact output's largest magnitude. A relative error does not depend on the size of the layer's outputs, which is what lets policies and layers be compared. Revisit the definition of max_rel_err in the exercise.",
        "section": "Exercise 2: `policy_table` (4 points)",
        "why": "max|out - exact| without / max|exact|",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    HI = jax.lax.Precision.HIGHEST
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=HI))
    bf16 = jax.jit(lambda x, wb: jnp.dot(to_bf16(x), wb, preferred_element_type=jnp.float32))
    wo = jax.jit(lambda x, q, s: jnp.dot(to_bf16(x), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s)
    a8 = jax.jit(w8a8_matmul)
    WO_BYTES = q_w.nbytes + s_w.nbytes

    runs = [("fp32", fp32, (x, w), w.nbytes), ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
            ("int8_weight_only", wo, (x, q_w, s_w), WO_BYTES), ("w8a8", a8, (x, q_w, s_w), WO_BYTES)]
    rows = []
    for name, fn, args, nb in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({"policy": name, "max_rel_err": float(np.max(np.abs(out - exact))), "weight_bytes": int(nb),
                     "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return rows
""",
    },
    {
        "id": "rel-err-over-mean",
        "function": "policy_table",
        "name": "error divided by the mean magnitude of the output, not its largest",
        "explanation": "Your max_rel_err divides the largest error by the mean magnitude of the exact output instead of its largest magnitude. The mean is several times smaller than the maximum, so every error comes out several times too large. The contract divides by the largest magnitude of the exact output.",
        "section": "Exercise 2: `policy_table` (4 points)",
        "why": "max|out - exact| / mean|exact|",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    HI = jax.lax.Precision.HIGHEST
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=HI))
    bf16 = jax.jit(lambda x, wb: jnp.dot(to_bf16(x), wb, preferred_element_type=jnp.float32))
    wo = jax.jit(lambda x, q, s: jnp.dot(to_bf16(x), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s)
    a8 = jax.jit(w8a8_matmul)
    WO_BYTES = q_w.nbytes + s_w.nbytes

    runs = [("fp32", fp32, (x, w), w.nbytes), ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
            ("int8_weight_only", wo, (x, q_w, s_w), WO_BYTES), ("w8a8", a8, (x, q_w, s_w), WO_BYTES)]
    rows = []
    for name, fn, args, nb in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({"policy": name, "max_rel_err": float(np.max(np.abs(out - exact)) / np.mean(np.abs(exact))), "weight_bytes": int(nb),
                     "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return rows
""",
    },
    {
        "id": "rel-err-of-norms",
        "function": "policy_table",
        "name": "ratio of norms instead of the largest error over the largest output",
        "explanation": "Your max_rel_err is the norm of the error over the norm of the exact output, an average over all elements, not the worst one. The contract measures the largest error of any element, relative to the largest magnitude of the exact output. Revisit the definition of max_rel_err.",
        "section": "Exercise 2: `policy_table` (4 points)",
        "why": "norm(out - exact) / norm(exact) (Frobenius)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    HI = jax.lax.Precision.HIGHEST
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=HI))
    bf16 = jax.jit(lambda x, wb: jnp.dot(to_bf16(x), wb, preferred_element_type=jnp.float32))
    wo = jax.jit(lambda x, q, s: jnp.dot(to_bf16(x), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s)
    a8 = jax.jit(w8a8_matmul)
    WO_BYTES = q_w.nbytes + s_w.nbytes

    runs = [("fp32", fp32, (x, w), w.nbytes), ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
            ("int8_weight_only", wo, (x, q_w, s_w), WO_BYTES), ("w8a8", a8, (x, q_w, s_w), WO_BYTES)]
    rows = []
    for name, fn, args, nb in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({"policy": name, "max_rel_err": float(np.linalg.norm(out - exact) / np.linalg.norm(exact)), "weight_bytes": int(nb),
                     "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return rows
""",
    },
    {
        "id": "weight-only-no-rescale",
        "function": "policy_table",
        "name": "weight-only policy never applies the weight scales",
        "explanation": "Your int8_weight_only policy multiplies the activations by the int8 codes but never multiplies the result by the per-column scales, so its outputs are the codes' size, far from the layer's. A code is only a weight once it is multiplied by its column's scale. Revisit the table of policies: the weight-only product is rescaled per column.",
        "section": "2. Four precision policies for one layer",
        "why": "int8_weight_only: dot(x_bf16, q_w) without * s_w",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    HI = jax.lax.Precision.HIGHEST
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=HI))
    bf16 = jax.jit(lambda x, wb: jnp.dot(to_bf16(x), wb, preferred_element_type=jnp.float32))
    wo = jax.jit(lambda x, q, s: jnp.dot(to_bf16(x), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s)
    a8 = jax.jit(w8a8_matmul)
    WO_BYTES = q_w.nbytes + s_w.nbytes

    wo = jax.jit(lambda x, q, s: jnp.dot(to_bf16(x), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32))

    runs = [("fp32", fp32, (x, w), w.nbytes), ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
            ("int8_weight_only", wo, (x, q_w, s_w), WO_BYTES), ("w8a8", a8, (x, q_w, s_w), WO_BYTES)]
    rows = []
    for name, fn, args, nb in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({"policy": name, "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))), "weight_bytes": int(nb),
                     "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return rows
""",
    },
    {
        "id": "per-tensor-weights",
        "function": "policy_table",
        "name": "int8 policies quantize the weights with one scale for the tensor",
        "explanation": "Your int8 policies quantize the weights with a single scale for the whole matrix (and count one scale's bytes) instead of one scale per output column. One scale lets the largest weight anywhere set the step of every column, which raises the error; the policies in this lesson store per-column scales. Revisit the table of policies.",
        "section": "2. Four precision policies for one layer",
        "why": "quantize_symmetric(w, axis=None): per-tensor scale, bytes K*N + 4",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    HI = jax.lax.Precision.HIGHEST
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=HI))
    bf16 = jax.jit(lambda x, wb: jnp.dot(to_bf16(x), wb, preferred_element_type=jnp.float32))
    wo = jax.jit(lambda x, q, s: jnp.dot(to_bf16(x), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s)
    a8 = jax.jit(w8a8_matmul)
    WO_BYTES = q_w.nbytes + s_w.nbytes

    q_w, s_w = quantize_symmetric(w, axis=None)
    s_w = jnp.reshape(s_w, ())
    WO_BYTES = q_w.nbytes + 4
    a8 = jax.jit(lambda x, q, s: w8a8_matmul(x, q, jnp.full((1, q.shape[1]), s)))

    runs = [("fp32", fp32, (x, w), w.nbytes), ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
            ("int8_weight_only", wo, (x, q_w, s_w), WO_BYTES), ("w8a8", a8, (x, q_w, s_w), WO_BYTES)]
    rows = []
    for name, fn, args, nb in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({"policy": name, "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))), "weight_bytes": int(nb),
                     "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return rows
""",
    },
    {
        "id": "scales-counted-per-row",
        "function": "policy_table",
        "name": "int8 bytes count one scale per row of the weights, not per column",
        "explanation": "Your int8 policies' weight_bytes add four bytes for every row of the weight matrix (every input) instead of every output column. The scales are per column, one float32 for each of the n outputs, however many inputs there are. Revisit how the stored bytes of the int8 policies are counted.",
        "section": "2. Four precision policies for one layer",
        "why": "weight_bytes = K*N + 4*K instead of K*N + 4*N",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    HI = jax.lax.Precision.HIGHEST
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=HI))
    bf16 = jax.jit(lambda x, wb: jnp.dot(to_bf16(x), wb, preferred_element_type=jnp.float32))
    wo = jax.jit(lambda x, q, s: jnp.dot(to_bf16(x), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s)
    a8 = jax.jit(w8a8_matmul)
    WO_BYTES = q_w.nbytes + s_w.nbytes

    WO_BYTES = q_w.nbytes + 4 * q_w.shape[0]

    runs = [("fp32", fp32, (x, w), w.nbytes), ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
            ("int8_weight_only", wo, (x, q_w, s_w), WO_BYTES), ("w8a8", a8, (x, q_w, s_w), WO_BYTES)]
    rows = []
    for name, fn, args, nb in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({"policy": name, "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))), "weight_bytes": int(nb),
                     "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return rows
""",
    },
    {
        "id": "one-loss-too-few",
        "function": "train_linear_regression",
        "name": "one loss too few: steps - 1 values",
        "explanation": "Your function returns one loss fewer than steps. There is one loss for every update, the loss of the parameters before that update, so the list has exactly steps entries. Revisit the contract's definition of the losses list.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
        "why": "range(steps - 1)",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    HI = jax.lax.Precision.HIGHEST
    Xb = X.astype(jnp.bfloat16)
    w = jnp.zeros(d, jnp.float32)
    losses = []
    for t in range(steps - 1):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HI)
            r = pred - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HI)
        else:
            wc = w.astype(jnp.bfloat16)
            pred = jnp.dot(Xb, wc, preferred_element_type=jnp.float32)
            r = pred.astype(jnp.float32) - y
            g = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        losses.append(float(jnp.mean(r * r)))
        w = w - lr * g
        if policy == "bf16_params":
            w = w.astype(jnp.bfloat16).astype(jnp.float32)
    return losses
""",
    },
    {
        "id": "sum-not-mean-loss",
        "function": "train_linear_regression",
        "name": "loss summed over the examples instead of averaged",
        "explanation": "Your loss adds up the squared residuals instead of averaging them, so every value is the number of examples times the mean squared error. The contract's loss is the mean of the squared residuals; a sum grows with the data set and cannot be compared between problems.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
        "why": "jnp.sum(r * r) instead of jnp.mean(r * r)",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    HI = jax.lax.Precision.HIGHEST
    Xb = X.astype(jnp.bfloat16)
    w = jnp.zeros(d, jnp.float32)
    losses = []
    for t in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HI)
            r = pred - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HI)
        else:
            wc = w.astype(jnp.bfloat16)
            pred = jnp.dot(Xb, wc, preferred_element_type=jnp.float32)
            r = pred.astype(jnp.float32) - y
            g = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        losses.append(float(jnp.sum(r * r)))
        w = w - lr * g
        if policy == "bf16_params":
            w = w.astype(jnp.bfloat16).astype(jnp.float32)
    return losses
""",
    },
    {
        "id": "rmse-loss",
        "function": "train_linear_regression",
        "name": "root mean squared error reported instead of the mean squared error",
        "explanation": "Your losses are the square roots of the mean squared error. The contract's loss is the mean squared error itself, so each of your values is the square root of the expected one. Revisit how the loss is defined in the exercise.",
        "section": "Exercise 3: `train_linear_regression` (4 points)",
        "why": "sqrt(mean(r * r))",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    HI = jax.lax.Precision.HIGHEST
    Xb = X.astype(jnp.bfloat16)
    w = jnp.zeros(d, jnp.float32)
    losses = []
    for t in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HI)
            r = pred - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HI)
        else:
            wc = w.astype(jnp.bfloat16)
            pred = jnp.dot(Xb, wc, preferred_element_type=jnp.float32)
            r = pred.astype(jnp.float32) - y
            g = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        losses.append(float(jnp.sqrt(jnp.mean(r * r))))
        w = w - lr * g
        if policy == "bf16_params":
            w = w.astype(jnp.bfloat16).astype(jnp.float32)
    return losses
""",
    },
    # ---------------- other people's answers the chip fails: a plain cast inside jit (issue 51)
    {
        "id": "cast-in-jit-jitted-lambdas",
        "function": "policy_table",
        "name": "rounding by a plain cast inside jit (the chip drops it)",
        "explanation": "Your bf16 policy rounds x to bfloat16 with a plain cast inside the jitted function. A CPU keeps that rounding, but inside jit a TPU's compiler keeps a cast value in float32 unless it is stored or fed to the matrix unit: for a matrix-vector product or a product with a single term it used the unrounded x, so your bf16 policy's error was that of the weights alone. Round with reduce_precision (the toolbox's to_bf16), or pass x in already rounded.",
        "section": "Casts inside `jax.jit`: what the chip does with them",
        "why": "written as a correct answer by a reviewer (float64 NumPy reference, jnp.dot with preferred_element_type, toolbox quantizer and w8a8_matmul, bytes from formula); on a TPU v5e (JAX 0.10.2, 2026-12-06) its hidden test failed: the cast inside jit was not rounded (chip/outcomes.json in this folder); the emulation catches it on a CPU",
        "only_under": "tpu",
        "visible_fails": True,
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / math.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    denom = np.max(np.abs(exact))

    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)

    f_fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    f_bf16 = jax.jit(lambda x, wb: jnp.dot(x.astype(jnp.bfloat16), wb, preferred_element_type=jnp.float32))
    f_wo = jax.jit(lambda x, q, s: jnp.dot(x.astype(jnp.bfloat16), q.astype(jnp.bfloat16),
                                           preferred_element_type=jnp.float32) * s)
    f_w8a8 = jax.jit(w8a8_matmul)

    specs = [
        ("fp32", f_fp32, (x, w), 4 * k * n),
        ("bf16", f_bf16, (x, w_bf16), 2 * k * n),
        ("int8_weight_only", f_wo, (x, q_w, s_w), k * n + 4 * n),
        ("w8a8", f_w8a8, (x, q_w, s_w), k * n + 4 * n),
    ]
    rows = []
    for name, f, args, nbytes in specs:
        out = np.asarray(f(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / denom),
            "weight_bytes": int(nbytes),
            "median_ms": benchmark(f, *args)["median_ms"],
        })
    return rows
""",
    },
    {
        "id": "cast-in-jit-dot-general",
        "function": "policy_table",
        "name": "rounding by a plain cast inside jit (the chip drops it)",
        "explanation": "Your bf16 policy rounds x to bfloat16 with a plain cast inside the jitted function. A CPU keeps that rounding, but inside jit a TPU's compiler keeps a cast value in float32 unless it is stored or fed to the matrix unit: for a matrix-vector product or a product with a single term it used the unrounded x, so your bf16 policy's error was that of the weights alone. Round with reduce_precision (the toolbox's to_bf16), or pass x in already rounded.",
        "section": "Casts inside `jax.jit`: what the chip does with them",
        "why": "written as a correct answer by a reviewer (f32 HIGHEST jnp reference (explicitly accepted), own per-column quantizer, lax.dot_general, bytes from .nbytes); on a TPU v5e (JAX 0.10.2, 2026-12-06) its hidden test failed: the cast inside jit was not rounded (chip/outcomes.json in this folder); the emulation catches it on a CPU",
        "only_under": "tpu",
        "visible_fails": True,
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    key = jax.random.PRNGKey(seed)
    k1, k2 = jax.random.split(key)
    x = jax.random.normal(k1, (m, k))
    w = jax.random.normal(k2, (k, n)) / jnp.sqrt(jnp.float32(k))
    exact = jnp.matmul(x, w, precision=HIGHEST)

    amax = jnp.abs(w).max(axis=0, keepdims=True)
    s_w = jnp.where(amax > 0, amax / 127.0, 1.0).astype(jnp.float32)
    q_w = jnp.clip(jnp.round(w / s_w), -127, 127).astype(jnp.int8)
    w_bf16 = w.astype(jnp.bfloat16)

    dn = (((1,), (0,)), ((), ()))

    @jax.jit
    def fp32(x, w):
        return jax.lax.dot_general(x, w, dn, precision=(HIGHEST, HIGHEST))

    @jax.jit
    def bf16(x, wb):
        return jax.lax.dot_general(x.astype(jnp.bfloat16), wb, dn, preferred_element_type=jnp.float32)

    @jax.jit
    def int8_wo(x, q, s):
        acc = jax.lax.dot_general(x.astype(jnp.bfloat16), q.astype(jnp.bfloat16), dn,
                                  preferred_element_type=jnp.float32)
        return acc * s

    @jax.jit
    def w8a8(x, q, s):
        ax = jnp.max(jnp.abs(x), axis=1, keepdims=True)
        sx = jnp.where(ax == 0, 1.0, ax / 127.0).astype(jnp.float32)
        qx = jnp.clip(jnp.round(x / sx), -127, 127).astype(jnp.int8)
        acc = jax.lax.dot_general(qx, q, dn, preferred_element_type=jnp.int32)
        return acc.astype(jnp.float32) * (sx * s)

    table = []
    for name, f, args, stored in [
        ("fp32", fp32, (x, w), [w]),
        ("bf16", bf16, (x, w_bf16), [w_bf16]),
        ("int8_weight_only", int8_wo, (x, q_w, s_w), [q_w, s_w]),
        ("w8a8", w8a8, (x, q_w, s_w), [q_w, s_w]),
    ]:
        out = f(*args)
        err = jnp.max(jnp.abs(out - exact)) / jnp.max(jnp.abs(exact))
        table.append(dict(policy=name, max_rel_err=float(err),
                          weight_bytes=int(sum(a.nbytes for a in stored)),
                          median_ms=float(benchmark(f, *args)["median_ms"])))
    return table
""",
    },
    {
        "id": "cast-in-jit-einsum",
        "function": "policy_table",
        "name": "rounding by a plain cast inside jit (the chip drops it)",
        "explanation": "Your bf16 policy rounds x to bfloat16 with a plain cast inside the jitted function. A CPU keeps that rounding, but inside jit a TPU's compiler keeps a cast value in float32 unless it is stored or fed to the matrix unit: for a matrix-vector product or a product with a single term it used the unrounded x, so your bf16 policy's error was that of the weights alone. Round with reduce_precision (the toolbox's to_bf16), or pass x in already rounded.",
        "section": "Casts inside `jax.jit`: what the chip does with them",
        "why": "written as a correct answer by a reviewer (dict of policies, jnp.einsum with preferred_element_type, int8 fed straight into the bf16 dot (promotes to bf16), float64 numpy reference via np.matmul); on a TPU v5e (JAX 0.10.2, 2026-12-06) its hidden test failed: the cast inside jit was not rounded (chip/outcomes.json in this folder); the emulation catches it on a CPU",
        "only_under": "tpu",
        "visible_fails": True,
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), jnp.float32)
    w = jax.random.normal(k2, (k, n), jnp.float32) * (1.0 / math.sqrt(k))
    x64 = np.array(x).astype(np.float64)
    w64 = np.array(w).astype(np.float64)
    exact = np.matmul(x64, w64)

    q, s = quantize_symmetric(w, axis=0)
    wb = w.astype(jnp.bfloat16)

    policies = {
        "fp32": (jax.jit(lambda a, b: jnp.einsum("mk,kn->mn", a, b, precision="highest")), (x, w),
                 w.size * 4),
        "bf16": (jax.jit(lambda a, b: jnp.einsum("mk,kn->mn", a.astype(jnp.bfloat16), b,
                                                 preferred_element_type=jnp.float32)), (x, wb),
                 wb.size * 2),
        "int8_weight_only": (jax.jit(lambda a, qq, ss: jnp.dot(a.astype(jnp.bfloat16), qq,
                                                              preferred_element_type=jnp.float32) * ss),
                             (x, q, s), q.size * 1 + s.size * 4),
        "w8a8": (jax.jit(lambda a, qq, ss: w8a8_matmul(a, qq, ss)), (x, q, s), q.size + 4 * s.size),
    }
    out_rows = []
    for name in ["fp32", "bf16", "int8_weight_only", "w8a8"]:
        f, args, nbytes = policies[name]
        y = np.array(jax.device_get(f(*args))).astype(np.float64)
        out_rows.append({"policy": name,
                         "max_rel_err": float(np.abs(y - exact).max() / np.abs(exact).max()),
                         "weight_bytes": int(nbytes),
                         "median_ms": benchmark(f, *args, warmup=3, iters=15)["median_ms"]})
    return out_rows
""",
    },
    {
        "id": "cast-in-jit-lax-dot",
        "function": "policy_table",
        "name": "rounding by a plain cast inside jit (the chip drops it)",
        "explanation": "Your bf16 policy rounds x to bfloat16 with a plain cast inside the jitted function. A CPU keeps that rounding, but inside jit a TPU's compiler keeps a cast value in float32 unless it is stored or fed to the matrix unit: for a matrix-vector product or a product with a single term it used the unrounded x, so your bf16 policy's error was that of the weights alone. Round with reduce_precision (the toolbox's to_bf16), or pass x in already rounded.",
        "section": "Casts inside `jax.jit`: what the chip does with them",
        "why": "written as a correct answer by a reviewer (x @ w written with lax.dot + Precision.HIGHEST; int8_weight_only rescales inside the dot input order (x_bf16 @ q) * s via broadcasting; math.fsum-free float64 reference with np.dot); on a TPU v5e (JAX 0.10.2, 2026-12-06) its hidden test failed: the cast inside jit was not rounded (chip/outcomes.json in this folder); the emulation catches it on a CPU",
        "only_under": "tpu",
        "visible_fails": True,
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, shape=(m, k))
    w = jax.random.normal(k2, shape=(k, n)) / np.sqrt(k)
    ref = np.dot(np.asarray(x).astype("float64"), np.asarray(w).astype("float64"))

    def rel(out):
        out = np.asarray(out).astype("float64")
        return float(np.abs(out - ref).max() / np.abs(ref).max())

    q_w, s_w = quantize_symmetric(w, axis=0)
    w_b = w.astype(jnp.bfloat16)

    fp32 = jax.jit(lambda x, w: jax.lax.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(lambda x, w_b: jax.lax.dot(x.astype(jnp.bfloat16), w_b,
                                              preferred_element_type=jnp.float32))
    def _wo(x, q_w, s_w):
        y = jax.lax.dot(x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16),
                        preferred_element_type=jnp.float32)
        return y * s_w.reshape(1, -1)
    wo = jax.jit(_wo)
    w8 = jax.jit(w8a8_matmul)

    result = []
    result.append({"policy": "fp32", "max_rel_err": rel(fp32(x, w)),
                   "weight_bytes": int(w.nbytes), "median_ms": benchmark(fp32, x, w)["median_ms"]})
    result.append({"policy": "bf16", "max_rel_err": rel(bf16(x, w_b)),
                   "weight_bytes": int(w_b.nbytes), "median_ms": benchmark(bf16, x, w_b)["median_ms"]})
    result.append({"policy": "int8_weight_only", "max_rel_err": rel(wo(x, q_w, s_w)),
                   "weight_bytes": int(q_w.nbytes + s_w.nbytes),
                   "median_ms": benchmark(wo, x, q_w, s_w)["median_ms"]})
    result.append({"policy": "w8a8", "max_rel_err": rel(w8(x, q_w, s_w)),
                   "weight_bytes": int(q_w.nbytes + s_w.nbytes),
                   "median_ms": benchmark(w8, x, q_w, s_w)["median_ms"]})
    return result
""",
    },
    {
        "id": "cast-in-jit-jitted-step",
        "function": "train_linear_regression",
        "name": "rounding by a plain cast inside jit (the chip drops it)",
        "explanation": "Your mixed-precision step rounds the master weights to bfloat16 with a plain cast inside a compiled step. A CPU keeps that rounding, but a TPU's compiler keeps a cast value in float32 when it feeds a matrix-vector product: the forward pass used the unrounded float32 weights, so your bf16_master_fp32 run was not bf16 compute. Round with reduce_precision (the toolbox's to_bf16) where a value must become bf16 inside a compiled step.",
        "section": "Casts inside `jax.jit`: what the chip does with them",
        "why": "written as a correct answer by a reviewer (jitted step per policy, residual kept in float32 (explicitly accepted), w.astype(bf16) of the master); on a TPU v5e (JAX 0.10.2, 2026-12-06) its hidden test failed: the cast inside jit was not rounded (chip/outcomes.json in this folder); the emulation catches it on a CPU",
        "only_under": "tpu",
        "visible_fails": True,
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(f"unknown policy {policy!r}")
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    X16 = X.astype(jnp.bfloat16)

    @jax.jit
    def step(w):
        if policy == "fp32":
            pred = jnp.matmul(X, w, precision=HIGHEST)
            g = 2.0 / n * jnp.matmul(X.T, pred - y, precision=HIGHEST)
        else:
            pred = jnp.matmul(X16, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
            g = 2.0 / n * jnp.matmul(X16.T, pred - y, preferred_element_type=jnp.float32)
        loss = jnp.mean(jnp.square(pred - y))
        new_w = w.astype(jnp.float32) - lr * g
        if policy == "bf16_params":
            new_w = new_w.astype(jnp.bfloat16)
        return new_w, loss

    w = jnp.zeros((X.shape[1],), jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        w, loss = step(w)
        losses.append(float(loss))
    return losses
""",
    },
    {
        "id": "cast-in-jit-scanned-run",
        "function": "train_linear_regression",
        "name": "rounding by a plain cast inside jit (the chip drops it)",
        "explanation": "Your mixed-precision step rounds the master weights to bfloat16 with a plain cast inside a compiled step. A CPU keeps that rounding, but a TPU's compiler keeps a cast value in float32 when it feeds a matrix-vector product: the forward pass used the unrounded float32 weights, so your bf16_master_fp32 run was not bf16 compute. Round with reduce_precision (the toolbox's to_bf16) where a value must become bf16 inside a compiled step.",
        "section": "Casts inside `jax.jit`: what the chip does with them",
        "why": "written as a correct answer by a reviewer (whole run in one jax.lax.scan (jitted), losses converted with .tolist() into Python floats); on a TPU v5e (JAX 0.10.2, 2026-12-06) its hidden test failed: the cast inside jit was not rounded (chip/outcomes.json in this folder); the emulation catches it on a CPU",
        "only_under": "tpu",
        "visible_fails": True,
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    Xb = X.astype(jnp.bfloat16)
    bf16_compute = policy in ("bf16_params", "bf16_master_fp32")
    if not bf16_compute and policy != "fp32":
        raise ValueError(policy)
    store = jnp.bfloat16 if policy == "bf16_params" else jnp.float32

    def body(w, _):
        if bf16_compute:
            pred = jax.lax.dot(Xb, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
            r = pred - y
            grad = jax.lax.dot(r.astype(jnp.bfloat16), Xb, preferred_element_type=jnp.float32) * (2.0 / n)
        else:
            pred = jax.lax.dot(X, w, precision=HIGHEST)
            r = pred - y
            grad = jax.lax.dot(r, X, precision=HIGHEST) * (2.0 / n)
        loss = jnp.mean(r * r)
        w_new = (w.astype(jnp.float32) - lr * grad).astype(store)
        return w_new, loss

    run = jax.jit(lambda w0: jax.lax.scan(body, w0, None, length=steps))
    _, losses = run(jnp.zeros((d,), store))
    return [float(v) for v in np.asarray(losses).tolist()]
""",
    },
]
