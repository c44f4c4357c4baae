"""Held-out wrong answers for 06_block_scaled_formats (see README.md)."""

HELDOUT = [
    {
        "key": "06_block_scaled_formats:mx_dequantize:divides-by-scale",
        "function": "mx_dequantize",
        "why": "held-out: division, scales broadcast by reshaping",
        "source": """
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(scales).astype(np.float32)
    shaped = e.reshape(*e.shape[:-1], e.shape[-1] // block, block)
    return (shaped / s[..., None]).reshape(e.shape).astype(np.float32)
""",
    },
    {
        "key": "06_block_scaled_formats:mx_dequantize:tile-not-repeat",
        "function": "mx_dequantize",
        "why": "held-out: np.tile along the last axis",
        "source": """
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(scales).astype(np.float32)
    reps = [1] * (s.ndim - 1) + [block]
    return (e * np.tile(s, reps)).astype(np.float32)
""",
    },
    {
        "key": "06_block_scaled_formats:nvfp4_dequantize:no-tensor-scale",
        "function": "nvfp4_dequantize",
        "why": "held-out: block scales only",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(block_scales).astype(np.float32)
    out = e.reshape(*e.shape[:-1], -1, 16) * s[..., None]
    return out.reshape(e.shape).astype(np.float32)
""",
    },
    {
        "key": "06_block_scaled_formats:mx_dequantize:returns-bfloat16",
        "function": "mx_dequantize",
        "why": "held-out: the product kept in bfloat16",
        "source": """
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(ml_dtypes.bfloat16)
    s = np.repeat(np.asarray(scales).astype(ml_dtypes.bfloat16), block, axis=-1)
    return e * s
""",
    },
    {
        "key": "06_block_scaled_formats:mx_quantize:rounded-exponent",
        "function": "mx_quantize",
        "why": "held-out, second writer: dict of element dtypes, float64 log2 rounded with np.rint, ldexp scaling",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    formats = {"float8_e4m3fn": ml_dtypes.float8_e4m3fn, "float8_e5m2": ml_dtypes.float8_e5m2,
               "float4_e2m1fn": ml_dtypes.float4_e2m1fn}
    target = formats[elem]
    info = ml_dtypes.finfo(target)
    emax = int(info.maxexp) - 1
    top = np.float32(info.max)
    data = np.array(x, dtype=np.float32)
    lead, K = data.shape[:-1], data.shape[-1]
    blocks = data.reshape(lead + (K // block, block))
    amax = np.abs(blocks).max(axis=-1).astype(np.float64)
    ok = np.isfinite(amax)
    nonzero = ok & (amax > 0)
    e = np.rint(np.log2(np.where(nonzero, amax, 1.0)))
    shared = np.where(nonzero, np.clip(e.astype(np.int64) - emax, -127, 127), 0)
    scales = np.where(ok, shared + 127, 255).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = np.ldexp(blocks, (-shared[..., None]).astype(np.int32))
        scaled = np.where(ok[..., None], np.clip(scaled, -top, top), np.float32(0))
    return scaled.astype(np.float32).astype(target).reshape(data.shape), scales
""",
    },
    {
        "key": "06_block_scaled_formats:mx_dequantize:bias-not-removed",
        "function": "mx_dequantize",
        "why": "held-out, second writer: scale rebuilt from its uint8 code with np.ldexp(1, code), NaN code kept",
        "source": """
def mx_dequantize(elements, scales, block=32):
    vals = np.asarray(elements).astype(np.float32)
    code = np.asarray(scales).view(np.uint8).astype(np.int32)
    with np.errstate(over="ignore", invalid="ignore"):
        factor = np.ldexp(np.float32(1.0), code)
        factor = np.where(code == 255, np.float32(np.nan), factor).astype(np.float32)
        return (vals * np.repeat(factor, block, axis=-1)).astype(np.float32)
""",
    },
    {
        "key": "06_block_scaled_formats:mx_matmul:w-blocks-along-n",
        "function": "mx_matmul",
        "why": "held-out, second writer: w quantized as laid out, decoded operands multiplied with jnp.dot at HIGHEST",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    xq, xs = mx_quantize(np.asarray(x, np.float32), elem=elem, block=block)
    wq, ws = mx_quantize(np.asarray(w, np.float32), elem=elem, block=block)
    xd = jnp.asarray(mx_dequantize(xq, xs, block=block), jnp.float32)
    wd = jnp.asarray(mx_dequantize(wq, ws, block=block), jnp.float32)
    out = jnp.dot(xd, wd, precision=jax.lax.Precision.HIGHEST, preferred_element_type=jnp.float32)
    return np.asarray(out, np.float32)
""",
    },
    {
        "key": "06_block_scaled_formats:granularity_sweep:mxfp8-e5m2",
        "function": "granularity_sweep",
        "why": "held-out, second writer: shared int8 round-trip helper fed a max, mae helper, e5m2 for mxfp8",
        "source": """
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = np.asarray(w.at[:, 0].multiply(10.0), np.float32)
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)).astype(np.float64)
    ref = x @ w.astype(np.float64)

    def mae(w_hat):
        return float(np.abs(x @ np.asarray(w_hat, dtype=np.float64) - ref).mean())

    def int8_roundtrip(peak):
        s = np.where(peak > 0, peak / np.float32(127), np.float32(1)).astype(np.float32)
        return np.clip(np.round(w / s), -127, 127).astype(np.int8).astype(np.float32) * s

    e_tensor = mae(int8_roundtrip(np.abs(w).max()))
    e_channel = mae(int8_roundtrip(np.abs(w).max(axis=0, keepdims=True)))
    res = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        res["block"].append(int(b))
        res["per_tensor"].append(e_tensor)
        res["per_channel"].append(e_channel)
        for label, fmt in (("mxfp8", "float8_e5m2"), ("mxfp4", "float4_e2m1fn")):
            el, sc = mx_quantize(w.T, elem=fmt, block=b)
            res[label].append(mae(np.asarray(mx_dequantize(el, sc, block=b)).T))
    return res
""",
    },
    {
        "key": "06_block_scaled_formats:nvfp4_quantize:blocks-of-32",
        "function": "nvfp4_quantize",
        "why": "held-out, second writer: padded groups of 32 for the maxima, np.repeat back to one scale per 16",
        "source": """
def nvfp4_quantize(x):
    xf = np.asarray(x, dtype=np.float32)
    K = xf.shape[-1]
    mag = np.abs(xf)
    peak = np.float32(mag.max()) if mag.size else np.float32(0)
    t = np.float32(peak / np.float32(448.0 * 6.0)) if peak > 0 else np.float32(1.0)

    group = 32                                   # values that share one scale
    pad = (-K) % group
    padded = np.pad(mag, [(0, 0)] * (xf.ndim - 1) + [(0, pad)])
    gmax = padded.reshape(*xf.shape[:-1], -1, group).max(axis=-1)
    bmax = np.repeat(gmax, group // 16, axis=-1)[..., : K // 16]

    s = ((bmax / np.float32(6.0)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    denom = np.repeat(s.astype(np.float32), 16, axis=-1) * t
    safe = np.where(denom > 0, denom, np.float32(1.0))
    q = np.where(denom > 0, xf / safe, np.float32(0.0))
    elements = np.clip(q, -6.0, 6.0).astype(np.float32).astype(ml_dtypes.float4_e2m1fn)
    return elements, s, np.asarray(t, dtype=np.float32)
""",
    },
]
