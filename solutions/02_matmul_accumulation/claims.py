# ruff: noqa: E501  (claims are one-line expressions)
"""Claims backing the explanations of solutions/02_matmul_accumulation/mistakes.py (tests/test_claims.py).

Claims about what a TPU computes read the chip's recorded outputs (tests/data/tpu/tpu_golden.npz,
lesson 02's data as ``l02_*``, K = 1024 as ``k1024_*``); claims about the CPU run the entry."""

HELPERS = """
import functools

TPU = np.load(DATA / "tpu" / "tpu_golden.npz")


def chip_error(prefix, name):
    exact = TPU[prefix + "_x"].astype(np.float64) @ TPU[prefix + "_w"].astype(np.float64)
    return float(np.abs(TPU[prefix + "_" + name].astype(np.float64) - exact).max())


def column(rows, key):
    return [r[key] for r in rows]


def raises(fn, *args):
    try:
        fn(*args)
    except Exception:
        return True
    return False


def emu(x, w):
    return emulated_bf16_accumulation(np.array(x, np.float32), np.array(w, np.float32))


def errors(policies):
    return column(policies, "max_abs_err") + column(policies, "mean_abs_err")




@functools.cache
def mine():
    return evaluate_precision_policies()


@functools.cache
def ref():
    return reference["evaluate_precision_policies"]()
"""

