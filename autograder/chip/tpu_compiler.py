"""A part of the precision emulation (autograder/chip/emulation.py joins the parts into one script):
what XLA on a TPU makes of a compiled program's narrow floats, as a rewrite of the program. It
defines one function; emulate_precision.py calls it in TPU mode and hooks it into XLA's lowering;
startup.py deletes the names, so that a notebook's namespace keeps none. Self-contained: only JAX is
importable where it runs (a kernel's start-up, the sandboxed student process, the checker).
"""


def _course_chip_compiler(jax, jnp, level, passes_of, canonical, original, without=frozenset()):
    """What XLA on a TPU v5e makes of a compiled program's narrow floats (bf16, f16, fp8, fp4), as a
    transform of the program (a jaxpr) into one a CPU computes the same way. Returns
    ``chip_program(jaxpr) -> jaxpr`` (same inputs and outputs).

    Every rule below is a recorded pattern (tests/data/tpu/tpu_casts.json, ``python -m
    autograder.chip.hardware casts`` on a v5e with JAX 0.10.2, libtpu 0.0.42.1; tests/test_golden_casts.py
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
      but a one-term contraction with a narrow result multiplies its operands as stored in their
      narrow types (rounded), the product kept in float32 where it is used in float32;
    - a dot at an explicit algorithm (a DotAlgorithmPreset, or its name as a string) computes as
      the algorithm says at every shape, off the MXU too (BF16_BF16_F32: operands rounded to bf16,
      float32 sums; _X3 and _X6: HIGH's and HIGHEST's passes); TF32, TF32_X3, BF16_BF16_BF16 and
      F16_F16_F32 are refused, F32_F32_F32 on the MXU (tests/data/tpu/tpu_dots.json, lesson 05's
      bf16 policy as students write it: tests/test_golden_dots.py);
    - nested jits, custom derivatives and checkpoints are compiled as one program; a cond's branches
      return unrounded values.
    Any other operation on a narrow value computes as written, rounding its inputs and its result.
    The chip's float32 division and transcendental functions (reciprocal approximations) are not
    modelled: a CPU computes them correctly rounded."""
    import math
    import os

    from jax import lax
    from jax._src import core

    fold_constants = _course_fold_constants  # noqa: F821  (tpu_constants.py: taken now, its name is deleted later)
    untouched = _course_untouched  # noqa: F821  (tpu_constants.py)
    F32, BF16 = jnp.dtype(jnp.float32), jnp.dtype(jnp.bfloat16)
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

    def as_f32(v):
        """v in float32 (no operation where it is float32 already: each costs a trace and a lowering)."""
        return v if jnp.dtype(getattr(v, "dtype", None)) == F32 else lax.convert_element_type(v, F32)

    def as_bf16(f32, barrier=True):
        """f32 stored in bf16, kept in float32: what store() computes for bf16 in two operations
        where store() needs nine (reduce_precision rounds to nearest even, as the convert does,
        and no pass folds it; values below bf16's normal range flush to zero first, keeping their
        sign). An unrolled chain of stored bf16 values compiles as fast as its native program."""
        if "flush" not in without:
            f32 = lax.select(lax.lt(lax.abs(f32), SMALLEST_BF16), lax.mul(f32, 0.0), f32)
        f32 = lax.reduce_precision(f32, exponent_bits=8, mantissa_bits=7)
        return lax.optimization_barrier(f32) if barrier else f32

    def materialize(s):
        if s.exact or (s.dtype == BF16 and "bf16-stores" not in without):
            return lax.convert_element_type(s.f32 if s.exact else as_bf16(s.f32), s.dtype)
        return store(s.f32, s.dtype)

    def rounded(s):
        if s.exact:
            return s
        if s.dtype == BF16 and "bf16-stores" not in without:
            return Shadow(as_bf16(s.f32), BF16, True)
        return Shadow(lax.convert_element_type(materialize(s), F32), s.dtype, True)

    def exact_shadow(v, dtype=None):
        return Shadow(lax.convert_element_type(v, F32), dtype or v.dtype, True)

    def single(s, aval):
        return rounded(s) if math.prod(aval.shape) == 1 and "single-element" not in without else s

    ELEMENTWISE = {"add", "sub", "mul", "div", "neg", "abs", "max", "min", "sign", "round", "floor", "ceil"}
    ELEMENTWISE |= {"select_n", "eq", "ne", "lt", "le", "gt", "ge", "clamp", "integer_pow", "square"}
    LAYOUT = {"broadcast_in_dim", "reshape", "transpose", "squeeze", "expand_dims", "copy", "copy_p"}
    REDUCTIONS = {"reduce_sum", "reduce_max", "reduce_min"}
    INDEXED = {"dynamic_slice", "gather", "slice", "squeeze", "reshape"}  # a part of a loop's input
    # The chip's choice that the recorded programs do not pin down (docs/HARDWARE.md's limit
    # loop-casts): this emulation's reading rounds a scan's cast of its inputs (moved out of the
    # loop) and keeps a cast of a part of a loop's input taken by its index (x[i]) and a while loop's
    # casts of its inputs in float32; COURSE_EMULATE_WITHOUT=choices, the other reading, the reverse.
    other = "choices" in without
    INLINED = {"pjit": "jaxpr", "jit": "jaxpr", "closed_call": "call_jaxpr", "core_call": "call_jaxpr"}
    INLINED |= {"custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}
    INLINED |= {"custom_vjp_call_jaxpr": "fun_jaxpr", "remat": "jaxpr", "checkpoint": "jaxpr", "remat2": "jaxpr"}
    INLINED |= {"custom_vmap_call": "call"}  # jax.checkpoint and custom_vmap: compiled into the one program

    def bind(eqn, vals, params=None):
        """The operation bound on the current trace, as written (sub-programs as JAX passes them)."""
        found = eqn.primitive.get_bind_params(eqn.params if params is None else params)
        subfuns, bind_params = found if isinstance(found, tuple) else ((), found)  # JAX < 0.12: (subfuns, params)
        outs = eqn.primitive.bind(*subfuns, *vals, **bind_params)
        return outs if eqn.primitive.multiple_results else [outs]

    def chose(limit):
        """Note that this process's programs met a choice the chip makes either way (docs/HARDWARE.md's
        limit ``limit``), in COURSE_EMULATION_CHOICES: the grader grades a failed check of it again
        under the other reading (COURSE_EMULATE_WITHOUT=choices; grader/core/readings.py)."""
        noted = set(filter(None, os.environ.get("COURSE_EMULATION_CHOICES", "").split(",")))
        if limit not in noted:
            os.environ["COURSE_EMULATION_CHOICES"] = ",".join(sorted(noted | {limit}))

    def run(jaxpr, consts, args, hoisted=frozenset(), loop=""):
        """Evaluate ``jaxpr`` on the current trace by the chip's rules. ``hoisted``: invars whose
        narrow casts the chip may move out of a loop (its constants, a scan's inputs); ``loop``:
        "scan" or "while" for a loop's body."""
        env, invariant, indexed, reduced, folded = {}, set(), set(), set(), {}

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
            eqn = fold_constants(eqn, folded, core, lax, jnp, without)
            ins = [read(v) for v in eqn.invars]
            outs = apply(eqn, ins)
            if eqn.primitive.name == "convert_element_type" and not isinstance(eqn.invars[0], core.Literal):
                unrounded, src = any(isinstance(o, Shadow) and not o.exact for o in outs), eqn.invars[0]
                # a cast the chip may move out of the loop (and round): of the loop's input, or of a
                # part of it taken by the loop's index (x[i])
                moved = (src in invariant or src in indexed) and "hoisted-casts" not in without
                # this emulation's reading: a scan's casts of its inputs; the other: the rest
                hoist = (src in indexed or loop == "while") if other else (src in invariant and loop == "scan")
                summed = src in reduced and "reduction-casts" not in without  # recorded for sums: rounded
                if unrounded and not other and moved and not summed:
                    chose("loop-casts")
                if (moved and hoist) or summed:
                    outs = [rounded(o) if isinstance(o, Shadow) else o for o in outs]
            if eqn.primitive.name in REDUCTIONS or (eqn.primitive.name == "dot_general" and not on_mxu(eqn)):
                reduced.update(eqn.outvars)
            loop_input = [not isinstance(v, core.Literal) and (v in invariant or v in indexed) for v in eqn.invars]
            if any(loop_input):
                if all(isinstance(v, core.Literal) or v in invariant for v in eqn.invars):
                    invariant.update(eqn.outvars)
                elif all(isinstance(v, core.Literal) or k for v, k in zip(eqn.invars, loop_input)):
                    indexed.update(eqn.outvars)
                elif eqn.primitive.name in INDEXED and loop_input[0]:
                    indexed.update(eqn.outvars)  # x[i] of a loop's input x: the chip may move x's cast out
            for v, o in zip(eqn.outvars, outs):
                env[v] = o
        return [read(v) for v in jaxpr.outvars]

    def as_written(eqn, ins):
        """The operation as written: narrow inputs stored, narrow results stored."""
        vals = [materialize(x) if isinstance(x, Shadow) else value(x) for x in ins]
        outs = bind(eqn, vals)
        return [
            exact_shadow(lax.optimization_barrier(o), v.aval.dtype) if narrow(getattr(v.aval, "dtype", None)) else o
            for v, o in zip(eqn.outvars, outs)
        ]

    def body(jaxpr, shadow_in=(), shadow_out=False, hoisted=(), loop=""):
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
            outs = run(jaxpr, jaxpr.consts, args, {jaxpr.invars[i] for i in hoisted}, loop)
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
                params["jaxpr"] = body(params["jaxpr"], hoisted=scan_inputs(params), loop="scan")
            else:
                consts = range(params["body_nconsts"])
                params["cond_jaxpr"] = body(params["cond_jaxpr"])
                params["body_jaxpr"] = body(params["body_jaxpr"], hoisted=consts, loop="while")
            vals = [materialize(x) if isinstance(x, Shadow) else value(x) for x in ins]
            res = bind(eqn, vals, params)
            return [exact_shadow(o, a.dtype) if narrow(getattr(a, "dtype", None)) else o for o, a in zip(res, outs)]
        if name == "cond" and "cond" not in without:
            shadow_in = {i for i, x in enumerate(ins[1:]) if isinstance(x, Shadow)}
            params = dict(eqn.params, branches=tuple(body(b, shadow_in, True) for b in eqn.params["branches"]))
            res = bind(eqn, [value(x) for x in ins], params)
            return [Shadow(o, a.dtype, False) if narrow(getattr(a, "dtype", None)) else o for o, a in zip(res, outs)]
        if name == "reduce_precision" and eqn.params["exponent_bits"] == 8 and "flush" not in without:
            (x,) = ins
            (res,) = bind(eqn, [value(x)])
            res = jnp.where(jnp.abs(res) < SMALLEST_BF16, res * 0, res)
            return [Shadow(res, x.dtype, False) if isinstance(x, Shadow) else res]
        if not any(isinstance(x, Shadow) for x in ins) and not any(narrow(getattr(a, "dtype", None)) for a in outs):
            res = bind(eqn, [value(x) for x in ins])
            if name == "convert_element_type" and isinstance(ins[0], Wide):
                return [Wide(res[0], ins[0].source) if jnp.dtype(res[0].dtype) == F32 else res[0]]
            return res
        if name == "convert_element_type":
            (x,) = ins
            new = jnp.dtype(eqn.params["new_dtype"])
            if narrow(new):
                s = Shadow(as_f32(value(x)), new, False)
                if isinstance(x, Shadow) and x.exact and x.dtype == new:
                    s.exact = True
                return [single(s, outs[0]) if "unrounded-casts" not in without else rounded(s)]
            same = jnp.dtype(getattr(value(x), "dtype", None)) == new
            out = value(x) if same else lax.convert_element_type(value(x), new)
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
            res = bind(eqn, [value(x) for x in ins])
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

    on_mxu, dot = _course_chip_dots(  # noqa: F821  (tpu_dots.py: taken now, its name is deleted later)
        jax,
        jnp,
        dict(canonical=canonical, original=original, narrow=narrow, materialize=materialize, value=value),
        dict(bind=bind, as_written=as_written, rounded=rounded, as_bf16=as_bf16, level=level, passes_of=passes_of),
        dict(without=without, Shadow=Shadow, Wide=Wide),
    )

    def chip_program(jaxpr):
        return jaxpr if untouched(jaxpr, core, narrow) and "untouched" not in without else body(jaxpr)

    return chip_program
