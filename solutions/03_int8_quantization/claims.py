# ruff: noqa: E501  (claims are one-line expressions)
"""Claims backing the explanations of solutions/03_int8_quantization/mistakes.py (tests/test_claims.py)."""

HELPERS = '''
def f32(rows):
    return np.array(rows, np.float32)


def codes(result):
    return np.asarray(result[0]).tolist()


def scale_of(result):
    return np.asarray(result[1])


def w8a8(x, q_w, s_w, fn=None):
    fn = fn or w8a8_matmul
    return np.asarray(fn(f32(x), np.array(q_w, np.int8), f32(s_w)), np.float64)


def exact_w8a8(x, q_w, s_w):
    return np.asarray(reference["w8a8_matmul"](f32(x), np.array(q_w, np.int8), f32(s_w)), np.float64)


LONG_X = np.ones((1, 4099), np.float32)                                 # codes 127 on every k
LONG_Q = np.tile(np.array([[127], [-3], [101]], np.int8), (1367, 1))[:4099]
TINY_ROWS = f32([[1e-6, -5e-7, 3e-7], [1e-4, -5e-5, 3e-5]])
Q3 = np.array([[5, -7], [11, 3], [-2, 9]], np.int8)
S3 = f32([[0.5, 0.25]])


def mine():
    return granularity_errors()


def ref():
    return reference["granularity_errors"]()


def tpu_default_errors(seed=9):
    """granularity_errors with both matmuls as a TPU's DEFAULT precision computes them: one bfloat16
    pass (inputs rounded to bfloat16, float32 accumulation)."""
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    bf = lambda a, b: jnp.dot(a.astype(jnp.bfloat16), b.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
    out = {}
    for name, fn in (("per_channel", quantize_per_channel), ("per_tensor", quantize_per_tensor)):
        out[name] = float(jnp.mean(jnp.abs(bf(x, dequantize(*fn(w))) - bf(x, w))))
    return out
'''

