"""Independent held-out answers for lesson 01 (number formats).

Written from the student notebook and COURSE.md only. Wrong answers each make one mistake a
student could plausibly make; correct answers are alternative implementations of the contract.
"""

ANSWERS = [
    # ---------------------------------------------------------------- format_table
    {"function": "format_table", "intent": "wrong",
     "why": "counts the implicit leading 1 in mantissa_bits (nmant + 1)", "source": '''
def format_table():
    rows = []
    for t in FORMATS:
        fi = ml_dtypes.finfo(t)
        rows.append({
            "name": np.dtype(t).name,
            "bits": np.dtype(t).itemsize * 8,
            "exponent_bits": int(fi.nexp),
            "mantissa_bits": int(fi.nmant) + 1,
            "eps": float(fi.eps),
            "max": float(fi.max),
            "smallest_normal": float(fi.smallest_normal),
        })
    return rows
'''},
    {"function": "format_table", "intent": "wrong",
     "why": "derives max from the IEEE formula (top exponent reserved), so e4m3fn gets 240 instead of 448",
     "source": '''
def format_table():
    table = []
    for t in [np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]:
        fi = ml_dtypes.finfo(t)
        E, M = int(fi.nexp), int(fi.nmant)
        bias = 2 ** (E - 1) - 1
        largest = 2.0 ** (2 ** E - 2 - bias) * (2 - 2.0 ** -M)
        table.append(dict(name=np.dtype(t).name, bits=1 + E + M, exponent_bits=E, mantissa_bits=M,
                          eps=2.0 ** -M, max=largest, smallest_normal=2.0 ** (1 - bias)))
    return table
'''},
    {"function": "format_table", "intent": "wrong",
     "why": "reports the smallest subnormal as smallest_normal", "source": '''
def format_table():
    out = []
    for t in FORMATS:
        fi = ml_dtypes.finfo(t)
        out.append({"name": np.dtype(t).name, "bits": fi.bits, "exponent_bits": fi.nexp,
                    "mantissa_bits": fi.nmant, "eps": fi.eps, "max": fi.max,
                    "smallest_normal": fi.smallest_subnormal})
    return out
'''},
    {"function": "format_table", "intent": "wrong",
     "why": "uses the unit roundoff 2**-(M+1) as eps instead of the gap above 1.0", "source": '''
def format_table():
    names = ["float32", "bfloat16", "float16", "float8_e4m3fn", "float8_e5m2"]
    table = []
    for n in names:
        t = np.dtype(n) if n in ("float32", "float16") else np.dtype(getattr(ml_dtypes, n))
        fi = ml_dtypes.finfo(t)
        table.append({"name": n, "bits": t.itemsize * 8, "exponent_bits": int(fi.nexp),
                      "mantissa_bits": int(fi.nmant), "eps": 2.0 ** -(int(fi.nmant) + 1),
                      "max": float(fi.max), "smallest_normal": float(fi.smallest_normal)})
    return table
'''},
    {"function": "format_table", "intent": "correct",
     "why": "hand-computed fields checked against finfo semantics (e4m3fn special case)", "source": '''
def format_table():
    specs = [("float32", 8, 23, False), ("bfloat16", 8, 7, False), ("float16", 5, 10, False),
             ("float8_e4m3fn", 4, 3, True), ("float8_e5m2", 5, 2, False)]
    table = []
    for name, E, M, fn in specs:
        bias = 2 ** (E - 1) - 1
        if fn:
            mx = 2.0 ** (2 ** E - 1 - bias) * (1 + (2 ** M - 2) / 2 ** M)
        else:
            mx = 2.0 ** (2 ** E - 2 - bias) * (2 - 2.0 ** -M)
        table.append({"name": name, "bits": 1 + E + M, "exponent_bits": E, "mantissa_bits": M,
                      "eps": 2.0 ** -M, "max": mx, "smallest_normal": 2.0 ** (1 - bias)})
    return table
'''},
    # ---------------------------------------------------------------- bf16_round
    {"function": "bf16_round", "intent": "wrong",
     "why": "truncates (clears the low 16 bits) instead of rounding to nearest", "source": '''
def bf16_round(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    r = u & np.uint32(0xFFFF0000)
    out = r.view(np.float32)
    return np.where(np.isnan(x), np.float32(np.nan), out).astype(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "adds 0x8000 (round half away from zero) instead of 0x7FFF + lsb, so ties do not go to even",
     "source": '''
def bf16_round(x):
    x = np.array(x, dtype=np.float32, copy=True)
    u = x.view(np.uint32)
    nan = np.isnan(x)
    r = (u + np.uint32(0x8000)) & np.uint32(0xFFFF0000)
    r = np.where(nan, (u & np.uint32(0xFFFF0000)) | np.uint32(0x00400000), r).astype(np.uint32)
    return r.view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "correct RNE recipe but no NaN branch: low-payload NaNs become inf (or wrap to the sign)",
     "source": '''
def bf16_round(x):
    u = x.view(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    rounded = (u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    return rounded.astype(np.uint32).view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "takes the last kept bit from bit 15 instead of bit 16 (off by one position)", "source": '''
def bf16_round(x):
    u = x.copy().view(np.uint32)
    is_nan = (u & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    lsb = (u >> np.uint32(15)) & np.uint32(1)
    r = (u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    r[is_nan] = (u[is_nan] & np.uint32(0x80000000)) | np.uint32(0x7FC00000)
    return r.view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "treats every all-ones exponent as NaN, so +-inf comes back as NaN", "source": '''
def bf16_round(x):
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    special = (u & np.uint32(0x7F800000)) == np.uint32(0x7F800000)
    lsb = (u >> 16) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).astype(np.uint32)
    r = np.where(special, (u | np.uint32(0x00400000)) & np.uint32(0xFFFF0000), r).astype(np.uint32)
    return r.view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "flushes float32 subnormals to signed zero (thinking of TPU behaviour) instead of rounding them",
     "source": '''
def bf16_round(x):
    u = np.asarray(x, np.float32).view(np.uint32)
    exp = (u >> 23) & np.uint32(0xFF)
    nan = np.isnan(x)
    lsb = (u >> 16) & np.uint32(1)
    r = (u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    r = np.where(exp == 0, u & np.uint32(0x80000000), r)
    r = np.where(nan, np.uint32(0x7FC00000), r).astype(np.uint32)
    return r.view(np.float32)
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": "saturates overflow to the largest finite bfloat16 instead of going to inf (like some libraries' fix)",
     "source": '''
def bf16_round(x):
    u = np.asarray(x, np.float32).view(np.uint32)
    nan = np.isnan(x)
    inf_in = np.isinf(x)
    lsb = (u >> 16) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).astype(np.uint32)
    # a finite input must stay finite: clamp to the largest bfloat16
    became_inf = ((r & np.uint32(0x7FFFFFFF)) == np.uint32(0x7F800000)) & ~inf_in
    r = np.where(became_inf, (r & np.uint32(0x80000000)) | np.uint32(0x7F7F0000), r)
    r = np.where(nan, np.uint32(0x7FC00000), r).astype(np.uint32)
    return r.view(np.float32)
'''},
    {"function": "bf16_round", "intent": "correct",
     "why": "RNE by comparing the dropped half with 0x8000 explicitly, NaNs quieted with their sign",
     "source": '''
def bf16_round(x):
    u = np.array(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    hi = u >> 16
    low = u & 0xFFFF
    up = (low > 0x8000) | ((low == 0x8000) & ((hi & 1) == 1))
    hi = hi + up.astype(np.uint64)
    out = (hi << 16).astype(np.uint32)
    nan = np.isnan(np.asarray(x, np.float32))
    out = np.where(nan, (u.astype(np.uint32) & np.uint32(0xFFFF0000)) | np.uint32(0x00400000), out)
    return out.astype(np.uint32).view(np.float32).reshape(np.shape(x))
'''},
    # ---------------------------------------------------------------- sequential_sum
    {"function": "sequential_sum", "intent": "wrong",
     "why": "uses np.sum on the converted array, which is neither left to right nor rounded every step",
     "source": '''
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype)
    return float(np.sum(v, dtype=dtype))
'''},
    {"function": "sequential_sum", "intent": "wrong",
     "why": "converts through float32 first (np.float32 array, then dtype): double rounding of the inputs",
     "source": '''
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    v = np.asarray(values, dtype=np.float32).astype(dtype)
    acc = t(0)
    for a in v:
        acc = t(acc + a)
    return float(acc)
'''},
    {"function": "sequential_sum", "intent": "wrong",
     "why": "does not convert the values first: adds the full-precision values and rounds only the running sum",
     "source": '''
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    acc = t(0)
    for v in list(np.asarray(values, dtype=np.float64)):
        acc = t(float(acc) + float(v))
    return float(acc)
'''},
    {"function": "sequential_sum", "intent": "wrong",
     "why": "accumulates the converted values in float64 and rounds to dtype only once at the end",
     "source": '''
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype)
    total = 0.0
    for a in v:
        total += float(a)
    return float(np.dtype(dtype).type(total))
'''},
    {"function": "sequential_sum", "intent": "correct",
     "why": "loop over Python floats, rounding via a one-element array of dtype after each addition",
     "source": '''
def sequential_sum(values, dtype):
    dt = np.dtype(dtype)
    conv = [float(a) for a in np.asarray(values).astype(dt).ravel()]
    s = 0.0
    for a in conv:
        s = float(np.array([s + a], dtype=np.float64).astype(np.float32).astype(dt)[0]) if dt != np.float64 else s + a
    return float(s)
'''},
    # ---------------------------------------------------------------- pairwise_sum
    {"function": "pairwise_sum", "intent": "wrong",
     "why": "splits at (n+1)//2 instead of n//2", "source": '''
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
     "why": "bottom-up pairing of neighbours level by level: a different tree when n is not a power of two",
     "source": '''
def pairwise_sum(values, dtype):
    t = np.dtype(dtype).type
    level = list(np.asarray(values).astype(dtype))
    if not level:
        return 0.0
    while len(level) > 1:
        nxt = []
        for i in range(0, len(level) - 1, 2):
            nxt.append(t(level[i] + level[i + 1]))
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return float(level[0])
'''},
    {"function": "pairwise_sum", "intent": "wrong",
     "why": "recursion in Python floats: converts the leaves but never rounds the partial sums to dtype",
     "source": '''
def pairwise_sum(values, dtype):
    v = [float(a) for a in np.asarray(values).astype(dtype)]

    def go(lo, hi):
        n = hi - lo
        if n == 0:
            return 0.0
        if n == 1:
            return v[lo]
        mid = lo + n // 2
        return go(lo, mid) + go(mid, hi)

    return float(go(0, len(v)))
'''},
    {"function": "pairwise_sum", "intent": "correct",
     "why": "index-based recursion on dtype scalars", "source": '''
def pairwise_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.array(values).astype(dt)
    one = dt.type

    def go(lo, hi):
        n = hi - lo
        if n == 0:
            return one(0)
        if n == 1:
            return v[lo]
        mid = lo + n // 2
        return one(go(lo, mid) + go(mid, hi))

    return float(go(0, v.shape[0]))
'''},
    # ---------------------------------------------------------------- a blind writer (2026-12-07):
    # the student notebook only, never the library, the solutions or the hidden tests
    {"function": "format_table", "intent": "wrong",
     "why": 'Counts the implicit leading 1 in mantissa_bits (nmant + 1), so M is one too large and bits != 1 + E + M.',
     "source": '''
def format_table():
    rows = []
    for t in [np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]:
        fi = ml_dtypes.finfo(t)
        rows.append({
            "name": np.dtype(t).name,
            "bits": int(fi.bits),
            "exponent_bits": int(fi.nexp),
            # precision of the significand: the hidden leading 1 plus the stored fraction bits
            "mantissa_bits": int(fi.nmant) + 1,
            "eps": fi.eps,
            "max": fi.max,
            "smallest_normal": fi.smallest_normal,
        })
    return rows
'''},
    {"function": "bf16_round", "intent": "wrong",
     "why": 'Rounds by always adding 0x8000 before clearing the low 16 bits, i.e. ties away from zero instead of ties to even (the lsb term is missing).',
     "source": '''
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    shape = x.shape
    u = x.reshape(-1).view(np.uint32)
    nan = np.isnan(x.reshape(-1))
    safe = np.where(nan, np.uint32(0), u).astype(np.uint32)
    # add half of the dropped range, then cut: anything at or above the halfway point goes up
    rounded = (safe + np.uint32(0x8000)) & np.uint32(0xFFFF0000)
    quiet_nan = (u & np.uint32(0x80000000)) | np.uint32(0x7FC00000)
    out = np.where(nan, quiet_nan, rounded).astype(np.uint32)
    return np.asarray(out.view(np.float32).reshape(shape), dtype=np.float32)
'''},
    {"function": "sequential_sum", "intent": "wrong",
     "why": 'Converts the values to float32 first and only then to dtype, so float64 inputs are rounded twice instead of straight to dtype.',
     "source": '''
def sequential_sum(values, dtype):
    dt = np.dtype(dtype)
    # bring everything to the usual working precision first, then to the target format
    v = np.array(values, dtype=np.float32).astype(dt)
    total = dt.type(0)
    for value in v:
        total = dt.type(total + value)
    return float(total)
'''},
    {"function": "pairwise_sum", "intent": "wrong",
     "why": "Splits at (n + 1) // 2 (the left half takes the middle element) instead of the contract's n // 2.",
     "source": '''
def pairwise_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.asarray(values).astype(dt)

    def rec(a):
        n = len(a)
        if n == 0:
            return dt.type(0)
        if n == 1:
            return a[0]
        mid = math.ceil(n / 2)
        return dt.type(rec(a[:mid]) + rec(a[mid:]))

    return float(rec(v))
'''},
]
