"""Held-out wrong answers for 05_precision_policy (see README.md)."""

HELDOUT = [
    {
        "key": "05_precision_policy:train_linear_regression:ignores-lr",
        "function": "train_linear_regression",
        "why": "held-out: a Python loop with the step size written in",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(policy)
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    w = jnp.zeros(X.shape[1], jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    Xb = X.astype(jnp.bfloat16)
    out = []
    for _ in range(steps):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            r = jnp.dot(Xb, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        out.append(float(jnp.mean(r * r)))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - 0.1 * g).astype(jnp.bfloat16)
        else:
            w = w - 0.1 * g
    return out
""",
    },
    {
        "key": "05_precision_policy:train_linear_regression:one-loss-too-many",
        "function": "train_linear_regression",
        "why": "held-out: the loss after the last update appended",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(policy)
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    Xb = X.astype(jnp.bfloat16)

    def residual(w):
        if policy == "fp32":
            return jnp.dot(X, w, precision=HIGHEST) - y
        return jnp.dot(Xb, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) - y

    w = jnp.zeros(X.shape[1], jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        r = residual(w)
        losses.append(float(jnp.mean(r * r)))
        if policy == "fp32":
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            g = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16) if policy == "bf16_params" else w - lr * g
    r = residual(w)
    losses.append(float(jnp.mean(r * r)))
    return losses
""",
    },
    {
        "key": "05_precision_policy:policy_table:bf16-output",
        "function": "policy_table",
        "why": "held-out, second writer: decorated @jax.jit inner functions, bf16 dot without a result type",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    key_x, key_w = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(key_x, (m, k), dtype=jnp.float32)
    w = jax.random.normal(key_w, (k, n), dtype=jnp.float32) / math.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    peak = float(np.max(np.abs(exact)))
    w16 = w.astype(jnp.bfloat16)
    qw, sw = quantize_symmetric(w, axis=0)

    @jax.jit
    def run_fp32(a, b):
        return jnp.dot(a, b, precision=HIGHEST)

    @jax.jit
    def run_bf16(a, b16):
        return jnp.dot(to_bf16(a), b16)

    @jax.jit
    def run_int8(a, q, s):
        return jnp.dot(to_bf16(a), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s

    @jax.jit
    def run_w8a8(a, q, s):
        return w8a8_matmul(a, q, s)

    plan = [
        ("fp32", run_fp32, (x, w), w.nbytes),
        ("bf16", run_bf16, (x, w16), w16.nbytes),
        ("int8_weight_only", run_int8, (x, qw, sw), qw.nbytes + sw.nbytes),
        ("w8a8", run_w8a8, (x, qw, sw), qw.nbytes + sw.nbytes),
    ]
    table = []
    for name, fn, args, nbytes in plan:
        y = np.asarray(fn(*args)).astype(np.float64)
        table.append({"policy": name,
                      "max_rel_err": float(np.max(np.abs(y - exact)) / peak),
                      "weight_bytes": int(nbytes),
                      "median_ms": float(benchmark(fn, *args)["median_ms"])})
    return table
""",
    },
    {
        "key": "05_precision_policy:policy_table:rel-err-over-mean",
        "function": "policy_table",
        "why": "held-out, second writer: x rounded eagerly outside jit, dict of lambdas, error over mean |exact|",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    kx, kw = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(kx, (m, k), dtype=jnp.float32)
    w = jax.random.normal(kw, (k, n), dtype=jnp.float32) / np.sqrt(k)
    ref = np.asarray(x, dtype=np.float64) @ np.asarray(w, dtype=np.float64)

    x_bf = x.astype(jnp.bfloat16)          # rounded eagerly, outside jit
    w_bf = w.astype(jnp.bfloat16)
    q, s = quantize_symmetric(w, axis=0)

    fns = {
        "fp32": jax.jit(lambda a, b: jnp.dot(a, b, precision=HIGHEST)),
        "bf16": jax.jit(lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32)),
        "int8_weight_only": jax.jit(lambda a, c, d: jnp.dot(
            a, c.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * d),
        "w8a8": jax.jit(w8a8_matmul),
    }
    inputs = {"fp32": (x, w), "bf16": (x_bf, w_bf), "int8_weight_only": (x_bf, q, s), "w8a8": (x, q, s)}
    stored = {"fp32": w.nbytes, "bf16": w_bf.nbytes,
              "int8_weight_only": q.nbytes + s.nbytes, "w8a8": q.nbytes + s.nbytes}
    rows = []
    for name in ("fp32", "bf16", "int8_weight_only", "w8a8"):
        out = np.asarray(fns[name](*inputs[name]), dtype=np.float64)
        err = np.abs(out - ref).max() / np.abs(ref).mean()
        rows.append({"policy": name, "max_rel_err": float(err), "weight_bytes": int(stored[name]),
                     "median_ms": float(benchmark(fns[name], *inputs[name])["median_ms"])})
    return rows
""",
    },
    {
        "key": "05_precision_policy:policy_table:int8-bytes-miss-scales",
        "function": "policy_table",
        "why": "held-out, second writer: bytes from shapes and itemsizes, weight-only via float32 decode at HIGHEST",
        "source": """
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / math.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    denom = np.max(np.abs(exact))

    w_b = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    count = k * n

    def dequant_dot(a, q, s):
        return jnp.dot(a, q.astype(jnp.float32) * s, precision=HIGHEST)

    cases = [
        ("fp32", jax.jit(lambda a, b: jnp.dot(a, b, precision=HIGHEST)), (x, w), 4 * count),
        ("bf16", jax.jit(lambda a, b: jnp.dot(to_bf16(a), b, preferred_element_type=jnp.float32)),
         (x, w_b), 2 * count),
        ("int8_weight_only", jax.jit(dequant_dot), (x, q_w, s_w), 1 * count),
        ("w8a8", jax.jit(w8a8_matmul), (x, q_w, s_w), 1 * count),
    ]
    rows = []
    for policy, f, args, nbytes in cases:
        got = np.asarray(f(*args), np.float64)
        rows.append({
            "policy": policy,
            "max_rel_err": float(np.max(np.abs(got - exact)) / denom),
            "weight_bytes": int(nbytes),
            "median_ms": float(benchmark(f, *args)["median_ms"]),
        })
    return rows
""",
    },
    {
        "key": "05_precision_policy:train_linear_regression:loss-after-update",
        "function": "train_linear_regression",
        "why": "held-out, second writer: eager Python loop, forward/grad helpers, loss taken after the update",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(f"unknown policy {policy}")
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    Xb = X.astype(jnp.bfloat16)
    w = jnp.zeros(d, jnp.bfloat16 if policy == "bf16_params" else jnp.float32)

    def forward(w):
        if policy == "fp32":
            return jnp.dot(X, w, precision=HIGHEST)
        wc = w if policy == "bf16_params" else w.astype(jnp.bfloat16)
        return jnp.dot(Xb, wc, preferred_element_type=jnp.float32)

    def gradient(r):
        if policy == "fp32":
            return (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        return (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)

    history = []
    for _ in range(steps):
        g = gradient(forward(w) - y)
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            w = w - lr * g
        r_new = forward(w) - y
        history.append(float(jnp.mean(r_new * r_new)))
    return history
""",
    },
    {
        "key": "05_precision_policy:train_linear_regression:master-rounded-to-bf16",
        "function": "train_linear_regression",
        "why": "held-out, second writer: scan, float32 weights put on the bf16 grid after each update",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(policy)
    X, y, _ = regression_problem(seed)
    n, d = X.shape
    Xh = to_bf16(X)

    def loss_grad(w):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            return jnp.mean(r ** 2), (2.0 / n) * jnp.dot(r, X, precision=HIGHEST)
        r = jnp.dot(Xh, to_bf16(w), preferred_element_type=jnp.float32) - y
        return jnp.mean(r ** 2), (2.0 / n) * jnp.dot(to_bf16(r), Xh, preferred_element_type=jnp.float32)

    def update(w, _):
        loss, g = loss_grad(w)
        w = w - lr * g
        if policy != "fp32":
            w = to_bf16(w).astype(jnp.float32)   # keep the weights on the bf16 grid
        return w, loss

    _, losses = jax.lax.scan(update, jnp.zeros(d, jnp.float32), None, length=steps)
    return [float(v) for v in np.asarray(losses)]
""",
    },
]
