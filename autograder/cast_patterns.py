"""What a TPU's compiler does with narrow casts inside ``jax.jit``: the patterns a student writes,
recorded on the chip as golden data (``python -m autograder.hardware casts --out DIR``).

Inside ``jax.jit`` XLA on a TPU may compute with more precision than the types say
(``--xla_allow_excess_precision``, default true; jax-ml/jax#6283): the rounding of a cast can
vanish. Where it vanishes depends on what the cast feeds (elementwise arithmetic, a reduction, a
matrix-vector or a matrix-matrix dot, a loop carry, the jit's output). Each pattern below is one
small function of seeded inputs; on the chip each runs inside ``jax.jit`` (and some eagerly too),
and what the chip returned is stored beside the inputs, with the compiled HLO the chip's compiler
made. The CPU emulation of the chip (emulate_precision.py) is held to these bits by
tests/test_golden_casts.py: every rule it applies comes from a pattern here, never from a guess.

Only stdlib, NumPy and JAX (ml_dtypes through JAX): this file runs on the accelerator's machine.
"""

from __future__ import annotations

import datetime
import gzip
import json
from pathlib import Path

import numpy as np

NPZ, META, HLO = "tpu_casts.npz", "tpu_casts.json", "tpu_casts_hlo.json.gz"

# The narrow float formats of the course, by jnp name
NARROW = ("bfloat16", "float16", "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn")
SHORT = {"bfloat16": "bf16", "float16": "f16", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2", "float4_e2m1fn": "e2m1"}


def inputs() -> dict[str, np.ndarray]:
    """The seeded inputs every pattern draws from (stored with the record: nothing is regenerated)."""
    rng = np.random.default_rng(20261206)
    normal = rng.standard_normal(1024)
    spread = rng.standard_normal(256) * 2.0 ** rng.integers(-30, 20, 256)
    special = [0.0, -0.0, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-11, 1 + 3 * 2**-11, 448.0, 449.0, 464.0, 480.0]
    special += [57344.0, 61439.0, 61440.0, 65504.0, 65520.0, 6.0, 7.0, 1.25, 1.75, 2.5, 5.0, -3.0, 0.3]
    # subnormal float32 values, and normal ones whose narrow roundings or products are subnormal
    special += [1e-45, -1e-45, 2.0**-133, 2.0**-127, -(2.0**-130), 2.0**-126, 2.0**-125, 1.5 * 2**-126]
    v = np.concatenate([normal, spread, np.array(special)]).astype(np.float32)
    v = np.concatenate([v, np.zeros((-len(v)) % 32, np.float32)])  # a multiple of 32 (reshapes)
    a = rng.standard_normal((64, 256)).astype(np.float32)
    b = (rng.standard_normal((256, 64)) * 0.25).astype(np.float32)
    return {
        "v": v,  # elementwise patterns
        "vi": np.where(np.isfinite(v) & (np.abs(v) < 3e38), v, 1.0).astype(np.float32),  # finite only
        "a": a,  # (64, 256): matrix-matrix dots with b
        "b": b,  # (256, 64)
        "u": rng.standard_normal(256).astype(np.float32),  # a vector: matrix-vector dots
        "col": rng.standard_normal((256, 1)).astype(np.float32),  # (256, 1): an N = 1 dot
        "a1": rng.standard_normal((64, 1)).astype(np.float32),  # K = 1: an outer product
        "b1": rng.standard_normal((1, 64)).astype(np.float32),
        "ba": rng.standard_normal((4, 32, 128)).astype(np.float32),  # batched dots
        "bb": rng.standard_normal((4, 128, 32)).astype(np.float32),
        "p": rng.uniform(0.0, 0.02, 1024).astype(np.float32),  # small positives: accumulation stalls
        "x2": rng.standard_normal((128, 16)).astype(np.float32),  # a regression problem (grad, scan)
        "y2": rng.standard_normal(128).astype(np.float32),
        "w2": (rng.standard_normal(16) * 0.1).astype(np.float32),
        "s": rng.uniform(0.5, 2.0, 64).astype(np.float32),  # positive scales (fp8/fp4 block scales)
    }


# Pattern: name -> (input names, source of a function of those inputs, also run eagerly?). The
# source sees jnp, jax, lax, np and the dtypes bf16, f16, e4m3, e5m2, e2m1, f32, i8, i32, HI.
PATTERNS: dict[str, tuple[tuple[str, ...], str, bool]] = {}


def _add(name: str, args: str, source: str, eager: bool = False) -> None:
    assert name not in PATTERNS, name
    PATTERNS[name] = (tuple(args.split()), source.strip(), eager)


for _t in NARROW:
    _s = SHORT[_t]
    # elementwise: a round trip, arithmetic on the narrow value, outputs of the narrow type
    _add(f"rt_{_s}", "v", f"lambda x: x.astype({_s}).astype(f32)", eager=True)
    _add(f"mul3_{_s}", "vi", f"lambda x: (x.astype({_s}) * 3).astype(f32)", eager=True)
    _add(f"out_{_s}", "v", f"lambda x: x.astype({_s})")
    _add(f"mul3out_{_s}", "vi", f"lambda x: x.astype({_s}) * 3")
    _add(f"residual_{_s}", "vi", f"lambda x: x - x.astype({_s}).astype(f32)", eager=True)
    # a cast feeding dots: matrix-matrix (bf16 accumulation hint and f32), f32 HIGHEST, matvec, K = 1
    _add(f"mm_{_s}", "a b", f"lambda a, b: jnp.dot(a.astype({_s}), b.astype({_s}), preferred_element_type=f32)")
    _add(
        f"mmrt_{_s}_highest",
        "a b",
        f"lambda a, b: jnp.dot(a.astype({_s}).astype(f32), b.astype({_s}).astype(f32), precision=HI)",
    )
    _add(f"mv_{_s}", "a u", f"lambda a, u: jnp.dot(a.astype({_s}), u.astype({_s}), preferred_element_type=f32)")
    _add(f"k1_{_s}", "a1 b1", f"lambda a, b: jnp.dot(a.astype({_s}), b.astype({_s}), preferred_element_type=f32)")

# bfloat16 in more shapes of code
_add("chain_bf16", "vi", "lambda x: ((x.astype(bf16) * 3 + 1).astype(bf16) * x.astype(bf16)).astype(f32)")
_add("div3_bf16", "vi", "lambda x: (x.astype(bf16) / 3).astype(f32)")
_add("max0_bf16", "vi", "lambda x: jnp.maximum(x.astype(bf16), 0).astype(f32)")
_add("abs_bf16", "vi", "lambda x: jnp.abs(x.astype(bf16)).astype(f32)")
_add("neg_bf16", "vi", "lambda x: (-x.astype(bf16)).astype(f32)")
_add("round_bf16", "vi", "lambda x: jnp.round(x.astype(bf16) * 4).astype(f32)")
_add("where_bf16", "vi", "lambda x: jnp.where(x > 0, x.astype(bf16), 0).astype(f32)")
_add("cmp_bf16", "vi", "lambda x: (x.astype(bf16) == x).astype(f32)")
_add("rt_bf16_f16", "vi", "lambda x: x.astype(bf16).astype(f16).astype(f32)")
_add("rt_f16_bf16", "vi", "lambda x: x.astype(f16).astype(bf16).astype(f32)")
_add("rt_e4m3_bf16", "vi", "lambda x: x.astype(e4m3).astype(bf16).astype(f32)")
_add("rt_bf16_twice", "vi", "lambda x: x.astype(bf16).astype(f32).astype(bf16).astype(f32)")
_add("to_int_bf16", "vi", "lambda x: jnp.clip(x * 100, -1e9, 1e9).astype(bf16).astype(i32)")
_add("to_int8_bf16", "vi", "lambda x: jnp.clip(x.astype(bf16) * 40, -127, 127).astype(i8)")
_add("bitcast_bf16", "vi", "lambda x: lax.bitcast_convert_type(x.astype(bf16), jnp.uint16).astype(jnp.int32)")
_add("rp_bf16", "v", "lambda x: lax.reduce_precision(x, 8, 7)", eager=True)
_add("rp_bf16_mul3", "vi", "lambda x: lax.reduce_precision(x, 8, 7) * 3")
_add("rp_e4m3", "v", "lambda x: lax.reduce_precision(x, 4, 3)")
# data movement between the cast and its way back
_add("reshape_bf16", "v", "lambda x: x.astype(bf16).reshape(-1, 32).T.astype(f32)")
_add("slice_bf16", "v", "lambda x: x.astype(bf16)[::2].astype(f32)")
_add("concat_bf16", "v", "lambda x: jnp.concatenate([x.astype(bf16), x[:8].astype(bf16)]).astype(f32)")
_add("gather_bf16", "v", "lambda x: x.astype(bf16)[jnp.arange(x.shape[0])[::-1]].astype(f32)")
_add("bcast_bf16", "vi", "lambda x: jnp.broadcast_to(x[:64].astype(bf16), (4, 64)).astype(f32) * 3")
_add("pad_bf16", "v", "lambda x: jnp.pad(x.astype(bf16), 3).astype(f32)")
# reductions of narrow values
_add("sum_bf16", "p", "lambda p: jnp.sum(p.astype(bf16)).astype(f32)")
_add("sum_bf16_out", "p", "lambda p: jnp.sum(p.astype(bf16))")
_add("sum_bf16_f32", "p", "lambda p: jnp.sum(p.astype(bf16), dtype=f32)")
_add("sum_rt_bf16", "p", "lambda p: jnp.sum(p.astype(bf16).astype(f32))")
_add("mean_bf16", "a", "lambda a: jnp.mean(a.astype(bf16), axis=1).astype(f32)")
_add("max_bf16", "a", "lambda a: jnp.max(a.astype(bf16), axis=0).astype(f32)")
_add("cumsum_bf16", "p", "lambda p: jnp.cumsum(p.astype(bf16)).astype(f32)", eager=True)
_add("absmax_scale_bf16", "a", "lambda a: (a.astype(bf16) / jnp.max(jnp.abs(a.astype(bf16)), axis=0)).astype(f32)")
# narrow arrays passed in (cast outside the jit: true narrow values)
_add("in_mul3_bf16", "vi", "lambda x: (x * 3).astype(f32)", eager=True)  # called with x already bf16
_add("in_add_bf16", "a", "lambda a: (a + a[::-1]).astype(f32)", eager=True)  # called with a already bf16
_add("in_sum_bf16", "p", "lambda p: jnp.sum(p).astype(f32)", eager=True)  # p already bf16
_add("in_mm_bf16", "a b", "lambda a, b: jnp.dot(a, b, preferred_element_type=f32)", eager=True)  # bf16 in
_add("in_mmout_bf16", "a b", "lambda a, b: jnp.dot(a, b, preferred_element_type=bf16).astype(f32)", eager=True)
_add("in_mv_bf16", "a u", "lambda a, u: jnp.dot(a, u, preferred_element_type=f32)", eager=True)
# dots: outputs, mixed operands, batches, einsum, matrix-vector and K = 1 in more forms
_add(
    "mmout_bf16",
    "a b",
    "lambda a, b: jnp.dot(a.astype(bf16), b.astype(bf16), preferred_element_type=bf16).astype(f32)",
    eager=True,
)
_add("mmout_bf16_keep", "a b", "lambda a, b: jnp.dot(a.astype(bf16), b.astype(bf16), preferred_element_type=bf16)")
_add(
    "mmout_bf16_plus",
    "a b",
    "lambda a, b: jnp.dot(a.astype(bf16), b.astype(bf16), preferred_element_type=bf16).astype(f32) + 0.5",
)
_add("mm_mixed_highest", "a b", "lambda a, b: jnp.dot(a.astype(bf16), b, precision=HI)")
_add("mm_mixed_default", "a b", "lambda a, b: jnp.dot(a.astype(bf16), b)")
_add("mm_lhs_only", "a b", "lambda a, b: jnp.dot(a.astype(bf16).astype(f32), b, precision=HI)")
_add(
    "mm_scaled_bf16", "a b", "lambda a, b: jnp.dot((a * 0.5).astype(bf16), b.astype(bf16), preferred_element_type=f32)"
)
_add("mm_after_mul_bf16", "a b", "lambda a, b: jnp.dot(a.astype(bf16) * 2, b.astype(bf16), preferred_element_type=f32)")
_add("mm_default_f32", "a b", "lambda a, b: jnp.dot(a, b)")
_add("bmm_bf16", "ba bb", "lambda a, b: jnp.matmul(a.astype(bf16), b.astype(bf16), preferred_element_type=f32)")
_add(
    "einsum_bf16",
    "a b",
    "lambda a, b: jnp.einsum('ik,kj->ij', a.astype(bf16), b.astype(bf16), preferred_element_type=f32)",
)
_add(
    "beinsum_bf16",
    "ba bb",
    "lambda a, b: jnp.einsum('bik,bkj->bij', a.astype(bf16), b.astype(bf16), preferred_element_type=f32)",
)
_add("mvcol_bf16", "a col", "lambda a, c: jnp.dot(a.astype(bf16), c.astype(bf16), preferred_element_type=f32)")
_add("vm_bf16", "u b", "lambda u, b: jnp.dot(u.astype(bf16), b.astype(bf16), preferred_element_type=f32)")
_add(
    "mvrt_bf16_highest",
    "a u",
    "lambda a, u: jnp.dot(a.astype(bf16).astype(f32), u.astype(bf16).astype(f32), precision=HI)",
)
_add("mv_default_f32", "a u", "lambda a, u: jnp.dot(a, u)")
_add(
    "k1rt_bf16_highest",
    "a1 b1",
    "lambda a, b: jnp.dot(a.astype(bf16).astype(f32), b.astype(bf16).astype(f32), precision=HI)",
)
_add("mm_n2_bf16", "a b", "lambda a, b: jnp.dot(a.astype(bf16), b[:, :2].astype(bf16), preferred_element_type=f32)")
_add("mm_k2_bf16", "a b", "lambda a, b: jnp.dot(a[:, :2].astype(bf16), b[:2].astype(bf16), preferred_element_type=f32)")
_add("mm_m2_bf16", "a b", "lambda a, b: jnp.dot(a[:2].astype(bf16), b.astype(bf16), preferred_element_type=f32)")
_add(
    "mm_int8",
    "a b",
    "lambda a, b: jnp.dot(jnp.round(a * 20).astype(i8), jnp.round(b * 80).astype(i8), preferred_element_type=i32)",
)
_add(
    "mm_int8_bf16",
    "a b",
    "lambda a, b: jnp.dot(jnp.round(a * 20).astype(i8).astype(bf16), jnp.round(b * 80).astype(i8).astype(bf16), preferred_element_type=f32)",
)
# fake quantization: scales, rounding, saturation in jit (lessons 03 and 06)
_add("fq_e4m3_scaled", "a s", "lambda a, s: ((a[:, :64] / s).astype(e4m3).astype(f32) * s)")
_add("fq_e2m1_scaled", "a s", "lambda a, s: ((a[:, :64] / s).astype(e2m1).astype(f32) * s)")
_add("scale_rt_e4m3", "s", "lambda s: s.astype(e4m3).astype(f32)")
_add("scale_div_e4m3", "a s", "lambda a, s: a[:, :64] / s.astype(e4m3).astype(f32)")
_add(
    "int8_fq",
    "a",
    "lambda a: jnp.clip(jnp.round(a / (jnp.max(jnp.abs(a), axis=0) / 127)), -127, 127).astype(i8).astype(f32) * (jnp.max(jnp.abs(a), axis=0) / 127)",
)
# loops: the running sum rounded after every addition (lesson 02's emulated bf16 accumulation)
_add(
    "py_loop_bf16",
    "p",
    """
def f(p):
    acc = jnp.zeros((), bf16)
    for i in range(256):
        acc = (acc + p[i].astype(bf16)).astype(bf16)
    return acc.astype(f32)
""",
)
_add(
    "py_loop_rt_f32",
    "p",
    """
def f(p):
    acc = jnp.zeros((), f32)
    for i in range(256):
        acc = (acc + p[i]).astype(bf16).astype(f32)
    return acc
""",
)
_add(
    "scan_carry_bf16",
    "p",
    """
def f(p):
    step = lambda c, x: ((c + x.astype(bf16)).astype(bf16), c)
    c, hist = lax.scan(step, jnp.zeros((), bf16), p)
    return jnp.concatenate([hist.astype(f32), c.astype(f32)[None]])
""",
    eager=True,
)
_add(
    "scan_carry_rt_f32",
    "p",
    """
def f(p):
    step = lambda c, x: ((c + x).astype(bf16).astype(f32), c)
    c, hist = lax.scan(step, jnp.zeros((), f32), p)
    return jnp.concatenate([hist, c[None]])
""",
    eager=True,
)
_add(
    "scan_carry_rp_f32",
    "p",
    """
def f(p):
    step = lambda c, x: (lax.reduce_precision(c + x, 8, 7), c)
    c, hist = lax.scan(step, jnp.zeros((), f32), p)
    return jnp.concatenate([hist, c[None]])
""",
)
_add(
    "fori_carry_bf16",
    "p",
    """
def f(p):
    body = lambda i, c: (c + p[i].astype(bf16)).astype(bf16)
    return lax.fori_loop(0, p.shape[0], body, jnp.zeros((), bf16)).astype(f32)
""",
)
_add(
    "fori_carry_rt_f32",
    "p",
    """
def f(p):
    body = lambda i, c: (c + p[i]).astype(bf16).astype(f32)
    return lax.fori_loop(0, p.shape[0], body, jnp.zeros((), f32))
""",
)
_add(
    "while_carry_bf16",
    "p",
    """
def f(p):
    cond = lambda ic: ic[0] < p.shape[0]
    body = lambda ic: (ic[0] + 1, (ic[1] + p[ic[0]].astype(bf16)).astype(bf16))
    return lax.while_loop(cond, body, (0, jnp.zeros((), bf16)))[1].astype(f32)
""",
)
_add(
    "while_carry_rt_f32",
    "p",
    """
def f(p):
    cond = lambda ic: ic[0] < p.shape[0]
    body = lambda ic: (ic[0] + 1, (ic[1] + p[ic[0]]).astype(bf16).astype(f32))
    return lax.while_loop(cond, body, (0, jnp.zeros((), f32)))[1]
""",
)
_add(
    "scan_vec_carry_bf16",
    "a",
    """
def f(a):
    step = lambda c, row: ((c + row.astype(bf16)).astype(bf16), None)
    return lax.scan(step, jnp.zeros(a.shape[1], bf16), a)[0].astype(f32)
""",
)
_add(
    "scan_rows_rt",
    "a",
    """
def f(a):
    step = lambda c, row: (c, row.astype(bf16).astype(f32) * 3)
    return lax.scan(step, 0.0, a)[1]
""",
)
# the training step of lesson 05: casts inside a scanned step, matrix-vector products
_add(
    "train_master",
    "x2 y2 w2",
    """
def f(x, y, w):
    xb = x.astype(bf16)
    def step(w, _):
        r = jnp.dot(xb, w.astype(bf16), preferred_element_type=f32) - y
        g = (2.0 / x.shape[0]) * jnp.dot(xb.T, r.astype(bf16), preferred_element_type=f32)
        return w - 0.1 * g, jnp.mean(r * r)
    return lax.scan(step, w, None, length=50)[1]
""",
)
_add(
    "train_bf16_params",
    "x2 y2 w2",
    """
def f(x, y, w):
    xb = x.astype(bf16)
    def step(w, _):
        r = jnp.dot(xb, w, preferred_element_type=f32) - y
        g = (2.0 / x.shape[0]) * jnp.dot(xb.T, r.astype(bf16), preferred_element_type=f32)
        return (w.astype(f32) - 0.1 * g).astype(bf16), jnp.mean(r * r)
    return lax.scan(step, w.astype(bf16), None, length=50)[1]
""",
)
_add(
    "train_master_rp",
    "x2 y2 w2",
    """
def f(x, y, w):
    xb = lax.reduce_precision(x, 8, 7)
    def step(w, _):
        r = jnp.dot(xb, lax.reduce_precision(w, 8, 7), precision=HI) - y
        g = (2.0 / x.shape[0]) * jnp.dot(xb.T, lax.reduce_precision(r, 8, 7), precision=HI)
        return w - 0.1 * g, jnp.mean(r * r)
    return lax.scan(step, w, None, length=50)[1]
""",
)
# grad through casts
_add(
    "grad_cast_mv",
    "x2 y2 w2",
    "lambda x, y, w: jax.grad(lambda w: jnp.mean((jnp.dot(x.astype(bf16), w.astype(bf16), preferred_element_type=f32) - y) ** 2))(w)",
)
_add("grad_cast_rt", "x2 y2 w2", "lambda x, y, w: jax.grad(lambda w: jnp.sum(w.astype(bf16).astype(f32) * x[0]))(w)")
_add(
    "grad_cast_mm",
    "a b",
    "lambda a, b: jax.grad(lambda a: jnp.sum(jnp.dot(a.astype(bf16), b.astype(bf16), preferred_element_type=f32) ** 2))(a)",
)
# nested jit, jnp functions that are jitted inside
_add("nested_jit_out", "v", "lambda x: jax.jit(lambda y: y.astype(bf16))(x).astype(f32)")
_add("nested_jit_rt", "vi", "lambda x: jax.jit(lambda y: (y.astype(bf16) * 3).astype(f32))(x)")
_add(
    "cond_bf16",
    "vi",
    "lambda x: lax.cond(x[0] > -100, lambda y: y.astype(bf16), lambda y: (-y).astype(bf16), x).astype(f32)",
)
# subnormal float32 values: flushed to zero or kept
_add("sub_mul1", "v", "lambda x: x * 1.0", eager=True)
_add("sub_add0", "v", "lambda x: x + 0.0", eager=True)
_add("sub_scale", "vi", "lambda x: x * 2.0**-120", eager=True)
_add("sub_ldexp", "vi", "lambda x: jnp.ldexp(x, -130)", eager=True)
_add("sub_pow2", "s", "lambda s: s * jnp.float32(2.0) ** -127", eager=True)
_add("sub_id", "v", "lambda x: x", eager=True)
_add("sub_mm", "a b", "lambda a, b: jnp.dot(a * 2.0**-70, b * 2.0**-70, precision=HI)", eager=True)

# -- the second recording: what student answers write, and the limits of the rules above --
# integer dots with float outputs (sums past 2^24: exact only with int32 accumulation)
_add(
    "mm_int8_f32out",
    "a b",
    "lambda a, b: jnp.dot(jnp.full((8, 4096), 127, i8), jnp.round(jnp.clip(b[:, :8].repeat(16, 0) * 500, -127, 127)).astype(i8) * 0 + jnp.int8(127), preferred_element_type=f32)",
)
_add(
    "mm_int8_bf16out",
    "a b",
    "lambda a, b: jnp.dot(jnp.round(a * 20).astype(i8), jnp.round(b * 80).astype(i8), preferred_element_type=bf16).astype(f32)",
)
_add(
    "mv_int8_f32out",
    "a u",
    "lambda a, u: jnp.dot(jnp.full((8, 4096), 127, i8), jnp.full(4096, 127, i8) - (u[:1] > 9).astype(i8), preferred_element_type=f32)",
)
# lesson 02: a running sum rounded to bf16 after every addition, written in jit in several ways
_add(
    "acc_vec_py_bf16",
    "a b",
    """
def f(a, b):
    acc = jnp.zeros((64, 64), bf16)
    for k in range(32):
        acc = (acc + (a[:, k:k + 1] * b[k:k + 1, :]).astype(bf16)).astype(bf16)
    return acc.astype(f32)
""",
)
_add(
    "acc_vec_py_rt",
    "a b",
    """
def f(a, b):
    acc = jnp.zeros((64, 64), f32)
    for k in range(32):
        acc = (acc + a[:, k:k + 1] * b[k:k + 1, :]).astype(bf16).astype(f32)
    return acc
""",
)
_add(
    "acc_vec_fori_bf16",
    "a b",
    """
def f(a, b):
    body = lambda k, acc: (acc + (lax.dynamic_slice_in_dim(a, k, 1, 1) * lax.dynamic_slice_in_dim(b, k, 1, 0)).astype(bf16)).astype(bf16)
    return lax.fori_loop(0, 64, body, jnp.zeros((64, 64), bf16)).astype(f32)
""",
)
_add(
    "acc_vec_fori_rt",
    "a b",
    """
def f(a, b):
    body = lambda k, acc: (acc + lax.dynamic_slice_in_dim(a, k, 1, 1) * lax.dynamic_slice_in_dim(b, k, 1, 0)).astype(bf16).astype(f32)
    return lax.fori_loop(0, 64, body, jnp.zeros((64, 64), f32))
""",
)
_add(
    "acc_vec_scan_rt",
    "a b",
    """
def f(a, b):
    step = lambda acc, ab: ((acc + ab[0][:, None] * ab[1][None, :]).astype(bf16).astype(f32), None)
    return lax.scan(step, jnp.zeros((64, 64), f32), (a.T[:64], b[:64]))[0]
""",
)
_add(
    "acc_vec_scan_rp",
    "a b",
    """
def f(a, b):
    step = lambda acc, ab: (lax.reduce_precision(acc + ab[0][:, None] * ab[1][None, :], 8, 7), None)
    return lax.scan(step, jnp.zeros((64, 64), f32), (a.T[:64], b[:64]))[0]
""",
)
_add(
    "acc_vec_scan_carry_bf16_rounded_in",
    "a b",
    """
def f(a, b):
    step = lambda acc, ab: ((acc.astype(f32) + ab[0].astype(bf16).astype(f32)[:, None] * ab[1].astype(bf16).astype(f32)[None, :]).astype(bf16), None)
    return lax.scan(step, jnp.zeros((64, 64), bf16), (a.T[:64], b[:64]))[0].astype(f32)
""",
)
# a pairwise (tree) sum in jit, as lesson 01 writes it
_add(
    "pairwise_bf16",
    "p",
    """
def f(p):
    def pw(v):
        if v.shape[0] == 1:
            return v[0]
        h = v.shape[0] // 2
        return (pw(v[:h]) + pw(v[h:])).astype(bf16)
    return pw(p[:64].astype(bf16)).astype(f32)
""",
)
# where the single-element rule ends: shapes (1,), (1, 1), (2,)
_add("one_elem_rt", "p", "lambda p: (p[:1] + p[1:2]).astype(bf16).astype(f32)")
_add("one_by_one_rt", "p", "lambda p: (p[:1].reshape(1, 1) * 3).astype(bf16).astype(f32)")
_add("two_elem_rt", "p", "lambda p: (p[:2] + p[2:4]).astype(bf16).astype(f32)")
_add("scalar_mul_rt", "p", "lambda p: (p[5] * 3).astype(bf16).astype(f32)")
# one cast, two uses
_add("two_uses_bf16", "vi", "lambda x: (lambda y: y.astype(f32) + (y * 3).astype(f32))(x.astype(bf16))")
_add("two_outputs_bf16", "vi", "lambda x: (lambda y: (y.astype(f32), (y * 2).astype(f32)))(x.astype(bf16))")
_add(
    "cast_feeds_dot_and_rt",
    "a b",
    "lambda a, b: (lambda y: jnp.dot(y, b.astype(bf16), preferred_element_type=f32).sum() + y.astype(f32))(a.astype(bf16))",
)
# loop bodies: vector work that depends on the carry
_add(
    "scan_body_vec_rt",
    "a",
    """
def f(a):
    def step(c, row):
        y = (c * row + 1).astype(bf16).astype(f32)
        return c + 0.5, y
    return lax.scan(step, jnp.ones(256, f32), a)[1]
""",
)
_add(
    "while_vec_rt",
    "u",
    """
def f(u):
    body = lambda ic: (ic[0] + 1, (ic[1] * 1.001 + 0.1).astype(bf16).astype(f32))
    return lax.while_loop(lambda ic: ic[0] < 20, body, (0, u))[1]
""",
)
_add(
    "scan_body_mm_bf16",
    "a b",
    """
def f(a, b):
    def step(w, _):
        y = jnp.dot(a.astype(bf16), w.astype(bf16), preferred_element_type=f32)
        return w - 0.01 * jnp.dot(a.T, y, precision=HI)[:, :64], y.sum()
    return lax.scan(step, b, None, length=5)[1]
""",
)
# reductions with a narrow result used in float32 arithmetic; an einsum matrix-vector product
_add("sum_axis_bf16_used", "a", "lambda a: jnp.sum(a.astype(bf16), axis=0).astype(f32) * 3")
_add(
    "einsum_mv_bf16",
    "a u",
    "lambda a, u: jnp.einsum('ij,j->i', a.astype(bf16), u.astype(bf16), preferred_element_type=f32)",
)
# fp8 / fp4 quantization in jit (lesson 06): stored outputs, scales, clipping
_add(
    "mx_elems_e4m3",
    "a",
    "lambda a: (a / 2.0 ** jnp.floor(jnp.log2(jnp.max(jnp.abs(a), axis=1, keepdims=True)))).astype(e4m3)",
)
_add("mx_roundtrip_e4m3", "a", "lambda a: (a / 0.25).astype(e4m3).astype(f32) * 0.25")
_add("nvfp4_elems", "a s", "lambda a, s: jnp.clip(a[:, :64] / (s.astype(e4m3).astype(f32) * 0.5), -6, 6).astype(e2m1)")
# the division and the conversion at the bottom of the bf16 range
_add("div_f32", "a s", "lambda a, s: a[:, :64] / s")
_add("recip_f32", "s", "lambda s: 1.0 / s")
_add("div_pow2_f32", "a", "lambda a: a / 0.25")
_add(
    "bf16_edge",
    "v",
    "lambda x: (jnp.float32(2.0 ** -126) * (1 - 2.0 ** -9) * jnp.sign(x[:8]) + x[:8] * 0).astype(bf16)",
    eager=True,
)

# Which inputs a pattern takes already in bf16 (cast on the host, passed in as bf16 arrays)
BF16_IN = {"in_mul3_bf16", "in_add_bf16", "in_sum_bf16", "in_mm_bf16", "in_mmout_bf16", "in_mv_bf16"}


def namespace() -> dict:
    """What a pattern's source sees."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    return {
        "jax": jax,
        "jnp": jnp,
        "lax": lax,
        "np": np,
        "bf16": jnp.bfloat16,
        "f16": jnp.float16,
        "e4m3": jnp.float8_e4m3fn,
        "e5m2": jnp.float8_e5m2,
        "e2m1": getattr(jnp, "float4_e2m1fn", None),
        "f32": jnp.float32,
        "i8": jnp.int8,
        "i32": jnp.int32,
        "HI": jax.lax.Precision.HIGHEST,
    }


def function(name: str, ns: dict | None = None):
    """The pattern's function, compiled from its source."""
    _, source, _ = PATTERNS[name]
    ns = dict(ns or namespace())
    if source.startswith("def "):
        exec(compile(source, f"<pattern {name}>", "exec"), ns)
        return ns["f"]
    return eval(compile(source, f"<pattern {name}>", "eval"), ns)


def arguments(name: str, data: dict[str, np.ndarray]) -> list:
    """The pattern's arguments as JAX arrays (bf16 for BF16_IN patterns)."""
    import jax.numpy as jnp

    args = [jnp.asarray(data[k]) for k in PATTERNS[name][0]]
    return [a.astype(jnp.bfloat16) for a in args] if name in BF16_IN else args


def as_stored(value) -> np.ndarray:
    """An output as stored: narrow floats widened to float32 (exact), other dtypes as they are."""
    value = np.asarray(value)
    return value.astype(np.float32) if value.dtype.kind in "fV" and value.dtype.itemsize < 4 else value


def compute(jit: bool = True, names=None, data=None) -> tuple[dict, dict, dict]:
    """Run every pattern on this process's default backend: (outputs, output dtypes, failures)."""
    import jax

    data = data if data is not None else inputs()
    ns = namespace()
    out, dtypes, failed = {}, {}, {}
    for name in names or PATTERNS:
        if not jit and not PATTERNS[name][2]:
            continue
        key = name + ("_jit" if jit else "_eager")
        try:
            f = function(name, ns)
            value = jax.block_until_ready((jax.jit(f) if jit else f)(*arguments(name, data)))
        except Exception as exc:  # noqa: BLE001  a dtype or op this backend refuses: recorded, not fatal
            failed[key] = f"{type(exc).__name__}: {str(exc)[:300]}"
            continue
        dtypes[key] = str(np.asarray(value).dtype)
        out[key] = as_stored(value)
    return out, dtypes, failed


def compiled_hlo(names=None, data=None) -> dict[str, str]:
    """The optimized HLO this backend's compiler made of each pattern inside jit (the evidence for
    where a rounding stays), or the reason it could not be had."""
    import jax

    data = data if data is not None else inputs()
    ns = namespace()
    texts = {}
    for name in names or PATTERNS:
        try:
            texts[name] = jax.jit(function(name, ns)).lower(*arguments(name, data)).compile().as_text()
        except Exception as exc:  # noqa: BLE001
            texts[name] = f"(no HLO: {type(exc).__name__}: {str(exc)[:200]})"
    return texts


def write(out: Path) -> dict:
    """Record every pattern on this backend: OUT/tpu_casts.npz (inputs and outputs), tpu_casts.json
    (what each is, the backend, versions, date) and tpu_casts_hlo.json.gz (the compiled HLO)."""
    from .golden import environment

    data = inputs()
    jit_out, jit_dtypes, jit_failed = compute(True, data=data)
    eager_out, eager_dtypes, eager_failed = compute(False, data=data)
    arrays = {f"in_{k}": v for k, v in data.items()} | jit_out | eager_out
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / NPZ, **arrays)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        **environment(),
        "patterns": {
            n: {"inputs": list(a), "source": s, "eager": e, "bf16_in": n in BF16_IN}
            for n, (a, s, e) in PATTERNS.items()
        },
        "dtypes": jit_dtypes | eager_dtypes,
        "failed": jit_failed | eager_failed,
        "npz_bytes": (out / NPZ).stat().st_size,
    }
    (out / META).write_text(json.dumps(meta, indent=1) + "\n")
    with gzip.open(out / HLO, "wt", encoding="utf-8") as f:
        json.dump(compiled_hlo(data=data), f)
    return meta


def load(folder: Path) -> tuple[dict[str, np.ndarray], dict]:
    """The recorded arrays (inputs as in_<name>) and the metadata."""
    meta = json.loads((Path(folder) / META).read_text())
    with np.load(Path(folder) / NPZ) as npz:
        return {k: npz[k] for k in npz.files}, meta


def load_hlo(folder: Path) -> dict[str, str]:
    with gzip.open(Path(folder) / HLO, "rt", encoding="utf-8") as f:
        return json.load(f)
