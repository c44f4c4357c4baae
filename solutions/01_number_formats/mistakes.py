"""Known wrong answers to 01_number_formats's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

MISTAKES = [
    # ---------------------------------------------------------- format_table
    {
        "id": "mantissa-bits-counts-the-implicit-leadin",
        "function": "format_table",
        "name": "mantissa_bits counts the implicit leading 1 (nmant + 1)",
        "explanation": "",
        "section": "",
        "why": "mantissa_bits counts the implicit leading 1 (nmant + 1)",
        "source": """
def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": int(fi.bits), "exponent_bits": int(fi.nexp),
                     "mantissa_bits": int(fi.nmant) + 1, "eps": float(fi.eps), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_normal)})
    return rows
""",
    },
    {
        "id": "float8-e4m3-with-inf-max-240-instead-of",
        "function": "format_table",
        "name": "float8_e4m3 (with inf, max 240) instead of float8_e4m3fn",
        "explanation": "",
        "section": "",
        "why": "float8_e4m3 (with inf, max 240) instead of float8_e4m3fn",
        "source": """
def format_table():
    rows = []
    for name, t in (("float32", np.float32), ("bfloat16", ml_dtypes.bfloat16), ("float16", np.float16),
                    ("float8_e4m3fn", ml_dtypes.float8_e4m3), ("float8_e5m2", ml_dtypes.float8_e5m2)):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": name, "bits": int(fi.bits), "exponent_bits": int(fi.nexp),
                     "mantissa_bits": int(fi.nmant), "eps": float(fi.eps), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_normal)})
    return rows
""",
    },
    {
        "id": "smallest-normal-taken-as-the-smallest-su",
        "function": "format_table",
        "name": "smallest_normal taken as the smallest subnormal",
        "explanation": "",
        "section": "",
        "why": "smallest_normal taken as the smallest subnormal",
        "source": """
def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": int(fi.bits), "exponent_bits": int(fi.nexp),
                     "mantissa_bits": int(fi.nmant), "eps": float(fi.eps), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_subnormal)})
    return rows
""",
    },
    {
        "id": "exponent-bits-bits-mantissa-bits-forgets",
        "function": "format_table",
        "name": "exponent_bits = bits - mantissa_bits (forgets the sign bit)",
        "explanation": "",
        "section": "",
        "why": "exponent_bits = bits - mantissa_bits (forgets the sign bit)",
        "source": """
def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": int(fi.bits), "exponent_bits": int(fi.bits - fi.nmant),
                     "mantissa_bits": int(fi.nmant), "eps": float(fi.eps), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_normal)})
    return rows
""",
    },
    {
        "id": "eps-taken-as-the-unit-roundoff-eps-2",
        "function": "format_table",
        "name": "eps taken as the unit roundoff eps/2",
        "explanation": "",
        "section": "",
        "why": "eps taken as the unit roundoff eps/2",
        "source": """
def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": int(fi.bits), "exponent_bits": int(fi.nexp),
                     "mantissa_bits": int(fi.nmant), "eps": 2.0 ** -(int(fi.nmant) + 1), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_normal)})
    return rows
""",
    },
    # ------------------------------------------------------------ bf16_round
    {
        "id": "rounds-to-float16-instead-of-bfloat16",
        "function": "bf16_round",
        "name": "rounds to float16 instead of bfloat16",
        "explanation": "",
        "section": "",
        "why": "rounds to float16 instead of bfloat16",
        "source": """
def bf16_round(x):
    return np.asarray(x, dtype=np.float32).astype(np.float16).astype(np.float32)
""",
    },
    {
        "id": "truncation-clears-the-low-16-bits-instea",
        "function": "bf16_round",
        "name": "truncation (clears the low 16 bits) instead of round to nearest even",
        "explanation": "",
        "section": "",
        "why": "truncation (clears the low 16 bits) instead of round to nearest even",
        "source": """
def bf16_round(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    return (u & np.uint32(0xFFFF0000)).view(np.float32)
""",
    },
    {
        "id": "ties-rounded-away-from-zero-adds-0x8000",
        "function": "bf16_round",
        "name": "ties rounded away from zero (adds 0x8000), NaN handled",
        "explanation": "",
        "section": "",
        "why": "ties rounded away from zero (adds 0x8000), NaN handled",
        "source": """
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32)
    r = ((u + np.uint32(0x8000)) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(x), np.float32(np.nan), r).astype(np.float32)
""",
    },
    {
        "id": "rne-without-nan-handling-low-payload-nan",
        "function": "bf16_round",
        "name": "RNE without NaN handling: low-payload NaNs become inf",
        "explanation": "",
        "section": "",
        "why": "RNE without NaN handling: low-payload NaNs become inf",
        "source": """
