"""Held-out wrong answers for 06_block_scaled_formats (see README.md)."""

HELDOUT = [
    {
        "key": "06_block_scaled_formats:mx_dequantize:divides-by-scale",
        "function": "mx_dequantize",
        "why": "held-out: division, scales broadcast by reshaping",
        "source": """
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(scales).astype(np.float32)
    shaped = e.reshape(*e.shape[:-1], e.shape[-1] // block, block)
    return (shaped / s[..., None]).reshape(e.shape).astype(np.float32)
""",
    },
    {
        "key": "06_block_scaled_formats:mx_dequantize:tile-not-repeat",
        "function": "mx_dequantize",
        "why": "held-out: np.tile along the last axis",
        "source": """
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(scales).astype(np.float32)
    reps = [1] * (s.ndim - 1) + [block]
    return (e * np.tile(s, reps)).astype(np.float32)
""",
    },
    {
        "key": "06_block_scaled_formats:nvfp4_dequantize:no-tensor-scale",
        "function": "nvfp4_dequantize",
        "why": "held-out: block scales only",
        "source": """
def nvfp4_dequantize(elements, block_scales, tensor_scale):
    e = np.asarray(elements).astype(np.float32)
    s = np.asarray(block_scales).astype(np.float32)
    out = e.reshape(*e.shape[:-1], -1, 16) * s[..., None]
    return out.reshape(e.shape).astype(np.float32)
""",
    },
    {
        "key": "06_block_scaled_formats:mx_dequantize:returns-bfloat16",
        "function": "mx_dequantize",
        "why": "held-out: the product kept in bfloat16",
        "source": """
def mx_dequantize(elements, scales, block=32):
    e = np.asarray(elements).astype(ml_dtypes.bfloat16)
    s = np.repeat(np.asarray(scales).astype(ml_dtypes.bfloat16), block, axis=-1)
    return e * s
""",
    },
]
