"""Held-out wrong answers for 02_matmul_accumulation (see README.md)."""

HELDOUT = [
    {
        "key": "02_matmul_accumulation:emulated_bf16_accumulation:f32-accumulator",
        "function": "emulated_bf16_accumulation",
        "why": "held-out: one float32 matmul of the bf16 inputs, then one rounding",
        "source": """
def emulated_bf16_accumulation(x, w):
    to_bf16 = lambda a: np.asarray(a, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    xb, wb = to_bf16(x), to_bf16(w)
    out = np.zeros((xb.shape[0], wb.shape[1]), np.float32)
    for k in range(xb.shape[1]):
        out += xb[:, k:k + 1] * wb[k:k + 1, :]
    return out.astype(ml_dtypes.bfloat16).astype(np.float32)
""",
    },
    {
        "key": "02_matmul_accumulation:emulated_bf16_accumulation:float16-accumulator",
        "function": "emulated_bf16_accumulation",
        "why": "held-out: a float16 running sum",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    wb = np.asarray(w, np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
    m, kk = xb.shape
    n = wb.shape[1]
    acc = np.zeros((m, n), np.float16)
    for k in range(kk):
        acc = (acc.astype(np.float32) + xb[:, k][:, None] * wb[k][None, :]).astype(np.float16)
    return acc.astype(np.float32)
""",
    },
    {
        "key": "02_matmul_accumulation:emulated_bf16_accumulation:inputs-not-rounded",
        "function": "emulated_bf16_accumulation",
        "why": "held-out: float32 inputs as they are",
        "source": """
def emulated_bf16_accumulation(x, w):
    a, b = np.asarray(x, np.float32), np.asarray(w, np.float32)
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(a.shape[1]):
        acc = (acc + np.outer(a[:, k], b[k])).astype(ml_dtypes.bfloat16).astype(np.float32)
    return acc
""",
    },
]
