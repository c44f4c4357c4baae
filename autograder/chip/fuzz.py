"""A differential fuzzer of the TPU emulation: small jitted programs, on the chip and on a CPU.

    python -m autograder.chip.hardware fuzz --out DIR [--seed S] [--count N]   # on a TPU: the record
    python -m autograder.chip.hardware fuzz-compare tests/data/tpu/tpu_fuzz.json  # on a CPU, emulated

``fuzz_programs.generate(seed, count)`` writes programs from a grammar of what students of this
course write, as Python text: casts to and from every narrow float (bfloat16, float16, float8_e4m3fn, float8_e5m2,
float4_e2m1fn) and int8; ``reduce_precision``; elementwise chains (constants, other values, division
by a constant and by an array, rounding); reductions (sum, mean, max, cumsum, with and without a
dtype); layout (transpose, reshape, contiguous and strided slices, broadcasts, concatenation, pads);
dots of every shape class (matrix-matrix, matrix-vector, vector-matrix, vector-vector, one-term
contraction, batched) written five ways (jnp.dot, @, matmul, einsum, lax.dot_general) with every
precision and preferred element type; and the structures around them: lax.scan, fori_loop and
while_loop, vmap, cond, nested jit, custom_jvp, checkpoint and grad. Each program is a function of
three inputs (x (M, K), w (K, N), v (K,) float32, seeded normals at a scale of the program's, a few
with special values), run under ``jax.jit``.

``record(programs)`` runs each on this machine's default backend and keeps its outputs' bytes (and
its inputs' digest: they are drawn again from the program's id, and a NumPy that drew others would
stop the comparison); on a TPU v5e that is tests/data/tpu/tpu_fuzz.{json,npz}.
``compare`` runs the record's programs here (under the TPU emulation on a CPU) and sets each output
beside the chip's:
- "exact": the same bits (NaNs where the chip's are);
- "close": a program whose float32 sums (dots, sums, means, cumsums) may add in another order: all
  but at most 1% of its elements within 2^-14 of its largest output, where a rounding the chip does
  and the emulation does not (or the reverse) moves most elements by a narrow float's step;
- "mismatch": anything else (also: an error on one side only, another dtype or shape).
Only stdlib, NumPy and JAX.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import time
from pathlib import Path

import numpy as np

NPZ, META, HLO = "tpu_fuzz.npz", "tpu_fuzz.json", "tpu_fuzz_hlo.json.gz"
SUMMING = ("dot", "sum", "mean", "cumsum", "scan", "fori_loop", "while_loop", "grad")  # order may differ
TOLERANCE, SHARE = 2.0**-14, 0.01


SPECIAL = [0.0, -0.0, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-11, 448.0, 464.0, 57344.0, 6.0, 7.0, 2.5, -3.0, 2.0**-126]


def inputs(program: dict) -> dict[str, np.ndarray]:
    """The program's inputs, seeded by its id (stored with the record all the same)."""
    rng = np.random.default_rng(int(hashlib.sha256(program["id"].encode()).hexdigest()[:12], 16))
    m, k, n = program["shapes"]
    out = {
        "x": rng.standard_normal((m, k)) * program["scale"],
        "w": rng.standard_normal((k, n)) * program["scale"],
        "v": rng.standard_normal(k) * program["scale"],
    }
    if program["special"]:
        for a in out.values():
            flat = a.reshape(-1)
            idx = rng.choice(flat.size, size=min(flat.size, len(SPECIAL)), replace=False)
            flat[idx] = np.array(SPECIAL[: len(idx)]) * rng.choice([-1, 1], size=len(idx))
    return {name: a.astype(np.float32) for name, a in out.items()}


def digest(args: dict[str, np.ndarray]) -> str:
    """What the inputs were, to hold a regeneration to (NumPy's normal stream is stable, not promised)."""
    h = hashlib.sha256()
    for name in sorted(args):
        h.update(name.encode() + args[name].tobytes())
    return h.hexdigest()


def namespace() -> dict:
    import jax
    import jax.numpy as jnp

    return {"jax": jax, "jnp": jnp, "np": np}


def run(program: dict, args: dict[str, np.ndarray], hlo: list | None = None):
    """The program's outputs as NumPy arrays (its own dtypes), under jax.jit on the default backend
    (the compiled program's HLO text appended to ``hlo`` where given)."""
    import jax

    scope = namespace()
    exec(compile(program["source"], f"<{program['id']}>", "exec"), scope)  # the course's own program text
    compiled = jax.jit(scope["program"]).lower(args["x"], args["w"], args["v"]).compile()
    if hlo is not None:
        hlo.append(compiled.as_text())
    outs = compiled(args["x"], args["w"], args["v"])
    return [np.asarray(o) for o in outs]


def _raw(a: np.ndarray) -> np.ndarray:
    return np.frombuffer(np.ascontiguousarray(a).tobytes(), np.uint8)


