"""Independent held-out answers for lesson 05 (precision policy).

Written from the student notebook and COURSE.md only (plus public reports: timing JAX without
block_until_ready measures only dispatch; casts inside jit dropped under excess precision,
jax-ml/jax#6283). Wrong answers each make one mistake a student could plausibly make; correct
answers are alternative implementations of the contract.
"""

_BENCH_OK = '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        out = fn(*args)
        jax.block_until_ready(out)
        times.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": float(np.median(times)), "min_ms": float(np.min(times))}
'''

_TABLE_OK = '''
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / math.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    f_fp32 = jax.jit(lambda a, b: jnp.dot(a, b, precision=HIGHEST))
    f_bf16 = jax.jit(lambda a, b: jnp.dot(to_bf16(a), b, preferred_element_type=jnp.float32))
    f_int8 = jax.jit(lambda a, q, s: jnp.dot(to_bf16(a), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s)
    f_w8a8 = jax.jit(w8a8_matmul)
    specs = [("fp32", f_fp32, (x, w), 4 * k * n),
             ("bf16", f_bf16, (x, w_bf16), 2 * k * n),
             ("int8_weight_only", f_int8, (x, q_w, s_w), k * n + 4 * n),
             ("w8a8", f_w8a8, (x, q_w, s_w), k * n + 4 * n)]
    rows = []
    for name, f, args, nbytes in specs:
        out = np.asarray(f(*args), np.float64)
        err = float(np.max(np.abs(out - exact)) / np.max(np.abs(exact)))
        rows.append({"policy": name, "max_rel_err": err, "weight_bytes": int(nbytes),
                     "median_ms": float(benchmark(f, *args)["median_ms"])})
    return rows
'''

_TRAIN_OK = '''
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(policy)
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    Xb = X.astype(jnp.bfloat16)
    w = jnp.zeros((X.shape[1],), jnp.float32)
    losses = []
    for _ in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            r = pred - y
            grad = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            wb = w.astype(jnp.bfloat16)
            pred = jnp.dot(Xb, wb, preferred_element_type=jnp.float32)
            r = pred - y
            grad = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        losses.append(float(jnp.mean(r * r)))
        if policy == "bf16_params":
            w = (w - lr * grad).astype(jnp.bfloat16).astype(jnp.float32)
        else:
            w = w - lr * grad
    return losses
'''


def _sub(base, old, new):
    assert old in base, old
    return base.replace(old, new)


ANSWERS = [
    # ---------------------------------------------------------------- benchmark
    {"function": "benchmark", "intent": "wrong",
     "why": "no block_until_ready on the timed calls: measures only the asynchronous dispatch",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn(*args)
        times.append((time.perf_counter() - t0) * 1000.0)
    return {"median_ms": float(np.median(times)), "min_ms": float(min(times))}
'''},
    {"function": "benchmark", "intent": "wrong",
     "why": "times the whole loop once and divides by iters, so median and min are both the mean",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    t0 = time.perf_counter()
    for _ in range(iters):
        out = fn(*args)
    jax.block_until_ready(out)
    per_call = (time.perf_counter() - t0) * 1e3 / iters
    return {"median_ms": float(per_call), "min_ms": float(per_call)}
'''},
    {"function": "benchmark", "intent": "wrong",
     "why": "reports seconds instead of milliseconds", "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    ts = []
    for _ in range(iters):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        ts.append(time.perf_counter() - start)
    ts.sort()
    return {"median_ms": float(np.median(ts)), "min_ms": float(ts[0])}
'''},
    {"function": "benchmark", "intent": "wrong",
     "why": "the timed loop also runs the warm-up calls: compile time is inside the statistics (warmup + iters timed)",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    times = []
    for i in range(warmup + iters):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": float(np.mean(times)), "min_ms": float(np.min(times))}
'''},
    {"function": "benchmark", "intent": "correct",
     "why": "perf_counter_ns per call and statistics via sorted list", "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        r = fn(*args)
        jax.block_until_ready(r)
    samples = []
    for _ in range(iters):
        t0 = time.perf_counter_ns()
        r = fn(*args)
        jax.block_until_ready(r)
        samples.append((time.perf_counter_ns() - t0) / 1e6)
    s = sorted(samples)
    mid = len(s) // 2
    med = s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2
    return {"median_ms": float(med), "min_ms": float(s[0])}
'''},
    # ---------------------------------------------------------------- policy_table
    {"function": "policy_table", "intent": "wrong",
     "why": "fp32 policy at DEFAULT precision (one bf16 pass on TPU, TF32 on GPU)",
     "source": _sub(_TABLE_OK, "jnp.dot(a, b, precision=HIGHEST)", "jnp.dot(a, b)")},
    {"function": "policy_table", "intent": "wrong",
     "why": "bf16 policy relies on DEFAULT precision meaning bf16 (float32 x @ w at DEFAULT), true on TPU only",
     "source": _sub(_TABLE_OK, '("bf16", f_bf16, (x, w_bf16), 2 * k * n)',
                    '("bf16", jax.jit(lambda a, b: jnp.dot(a, b)), (x, w), 2 * k * n)')},
    {"function": "policy_table", "intent": "wrong",
     "why": "bf16 dot without preferred_element_type, so the output is rounded to bf16 too",
     "source": _sub(_TABLE_OK, "jnp.dot(to_bf16(a), b, preferred_element_type=jnp.float32))",
                    "jnp.dot(to_bf16(a), b).astype(jnp.float32))")},
    {"function": "policy_table", "intent": "wrong",
     "why": "int8 weight_bytes count only the int8 codes, not the per-column float32 scales",
     "source": _sub(_sub(_TABLE_OK, '("int8_weight_only", f_int8, (x, q_w, s_w), k * n + 4 * n)',
                         '("int8_weight_only", f_int8, (x, q_w, s_w), q_w.nbytes)'),
                    '("w8a8", f_w8a8, (x, q_w, s_w), k * n + 4 * n)', '("w8a8", f_w8a8, (x, q_w, s_w), q_w.nbytes)')},
    {"function": "policy_table", "intent": "wrong",
     "why": "max_rel_err as the max of elementwise relative errors |out-exact|/|exact| (blows up near zero outputs)",
     "source": _sub(_TABLE_OK, "err = float(np.max(np.abs(out - exact)) / np.max(np.abs(exact)))",
                    "err = float(np.max(np.abs(out - exact) / np.abs(exact)))")},
    {"function": "policy_table", "intent": "wrong",
     "why": "passes: rounds x with a plain astype(bfloat16) inside jit, which XLA may drop on a TPU (excess precision)",
     "source": _sub(_sub(_TABLE_OK, "jnp.dot(to_bf16(a), b, preferred_element_type=jnp.float32))",
                         "jnp.dot(a.astype(jnp.bfloat16), b, preferred_element_type=jnp.float32))"),
                    "jnp.dot(to_bf16(a), q.astype(jnp.bfloat16)", "jnp.dot(a.astype(jnp.bfloat16), q.astype(jnp.bfloat16)")},
    {"function": "policy_table", "intent": "correct",
     "why": "reference-style table with float64 host reference and the toolbox helpers", "source": _TABLE_OK},
    # ---------------------------------------------------------------- train_linear_regression
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "records the loss after each update instead of before it",
     "source": _sub(_sub(_TRAIN_OK, "        losses.append(float(jnp.mean(r * r)))\n", ""),
                    "            w = w - lr * grad\n    return losses",
                    "            w = w - lr * grad\n"
                    "        if policy == \"fp32\":\n"
                    "            r2 = jnp.dot(X, w, precision=HIGHEST) - y\n"
                    "        else:\n"
                    "            r2 = jnp.dot(Xb, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) - y\n"
                    "        losses.append(float(jnp.mean(r2 * r2)))\n    return losses")},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "passes: bf16_master_fp32 forgets to round the master weights for the forward pass (computes with f32 weights)",
     "source": _sub(_TRAIN_OK, "            wb = w.astype(jnp.bfloat16)\n",
                    "            wb = w.astype(jnp.bfloat16) if policy == \"bf16_params\" else w\n")},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "bf16_params rounds only the gradient to bf16 and keeps the parameters in float32: no stall",
     "source": _sub(_TRAIN_OK, "            w = (w - lr * grad).astype(jnp.bfloat16).astype(jnp.float32)",
                    "            w = w - lr * grad.astype(jnp.bfloat16).astype(jnp.float32)")},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "hard-codes the learning rate 0.1 in the update instead of using lr",
     "source": _sub(_sub(_TRAIN_OK, "(w - lr * grad)", "(w - 0.1 * grad)"), "w = w - lr * grad", "w = w - 0.1 * grad")},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "gradient without the factor 2 of the mean squared error ((1/n) X^T r)",
     "source": _sub(_sub(_TRAIN_OK, "grad = (2.0 / n) * jnp.dot(X.T", "grad = (1.0 / n) * jnp.dot(X.T"),
                    "grad = (2.0 / n) * jnp.dot(Xb.T", "grad = (1.0 / n) * jnp.dot(Xb.T")},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "always trains on regression_problem(0): the seed argument is ignored",
     "source": _sub(_TRAIN_OK, "X, y, _ = regression_problem(seed)", "X, y, _ = regression_problem()")},
    {"function": "train_linear_regression", "intent": "correct",
     "why": "jitted lax.scan with to_bf16 rounding (survives jit on TPU)", "source": '''
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    Xb = X.astype(jnp.bfloat16)

    def step(w, _):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            r = pred - y
            grad = 2.0 / n * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            pred = jnp.dot(Xb, to_bf16(w), preferred_element_type=jnp.float32)
            r = pred - y
            grad = 2.0 / n * jnp.dot(Xb.T, to_bf16(r), preferred_element_type=jnp.float32)
        loss = jnp.mean(r * r)
        new = w - lr * grad
        if policy == "bf16_params":
            new = to_bf16(new).astype(jnp.float32)
        return new, loss

    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(policy)
    _, losses = jax.jit(lambda w0: jax.lax.scan(step, w0, None, length=steps))(jnp.zeros((d,), jnp.float32))
    return [float(v) for v in np.asarray(losses)]
'''},
    # ---------------------------------------------------------------- a blind writer (2026-12-07):
    # the student notebook only, never the library, the solutions or the hidden tests
    {"function": "policy_table", "intent": "wrong",
     "why": 'Rounds x to bf16 with a plain .astype(jnp.bfloat16) inside the jitted bf16 policy, a cast the TPU compiler may drop, instead of to_bf16 or rounding outside jit.',
     "source": '''
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / math.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)

    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)

    fp32_fn = jax.jit(lambda a, b: jnp.dot(a, b, precision=HIGHEST))
    bf16_fn = jax.jit(lambda a, b: jnp.dot(a.astype(jnp.bfloat16), b, preferred_element_type=jnp.float32))
    int8_fn = jax.jit(lambda a, q, s: jnp.dot(to_bf16(a), q.astype(jnp.bfloat16),
                                              preferred_element_type=jnp.float32) * s)
    w8a8_fn = jax.jit(w8a8_matmul)

    policies = [
        ("fp32", fp32_fn, (x, w), w.nbytes),
        ("bf16", bf16_fn, (x, w_bf16), w_bf16.nbytes),
        ("int8_weight_only", int8_fn, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
        ("w8a8", w8a8_fn, (x, q_w, s_w), q_w.nbytes + s_w.nbytes),
    ]
    rows = []
    for name, fn, args, nbytes in policies:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": float(np.max(np.abs(out - exact)) / np.max(np.abs(exact))),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
'''},
    {"function": "policy_table", "intent": "wrong",
     "why": 'Counts weight_bytes as in lesson 02, the int8 codes only, leaving out the per-column float32 scales that this table must include.',
     "source": '''
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / math.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    denom = np.max(np.abs(exact))

    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)

    def fp32_policy(a, b):
        return jnp.dot(a, b, precision=HIGHEST)

    def bf16_policy(a, b):
        return jnp.dot(to_bf16(a), b, preferred_element_type=jnp.float32)

    def int8_policy(a, q, s):
        return jnp.dot(to_bf16(a), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s

    table = []
    for name, f, args, nbytes in (("fp32", fp32_policy, (x, w), 4 * k * n),
                                  ("bf16", bf16_policy, (x, w_bf16), 2 * k * n),
                                  ("int8_weight_only", int8_policy, (x, q_w, s_w), k * n),
                                  ("w8a8", w8a8_matmul, (x, q_w, s_w), k * n)):
        fn = jax.jit(f)
        out = np.asarray(fn(*args), dtype=np.float64)
        table.append({"policy": name,
                      "max_rel_err": float(np.max(np.abs(out - exact)) / denom),
                      "weight_bytes": int(nbytes),
                      "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return table
'''},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "Records each step's loss after applying the update, instead of the loss of the parameters before update t (so losses[0] is not the loss at w = 0).",
     "source": '''
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, w_true = regression_problem(seed)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)

    def forward(w):
        if policy == "fp32":
            return jnp.dot(X, w, precision=HIGHEST)
        return jnp.dot(X_bf16, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)

    def gradient(w):
        r = forward(w) - y
        if policy == "fp32":
            return (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        return (2.0 / n) * jnp.dot(X_bf16.T, to_bf16(r), preferred_element_type=jnp.float32)

    w = jnp.zeros((d,), jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for step in range(steps):
        g = gradient(w)
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        pred = forward(w)
        losses.append(float(jnp.mean((pred - y) ** 2)))
    return losses
'''},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": 'Drops the factor 2 from the MSE gradient, using (1/n) X^T (Xw - y) instead of (2/n) X^T (Xw - y).',
     "source": '''
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, w_true = regression_problem(seed)
    n = X.shape[0]
    Xb = X.astype(jnp.bfloat16)
    master = jnp.zeros(X.shape[1], dtype=jnp.float32)
    params = jnp.zeros(X.shape[1], dtype=jnp.bfloat16)
    losses = []
    for step in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, master, precision=HIGHEST)
        elif policy == "bf16_params":
            pred = jnp.dot(Xb, params, preferred_element_type=jnp.float32)
        elif policy == "bf16_master_fp32":
            pred = jnp.dot(Xb, master.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        else:
            raise ValueError(policy)
        r = pred - y
        losses.append(float(jnp.mean(r * r)))
        # gradient of the mean squared error
        if policy == "fp32":
            grad = jnp.dot(X.T, r, precision=HIGHEST) / n
        else:
            grad = jnp.dot(Xb.T, to_bf16(r), preferred_element_type=jnp.float32) / n
        if policy == "bf16_params":
            params = (params.astype(jnp.float32) - lr * grad).astype(jnp.bfloat16)
        else:
            master = master - lr * grad
    return losses
'''},
]
