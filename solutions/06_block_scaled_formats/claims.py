# ruff: noqa: E501  (claims are one-line expressions)
"""Claims backing the explanations of solutions/06_block_scaled_formats/mistakes.py (tests/test_claims.py)."""

HELPERS = '''
import functools

E4M3, E5M2, E8M0 = ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.float8_e8m0fnu


def f32(values):
    return np.asarray(values, np.float32)


def quant(x, elem="float8_e4m3fn", block=4, fn=None):
    """Elements and scales of one call, both as float32 NumPy arrays."""
    e, s = (fn or mx_quantize)(f32(x), elem, block)
    return np.asarray(e).astype(np.float32), np.asarray(s).astype(np.float32)


def ref_quant(x, elem="float8_e4m3fn", block=4):
    return quant(x, elem, block, reference["mx_quantize"])


def roundtrip(x, block=4):
    """x quantized by this entry's mx_quantize, decoded by the reference mx_dequantize."""
    return np.asarray(reference["mx_dequantize"](*mx_quantize(f32(x), "float8_e4m3fn", block), block))


def decode(codes, scale_codes, block=4, fn=None):
    """(fn or mx_dequantize) of e4m3 elements from float values and e8m0 scales from their bit codes."""
    elements = f32(codes).astype(E4M3)
    scales = np.asarray(scale_codes, np.uint8).view(E8M0)
    return np.asarray((fn or mx_dequantize)(elements, scales, block))


def ref_decode(codes, scale_codes, block=4):
    return decode(codes, scale_codes, block, reference["mx_dequantize"])


X = np.asarray(jax.random.normal(jax.random.PRNGKey(3), (4, 64), dtype=jnp.float32))
W = np.asarray(jax.random.normal(jax.random.PRNGKey(4), (64, 8), dtype=jnp.float32))
NV = np.concatenate([np.linspace(-3, 3, 16), np.linspace(-0.02, 0.05, 16), np.zeros(16), np.full(16, 1e-30)]).astype(np.float32)
NV_RANDOM = np.asarray(jax.random.normal(jax.random.PRNGKey(5), (16, 64), dtype=jnp.float32))


def raises(fn):
    try:
        fn()
    except Exception:  # noqa: BLE001
        return True
    return False


@functools.cache
def sweep():
    return granularity_sweep(blocks=(8, 32))


def ref_sweep():
    if "sweep" not in CACHE:
        CACHE["sweep"] = reference["granularity_sweep"](blocks=(8, 32))
    return CACHE["sweep"]


def nv(fn=None, x=NV):
    return [np.asarray(a).astype(np.float32) for a in (fn or nvfp4_quantize)(x)]


def nv_decode(parts, fn=None):
    e, s, t = parts
    return np.asarray((fn or reference["nvfp4_dequantize"])(e.astype(ml_dtypes.float4_e2m1fn), s.astype(E4M3), np.float32(t)))


def after_call(x):
    mx_quantize(x, "float8_e4m3fn", 4)
    return x


TPU = np.load(DATA / "tpu" / "tpu_golden.npz")
'''