def bf16_round(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    return ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).view(np.float32)
""",
    },
    {
        "id": "nan-detected-on-the-rounded-result-not-t",
        "function": "bf16_round",
        "name": "NaN detected on the rounded result, not the input (low-payload NaNs already became inf)",
        "explanation": "",
        "section": "",
        "why": "NaN detected on the rounded result, not the input (low-payload NaNs already became inf)",
        "source": """
def bf16_round(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    lsb = (u >> 16) & 1
    r = (((u + 0x7FFF + lsb) & 0xFFFF0000) % 2**32).astype(np.uint32).view(np.float32)
    return np.where(np.isnan(r), np.float32(np.nan), r).astype(np.float32)
""",
    },
    {
        "id": "tie-breaking-reads-bit-15-the-round-bit",
        "function": "bf16_round",
        "name": "tie-breaking reads bit 15 (the round bit) instead of bit 16 (the last kept bit)",
        "explanation": "",
        "section": "",
        "why": "tie-breaking reads bit 15 (the round bit) instead of bit 16 (the last kept bit)",
        "source": """
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32)
    bit = (u >> np.uint32(15)) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + bit) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(x), x, r).astype(np.float32)
""",
    },
    {
        "id": "flushes-subnormals-to-zero-what-tpu-hard",
        "function": "bf16_round",
        "name": "flushes subnormals to zero (what TPU hardware does, not the contract)",
        "explanation": "",
        "section": "",
        "why": "flushes subnormals to zero (what TPU hardware does, not the contract)",
        "source": """
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32)
    u = np.where((u & np.uint32(0x7F800000)) == 0, u & np.uint32(0x80000000), u).astype(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(x), x, r).astype(np.float32)
""",
    },
    {
        "id": "saturates-overflow-to-the-largest-bfloat",
        "function": "bf16_round",
        "name": "saturates overflow to the largest bfloat16 instead of inf",
        "explanation": "",
        "section": "",
        "why": "saturates overflow to the largest bfloat16 instead of inf",
        "source": """
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).view(np.float32)
    big = np.float32(3.3895313892515355e38)
    r = np.where(np.isinf(r) & np.isfinite(x), np.copysign(big, x), r)
    return np.where(np.isnan(x), x, r).astype(np.float32)
""",
    },
    {
        "id": "rounds-in-place-modifies-the-caller-s-ar",
        "function": "bf16_round",
        "name": "rounds in place: modifies the caller's array",
        "explanation": "",
        "section": "",
        "why": "rounds in place: modifies the caller's array",
        "source": """
def bf16_round(x):
    u = x.view(np.uint32)
    nan = np.isnan(x)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    u[~nan] = (u[~nan] + np.uint32(0x7FFF) + lsb[~nan]) & np.uint32(0xFFFF0000)
    return x
""",
    },
    # -------------------------------------------------------- sequential_sum
    {
        "id": "accumulates-in-float64-and-rounds-once-a",
        "function": "sequential_sum",
        "name": "accumulates in float64 and rounds once at the end",
        "explanation": "",
        "section": "",
        "why": "accumulates in float64 and rounds once at the end",
        "source": """
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype).astype(np.float64)
    total = 0.0
    for item in v:
        total += item
    return float(np.float64(total).astype(dtype))
""",
    },
    {
        "id": "accumulates-in-float32-and-rounds-once-a",
        "function": "sequential_sum",
        "name": "accumulates in float32 and rounds once at the end (what the MXU does)",
        "explanation": "",
        "section": "",
        "why": "accumulates in float32 and rounds once at the end (what the MXU does)",
        "source": """
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype).astype(np.float32)
    total = np.float32(0)
    for item in v:
        total = np.float32(total + item)
    return float(np.asarray(total).astype(dtype))
""",
    },
    {
        "id": "sums-right-to-left",
        "function": "sequential_sum",
        "name": "sums right to left",
        "explanation": "",
        "section": "",
        "why": "sums right to left",
        "source": """
def sequential_sum(values, dtype):
    scalar = np.dtype(dtype).type
    total = scalar(0)
    for item in np.asarray(values).astype(dtype)[::-1]:
        total = scalar(total + item)
    return float(total)
""",
    },
    {
        "id": "does-not-convert-the-values-first-rounds",
        "function": "sequential_sum",
        "name": "does not convert the values first (rounds only the running sum)",
        "explanation": "",
        "section": "",
        "why": "does not convert the values first (rounds only the running sum)",
        "source": """