def record(programs: list[dict], out: Path, echo=print, every: int = 250) -> dict:
    """Run every program here; write OUT/tpu_fuzz.npz (outputs' bytes), tpu_fuzz.json (programs,
    inputs' digests) and tpu_fuzz_hlo.json.gz (each compiled program's HLO: the evidence of where a
    rounding stays), every ``every`` programs too (a run cut short keeps what it did)."""
    import gzip

    import jax

    out.mkdir(parents=True, exist_ok=True)
    arrays, entries, hlos = {}, [], {}
    t0 = time.perf_counter()
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "backend": jax.default_backend(),
        "device_kind": jax.devices()[0].device_kind,
        "versions": _versions(),
        "programs": entries,
    }

    def write():
        np.savez_compressed(out / NPZ, **arrays)
        meta["seconds"] = round(time.perf_counter() - t0, 1)
        (out / META).write_text(json.dumps(meta, indent=1))
        with gzip.open(out / HLO, "wt", encoding="utf-8") as f:
            json.dump(hlos, f)

    for j, prog in enumerate(programs):
        args = inputs(prog)
        entry = {**prog, "inputs": digest(args), "outputs": [], "error": ""}
        text: list = []
        try:
            for i, o in enumerate(run(prog, args, text)):
                arrays[f"{prog['id']}/out/{i}"] = _raw(o)
                entry["outputs"].append({"dtype": o.dtype.name, "shape": list(o.shape)})
        except Exception as exc:  # noqa: BLE001  an error is an outcome too (the CPU must raise as well)
            entry["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
        hlos[prog["id"]] = text[0] if text else ""
        entries.append(entry)
        if (j + 1) % every == 0:
            write()
            if echo:
                echo(f"{j + 1}/{len(programs)} programs, {time.perf_counter() - t0:.0f} s")
    write()
    return meta


def _versions() -> dict:
    import importlib.metadata as md

    found = {}
    for name in ("jax", "jaxlib", "libtpu", "ml_dtypes", "numpy"):
        try:
            found[name] = md.version(name)
        except md.PackageNotFoundError:
            pass
    return found


def _as_float(raw: np.ndarray, dtype: str, shape) -> np.ndarray:
    import ml_dtypes  # noqa: F401  (registers the narrow dtypes' names with NumPy)

    dt = np.dtype(getattr(ml_dtypes, dtype)) if hasattr(ml_dtypes, dtype) else np.dtype(dtype)
    return np.frombuffer(raw.tobytes(), dt).reshape(shape).astype(np.float64)


def sums(tags) -> bool:
    """Whether a program with these tags sums (its order may differ from the chip's, and by level)."""
    return bool(set(tags) & set(SUMMING)) or any(f"structure:{t}" in tags for t in SUMMING)


def verdict(program: dict, chip: list[np.ndarray], chip_meta: list[dict], here: list[np.ndarray]) -> tuple[str, str]:
    """("exact" | "close" | "mismatch", why) for one program's outputs (raw chip bytes, here arrays)."""
    if len(here) != len(chip_meta):
        return "mismatch", f"{len(here)} outputs here, {len(chip_meta)} on the chip"
    worst = "exact"
    for i, (raw, meta, mine) in enumerate(zip(chip, chip_meta, here)):
        if mine.dtype.name != meta["dtype"] or list(mine.shape) != meta["shape"]:
            return (
                "mismatch",
                f"output {i}: {mine.dtype.name}{list(mine.shape)} here, {meta['dtype']}{meta['shape']} on the chip",
            )
        if _raw(mine).tobytes() == raw.tobytes():
            continue
        a, b = _as_float(raw, meta["dtype"], meta["shape"]), mine.astype(np.float64)
        nan = np.isnan(a) | np.isnan(b)
        if (np.isnan(a) != np.isnan(b)).any():
            return "mismatch", f"output {i}: NaN at {int((np.isnan(a) != np.isnan(b)).sum())} elements on one side only"
        if np.array_equal(a[~nan], b[~nan]):
            continue  # equal values (another NaN payload, or -0 for 0)
        if not sums(program["tags"]):
            diff = np.abs(a[~nan] - b[~nan])
            return (
                "mismatch",
                f"output {i}: {int((diff > 0).sum())} of {diff.size} elements differ (max {diff.max():.3g})",
            )
        finite = np.isfinite(a) & np.isfinite(b)
        if (np.isinf(a) != np.isinf(b)).any() or (np.isinf(a) & (a != b)).any():
            return "mismatch", f"output {i}: infinities differ"
        scale = max(float(np.abs(a[finite]).max(initial=0.0)), np.finfo(np.float32).tiny)
        far = np.abs(a[finite] - b[finite]) > TOLERANCE * scale
        if far.mean() > SHARE:
            return "mismatch", f"output {i}: {int(far.sum())} of {far.size} elements beyond 2^-14 of the largest"
        worst = "close"
    return worst, ""


def compare(record_path: Path, echo=print, ids: set | None = None) -> dict:
    """The record's programs (those of ``ids``, where given) run here, each output beside the chip's:
    counts, the verdict of each, and every mismatch with the documented limit it falls under
    (fuzz_limits.py; "" for none)."""
    from .fuzz_limits import explain

    meta = json.loads(Path(record_path).read_text())
    stored = np.load(Path(record_path).with_suffix(".npz"))
    counts, mismatches, by_tag, verdicts = {"exact": 0, "close": 0, "mismatch": 0}, [], {}, {}
    for prog in meta["programs"]:
        if ids is not None and prog["id"] not in ids:
            continue
        args = inputs(prog)
        if digest(args) != prog["inputs"]:
            raise ValueError(f"{prog['id']}: this NumPy draws other inputs than the chip's: re-record on a TPU")
        try:
            here, error = run(prog, args), ""
        except Exception as exc:  # noqa: BLE001
            here, error = [], f"{type(exc).__name__}: {str(exc)[:300]}"
        if prog["error"] or error:
            same = bool(prog["error"]) == bool(error)
            kind, why = (
                ("exact", "an error on both")
                if same
                else ("mismatch", f"chip: {prog['error'] or 'ran'}; here: {error or 'ran'}")
            )
        else:
            chip = [stored[f"{prog['id']}/out/{i}"] for i in range(len(prog["outputs"]))]
            kind, why = verdict(prog, chip, prog["outputs"], here)
        counts[kind] += 1
        verdicts[prog["id"]] = kind
        for tag in prog["tags"]:
            by_tag.setdefault(tag, {"exact": 0, "close": 0, "mismatch": 0})[kind] += 1
        if kind == "mismatch":
            limit = explain(prog)
            mismatches.append(
                {"id": prog["id"], "why": why, "limit": limit, "tags": prog["tags"], "source": prog["source"]}
            )
    unexplained = [m["id"] for m in mismatches if not m["limit"]]
    return {
        "programs": len(verdicts),
        "counts": counts,
        "by_tag": by_tag,
        "verdicts": verdicts,
        "mismatches": mismatches,
        "unexplained": unexplained,
    }


def compare_main(record_path: Path, out: Path, emulate: bool = True) -> int:
    """``hardware fuzz-compare``: under the TPU emulation (started here, as the grader starts it), every
    program of the record; prints the counts and each mismatch with its documented limit, writes
    ``out`` (JSON). Exit 1 on a mismatch that no documented limit explains."""
    import os

    if emulate:
        from . import emulation

        os.environ["COURSE_EMULATE"] = "tpu"
        exec(compile(emulation.source(), "<emulation>", "exec"), {"__name__": "__emulation__"})
    result = compare(record_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))
    outside = len(result["unexplained"])
    print(f"{result['programs']} programs: {result['counts']}; outside every documented limit: {outside}")
    for m in result["mismatches"]:
        print(f"--- {m['id']} ({m['limit'] or 'NO DOCUMENTED LIMIT'}): {m['why']}\n{m['source']}")
    return 1 if result["unexplained"] else 0