CLAIMS = {
    "quantize_per_channel:scale-128": [
        "codes(quantize_per_channel(f32([[1.0, -1.0], [0.5, 0.5]])))[0] == [127, -128]",
        "codes(reference['quantize_per_channel'](f32([[1.0, -1.0], [0.5, 0.5]])))[0] == [127, -127]",
    ],
    "quantize_per_channel:no-clip-wraps": [
        "codes(quantize_per_channel(f32([[1.0], [0.5]])))[0] == [-128]",
        "np.array([128.0]).astype(np.int8).tolist() == [-128]",
    ],
    "quantize_per_channel:no-zero-guard": [
        "scale_of(quantize_per_channel(np.zeros((2, 2), np.float32))).tolist() == [[0.0, 0.0]]",
        "bool(jnp.isnan(jnp.zeros((2, 2)) / scale_of(quantize_per_channel(np.zeros((2, 2), np.float32)))).all())",
    ],
    "quantize_per_channel:scale-shape-n": [
        "scale_of(quantize_per_channel(f32([[1, 2], [3, 4], [5, 6]]))).shape == (2,)",
        "scale_of(quantize_per_channel(f32([[1, 2], [3, 4], [5, 6]]))).tolist() == scale_of(reference['quantize_per_channel'](f32([[1, 2], [3, 4], [5, 6]])))[0].tolist()",
    ],
    "quantize_per_channel:float64-scale": [
        "scale_of(quantize_per_channel(np.array([[0.3, -1.0]]))).dtype == np.float64",
        "scale_of(quantize_per_channel(f32([[0.3, -1.0]]))).dtype == np.float32",
    ],
    "quantize_per_tensor:scale-128": [
        "codes(quantize_per_tensor(f32([[1.0, 0.5], [0.25, -1.0]]))) == [[127, 64], [32, -128]]",
        "codes(reference['quantize_per_tensor'](f32([[1.0, 0.5], [0.25, -1.0]])))[1][1] == -127",
    ],
    "quantize_per_tensor:scale-shape-1x1": [
        "scale_of(quantize_per_tensor(f32([[1.0, 0.5]]))).shape == (1, 1)",
        "scale_of(reference['quantize_per_tensor'](f32([[1.0, 0.5]]))).shape == ()",
    ],
    "quantize_per_tensor:no-zero-guard": [
        "float(scale_of(quantize_per_tensor(np.zeros((2, 2), np.float32)))) == 0.0",
    ],
    "quantize_per_tensor:python-float-scale": [
        "type(quantize_per_tensor(f32([[0.3, -1.0]]))[1]) is float",
        "quantize_per_tensor(f32([[0.3, 1.1]]))[1] == float(np.float32(1.1)) / 127",
    ],
    "quantize_per_tensor:max-of-channel-scales": [
        "float(scale_of(quantize_per_tensor(f32([[0.5, 0.0], [0.2, 0.0]])))) == 1.0",
        "codes(quantize_per_tensor(f32([[0.5, 0.0], [0.2, 0.0]]))) == [[0, 0], [0, 0]]",
        "float(scale_of(quantize_per_tensor(f32([[200.0, 0.0], [0.2, 0.0]])))) == float(scale_of(reference['quantize_per_tensor'](f32([[200.0, 0.0], [0.2, 0.0]]))))",
    ],
    "quantize_per_tensor:float64-scale": [
        "scale_of(quantize_per_tensor(np.array([[0.3, -1.0]]))).dtype == np.float64",
        "scale_of(quantize_per_tensor(np.array([[0.3, -1.0]]))).shape == ()",
    ],
    "quantize_per_tensor:tiny-treated-as-zero": [
        "float(scale_of(quantize_per_tensor(f32([[1e-13, -5e-14]])))) == 1.0",
        "codes(quantize_per_tensor(f32([[1e-13, -5e-14]]))) == [[0, 0]]",
        "codes(reference['quantize_per_tensor'](f32([[1e-13, -5e-14]])))[0][0] == 127",
    ],
    "dequantize:divides-by-scale": [
        "np.asarray(dequantize(np.array([[10]], np.int8), f32([[0.5]]))).tolist() == [[20.0]]",
    ],
    "dequantize:float64-result": [
        "np.asarray(dequantize(np.array([[3]], np.int8), f32([[0.5]]))).dtype == np.float64",
    ],
    "dequantize:casts-to-int8": [
        "np.asarray(dequantize(np.array([[3]], np.int8), f32([[0.5]]))).dtype == np.int8",
        "np.asarray(dequantize(np.array([[3]], np.int8), f32([[0.5]]))).tolist() == [[1]]",
    ],
    "dequantize:bfloat16-result": [
        "np.asarray(dequantize(np.array([[1]], np.int8), f32([[0.01]]))).dtype == ml_dtypes.bfloat16",
        "float(np.asarray(dequantize(np.array([[1]], np.int8), f32([[0.01]])))[0, 0]) == float(np.float32(0.01).astype(ml_dtypes.bfloat16))",
        "ml_dtypes.finfo(ml_dtypes.bfloat16).nmant + 1 == 8",
        "all(float(ml_dtypes.bfloat16(c)) == c for c in range(-127, 128))",
    ],
    "dequantize:float16-product": [
        "ml_dtypes.finfo(np.float16).nmant + 1 == 11",
        "float(np.asarray(dequantize(np.array([[127]], np.int8), f32([[8.625001]])))[0, 0]) == float(np.float16(127) * np.float16(8.625001))",
        "abs(float(np.float16(127) * np.float16(8.625001)) - 127 * 8.625001) / (127 * 8.625001) > 2.5e-7",
        "1 / 2**11 < 1 / 2000",
    ],
    "dequantize:divides-by-127": [
        "np.asarray(dequantize(np.array([[127]], np.int8), f32([[1.0]]))).tolist() == [[1.0]]",
    ],
    "dequantize:float64-from-scale": [
        "np.asarray(dequantize(np.array([[3]], np.int8), np.float64(0.5))).dtype == np.float64",
        "np.asarray(dequantize(np.array([[3]], np.int8), np.float32(0.5))).dtype == np.float32",
    ],
    "w8a8_matmul:int8-accumulator": [
        "jnp.dot(jnp.ones((1, 2), jnp.int8), jnp.ones((2, 1), jnp.int8)).dtype == jnp.int8",
        "round(float(w8a8([[1.0, 1.0, 1.0]], [[127], [127], [127]], [[1.0]])[0, 0]), 3) == round(3 / 127, 3)",
        "round(float(exact_w8a8([[1.0, 1.0, 1.0]], [[127], [127], [127]], [[1.0]])[0, 0]), 3) == 381.0",
    ],
    "w8a8_matmul:int16-accumulator": [
        "np.iinfo(np.int16).max == 32767 and 3 * 127 * 127 > 32767 > 2 * 127 * 127",
        "w8a8([[1.0, 1.0, 1.0]], [[127], [127], [127]], [[1.0]])[0, 0] < 0",
        "np.allclose(w8a8([[1.0, 1.0]], [[127], [127]], [[1.0]]), 254.0)",
        "(127 * 127).bit_length() + 1 == 15",
    ],
    "w8a8_matmul:per-column-activations": [
        "not np.allclose(w8a8([[1.0, 0.01, -0.3], [0.02, 2.0, 0.5]], Q3, S3), exact_w8a8([[1.0, 0.01, -0.3], [0.02, 2.0, 0.5]], Q3, S3), rtol=1e-3, atol=0)",
        "np.allclose(w8a8([[1.0, 0.01, -0.3], [0.02, 2.0, 0.5]], Q3, S3), np.asarray(reference['dequantize'](*reference['quantize_per_channel'](f32([[1.0, 0.01, -0.3], [0.02, 2.0, 0.5]])))) @ (Q3 * S3), rtol=1e-6, atol=0)",
    ],
    "w8a8_matmul:weight-only": [
        "np.allclose(w8a8([[0.123, -0.777, 0.5]], Q3, S3), f32([[0.123, -0.777, 0.5]]).astype(np.float64) @ (Q3 * S3), rtol=1e-6, atol=0)",
        "not np.allclose(exact_w8a8([[0.123, -0.777, 0.5]], Q3, S3), f32([[0.123, -0.777, 0.5]]).astype(np.float64) @ (Q3 * S3), rtol=1e-6, atol=0)",
    ],
    "w8a8_matmul:scale-floor-eps": [
        "round(float(np.finfo(np.float32).eps) * 127, 6) == 1.5e-5",
        "not np.allclose(w8a8(TINY_ROWS, Q3, S3)[0], exact_w8a8(TINY_ROWS, Q3, S3)[0], rtol=1e-3, atol=0)",
        "np.allclose(w8a8(TINY_ROWS, Q3, S3)[1], exact_w8a8(TINY_ROWS, Q3, S3)[1], rtol=1e-6, atol=0)",
    ],
    "w8a8_matmul:scale-floor-1e-12": [
        "not np.allclose(w8a8(TINY_ROWS * 1e-8, Q3, S3)[0], exact_w8a8(TINY_ROWS * 1e-8, Q3, S3)[0], rtol=1e-3, atol=0)",
        "np.allclose(w8a8(TINY_ROWS * 1e-6, Q3, S3), exact_w8a8(TINY_ROWS * 1e-6, Q3, S3), rtol=1e-6, atol=0)",
    ],
    "w8a8_matmul:float32-accumulator": [
        "float(np.float32(2**24 + 1)) != 2**24 + 1",
        "w8a8(LONG_X, LONG_Q, [[1.0]])[0, 0] * 127 != int(LONG_Q.astype(np.int64).sum()) * 127",
        "exact_w8a8(LONG_X, LONG_Q, [[1.0]])[0, 0] * 127 == int(LONG_Q.astype(np.int64).sum()) * 127",
    ],
    "w8a8_matmul:bf16-codes-f32-accum": [
        "all(float(ml_dtypes.bfloat16(c)) == c for c in range(-127, 128))",
        "w8a8(LONG_X, LONG_Q, [[1.0]])[0, 0] * 127 != int(LONG_Q.astype(np.int64).sum()) * 127",
    ],
    "granularity_errors:bf16-reference": [
        "1.03 < mine()['per_channel'] / ref()['per_channel'] < 1.5",
    ],
    "granularity_errors:bf16-product": [
        "1.03 < mine()['per_channel'] / ref()['per_channel'] < 1.5",
    ],
    "granularity_errors:split-keys": [
        "mine() != ref() and set(mine()) == set(ref())",
    ],
    "granularity_errors:no-outlier": [
        "ref()['per_tensor'] > 5 * ref()['per_channel']",
        "mine()['per_tensor'] < 2 * mine()['per_channel']",
    ],
    "granularity_errors:default-precision": [
        "0.02 < abs(tpu_default_errors()['per_channel'] / ref()['per_channel'] - 1) < 0.5",
        "np.allclose(list(mine().values()), list(ref().values()), rtol=1e-3, atol=0)",
    ],
    "quantize_per_channel:scale-floor-eps": [
        "float(scale_of(quantize_per_channel(f32([[1e-6, 1.0], [-5e-7, 0.5]])))[0, 0]) == float(np.finfo(np.float32).eps)",
        "float(scale_of(quantize_per_channel(f32([[0.0, 1.0], [0.0, 0.5]])))[0, 0]) == float(np.finfo(np.float32).eps)",
        "float(scale_of(reference['quantize_per_channel'](f32([[0.0, 1.0], [0.0, 0.5]])))[0, 0]) == 1.0",
        "round(127 * float(np.finfo(np.float32).eps), 6) == 1.5e-5",
    ],
    "quantize_per_tensor:asymmetric-range-255": [
        "float(scale_of(quantize_per_tensor(f32([[-1.0, 3.0]])))) == float(np.float32(4.0) / np.float32(255))",
        "codes(quantize_per_tensor(f32([[-1.0, 3.0]]))) == [[-64, 127]]",
        "codes(reference['quantize_per_tensor'](f32([[-1.0, 3.0]]))) == [[-42, 127]]",
    ],
    "w8a8_matmul:fake-quant-float-matmul": [
        "not np.array_equal(w8a8(np.asarray(jax.random.normal(jax.random.PRNGKey(1), (4, 64)), np.float32), *reference['quantize_per_channel'](np.asarray(jax.random.normal(jax.random.PRNGKey(2), (64, 8)), np.float32))), exact_w8a8(np.asarray(jax.random.normal(jax.random.PRNGKey(1), (4, 64)), np.float32), *reference['quantize_per_channel'](np.asarray(jax.random.normal(jax.random.PRNGKey(2), (64, 8)), np.float32))))",
        "np.allclose(w8a8(np.asarray(jax.random.normal(jax.random.PRNGKey(1), (4, 64)), np.float32), *reference['quantize_per_channel'](np.asarray(jax.random.normal(jax.random.PRNGKey(2), (64, 8)), np.float32))), exact_w8a8(np.asarray(jax.random.normal(jax.random.PRNGKey(1), (4, 64)), np.float32), *reference['quantize_per_channel'](np.asarray(jax.random.normal(jax.random.PRNGKey(2), (64, 8)), np.float32))), rtol=1e-5, atol=1e-5)",
    ],
    "w8a8_matmul:fake-quant-highest": [
        "not np.array_equal(w8a8(np.asarray(jax.random.normal(jax.random.PRNGKey(1), (4, 64)), np.float32), *reference['quantize_per_channel'](np.asarray(jax.random.normal(jax.random.PRNGKey(2), (64, 8)), np.float32))), exact_w8a8(np.asarray(jax.random.normal(jax.random.PRNGKey(1), (4, 64)), np.float32), *reference['quantize_per_channel'](np.asarray(jax.random.normal(jax.random.PRNGKey(2), (64, 8)), np.float32))))",
        "np.allclose(w8a8(np.asarray(jax.random.normal(jax.random.PRNGKey(1), (4, 64)), np.float32), *reference['quantize_per_channel'](np.asarray(jax.random.normal(jax.random.PRNGKey(2), (64, 8)), np.float32))), exact_w8a8(np.asarray(jax.random.normal(jax.random.PRNGKey(1), (4, 64)), np.float32), *reference['quantize_per_channel'](np.asarray(jax.random.normal(jax.random.PRNGKey(2), (64, 8)), np.float32))), rtol=1e-5, atol=1e-5)",
    ],
    "granularity_errors:outlier-row": [
        "round(mine()['per_tensor'] / mine()['per_channel'], 1) == 2.3",
        "round(ref()['per_tensor'] / ref()['per_channel']) == 7",
    ],
    "quantize_per_channel:codes-not-int8": [
        "np.asarray(quantize_per_channel(f32([[1.0, -0.5], [0.25, 2.0]]))[0]).dtype == np.float32",
        "np.asarray(reference['quantize_per_channel'](f32([[1.0, -0.5], [0.25, 2.0]]))[0]).dtype == np.int8",
        "codes(quantize_per_channel(f32([[1.0, -0.5], [0.25, 2.0]]))) == codes(reference['quantize_per_channel'](f32([[1.0, -0.5], [0.25, 2.0]])))",
    ],
    "quantize_per_channel:inverse-scale": [
        "scale_of(quantize_per_channel(f32([[2.0, -0.5], [1.0, 0.25]]))).tolist() == [[63.5, 254.0]]",
        "np.allclose(scale_of(reference['quantize_per_channel'](f32([[2.0, -0.5], [1.0, 0.25]]))), [[2 / 127, 0.5 / 127]], rtol=1e-6)",
        "codes(quantize_per_channel(f32([[2.0, -0.5], [1.0, 0.25]]))) == codes(reference['quantize_per_channel'](f32([[2.0, -0.5], [1.0, 0.25]])))",
    ],
    "quantize_per_tensor:codes-not-int8": [
        "np.asarray(quantize_per_tensor(f32([[1.0, -0.5], [0.25, 2.0]]))[0]).dtype == np.float32",
        "np.asarray(reference['quantize_per_tensor'](f32([[1.0, -0.5], [0.25, 2.0]]))[0]).dtype == np.int8",
        "codes(quantize_per_tensor(f32([[1.0, -0.5], [0.25, 2.0]]))) == codes(reference['quantize_per_tensor'](f32([[1.0, -0.5], [0.25, 2.0]])))",
    ],
    "quantize_per_tensor:inverse-scale": [
        "float(scale_of(quantize_per_tensor(f32([[2.0, -0.5], [1.0, 0.25]])))) == 63.5",
        "abs(float(scale_of(reference['quantize_per_tensor'](f32([[2.0, -0.5], [1.0, 0.25]])))) - 2 / 127) < 1e-7",
        "codes(quantize_per_tensor(f32([[2.0, -0.5], [1.0, 0.25]]))) == codes(reference['quantize_per_tensor'](f32([[2.0, -0.5], [1.0, 0.25]])))",
    ],
    "w8a8_matmul:activation-scale-128": [
        "w8a8([[1.0, 0.5], [-1.0, 0.5]], [[1], [0]], [[1.0]])[:, 0].tolist() == [127 / 128, -1.0]",
        "exact_w8a8([[1.0, 0.5], [-1.0, 0.5]], [[1], [0]], [[1.0]])[:, 0].tolist() == [1.0, -1.0]",
    ],
    "w8a8_matmul:no-weight-scale": [
        "np.allclose(w8a8([[1.0, 0.01, -0.3], [0.02, 2.0, 0.5]], Q3, S3) * S3, exact_w8a8([[1.0, 0.01, -0.3], [0.02, 2.0, 0.5]], Q3, S3), rtol=1e-6, atol=0)",
        "not np.allclose(w8a8([[1.0, 0.01, -0.3], [0.02, 2.0, 0.5]], Q3, S3), exact_w8a8([[1.0, 0.01, -0.3], [0.02, 2.0, 0.5]], Q3, S3), rtol=1e-3, atol=0)",
    ],
}

# (entry, another entry of the same function): the first's claims are not all True for the second's
# source, so the claims say something about their own entry's code (tests/test_claims.py)
DISTINCT = [
    ("dequantize:divides-by-scale", "dequantize:float64-result"),
    ("w8a8_matmul:int16-accumulator", "w8a8_matmul:int8-accumulator"),
]
