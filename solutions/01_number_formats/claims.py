# ruff: noqa: E501  (claims are one-line expressions)
"""Claims backing the explanations of solutions/01_number_formats/mistakes.py (tests/test_claims.py)."""

HELPERS = """
def row(name):
    return next(r for r in format_table() if r["name"] == name)


def f32(*values):
    return np.array(values, np.float32)


def from_bits(*words):
    return np.array(words, np.uint32).view(np.float32)


def after_call(fn, array):
    fn(array, ml_dtypes.bfloat16)
    return array


NEAR_TIE = 1 + 2**-8 + 2**-40  # above a bfloat16 tie in float64, exactly the tie in float32
"""

CLAIMS = {
    "format_table:nmant-plus-one": [
        '[r["mantissa_bits"] for r in format_table()] == [24, 8, 11, 4, 3]',
        "ml_dtypes.finfo(ml_dtypes.bfloat16).nmant == 7",
    ],
    "format_table:e4m3-not-e4m3fn": [
        'row("float8_e4m3fn")["max"] == 240.0',
        "float(ml_dtypes.finfo(ml_dtypes.float8_e4m3fn).max) == 448.0",
        "np.isinf(float(np.array(0x78, np.uint8).view(ml_dtypes.float8_e4m3)))",
        "np.isnan(float(np.array(0x7F, np.uint8).view(ml_dtypes.float8_e4m3fn)))",
        "float(np.array(0x7E, np.uint8).view(ml_dtypes.float8_e4m3fn)) == 448.0",
    ],
    "format_table:smallest-subnormal": [
        'row("float32")["smallest_normal"] == 2.0**-149',
        'row("bfloat16")["smallest_normal"] < float(ml_dtypes.finfo(ml_dtypes.bfloat16).smallest_normal) / 100',
    ],
    "format_table:exponent-bits-no-sign": [
        '[r["exponent_bits"] for r in format_table()] == [9, 9, 6, 5, 6]',
        "[ml_dtypes.finfo(t).nexp for t in FORMATS] == [8, 8, 5, 4, 5]",
    ],
    "format_table:eps-as-unit-roundoff": [
        'row("bfloat16")["eps"] == 2.0**-8',
        '[2 * r["eps"] for r in format_table()] == [float(ml_dtypes.finfo(t).eps) for t in FORMATS]',
        "float(np.nextafter(np.float32(1), np.float32(2))) - 1 == float(ml_dtypes.finfo(np.float32).eps)",
    ],
    "bf16_round:float16-not-bfloat16": [
        "np.isinf(bf16_round(f32(1e5))[0])",
        "np.isfinite(reference['bf16_round'](f32(1e5))[0])",
        "bf16_round(f32(1 + 2**-9))[0] == 1 + 2**-9",
        "reference['bf16_round'](f32(1 + 2**-9))[0] == 1.0",
    ],
    "bf16_round:truncates": [
        "bf16_round(f32(1 + 2**-7 - 2**-20, -(1 + 2**-7 - 2**-20))).tolist() == [1.0, -1.0]",
        "bool(np.all(bf16_round(f32(*np.linspace(-3, 3, 101))) ** 2 <= f32(*np.linspace(-3, 3, 101)) ** 2))",
    ],
    "bf16_round:ties-away-from-zero": [
        "bf16_round(f32(1 + 2**-8, -(1 + 2**-8))).tolist() == [1 + 2**-7, -(1 + 2**-7)]",
        "reference['bf16_round'](f32(1 + 2**-8, -(1 + 2**-8))).tolist() == [1.0, -1.0]",
    ],
    "bf16_round:nan-not-handled": [
        "np.isinf(bf16_round(from_bits(0x7F800001))[0])",
        "bf16_round(from_bits(0x7FFFFFFF)).view(np.uint32)[0] >> 31 == 1",
        "np.isnan(reference['bf16_round'](from_bits(0x7F800001, 0x7FFFFFFF))).all()",
    ],
    "bf16_round:nan-checked-after-rounding": [
        "np.isinf(bf16_round(from_bits(0x7F800001))[0])",
        "bf16_round(from_bits(0xFFFFFFFF))[0] == 0.0",
    ],
    "bf16_round:tie-bit-15": [
        "bf16_round(f32(1 + 2**-8, -(1 + 2**-8), 1 + 3 * 2**-8)).tolist() == [1 + 2**-7, -(1 + 2**-7), 1 + 2**-6]",
        "reference['bf16_round'](f32(1 + 2**-8)).tolist() == [1.0]",
    ],
    "bf16_round:flushes-subnormals": [
        "bf16_round(f32(1e-39, -1e-39)).view(np.uint32).tolist() == [0, 0x80000000]",
        "float(np.float32(1e-39).astype(ml_dtypes.bfloat16)) != 0.0",
    ],
    "bf16_round:saturates-overflow": [
        "bf16_round(f32(3.4e38))[0] == float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)",
        "np.isinf(float(np.float32(3.4e38).astype(ml_dtypes.bfloat16)))",
    ],
    "bf16_round:scalar-for-0d": [
        "not isinstance(bf16_round(np.array(1.5, np.float32)), np.ndarray)",
        "type(np.add(np.array(1, np.uint32), np.uint32(1))) is np.uint32",
    ],
    "sequential_sum:float64-accumulator": [
        "sequential_sum([0.01] * 4096, ml_dtypes.bfloat16) == 41.0",
        "reference['sequential_sum']([0.01] * 4096, ml_dtypes.bfloat16) == 4.0",
    ],
    "sequential_sum:float32-accumulator": [
        "sequential_sum([0.01] * 4096, ml_dtypes.bfloat16) == 41.0",
        "sequential_sum([1.0, 2**-8, 2**-8], ml_dtypes.bfloat16) == 1 + 2**-7",
    ],
    "sequential_sum:right-to-left": [
        "sequential_sum([1.0, 2**-8, 2**-8], ml_dtypes.bfloat16) == 1 + 2**-7",
        "reference['sequential_sum']([1.0, 2**-8, 2**-8], ml_dtypes.bfloat16) == 1.0",
    ],
    "sequential_sum:np-sum": [
        "round(sequential_sum([0.01] * 4096, np.float16), 2) == 40.97",
        "reference['sequential_sum']([0.01] * 4096, np.float16) == 32.0",
        "sequential_sum([0.01] * 4096, ml_dtypes.bfloat16) == 4.0",
        "sequential_sum([0.01] * 4096, np.float32) != reference['sequential_sum']([0.01] * 4096, np.float32)",
    ],
    "pairwise_sum:float64-recursion": [
        "pairwise_sum([1.0, 2**-8, 2**-8, 2**-8], ml_dtypes.bfloat16) == 1 + 2**-6",
        "reference['pairwise_sum']([1.0, 2**-8, 2**-8, 2**-8], ml_dtypes.bfloat16) == 1 + 2**-7",
    ],
    "sequential_sum:double-rounding-via-float32": [
        "float(np.float32(NEAR_TIE)) == 1 + 2**-8",
        "sequential_sum([NEAR_TIE], ml_dtypes.bfloat16) == 1.0",
        "reference['sequential_sum']([NEAR_TIE], ml_dtypes.bfloat16) == 1 + 2**-7",
    ],
    "sequential_sum:starts-at-first-value": [
        "math.copysign(1, sequential_sum([-0.0, -0.0], np.float32)) == -1",
        "math.copysign(1, 0.0 + -0.0) == 1",
    ],
    "pairwise_sum:double-rounding-via-float32": [
        "pairwise_sum([NEAR_TIE], ml_dtypes.bfloat16) == 1.0",
        "reference['pairwise_sum']([NEAR_TIE], ml_dtypes.bfloat16) == 1 + 2**-7",
    ],
    "sequential_sum:modifies-input-array": [
        "after_call(sequential_sum, np.array([0.01]))[0] == float(np.float64(0.01).astype(ml_dtypes.bfloat16))",
        "after_call(reference['sequential_sum'], np.array([0.01]))[0] == 0.01",
    ],
    "pairwise_sum:modifies-input-array": [
        "after_call(pairwise_sum, np.array([0.01]))[0] == float(np.float64(0.01).astype(ml_dtypes.bfloat16))",
        "after_call(reference['pairwise_sum'], np.array([0.01]))[0] == 0.01",
    ],
}

# (entry, another entry of the same function): the first's claims are not all True for the second's
# source, so the claims say something about their own entry's code (tests/test_claims.py)
DISTINCT = [
    ("format_table:e4m3-not-e4m3fn", "format_table:nmant-plus-one"),
    ("bf16_round:ties-away-from-zero", "bf16_round:truncates"),
    ("sequential_sum:right-to-left", "sequential_sum:np-sum"),
]
