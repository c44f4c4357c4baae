"""Correct answers for 01_number_formats that are not the reference solution (see docs/AUTHORING.md).

Written from COURSE.md's contracts and the student notebook alone, without the solutions or the
hidden tests, the way other students and instructors write them: NumPy or jax.numpy, loops or
vectorised, other valid readings where the contract is silent. Each one must get full marks
(tests/test_notebooks.py): the hidden tests test the contract, not the reference's habits.
"""

ALTERNATIVES = [
    # ------------------------------------------------------------------ bf16_round
    {
        "function": "bf16_round",
        "why": "notebook recipe: u + 0x7FFF + lsb, mask; NaNs keep sign and upper payload, quiet bit set",
        "source": '''
def bf16_round(x):
    """Round float32 ndarray x to the nearest bfloat16 (ties to even) with integer arithmetic on
    x.view(np.uint32); return float32 of the same shape. NaN stays NaN, +-inf and +-0 are kept."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    rounded = (u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    is_nan = (u & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    nan_bits = (u & np.uint32(0xFFFF0000)) | np.uint32(0x00400000)
    out = np.where(is_nan, nan_bits, rounded).astype(np.uint32)
    return np.asarray(out).view(np.float32)
''',
    },
    {
        "function": "bf16_round",
        "why": "explicit compare of the dropped half-word against 0x8000 (above / tie-odd -> up); canonical +NaN",
        "source": '''
def bf16_round(x):
    """Round float32 ndarray x to the nearest bfloat16 (ties to even) with integer arithmetic on
    x.view(np.uint32); return float32 of the same shape. NaN stays NaN, +-inf and +-0 are kept."""
    u = x.view(np.uint32).copy()
    kept = u & np.uint32(0xFFFF0000)
    dropped = u & np.uint32(0xFFFF)
    odd = (u & np.uint32(0x10000)) != 0
    up = (dropped > 0x8000) | ((dropped == 0x8000) & odd)
    out = kept + np.where(up, np.uint32(0x10000), np.uint32(0)).astype(np.uint32)
    nan = ((u & np.uint32(0x7F800000)) == np.uint32(0x7F800000)) & ((u & np.uint32(0x007FFFFF)) != 0)
    out = np.where(nan, np.uint32(0x7FC00000), out).astype(np.uint32)
    return out.reshape(x.shape).view(np.float32)
''',
    },
    {
        "function": "bf16_round",
        "why": "widen to uint64 so nothing can wrap, shift right/left by 16, then narrow; NaN via boolean mask assignment",
        "source": '''
def bf16_round(x):
    """Round float32 ndarray x to the nearest bfloat16 (ties to even) with integer arithmetic on
    x.view(np.uint32); return float32 of the same shape. NaN stays NaN, +-inf and +-0 are kept."""
    u = x.view(np.uint32).astype(np.uint64)
    bias = np.uint64(0x7FFF) + ((u >> np.uint64(16)) & np.uint64(1))
    r = ((u + bias) >> np.uint64(16)) << np.uint64(16)
    r = np.array(r, dtype=np.uint64, ndmin=0, copy=True)
    nan = (u & np.uint64(0x7FFFFFFF)) > np.uint64(0x7F800000)
    r[nan] = (u[nan] | np.uint64(0x00400000)) & np.uint64(0xFFFF0000)
    return np.asarray(r.astype(np.uint32)).view(np.float32)
''',
    },
    {
        "function": "bf16_round",
        "why": "element loop with Python ints (slow but plain), sign handled on the magnitude",
        "source": '''
def bf16_round(x):
    """Round float32 ndarray x to the nearest bfloat16 (ties to even) with integer arithmetic on
    x.view(np.uint32); return float32 of the same shape. NaN stays NaN, +-inf and +-0 are kept."""
    bits = x.view(np.uint32).ravel().tolist()
    out = []
    for b in bits:
        sign = b & 0x80000000
        mag = b & 0x7FFFFFFF
        if mag > 0x7F800000:                       # NaN: keep sign, make it a quiet NaN
            out.append(sign | 0x7FC00000)
            continue
        hi, lo = mag >> 16, mag & 0xFFFF
        if lo > 0x8000 or (lo == 0x8000 and hi & 1):
            hi += 1                                 # may carry into the exponent: max -> inf
        out.append(sign | (hi << 16))
    return np.array(out, dtype=np.uint32).reshape(x.shape).view(np.float32)
''',
    },
    {
        "function": "bf16_round",
        "why": "same integer recipe in jax.numpy on the uint32 view (no float ops on device), back to NumPy",
        "source": '''
def bf16_round(x):
    """Round float32 ndarray x to the nearest bfloat16 (ties to even) with integer arithmetic on
    x.view(np.uint32); return float32 of the same shape. NaN stays NaN, +-inf and +-0 are kept."""
    u = jnp.asarray(x.view(np.uint32))
    lsb = (u >> 16) & 1
    r = (u + jnp.uint32(0x7FFF) + lsb) & jnp.uint32(0xFFFF0000)
    nan = (u & jnp.uint32(0x7FFFFFFF)) > jnp.uint32(0x7F800000)
    r = jnp.where(nan, (u | jnp.uint32(0x00400000)) & jnp.uint32(0xFFFF0000), r)
    return np.asarray(r, dtype=np.uint32).view(np.float32)
''',
    },
    # ------------------------------------------------------------------ format_table
    {
        "function": "format_table",
        "why": "ml_dtypes.finfo for all five, values kept as finfo's NumPy/ml_dtypes scalars",
        "source": '''
def format_table():
    """One dict per format (float32, bfloat16, float16, float8_e4m3fn, float8_e5m2) with keys
    name, bits, exponent_bits, mantissa_bits, eps, max, smallest_normal."""
    rows = []
    for t in [np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]:
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": fi.bits, "exponent_bits": fi.nexp,
                     "mantissa_bits": fi.nmant, "eps": fi.eps, "max": fi.max,
                     "smallest_normal": fi.smallest_normal})
    return rows
''',
    },
    {
        "function": "format_table",
        "why": "uses the notebook's FORMATS list, Python ints/floats, bits from itemsize",
        "source": '''
def format_table():
    """One dict per format (float32, bfloat16, float16, float8_e4m3fn, float8_e5m2) with keys
    name, bits, exponent_bits, mantissa_bits, eps, max, smallest_normal."""
    table = []
    for t in FORMATS:
        dt = np.dtype(t)
        fi = ml_dtypes.finfo(dt)
        table.append(dict(name=dt.name, bits=8 * dt.itemsize, exponent_bits=int(fi.nexp),
                          mantissa_bits=int(fi.nmant), eps=float(fi.eps), max=float(fi.max),
                          smallest_normal=float(fi.smallest_normal)))
    return table
''',
    },
    {
        "function": "format_table",
        "why": "hand-written constants (what a student copying from a datasheet writes)",
        "source": '''
def format_table():
    """One dict per format (float32, bfloat16, float16, float8_e4m3fn, float8_e5m2) with keys
    name, bits, exponent_bits, mantissa_bits, eps, max, smallest_normal."""
    specs = [("float32", 32, 8, 23, 2.0**-23, (2 - 2.0**-23) * 2.0**127, 2.0**-126),
             ("bfloat16", 16, 8, 7, 2.0**-7, (2 - 2.0**-7) * 2.0**127, 2.0**-126),
             ("float16", 16, 5, 10, 2.0**-10, 65504.0, 2.0**-14),
             ("float8_e4m3fn", 8, 4, 3, 0.125, 448.0, 2.0**-6),
             ("float8_e5m2", 8, 5, 2, 0.25, 57344.0, 2.0**-14)]
    keys = ["name", "bits", "exponent_bits", "mantissa_bits", "eps", "max", "smallest_normal"]
    return [dict(zip(keys, s)) for s in specs]
''',
    },
    {
        "function": "format_table",
        "why": "derived from the field widths (bias, reserved top exponent, e4m3fn special case) as in section 1",
        "source": '''
def format_table():
    """One dict per format (float32, bfloat16, float16, float8_e4m3fn, float8_e5m2) with keys
    name, bits, exponent_bits, mantissa_bits, eps, max, smallest_normal."""
    out = []
    for name, E, M in [("float32", 8, 23), ("bfloat16", 8, 7), ("float16", 5, 10),
                       ("float8_e4m3fn", 4, 3), ("float8_e5m2", 5, 2)]:
        bias = 2 ** (E - 1) - 1
        if name == "float8_e4m3fn":          # top exponent usable, only mantissa 111 is NaN
            mx = 2.0 ** (2 ** E - 1 - bias) * (1 + (2 ** M - 2) / 2 ** M)
        else:                                # top exponent reserved for inf/NaN
            mx = 2.0 ** (2 ** E - 2 - bias) * (2 - 2.0 ** -M)
        out.append({"name": name, "bits": 1 + E + M, "exponent_bits": E, "mantissa_bits": M,
                    "eps": 2.0 ** -M, "max": mx, "smallest_normal": 2.0 ** (1 - bias)})
    return out
''',
    },
    {
        "function": "format_table",
        "why": "jnp.finfo / jnp.dtype spelling, np.finfo where NumPy knows the type (numpy scalars)",
        "source": '''
def format_table():
    """One dict per format (float32, bfloat16, float16, float8_e4m3fn, float8_e5m2) with keys
    name, bits, exponent_bits, mantissa_bits, eps, max, smallest_normal."""
    result = []
    for t in (jnp.float32, jnp.bfloat16, jnp.float16, jnp.float8_e4m3fn, jnp.float8_e5m2):
        fi = np.finfo(t) if t in (jnp.float32, jnp.float16) else jnp.finfo(t)
        result.append({"name": jnp.dtype(t).name, "bits": jnp.dtype(t).itemsize * 8,
                       "exponent_bits": fi.nexp, "mantissa_bits": fi.nmant, "eps": fi.eps,
                       "max": fi.max, "smallest_normal": fi.smallest_normal})
    return result
''',
    },
    # ------------------------------------------------------------------ sequential_sum
    {
        "function": "sequential_sum",
        "why": "convert with np.asarray(values, dtype), loop over dtype scalars (the hint)",
        "source": '''
def sequential_sum(values, dtype):
    """Sum values left to right in `dtype`: convert values to dtype first, start from 0, round the
    running sum to dtype after every addition. Returns a Python float."""
    dt = np.dtype(dtype)
    v = np.asarray(values, dtype=dt).ravel()
    s = dt.type(0)
    for x in v:
        s = dt.type(s + x)
    return float(s)
''',
    },
    {
        "function": "sequential_sum",
        "why": "functools.reduce over per-element scalar conversions",
        "source": '''
def sequential_sum(values, dtype):
    """Sum values left to right in `dtype`: convert values to dtype first, start from 0, round the
    running sum to dtype after every addition. Returns a Python float."""
    import functools
    t = np.dtype(dtype).type
    return float(functools.reduce(lambda acc, v: t(acc + v), [t(v) for v in values], t(0)))
''',
    },
    {
        "function": "sequential_sum",
        "why": "exact-enough float64 addition, each partial sum rounded back to dtype through a 1-element array",
        "source": '''
def sequential_sum(values, dtype):
    """Sum values left to right in `dtype`: convert values to dtype first, start from 0, round the
    running sum to dtype after every addition. Returns a Python float."""
    dt = np.dtype(dtype)
    converted = np.array(values, dtype=dt).astype(np.float64).tolist()
    total = 0.0
    for v in converted:
        total = float(np.array([total + v], dtype=np.float64).astype(dt)[0])
    return total
''',
    },
    {
        "function": "sequential_sum",
        "why": "itertools.accumulate with an initial dtype zero, last partial sum",
        "source": '''
def sequential_sum(values, dtype):
    """Sum values left to right in `dtype`: convert values to dtype first, start from 0, round the
    running sum to dtype after every addition. Returns a Python float."""
    import itertools
    import operator
    dt = np.dtype(dtype)
    partials = itertools.accumulate(np.array(values, dtype=dt), operator.add, initial=dt.type(0))
    last = dt.type(0)
    for last in partials:
        last = dt.type(last)
    return float(last)
''',
    },
    {
        "function": "sequential_sum",
        "why": "np.add on 0-d arrays of dtype with while-loop index (array arithmetic, not scalars)",
        "source": '''
def sequential_sum(values, dtype):
    """Sum values left to right in `dtype`: convert values to dtype first, start from 0, round the
    running sum to dtype after every addition. Returns a Python float."""
    v = np.asarray(values, dtype=np.dtype(dtype)).reshape(-1)
    acc = np.zeros((), dtype=v.dtype)
    i = 0
    while i < v.size:
        acc = np.add(acc, v[i], dtype=v.dtype)
        acc = np.asarray(acc, dtype=v.dtype)
        i += 1
    return float(acc)
''',
    },
    # ------------------------------------------------------------------ pairwise_sum
    {
        "function": "pairwise_sum",
        "why": "recursive helper on slices of the converted array, dtype scalars",
        "source": '''
def pairwise_sum(values, dtype):
    """Pairwise sum in `dtype`: convert first; 0 for no values, the value for one, otherwise
    pairwise(v[:n//2]) + pairwise(v[n//2:]) rounded to dtype. Returns a Python float."""
    dt = np.dtype(dtype)
    v = np.asarray(values, dtype=dt).ravel()

    def rec(a):
        n = len(a)
        if n == 0:
            return dt.type(0)
        if n == 1:
            return a[0]
        return dt.type(rec(a[:n // 2]) + rec(a[n // 2:]))

    return float(rec(v))
''',
    },
    {
        "function": "pairwise_sum",
        "why": "recursion on (lo, hi) index ranges, the split at lo + (hi-lo)//2",
        "source": '''
def pairwise_sum(values, dtype):
    """Pairwise sum in `dtype`: convert first; 0 for no values, the value for one, otherwise
    pairwise(v[:n//2]) + pairwise(v[n//2:]) rounded to dtype. Returns a Python float."""
    t = np.dtype(dtype).type
    v = [t(x) for x in values]

    def go(lo, hi):
        if hi - lo == 0:
            return t(0)
        if hi - lo == 1:
            return v[lo]
        mid = lo + (hi - lo) // 2
        return t(go(lo, mid) + go(mid, hi))

    return float(go(0, len(v)))
''',
    },
    {
        "function": "pairwise_sum",
        "why": "calls itself on the already-converted halves; halves added as float64 and rounded once to dtype",
        "source": '''
def pairwise_sum(values, dtype):
    """Pairwise sum in `dtype`: convert first; 0 for no values, the value for one, otherwise
    pairwise(v[:n//2]) + pairwise(v[n//2:]) rounded to dtype. Returns a Python float."""
    v = np.asarray(values, dtype=np.dtype(dtype)).ravel()
    n = len(v)
    if n == 0:
        return 0.0
    if n == 1:
        return float(v[0])
    a = pairwise_sum(v[:n // 2], dtype)
    b = pairwise_sum(v[n // 2:], dtype)
    return float(np.asarray(a + b, dtype=np.float64).astype(np.dtype(dtype)))
''',
    },
    {
        "function": "pairwise_sum",
        "why": "iterative post-order traversal with an explicit stack (no recursion)",
        "source": '''
def pairwise_sum(values, dtype):
    """Pairwise sum in `dtype`: convert first; 0 for no values, the value for one, otherwise
    pairwise(v[:n//2]) + pairwise(v[n//2:]) rounded to dtype. Returns a Python float."""
    dt = np.dtype(dtype)
    v = np.asarray(values, dtype=dt).ravel()
    if v.size == 0:
        return 0.0
    results = {}
    stack = [(0, v.size, False)]
    while stack:
        lo, hi, expanded = stack.pop()
        if hi - lo == 1:
            results[(lo, hi)] = v[lo]
        elif not expanded:
            mid = lo + (hi - lo) // 2
            stack.append((lo, hi, True))
            stack.append((mid, hi, False))
            stack.append((lo, mid, False))
        else:
            mid = lo + (hi - lo) // 2
            results[(lo, hi)] = dt.type(results.pop((lo, mid)) + results.pop((mid, hi)))
    return float(results[(0, v.size)])
''',
    },
]
