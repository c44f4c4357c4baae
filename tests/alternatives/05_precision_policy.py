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
        "why": "float64 NumPy reference, jnp.dot with preferred_element_type, toolbox quantizer and w8a8_matmul, bytes from formula",
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
        "function": "policy_table",
        "why": "f32 HIGHEST jnp reference (explicitly accepted), own per-column quantizer, lax.dot_general, bytes from .nbytes",
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
        "function": "policy_table",
        "why": "dict of policies, jnp.einsum with preferred_element_type, int8 fed straight into the bf16 dot (promotes to bf16), float64 numpy reference via np.matmul",
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
        "function": "policy_table",
        "why": "x @ w written with lax.dot + Precision.HIGHEST; int8_weight_only rescales inside the dot input order (x_bf16 @ q) * s via broadcasting; math.fsum-free float64 reference with np.dot",
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
        "why": "jitted step per policy, residual kept in float32 (explicitly accepted), w.astype(bf16) of the master",
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
        "function": "train_linear_regression",
        "why": "whole run in one jax.lax.scan (jitted), losses converted with .tolist() into Python floats",
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
