"""Independent student answers for lesson 05_precision_policy (train set).

Written from the student notebook and COURSE.md only. Some mistakes follow public reports: timing
JAX without block_until_ready or with the compile in the first timed call (the JAX FAQ's
"benchmarking JAX code" pitfalls), a float32 reference at DEFAULT precision (jax-ml/jax #9973),
casts inside jit that XLA may keep unrounded (jax-ml/jax #6283), and bf16 parameters whose small
updates round away (the mixed-precision training "master weights" argument).
"""

_TIMER = '''
def _time_ms(f, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(f(*args))
    ts = []
    for _ in range(iters):
        t0 = time.perf_counter()
        jax.block_until_ready(f(*args))
        ts.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(ts))
'''

_DATA = '''
def _layer_data(seed, m, k, n):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / math.sqrt(k)
    return x, w
'''


def _policy_table(fp32_dot, bf16_fn, i8_fn, bytes_i8, ref="np.asarray(x, np.float64) @ np.asarray(w, np.float64)",
                  rel="float(np.max(np.abs(o - exact)) / np.max(np.abs(exact)))", data="x, w = _layer_data(seed, m, k, n)"):
    return _TIMER + _DATA + f'''
def policy_table(seed=0, m=256, k=1024, n=256):
    {data}
    exact = {ref}
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)
    fns = {{
        "fp32": (jax.jit(lambda a, b: {fp32_dot}), (x, w), 4 * k * n),
        "bf16": (jax.jit(lambda a, b: {bf16_fn}), (x, w_bf16), 2 * k * n),
        "int8_weight_only": (jax.jit(lambda a, q, s: {i8_fn}), (x, q_w, s_w), {bytes_i8}),
        "w8a8": (jax.jit(w8a8_matmul), (x, q_w, s_w), {bytes_i8}),
    }}
    rows = []
    for name, (f, args, nbytes) in fns.items():
        o = np.asarray(f(*args), np.float64)
        rows.append({{"policy": name, "max_rel_err": {rel},
                     "weight_bytes": int(nbytes), "median_ms": _time_ms(f, *args)}})
    return rows
'''


_FP32_OK = "jnp.dot(a, b, precision=HIGHEST)"
_BF16_OK = "jnp.dot(to_bf16(a), b, preferred_element_type=jnp.float32)"
_I8_OK = "jnp.dot(to_bf16(a), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s"
_BYTES_OK = "k * n + 4 * n"


_TRAIN_HEAD = '''
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    Xb = X.astype(jnp.bfloat16)
    f32 = dict(preferred_element_type=jnp.float32)
    losses = []
'''

