# ruff: noqa: E501  (claims are one-line expressions)
"""Claims backing the explanations of solutions/05_precision_policy/mistakes.py (tests/test_claims.py).

policy_table runs on small shapes (m = n = 8, k = 64) with its timings stubbed (benchmark answers
0 ms, as in the grader's diagnosis), so only its errors and bytes are claimed; benchmark runs on
a fake clock; train_linear_regression on the lesson's own regression problem."""

EAGER = True  # claims run under jax.disable_jit() (tests/test_claims.py)

HELPERS = '''
import functools

SMALL = dict(seed=0, m=8, k=64, n=8)
if benchmark is reference["benchmark"]:  # an entry of another function: policy_table's timings stubbed
    def benchmark(fn, *args, warmup=2, iters=10):
        return {"median_ms": 0.0, "min_ms": 0.0}


@functools.cache
def mine():
    return policy_table(**SMALL)


def ref():
    if "policy_table" not in CACHE:
        with_stub = dict(reference["policy_table"].__globals__)
        with_stub["benchmark"] = lambda fn, *args, **kwargs: {"median_ms": 0.0, "min_ms": 0.0}
        CACHE["policy_table"] = type(reference["policy_table"])(reference["policy_table"].__code__, with_stub)(**SMALL)
    return CACHE["policy_table"]


def err(rows, policy):
    return next(r["max_rel_err"] for r in rows if r["policy"] == policy)


def nbytes(rows, policy):
    return next(r["weight_bytes"] for r in rows if r["policy"] == policy)


def train(policy, **kwargs):
    return cached_train(policy, tuple(sorted(kwargs.items())))


@functools.cache
def cached_train(policy, kwargs):
    return train_linear_regression(policy, **dict(kwargs))


def train_ref(policy, **kwargs):
    key = ("train", policy, tuple(sorted(kwargs.items())))
    if key not in CACHE:
        CACHE[key] = reference["train_linear_regression"](policy, **kwargs)
    return CACHE[key]


class FakeClock:
    """time, whose perf_counter returns the given readings one by one."""

    def __init__(self, readings):
        self.readings = iter(readings)

    def perf_counter(self):
        return next(self.readings)

    def __getattr__(self, name):
        return getattr(__import__("time"), name)


def on_clock(readings, fn, *args, **kwargs):
    global time
    real, time = time, FakeClock(readings)
    try:
        return fn(*args, **kwargs)
    finally:
        time = real


def calls(**kwargs):
    count = []
    benchmark(lambda: count.append(1), **kwargs)
    return len(count)


TPU = np.load(DATA / "tpu" / "tpu_golden.npz")
CASTS = np.load(DATA / "tpu" / "tpu_casts.npz")  # the chip's casts inside jit (autograder/chip/cast_patterns.toml)
'''

TIMED = "[0.0, 0.001, 0.001, 0.003, 0.003, 0.006, 0.006, 0.010]"  # calls of 1, 2, 3 and 4 ms

