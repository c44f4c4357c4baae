"""Which arithmetic reproduces a chip's HIGH and HIGHEST float32 dots? Compare candidate models with
the chip's own bits (the golden data of ``python -m autograder.chip.hardware golden``).

    .venv/bin/python benchmarks/tpu_precision_models.py [FOLDER]   # default: tests/data

For every float32 dot of the golden file (k1: single products, k4, lesson 02's K=256, K=1024) and
each precision, it prints the chip's max error against float64, and per candidate model: its max
error, the max difference to the chip (in units of the chip's own error), and the share of
elements bit-identical to the chip. A model "reproduces the chip" where that share is high and
the difference small on every shape. NumPy only (float64 for exact sums), no JAX, on CPU.

The model that reproduces a TPU v5e (golden data of 2026-12-05; ``chip_dot`` below): hi TRUNCATED
to bfloat16, the later pieces nearest; HIGH keeps lo*hi, hi*lo, hi*hi, HIGHEST the six products
mid*mid, lo*hi, hi*lo, mid*hi, hi*mid, hi*hi, in that order (smallest first) into ONE float32
accumulator; each pass's contraction is taken 128 terms at a time, each 128 as 16 groups of 8
products summed exactly (then rounded to float32) and added to a float32 running sum; a
contraction of one term is a float32 multiply. Bit-equal to the chip on 91-100% of elements.

Other candidates: a split of each float32 into bfloat16 parts (hi = nearest bf16; lo = x - hi rounded
to nearest, or truncated; a third part for 6/9 passes), which pass products are kept (bf16x3 drops
lo*lo; x6 keeps the six largest; x9 all), and how the products are accumulated (exactly, then one
rounding; a float32 running sum per pass, passes added smallest first or largest first; chunks of
the contraction summed exactly then added in float32).
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def to_bf16(x: np.ndarray, how: str = "nearest") -> np.ndarray:
    """float32 -> nearest (ties to even) or truncated (toward zero) bfloat16, as float32."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    if how == "nearest":
        u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16
    else:
        u = u >> 16 << 16
    return (u & 0xFFFFFFFF).astype(np.uint32).view(np.float32)


def split(x: np.ndarray, parts: int, first: str, rest: str) -> list[np.ndarray]:
    """x = p0 + p1 + ... in bfloat16 pieces: p0 by ``first`` rounding, the later ones by ``rest``."""
    out, r = [], np.asarray(x, np.float32)
    for i in range(parts):
        p = to_bf16(r, first if i == 0 else rest)
        out.append(p)
        r = (r - p).astype(np.float32)  # exact in float32 (Sterbenz) for these pieces
    return out


def accumulate(terms: list[tuple[np.ndarray, np.ndarray]], how: str) -> np.ndarray:
    """Sum over passes of a @ b (bf16 pieces, so each product is exact in float32)."""
    if how == "exact":
        return sum(a.astype(np.float64) @ b.astype(np.float64) for a, b in terms).astype(np.float32)
    if how.startswith("pass32"):  # each pass a float32 dot (sequential in k), passes added in float32
        passes = [_seq32(a, b) for a, b in terms]
        order = passes[::-1] if how.endswith("small_first") else passes
        total = np.zeros_like(passes[0])
        for p in order:
            total = (total + p).astype(np.float32)
        return total
    if how == "seq32":  # one float32 running sum over k, all passes' products of each k added exactly first
        prods = sum(a.astype(np.float64)[:, :, None] * b.astype(np.float64)[None, :, :] for a, b in terms)
        return _seq_sum32(prods.astype(np.float32))
    if how.startswith("chunk"):  # chunks of the contraction summed exactly, chunk sums added in float32
        c = int(how[5:])
        prods = sum(a.astype(np.float64)[:, :, None] * b.astype(np.float64)[None, :, :] for a, b in terms)
        k = prods.shape[1]
        sums = [prods[:, i : i + c].sum(axis=1).astype(np.float32) for i in range(0, k, c)]
        total = np.zeros_like(sums[0])
        for s in sums:
            total = (total + s).astype(np.float32)
        return total
    raise ValueError(how)


def _seq_sum32(prods: np.ndarray) -> np.ndarray:
    total = np.zeros((prods.shape[0], prods.shape[2]), np.float32)
    for k in range(prods.shape[1]):
        total = (total + prods[:, k]).astype(np.float32)
    return total


def _seq32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _seq_sum32((a[:, :, None] * b[None, :, :]).astype(np.float32))