def sequential_sum(values, dtype):
    scalar = np.dtype(dtype).type
    total = 0.0
    for item in np.asarray(values, dtype=np.float64):
        total = float(scalar(total + item))
    return float(total)
""",
    },
    {
        "id": "np-sum-in-dtype-pairwise-with-float32-pa",
        "function": "sequential_sum",
        "name": "np.sum in dtype (pairwise with float32 partials for float16)",
        "explanation": "",
        "section": "",
        "why": "np.sum in dtype (pairwise with float32 partials for float16)",
        "source": """
def sequential_sum(values, dtype):
    return float(np.sum(np.asarray(values).astype(dtype)))
""",
    },
    {
        "id": "returns-a-numpy-scalar-of-dtype-not-a-py",
        "function": "sequential_sum",
        "name": "returns a NumPy scalar of dtype, not a Python float",
        "explanation": "",
        "section": "",
        "why": "returns a NumPy scalar of dtype, not a Python float",
        "source": """
def sequential_sum(values, dtype):
    scalar = np.dtype(dtype).type
    total = scalar(0)
    for item in np.asarray(values).astype(dtype):
        total = scalar(total + item)
    return total
""",
    },
    # ---------------------------------------------------------- pairwise_sum
    {
        "id": "splits-at-n-1-2",
        "function": "pairwise_sum",
        "name": "splits at (n + 1) // 2",
        "explanation": "",
        "section": "",
        "why": "splits at (n + 1) // 2",
        "source": """
