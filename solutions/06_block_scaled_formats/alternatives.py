"""Correct answers for 06_block_scaled_formats that are not the reference solution (see docs/AUTHORING.md).

Written from COURSE.md's contracts and the student notebook alone, without the solutions or the
hidden tests: NumPy or jax.numpy, loops or vectorised, other valid readings where the contract is
silent. Each one must get full marks (tests/test_notebooks.py).
"""

ALTERNATIVES = [
    # ------------------------------------------------------------------ mx_quantize
    {
        "function": "mx_quantize",
        "why": "jax.numpy: jnp.frexp for the exponent, jnp.ldexp to scale, e8m0 scales bitcast from uint8",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = jnp.dtype(getattr(jnp, elem))
    x = jnp.asarray(x, jnp.float32)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // block, block))
    amax = jnp.max(jnp.abs(xb), axis=-1)
    ok = jnp.isfinite(amax)
    emax = int(jnp.finfo(dt).maxexp) - 1
    _, e = jnp.frexp(jnp.where(ok & (amax > 0), amax, 1.0))
    shared = jnp.where(amax > 0, jnp.clip(e - 1 - emax, -127, 127), 0)
    top = float(jnp.finfo(dt).max)
    q = jnp.clip(jnp.ldexp(xb, -shared[..., None]), -top, top)
    q = jnp.where(ok[..., None], q, 0.0).astype(dt).reshape(x.shape)
    bits = jnp.where(ok, shared + 127, 255).astype(jnp.uint8)
    return q, jax.lax.bitcast_convert_type(bits, jnp.float8_e8m0fnu)
""",
    },
    {
        "function": "mx_quantize",
        "why": "Python loop over blocks with math.frexp / math.ldexp, scale cast from an exact power of two",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    import math
    dt = getattr(ml_dtypes, elem)
    info = ml_dtypes.finfo(dt)
    emax, top = int(info.maxexp) - 1, float(info.max)
    x = np.asarray(x, dtype=np.float32)
    flat = x.reshape(-1, x.shape[-1])
    nb = x.shape[-1] // block
    q = np.zeros(flat.shape, dtype=np.float32)
    s = np.ones((flat.shape[0], nb), dtype=np.float32)
    for r in range(flat.shape[0]):
        for b in range(nb):
            v = [float(t) for t in flat[r, b * block:(b + 1) * block]]
            m = max(abs(t) for t in v) if not any(math.isnan(t) for t in v) else float("nan")
            if math.isnan(m) or math.isinf(m):
                s[r, b] = np.nan
                continue
            if m == 0:
                continue
            e = max(-127, min(127, math.frexp(m)[1] - 1 - emax))
            s[r, b] = math.ldexp(1.0, e)
            for i, t in enumerate(v):
                q[r, b * block + i] = min(top, max(-top, math.ldexp(t, -e)))
    return (q.astype(dt).reshape(x.shape),
            s.astype(ml_dtypes.float8_e8m0fnu).reshape(x.shape[:-1] + (nb,)))
""",
    },
    # ------------------------------------------------------------------ mx_dequantize
    {
        "function": "mx_dequantize",
        "why": "jax.numpy: exponent read from the e8m0 bits, jnp.ldexp, NaN for code 255",
        "source": """
def mx_dequantize(elements, scales, block=32):
    bits = jax.lax.bitcast_convert_type(jnp.asarray(scales), jnp.uint8).astype(jnp.int32)
    bits = jnp.repeat(bits, block, axis=-1)
    e = jnp.asarray(elements).astype(jnp.float32)
    return jnp.where(bits == 255, jnp.nan, jnp.ldexp(e, bits - 127))
""",
    },
    {
        "function": "mx_dequantize",
        "why": "NumPy, reshape into blocks and broadcast the scales (no repeat)",
        "source": """
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(scales).astype(np.float32)
    out = e.reshape(e.shape[:-1] + (e.shape[-1] // block, block)) * s[..., None]
    return out.reshape(e.shape)
""",
    },
    # ------------------------------------------------------------------ mx_matmul
    {
        "function": "mx_matmul",
        "why": "jnp.einsum over the decoded operands in float32 at DEFAULT precision (decoded MX values are bf16-exact)",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(x, elem=elem, block=block)
    qw, sw = mx_quantize(jnp.asarray(w).T, elem=elem, block=block)
    a = jnp.asarray(mx_dequantize(qx, sx, block=block), jnp.float32)
    b = jnp.asarray(mx_dequantize(qw, sw, block=block), jnp.float32)
    return jnp.einsum("mk,nk->mn", a, b, preferred_element_type=jnp.float32)
""",
    },
    {
        "function": "mx_matmul",
        "why": "block by block: element products in float32 per block, then scaled by both block scales and summed",
        "source": """
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32), elem=elem, block=block)
    qw, sw = mx_quantize(np.asarray(w, np.float32).T, elem=elem, block=block)
    ex = np.asarray(qx).astype(np.float32)
    ew = np.asarray(qw).astype(np.float32)
    fx, fw = np.asarray(sx).astype(np.float32), np.asarray(sw).astype(np.float32)
    M, K = ex.shape
    out = np.zeros((M, ew.shape[0]), np.float32)
    for b in range(K // block):
        part = ex[:, b * block:(b + 1) * block] @ ew[:, b * block:(b + 1) * block].T
        out += part * fx[:, b:b + 1] * fw[:, b][None, :]
    return out
""",
    },
    # ------------------------------------------------------------------ granularity_sweep
    {
        "function": "granularity_sweep",
        "why": "jax.numpy at Precision.HIGHEST throughout, errors as Python floats",
        "source": """
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    hi = jax.lax.Precision.HIGHEST
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w, precision=hi)
    def err(wq):
        return float(jnp.mean(jnp.abs(jnp.dot(x, jnp.asarray(wq, jnp.float32), precision=hi) - ref)))
    mt = jnp.max(jnp.abs(w))
    mc = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    st, sc = mt / 127.0, jnp.where(mc == 0, 1.0, mc / 127.0)
    e_t = err(jnp.clip(jnp.round(w / st), -127, 127) * st)
    e_c = err(jnp.clip(jnp.round(w / sc), -127, 127) * sc)
    res = {k: [] for k in ("block", "per_tensor", "per_channel", "mxfp8", "mxfp4")}
    for b in blocks:
        res["block"].append(b)
        res["per_tensor"].append(e_t)
        res["per_channel"].append(e_c)
        for key, el in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(w.T, elem=el, block=b)
            res[key].append(err(jnp.asarray(mx_dequantize(q, s, block=b)).T))
    return res
