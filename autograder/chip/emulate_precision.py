"""A TPU's or a GPU's arithmetic on a CPU: a part of the emulation script (emulation.py joins the
parts; the tests and lessoncheck run it as a kernel's start-up file, the grader before any student
code; ``COURSE_EMULATE=tpu`` or ``gpu``) and of the student's module notebooks/tpu_emulation.py.

TPU (a v5e, JAX 0.10.2, libtpu 0.0.42.1; tests/test_golden.py, tests/test_golden_casts.py): every
program JAX compiles here, each jit and each eager operation, is rewritten where XLA lowers it into
what the chip's compiler makes of it (tpu_compiler.py: casts inside jit), with its float32 dots as
the chip's matrix unit computes them:
    DEFAULT (or none): one bf16 pass: inputs rounded to the nearest bf16, products exact, float32
        accumulation. Bit for bit the chip's own bf16-input dot.
    HIGH: three bf16 passes, x = hi + lo with hi TRUNCATED to bf16 (toward zero, not nearest) and
        lo = x - hi rounded to nearest; lo*hi, hi*lo, hi*hi (lo*lo dropped): 2.2-2.5x the error of
        a textbook bf16x3.
    HIGHEST: six bf16 passes of a three-piece split (hi truncated): float32 summation error.
    The passes go smallest first into one float32 accumulator, 128 terms of the contraction at a
    time (here each 128 is a float32 CPU dot). A one-term contraction and a matrix-vector product
    are float32 at every precision (tests/data/tpu/tpu_matvec.json), but not at an explicit
    algorithm: presets BF16_BF16_F32, _X3 and _X6 compute as DEFAULT, HIGH and HIGHEST at every
    shape (tests/data/tpu/tpu_dots.json; tpu_compiler.py).
    Tolerances against the chip: DEFAULT within float32 summation order, HIGH within 5% of the chip's
    own error, HIGHEST within 2x of it. XLA:CPU is capped at AVX (no fused multiply-add, as on the chip),
    at LLVM's level 0. Not modelled: the chip's approximate reciprocal (division by a value cast up
    from bf16), its transcendental functions, its result for infinite inputs at HIGH/HIGHEST (here NaN).
GPU: DEFAULT and HIGH = TF32 (inputs rounded to a 10-bit mantissa), HIGHEST = exact; a patch of
jax.lax.dot at trace time, casts as the CPU computes them. Both: dot algorithms such as
"BF16_BF16_F32" or "TF32_TF32_F32_X3" round as they say. The backend name stays "cpu".

It refuses a JAX it cannot wrap (a matmul route or a compiled program that escapes the emulation,
a CPU backend opened before it could turn off fused multiply-adds): it probes each and raises a
RuntimeError saying which escaped; as a kernel's start-up file it then writes that error to the
kernel's stderr and ends the kernel, never grading without the emulation.
"""


def _course_without_fma(mode):
    """The chip rounds a * b + c twice; XLA:CPU contracts it into one fused multiply-add where the CPU
    has FMA (x86-64 from AVX2 on): capped at AVX it rounds twice too, as the chip does. Without FMA or
    fast-math, LLVM's level 0 compiles in about half the time, with the same bits but a sum's order
    (tests/test_compile_level.py). Both set in XLA_FLAGS for "tpu" on x86-64 (before JAX opens its
    backends: the probe checks); returns whether they apply. COURSE_EMULATE_WITHOUT=rule,...: a maintainers' switch,
    read before any student code runs: the named rules of _chip_compiler are left out."""
    import os, platform  # noqa: E401

    without = frozenset(r for r in os.environ.get("COURSE_EMULATE_WITHOUT", "").split(",") if r)
    no_fma = mode == "tpu" and platform.machine() in ("x86_64", "AMD64") and "no-fma" not in without
    for flag, value in (("--xla_cpu_max_isa", "AVX"), ("--xla_backend_optimization_level", "0")):
        if no_fma and flag not in os.environ.get("XLA_FLAGS", ""):
            os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + f" {flag}={value}").strip()
    return no_fma