def pairwise_sum(values, dtype):
    scalar = np.dtype(dtype).type
    v = np.asarray(values).astype(dtype)
    def rec(w):
        n = len(w)
        if n == 0:
            return scalar(0)
        if n == 1:
            return w[0]
        return scalar(rec(w[: (n + 1) // 2]) + rec(w[(n + 1) // 2:]))
    return float(rec(v))
""",
    },
    {
        "id": "bottom-up-pairing-of-neighbours-a-differ",
        "function": "pairwise_sum",
        "name": "bottom-up pairing of neighbours (a different tree unless n is a power of 2)",
        "explanation": "",
        "section": "",
        "why": "bottom-up pairing of neighbours (a different tree unless n is a power of 2)",
        "source": """
def pairwise_sum(values, dtype):
    scalar = np.dtype(dtype).type
    level = list(np.asarray(values).astype(dtype))
    if not level:
        return 0.0
    while len(level) > 1:
        nxt = [scalar(level[i] + level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return float(level[0])
""",
    },
    {
        "id": "recursion-in-float64-rounded-to-dtype-on",
        "function": "pairwise_sum",
        "name": "recursion in float64, rounded to dtype only at the end",
        "explanation": "",
        "section": "",
        "why": "recursion in float64, rounded to dtype only at the end",
        "source": """
def pairwise_sum(values, dtype):
    v = np.asarray(values).astype(dtype).astype(np.float64)
    def rec(w):
        n = len(w)
        if n == 0:
            return 0.0
        if n == 1:
            return float(w[0])
        return rec(w[: n // 2]) + rec(w[n // 2:])
    return float(np.float64(rec(v)).astype(dtype))
""",
    },
    {
        "id": "does-not-convert-the-values-first-only-s",
        "function": "pairwise_sum",
        "name": "does not convert the values first (only sums are rounded)",
        "explanation": "",
        "section": "",
        "why": "does not convert the values first (only sums are rounded)",
        "source": """
def pairwise_sum(values, dtype):
    scalar = np.dtype(dtype).type
    v = np.asarray(values, dtype=np.float64)
    def rec(w):
        n = len(w)
        if n == 0:
            return 0.0
        if n == 1:
            return float(w[0])
        return float(scalar(rec(w[: n // 2]) + rec(w[n // 2:])))
    return float(rec(v))
""",
    },
    {
        "id": "a-single-value-is-returned-unconverted",
        "function": "pairwise_sum",
        "name": "a single value is returned unconverted",
        "explanation": "",
        "section": "",
        "why": "a single value is returned unconverted",
        "source": """
def pairwise_sum(values, dtype):
    scalar = np.dtype(dtype).type
    if len(values) == 1:
        return float(values[0])
    v = np.asarray(values).astype(dtype)
    def rec(w):
        n = len(w)
        if n == 0:
            return scalar(0)
        if n == 1:
            return w[0]
        return scalar(rec(w[: n // 2]) + rec(w[n // 2:]))
    return float(rec(v))
""",
    },
    # ------------------------------------------------------------ bf16_round
    {
        "id": "returns-a-numpy-scalar-not-an-ndarray-fo",
        "function": "bf16_round",
        "name": "returns a NumPy scalar, not an ndarray, for a 0-d input (ufuncs on 0-d arrays return scalars)",
        "explanation": "",
        "section": "",
        "why": "returns a NumPy scalar, not an ndarray, for a 0-d input (ufuncs on 0-d arrays return scalars)",
        "source": """
def bf16_round(x):
    u = x.view(np.uint32)
    nan = (u & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    u = np.where(nan, (u & np.uint32(0xFFFF0000)) | np.uint32(0x00400000), u).astype(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    out = (u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    return out.view(np.float32)
""",
    },
    # -------------------------------------------------------- sequential_sum
    {
        "id": "converts-the-values-via-float32-double-r",
        "function": "sequential_sum",
        "name": "converts the values via float32 (double rounding of float64 inputs)",
        "explanation": "",
        "section": "",
        "why": "converts the values via float32 (double rounding of float64 inputs)",
        "source": """
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    s = t(0)
    for v in np.asarray(values, dtype=np.float32).astype(np.dtype(dtype)):
        s = t(s + v)
    return float(s)
""",
    },
    {
        "id": "starts-the-running-sum-at-v-0-empty-inpu",
        "function": "sequential_sum",
        "name": "starts the running sum at v[0] (empty input guarded): [-0.0] or [-0.0, -0.0] give -0.0, but 0 + -0 = +0",
        "explanation": "",
        "section": "",
        "why": "starts the running sum at v[0] (empty input guarded): [-0.0] or [-0.0, -0.0] give -0.0, but 0 + -0 = +0",
        "source": """
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    v = np.asarray(values, dtype=np.dtype(dtype)).ravel()
    if v.size == 0:
        return 0.0
    s = v[0]
    for x in v[1:]:
        s = t(s + x)
    return float(s)
""",
    },
    # ---------------------------------------------------------- pairwise_sum
    {
        "id": "converts-through-jnp-array-values-float3",
        "function": "pairwise_sum",
        "name": "converts through jnp.array(values) (float32 by default) and then to dtype: double rounding of the inputs",
        "explanation": "",
        "section": "",
        "why": "converts through jnp.array(values) (float32 by default) and then to dtype: double rounding of the inputs",
        "source": """
def pairwise_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.asarray(jnp.array(values, dtype=jnp.float32)).astype(dt) if len(values) else np.zeros(0, dt)

    def rec(a):
        n = len(a)
        if n == 0:
            return dt.type(0)
        if n == 1:
            return a[0]
        return dt.type(rec(a[:n // 2]) + rec(a[n // 2:]))

    return float(rec(v))
""",
    },
    # -------------------------------------------------------- sequential_sum
    {
        "id": "converts-in-place-a-float64-ndarray-argu",
        "function": "sequential_sum",
        "name": "converts in place: a float64 ndarray argument is overwritten with its dtype-rounded values",
        "explanation": "",
        "section": "",
        "why": "converts in place: a float64 ndarray argument is overwritten with its dtype-rounded values",
        "source": """
def sequential_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.asarray(values, dtype=np.float64)
    v[...] = v.astype(dt)
    s = dt.type(0)
    for x in v:
        s = dt.type(s + dt.type(x))
    return float(s)
""",
    },
    # ---------------------------------------------------------- pairwise_sum
    {
        "id": "converts-in-place-a-float64-ndarray-argu",
        "function": "pairwise_sum",
        "name": "converts in place: a float64 ndarray argument is overwritten with its dtype-rounded values",
        "explanation": "",
        "section": "",
        "why": "converts in place: a float64 ndarray argument is overwritten with its dtype-rounded values",
        "source": """
def pairwise_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.asarray(values, dtype=np.float64)
    v[...] = v.astype(dt)
    def rec(lo, hi):
        if hi - lo == 0:
            return dt.type(0)
        if hi - lo == 1:
            return dt.type(v[lo])
        mid = lo + (hi - lo) // 2
        return dt.type(rec(lo, mid) + rec(mid, hi))
    return float(rec(0, len(v)))
""",
    },
    # -------------------------------------------------------- sequential_sum
    {
        "id": "converts-a-list-argument-in-place-values",
        "function": "sequential_sum",
        "name": "converts a list argument in place (values[i] = float(dtype(values[i]))): the caller's list is rounded",
        "explanation": "",
        "section": "",
        "why": "converts a list argument in place (values[i] = float(dtype(values[i]))): the caller's list is rounded",
        "source": """
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    for i in range(len(values)):
        values[i] = float(t(values[i]))
    s = t(0)
    for x in values:
        s = t(s + t(x))
    return float(s)
""",
    },
]
