"""Matmul precision of a TPU or a GPU, emulated on a CPU: an IPython start-up file.

CPU XLA ignores matmul precision, so a notebook that is only ever run on CPU cannot show that its
"fp32 reference" is really one bf16 pass on a TPU, or TF32 on a GPU. The test suite copies this
file into the kernel's IPython start-up folder (``IPYTHONDIR/profile_default/startup/``) with
``COURSE_EMULATE=tpu`` or ``gpu`` set, so notebooks run untouched under these semantics for float32
operands of every ``jnp.dot``/``matmul``/``einsum``/``@``/``lax.dot_general``/``lax.dot``.

TPU: what a TPU v5e computed (JAX 0.10.2, libtpu 0.0.42.1, 2026-12-05; the chip's bits are in
tests/data/tpu/tpu_golden.npz, and tests/test_golden.py holds this file to them):
    DEFAULT (or none): one bf16 pass: inputs rounded to the nearest bf16, products exact, float32
        accumulation. Bit for bit the chip's own bf16-input dot.
    HIGH: three bf16 passes, x = hi + lo with hi TRUNCATED to bf16 (toward zero, not nearest) and
        lo = x - hi rounded to nearest; lo*hi, hi*lo, hi*hi (lo*lo dropped). The truncated hi
        leaves lo up to 2^-7 |x| (not 2^-8), so the dropped lo*lo is ~4x larger: the chip's HIGH
        error is 2.2-2.5x that of a textbook bf16x3 (on lesson 02's data 2.11e-4, not 9.4e-5).
    HIGHEST: six bf16 passes of a three-piece split (hi truncated), products exact to 2^-24, so
        its error is float32 summation error (lesson 02's data: 1.76e-6), not "exact".
    The passes go smallest first into one float32 accumulator, 128 terms of the contraction at a
    time (the chip sums groups of 8 exactly within those 128; here each 128 is a float32 CPU dot).
    A contraction of one term (K = 1) is a float32 multiply at every precision: XLA makes it one.
    A matrix-vector product (M = 1 or N = 1, a 1-D operand included) is float32 at every precision
    too: its DEFAULT error was HIGHEST's (1e-6 at K = 256), where N = 2 is one bf16 pass (0.17)
    (tests/data/tpu/tpu_matvec.json); here it is a float32 CPU dot, within summation order.
    bf16 x bf16 dots: the same one pass, float32 accumulation, rounded once to the output dtype.
    Tolerances against the chip (tests/test_golden.py): DEFAULT within float32 summation order
    (40-98% of elements bit-equal), HIGH within 5% of the chip's own error (measured 0.2-1.3%),
    HIGHEST within 2x of its own error (measured 1.4x; a plain float32 CPU dot is 7-9x off).
    Presets BF16_BF16_F32_X3/_X6 are taken to be HIGH/HIGHEST (not recorded on the chip).
    NOT modelled (the CPU cannot, or the chip was not asked): inside ``jax.jit`` XLA on the chip
    drops the rounding of a cast round trip such as ``x.astype(bf16).astype(f32)`` (it returned x
    unchanged; jax-ml/jax#6283): here, as on any CPU, it rounds. The chip flushes float32
    subnormals to zero; here they stay. Infinite inputs give NaN at HIGH/HIGHEST (inf * 0 in a lo
    pass); the chip's answer was not recorded.
GPU: DEFAULT and HIGH = TF32 (inputs rounded to a 10-bit mantissa), HIGHEST = exact.
Both: dot algorithms such as "BF16_BF16_F32" or "TF32_TF32_F32_X3" round as they say.

Operands of other dtypes (int8, float16, float64...; bf16 x bf16 on a GPU) are untouched. The backend name stays "cpu".
Self-contained on purpose: it runs before the first cell, with nothing but jax importable.

It refuses a JAX it cannot wrap (JAX < 0.7.1, where jnp.dot bypasses lax.dot): it probes every
route above and raises a RuntimeError that says which escaped; as a kernel's start-up file it then
writes that error to the kernel's stderr and ends the kernel, never grading without emulation.
"""