def _course_emulate_precision(mode):
    """Patch jax's dot for ``mode``; everything lives in this function (and the ones it calls) so that,
    run as an IPython start-up file, it leaves no name behind in the notebook's namespace."""
    import math
    import os

    without = frozenset(r for r in os.environ.get("COURSE_EMULATE_WITHOUT", "").split(",") if r)
    no_fma = _course_without_fma(mode)

    import jax
    import jax.numpy as jnp

    try:
        from jax._src.lax import lax as _lax

        original = _lax.dot
        Precision, Preset, canonicalize = _lax.Precision, _lax.DotAlgorithmPreset, _lax.canonicalize_precision
    except (ImportError, AttributeError) as exc:
        raise RuntimeError(
            f"COURSE_EMULATE={mode}: cannot emulate {mode.upper()} matmul precision on JAX "
            f"{jax.__version__} ({exc}); use the course's pinned JAX (pyproject.toml)"
        ) from None

    def tf32(x):
        """Round float32 to TF32 (1 + 10 mantissa bits), nearest even, by integer arithmetic."""
        bits = jax.lax.bitcast_convert_type(x, jnp.uint32)
        rounded = (bits + jnp.uint32(0xFFF) + ((bits >> 13) & 1)) & jnp.uint32(0xFFFFE000)
        finite = jnp.isfinite(x)
        return jnp.where(finite, jax.lax.bitcast_convert_type(rounded, jnp.float32), x)

    def bf16(x):
        """Round float32 to the nearest bfloat16, kept in float32: reduce_precision rounds inside jit
        too, where XLA may drop a cast round trip's rounding (it does on a TPU: jax-ml/jax#6283)."""
        return jax.lax.reduce_precision(x, exponent_bits=8, mantissa_bits=7)

    def level(precision):
        """'bf16', 'bf16x3', 'bf16x6', 'tf32', 'tf32x3' or 'exact' for a float32 dot on the emulated device."""
        p = canonicalize(precision)
        if isinstance(p, Preset):
            name = p.name
            if name == "DEFAULT":
                p = None
            elif name.startswith("BF16_BF16_F32_X3") or name.startswith("BF16_BF16_F32_X6"):
                if mode == "tpu":  # the chip's HIGH and HIGHEST passes (tests/data/tpu/tpu_dots.json)
                    return "bf16x3" if name.endswith("X3") else "bf16x6"
                return "bf16x3" if name.endswith("X3") else "exact"
            elif name.startswith("BF16_BF16"):
                return "bf16"
            elif name.startswith("TF32_TF32_F32_X3"):
                return "tf32x3"
            elif name.startswith("TF32_TF32"):
                return "tf32"
            else:
                return "exact"
        elif not isinstance(p, (tuple, type(None))):
            return "exact"  # an explicit DotAlgorithm: take it at its word
        top = Precision.DEFAULT if p is None else max(p, key=lambda q: q.value)
        if mode == "tpu":
            return {Precision.DEFAULT: "bf16", Precision.HIGH: "bf16x3"}.get(top, "bf16x6")
        return {Precision.DEFAULT: "tf32", Precision.HIGH: "tf32"}.get(top, "exact")

    # The chip's passes (golden data, TPU v5e, 2026-12-05): x = hi + mid + lo in bf16 pieces, hi TRUNCATED
    # (toward zero), mid and lo nearest; products smallest first into one float32 accumulator (DEFAULT: one pass)
    passes = {
        "bf16x3": ((1, 0), (0, 1), (0, 0)),
        "bf16x6": ((1, 1), (2, 0), (0, 2), (1, 0), (0, 1), (0, 0)),
    }
    chunk = 128  # the chip adds each pass's contraction to its float32 accumulator 128 terms at a time
    # up to this many (pass, chunk) parts, this many bytes in all, are summed unrolled (else: a scan)
    unrolled_parts, unrolled_bytes = int(os.environ.get("COURSE_EMULATE_UNROLLED_PARTS", "16")), 16 * 2**20

    def pieces(x, n):
        """n bfloat16 pieces of float32 x (in float32): hi truncated toward zero, the rest nearest."""
        bits = jax.lax.bitcast_convert_type(x, jnp.uint32) & jnp.uint32(0xFFFF0000)
        finite = jnp.isfinite(x)
        hi = jnp.where(finite, jax.lax.bitcast_convert_type(bits, jnp.float32), x)
        hi = x + jax.lax.stop_gradient(hi - jnp.where(finite, x, 0))  # differentiates as x
        out, rest = [hi], jnp.where(finite, x - hi, 0)
        for _ in range(n - 1):
            out.append(bf16(rest))
            rest = rest - out[-1]
        return out

    def canonical(dimension_numbers, lhs, rhs):
        """dimension_numbers as nested tuples of non-negative ints (hashable: a static argument)."""
        if dimension_numbers is None:
            dimension_numbers = (((lhs.ndim - 1,), (0,)), ((), ()))
        (lc, rc), (lb, rb) = dimension_numbers
        lc, rc, lb, rb = (tuple(int(d) % a.ndim for d in ds) for ds, a in ((lc, lhs), (rc, rhs), (lb, lhs), (rb, rhs)))
        return (lc, rc), (lb, rb)

    def as_bkn(lhs, rhs, dimension_numbers):
        """(B, M, K) and (B, K, N) views of a dot_general's operands, and the output's shape."""
        (lc, rc), (lb, rb) = dimension_numbers
        lf = [d for d in range(lhs.ndim) if d not in lc + lb]
        rf = [d for d in range(rhs.ndim) if d not in rc + rb]
        size = lambda a, ds: int(math.prod(a.shape[d] for d in ds))  # noqa: E731
        b, m, k, n = size(lhs, lb), size(lhs, lf), size(lhs, lc), size(rhs, rf)
        shape = [lhs.shape[d] for d in lb + tuple(lf)] + [rhs.shape[d] for d in rf]

        def view(a, perm, dims):  # transposed and reshaped only where it has to be (each costs a trace)
            a = a if perm == tuple(range(a.ndim)) else jax.lax.transpose(a, perm)
            return a if a.shape == dims else jax.lax.reshape(a, dims)

        return view(lhs, lb + tuple(lf) + lc, (b, m, k)), view(rhs, rb + rc + tuple(rf), (b, k, n)), shape

    def mxu(terms, dimension_numbers):
        """The chip's accumulation: sum over (lhs, rhs) passes, in order, of lhs @ rhs (bfloat16
        values in float32, so every product is exact), added to one float32 accumulator one chunk
        of the contraction at a time, each chunk a float32 dot."""
        views = [as_bkn(a, b, dimension_numbers) for a, b in terms]
        shape = views[0][2]
        b, m, k = views[0][0].shape
        n = views[0][1].shape[2]
        c = -(-k // chunk)
        dims = (((2,), (1,)), ((0,), (0,)))

        def part(a, b):  # one (pass, chunk) part: a float32 dot of exact products
            return original(
                a, b, dimension_numbers=dims, precision=Precision.HIGHEST, preferred_element_type=jnp.float32
            )

        if len(views) == 1 and c == 1:  # one part (DEFAULT, K up to 128): the views as they are, no pads
            acc = part(*views[0][:2])  # (the scan's 0 + part: XLA folds an added zero away)
            return acc if tuple(acc.shape) == tuple(shape) else jax.lax.reshape(acc, tuple(shape))
        lhs, rhs = [], []
        for a, bb, _ in views:
            pad = c * chunk - k if c > 1 else 0
            a = jnp.pad(a, ((0, 0), (0, 0), (0, pad))).reshape(b, m, c, -1).transpose(2, 0, 1, 3)
            bb = jnp.pad(bb, ((0, 0), (0, pad), (0, 0))).reshape(b, c, -1, n).transpose(1, 0, 2, 3)
            lhs.append(a)
            rhs.append(bb)
        lhs, rhs = jnp.concatenate(lhs), jnp.concatenate(rhs)

        def step(acc, ab):
            return acc + part(*ab), None

        parts = lhs.shape[0]
        if parts == 1:
            acc = step(jnp.zeros((b, m, n), jnp.float32), (lhs[0], rhs[0]))[0]
        elif parts <= unrolled_parts and parts * b * m * n * 4 <= unrolled_bytes:
            # few small parts: one batched dot, then the scan's additions in its order, unrolled: its bits
            # (tests/test_emulation.py), compiled in half the time. (XLA:CPU's dot of -0 products is +0.)
            each = part(lhs.reshape(parts * b, m, -1), rhs.reshape(parts * b, -1, n)).reshape(parts, b, m, n)
            acc = each[0]
            for i in range(1, parts):
                acc = acc + each[i]
        else:
            acc = jax.lax.scan(step, jnp.zeros((b, m, n), jnp.float32), (lhs, rhs))[0]
        return acc.reshape(shape)

    def _tpu_dot(lhs, rhs, how, dimension_numbers):
        """A float32 dot as the chip computes it at ``how`` ('bf16', 'bf16x3', 'bf16x6')."""
        if how == "bf16":  # one MXU pass: bf16 inputs (nearest), products exact
            return mxu([(bf16(lhs), bf16(rhs))], dimension_numbers)
        n = 1 + max(max(p) for p in passes[how])
        lp, rp = pieces(lhs, n), pieces(rhs, n)
        return mxu([(lp[i], rp[j]) for i, j in passes[how]], dimension_numbers)

    # compiled once per shape and precision (called eagerly, a scan is traced again at every call)
    tpu_dot = jax.jit(_tpu_dot, static_argnums=(2, 3))
    mxu_bf16 = jax.jit(mxu, static_argnums=1)

    def emulated_dot(
        lhs, rhs, *, dimension_numbers=None, precision=None, preferred_element_type=None, out_sharding=None, **extra
    ):
        # extra: keywords newer JAX adds to lax.dot (0.12.1: reduction_order), passed on as given
        lhs_a, rhs_a = jnp.asarray(lhs), jnp.asarray(rhs)
        dtypes = {lhs_a.dtype, rhs_a.dtype}
        f32, bf = jnp.dtype(jnp.float32), jnp.dtype(jnp.bfloat16)
        small_floats = {f32, bf, jnp.dtype(jnp.float16)}
        as_written = not dtypes <= small_floats or (f32 not in dtypes and (mode != "tpu" or dtypes != {bf}))
        if as_written or (out_sharding is not None and mode == "tpu"):
            # int8 x int8, float64, f16 x f16 (and bf16 x bf16 on a GPU): the device computes these as written
            return original(
                lhs,
                rhs,
                dimension_numbers=dimension_numbers,
                precision=precision,
                preferred_element_type=preferred_element_type,
                out_sharding=out_sharding,
                **extra,
            )
        if f32 not in dtypes:  # TPU, bf16 x bf16: one MXU pass, float32 accumulation, one rounding at the end
            out_type = preferred_element_type or jnp.bfloat16
            terms = [(lhs_a.astype(jnp.float32), rhs_a.astype(jnp.float32))]
            return mxu_bf16(terms, canonical(dimension_numbers, lhs_a, rhs_a)).astype(out_type)
        # f32 x f32, or f32 mixed with bf16/f16 (XLA upcasts the narrow side): a float32 dot
        lhs_a, rhs_a = lhs_a.astype(jnp.float32), rhs_a.astype(jnp.float32)
        how = level(precision)
        out_type = preferred_element_type or jnp.float32

        def exact(a, b):
            return original(
                a,
                b,
                dimension_numbers=dimension_numbers,
                precision=Precision.HIGHEST,
                preferred_element_type=jnp.float32,
                out_sharding=out_sharding,
                **extra,
            )

        dims = canonical(dimension_numbers, lhs_a, rhs_a)
        (lc, rc), (lb, rb) = dims
        k = math.prod(lhs_a.shape[d] for d in lc)
        m = math.prod(lhs_a.shape[d] for d in range(lhs_a.ndim) if d not in lc + lb)
        n = math.prod(rhs_a.shape[d] for d in range(rhs_a.ndim) if d not in rc + rb)
        if mode == "tpu" and min(k, m, n) == 1 and how != "exact":
            # A contraction of one term (K = 1), or a matrix-vector product (M = 1 or N = 1): XLA
            # on the chip computes these in float32 at every precision, off the MXU (golden data:
            # single products are the rounded float32 product; a matrix-vector dot's error at
            # DEFAULT is HIGHEST's, 1e-6, where N = 2 is one bf16 pass, 0.17: tpu_matvec.json)
            out = exact(lhs_a, rhs_a)
        elif how == "exact":
            out = exact(lhs_a, rhs_a)
        elif mode == "tpu" and how in ("bf16", *passes):
            out = tpu_dot(lhs_a, rhs_a, how, dims)
        elif how == "bf16":  # GPU: one bf16 pass, f32 accumulation
            out = original(
                lhs_a.astype(jnp.bfloat16),
                rhs_a.astype(jnp.bfloat16),
                dimension_numbers=dimension_numbers,
                preferred_element_type=jnp.float32,
                out_sharding=out_sharding,
            )
        elif how in ("bf16x3", "tf32x3"):  # GPU: split x = hi + lo (nearest), drop the lo*lo pass
            r = bf16 if how == "bf16x3" else tf32
            lh, rh = r(lhs_a), r(rhs_a)
            ll, rl = r(lhs_a - lh), r(rhs_a - rh)
            out = exact(lh, rh) + exact(lh, rl) + exact(ll, rh)
        else:  # tf32: inputs rounded to a 10-bit mantissa, products exact in f32
            out = exact(tf32(lhs_a), tf32(rhs_a))
        return out.astype(out_type)

    if mode == "tpu":
        chip_program = _course_chip_compiler(  # noqa: F821  (tpu_compiler.py, the part before this one)
            jax, jnp, level, _tpu_dot, canonical, original, without
        )
        routes_escaped = _course_install_lowering(jax, chip_program)  # noqa: F821
    else:
        _lax.dot = emulated_dot
        jax.lax.dot = emulated_dot
        routes_escaped = lambda: None  # noqa: E731

    # Every public route to a matmul must reach the emulation (before JAX 0.7.1, jnp.dot, @ and
    # einsum called dot_general, which did not go through lax.dot): probe each with 1 + 2^-12,
    # which bf16 and TF32 both round to 1, so an emulated DEFAULT-precision dot gives exactly 2
    # (2 x 2 by 2 x 2: a matrix-vector product is float32 on the chip, so not one of those).
    a, b = jnp.full((2, 2), 1 + 2.0**-12, jnp.float32), jnp.ones((2, 2), jnp.float32)
    routes = {
        "jax.numpy.dot": jnp.dot,
        "@": lambda p, q: p @ q,
        "jax.numpy.matmul": jnp.matmul,
        "jax.numpy.einsum": lambda p, q: jnp.einsum("ik,kj->ij", p, q),
        "jax.lax.dot_general": lambda p, q: jax.lax.dot_general(p, q, (((1,), (0,)), ((), ()))),
        "jax.jit(jax.numpy.dot)": jax.jit(jnp.dot),
    }
    escaped = [name for name, f in routes.items() if float(f(a, b)[0, 0]) != 2.0]
    if mode == "tpu":
        # inside jit a cast round trip is dropped, eagerly it rounds (1 + 2^-12 is not a bf16 value)
        trip = lambda v: v.astype(jnp.bfloat16).astype(jnp.float32)  # noqa: E731
        dropped = "unrounded-casts" in without or float(jax.jit(trip)(a)[0, 0]) == 1 + 2.0**-12
        if not dropped or float(trip(a)[0, 0]) != 1.0:
            escaped.append("a cast round trip inside jax.jit")
        # (1 + 2^-12)^2 - 1 - 2^-11: 2^-24 with one rounding (FMA), 0 with two (the chip)
        u = jnp.float32(1 + 2.0**-12)
        if no_fma and float(jax.jit(lambda v: v * v - (1 + 2.0**-11))(u)) != 0.0:
            escaped.append(
                "float32 a * b + c without a fused multiply-add (JAX's CPU backend opened before the emulation)"
            )
    if escaped:
        routes_escaped()
        _lax.dot = jax.lax.dot = original
        raise RuntimeError(
            f"COURSE_EMULATE={mode}: cannot emulate {mode.upper()} precision on JAX "
            f"{jax.__version__}: {', '.join(escaped)} do not reach the emulation; "
            "use the course's pinned JAX (pyproject.toml)"
        )
    os.environ["COURSE_EMULATED_PRECISION"] = mode


def _course_install_lowering(jax, chip_program):
    """Every program JAX compiles in this process (jit, and each eager operation) is first made what
    the chip computes (``chip_program``): the one place all of them pass, XLA's lowering of a
    jaxpr to a module. Returns a function that takes the hook out again."""
    from jax._src.interpreters import mlir

    lower = mlir.lower_jaxpr_to_module

    def lower_as_the_chip(module_name, jaxpr, *args, **kwargs):
        return lower(module_name, chip_program(jaxpr), *args, **kwargs)

    mlir.lower_jaxpr_to_module = lower_as_the_chip

    def remove():
        mlir.lower_jaxpr_to_module = lower

    return remove
