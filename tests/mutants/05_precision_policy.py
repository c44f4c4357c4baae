"""Plausible wrong answers for 05_precision_policy (see docs/AUTHORING.md)."""

_POLICY_TABLE_TEMPLATE = """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = <<EXACT>>
    w_bf16 = <<WBF16>>
    q_w, s_w = quantize_symmetric(w, axis=0)
    fp32 = jax.jit(lambda x, w: jnp.dot(x, w, precision=jax.lax.Precision.HIGHEST))
    bf16 = jax.jit(<<BF16>>)
    weight_only = jax.jit(lambda x, q_w, s_w: jnp.dot(
        x.astype(jnp.bfloat16), q_w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s_w)
    def _w8a8(x, q_w, s_w):
        q_x, s_x = <<QX>>
        acc = <<DOT>>
        return acc.astype(jnp.float32) * s_x * s_w
    w8a8 = jax.jit(_w8a8)
    runs = [
        ("fp32", fp32, (x, w), w.nbytes),
        ("bf16", bf16, (x, w_bf16), <<BF16_BYTES>>),
        ("int8_weight_only", weight_only, (x, q_w, s_w), <<INT8_BYTES>>),
        ("w8a8", w8a8, (x, q_w, s_w), <<INT8_BYTES>>),
    ]
    rows = []
    for name, fn, args, nbytes in runs:
        out = np.asarray(fn(*args), np.float64)
        rows.append({
            "policy": name,
            "max_rel_err": <<ERR>>,
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(fn, *args)["median_ms"]),
        })
    return rows
"""

_DEFAULTS = {
    "EXACT": "np.asarray(x, np.float64) @ np.asarray(w, np.float64)",
    "WBF16": "w.astype(jnp.bfloat16)",
    "BF16": "lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16, preferred_element_type=jnp.float32)",
    "QX": "quantize_symmetric(x, axis=1)",
    "DOT": "jax.lax.dot(q_x, q_w, preferred_element_type=jnp.int32)",
    "BF16_BYTES": "w_bf16.nbytes",
    "INT8_BYTES": "q_w.nbytes + s_w.nbytes",
    "ERR": "float(np.max(np.abs(out - exact)) / np.max(np.abs(exact)))",
}


def _policy_table(**changes):
    src = _POLICY_TABLE_TEMPLATE
    for name, default in _DEFAULTS.items():
        src = src.replace(f"<<{name}>>", changes.get(name, default))
    assert "<<" not in src, src
    return src


_TRAIN_TEMPLATE = """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(<<SEED>>)
    n, d = X.shape
    X_bf16 = X.astype(jnp.bfloat16)
    def loss_and_grad(w):
        if <<FP32_COMPUTE>>:
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (<<GRAD_FACTOR>> / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            w_c = w.astype(jnp.bfloat16)
            r = jnp.dot(X_bf16, w_c, preferred_element_type=jnp.float32) - y
            g = (<<GRAD_FACTOR>> / n) * jnp.dot(X_bf16.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return jnp.mean(r * r), g
    w = jnp.zeros(d, <<W0_DTYPE>>)
    losses = []
    for _ in range(<<STEPS>>):
        loss, g = loss_and_grad(w)
        if not <<LOSS_AFTER_UPDATE>>:
            losses.append(<<LOSS>>)
        if <<UPDATE_IN_BF16>>:
            w = (w.astype(jnp.float32) - <<LR>> * g).astype(jnp.bfloat16)
        else:
            w = w - <<LR>> * g
        if <<LOSS_AFTER_UPDATE>>:
            losses.append(float(loss_and_grad(w)[0]))
    return losses
"""

_TRAIN_DEFAULTS = {
    "SEED": "seed",
    "W0_DTYPE": 'jnp.bfloat16 if policy == "bf16_params" else jnp.float32',
    "STEPS": "steps",
    "LOSS": "float(loss)",
    "UPDATE_IN_BF16": 'policy == "bf16_params"',
    "LR": "lr",
    "FP32_COMPUTE": 'policy == "fp32"',
    "GRAD_FACTOR": "2.0",
    "LOSS_AFTER_UPDATE": "False",
}


def _train(**changes):
    src = _TRAIN_TEMPLATE
    for name, default in _TRAIN_DEFAULTS.items():
        src = src.replace(f"<<{name}>>", changes.get(name, default))
    assert "<<" not in src, src
    return src


