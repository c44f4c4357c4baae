"""Independent held-out answers for lesson 06 (block-scaled formats: MXFP8, MXFP4, NVFP4).

Written from the student notebook and COURSE.md only (plus public reports: zero blocks giving
NaN/odd scales in fp8/MX quantizers, e.g. pytorch/ao#4713; "fit the max" ceil-style scale rules
in other libraries). Wrong answers each make one mistake a student could plausibly make; correct
answers are alternative implementations of the contract.
"""

_MXQ_OK = '''
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    x = np.asarray(x, np.float32)
    dt = getattr(ml_dtypes, elem)
    fi = ml_dtypes.finfo(dt)
    emax = int(fi.maxexp) - 1
    fmax = np.float32(fi.max)
    shp = x.shape
    xb = x.reshape(shp[:-1] + (shp[-1] // block, block))
    amax = np.max(np.abs(xb), axis=-1)
    zero = amax == 0
    bad = ~np.isfinite(amax)
    _, e = np.frexp(np.where(zero | bad, np.float32(1), amax))
    shared = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)
    shared = np.where(zero, 0, shared)
    q = np.ldexp(xb, -shared[..., None])
    q = np.clip(q, -fmax, fmax)
    elements = q.astype(dt).reshape(shp)
    codes = (shared + 127).astype(np.uint8)
    codes = np.where(bad, np.uint8(255), codes).astype(np.uint8)
    return elements, codes.view(ml_dtypes.float8_e8m0fnu)
'''

_NVQ_OK = '''
def nvfp4_quantize(x):
    x = np.asarray(x, np.float32)
    amax = np.float32(np.max(np.abs(x))) if x.size else np.float32(0)
    t = np.float32(amax / np.float32(448 * 6)) if amax > 0 else np.float32(1.0)
    shp = x.shape
    xb = x.reshape(shp[:-1] + (shp[-1] // 16, 16))
    bmax = np.max(np.abs(xb), axis=-1)
    s = ((bmax / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    denom = (s.astype(np.float32) * t)[..., None]
    safe = np.where(denom > 0, denom, np.float32(1))
    q = np.where(denom > 0, xb / safe, np.float32(0))
    q = np.clip(q, -6, 6).astype(ml_dtypes.float4_e2m1fn).reshape(shp)
    return q, s, np.float32(t)
'''


def _sub(base, old, new):
    assert old in base, old
    return base.replace(old, new)


