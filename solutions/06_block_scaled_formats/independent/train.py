"""Independent student answers for lesson 06_block_scaled_formats (train set).

Written from the student notebook and COURSE.md only. Some mistakes follow public reports about MX
scale computation: the exponent of max/elem_max instead of floor(log2 max) - emax
(vllm-project/vllm #43557), a scale max/448 whose exponent is rounded to nearest or up
(Pushkinist/rMLX #463, ROCm/aiter #3212, NVIDIA ModelOpt's ceil rule), floor(log2(x)) computed in
floating point (higham/chop #5), and microxcaling's 2^-127 scale for all-zero blocks.
"""

_MXQ_HEAD = '''
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    x = np.asarray(x, dtype=np.float32)
    dt = getattr(ml_dtypes, elem)
    fi = ml_dtypes.finfo(dt)
    emax = int(fi.maxexp) - 1
    fmax = np.float32(fi.max)
    shape = x.shape
    xb = x.reshape(shape[:-1] + (shape[-1] // block, block))
    with np.errstate(invalid="ignore"):
        amax = np.max(np.abs(xb), axis=-1)
    finite = np.isfinite(amax)
    safe = np.where(finite & (amax > 0), amax, np.float32(1)).astype(np.float32)
'''

_MXQ_TAIL = '''
    sexp = np.where(amax == 0, 0, sexp)
    codes = np.where(finite, sexp + 127, 255).astype(np.uint8)
    scales = codes.view(ml_dtypes.float8_e8m0fnu)
    scaled = np.ldexp(np.where(finite[..., None], xb, 0).astype(np.float64), -sexp[..., None])
    elements = np.clip(scaled, -fmax, fmax).astype(dt).reshape(shape)
    return elements, scales
'''

_MXQ_OK = _MXQ_HEAD + '''
    _, e = np.frexp(safe)
    sexp = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)
''' + _MXQ_TAIL


def _mxq(exponent_lines, tail=_MXQ_TAIL):
    return _MXQ_HEAD + exponent_lines + tail


_NV_HEAD = '''
def nvfp4_quantize(x):
    x = np.asarray(x, dtype=np.float32)
    amax = np.float32(np.max(np.abs(x))) if x.size else np.float32(0)
'''