CLAIMS = {
    "evaluate_precision_policies:float16-not-bfloat16": [
        "mine()[0]['max_abs_err'] * 4 < ref()[0]['max_abs_err']",
        "mine()[1]['max_abs_err'] * 4 < ref()[1]['max_abs_err']",
        "np.finfo(np.float16).nmant > ml_dtypes.finfo(ml_dtypes.bfloat16).nmant",
    ],
    "evaluate_precision_policies:int8-bytes-for-bf16": [
        "column(mine(), 'weight_bytes') == [16384, 16384, 16384]",
        "column(ref(), 'weight_bytes') == [32768, 32768, 16384]",
    ],
    "evaluate_precision_policies:per-row-scale": [
        "mine()[2]['scale_bytes'] == 4 * 256 and ref()[2]['scale_bytes'] == 4 * 64",
        "mine()[2]['max_abs_err'] != ref()[2]['max_abs_err']",
    ],
    "evaluate_precision_policies:scale-128": [
        "errors(mine())[:2] == errors(ref())[:2] and mine()[2]['max_abs_err'] != ref()[2]['max_abs_err']",
        "np.clip(np.round(np.float32(0.5) / np.float32(0.5 / 128)), -127, 127) == 127",
    ],
    "evaluate_precision_policies:reference-from-bf16-inputs": [
        "mine()[0]['max_abs_err'] == 0.0",
        "round(mine()[1]['max_abs_err'], 3) == 0.031",
        "round(ref()[1]['max_abs_err'], 3) == 0.055",
    ],
    "evaluate_precision_policies:default-precision-reference": [
        "bool((TPU['l02_default_jit'] == TPU['l02_bf16_f32out']).all())",
        "round(float(np.abs(TPU['l02_bf16_bf16out'] - TPU['l02_default_jit']).max()), 3) == 0.031",
        "np.allclose(errors(mine()), errors(ref()), rtol=0, atol=2e-5)",
    ],
    "evaluate_precision_policies:int8-matmul-default-precision": [
        "chip_error('l02', 'default_jit') > 1000 * chip_error('l02', 'highest_jit')",
        "np.allclose(errors(mine()), errors(ref()), rtol=0, atol=2e-5)",
    ],
    "evaluate_precision_policies:errors-truncated": [
        "all(0 <= r - m < 1.0001e-5 for r, m in zip(errors(ref()), errors(mine())))",
        "errors(mine()) != errors(ref())",
    ],
    "evaluate_precision_policies:labels-swapped": [
        "'bf16 output' in mine()[0]['policy'] and 'bf16 output' not in mine()[1]['policy']",
        "'bf16 output' in ref()[1]['policy'] and 'bf16 output' not in ref()[0]['policy']",
        "errors(mine()) == errors(ref())",
    ],
    "evaluate_precision_policies:int8-bytes-with-scales": [
        "mine()[2]['weight_bytes'] == 16384 + 256 and ref()[2]['weight_bytes'] == 16384",
        "mine()[2]['scale_bytes'] == ref()[2]['scale_bytes'] == 256 and errors(mine()) == errors(ref())",
    ],
    "evaluate_precision_policies:per-tensor-scale": [
        "mine()[2]['scale_bytes'] == 4 and ref()[2]['scale_bytes'] == 4 * 64",
        "mine()[2]['max_abs_err'] > ref()[2]['max_abs_err'] and mine()[2]['mean_abs_err'] > ref()[2]['mean_abs_err']",
    ],
    "evaluate_precision_policies:truncated-codes": [
        "1.5 * ref()[2]['mean_abs_err'] < mine()[2]['mean_abs_err'] < 2.5 * ref()[2]['mean_abs_err']",
        "np.asarray(jnp.asarray(-2.7).astype(jnp.int8)) == -2",
    ],
    "evaluate_precision_policies:seed-label-bf16-accum": [
        "'bf16 accum' in mine()[1]['policy'].lower() and 'bf16 out' in ref()[1]['policy'].lower()",
        "errors(mine()) == errors(ref())",
    ],
    "evaluate_precision_policies:errors-not-rounded": [
        "all(abs(m - r) <= 5e-6 for m, r in zip(errors(mine()), errors(ref())))",
        "any(round(m, 5) != m for m in errors(mine()))",
    ],
    "evaluate_precision_policies:label-claims-w8a8": [
        "'int32' in mine()[2]['policy'] and 'int32' not in ref()[2]['policy']",
        "errors(mine()) == errors(ref())",
    ],
    "evaluate_precision_policies:unrounded-inputs-default": [
        "mine()[0]['max_abs_err'] < 1e-4 < ref()[0]['max_abs_err']",
    ],
    "emulated_bf16_accumulation:f32-accumulator": [
        "emu(np.full((1, 4096), 0.01), np.ones((4096, 1)))[0, 0] == 41.0",
        "reference['emulated_bf16_accumulation'](np.full((1, 4096), 0.01, np.float32), np.ones((4096, 1), np.float32))[0, 0] == 4.0",
    ],
    "emulated_bf16_accumulation:float16-accumulator": [
        "np.finfo(np.float16).nmant - ml_dtypes.finfo(ml_dtypes.bfloat16).nmant == 3",
        "np.isinf(emu([[300.0, 300.0]], [[300.0], [300.0]])[0, 0])",
        "emu([[1.0, 2**-9]], [[1.0], [1.0]])[0, 0] == 1 + 2**-9",
    ],
    "emulated_bf16_accumulation:right-to-left": [
        "emu([[1.0, 2**-8, 2**-8]], [[1.0], [1.0], [1.0]])[0, 0] == 1 + 2**-7",
    ],
    "emulated_bf16_accumulation:products-rounded": [
        "emu([[1.0, 1 + 2**-7]], [[-1.0], [1 + 3 * 2**-7]])[0, 0] == 2**-5",
        "float(np.float32((1 + 2**-7) * (1 + 3 * 2**-7))) == (1 + 2**-7) * (1 + 3 * 2**-7)",
    ],
    "emulated_bf16_accumulation:inputs-not-rounded": [
        "emu([[-1.0, 1 + 2**-9]], [[1.0], [1.0]])[0, 0] == 2**-9",
    ],
    "emulated_bf16_accumulation:starts-at-first-product": [
        "raises(emu, np.zeros((2, 0)), np.zeros((0, 3)))",
        "emu(np.ones((2, 1)), np.ones((1, 3))).tolist() == [[1.0] * 3] * 2",
    ],
    "emulated_bf16_accumulation:unrounded-inputs-default": [
        "emu([[-1.0, 1 + 2**-9]], [[1.0], [1.0]])[0, 0] == 2**-9",
    ],
    "emulated_bf16_accumulation:starts-at-negative-zero": [
        "bool(np.signbit(emu(np.zeros((1, 0)), np.zeros((0, 1)))[0, 0]))",
        "bool(np.signbit(emu([[0.0]], [[-1.0]])[0, 0]))",
        "not np.signbit(emu([[0.0, 1.0]], [[-1.0], [0.0]])[0, 0])",
        "np.copysign(1, np.float32(-0.0) + np.float32(0.0)) == 1",
    ],
    "accumulation_error_curve:keys-swapped": [
        "accumulation_error_curve([256])['fp32_accum'] != reference['accumulation_error_curve']([256])['fp32_accum']",
        "round(reference['accumulation_error_curve']([256])['fp32_accum'][0], 5) == ref()[0]['max_abs_err']",
    ],
    "accumulation_error_curve:no-weight-scale": [
        "[m / r for m, r in zip(accumulation_error_curve([4, 64])['bf16_accum'], reference['accumulation_error_curve']([4, 64])['bf16_accum'])] == [4.0, 4.0]",
        "[m / r for m, r in zip(accumulation_error_curve([4, 64])['fp32_accum'], reference['accumulation_error_curve']([4, 64])['fp32_accum'])] == [4.0, 4.0]",
    ],
    "accumulation_error_curve:bf16-output-is-f32": [
        "accumulation_error_curve([64])['bf16_output'] == accumulation_error_curve([64])['fp32_accum']",
        "reference['accumulation_error_curve']([64])['bf16_output'] != reference['accumulation_error_curve']([64])['fp32_accum']",
    ],
    "accumulation_error_curve:default-precision-reference": [
        "bool((TPU['k1024_default_jit'] == TPU['k1024_bf16_f32out']).all())",
        "np.allclose(sum(accumulation_error_curve([16, 256]).values(), []), sum(reference['accumulation_error_curve']([16, 256]).values(), []), rtol=0, atol=1e-5)",
    ],
    "accumulation_error_curve:unrounded-inputs-default": [
        "accumulation_error_curve([256])['fp32_accum'][0] < 1e-4 < reference['accumulation_error_curve']([256])['fp32_accum'][0]",
    ],
    "accumulation_error_curve:high-precision-reference": [
        "100 <= chip_error('l02', 'high_jit') / chip_error('l02', 'highest_jit') < 121",
        "100 <= chip_error('k1024', 'high_jit') / chip_error('k1024', 'highest_jit') < 121",
        "np.allclose(sum(accumulation_error_curve([16, 256]).values(), []), sum(reference['accumulation_error_curve']([16, 256]).values(), []), rtol=0, atol=1e-5)",
    ],
    "emulated_bf16_accumulation:first-product-unrounded": [
        "emu([[1 + 2**-7]], [[1 + 2**-7]])[0, 0] == 1 + 2**-6 + 2**-14",
        "reference['emulated_bf16_accumulation'](np.array([[1 + 2**-7]], np.float32), np.array([[1 + 2**-7]], np.float32))[0, 0] == 1 + 2**-6",
        "raises(emu, np.ones((2, 0)), np.ones((0, 3)))",
    ],
    "emulated_bf16_accumulation:returns-bfloat16": [
        "emu([[1.0, 2.0]], [[3.0], [0.5]]).dtype == ml_dtypes.bfloat16",
        "np.array_equal(emu([[1.0, 2.0**-8, 2.0**-8]], [[1.0], [1.0], [1.0]]).astype(np.float32), np.array([[1.0]], np.float32))",
    ],
    "emulated_bf16_accumulation:truncates-running-sum": [
        "emu([[1.0, 1.0]], [[1.0], [2**-7 - 2**-12]])[0, 0] == 1.0",
        "emu([[-1.0, -1.0]], [[1.0], [2**-7 - 2**-12]])[0, 0] == -1.0",
        "reference['emulated_bf16_accumulation'](np.array([[1.0, 1.0]], np.float32), np.array([[1.0], [2**-7 - 2**-12]], np.float32))[0, 0] == 1 + 2**-7",
    ],
    "accumulation_error_curve:reference-from-bf16-inputs": [
        "accumulation_error_curve([1])['fp32_accum'] == [0.0]",
        "reference['accumulation_error_curve']([1])['fp32_accum'][0] > 1e-3",
        "accumulation_error_curve([64])['fp32_accum'][0] * 1000 < reference['accumulation_error_curve']([64])['fp32_accum'][0]",
    ],
    "accumulation_error_curve:errors-rounded-5-decimals": [
        "all(v == round(v, 5) for key in ('fp32_accum', 'bf16_output', 'bf16_accum') for v in accumulation_error_curve([4, 16])[key])",
        "all(abs(a - b) <= 5e-6 for key in ('fp32_accum', 'bf16_output', 'bf16_accum') for a, b in zip(accumulation_error_curve([4, 16])[key], reference['accumulation_error_curve']([4, 16])[key]))",
        "round(4e-6, 5) == 0.0",
    ],
    "accumulation_error_curve:key-per-k": [
        "accumulation_error_curve([4], seed=0)['fp32_accum'] != reference['accumulation_error_curve']([4], seed=0)['fp32_accum']",
        "accumulation_error_curve([4], seed=0)['fp32_accum'] == reference['accumulation_error_curve']([4], seed=4)['fp32_accum']",
    ],
}

# (entry, another entry of the same function): the first's claims are not all True for the second's
# source, so the claims say something about their own entry's code (tests/test_claims.py)
DISTINCT = [
    ("emulated_bf16_accumulation:products-rounded", "emulated_bf16_accumulation:inputs-not-rounded"),
    ("evaluate_precision_policies:int8-bytes-for-bf16", "evaluate_precision_policies:scale-128"),
]