def add_commands(sub) -> None:
    """``hardware fuzz`` and ``hardware fuzz-compare`` (hardware.py's command line)."""
    from ..common.notebooks import ROOT

    f = sub.add_parser("fuzz", help="write OUT/tpu_fuzz.{json,npz}: generated jitted programs' outputs here")
    f.add_argument("--out", type=Path, default=ROOT / "build" / "hardware")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--count", type=int, default=1500)
    f.add_argument("--targeted", action="store_true", help="the second round's questions (fuzz_programs.targeted)")
    c = sub.add_parser("fuzz-compare", help="a fuzz record's programs run here (TPU emulation on a CPU), compared")
    c.add_argument("record", type=Path, help="a chip's tpu_fuzz.json (tests/data/tpu/tpu_fuzz.json)")
    c.add_argument("--out", type=Path, default=ROOT / "build" / "hardware-compare" / "fuzz.json")
    c.add_argument("--native", action="store_true", help="this machine's own arithmetic (no emulation)")


def command(args) -> int:
    """Run ``hardware fuzz`` or ``hardware fuzz-compare``."""
    if args.command == "fuzz-compare":
        return compare_main(args.record, args.out, emulate=not args.native)
    from .fuzz_programs import generate, targeted

    meta = record(targeted(args.seed) if args.targeted else generate(args.seed, args.count), args.out)
    failed = sum(bool(p["error"]) for p in meta["programs"])
    print(json.dumps({k: meta[k] for k in ("backend", "device_kind", "versions", "seconds")}, indent=1))
    print(f"{len(meta['programs'])} programs, {failed} raised (recorded as such)")
    return 0