""",
    },
    # ------------------------------------------------------------------ nvfp4_quantize
    {
        "function": "nvfp4_quantize",
        "why": "reciprocal scaling x * (1 / (s * t)) and max|x| / 2688, in jax.numpy",
        "source": """
def nvfp4_quantize(x):
    x = jnp.asarray(x, jnp.float32)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // 16, 16))
    amax = jnp.max(jnp.abs(x))
    t = jnp.where(amax > 0, amax / 2688.0, 1.0).astype(jnp.float32)
    s = (jnp.max(jnp.abs(xb), axis=-1) / 6.0 / t).astype(jnp.float8_e4m3fn)
    d = s.astype(jnp.float32) * t
    inv = jnp.where(d > 0, 1.0 / jnp.where(d > 0, d, 1.0), 0.0)
    q = jnp.clip(xb * inv[..., None], -6.0, 6.0).astype(jnp.float4_e2m1fn).reshape(x.shape)
    return q, s, t
""",
    },
    {
        "function": "nvfp4_quantize",
        "why": "float64 host arithmetic: block scale amax * 448 / max|x|, quotient x / s / t",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, dtype=np.float32)
    x64 = x.astype(np.float64)
    amax = float(np.abs(x64).max())
    t = np.float32(amax / 2688.0) if amax > 0 else np.float32(1.0)
    blocks = x64.reshape(x.shape[:-1] + (-1, 16))
    bmax = np.abs(blocks).max(axis=-1)
    s = (bmax / 6.0 / float(t)).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    sv = s.astype(np.float64)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(sv > 0, blocks / sv / float(t), 0.0)
    q = np.clip(z, -6, 6).astype(np.float32).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return q, s, t
""",
    },
    # ------------------------------------------------------------------ nvfp4_dequantize
    {
        "function": "nvfp4_dequantize",
        "why": "jax.numpy, element * (block scale * tensor scale), broadcast over reshaped blocks",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = jnp.asarray(elements).astype(jnp.float32)
    d = jnp.asarray(block_scales).astype(jnp.float32) * jnp.float32(tensor_scale)
    return (e.reshape(e.shape[:-1] + (-1, 16)) * d[..., None]).reshape(e.shape)
""",
    },
    # ------------------------------------------------------------------ more readings
    {
        "function": "mx_quantize",
        "why": "float64 log2 + exp2 scale, nan_to_num, cast via float64 quotient",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(x.shape[:-1] + (-1, block)).astype(np.float64)
    amax = np.abs(xb).max(axis=-1)
    emax = int(np.floor(np.log2(float(ml_dtypes.finfo(dt).max))))
    bad = ~np.isfinite(amax)
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.floor(np.log2(np.where(amax > 0, amax, 1.0))) - emax
    e = np.where(amax > 0, np.clip(e, -127, 127), 0.0)
    e = np.where(bad, 0.0, e)
    scale = np.exp2(e)
    top = float(ml_dtypes.finfo(dt).max)
    with np.errstate(invalid="ignore"):
        q = np.clip(np.nan_to_num(xb / scale[..., None]), -top, top)
    s = np.where(bad, np.nan, scale).astype(np.float32).astype(ml_dtypes.float8_e8m0fnu)
    return q.astype(dt).reshape(x.shape), s
""",
    },
    {
        "function": "mx_quantize",
        "why": "cast first, then replace overflow (NaN/inf) by +-max",
        "source": """
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    dt = np.dtype(getattr(ml_dtypes, elem))
    x = np.asarray(x, np.float32)
    xb = x.reshape(x.shape[:-1] + (-1, block))
    amax = np.abs(xb).max(axis=-1)
    ok = np.isfinite(amax)
    emax = int(ml_dtypes.finfo(dt).maxexp) - 1
    m, e = np.frexp(np.where(ok & (amax > 0), amax, 1).astype(np.float32))
    sh = np.where(amax > 0, np.clip(e - 1 - emax, -127, 127), 0)
    z = np.ldexp(np.where(ok[..., None], xb, 0).astype(np.float32), -sh[..., None])
    with np.errstate(over="ignore", invalid="ignore"):
        q = z.astype(dt).astype(np.float32)
    top = np.float32(ml_dtypes.finfo(dt).max)
    q = np.where(np.isfinite(q), q, np.sign(z) * top).astype(dt)
    s = np.where(ok, np.ldexp(np.float32(1), sh), np.nan).astype(np.float32)
    return q.reshape(x.shape), s.astype(ml_dtypes.float8_e8m0fnu)
""",
    },
    {
        "function": "nvfp4_dequantize",
        "why": "float64 then float32",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = np.asarray(elements).astype(np.float64)
    s = np.repeat(np.asarray(block_scales).astype(np.float64), 16, axis=-1)
    return (e * s * float(tensor_scale)).astype(np.float32)
""",
    },
    {
        "function": "nvfp4_quantize",
        "why": "amax / 448 / 6 in float32 (two roundings), x / s / t",
        "source": """
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    amax = np.abs(x).max()
    t = np.float32(amax) / np.float32(448) / np.float32(6) if amax > 0 else np.float32(1)
    xb = x.reshape(x.shape[:-1] + (-1, 16))
    s = (np.abs(xb).max(axis=-1) / np.float32(6) / t).astype(ml_dtypes.float8_e4m3fn)
    sf = s.astype(np.float32)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(sf > 0, xb / sf / t, 0)
    return np.clip(z, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape), s, np.float32(t)
""",
    },
]
