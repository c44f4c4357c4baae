"""Held-out wrong answers for 01_number_formats (see README.md): each names the library's
mistake it makes (``key``) and is written without looking at that mistake's code."""

HELDOUT = [
    {
        "key": "01_number_formats:sequential_sum:right-to-left",
        "function": "sequential_sum",
        "why": "held-out: walks the values backwards",
        "source": """
def sequential_sum(values, dtype):
    kind = np.dtype(dtype).type
    vals = [kind(v) for v in np.asarray(values, dtype=np.float64).reshape(-1)]
    total = kind(0)
    i = len(vals) - 1
    while i >= 0:
        total = kind(total + vals[i])
        i -= 1
    return float(total)
""",
    },
    {
        "key": "01_number_formats:sequential_sum:float64-accumulator",
        "function": "sequential_sum",
        "why": "held-out: math.fsum-free float64 loop, one cast at the end",
        "source": """
def sequential_sum(values, dtype):
    kind = np.dtype(dtype).type
    acc = 0.0
    for v in np.asarray(values, dtype=np.float64).reshape(-1):
        acc += float(kind(v))
    return float(kind(acc))
""",
    },
    {
        "key": "01_number_formats:pairwise_sum:split-ceil-half",
        "function": "pairwise_sum",
        "why": "held-out: the larger half first",
        "source": """
def pairwise_sum(values, dtype):
    kind = np.dtype(dtype).type
    v = np.asarray(values, dtype=np.float64).reshape(-1).astype(dtype)

    def rec(lo, hi):
        n = hi - lo
        if n == 0:
            return kind(0)
        if n == 1:
            return v[lo]
        mid = lo + (n + 1) // 2
        return kind(rec(lo, mid) + rec(mid, hi))

    return float(rec(0, len(v)))
""",
    },
    {
        "key": "01_number_formats:format_table:eps-as-unit-roundoff",
        "function": "format_table",
        "why": "held-out: eps as 2**-(nmant + 1)",
        "source": """
def format_table():
    table = []
    for name in ("float32", "bfloat16", "float16", "float8_e4m3fn", "float8_e5m2"):
        info = ml_dtypes.finfo(getattr(ml_dtypes, name, None) or np.dtype(name))
        table.append(dict(name=name, bits=int(info.bits), exponent_bits=int(info.nexp),
                          mantissa_bits=int(info.nmant), eps=float(2.0 ** -(int(info.nmant) + 1)),
                          max=float(info.max), smallest_normal=float(info.smallest_normal)))
    return table
""",
    },
    {
        "key": "01_number_formats:bf16_round:float16-not-bfloat16",
        "function": "bf16_round",
        "why": "held-out: float16 round trip",
        "source": """
def bf16_round(x):
    arr = np.asarray(x, dtype=np.float32)
    with np.errstate(over="ignore"):
        return arr.astype(np.float16).astype(np.float32)
""",
    },
    {
        "key": "01_number_formats:format_table:e4m3-not-e4m3fn",
        "function": "format_table",
        "why": "held-out, second writer: (label, dtype) pairs, dict(...) rows, e4m3 dtype under the e4m3fn label",
        "source": """
def format_table():
    spec = [
        ("float32", np.float32),
        ("bfloat16", ml_dtypes.bfloat16),
        ("float16", np.float16),
        ("float8_e4m3fn", ml_dtypes.float8_e4m3),
        ("float8_e5m2", ml_dtypes.float8_e5m2),
    ]
    table = []
    for label, kind in spec:
        info = ml_dtypes.finfo(kind)
        table.append(dict(name=label, bits=int(info.bits), exponent_bits=int(info.nexp),
                          mantissa_bits=int(info.nmant), eps=info.eps, max=info.max,
                          smallest_normal=info.smallest_normal))
    return table
""",
    },
    {
        "key": "01_number_formats:bf16_round:ties-away-from-zero",
        "function": "bf16_round",
        "why": "held-out, second writer: sign/magnitude split, adds 0x8000 to the magnitude (round half up)",
        "source": """
def bf16_round(x):
    arr = np.asarray(x, dtype=np.float32)
    bits = arr.view(np.uint32).copy()
    sign = bits & np.uint32(0x80000000)
    mag = bits & np.uint32(0x7FFFFFFF)
    nan = mag > np.uint32(0x7F800000)
    mag = np.where(nan, np.uint32(0), mag)
    mag = (mag + np.uint32(0x8000)) & np.uint32(0xFFFF0000)
    out = np.asarray(np.where(nan, np.uint32(0x7FC00000), mag) | sign, dtype=np.uint32)
    return np.asarray(out.view(np.float32), dtype=np.float32)
""",
    },
    {
        "key": "01_number_formats:bf16_round:saturates-overflow",
        "function": "bf16_round",
        "why": "held-out, second writer: np.right_shift/isnan/isinf masks, clamps finite overflow to 0x7F7F",
        "source": """
def bf16_round(x):
    arr = np.array(x, dtype=np.float32, copy=True)
    u = arr.view(np.uint32)
    is_nan = np.isnan(arr)
    is_inf = np.isinf(arr)
    keep = np.right_shift(u, np.uint32(16)) & np.uint32(1)
    r = np.where(is_nan, np.uint32(0), u)
    r = (r + np.uint32(0x7FFF) + keep) & np.uint32(0xFFFF0000)
    # a finite input should stay finite: clamp to the largest bfloat16
    blew_up = ((r & np.uint32(0x7FFFFFFF)) == np.uint32(0x7F800000)) & ~is_inf
    r = np.where(blew_up, (r & np.uint32(0x80000000)) | np.uint32(0x7F7F0000), r)
    r = np.where(is_nan, u | np.uint32(0x7FC00000), r)
    return np.asarray(np.asarray(r, dtype=np.uint32).view(np.float32), dtype=np.float32)
""",
    },
    {
        "key": "01_number_formats:sequential_sum:no-convert-first",
        "function": "sequential_sum",
        "why": "held-out, second writer: Python floats, dtype scalar constructor around each partial sum",
        "source": """
def sequential_sum(values, dtype):
    make = np.dtype(dtype).type
    running = make(0)
    for v in list(values):
        running = make(float(running) + float(v))
    return float(running)
""",
    },
    {
        "key": "01_number_formats:pairwise_sum:bottom-up-pairs",
        "function": "pairwise_sum",
        "why": "held-out, second writer: iterative level-by-level list reduction, no recursion",
        "source": """
def pairwise_sum(values, dtype):
    t = np.dtype(dtype).type
    level = list(np.asarray(values).astype(dtype))
    if not level:
        return 0.0
    while len(level) > 1:
        nxt = [t(level[i] + level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return float(level[0])
""",
    },
]