CLAIMS = {
    "mx_quantize:rounded-exponent": [
        "quant([7.0, 1.0, 1.0, 1.0])[1].tolist() == [2.0**-5]",
        "ref_quant([7.0, 1.0, 1.0, 1.0])[1].tolist() == [2.0**-6]",
        "ref_quant([7.0, 1.0, 1.0, 1.0])[0][0] == 448.0",
    ],
    "mx_quantize:no-saturation": [
        "float(ml_dtypes.finfo(E4M3).max) == 448.0",
        "np.isnan(quant([500.0, 1.0, 1.0, 1.0])[0][0])",
        "np.isinf(quant([63000.0, 1.0, 1.0, 1.0], 'float8_e5m2')[0][0])",
        "ref_quant([500.0, 1.0, 1.0, 1.0])[0][0] == 448.0 and ref_quant([63000.0, 1.0, 1.0, 1.0], 'float8_e5m2')[0][0] == 57344.0",
    ],
    "mx_quantize:non-power-of-two-scale": [
        "roundtrip([3.0, 1.0, 1.0, 1.0])[0] != 3.0",
        "np.asarray(reference['mx_dequantize'](*reference['mx_quantize'](f32([3.0, 1.0, 1.0, 1.0]), 'float8_e4m3fn', 4), 4))[0] == 3.0",
        "float(np.log2(quant([3.0, 1.0, 1.0, 1.0])[1][0])).is_integer()",
    ],
    "mx_quantize:double-rounding": [
        "quant([256.0, 1.0625 + 2**-12, 0.0, 0.0])[0][1] == 1.0",
        "ref_quant([256.0, 1.0625 + 2**-12, 0.0, 0.0])[0][1] == 1.125",
        "float(f32(1.0625 + 2**-12).astype(ml_dtypes.bfloat16)) == 1.0625",
    ],
    "mx_quantize:float32-log2": [
        "np.log2(np.nextafter(np.float32(8), np.float32(0))) == np.float32(3.0)",
        "quant([np.nextafter(np.float32(8), np.float32(0)), 1.0, 1.0, 1.0])[1].tolist() == [2.0**-5]",
        "ref_quant([np.nextafter(np.float32(8), np.float32(0)), 1.0, 1.0, 1.0])[1].tolist() == [2.0**-6]",
    ],
    "mx_quantize:inf-gets-largest-scale": [
        "quant([np.inf, 1.0, 1.0, 1.0])[1].tolist() == [2.0**127]",
        "np.isnan(ref_quant([np.inf, 1.0, 1.0, 1.0])[1][0])",
    ],
    "mx_quantize:no-exponent-clamp": [
        "quant([2.0**-122, 0.0, 0.0, 0.0])[1].tolist() == [2.0**-127]",
        "roundtrip([2.0**-122, 0.0, 0.0, 0.0])[0] > 2.0**-122",
        "np.asarray(reference['mx_dequantize'](*reference['mx_quantize'](f32([2.0**-122, 0.0, 0.0, 0.0]), 'float8_e4m3fn', 4), 4))[0] == 2.0**-122",
    ],
    "mx_quantize:emax-off-by-one": [
        "ml_dtypes.finfo(E4M3).maxexp == 9 and float(ml_dtypes.finfo(E4M3).max) < 2.0**9",
        "2 * quant([7.0, 1.0, 1.0, 1.0])[1][0] == ref_quant([7.0, 1.0, 1.0, 1.0])[1][0]",
        "quant([7.0, 1.0, 1.0, 1.0])[0].tolist() == [448.0, 128.0, 128.0, 128.0]",
        "quant([6.0, 1.0, 1.0, 1.0])[0][0] == 448.0 and ref_quant([6.0, 1.0, 1.0, 1.0])[0][0] == 384.0",
    ],
    "mx_quantize:zero-block-tiny-scale": [
        "quant([0.0, 0.0, 0.0, 0.0])[1].tolist() == [2.0**-127]",
        "ref_quant([0.0, 0.0, 0.0, 0.0])[1].tolist() == [1.0]",
    ],
    "mx_quantize:jax-subnormal-scale": [
        "float(jnp.float32(1.0) * jnp.float32(2.0**-127)) == 0.0",
        "ref_quant([2.0**-119, 2.0**-121, 0.0, 0.0])[1].tolist() == [2.0**-127]",
        "quant([2.0**-119, 2.0**-121, 0.0, 0.0])[0].tolist() != ref_quant([2.0**-119, 2.0**-121, 0.0, 0.0])[0].tolist()",
    ],
    "mx_dequantize:bias-not-removed": [
        "np.isclose(decode([1.0, 1.0, 1.0, 1.0], [127])[0], 2.0**127, rtol=1e-6)",
        "np.isinf(decode([1.0, 1.0, 1.0, 1.0], [128])[0])",
        "ref_decode([1.0, 1.0, 1.0, 1.0], [127])[0] == 1.0",
    ],
    "mx_dequantize:nan-code-becomes-inf": [
        "np.isinf(decode([1.0, 0.0, 0.0, 0.0], [255])[0]) and np.isnan(decode([1.0, 0.0, 0.0, 0.0], [255])[1])",
        "np.isnan(ref_decode([1.0, 0.0, 0.0, 0.0], [255])).all()",
    ],
    "mx_dequantize:returns-bfloat16": [
        "decode([1.0, 0.5, 0.0, 0.0], [127]).dtype == ml_dtypes.bfloat16",
        "ref_decode([2.0**-9, 0.0, 0.0, 0.0], [0])[0] == 2.0**-136",
        "float(ml_dtypes.bfloat16(2.0**-136)) != 2.0**-136",
    ],
    "mx_dequantize:jax-scales-flushed": [
        "decode([448.0, 1.0, 0.0, 0.0], [0]).tolist() == [0.0] * 4",
        "ref_decode([448.0, 1.0, 0.0, 0.0], [0])[0] == 448 * 2.0**-127 > float(np.finfo(np.float32).smallest_normal)",
    ],
    "mx_dequantize:jax-power-scale-flushed": [
        "decode([448.0, 1.0, 0.0, 0.0], [0]).tolist() == [0.0] * 4",
        "ref_decode([448.0, 1.0, 0.0, 0.0], [0])[0] == 448 * 2.0**-127",
    ],
    "mx_matmul:x-not-quantized": [
        "np.allclose(np.asarray(mx_matmul(X, W)), X.astype(np.float64) @ np.asarray(reference['mx_dequantize'](*reference['mx_quantize'](W.T), 32)).T, rtol=1e-5, atol=1e-5)",
        "not np.allclose(np.asarray(reference['mx_matmul'](X, W)), X.astype(np.float64) @ np.asarray(reference['mx_dequantize'](*reference['mx_quantize'](W.T), 32)).T, rtol=1e-5, atol=1e-5)",
    ],
    "mx_matmul:bf16-accumulation": [
        "(lambda out: np.array_equal(out, out.astype(ml_dtypes.bfloat16).astype(np.float32)))(np.asarray(mx_matmul(X, W), np.float32))",
        "(lambda out: not np.array_equal(out, out.astype(ml_dtypes.bfloat16).astype(np.float32)))(np.asarray(reference['mx_matmul'](X, W), np.float32))",
    ],
    "mx_matmul:ignores-elem-and-block": [
        "np.array_equal(np.asarray(mx_matmul(X, W, 'float4_e2m1fn', 8)), np.asarray(reference['mx_matmul'](X, W)))",
        "not np.array_equal(np.asarray(reference['mx_matmul'](X, W, 'float4_e2m1fn', 8)), np.asarray(reference['mx_matmul'](X, W)))",
    ],
    "granularity_sweep:blocks-along-n": [
        "sweep()['per_tensor'] == ref_sweep()['per_tensor'] and sweep()['per_channel'] == ref_sweep()['per_channel']",
        "sweep()['mxfp8'][0] > ref_sweep()['mxfp8'][0] and sweep()['mxfp4'][0] > ref_sweep()['mxfp4'][0]",
    ],
    "granularity_sweep:activations-quantized": [
        "sweep()['per_tensor'] == ref_sweep()['per_tensor'] and sweep()['per_channel'] == ref_sweep()['per_channel']",
        "sweep()['mxfp8'][0] > ref_sweep()['mxfp8'][0] and sweep()['mxfp4'][0] > ref_sweep()['mxfp4'][0]",
    ],
    "granularity_sweep:default-precision-dots": [
        "float(np.abs(TPU['l02_default_jit'] - TPU['l02_highest_jit']).max()) > 0.01",
        "all(np.allclose(sweep()[k], ref_sweep()[k], rtol=1e-4) for k in ref_sweep())",
    ],
    "nvfp4_quantize:tensor-scale-ignores-448": [
        "nv()[1].max() == 1.0",
        "nv(reference['nvfp4_quantize'])[1].max() == 448.0",
    ],
    "nvfp4_quantize:unrounded-block-scale": [
        "nv(x=NV_RANDOM)[1].tolist() == nv(reference['nvfp4_quantize'], NV_RANDOM)[1].tolist()",
        "not np.array_equal(nv(x=NV_RANDOM)[0], nv(reference['nvfp4_quantize'], NV_RANDOM)[0])",
        "np.abs(nv_decode(nv(x=NV_RANDOM)) - NV_RANDOM).mean() > np.abs(nv_decode(nv(reference['nvfp4_quantize'], NV_RANDOM)) - NV_RANDOM).mean()",
    ],
    "nvfp4_quantize:blocks-of-32": [
        "nv()[1].shape == (4,) and nv()[1][0] == nv()[1][1] and nv()[1][2] == nv()[1][3]",
        "nv(reference['nvfp4_quantize'])[1][0] != nv(reference['nvfp4_quantize'])[1][1]",
    ],
    "nvfp4_quantize:no-zero-scale-guard": [
        "nv()[1][3] == 0.0 and np.abs(nv()[0][48:]).tolist() == [6.0] * 16",
        "nv(reference['nvfp4_quantize'])[0][32:].tolist() == [0.0] * 32",
    ],
    "nvfp4_quantize:power-of-two-block-scales": [
        "all(float(np.log2(s)).is_integer() for s in nv()[1] if s > 0)",
        "np.abs(nv()[0][:16]).max() == 6.0 and nv_decode(nv())[:16].max() < 3.0",
    ],
    "nvfp4_dequantize:no-tensor-scale": [
        "np.allclose(nv_decode(nv(reference['nvfp4_quantize']), nvfp4_dequantize) * nv(reference['nvfp4_quantize'])[2], nv_decode(nv(reference['nvfp4_quantize'])), rtol=1e-6)",
        "nv(reference['nvfp4_quantize'])[2] != 1.0",
    ],
    "nvfp4_dequantize:tile-not-repeat": [
        "(lambda e, s, t: np.allclose(nv_decode((e, s, t), nvfp4_dequantize), e * np.tile(s, 16) * t))(*nv(reference['nvfp4_quantize']))",
        "(lambda e, s, t: np.allclose(nv_decode((e, s, t)), e * np.repeat(s, 16) * t))(*nv(reference['nvfp4_quantize']))",
    ],
    "mx_quantize:overwrites-input": [
        "after_call(f32([3.0, -1.0, 0.5, 2.0])).tolist() == [0.0] * 4",
        "quant([3.0, -1.0, 0.5, 2.0]) [1].tolist() == [1.0] and quant([3.0, -1.0, 0.5, 2.0])[0].tolist() == [0.0] * 4",
    ],
    "nvfp4_quantize:cast-round-trip-in-jit": [
        "np.array_equal(TPU['cast_float8_e4m3fn_jit'], TPU['cast_x'], equal_nan=True) and not np.array_equal(TPU['cast_float8_e4m3fn'], TPU['cast_x'], equal_nan=True)",
        "all(np.array_equal(a, b, equal_nan=True) for a, b in zip(nv(), nv(reference['nvfp4_quantize'])))",
    ],
    "mx_quantize:exponent-of-max-over-fmax": [
        "quant([1.5, 0, 0, 0])[1][0] == 2.0**-9 and ref_quant([1.5, 0, 0, 0])[1][0] == 2.0**-8",
        "quant([1.5, 0, 0, 0])[0][0] == 448.0",
        "quant([1.75, 0, 0, 0])[1][0] == ref_quant([1.75, 0, 0, 0])[1][0] == 2.0**-8",
        "quant([1.25, 0, 0, 0], 'float4_e2m1fn')[1][0] == 2.0**-3 and ref_quant([1.25, 0, 0, 0], 'float4_e2m1fn')[1][0] == 2.0**-2",
        "float(ml_dtypes.finfo(E4M3).max) == 448 and float(ml_dtypes.finfo(ml_dtypes.float4_e2m1fn).max) == 6",
    ],
    "mx_quantize:e8m0-code-wraps": [
        "quant([2.0**-122, 0, 0, 0])[1][0] == 2.0**126",
        "np.array([-130 + 127]).astype(np.uint8)[0] == 253",
        "ref_quant([2.0**-122, 0, 0, 0])[1][0] == 2.0**-127",
    ],
    "granularity_sweep:mxfp8-e5m2": [
        "all(a > b for a, b in zip(sweep()['mxfp8'], ref_sweep()['mxfp8']))",
        "sweep()['mxfp4'] == ref_sweep()['mxfp4']",
    ],
    "nvfp4_quantize:divides-by-unrounded-scale": [
        "np.array_equal(nv(x=NV_RANDOM)[1], nv(reference['nvfp4_quantize'], NV_RANDOM)[1])",
        "not np.array_equal(nv(x=NV_RANDOM)[0], nv(reference['nvfp4_quantize'], NV_RANDOM)[0])",
        "isinstance(nvfp4_quantize(NV)[2], np.float32)",
    ],
    "nvfp4_quantize:tensor-scale-max-over-6": [
        "nv()[1].max() <= 1.0 and nv(reference['nvfp4_quantize'])[1].max() == 448.0",
        "float(nv()[2]) == float(np.float32(np.abs(NV).max() / np.float32(6)))",
        "float(ml_dtypes.finfo(E4M3).smallest_normal) == 2.0**-6",
    ],
    "nvfp4_quantize:block-scale-ieee-e4m3": [
        "bool(np.isnan(nv()[1]).any()) and not np.isnan(nv(reference['nvfp4_quantize'])[1]).any()",
        "float(jax.lax.reduce_precision(jnp.float32(247.9), exponent_bits=4, mantissa_bits=3)) == 240.0",
        "bool(np.isinf(float(jax.lax.reduce_precision(jnp.float32(248.0), exponent_bits=4, mantissa_bits=3))))",
        "bool(np.isnan(float(np.float32(np.inf).astype(E4M3))))",
    ],
    "nvfp4_dequantize:bf16-arithmetic": [
        "ml_dtypes.finfo(ml_dtypes.bfloat16).nmant + 1 == 8",
        "np.asarray(nvfp4_dequantize(*reference['nvfp4_quantize'](NV_RANDOM))).dtype == np.float32",
        "not np.array_equal(nvfp4_dequantize(*reference['nvfp4_quantize'](NV_RANDOM)), reference['nvfp4_dequantize'](*reference['nvfp4_quantize'](NV_RANDOM)))",
    ],
    "mx_quantize:emax-fixed-8": [
        "quant([1.0, 0.5, 0.25, -1.0], 'float8_e5m2')[1].tolist() == [2.0 ** -8] and ref_quant([1.0, 0.5, 0.25, -1.0], 'float8_e5m2')[1].tolist() == [2.0 ** -15]",
        "quant([1.0, 0.5, 0.25, -1.0], 'float4_e2m1fn')[0].tolist() == [6.0, 6.0, 6.0, -6.0]",
        "ref_quant([1.0, 0.5, 0.25, -1.0], 'float4_e2m1fn')[0].tolist() == [4.0, 2.0, 1.0, -4.0]",
        "[int(ml_dtypes.finfo(d).maxexp) - 1 for d in (E4M3, E5M2, ml_dtypes.float4_e2m1fn)] == [8, 15, 2]",
        "float(ml_dtypes.finfo(ml_dtypes.float4_e2m1fn).max) == 6.0",
    ],
    "mx_quantize:exponent-truncated-toward-zero": [
        "quant([0.3, 0.1, 0.2, 0.1])[1].tolist() == [2.0 ** -9] and ref_quant([0.3, 0.1, 0.2, 0.1])[1].tolist() == [2.0 ** -10]",
        "quant([3.0, 0.1, 0.2, 0.1])[1].tolist() == ref_quant([3.0, 0.1, 0.2, 0.1])[1].tolist()",
        "quant([0.25, 0.1, 0.2, 0.1])[1].tolist() == ref_quant([0.25, 0.1, 0.2, 0.1])[1].tolist()",
    ],
    "mx_quantize:scales-float32": [
        "np.asarray(mx_quantize(f32([1.0, 0.5, 0.25, -1.0]), 'float8_e4m3fn', 4)[1]).dtype == np.float32",
        "np.asarray(reference['mx_quantize'](f32([1.0, 0.5, 0.25, -1.0]), 'float8_e4m3fn', 4)[1]).dtype == E8M0 and np.dtype(E8M0).itemsize == 1",
        "quant([1.0, 0.5, 0.25, -1.0])[1].tolist() == ref_quant([1.0, 0.5, 0.25, -1.0])[1].tolist()",
    ],
    "mx_quantize:elements-rounded-to-integers": [
        "quant([1.0, 0.01, 0.005, 0.001])[0].tolist() == [256.0, 3.0, 1.0, 0.0]",
        "ref_quant([1.0, 0.01, 0.005, 0.001])[0].tolist() == [256.0, 2.5, 1.25, 0.25]",
        "float(f32(1.125).astype(E4M3)) == 1.125",
    ],
    "mx_dequantize:float64-result": [
        "decode([1.0, 2.0, 0.5, -3.0], [127]).dtype == np.float64",
        "ref_decode([1.0, 2.0, 0.5, -3.0], [127]).dtype == np.float32",
    ],
    "mx_matmul:dequantize-default-block": [
        "np.array_equal(np.asarray(mx_matmul(X, W)), np.asarray(reference['mx_matmul'](X, W)))",
        "raises(lambda: mx_matmul(X, W, block=16)) and not raises(lambda: reference['mx_matmul'](X, W, block=16))",
    ],
    "mx_matmul:float64-result": [
        "np.asarray(mx_matmul(X, W)).dtype == np.float64 and np.asarray(mx_matmul(X, W)).shape == (4, 8)",
        "np.asarray(reference['mx_matmul'](X, W)).dtype == np.float32",
    ],
    "granularity_sweep:per-channel-per-row": [
        "sweep()['per_tensor'] == ref_sweep()['per_tensor'] and sweep()['mxfp8'] == ref_sweep()['mxfp8']",
        "sweep()['per_channel'][0] > 3 * ref_sweep()['per_channel'][0]",
    ],
    "granularity_sweep:int8-not-repeated": [
        "isinstance(sweep()['per_tensor'], float) and isinstance(sweep()['per_channel'], float)",
        "ref_sweep()['per_tensor'] == [sweep()['per_tensor']] * 2",
    ],
    "nvfp4_quantize:elements-divided-by-s-only": [
        "(nv()[0] == 0).all() and (nv(x=NV_RANDOM)[0] == 0).mean() > 0.9",
        "(nv(reference['nvfp4_quantize'])[0][:16] != 0).sum() > 8 and (nv(reference['nvfp4_quantize'], x=NV_RANDOM)[0] == 0).mean() < 0.5",
        "np.array_equal(nv()[1], nv(reference['nvfp4_quantize'])[1])",
    ],
}

# (entry, another entry of the same function): the first's claims are not all True for the second's
# source, so the claims say something about their own entry's code (tests/test_claims.py)
DISTINCT = [
    ("mx_quantize:rounded-exponent", "mx_quantize:emax-off-by-one"),
    ("nvfp4_quantize:blocks-of-32", "nvfp4_quantize:tensor-scale-ignores-448"),
]