CLAIMS = {
    "benchmark:seconds-not-milliseconds": [
        "on_clock(range(100), benchmark, lambda: None, warmup=0, iters=3) == {'median_ms': 1.0, 'min_ms': 1.0}",
        f"on_clock({TIMED}, reference['benchmark'].__call__, lambda: None, warmup=0, iters=4) is not None",
    ],
    "benchmark:forces-one-warmup": [
        "calls(warmup=0, iters=3) == 4",
        "calls(warmup=2, iters=3) == 5",
    ],
    "benchmark:upper-median": [
        f"on_clock({TIMED}, benchmark, lambda: None, warmup=0, iters=4)['median_ms'] == 3.0",
        f"round(float(np.median(np.diff({TIMED})[::2] * 1e3)), 9) == 2.5",
    ],
    "policy_table:int8-bytes-miss-scales": [
        "[nbytes(mine(), p) for p in ('int8_weight_only', 'w8a8')] == [64 * 8] * 2",
        "[nbytes(ref(), p) for p in ('int8_weight_only', 'w8a8')] == [64 * 8 + 4 * 8] * 2",
    ],
    "policy_table:bf16-bytes-as-fp32": [
        "nbytes(mine(), 'bf16') == 4 * 64 * 8 == 2 * nbytes(ref(), 'bf16')",
    ],
    "policy_table:int8-dot-wraps": [
        "jnp.dot(jnp.ones((1, 2), jnp.int8), jnp.ones((2, 1), jnp.int8)).dtype == jnp.int8",
        "err(mine(), 'w8a8') > 0.5 > 0.05 > err(ref(), 'w8a8')",
    ],
    "policy_table:per-tensor-activations": [
        "err(mine(), 'w8a8') > err(ref(), 'w8a8')",
    ],
    "policy_table:truncates-activations": [
        "err(mine(), 'w8a8') > err(ref(), 'w8a8')",
        "(lambda v: round(float(np.abs(np.trunc(v) - v).max() / np.abs(np.round(v) - v).max()), 3))(np.linspace(-127, 127, 100001)) == 2.0",
    ],
    "policy_table:bf16-via-default-precision": [
        "err(mine(), 'bf16') < 1e-5 < 1e-3 < err(ref(), 'bf16')",
    ],
    "policy_table:bf16-output": [
        "err(mine(), 'bf16') > 1.2 * err(ref(), 'bf16')",
    ],
    "policy_table:float16-not-bfloat16": [
        "np.finfo(np.float16).nmant == 10 and ml_dtypes.finfo(ml_dtypes.bfloat16).nmant == 7",
        "np.finfo(np.float16).maxexp < ml_dtypes.finfo(ml_dtypes.bfloat16).maxexp == np.finfo(np.float32).maxexp",
        "err(mine(), 'bf16') * 4 < err(ref(), 'bf16')",
    ],
    "policy_table:reference-not-exact": [
        "err(mine(), 'bf16') < 1e-5 < 1e-3 < err(mine(), 'fp32')",
        "err(ref(), 'fp32') < 1e-5",
    ],
    "policy_table:fp32-default-precision": [
        "float(np.abs(TPU['l02_default_jit'] - TPU['l02_highest_jit']).max()) > 0.01",
        "err(mine(), 'fp32') < 1e-5",
    ],
    "policy_table:dequantized-w-rounded-bf16": [
        "all(float(ml_dtypes.bfloat16(i)) == i for i in range(257)) and float(ml_dtypes.bfloat16(257)) != 257",
        "err(mine(), 'int8_weight_only') != err(ref(), 'int8_weight_only')",
        "(lambda dq: not np.array_equal(dq, dq.astype(jnp.bfloat16).astype(jnp.float32)))((lambda q, s: q * s)(*quantize_symmetric(jax.random.normal(jax.random.PRNGKey(0), (64, 8)), axis=0)))",
    ],
    "policy_table:cast-round-trip-in-jit": [
        "np.array_equal(TPU['cast_bfloat16_jit'], TPU['cast_x'], equal_nan=True) and not np.array_equal(TPU['cast_bfloat16'], TPU['cast_x'], equal_nan=True)",
        "[r['max_rel_err'] for r in mine()] == [r['max_rel_err'] for r in ref()]",
    ],
    "train_linear_regression:bf16-params-kept-fp32": [
        "np.allclose(train('bf16_params', steps=60), train_ref('bf16_master_fp32', steps=60), rtol=1e-6)",
        "train_ref('bf16_params')[-1] > 10 * train_ref('bf16_master_fp32')[-1]",
    ],
    "train_linear_regression:master-rounded-to-bf16": [
        "train('bf16_master_fp32')[-1] > 10 * train_ref('bf16_master_fp32')[-1]",
        "np.allclose(train('bf16_master_fp32'), train_ref('bf16_params'), rtol=1e-6)",
    ],
    "train_linear_regression:one-loss-too-many": [
        "len(train('fp32', steps=5)) == 6",
        "np.allclose(train('fp32', steps=5)[:5], train_ref('fp32', steps=5), rtol=1e-6)",
    ],
    "train_linear_regression:ignores-seed": [
        "train('fp32', steps=5, seed=1) == train('fp32', steps=5, seed=0)",
        "np.allclose(train('fp32', steps=5, seed=1), train_ref('fp32', steps=5, seed=0), rtol=1e-6)",
        "train_ref('fp32', steps=5, seed=1) != train_ref('fp32', steps=5, seed=0)",
    ],
    "train_linear_regression:ignores-lr": [
        "train('fp32', steps=5, lr=0.05) == train('fp32', steps=5)",
        "np.allclose(train('fp32', steps=5, lr=0.05), train_ref('fp32', steps=5, lr=0.1), rtol=1e-6)",
        "train_ref('fp32', steps=5, lr=0.05) != train_ref('fp32', steps=5, lr=0.1)",
    ],
    "train_linear_regression:master-computes-in-fp32": [
        "np.allclose(train('bf16_master_fp32', steps=60), train_ref('fp32', steps=60), rtol=1e-6)",
        "not np.allclose(train_ref('bf16_master_fp32', steps=60), train_ref('fp32', steps=60), rtol=1e-6)",
    ],
    "train_linear_regression:gradient-missing-factor-2": [
        "np.allclose(train('fp32', steps=30, lr=0.1), train_ref('fp32', steps=30, lr=0.05), rtol=1e-5)",
        "train('fp32', steps=30)[-1] > train_ref('fp32', steps=30)[-1]",
    ],
    "train_linear_regression:targets-rounded-bf16": [
        "train('bf16_params', steps=3)[0] != train_ref('fp32', steps=3)[0] == train_ref('bf16_params', steps=3)[0]",
        "np.allclose(train('fp32', steps=3), train_ref('fp32', steps=3), rtol=1e-6)",
    ],
    "train_linear_regression:loss-rounded-bf16": [
        "all(v == float(ml_dtypes.bfloat16(v)) for v in train('bf16_master_fp32', steps=20))",
        "train('bf16_master_fp32', steps=3)[0] != train_ref('fp32', steps=3)[0]",
        "2 < (ml_dtypes.finfo(ml_dtypes.bfloat16).nmant + 1) * math.log10(2) < 3",
    ],
    "policy_table:cast-in-jit-jitted-lambdas": [
        "np.array_equal(TPU['cast_bfloat16_jit'], TPU['cast_x'], equal_nan=True) and not np.array_equal(TPU['cast_bfloat16'], TPU['cast_x'], equal_nan=True)",
        "float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(np.float64) @ CASTS['in_u']).max()) < 1e-4 < float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(ml_dtypes.bfloat16).astype(np.float64) @ CASTS['in_u'].astype(ml_dtypes.bfloat16).astype(np.float64)).max())",
        "np.allclose([r['max_rel_err'] for r in mine()], [r['max_rel_err'] for r in ref()], rtol=1e-3)",
    ],
    "policy_table:cast-in-jit-dot-general": [
        "np.array_equal(TPU['cast_bfloat16_jit'], TPU['cast_x'], equal_nan=True) and not np.array_equal(TPU['cast_bfloat16'], TPU['cast_x'], equal_nan=True)",
        "float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(np.float64) @ CASTS['in_u']).max()) < 1e-4 < float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(ml_dtypes.bfloat16).astype(np.float64) @ CASTS['in_u'].astype(ml_dtypes.bfloat16).astype(np.float64)).max())",
    ],
    "policy_table:cast-in-jit-einsum": [
        "np.array_equal(TPU['cast_bfloat16_jit'], TPU['cast_x'], equal_nan=True) and not np.array_equal(TPU['cast_bfloat16'], TPU['cast_x'], equal_nan=True)",
        "float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(np.float64) @ CASTS['in_u']).max()) < 1e-4 < float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(ml_dtypes.bfloat16).astype(np.float64) @ CASTS['in_u'].astype(ml_dtypes.bfloat16).astype(np.float64)).max())",
        "np.allclose([r['max_rel_err'] for r in mine()], [r['max_rel_err'] for r in ref()], rtol=1e-3)",
    ],
    "policy_table:cast-in-jit-lax-dot": [
        "np.array_equal(TPU['cast_bfloat16_jit'], TPU['cast_x'], equal_nan=True) and not np.array_equal(TPU['cast_bfloat16'], TPU['cast_x'], equal_nan=True)",
        "float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(np.float64) @ CASTS['in_u']).max()) < 1e-4 < float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(ml_dtypes.bfloat16).astype(np.float64) @ CASTS['in_u'].astype(ml_dtypes.bfloat16).astype(np.float64)).max())",
        "np.allclose([r['max_rel_err'] for r in mine()], [r['max_rel_err'] for r in ref()], rtol=1e-3)",
    ],
    "train_linear_regression:cast-in-jit-jitted-step": [
        "float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(np.float64) @ CASTS['in_u']).max()) < 1e-4 < float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(ml_dtypes.bfloat16).astype(np.float64) @ CASTS['in_u'].astype(ml_dtypes.bfloat16).astype(np.float64)).max())",
    ],
    "train_linear_regression:cast-in-jit-scanned-run": [
        "float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(np.float64) @ CASTS['in_u']).max()) < 1e-4 < float(np.abs(CASTS['mv_bf16_jit'] - CASTS['in_a'].astype(ml_dtypes.bfloat16).astype(np.float64) @ CASTS['in_u'].astype(ml_dtypes.bfloat16).astype(np.float64)).max())",
        "np.allclose(train('bf16_master_fp32', steps=60), train_ref('bf16_master_fp32', steps=60), rtol=1e-3)",
    ],
    "train_linear_regression:cast-round-trip-in-jit": [
        "np.array_equal(TPU['cast_bfloat16_jit'], TPU['cast_x'], equal_nan=True) and not np.array_equal(TPU['cast_bfloat16'], TPU['cast_x'], equal_nan=True)",
        "np.allclose(train('bf16_master_fp32', steps=60), train_ref('bf16_master_fp32', steps=60), rtol=1e-5)",
        "not np.allclose(train_ref('bf16_master_fp32', steps=60), train_ref('fp32', steps=60), rtol=1e-5)",
    ],
    "policy_table:bf16-weights-f32-activations": [
        "jnp.dot(jnp.ones((2, 2), jnp.float32), jnp.ones((2, 2), jnp.bfloat16)).dtype == jnp.float32",
        "err(mine(), 'bf16') < err(ref(), 'bf16')",
        "nbytes(mine(), 'bf16') == nbytes(ref(), 'bf16')",
    ],
    "policy_table:weight-only-no-rescale": [
        "err(mine(), 'int8_weight_only') > 10 > 0.05 > err(ref(), 'int8_weight_only')",
        "err(mine(), 'w8a8') == err(ref(), 'w8a8')",
    ],
    "policy_table:per-tensor-weights": [
        "[nbytes(mine(), p) for p in ('int8_weight_only', 'w8a8')] == [64 * 8 + 4] * 2",
        "err(mine(), 'int8_weight_only') > err(ref(), 'int8_weight_only')",
    ],
    "policy_table:scales-counted-per-row": [
        "[nbytes(mine(), p) for p in ('int8_weight_only', 'w8a8')] == [64 * 8 + 4 * 64] * 2",
        "[nbytes(ref(), p) for p in ('int8_weight_only', 'w8a8')] == [64 * 8 + 4 * 8] * 2",
    ],
    "policy_table:rel-err-over-mean": [
        "all(err(mine(), p) > 1.5 * err(ref(), p) for p in ('bf16', 'int8_weight_only', 'w8a8'))",
    ],
    "train_linear_regression:one-loss-too-few": [
        "len(train('fp32', steps=5)) == 4",
        "np.allclose(train('fp32', steps=5), train_ref('fp32', steps=5)[:4], rtol=1e-6)",
    ],
    "train_linear_regression:sum-not-mean-loss": [
        "np.allclose(train('fp32', steps=5), np.array(train_ref('fp32', steps=5)) * regression_problem(0)[0].shape[0], rtol=1e-5)",
    ],
    "train_linear_regression:rmse-loss": [
        "np.allclose(np.square(train('fp32', steps=5)), train_ref('fp32', steps=5), rtol=1e-5)",
    ],
}

# (entry, another entry of the same function): the first's claims are not all True for the second's
# source, so the claims say something about their own entry's code (tests/test_claims.py)
DISTINCT = [
    ("benchmark:upper-median", "benchmark:seconds-not-milliseconds"),
    ("train_linear_regression:ignores-lr", "train_linear_regression:ignores-seed"),
]
