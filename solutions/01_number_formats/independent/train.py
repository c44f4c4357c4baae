"""Independent student answers for lesson 01_number_formats (train set).

Written from the student notebook and COURSE.md only. Some mistakes follow public reports:
NaN payloads collapsing to inf when bf16 conversion truncates or rounds naively (dotnet/runtime
#130583, onnx/onnx #4237), "use truncation to avoid overflow" (gorse-io/gorse #1244), fp8 limits
computed as if e4m3 reserved its top exponent IEEE-style and digit counts including the implicit
bit (tracel-ai/cubecl #1472, llvm APFloat f8E4M3 threads).
"""

ANSWERS = [
    # ------------------------------------------------------------------ format_table
    {"function": "format_table", "intent": "wrong",
     "why": "mantissa_bits counts the implicit leading 1 (nmant + 1), like C's MANTISSA_DIGITS",
     "source": '''
def format_table():
    rows = []
    for t in [np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]:
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": fi.bits, "exponent_bits": fi.nexp,
                     "mantissa_bits": fi.nmant + 1, "eps": fi.eps, "max": fi.max,
                     "smallest_normal": fi.smallest_normal})
    return rows
'''},
    {"function": "format_table", "intent": "wrong",
     "why": "computes max from the field widths IEEE-style (top exponent reserved) for every format: e4m3fn gets 240, not 448",
     "source": '''
def format_table():
    specs = [("float32", 8, 23), ("bfloat16", 8, 7), ("float16", 5, 10),
             ("float8_e4m3fn", 4, 3), ("float8_e5m2", 5, 2)]
    table = []
    for name, E, M in specs:
        bias = 2 ** (E - 1) - 1
        emax = (2 ** E - 2) - bias          # all-ones exponent is inf/NaN
        table.append({
            "name": name,
            "bits": 1 + E + M,
            "exponent_bits": E,
            "mantissa_bits": M,
            "eps": 2.0 ** -M,
            "max": 2.0 ** emax * (2 - 2.0 ** -M),
            "smallest_normal": 2.0 ** (1 - bias),
        })
    return table
'''},
    {"function": "format_table", "intent": "wrong",
     "why": "smallest_normal taken as the smallest positive number (smallest_subnormal)",
     "source": '''
def format_table():
    out = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        out.append(dict(name=np.dtype(t).name, bits=np.dtype(t).itemsize * 8, exponent_bits=fi.nexp,
                        mantissa_bits=fi.nmant, eps=fi.eps, max=fi.max,
                        smallest_normal=fi.smallest_subnormal))
    return out
'''},
    {"function": "format_table", "intent": "wrong",
     "why": "eps written as the unit roundoff 2**-(M+1) instead of the gap above 1.0",
     "source": '''
def format_table():
    out = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        out.append({"name": np.dtype(t).name, "bits": fi.bits, "exponent_bits": fi.nexp,
                    "mantissa_bits": fi.nmant, "eps": 2.0 ** -(fi.nmant + 1),
                    "max": float(fi.max), "smallest_normal": float(fi.smallest_normal)})
    return out
'''},
    {"function": "format_table", "intent": "wrong",
     "why": "uses ml_dtypes.float8_e4m3 (IEEE-style, no fn) for the e4m3fn row, keeping the name string by hand",
     "source": '''
def format_table():
    types = [("float32", np.float32), ("bfloat16", ml_dtypes.bfloat16), ("float16", np.float16),
             ("float8_e4m3fn", ml_dtypes.float8_e4m3), ("float8_e5m2", ml_dtypes.float8_e5m2)]
    rows = []
    for name, t in types:
        fi = ml_dtypes.finfo(t)
        rows.append({"name": name, "bits": fi.bits, "exponent_bits": fi.nexp, "mantissa_bits": fi.nmant,
                     "eps": fi.eps, "max": fi.max, "smallest_normal": fi.smallest_normal})
    return rows
'''},
    {"function": "format_table", "intent": "correct",
     "why": "reads widths from the dtype size and finfo, values converted to Python floats",
     "source": '''
def format_table():
    rows = []
    for t in [np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]:
        dt = np.dtype(t)
        fi = ml_dtypes.finfo(dt)
        rows.append({
            "name": dt.name,
            "bits": 8 * dt.itemsize,
            "exponent_bits": int(fi.nexp),
            "mantissa_bits": int(fi.nmant),
            "eps": float(fi.eps),
            "max": float(fi.max),
            "smallest_normal": float(fi.smallest_normal),
        })
    return rows
'''},
    # ------------------------------------------------------------------ bf16_round
    {"function": "bf16_round", "intent": "wrong",
     "why": "truncates: just clears the low 16 bits (round toward zero), no rounding at all",
     "source": '''
def bf16_round(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    r = np.asarray(u & np.uint32(0xFFFF0000), dtype=np.uint32)
    return r.view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "adds 0x8000 (round half up, ties away from zero) instead of 0x7FFF + lsb",
     "source": '''
def bf16_round(x):
    u = x.view(np.uint32)
    nan = np.isnan(x)
    r = (u + np.uint32(0x8000)) & np.uint32(0xFFFF0000)
    r = np.where(nan, (u & np.uint32(0xFFFF0000)) | np.uint32(0x00400000), r).astype(np.uint32)
    return r.view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "RNE recipe right but no NaN case: NaNs with a low payload round to inf (or carry into the sign)",
     "source": '''
def bf16_round(x):
    u = x.view(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    r = np.asarray((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000), dtype=np.uint32)
    return r.view(np.float32).reshape(x.shape)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "off by one bit: takes the last kept bit from bit 15 instead of bit 16",
     "source": '''
def bf16_round(x):
    u = x.view(np.uint32).copy()
    lsb = (u >> np.uint32(15)) & np.uint32(1)
    rounded = (u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    is_nan = (u & np.uint32(0x7F800000)) == np.uint32(0x7F800000)
    is_nan &= (u & np.uint32(0x007FFFFF)) != 0
    quiet = (u & np.uint32(0xFFFF0000)) | np.uint32(0x00400000)
    return np.where(is_nan, quiet, rounded).astype(np.uint32).view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "works in place on x.view(np.uint32), so the caller's array is overwritten",
     "source": '''
def bf16_round(x):
    u = x.view(np.uint32)
    nan = np.isnan(x)
    lsb = (u >> 16) & np.uint32(1)
    u += np.uint32(0x7FFF) + lsb
    u &= np.uint32(0xFFFF0000)
    u[nan] = np.uint32(0x7FC00000)
    return x
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "saturates overflow to the largest finite bfloat16 instead of going to inf",
     "source": '''
def bf16_round(x):
    u = x.view(np.uint32)
    sign = u & np.uint32(0x80000000)
    mag = u & np.uint32(0x7FFFFFFF)
    nan = mag > np.uint32(0x7F800000)
    inf = mag == np.uint32(0x7F800000)
    lsb = (mag >> np.uint32(16)) & np.uint32(1)
    r = (mag + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    r = np.where((r >= np.uint32(0x7F800000)) & ~inf, np.uint32(0x7F7F0000), r)   # clamp to bf16 max
    r = np.where(nan, np.uint32(0x7FC00000), r)
    return np.asarray(r.astype(np.uint32) | sign, dtype=np.uint32).view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "flushes float32 subnormals to zero (thinking of the TPU) instead of rounding them",
     "source": '''
def bf16_round(x):
    u = x.view(np.uint32)
    exp = (u >> np.uint32(23)) & np.uint32(0xFF)
    nan = (exp == 0xFF) & ((u & np.uint32(0x7FFFFF)) != 0)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    r = (u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    r = np.where(exp == 0, u & np.uint32(0x80000000), r)      # denormals -> signed zero
    r = np.where(nan, u | np.uint32(0x00400000), r)
    r = np.asarray(r.astype(np.uint32) & np.where(nan, np.uint32(0xFFFFFFFF), np.uint32(0xFFFF0000)).astype(np.uint32), dtype=np.uint32)
    return r.view(np.float32)
'''},
    {"function": "bf16_round", "intent": "correct",
     "why": "handles sign separately, rounds the magnitude with the 0x7FFF + lsb bias, NaN made quiet",
     "source": '''
def bf16_round(x):
    u = np.array(x, dtype=np.float32, copy=True).view(np.uint32)
    sign = u & np.uint32(0x80000000)
    mag = u & np.uint32(0x7FFFFFFF)
    is_nan = mag > np.uint32(0x7F800000)
    bias = np.uint32(0x7FFF) + ((mag >> np.uint32(16)) & np.uint32(1))
    rounded = (mag + bias) & np.uint32(0xFFFF0000)
    rounded = np.where(is_nan, np.uint32(0x7FC00000), rounded).astype(np.uint32)
    return np.asarray(rounded | sign, dtype=np.uint32).reshape(np.shape(x)).view(np.float32)
'''},
    # ------------------------------------------------------------------ sequential_sum
    {"function": "sequential_sum", "intent": "wrong",
     "why": "converts through float32 first (jnp.array), rounding twice before the sum",
     "source": '''
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    v = np.asarray(jnp.array(values, dtype=jnp.float32)).astype(dtype)
    s = t(0)
    for a in v:
        s = t(s + a)
    return float(s)
'''},
    {"function": "sequential_sum", "intent": "wrong",
     "why": "uses np.sum on the converted array instead of a left-to-right loop rounded every step",
     "source": '''
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype)
    if v.size == 0:
        return 0.0
    return float(np.sum(v, dtype=dtype))
'''},
    {"function": "sequential_sum", "intent": "wrong",
     "why": "accumulates in a float64 Python float and only rounds the final sum to dtype",
     "source": '''
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype)
    total = 0.0
    for a in v:
        total += float(a)
    return float(np.array(total).astype(dtype))
'''},
    {"function": "sequential_sum", "intent": "wrong",
     "why": "never converts the values first: rounds the running sum but adds the raw float64 summands",
     "source": '''
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    s = t(0)
    for a in list(values):
        s = t(float(s) + float(a))
    return float(s)
'''},
    {"function": "sequential_sum", "intent": "wrong",
     "why": "loops right to left (reversed order)",
     "source": '''
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype)
    t = np.dtype(dtype).type
    s = t(0.0)
    for i in range(len(v) - 1, -1, -1):
        s = t(s + v[i])
    return float(s)
'''},
    {"function": "sequential_sum", "intent": "correct",
     "why": "float64 addition of two dtype values then one rounding to dtype per step (exact sum rounded once)",
     "source": '''
def sequential_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.asarray(values).astype(dt).astype(np.float64)
    s = 0.0
    for a in v:
        s = float(np.array([s + a], dtype=np.float64).astype(dt)[0])
    return float(s)
'''},
    # ------------------------------------------------------------------ pairwise_sum
    {"function": "pairwise_sum", "intent": "wrong",
     "why": "splits at (n+1)//2 (left half bigger) instead of n//2",
     "source": '''
def pairwise_sum(values, dtype):
    t = np.dtype(dtype).type
    v = np.asarray(values).astype(dtype)
    def rec(a):
        n = len(a)
        if n == 0:
            return t(0)
        if n == 1:
            return a[0]
        m = (n + 1) // 2
        return t(rec(a[:m]) + rec(a[m:]))
    return float(rec(v))
'''},
    {"function": "pairwise_sum", "intent": "wrong",
     "why": "recursion returns Python floats and adds them in float64: no rounding to dtype at each level",
     "source": '''
def pairwise_sum(values, dtype):
    v = np.asarray(values).astype(dtype)
    def rec(a):
        n = len(a)
        if n == 0:
            return 0.0
        if n == 1:
            return float(a[0])
        return rec(a[:n // 2]) + rec(a[n // 2:])
    return float(np.asarray(rec(v)).astype(dtype))
'''},
    {"function": "pairwise_sum", "intent": "wrong",
     "why": "bottom-up pairing of neighbours (0+1, 2+3, ...), carrying the odd one: a different tree for odd lengths",
     "source": '''
def pairwise_sum(values, dtype):
    t = np.dtype(dtype).type
    level = [t(a) for a in np.asarray(values).astype(dtype)]
    if not level:
        return 0.0
    while len(level) > 1:
        nxt = [t(level[i] + level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return float(level[0])
'''},
    {"function": "pairwise_sum", "intent": "correct",
     "why": "recursion on index ranges with explicit dtype rounding via a 0-d array",
     "source": '''
def pairwise_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.array(values).astype(dt)
    def rec(lo, hi):
        n = hi - lo
        if n == 0:
            return np.zeros((), dt)
        if n == 1:
            return v[lo]
        mid = lo + n // 2
        left, right = rec(lo, mid), rec(mid, hi)
        return np.asarray(np.float64(left) + np.float64(right)).astype(dt)
    return float(rec(0, len(v)))
'''},
]
