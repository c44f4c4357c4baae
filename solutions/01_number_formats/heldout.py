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
]