MUTANTS = [
    # ---------------------------------------------------------------- benchmark
    {
        "function": "benchmark",
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
        "function": "benchmark",
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
        "function": "benchmark",
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
        "function": "benchmark",
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
        "function": "benchmark",
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
        "function": "benchmark",
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
    # ---------------------------------------------------------------- policy_table
    {
        "function": "policy_table",
        "why": "int8 weight_bytes forget the per-column scales",
        "source": _policy_table(INT8_BYTES="q_w.nbytes"),
    },
    {
        "function": "policy_table",
        "why": "bf16 weight_bytes counted as the fp32 copy",
        "source": _policy_table(BF16_BYTES="w.nbytes"),
    },
    {
        "function": "policy_table",
        "why": "w8a8 int8 x int8 dot without preferred_element_type (int8 wraps)",
        "source": _policy_table(DOT="jnp.dot(q_x, q_w)"),
    },
    {
        "function": "policy_table",
        "why": "w8a8 quantizes activations with one per-tensor scale",
        "source": _policy_table(QX="quantize_symmetric(x, axis=None)"),
    },
    {
        "function": "policy_table",
        "why": "w8a8 truncates instead of rounding the activations",
        "source": _policy_table(
            QX="(lambda s: (jnp.trunc(x / s).astype(jnp.int8), s))(jnp.max(jnp.abs(x), axis=1, keepdims=True) / 127.0)"
        ),
    },
    {
        "function": "policy_table",
        "why": "relies on DEFAULT precision meaning bf16 (true on TPU only)",
        "source": _policy_table(BF16="lambda x, w_bf16: jnp.dot(x, w)"),
    },
    {
        "function": "policy_table",
        "why": "bf16 policy without preferred_element_type: bf16 output",
        "source": _policy_table(BF16="lambda x, w_bf16: jnp.dot(x.astype(jnp.bfloat16), w_bf16)"),
    },
    {
        "function": "policy_table",
        "why": "bf16 policy rounds to float16 instead of bfloat16",
        "source": _policy_table(
            WBF16="w.astype(jnp.float16)",
            BF16="lambda x, w_bf16: jnp.dot(x.astype(jnp.float16), w_bf16, preferred_element_type=jnp.float32)",
        ),
    },
    {
        "function": "policy_table",
        "why": "reference built from bf16 inputs, not exact",
        "source": _policy_table(
            EXACT="np.asarray(jnp.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), "
            "preferred_element_type=jnp.float32), np.float64)"
        ),
    },
    {
        "function": "policy_table",
        "why": "element-wise relative error max(|out-exact|/|exact|)",
        "source": _policy_table(ERR="float(np.max(np.abs(out - exact) / np.abs(exact)))"),
    },
    # ---------------------------------------------------------------- train_linear_regression
    {
        "function": "train_linear_regression",
        "why": "bf16_params keeps fp32 parameters (casts only for compute)",
        "source": _train(W0_DTYPE="jnp.float32", UPDATE_IN_BF16="False"),
    },
    {
        "function": "train_linear_regression",
        "why": "master weights rounded back to bf16 every step",
        "source": _train(UPDATE_IN_BF16='policy != "fp32"'),
    },
    {
        "function": "train_linear_regression",
        "why": "returns jax arrays, not Python floats",
        "source": _train(LOSS="loss"),
    },
    {
        "function": "train_linear_regression",
        "why": "returns steps + 1 losses (adds the final one)",
        "source": _train(STEPS="steps + 1"),
    },
    {"function": "train_linear_regression", "why": "ignores the seed (always PRNGKey(0))", "source": _train(SEED="0")},
    {"function": "train_linear_regression", "why": "ignores lr (hard-coded 0.1)", "source": _train(LR="0.1")},
    {
        "function": "train_linear_regression",
        "why": "records the loss after each update, not before",
        "source": _train(LOSS_AFTER_UPDATE="True"),
    },
    {
        "function": "train_linear_regression",
        "why": "bf16_master_fp32 computes entirely in fp32",
        "source": _train(FP32_COMPUTE='policy != "bf16_params"'),
    },
    {
        "function": "train_linear_regression",
        "why": "gradient (1/n) X^T r instead of (2/n) X^T r",
        "source": _train(GRAD_FACTOR="1.0"),
    },
]

# Wrong answers that only a TPU reveals (exact on CPU): checked under emulated TPU precision.
MUTANTS += [
    {
        "function": "train_linear_regression",
        "only_under": "tpu",
        "why": "fp32 policy at DEFAULT precision (one bf16 pass on a TPU)",
        "source": _train().replace(", precision=HIGHEST)", ")"),
    },
    # ------------------------------------------ found by independent reviewers (session 2)
    {
        "function": "policy_table",
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
    # ------------------------------------------ found by a second round of reviewers (session 2)
    {
        "function": "benchmark",
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
        "function": "benchmark",
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
        "function": "benchmark",
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
    {
        "function": "policy_table",
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
        "function": "policy_table",
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
    {
        "function": "train_linear_regression",
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
        "function": "train_linear_regression",
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
        "function": "train_linear_regression",
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