ANSWERS = [
    # ------------------------------------------------------------ benchmark
    {"function": "benchmark", "intent": "wrong",
     "why": "no separate warm-up: times all warmup + iters calls, so the first (compiling) call is in the statistics",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    times = []
    for _ in range(warmup + iters):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append((time.perf_counter() - t0) * 1000.0)
    return {"median_ms": float(np.median(times)), "min_ms": float(np.min(times))}
'''},
    {"function": "benchmark", "intent": "wrong",
     "why": "timed calls not synchronised: the clock stops at dispatch, block_until_ready only on the last result",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times, out = [], None
    for _ in range(iters):
        t0 = time.perf_counter()
        out = fn(*args)
        times.append((time.perf_counter() - t0) * 1e3)
    jax.block_until_ready(out)
    return {"median_ms": float(np.median(times)), "min_ms": float(min(times))}
'''},
    {"function": "benchmark", "intent": "wrong",
     "why": "times the whole timed loop once and divides by iters: median and min are the same average",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    t0 = time.perf_counter()
    for _ in range(iters):
        jax.block_until_ready(fn(*args))
    avg = (time.perf_counter() - t0) * 1e3 / iters
    return {"median_ms": float(avg), "min_ms": float(avg)}
'''},
    {"function": "benchmark", "intent": "wrong",
     "why": "returns seconds, not milliseconds",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - start)
    return {"median_ms": float(np.median(times)), "min_ms": float(np.min(times))}
'''},
    {"function": "benchmark", "intent": "wrong",
     "why": "reports the mean as median_ms",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append((time.perf_counter() - start) * 1e3)
    return {"median_ms": float(sum(times) / len(times)), "min_ms": float(min(times))}
'''},
    {"function": "benchmark", "intent": "wrong",
     "why": "an extra untimed call at the start to 'make sure it compiled', so fn runs warmup + iters + 1 times",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    jax.block_until_ready(fn(*args))          # compile
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append((time.perf_counter() - start) * 1e3)
    return {"median_ms": float(np.median(times)), "min_ms": float(np.min(times))}
'''},
    {"function": "benchmark", "intent": "correct",
     "why": "perf_counter_ns per call, statistics-free median via np.percentile(50)",
     "source": '''
def benchmark(fn, *args, warmup=2, iters=10):
    for _ in range(warmup):
        out = fn(*args)
        jax.block_until_ready(out)
    samples = np.empty(iters, dtype=np.float64)
    for i in range(iters):
        t0 = time.perf_counter_ns()
        out = fn(*args)
        jax.block_until_ready(out)
        samples[i] = (time.perf_counter_ns() - t0) / 1e6
    return {"median_ms": float(np.percentile(samples, 50)), "min_ms": float(samples.min())}
'''},
    # ------------------------------------------------------------ policy_table
    {"function": "policy_table", "intent": "wrong",
     "why": "fp32 policy as a plain jnp.dot (DEFAULT precision): one bf16 pass on a TPU",
     "source": _policy_table("jnp.dot(a, b)", _BF16_OK, _I8_OK, _BYTES_OK)},
    {"function": "policy_table", "intent": "wrong",
     "why": "bf16 policy as a float32 dot at DEFAULT precision, relying on the TPU to make it bf16",
     "source": _policy_table(_FP32_OK, "jnp.dot(a, b.astype(jnp.float32))", _I8_OK, _BYTES_OK)},
    {"function": "policy_table", "intent": "wrong",
     "why": "bf16 policy without preferred_element_type: the output is rounded to bf16 too",
     "source": _policy_table(_FP32_OK, "jnp.dot(to_bf16(a), b)", _I8_OK, _BYTES_OK)},
    {"function": "policy_table", "intent": "wrong",
     "why": "passes: rounds x with a plain .astype(jnp.bfloat16) inside jit; XLA on a TPU may keep it unrounded (the lesson measured this on a v5e), so the bf16 policy silently computes in f32 there; the grader does not emulate excess precision",
     "source": _policy_table(_FP32_OK, "jnp.dot(a.astype(jnp.bfloat16), b, preferred_element_type=jnp.float32)",
                             "jnp.dot(a.astype(jnp.bfloat16), q.astype(jnp.bfloat16), preferred_element_type=jnp.float32) * s",
                             _BYTES_OK)},
    {"function": "policy_table", "intent": "wrong",
     "why": "int8 weight_bytes count only the int8 codes, not the per-column float32 scales",
     "source": _policy_table(_FP32_OK, _BF16_OK, _I8_OK, "k * n")},
    {"function": "policy_table", "intent": "wrong",
     "why": "max_rel_err as the largest element-wise relative error max|out - exact| / |exact| instead of dividing by max|exact|",
     "source": _policy_table(_FP32_OK, _BF16_OK, _I8_OK, _BYTES_OK,
                             rel="float(np.max(np.abs(o - exact) / np.maximum(np.abs(exact), 1e-12)))")},
    {"function": "policy_table", "intent": "wrong",
     "why": "exact reference computed on the device as a float32 jnp.dot at DEFAULT precision",
     "source": _policy_table(_FP32_OK, _BF16_OK, _I8_OK, _BYTES_OK,
                             ref="np.asarray(jnp.dot(x, w), np.float64)")},
    {"function": "policy_table", "intent": "wrong",
     "why": "swaps the keys: x from k2 and w from k1",
     "source": _policy_table(_FP32_OK, _BF16_OK, _I8_OK, _BYTES_OK,
                             data="k2, k1 = jax.random.split(jax.random.PRNGKey(seed)); "
                                  "x = jax.random.normal(k1, (m, k), dtype=jnp.float32); "
                                  "w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / math.sqrt(k)")},
    {"function": "policy_table", "intent": "correct",
     "why": "host float64 reference, bf16 weights stored outside jit, int8 dequantized at HIGHEST (accepted variant)",
     "source": '''
def policy_table(seed=0, m=256, k=1024, n=256):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    x = jax.random.normal(k1, (m, k), dtype=jnp.float32)
    w = jax.random.normal(k2, (k, n), dtype=jnp.float32) / np.sqrt(k)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    scale = float(np.max(np.abs(exact)))
    w_bf16 = w.astype(jnp.bfloat16)
    q_w, s_w = quantize_symmetric(w, axis=0)

    @jax.jit
    def f_fp32(a, b):
        return jnp.dot(a, b, precision=jax.lax.Precision.HIGHEST)

    @jax.jit
    def f_bf16(a, b):
        return jax.lax.dot(to_bf16(a), b, preferred_element_type=jnp.float32)

    @jax.jit
    def f_i8(a, q, s):
        return jnp.dot(a, q.astype(jnp.float32) * s, precision=jax.lax.Precision.HIGHEST)

    specs = [("fp32", f_fp32, (x, w), 4 * k * n), ("bf16", f_bf16, (x, w_bf16), 2 * k * n),
             ("int8_weight_only", f_i8, (x, q_w, s_w), k * n + 4 * n),
             ("w8a8", jax.jit(w8a8_matmul), (x, q_w, s_w), k * n + 4 * n)]
    table = []
    for name, f, args, nbytes in specs:
        out = np.asarray(f(*args), np.float64)
        table.append({"policy": name, "max_rel_err": float(np.abs(out - exact).max() / scale),
                      "weight_bytes": int(nbytes), "median_ms": float(benchmark(f, *args)["median_ms"])})
    return table
'''},
    # ------------------------------------------------------------ train_linear_regression
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "records the loss after each update instead of before it",
     "source": _TRAIN_HEAD + '''
    w = jnp.zeros(X.shape[1], jnp.float32)
    for _ in range(steps):
        wc = w.astype(jnp.bfloat16) if policy != "fp32" else w
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            grad = (2.0 / n) * jnp.dot(X.T, pred - y, precision=HIGHEST)
        else:
            pred = jnp.dot(Xb, wc, **f32)
            grad = (2.0 / n) * jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), **f32)
        w = w - lr * grad
        if policy == "bf16_params":
            w = w.astype(jnp.bfloat16).astype(jnp.float32)
        new_pred = jnp.dot(X, w, precision=HIGHEST) if policy == "fp32" else jnp.dot(Xb, w.astype(jnp.bfloat16), **f32)
        losses.append(float(jnp.mean((new_pred - y) ** 2)))
    return losses
'''},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "bf16_params computes in bf16 but never rounds the updated parameters back to bf16 (they stay float32)",
     "source": _TRAIN_HEAD + '''
    w = jnp.zeros(X.shape[1], jnp.float32)
    for _ in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            grad = (2.0 / n) * jnp.dot(X.T, pred - y, precision=HIGHEST)
        else:
            pred = jnp.dot(Xb, w.astype(jnp.bfloat16), **f32)
            grad = (2.0 / n) * jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), **f32)
        losses.append(float(jnp.mean((pred - y) ** 2)))
        w = w - lr * grad
    return losses
'''},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "bf16_master_fp32 applies the update to the bf16 copy and then copies it into the master (same as bf16_params)",
     "source": _TRAIN_HEAD + '''
    master = jnp.zeros(X.shape[1], jnp.float32)
    for _ in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, master, precision=HIGHEST)
            grad = (2.0 / n) * jnp.dot(X.T, pred - y, precision=HIGHEST)
            losses.append(float(jnp.mean((pred - y) ** 2)))
            master = master - lr * grad
            continue
        wb = master.astype(jnp.bfloat16)
        pred = jnp.dot(Xb, wb, **f32)
        grad = (2.0 / n) * jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), **f32)
        losses.append(float(jnp.mean((pred - y) ** 2)))
        wb = (wb.astype(jnp.float32) - lr * grad).astype(jnp.bfloat16)
        master = wb.astype(jnp.float32)
    return losses
'''},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "hard-codes the learning rate 0.1 in the update instead of using lr",
     "source": _TRAIN_HEAD + '''
    w = jnp.zeros(X.shape[1], jnp.float32)
    wb = jnp.zeros(X.shape[1], jnp.bfloat16)
    for _ in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            losses.append(float(jnp.mean((pred - y) ** 2)))
            w = w - 0.1 * (2.0 / n) * jnp.dot(X.T, pred - y, precision=HIGHEST)
        elif policy == "bf16_params":
            pred = jnp.dot(Xb, wb, **f32)
            losses.append(float(jnp.mean((pred - y) ** 2)))
            g = (2.0 / n) * jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), **f32)
            wb = (wb.astype(jnp.float32) - 0.1 * g).astype(jnp.bfloat16)
        else:
            pred = jnp.dot(Xb, w.astype(jnp.bfloat16), **f32)
            losses.append(float(jnp.mean((pred - y) ** 2)))
            w = w - 0.1 * (2.0 / n) * jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), **f32)
    return losses
'''},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "gradient without the factor 2: (1/n) X^T r",
     "source": _TRAIN_HEAD + '''
    w = jnp.zeros(X.shape[1], jnp.float32)
    wb = jnp.zeros(X.shape[1], jnp.bfloat16)
    for _ in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            losses.append(float(jnp.mean((pred - y) ** 2)))
            w = w - lr * jnp.dot(X.T, pred - y, precision=HIGHEST) / n
        elif policy == "bf16_params":
            pred = jnp.dot(Xb, wb, **f32)
            losses.append(float(jnp.mean((pred - y) ** 2)))
            g = jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), **f32) / n
            wb = (wb.astype(jnp.float32) - lr * g).astype(jnp.bfloat16)
        else:
            pred = jnp.dot(Xb, w.astype(jnp.bfloat16), **f32)
            losses.append(float(jnp.mean((pred - y) ** 2)))
            w = w - lr * jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), **f32) / n
    return losses
'''},
    {"function": "train_linear_regression", "intent": "wrong",
     "why": "always builds the problem with regression_problem(0): the seed argument is ignored",
     "source": '''
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem()
    n = X.shape[0]
    Xb = X.astype(jnp.bfloat16)
    f32 = dict(preferred_element_type=jnp.float32)
    w = jnp.zeros(X.shape[1], jnp.float32)
    losses = []
    for _ in range(steps):
        if policy == "fp32":
            pred = jnp.dot(X, w, precision=HIGHEST)
            grad = (2.0 / n) * jnp.dot(X.T, pred - y, precision=HIGHEST)
        else:
            pred = jnp.dot(Xb, w.astype(jnp.bfloat16), **f32)
            grad = (2.0 / n) * jnp.dot(Xb.T, (pred - y).astype(jnp.bfloat16), **f32)
        losses.append(float(jnp.mean((pred - y) ** 2)))
        w = w - lr * grad
        if policy == "bf16_params":
            w = w.astype(jnp.bfloat16).astype(jnp.float32)
    return losses
'''},
    {"function": "train_linear_regression", "intent": "correct",
     "why": "jitted lax.scan per policy with to_bf16 for every rounding inside the step",
     "source": '''
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    Xb = X.astype(jnp.bfloat16)
    acc = dict(preferred_element_type=jnp.float32)

    def loss_grad(w32):
        if policy == "fp32":
            pred = jnp.dot(X, w32, precision=jax.lax.Precision.HIGHEST)
            grad = (2.0 / n) * jnp.dot(X.T, pred - y, precision=jax.lax.Precision.HIGHEST)
        else:
            pred = jnp.dot(Xb, to_bf16(w32), **acc)
            grad = (2.0 / n) * jnp.dot(Xb.T, to_bf16(pred - y), **acc)
        return jnp.mean((pred - y) ** 2), grad

    def step(w32, _):
        loss, grad = loss_grad(w32)
        new = w32 - lr * grad
        if policy == "bf16_params":
            new = to_bf16(new).astype(jnp.float32)
        return new, loss

    w0 = jnp.zeros((X.shape[1],), jnp.float32)
    _, losses = jax.jit(lambda w: jax.lax.scan(step, w, None, length=steps))(w0)
    return [float(v) for v in np.asarray(losses)]
'''},
]