PASSES = {  # which (lhs piece, rhs piece) products each scheme keeps
    "x1": [(0, 0)],
    "x3": [(0, 0), (0, 1), (1, 0)],
    "x6": [(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (2, 0)],
    "x9": [(i, j) for i in range(3) for j in range(3)],
}


def model(x, w, passes: str, first: str, rest: str, acc: str) -> np.ndarray:
    n = 1 + max(max(p) for p in PASSES[passes])
    xs, ws = split(x, n, first, rest), split(w, n, first, rest)
    return accumulate([(xs[i], ws[j]) for i, j in PASSES[passes]], acc)


def _f32(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, np.float64).astype(np.float32).astype(np.float64)


CHIP_PASSES = {
    "default": [(0, 0)],
    "high": [(1, 0), (0, 1), (0, 0)],
    "highest": [(1, 1), (2, 0), (0, 2), (1, 0), (0, 1), (0, 0)],
}


def chip_dot(x, w, precision: str = "default", hi: str = "truncate", group: int = 8, chunk: int = 128):
    """What a TPU v5e computes for a float32 x (M,K) @ w (K,N) at ``precision`` (see the module
    docstring); ``hi="nearest"`` is the textbook split, for comparison. float32 result."""
    x, w = np.asarray(x, np.float32), np.asarray(w, np.float32)
    if x.shape[1] == 1:
        return (x * w).astype(np.float32)
    if precision == "default":
        xs, ws = [to_bf16(x).astype(np.float64)], [to_bf16(w).astype(np.float64)]
    else:
        xs = [p.astype(np.float64) for p in split(x, 3, hi, "nearest")]
        ws = [p.astype(np.float64) for p in split(w, 3, hi, "nearest")]
    acc = np.zeros((x.shape[0], w.shape[1]))
    for i, j in CHIP_PASSES[precision]:
        prods = xs[i][:, :, None] * ws[j][None, :, :]  # exact in float64
        for c in range(0, prods.shape[1], chunk):
            block, run = prods[:, c : c + chunk], np.zeros_like(acc)
            for g in range(0, block.shape[1], group):
                run = _f32(run + _f32(block[:, g : g + group].sum(axis=1)))
            acc = _f32(acc + run)
    return acc.astype(np.float32)


CANDIDATES = {
    f"{p} hi={f} lo={r} acc={a}": (p, f, r, a)
    for p, f, r, a in itertools.product(
        ("x3", "x6", "x9"),
        ("nearest", "truncate"),
        ("nearest", "truncate"),
        ("exact", "seq32", "pass32", "pass32_small_first", "chunk128", "chunk256"),
    )
}
CANDIDATES["f32 (CPU float32 matmul)"] = None
CANDIDATES["chip_dot hi=truncate (the v5e model)"] = "chip"
CANDIDATES["chip_dot hi=nearest"] = "chip-nearest"


def compare(folder: Path) -> None:
    from autograder.chip.golden import DOTS, load

    arrays, meta = load(folder)
    print(f"{folder}: {meta['device_kind']} ({meta['backend']}), JAX {meta['versions']['jax']}, {meta['date']}")
    for precision in ("default", "high", "highest"):
        print(f"\n=== {precision.upper()} ===")
        rows: dict[str, list[tuple[float, float]]] = {}
        for name in DOTS:
            x, w = arrays[f"{name}_x"], arrays[f"{name}_w"]
            chip = arrays[f"{name}_{precision}_jit"].astype(np.float64)
            exact = x.astype(np.float64) @ w.astype(np.float64)
            chip_err = float(np.abs(chip - exact).max())
            print(f"{name}: chip max error {chip_err:.3e}")
            for label, spec in CANDIDATES.items():
                if spec is None:
                    got = x @ w
                elif isinstance(spec, str):
                    got = chip_dot(x, w, precision, "nearest" if spec.endswith("nearest") else "truncate")
                else:
                    got = model(x, w, *spec)
                diff = float(np.abs(got.astype(np.float64) - chip).max())
                same = float(np.mean(got.astype(np.float32).view(np.uint32) == chip.astype(np.float32).view(np.uint32)))
                rows.setdefault(label, []).append((diff / max(chip_err, 1e-300), same))
        print(f"{'model':48s} " + " ".join(f"{n:>16s}" for n in DOTS) + "   (diff/chip error, share bit-equal)")
        ranked = sorted(rows.items(), key=lambda kv: (-min(s for _, s in kv[1]), max(d for d, _ in kv[1])))
        for label, cells in ranked[:15]:
            print(f"{label:48s} " + " ".join(f"{d:7.3f} {s:7.1%}" for d, s in cells))


if __name__ == "__main__":
    compare(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "data")