ANSWERS = [
    # ------------------------------------------------------------ mx_quantize
    {"function": "mx_quantize", "intent": "wrong",
     "why": "shared exponent from np.floor(np.log2(max)) in float32: off by one just below a power of two (trap 1)",
     "source": _mxq('''
    sexp = np.clip(np.floor(np.log2(safe)).astype(np.int64) - emax, -127, 127)
''')},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "no saturation: casts x / scale straight to the element dtype, so e4m3 block maxima above 464 become NaN",
     "source": _mxq('''
    _, e = np.frexp(safe)
    sexp = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)
''', tail='''
    sexp = np.where(amax == 0, 0, sexp)
    codes = np.where(finite, sexp + 127, 255).astype(np.uint8)
    scales = codes.view(ml_dtypes.float8_e8m0fnu)
    scaled = np.ldexp(np.where(finite[..., None], xb, 0).astype(np.float64), -sexp[..., None])
    elements = scaled.astype(np.float32).astype(dt).reshape(shape)
    return elements, scales
''')},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "round-up scale 2^ceil(log2(max / elem_max)) (no clipping) instead of the OCP floor rule",
     "source": _mxq('''
    sexp = np.clip(np.ceil(np.log2(safe.astype(np.float64) / float(fmax))).astype(np.int64), -127, 127)
''')},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "exponent read from max / elem_max (frexp of amax/448 or amax/6) instead of floor(log2 max) - emax",
     "source": _mxq('''
    _, e = np.frexp(safe / fmax)
    sexp = np.clip(e.astype(np.int64) - 1, -127, 127)
''')},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "takes emax = finfo.maxexp (9 for e4m3) without the -1: every scale twice too large",
     "source": _MXQ_HEAD.replace("emax = int(fi.maxexp) - 1", "emax = int(fi.maxexp)") + '''
    _, e = np.frexp(safe)
    sexp = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)
''' + _MXQ_TAIL},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "all-zero block gets the smallest scale 2^-127 (as microxcaling does) instead of 1.0",
     "source": _MXQ_HEAD + '''
    _, e = np.frexp(safe)
    sexp = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)
    sexp = np.where(amax == 0, -127, sexp)
    codes = np.where(finite, sexp + 127, 255).astype(np.uint8)
    scales = codes.view(ml_dtypes.float8_e8m0fnu)
    scaled = np.ldexp(np.where(finite[..., None], xb, 0).astype(np.float64), -sexp[..., None])
    elements = np.clip(scaled, -fmax, fmax).astype(dt).reshape(shape)
    return elements, scales
'''},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "blocks taken with reshape(..., block, K // block): strided blocks (every K//block-th value) instead of consecutive ones",
     "source": '''
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    x = np.asarray(x, dtype=np.float32)
    dt = getattr(ml_dtypes, elem)
    fi = ml_dtypes.finfo(dt)
    emax = int(fi.maxexp) - 1
    fmax = np.float32(fi.max)
    shape = x.shape
    nb = shape[-1] // block
    xb = x.reshape(shape[:-1] + (block, nb))
    with np.errstate(invalid="ignore"):
        amax = np.max(np.abs(xb), axis=-2)
    finite = np.isfinite(amax)
    safe = np.where(finite & (amax > 0), amax, np.float32(1)).astype(np.float32)
    _, e = np.frexp(safe)
    sexp = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)
    sexp = np.where(amax == 0, 0, sexp)
    codes = np.where(finite, sexp + 127, 255).astype(np.uint8)
    scaled = np.ldexp(np.where(finite[..., None, :], xb, 0).astype(np.float64), -sexp[..., None, :])
    elements = np.clip(scaled, -fmax, fmax).astype(dt).reshape(shape)
    return elements, codes.view(ml_dtypes.float8_e8m0fnu)
'''},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "no clamp of the shared exponent to e8m0's [-127, 127]: the biased code wraps around as uint8 for extreme blocks",
     "source": _mxq('''
    _, e = np.frexp(safe)
    sexp = e.astype(np.int64) - 1 - emax
''', tail='''
    sexp = np.where(amax == 0, 0, sexp)
    codes = np.where(finite, (sexp + 127) % 256, 255).astype(np.uint8)
    scales = codes.view(ml_dtypes.float8_e8m0fnu)
    scaled = np.ldexp(np.where(finite[..., None], xb, 0).astype(np.float64), -sexp[..., None])
    elements = np.clip(scaled, -fmax, fmax).astype(dt).reshape(shape)
    return elements, scales
''')},
    {"function": "mx_quantize", "intent": "correct",
     "why": "frexp exponent, clamp, e8m0 built from its bits, exact ldexp division, clip then cast",
     "source": _MXQ_OK},
    # ------------------------------------------------------------ mx_dequantize
    {"function": "mx_dequantize", "intent": "wrong",
     "why": "expands the scales with np.tile instead of np.repeat, so scales are applied round-robin",
     "source": '''
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(scales).astype(np.float32)
    reps = [1] * (s.ndim - 1) + [block]
    return (e * np.tile(s, reps)).astype(np.float32)
'''},
    {"function": "mx_dequantize", "intent": "wrong",
     "why": "multiplies in JAX float32: the 2^-127 scale is a subnormal that XLA flushes to zero (trap 3)",
     "source": '''
def mx_dequantize(elements, scales, block=32):
    e = jnp.asarray(np.asarray(elements).astype(np.float32))
    s = jnp.asarray(np.asarray(scales).astype(np.float32))
    return jnp.repeat(s, block, axis=-1) * e
'''},
    # ------------------------------------------------------------ mx_matmul
    {"function": "mx_matmul", "intent": "wrong",
     "why": "quantizes w with mx_quantize(w): blocks along N instead of along K per column",
     "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32), elem=elem, block=block)
    qw, sw = mx_quantize(np.asarray(w, np.float32), elem=elem, block=block)
    xd = np.asarray(mx_dequantize(qx, sx, block=block), np.float64)
    wd = np.asarray(mx_dequantize(qw, sw, block=block), np.float64)
    return (xd @ wd).astype(np.float32)
'''},
    {"function": "mx_matmul", "intent": "wrong",
     "why": "asks the dot for a bfloat16 result (preferred_element_type=jnp.bfloat16)",
     "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32), elem=elem, block=block)
    qw, sw = mx_quantize(np.asarray(w, np.float32).T, elem=elem, block=block)
    xd = jnp.asarray(mx_dequantize(qx, sx, block=block)).astype(jnp.bfloat16)
    wd = jnp.asarray(mx_dequantize(qw, sw, block=block)).astype(jnp.bfloat16)
    out = jnp.dot(xd, wd.T, preferred_element_type=jnp.bfloat16)
    return np.asarray(out.astype(jnp.float32))
'''},
    {"function": "mx_matmul", "intent": "wrong",
     "why": "quantizes only the weights (as in the granularity experiment) and multiplies by the unquantized x",
     "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    x = np.asarray(x, np.float32)
    qw, sw = mx_quantize(np.asarray(w, np.float32).T, elem=elem, block=block)
    wd = np.asarray(mx_dequantize(qw, sw, block=block), np.float64)
    return (x.astype(np.float64) @ wd.T).astype(np.float32)
'''},
    {"function": "mx_matmul", "intent": "correct",
     "why": "decode both operands, float32 dot at HIGHEST (bf16-exact operands, f32 accumulation)",
     "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32), elem=elem, block=block)
    qw, sw = mx_quantize(np.ascontiguousarray(np.asarray(w, np.float32).T), elem=elem, block=block)
    xd = np.asarray(qx).astype(np.float64) * np.repeat(np.asarray(sx).astype(np.float64), block, axis=-1)
    wd = np.asarray(qw).astype(np.float64) * np.repeat(np.asarray(sw).astype(np.float64), block, axis=-1)
    return jnp.dot(jnp.asarray(xd, jnp.float32), jnp.asarray(wd, jnp.float32).T,
                   precision=jax.lax.Precision.HIGHEST, preferred_element_type=jnp.float32)
'''},
    # ------------------------------------------------------------ granularity_sweep
    {"function": "granularity_sweep", "intent": "wrong",
     "why": "the MX entries quantize the activations too (mx_matmul), not the weights only",
     "source": '''
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] *= np.float32(10.0)
    x = np.array(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32))
    exact = x.astype(np.float64) @ w.astype(np.float64)
    def int8(scale):
        scale = np.where(scale == 0, np.float32(1), scale).astype(np.float32)
        return np.clip(np.round(w / scale), -127, 127) * scale
    err = lambda y: float(np.mean(np.abs(np.asarray(y, np.float64) - exact)))
    pt = err(x.astype(np.float64) @ int8(np.float32(np.abs(w).max() / np.float32(127))).astype(np.float64))
    pc = err(x.astype(np.float64) @ int8(np.abs(w).max(axis=0, keepdims=True) / np.float32(127)).astype(np.float64))
    out = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        out["block"].append(int(b))
        out["per_tensor"].append(pt)
        out["per_channel"].append(pc)
        out["mxfp8"].append(err(mx_matmul(x, w, elem="float8_e4m3fn", block=b)))
        out["mxfp4"].append(err(mx_matmul(x, w, elem="float4_e2m1fn", block=b)))
    return out
'''},
    {"function": "granularity_sweep", "intent": "wrong",
     "why": "products as float32 jnp.dot at DEFAULT precision (one bf16 pass on a TPU), reference included",
     "source": '''
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    ref = jnp.dot(x, w)
    wn = np.asarray(w)
    def err(w_hat):
        return float(jnp.mean(jnp.abs(jnp.dot(x, jnp.asarray(w_hat, jnp.float32)) - ref)))
    def int8(scale):
        scale = np.where(scale == 0, np.float32(1), scale).astype(np.float32)
        return np.clip(np.round(wn / scale), -127, 127) * scale
    pt = err(int8(np.float32(np.abs(wn).max() / np.float32(127))))
    pc = err(int8(np.abs(wn).max(axis=0, keepdims=True) / np.float32(127)))
    res = {"block": list(blocks), "per_tensor": [pt] * len(blocks), "per_channel": [pc] * len(blocks),
           "mxfp8": [], "mxfp4": []}
    for b in blocks:
        for key, elem in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(wn.T, elem=elem, block=b)
            res[key].append(err(np.asarray(mx_dequantize(q, s, block=b)).T))
    return res
'''},
    {"function": "granularity_sweep", "intent": "wrong",
     "why": "uses e5m2 elements for MXFP8 (the wider-range flavour) instead of e4m3",
     "source": '''
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] *= np.float32(10.0)
    x = np.array(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    exact = x @ w.astype(np.float64)
    err = lambda w_hat: float(np.mean(np.abs(x @ np.asarray(w_hat, np.float64) - exact)))
    def int8(scale):
        scale = np.where(scale == 0, np.float32(1), scale).astype(np.float32)
        return np.clip(np.round(w / scale), -127, 127) * scale
    pt = err(int8(np.float32(np.abs(w).max() / np.float32(127))))
    pc = err(int8(np.abs(w).max(axis=0, keepdims=True) / np.float32(127)))
    res = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        res["block"].append(b)
        res["per_tensor"].append(pt)
        res["per_channel"].append(pc)
        for key, elem in (("mxfp8", "float8_e5m2"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(w.T, elem=elem, block=b)
            res[key].append(err(np.asarray(mx_dequantize(q, s, block=b)).T))
    return res
'''},
    # ------------------------------------------------------------ nvfp4_quantize
    {"function": "nvfp4_quantize", "intent": "wrong",
     "why": "divides the elements by the unrounded block scale (before its e4m3 rounding)",
     "source": _NV_HEAD + '''
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // 16, 16))
    s = (np.max(np.abs(xb), axis=-1) / np.float32(6)) / t
    s_e4 = s.astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    denom = (s * t)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(denom > 0, xb / np.where(denom > 0, denom, 1), 0)
    q = np.where(s_e4.astype(np.float32)[..., None] > 0, q, 0)
    elements = np.clip(q, -6, 6).astype(np.float32).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return elements, s_e4, np.float32(t)
'''},
    {"function": "nvfp4_quantize", "intent": "wrong",
     "why": "tensor scale max|x| / 6, forgetting the 448: block scales land far below e4m3's top",
     "source": _NV_HEAD + '''
    t = np.float32(amax / np.float32(6)) if amax > 0 else np.float32(1)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // 16, 16))
    s = ((np.max(np.abs(xb), axis=-1) / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    denom = s.astype(np.float32)[..., None] * t
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(denom > 0, xb / np.where(denom > 0, denom, 1), 0)
    elements = np.clip(q, -6, 6).astype(np.float32).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return elements, s, np.float32(t)
'''},
    {"function": "nvfp4_quantize", "intent": "wrong",
     "why": "rounds the block scale with jax.lax.reduce_precision(s, 4, 3), IEEE e4m3 (max 240, inf) rather than e4m3fn",
     "source": _NV_HEAD + '''
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // 16, 16))
    s = (np.max(np.abs(xb), axis=-1) / np.float32(6)) / t
    s_r = np.asarray(jax.lax.reduce_precision(jnp.asarray(s, jnp.float32), exponent_bits=4, mantissa_bits=3))
    s_e4 = s_r.astype(ml_dtypes.float8_e4m3fn)
    denom = s_e4.astype(np.float32)[..., None] * t
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(denom > 0, xb / np.where(denom > 0, denom, 1), 0)
    q = np.nan_to_num(q)
    elements = np.clip(q, -6, 6).astype(np.float32).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return elements, s_e4, np.float32(t)
'''},
    {"function": "nvfp4_quantize", "intent": "correct",
     "why": "host NumPy: e4m3 block scales rounded first, elements divided by the stored scale times t, clipped, zero where s == 0",
     "source": _NV_HEAD + '''
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    xb = x.reshape(x.shape[:-1] + (x.shape[-1] // 16, 16))
    s = ((np.max(np.abs(xb), axis=-1) / np.float32(6)) / t).astype(np.float32)
    s_e4 = s.astype(ml_dtypes.float8_e4m3fn)
    denom = s_e4.astype(np.float32) * t
    ok = denom > 0
    q = xb / np.where(ok, denom, np.float32(1))[..., None]
    q = np.where(ok[..., None], q, np.float32(0))
    elements = np.clip(q, -6, 6).astype(np.float32).astype(ml_dtypes.float4_e2m1fn).reshape(x.shape)
    return elements, s_e4, np.float32(t)
'''},
    # ------------------------------------------------------------ nvfp4_dequantize
    {"function": "nvfp4_dequantize", "intent": "wrong",
     "why": "applies the block scales but forgets the fp32 tensor scale",
     "source": '''
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = np.asarray(elements).astype(np.float32)
    s = np.repeat(np.asarray(block_scales).astype(np.float32), 16, axis=-1)
    return (e * s).astype(np.float32)
'''},
    {"function": "nvfp4_dequantize", "intent": "wrong",
     "why": "computes the decoded values in bfloat16 (then casts to float32), rounding element * s * t",
     "source": '''
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = jnp.asarray(np.asarray(elements).astype(np.float32)).astype(jnp.bfloat16)
    s = jnp.asarray(np.asarray(block_scales).astype(np.float32)).astype(jnp.bfloat16)
    t = jnp.asarray(tensor_scale, jnp.float32).astype(jnp.bfloat16)
    out = e * jnp.repeat(s, 16, axis=-1) * t
    return np.asarray(out.astype(jnp.float32))
'''},
    {"function": "nvfp4_dequantize", "intent": "correct",
     "why": "float64 product of element, repeated block scale and tensor scale, cast once to float32",
     "source": '''
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = np.asarray(elements).astype(np.float64)
    s = np.asarray(block_scales).astype(np.float64)
    s = np.broadcast_to(s[..., None], s.shape + (16,)).reshape(e.shape)
    return (e * s * float(np.asarray(tensor_scale, np.float64))).astype(np.float32)
'''},
]
