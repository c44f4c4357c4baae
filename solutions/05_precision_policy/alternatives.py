"""Correct answers for 05_precision_policy that are not the reference solution (see docs/AUTHORING.md).

Written from COURSE.md's contracts and the student notebook alone, without the solutions or the
hidden tests, the way other students and instructors write them: NumPy or jax.numpy, loops or
vectorised, other valid readings where the contract is silent. Each one must get full marks
(tests/test_notebooks.py): the hidden tests test the contract, not the reference's habits.
"""

ALTERNATIVES = [
    # ------------------------------------------------------------------ benchmark
    {
        "function": "benchmark",
        "why": "plain loops, statistics.median / min over a list of perf_counter deltas",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    import statistics
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        out = fn(*args)
        jax.block_until_ready(out)
        times.append((time.perf_counter() - t0) * 1000.0)
    return {"median_ms": float(statistics.median(times)), "min_ms": float(min(times))}
""",
    },
    {
        "function": "benchmark",
        "why": "numpy array of seconds, np.median / np.min, converted to ms and Python float at the end",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    secs = np.empty(iters, dtype=np.float64)
    for i in range(iters):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        secs[i] = time.perf_counter() - start
    ms = secs * 1e3
    return {"median_ms": float(np.median(ms)), "min_ms": float(ms.min())}
""",
    },
    {
        "function": "benchmark",
        "why": "one helper doing call+sync; median by hand from the sorted list (mean of the two middle ones for even iters); extra key",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    def run_once():
        return jax.block_until_ready(fn(*args))

    for _ in range(warmup):
        run_once()
    samples = []
    while len(samples) < iters:
        t_start = time.perf_counter()
        run_once()
        t_end = time.perf_counter()
        samples.append(1000.0 * (t_end - t_start))
    s = sorted(samples)
    mid = len(s) // 2
    median = s[mid] if len(s) % 2 else 0.5 * (s[mid - 1] + s[mid])
    return {"median_ms": median, "min_ms": s[0], "times_ms": samples}
""",
    },
    {
        "function": "benchmark",
        "why": "list comprehensions, np.percentile(50) for the median, returns np.float64 (a subclass of Python float)",
        "source": """
def benchmark(fn, *args, warmup=2, iters=10):
    [jax.block_until_ready(fn(*args)) for _ in range(warmup)]

    def timed():
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        return (time.perf_counter() - t0) * 1e3

    ts = np.array([timed() for _ in range(iters)])
    return dict(median_ms=np.float64(np.percentile(ts, 50)), min_ms=np.float64(np.min(ts)))
""",
    },
    # ------------------------------------------------------------------ policy_table
    {
        "function": "policy_table",
        "why": "bf16 policy as (x.astype(bf16) @ w_bf16).astype(float32) inside jit: a bf16 result widened at once (issue 64: the chip accepts it)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    # bf16 @ bf16 gives a bf16 result: widened to float32 right away, inside the jitted function
    bf16 = jax.jit(lambda x, w_bf16: (x.astype(jnp.bfloat16) @ w_bf16).astype(jnp.float32))
    weight_only = jax.jit(lambda x, q_w, s_w: (x.astype(jnp.bfloat16) @ q_w.astype(jnp.bfloat16)).astype(jnp.float32) * s_w)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", weight_only, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", jax.jit(w8a8_matmul), (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        err = float(np.max(np.abs(out - exact)) / np.max(np.abs(exact)))
        rows.append({"policy": name, "max_rel_err": err, "weight_bytes": int(nbytes),
                     "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return rows
""",
    },
    {
        "function": "policy_table",
        "why": "bf16 policy as jnp.dot(xb, wb, preferred_element_type=bfloat16).astype(float32) inside jit (issue 64)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    key_x, key_w = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(key_x, (m, k), dtype=jnp.float32)
    w = jax.random.normal(key_w, (k, n), dtype=jnp.float32) / np.sqrt(k)
    ref = np.asarray(x, np.float64) @ np.asarray(w, np.float64)

    def row(policy, fn, args, nbytes):
        y = np.asarray(fn(*args), np.float64)
        return dict(policy=policy, max_rel_err=float(np.abs(y - ref).max() / np.abs(ref).max()),
                    weight_bytes=int(nbytes), median_ms=float(benchmark(fn, *args)["median_ms"]))

    @jax.jit
    def bf16_matmul(x, wb):
        xb = x.astype(jnp.bfloat16)
        return jnp.dot(xb, wb, preferred_element_type=jnp.bfloat16).astype(jnp.float32)

    @jax.jit
    def int8_matmul(x, q, s):
        return jnp.dot(x.astype(jnp.bfloat16), q.astype(jnp.bfloat16),
                       preferred_element_type=jnp.bfloat16).astype(jnp.float32) * s

    wb = w.astype(jnp.bfloat16)
    q, s = quantize_symmetric(w, axis=0)
    exact_dot = jax.jit(lambda a, b: jnp.matmul(a, b, precision=jax.lax.Precision.HIGHEST))
    return [
        row("fp32", exact_dot, (x, w), 4 * w.size),
        row("bf16", bf16_matmul, (x, wb), 2 * wb.size),
        row("int8_weight_only", int8_matmul, (x, q, s), q.size + 4 * s.size),
        row("w8a8", jax.jit(w8a8_matmul), (x, q, s), q.size + 4 * s.size),
    ]
""",
    },
    {
        "function": "policy_table",
        "why": "bf16 policy at precision=DotAlgorithmPreset.BF16_BF16_F32 on the float32 x, fp32 at precision='highest' (issue 64)",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    kx, kw = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(kx, (m, k), jnp.float32)
    w = jax.random.normal(kw, (k, n), jnp.float32) / np.sqrt(k)
    true_out = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    # the dot algorithm says what the bf16 policy is: bf16 inputs, float32 accumulation and output
    alg = jax.lax.DotAlgorithmPreset.BF16_BF16_F32
    q_w, s_w = quantize_symmetric(w, axis=0)
    stored = {
        "fp32": (w,),
        "bf16": (w.astype(jnp.bfloat16),),
        "int8_weight_only": (q_w, s_w),
        "w8a8": (q_w, s_w),
    }
    fns = {
        "fp32": jax.jit(lambda a, b: jnp.dot(a, b, precision="highest")),
        "bf16": jax.jit(lambda a, b: jnp.dot(a, b, precision=alg, preferred_element_type=jnp.float32)),
        "int8_weight_only": jax.jit(
            lambda a, q, s: jnp.dot(a, q.astype(jnp.bfloat16), precision=alg, preferred_element_type=jnp.float32) * s
        ),
        "w8a8": jax.jit(w8a8_matmul),
    }
    table = []
    for policy, weights in stored.items():
        out = np.asarray(fns[policy](x, *weights), np.float64)
        table.append({
            "policy": policy,
            "max_rel_err": float(np.max(np.abs(out - true_out)) / np.max(np.abs(true_out))),
            "weight_bytes": int(sum(a.nbytes for a in weights)),
            "median_ms": float(benchmark(fns[policy], x, *weights)["median_ms"]),
        })
    return table
""",
    },
    # ------------------------------------------------------------------ train_linear_regression
    {
        "function": "train_linear_regression",
        "why": "straightforward Python loop, jnp ops eagerly, residual cast to bf16 for the gradient dot",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    Xb = X.astype(jnp.bfloat16)
    if policy == "fp32":
        w = jnp.zeros(d, jnp.float32)
    elif policy == "bf16_params":
        w = jnp.zeros(d, jnp.bfloat16)
    elif policy == "bf16_master_fp32":
        w = jnp.zeros(d, jnp.float32)
    else:
        raise ValueError(policy)
    losses = []
    for _ in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            r = pred - y
            grad = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            pred = jnp.dot(Xb, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
            r = pred - y
            grad = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        losses.append(float(jnp.mean(r ** 2)))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * grad).astype(jnp.bfloat16)
        else:
            w = w - lr * grad
    return losses
""",
    },
    {
        "function": "train_linear_regression",
        "why": "NumPy on the host: bf16 rounding via astype(jnp.bfloat16) on numpy arrays, f32 matmul of bf16-exact values (= bf16 inputs, f32 accumulation)",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    X = np.asarray(X, np.float32)
    y = np.asarray(y, np.float32)
    n, d = X.shape
    bf = jnp.bfloat16

    def to_bf16(a):
        return np.asarray(a, np.float32).astype(bf).astype(np.float32)

    w = np.zeros(d, np.float32)
    lr32 = np.float32(lr)
    scale = np.float32(2.0 / n)
    losses = []
    for _ in range(steps):
        if policy == "fp32":
            pred = (X @ w).astype(np.float32)
            r = pred - y
            grad = scale * (X.T @ r)
        elif policy in ("bf16_params", "bf16_master_fp32"):
            pred = (X @ to_bf16(w)).astype(np.float32)
            r = pred - y
            grad = scale * (X.T @ to_bf16(r))
        else:
            raise ValueError(policy)
        losses.append(float(np.mean(r * r, dtype=np.float32)))
        w = (w - lr32 * grad.astype(np.float32)).astype(np.float32)
        if policy == "bf16_params":
            w = to_bf16(w)
    return losses
""",
    },
    {
        "function": "train_linear_regression",
        "why": "bf16_params read literally as 'updated in bf16': the update lr*grad is cast to bf16 and subtracted in bf16 arithmetic",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    Xb = X.astype(jnp.bfloat16)
    w = jnp.zeros(X.shape[1], dtype=jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    out = []
    for t in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            grad = jnp.dot(X.T, pred - y, precision=HIGHEST) * (2 / n)
        else:
            pred = jnp.dot(Xb, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
            grad = jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), preferred_element_type=jnp.float32) * (2 / n)
        out.append(float(jnp.mean((pred - y) ** 2)))
        if policy == "bf16_params":
            w = w - (lr * grad).astype(jnp.bfloat16)      # bf16 - bf16 -> bf16
            assert w.dtype == jnp.bfloat16
        else:
            w = w - lr * grad
    return out
""",
    },
]