def _course_emulate_precision(mode):
    """Patch jax's dot for ``mode``; everything lives in this function so that, run as an IPython
    start-up file, it leaves no name behind in the notebook's namespace."""
    import math
    import os
    import platform

    # The chip rounds a * b + c twice; XLA:CPU contracts it into one fused multiply-add where the CPU
    # has FMA (x86-64 from AVX2 on): capped at AVX it rounds twice too, as the chip does. Only takes
    # effect before JAX opens its CPU backend (a probe below checks it did).
    # COURSE_EMULATE_WITHOUT=rule,...: a maintainers' switch, read once here, before any student
    # code runs: the named rules of _chip_compiler are left out (tests/test_golden_casts.py shows
    # that leaving out any one of them loses a recorded pattern of the chip)
    without = frozenset(r for r in os.environ.get("COURSE_EMULATE_WITHOUT", "").split(",") if r)
    no_fma = mode == "tpu" and platform.machine() in ("x86_64", "AMD64") and "no-fma" not in without
    if no_fma and "--xla_cpu_max_isa" not in os.environ.get("XLA_FLAGS", ""):
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_max_isa=AVX").strip()

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
                if mode == "tpu":  # presumed to be the chip's HIGH and HIGHEST (not recorded)
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

    # The chip's passes (golden data, TPU v5e, 2026-12-05): x = hi + mid + lo in bfloat16 pieces, hi
    # TRUNCATED (toward zero), mid and lo nearest; (lhs piece, rhs piece) products, smallest first,
    # all into one float32 accumulator. DEFAULT: one pass of x rounded to nearest.
    passes = {
        "bf16x3": ((1, 0), (0, 1), (0, 0)),
        "bf16x6": ((1, 1), (2, 0), (0, 2), (1, 0), (0, 1), (0, 0)),
    }
    chunk = 128  # the chip adds each pass's contraction to its float32 accumulator 128 terms at a time

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
        lhs3 = jnp.transpose(lhs, lb + tuple(lf) + lc).reshape(b, m, k)
        rhs3 = jnp.transpose(rhs, rb + rc + tuple(rf)).reshape(b, k, n)
        return lhs3, rhs3, shape

    def mxu(terms, dimension_numbers):
        """The chip's accumulation: sum over (lhs, rhs) passes, in order, of lhs @ rhs (bfloat16
        values in float32, so every product is exact), added to one float32 accumulator one chunk
        of the contraction at a time, each chunk a float32 dot."""
        views = [as_bkn(a, b, dimension_numbers) for a, b in terms]
        shape = views[0][2]
        b, m, k = views[0][0].shape
        n = views[0][1].shape[2]
        c = -(-k // chunk)
        lhs, rhs = [], []
        for a, bb, _ in views:
            pad = c * chunk - k if c > 1 else 0
            a = jnp.pad(a, ((0, 0), (0, 0), (0, pad))).reshape(b, m, c, -1).transpose(2, 0, 1, 3)
            bb = jnp.pad(bb, ((0, 0), (0, pad), (0, 0))).reshape(b, c, -1, n).transpose(1, 0, 2, 3)
            lhs.append(a)
            rhs.append(bb)
        lhs, rhs = jnp.concatenate(lhs), jnp.concatenate(rhs)
        dims = (((2,), (1,)), ((0,), (0,)))

        def step(acc, ab):
            part = original(
                ab[0], ab[1], dimension_numbers=dims, precision=Precision.HIGHEST, preferred_element_type=jnp.float32
            )
            return acc + part, None

        if lhs.shape[0] == 1:
            acc = step(jnp.zeros((b, m, n), jnp.float32), (lhs[0], rhs[0]))[0]
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
        lhs, rhs, *, dimension_numbers=None, precision=None, preferred_element_type=None, out_sharding=None
    ):
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

    def _chip_compiler(jax, jnp, level, passes_of, canonical, original, without=frozenset()):
        """What XLA on a TPU v5e makes of a compiled program's narrow floats (bf16, f16, fp8, fp4), as a
        transform of the program (a jaxpr) into one a CPU computes the same way. Returns
        ``chip_program(jaxpr) -> jaxpr`` (same inputs and outputs).

        Every rule below is a recorded pattern (tests/data/tpu/tpu_casts.json, ``python -m
        autograder.hardware casts`` on a v5e with JAX 0.10.2, libtpu 0.0.42.1; tests/test_golden_casts.py
        holds this code to each one). The chip's compiler keeps a narrow value in float32 registers
        within a fused computation and rounds it only where it is stored in its type or fed to the MXU:
        - a cast round trip, and arithmetic between casts, is not rounded (``x.astype(bf16)
          .astype(f32)`` is x; ``(x.astype(bf16) * 3).astype(f32)`` is x * 3 in float32); so are
          broadcasts, reshapes, transposes and contiguous slices of such values, float32 and integer
          casts of them, and reductions to float32; a division by a constant multiplies by the
          constant's reciprocal rounded to the narrow type;
        - rounded: the program's outputs; values of a single element (the chip's scalar operations are
          not fused); strided slices, gathers, concatenations and pads of a narrow value; bitcasts;
          reductions and matrix-vector products whose result type is narrow; loop carries, and values
          entering or leaving a loop; inside a scan, a cast of the scanned input (hoisted out of the
          loop); a cumulative sum's elements (accumulated in float32);
        - a matrix-matrix dot (M, N and K above 1) takes its operands as the MXU does: a bf16, f16,
          e4m3 or e2m1 operand (or one cast back to float32) rounded to bf16, an e5m2 one to e5m2, a
          float32 one by the precision (DEFAULT one bf16 pass, HIGH three, HIGHEST six), an f16 one cast
          back to float32 at HIGHEST in three passes; a narrow result type is not rounded where the
          value is used in float32;
        - a matrix-vector dot or a one-term contraction is a float32 dot of the unrounded values;
        - nested jits, custom derivatives and checkpoints are compiled as one program; a cond's branches
          return unrounded values.
        Any other operation on a narrow value computes as written, rounding its inputs and its result.
        The chip's float32 division and transcendental functions (reciprocal approximations) are not
        modelled: a CPU computes them correctly rounded."""
        import math

        from jax import lax
        from jax._src import core

        F32, BF16 = jnp.dtype(jnp.float32), jnp.dtype(jnp.bfloat16)
        F16, E5M2 = jnp.dtype(jnp.float16), jnp.dtype(jnp.float8_e5m2)
        SMALLEST_BF16 = 2.0**-126

        def narrow(dtype):
            """A float narrower than float32 (not a PRNG key's or a token's extended type)."""
            try:
                dtype = jnp.dtype(dtype) if dtype is not None else None
            except TypeError:
                return False
            if dtype is None:
                return False
            return jnp.issubdtype(dtype, jnp.floating) and dtype.itemsize < 4

        class Shadow:
            """A narrow value: ``f32`` what the chip holds (float32, excess precision kept), ``dtype``
            its declared type, ``exact`` whether f32 is a value of that type."""

            __slots__ = ("f32", "dtype", "exact")

            def __init__(self, f32, dtype, exact):
                self.f32, self.dtype, self.exact = f32, jnp.dtype(dtype), exact

        class Wide:
            """A float32 value cast up from a narrow one: a dot sees where it came from."""

            __slots__ = ("f32", "source")

            def __init__(self, f32, source):
                self.f32, self.source = f32, source

        def value(x):
            return x.f32 if isinstance(x, (Shadow, Wide)) else x

        def store(f32, dtype):
            """f32 stored in ``dtype``, as the chip stores it: rounded to nearest even by a CPU
            convert that no later pass can fold; bf16 results below the normal range flush to zero; a
            value rounded to zero keeps its sign (XLA:CPU's float8 converts lose it, the chip's do not)."""
            if jnp.dtype(dtype) == BF16 and "flush" not in without:
                f32 = jnp.where(jnp.abs(f32) < SMALLEST_BF16, f32 * 0, f32)
            stored = lax.convert_element_type(f32, dtype)
            zero = lax.convert_element_type(f32 * 0, dtype)
            stored = jnp.where(lax.convert_element_type(stored, F32) == 0, zero, stored)
            return lax.optimization_barrier(stored)

        def materialize(s):
            return lax.convert_element_type(s.f32, s.dtype) if s.exact else store(s.f32, s.dtype)

        def rounded(s):
            return s if s.exact else Shadow(lax.convert_element_type(materialize(s), F32), s.dtype, True)

        def exact_shadow(v, dtype=None):
            return Shadow(lax.convert_element_type(v, F32), dtype or v.dtype, True)

        def single(s, aval):
            return rounded(s) if math.prod(aval.shape) == 1 and "single-element" not in without else s

        ELEMENTWISE = {"add", "sub", "mul", "div", "neg", "abs", "max", "min", "sign", "round", "floor", "ceil"}
        ELEMENTWISE |= {"select_n", "eq", "ne", "lt", "le", "gt", "ge", "clamp", "integer_pow", "square"}
        LAYOUT = {"broadcast_in_dim", "reshape", "transpose", "squeeze", "expand_dims", "copy", "copy_p"}
        REDUCTIONS = {"reduce_sum", "reduce_max", "reduce_min"}
        INLINED = {"pjit": "jaxpr", "jit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr"}
        INLINED |= {"custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}
        INLINED |= {"custom_vjp_call_jaxpr": "fun_jaxpr", "remat": "jaxpr", "checkpoint": "jaxpr"}

        def run(jaxpr, consts, args, hoisted=frozenset()):
            """Evaluate ``jaxpr`` on the current trace by the chip's rules. ``hoisted``: invars whose
            narrow casts the chip moves out of a loop (a scan's inputs and constants)."""
            env, invariant, reduced = {}, set(), set()

            def read(v):
                if isinstance(v, core.Literal):
                    return exact_shadow(v.val, v.aval.dtype) if narrow(getattr(v.aval, "dtype", None)) else v.val
                return env[v]

            for v, c in zip(jaxpr.constvars, consts):
                env[v] = exact_shadow(c) if narrow(getattr(v.aval, "dtype", None)) else c
            for v, a in zip(jaxpr.invars, args):
                env[v] = a
                if v in hoisted:
                    invariant.add(v)
            for eqn in jaxpr.eqns:
                ins = [read(v) for v in eqn.invars]
                outs = apply(eqn, ins)
                if eqn.primitive.name == "convert_element_type" and not isinstance(eqn.invars[0], core.Literal):
                    hoist = eqn.invars[0] in invariant and "hoisted-casts" not in without
                    if hoist or (eqn.invars[0] in reduced and "reduction-casts" not in without):
                        outs = [rounded(o) if isinstance(o, Shadow) else o for o in outs]
                if eqn.primitive.name in REDUCTIONS or (eqn.primitive.name == "dot_general" and not on_mxu(eqn)):
                    reduced.update(eqn.outvars)
                if invariant and any(not isinstance(v, core.Literal) and v in invariant for v in eqn.invars):
                    if all(isinstance(v, core.Literal) or v in invariant for v in eqn.invars):
                        invariant.update(eqn.outvars)
                for v, o in zip(eqn.outvars, outs):
                    env[v] = o
            return [read(v) for v in jaxpr.outvars]

        def as_written(eqn, ins):
            """The operation as written: narrow inputs stored, narrow results stored."""
            vals = [materialize(x) if isinstance(x, Shadow) else value(x) for x in ins]
            outs = eqn.primitive.bind(*vals, **eqn.params)
            outs = outs if eqn.primitive.multiple_results else [outs]
            return [
                exact_shadow(lax.optimization_barrier(o), v.aval.dtype) if narrow(getattr(v.aval, "dtype", None)) else o
                for v, o in zip(eqn.outvars, outs)
            ]

        def body(jaxpr, shadow_in=(), shadow_out=False, hoisted=()):
            """``jaxpr`` re-traced by the rules, as a jaxpr with the same inputs and outputs (or with
            the narrow inputs at positions ``shadow_in`` and every narrow output in float32, unrounded)."""
            avals = [v.aval for v in jaxpr.invars]

            def fn(*xs):
                args = []
                for i, (x, aval) in enumerate(zip(xs, avals)):
                    if narrow(getattr(aval, "dtype", None)):
                        args.append(Shadow(x, aval.dtype, False) if i in shadow_in else exact_shadow(x, aval.dtype))
                    else:
                        args.append(x)
                outs = run(jaxpr, jaxpr.consts, args, {jaxpr.invars[i] for i in hoisted})
                return [(o.f32 if shadow_out else materialize(o)) if isinstance(o, Shadow) else value(o) for o in outs]

            specs = [
                jax.ShapeDtypeStruct(a.shape, F32 if i in shadow_in and narrow(getattr(a, "dtype", None)) else a.dtype)
                for i, a in enumerate(avals)
            ]
            return jax.make_jaxpr(fn)(*specs)

        def apply(eqn, ins):
            name = eqn.primitive.name
            outs = [v.aval for v in eqn.outvars]
            if name in INLINED and INLINED[name] in eqn.params and "inlined" not in without:
                inner = eqn.params[INLINED[name]]
                return run(inner, inner.consts, ins)
            if name == "dot_general":
                return [dot(eqn, ins)]
            if name in ("scan", "while") and "loops" not in without:
                params = dict(eqn.params)
                if name == "scan":
                    params["jaxpr"] = body(params["jaxpr"], hoisted=scan_inputs(params))
                else:
                    params["cond_jaxpr"], params["body_jaxpr"] = body(params["cond_jaxpr"]), body(params["body_jaxpr"])
                vals = [materialize(x) if isinstance(x, Shadow) else value(x) for x in ins]
                res = eqn.primitive.bind(*vals, **params)
                return [exact_shadow(o, a.dtype) if narrow(getattr(a, "dtype", None)) else o for o, a in zip(res, outs)]
            if name == "cond" and "cond" not in without:
                shadow_in = {i for i, x in enumerate(ins[1:]) if isinstance(x, Shadow)}
                params = dict(eqn.params, branches=tuple(body(b, shadow_in, True) for b in eqn.params["branches"]))
                res = eqn.primitive.bind(*[value(x) for x in ins], **params)
                return [
                    Shadow(o, a.dtype, False) if narrow(getattr(a, "dtype", None)) else o for o, a in zip(res, outs)
                ]
            if name == "reduce_precision" and eqn.params["exponent_bits"] == 8 and "flush" not in without:
                (x,) = ins
                res = eqn.primitive.bind(value(x), **eqn.params)
                res = jnp.where(jnp.abs(res) < SMALLEST_BF16, res * 0, res)
                return [Shadow(res, x.dtype, False) if isinstance(x, Shadow) else res]
            if not any(isinstance(x, Shadow) for x in ins) and not any(narrow(getattr(a, "dtype", None)) for a in outs):
                res = eqn.primitive.bind(*[value(x) for x in ins], **eqn.params)
                res = res if eqn.primitive.multiple_results else [res]
                if name == "convert_element_type" and isinstance(ins[0], Wide):
                    return [Wide(res[0], ins[0].source) if jnp.dtype(res[0].dtype) == F32 else res[0]]
                return res
            if name == "convert_element_type":
                (x,) = ins
                new = jnp.dtype(eqn.params["new_dtype"])
                if narrow(new):
                    s = Shadow(lax.convert_element_type(value(x), F32), new, False)
                    if isinstance(x, Shadow) and x.exact and x.dtype == new:
                        s.exact = True
                    return [single(s, outs[0]) if "unrounded-casts" not in without else rounded(s)]
                out = lax.convert_element_type(value(x), new)
                return [Wide(out, x) if isinstance(x, Shadow) and new == F32 else out]
            constant_divisor = name == "div" and isinstance(eqn.invars[1], core.Literal)
            if constant_divisor and isinstance(ins[0], Shadow) and "constant-division" not in without:
                reciprocal = lax.convert_element_type(
                    lax.convert_element_type(1.0 / float(eqn.invars[1].val), outs[0].dtype), F32
                )
                return [single(Shadow(ins[0].f32 * reciprocal, outs[0].dtype, False), outs[0])]
            contiguous = name == "slice" and set(eqn.params.get("strides") or ()) <= {1}
            if (name in ELEMENTWISE and "arithmetic" not in without) or (
                (name in LAYOUT or contiguous) and "layout" not in without
            ):
                res = eqn.primitive.bind(*[value(x) for x in ins], **eqn.params)
                res = res if eqn.primitive.multiple_results else [res]
                exact = name not in ELEMENTWISE and all(x.exact for x in ins if isinstance(x, Shadow))
                return [
                    single(Shadow(o, a.dtype, exact), a) if narrow(getattr(a, "dtype", None)) else o
                    for o, a in zip(res, outs)
                ]
            if name == "cumsum" and isinstance(ins[0], Shadow) and "cumsum" not in without:
                return [blocked_cumsum(rounded(ins[0]), eqn.params["axis"], eqn.params["reverse"])]
            return as_written(eqn, ins)

        def blocked_cumsum(s, axis, reverse):
            """The chip's cumulative sum of a narrow array: blocks of 128 along the axis, each block's
            prefix sums accumulated in float32 and stored, the block totals' prefix sums stored too,
            and each element their float32 sum (stored only where it is stored)."""
            x = jnp.flip(s.f32, axis) if reverse else s.f32
            x = jnp.moveaxis(x, axis, -1)
            n = x.shape[-1]
            blocks = -(-n // 128)
            x = jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, blocks * 128 - n)]).reshape(*x.shape[:-1], blocks, 128)
            within = rounded(Shadow(lax.cumsum(x, x.ndim - 1), s.dtype, False)).f32
            totals = within[..., -1]
            offsets = rounded(Shadow(lax.cumsum(totals, totals.ndim - 1) - totals, s.dtype, False)).f32
            out = (within + offsets[..., None]).reshape(*x.shape[:-2], blocks * 128)[..., :n]
            out = jnp.moveaxis(out, -1, axis)
            return Shadow(jnp.flip(out, axis) if reverse else out, s.dtype, False)

        def scan_inputs(params):
            """A scan body's invars that are its constants and its scanned inputs (not its carries)."""
            n = len(params["jaxpr"].invars)
            if "num_consts" in params:
                consts, carries = params["num_consts"], params["num_carry"]
                return set(range(consts)) | set(range(consts + carries, n))
            consts, _, xs = params["ft_in"].update(list(range(n))).unpack()  # JAX 0.12: a FlatTree
            return set(consts) | set(xs)

        def on_mxu(eqn):
            """A matrix-matrix dot: M, N and K (batch dimensions aside) all above 1."""
            la, ra = (v.aval for v in eqn.invars)
            (lc, rc), (lb, rb) = canonical(eqn.params["dimension_numbers"], la, ra)
            k = math.prod(la.shape[d] for d in lc)
            m = math.prod(la.shape[d] for d in range(len(la.shape)) if d not in lc + lb)
            n = math.prod(ra.shape[d] for d in range(len(ra.shape)) if d not in rc + rb)
            return min(k, m, n) > 1

        def dot(eqn, ins):
            lhs, rhs = ins
            la, ra = (v.aval for v in eqn.invars)
            out = eqn.outvars[0].aval
            integers = all(jnp.issubdtype(a.dtype, jnp.integer) for a in (la, ra))
            if integers and jnp.issubdtype(out.dtype, jnp.floating) and "integer-dots" not in without:
                # integer operands: the MXU accumulates in int32 whatever the output type (exact sums)
                params = dict(eqn.params, preferred_element_type=jnp.int32)
                res = eqn.primitive.bind(*[value(x) for x in ins], **params)
                res = lax.convert_element_type(res, F32)
                return Shadow(res, out.dtype, False) if narrow(getattr(out, "dtype", None)) else res.astype(out.dtype)
            if not all(jnp.issubdtype(a.dtype, jnp.floating) for a in (la, ra)) or jnp.dtype(out.dtype) == jnp.float64:
                return as_written(eqn, ins)[0]
            dims = canonical(eqn.params["dimension_numbers"], la, ra)
            if not on_mxu(eqn) and "matrix-vector" not in without:  # off the MXU: float32, what the registers hold
                res = original(
                    value(lhs),
                    value(rhs),
                    dimension_numbers=dims,
                    precision=jax.lax.Precision.HIGHEST,
                    preferred_element_type=F32,
                )
                return (
                    rounded(Shadow(res, out.dtype, False))
                    if narrow(getattr(out, "dtype", None))
                    else res.astype(out.dtype)
                )
            how = level(eqn.params.get("precision"))
            cap = []

            def operand(x):
                source = x if isinstance(x, Shadow) else x.source if isinstance(x, Wide) else None
                if source is None or "mxu-operands" in without:
                    return jnp.asarray(value(x), F32)
                if source.dtype == E5M2 and "e5m2-operands" not in without:
                    return lax.convert_element_type(materialize(Shadow(source.f32, E5M2, source.exact)), F32)
                if source.dtype == F16 and isinstance(x, Wide) and "f16-highest" not in without:
                    cap.append("bf16x3")  # the chip's HIGHEST of an f16 value cast up: three passes
                    return x.f32
                bf = Shadow(source.f32, BF16, source.exact and source.dtype == BF16)
                return lax.convert_element_type(materialize(bf), F32)

            a, b = operand(lhs), operand(rhs)
            if cap and how == "bf16x6":
                how = "bf16x3"
            if how == "exact":
                res = original(
                    a, b, dimension_numbers=dims, precision=jax.lax.Precision.HIGHEST, preferred_element_type=F32
                )
            else:  # the MXU's passes: one (DEFAULT), three (HIGH) or six (HIGHEST) of bf16 pieces
                res = passes_of(a, b, how, dims)
            return Shadow(res, out.dtype, False) if narrow(getattr(out, "dtype", None)) else res.astype(out.dtype)

        def chip_program(jaxpr):
            return body(jaxpr)

        return chip_program

    def _install_lowering(jax, chip_program):
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

    if mode == "tpu":
        chip_program = _chip_compiler(jax, jnp, level, _tpu_dot, canonical, original, without)
        routes_escaped = _install_lowering(jax, chip_program)
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


def _course_emulation_mode():
    import os

    return os.environ.get("COURSE_EMULATE", "").lower()


if _course_emulation_mode() in ("tpu", "gpu"):
    try:
        _course_emulate_precision(_course_emulation_mode())
    except RuntimeError as _course_exc:
        if "get_ipython" not in globals():
            raise
        # An IPython start-up file: IPython would print the error and run the notebook anyway,
        # without emulation. A kernel that cannot grade as asked stops instead, saying why.
        import os as _os
        import sys as _sys

        print(f"emulate_precision.py: {_course_exc}", file=_sys.__stderr__, flush=True)
        _os._exit(3)
del _course_emulate_precision, _course_emulation_mode