ANSWERS = [
    # ---------------------------------------------------------------- mx_quantize
    {"function": "mx_quantize", "intent": "wrong",
     "why": "shared exponent from floor(log2(max)) in float32 (trap 1): wrong just below powers of two",
     "source": _sub(_sub(_MXQ_OK, "    _, e = np.frexp(np.where(zero | bad, np.float32(1), amax))\n", ""),
                    "shared = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)",
                    "shared = np.clip(np.floor(np.log2(np.where(zero | bad, np.float32(1), amax))).astype(np.int64) - emax, -127, 127)")},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "casts x / scale to the element type without clipping: e4m3 overflow becomes NaN, e5m2 inf",
     "source": _sub(_MXQ_OK, "    q = np.clip(q, -fmax, fmax)\n", "")},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "picks the smallest power-of-two scale that avoids saturation (ceil(log2(max/fmax))) instead of the spec's floor rule",
     "source": _sub(_MXQ_OK, "_, e = np.frexp(np.where(zero | bad, np.float32(1), amax))\n    shared = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)",
                    "ratio = np.where(zero | bad, np.float32(1), amax).astype(np.float64) / float(fmax)\n"
                    "    shared = np.clip(np.ceil(np.log2(ratio)).astype(np.int64), -127, 127)")},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "forgets to clamp the shared exponent to e8m0's range [-127, 127] (codes wrap in uint8)",
     "source": _sub(_MXQ_OK, "shared = np.clip(e.astype(np.int64) - 1 - emax, -127, 127)",
                    "shared = e.astype(np.int64) - 1 - emax")},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "no all-zero guard: frexp(0) gives exponent 0, so a zero block gets scale 2^(-1-emax) instead of 1.0",
     "source": _sub(_sub(_MXQ_OK, "    shared = np.where(zero, 0, shared)\n", ""),
                    "np.frexp(np.where(zero | bad, np.float32(1), amax))", "np.frexp(np.where(bad, np.float32(1), amax))")},
    {"function": "mx_quantize", "intent": "wrong",
     "why": "builds blocks from strided values (reshape to (block, K//block)) instead of consecutive ones",
     "source": _sub(_sub(_sub(_MXQ_OK, "xb = x.reshape(shp[:-1] + (shp[-1] // block, block))",
                              "xb = np.swapaxes(x.reshape(shp[:-1] + (block, shp[-1] // block)), -1, -2)"),
                         "elements = q.astype(dt).reshape(shp)",
                         "elements = np.swapaxes(q.astype(dt), -1, -2).reshape(shp)"),
                    "amax = np.max(np.abs(xb), axis=-1)", "amax = np.max(np.abs(xb), axis=-1)")},
    {"function": "mx_quantize", "intent": "correct",
     "why": "NumPy frexp/ldexp exponents, e8m0 scales built from their bits", "source": _MXQ_OK},
    # ---------------------------------------------------------------- mx_dequantize
    {"function": "mx_dequantize", "intent": "wrong",
     "why": "expands the scales with np.tile instead of np.repeat", "source": '''
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(scales).astype(np.float32)
    reps = [1] * (s.ndim - 1) + [block]
    return (e * np.tile(s, reps)).astype(np.float32)
'''},
    {"function": "mx_dequantize", "intent": "wrong",
     "why": "multiplies in JAX with float32 scales (trap 3): 2^-127 is subnormal and flushed to zero on XLA:CPU",
     "source": '''
def mx_dequantize(elements, scales, block=32):
    e = jnp.asarray(np.asarray(elements).astype(np.float32))
    s = jnp.asarray(np.asarray(scales).astype(np.float32))
    s = jnp.repeat(s, block, axis=-1)
    return np.asarray(e * s, dtype=np.float32)
'''},
    {"function": "mx_dequantize", "intent": "wrong",
     "why": "decodes scales from their codes with ldexp but forgets that code 255 is NaN (gives 2^128 = inf)",
     "source": '''
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float32)
    codes = np.asarray(scales).view(np.uint8).astype(np.int64) - 127
    return np.ldexp(e, np.repeat(codes, block, axis=-1)).astype(np.float32)
'''},
    {"function": "mx_dequantize", "intent": "correct",
     "why": "host float64 multiply with repeated scales, cast to float32", "source": '''
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float64)
    s = np.asarray(scales).astype(np.float64)
    return (e * np.repeat(s, block, axis=-1)).astype(np.float32)
'''},
    # ---------------------------------------------------------------- mx_matmul
    {"function": "mx_matmul", "intent": "wrong",
     "why": "quantizes w in blocks along N (mx_quantize(w)) instead of along K per column (mx_quantize(w.T))",
     "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32), elem, block)
    qw, sw = mx_quantize(np.asarray(w, np.float32), elem, block)
    xd = np.asarray(mx_dequantize(qx, sx, block), np.float64)
    wd = np.asarray(mx_dequantize(qw, sw, block), np.float64)
    return (xd @ wd).astype(np.float32)
'''},
    {"function": "mx_matmul", "intent": "wrong",
     "why": "asks the dot for a bfloat16 result (preferred_element_type=bfloat16)", "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qx, sx = mx_quantize(np.asarray(x, np.float32), elem, block)
    qw, sw = mx_quantize(np.asarray(w, np.float32).T, elem, block)
    xd = jnp.asarray(mx_dequantize(qx, sx, block)).astype(jnp.bfloat16)
    wd = jnp.asarray(mx_dequantize(qw, sw, block)).astype(jnp.bfloat16)
    return np.asarray(jnp.dot(xd, wd.T, preferred_element_type=jnp.bfloat16), dtype=np.float32)
'''},
    {"function": "mx_matmul", "intent": "wrong",
     "why": "quantizes only the weights and multiplies them with the unquantized activations",
     "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    qw, sw = mx_quantize(np.asarray(w, np.float32).T, elem, block)
    wd = np.asarray(mx_dequantize(qw, sw, block), np.float64).T
    return (np.asarray(x, np.float64) @ wd).astype(np.float32)
'''},
    {"function": "mx_matmul", "intent": "correct",
     "why": "jnp.dot of the decoded operands with float32 accumulation (bf16-exact values)", "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    x = np.asarray(x, np.float32)
    w = np.asarray(w, np.float32)
    qx, sx = mx_quantize(x, elem=elem, block=block)
    qwt, swt = mx_quantize(np.ascontiguousarray(w.T), elem=elem, block=block)
    xd = np.asarray(mx_dequantize(qx, sx, block=block), np.float32)
    wd = np.asarray(mx_dequantize(qwt, swt, block=block), np.float32).T
    out = jnp.dot(jnp.asarray(xd), jnp.asarray(wd), precision=HIGHEST, preferred_element_type=jnp.float32)
    return np.asarray(out, np.float32)
'''},
    # ---------------------------------------------------------------- granularity_sweep
    {"function": "granularity_sweep", "intent": "wrong",
     "why": "ignores the loop's block size: MX formats always quantized with the default block of 32",
     "source": '''
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = np.array(jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32)) * np.float32(0.2)
    w[:, 0] *= np.float32(10)
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32), np.float64)
    exact = x @ w.astype(np.float64)
    err = lambda wh: float(np.mean(np.abs(x @ np.asarray(wh, np.float64) - exact)))

    def int8(scale):
        scale = np.where(scale == 0, np.float32(1), scale).astype(np.float32)
        return np.clip(np.round(w / scale), -127, 127).astype(np.int8).astype(np.float32) * scale

    pt = err(int8(np.float32(np.max(np.abs(w)) / np.float32(127))))
    pc = err(int8(np.max(np.abs(w), axis=0, keepdims=True) / np.float32(127)))
    out = {"block": [], "per_tensor": [], "per_channel": [], "mxfp8": [], "mxfp4": []}
    for b in blocks:
        out["block"].append(b)
        out["per_tensor"].append(pt)
        out["per_channel"].append(pc)
        for key, el in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(w.T, elem=el)
            out[key].append(err(np.asarray(mx_dequantize(q, s)).T))
    return out
'''},
    {"function": "granularity_sweep", "intent": "wrong",
     "why": "exact reference is fine but x @ w_hat is a float32 jnp.dot at DEFAULT precision (a bf16 pass on TPU)",
     "source": '''
def granularity_sweep(seed=9, blocks=(8, 16, 32, 64, 128)):
    w = jax.random.normal(jax.random.PRNGKey(seed), (128, 32), dtype=jnp.float32) * 0.2
    w = w.at[:, 0].multiply(10.0)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (32, 128), dtype=jnp.float32)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)

    def err(wh):
        return float(np.mean(np.abs(np.asarray(jnp.dot(x, jnp.asarray(wh, jnp.float32)), np.float64) - exact)))

    amax_t = jnp.max(jnp.abs(w))
    st = jnp.where(amax_t == 0, 1.0, amax_t / 127.0)
    pt = err(jnp.clip(jnp.round(w / st), -127, 127) * st)
    amax_c = jnp.max(jnp.abs(w), axis=0, keepdims=True)
    sc = jnp.where(amax_c == 0, 1.0, amax_c / 127.0)
    pc = err(jnp.clip(jnp.round(w / sc), -127, 127) * sc)
    res = {"block": list(blocks), "per_tensor": [pt] * len(blocks), "per_channel": [pc] * len(blocks),
           "mxfp8": [], "mxfp4": []}
    wt = np.asarray(w).T
    for b in blocks:
        for key, el in (("mxfp8", "float8_e4m3fn"), ("mxfp4", "float4_e2m1fn")):
            q, s = mx_quantize(wt, elem=el, block=b)
            res[key].append(err(np.asarray(mx_dequantize(q, s, block=b)).T))
    return res
'''},
    # ---------------------------------------------------------------- nvfp4_quantize
    {"function": "nvfp4_quantize", "intent": "wrong",
     "why": "divides the elements by the unrounded block scale instead of the e4m3 scale as stored",
     "source": _sub(_sub(_NVQ_OK, "s = ((bmax / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)",
                         "s_raw = ((bmax / np.float32(6)) / t).astype(np.float32)\n    s = s_raw.astype(ml_dtypes.float8_e4m3fn)"),
                    "denom = (s.astype(np.float32) * t)[..., None]", "denom = (s_raw * t)[..., None]")},
    {"function": "nvfp4_quantize", "intent": "wrong",
     "why": "tensor scale max|x| / 448 (forgets the factor 6 of e2m1's maximum)",
     "source": _sub(_NVQ_OK, "np.float32(amax / np.float32(448 * 6))", "np.float32(amax / np.float32(448))")},
    {"function": "nvfp4_quantize", "intent": "wrong",
     "why": "rounds the block scales with reduce_precision(4, 3), an IEEE e4m3 (max 240, inf), not e4m3fn",
     "source": _sub(_NVQ_OK, "s = ((bmax / np.float32(6)) / t).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)",
                    "s = np.asarray(jax.lax.reduce_precision(jnp.asarray((bmax / np.float32(6)) / t, jnp.float32), 4, 3))"
                    ".astype(ml_dtypes.float8_e4m3fn)")},
    {"function": "nvfp4_quantize", "intent": "correct",
     "why": "NumPy two-level recipe, scales rounded on the host before dividing", "source": _NVQ_OK},
    # ---------------------------------------------------------------- nvfp4_dequantize
    {"function": "nvfp4_dequantize", "intent": "wrong",
     "why": "applies the block scales but forgets the tensor scale", "source": '''
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = np.asarray(elements).astype(np.float32)
    s = np.repeat(np.asarray(block_scales).astype(np.float32), 16, axis=-1)
    return (e * s).astype(np.float32)
'''},
    {"function": "nvfp4_dequantize", "intent": "wrong",
     "why": "expands the block scales with np.tile along the last axis instead of repeating each one 16 times",
     "source": '''
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(block_scales).astype(np.float32)
    s = np.tile(s, (1,) * (s.ndim - 1) + (16,))
    return (e * s * np.float32(tensor_scale)).astype(np.float32)
'''},
    # ---------------------------------------------------------------- a blind writer (2026-12-07):
    # the student notebook only, never the library, the solutions or the hidden tests
    {"function": "mx_quantize", "intent": "wrong",
     "why": 'Computes the shared exponent as floor(log2(max|x|)) with a float32 log2, which rounds up to the next integer just below a power of two, instead of reading it exactly with frexp.',
     "source": '''
def mx_quantize(x, elem="float8_e4m3fn", block=32):
    formats = {"float8_e4m3fn": ml_dtypes.float8_e4m3fn, "float8_e5m2": ml_dtypes.float8_e5m2,
               "float4_e2m1fn": ml_dtypes.float4_e2m1fn}
    dt = formats[elem]
    fi = ml_dtypes.finfo(dt)
    emax = int(fi.maxexp) - 1
    fmax = np.float32(fi.max)
    x = np.asarray(x, dtype=np.float32)
    shape = x.shape
    xb = x.reshape(shape[:-1] + (shape[-1] // block, block))
    amax = np.max(np.abs(xb), axis=-1)
    bad = ~np.all(np.isfinite(xb), axis=-1)
    zero = amax == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        shared = np.floor(np.log2(amax)) - emax
    shared = np.where(zero | bad, 0, shared)
    shared = np.clip(shared, -127, 127).astype(np.int32)
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = np.ldexp(xb, -shared[..., None]).astype(np.float32)
        elements = np.clip(scaled, -fmax, fmax).astype(dt).reshape(shape)
    codes = np.where(bad, 255, shared + 127).astype(np.uint8)
    return elements, codes.view(ml_dtypes.float8_e8m0fnu)
'''},
    {"function": "mx_dequantize", "intent": "wrong",
     "why": 'Expands the scales with np.tile instead of np.repeat, so the scales cycle over the blocks instead of each covering its own block of consecutive elements.',
     "source": '''
def mx_dequantize(elements, scales, block=32):
    q = np.asarray(elements).astype(np.float32)
    s = np.asarray(scales).astype(np.float32)
    s_full = np.tile(s, block)        # one scale per element, along the last axis
    return (q * s_full).astype(np.float32)
'''},
    {"function": "mx_matmul", "intent": "wrong",
     "why": "Quantizes w as it is (blocks along its rows, i.e. along N) instead of w.T, so w's blocks do not run along the contraction dimension K.",
     "source": '''
def mx_matmul(x, w, elem="float8_e4m3fn", block=32):
    x = np.asarray(x, dtype=np.float32)
    w = np.asarray(w, dtype=np.float32)
    qx, sx = mx_quantize(x, elem=elem, block=block)
    qw, sw = mx_quantize(w, elem=elem, block=block)
    x_hat = np.asarray(mx_dequantize(qx, sx, block=block), dtype=np.float64)
    w_hat = np.asarray(mx_dequantize(qw, sw, block=block), dtype=np.float64)
    return (x_hat @ w_hat).astype(np.float32)
'''},
    {"function": "nvfp4_quantize", "intent": "wrong",
     "why": 'Divides the elements by the unrounded block scale (max|block| / 6) / t instead of the block scale as stored in e4m3.',
     "source": '''
def nvfp4_quantize(x):
    x = np.asarray(x, dtype=np.float32)
    shape = x.shape
    amax = float(np.max(np.abs(x))) if x.size else 0.0
    t = np.float32(amax / (448.0 * 6.0)) if amax > 0 else np.float32(1.0)
    xb = x.reshape(shape[:-1] + (shape[-1] // 16, 16))
    bmax = np.max(np.abs(xb), axis=-1)
    s = (bmax / np.float32(6.0)) / t
    s_e4m3 = s.astype(ml_dtypes.float8_e4m3fn)
    stored = s_e4m3.astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = xb / (s[..., None] * t)
    q = np.where(stored[..., None] == 0, np.float32(0), q)
    elements = np.clip(q, -6.0, 6.0).astype(ml_dtypes.float4_e2m1fn).reshape(shape)
    return elements, s_e4m3, np.float32(t)
'''},
]
