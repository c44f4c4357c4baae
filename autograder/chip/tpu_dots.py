"""A part of the precision emulation (autograder/chip/emulation.py joins the parts into one script):
the chip's dots, for tpu_compiler.py's rewrite of a compiled program: which dots run on the matrix
unit (MXU), the algorithms the chip refuses, a one-term contraction with a narrow result, and a
dot's operands as the MXU takes them (the rules: tpu_compiler.py's docstring; the record:
tests/data/tpu/tpu_dots.json, tests/test_golden_dots.py). Self-contained: only JAX.
"""


def _course_chip_dots(jax, jnp, *helpers):
    """tpu_compiler.py's ``on_mxu(eqn)`` and ``dot(eqn, ins)``, from its helpers (dicts of its
    closure's names: the program's values, shadows of narrow values, the MXU's passes)."""
    import math

    from jax import lax

    h = {k: v for d in helpers for k, v in d.items()}
    canonical, original, narrow, materialize, value = (
        h[k] for k in ("canonical", "original", "narrow", "materialize", "value")
    )
    bind, as_written, rounded, as_bf16 = h["bind"], h["as_written"], h["rounded"], h["as_bf16"]
    level, passes_of, without, Shadow, Wide = h["level"], h["passes_of"], h["without"], h["Shadow"], h["Wide"]
    F32, BF16 = jnp.dtype(jnp.float32), jnp.dtype(jnp.bfloat16)
    F16, E5M2 = jnp.dtype(jnp.float16), jnp.dtype(jnp.float8_e5m2)
    REFUSED = {"TF32_TF32_F32", "TF32_TF32_F32_X3", "BF16_BF16_BF16", "F16_F16_F32"}

    def on_mxu(eqn):
        """A matrix-matrix dot: M, N and K (batch dimensions aside) all above 1."""
        la, ra = (v.aval for v in eqn.invars)
        (lc, rc), (lb, rb) = canonical(eqn.params["dimension_numbers"], la, ra)
        k = math.prod(la.shape[d] for d in lc)
        m = math.prod(la.shape[d] for d in range(len(la.shape)) if d not in lc + lb)
        n = math.prod(ra.shape[d] for d in range(len(ra.shape)) if d not in rc + rb)
        return min(k, m, n) > 1

    def algorithm(eqn):
        """The name of a dot's explicit algorithm (a DotAlgorithmPreset other than DEFAULT), or None."""
        preset = eqn.params.get("precision")
        name = getattr(preset, "name", None) if isinstance(preset, lax.DotAlgorithmPreset) else None
        return None if name == "DEFAULT" or "algorithms" in without else name

    def refuse(eqn):
        """The chip's compiler refuses these algorithms (tests/data/tpu/tpu_dots.json): no TF32, no
        bf16 or f16 accumulation; F32_F32_F32 only off the MXU (computed exactly there)."""
        name = algorithm(eqn)
        if name in REFUSED or (name == "F32_F32_F32" and on_mxu(eqn)):
            raise jax.errors.JaxRuntimeError(f"UNIMPLEMENTED: Dot algorithm ALG_DOT_{name} is not supported.")

    def one_term(eqn, ins, out):
        """A one-term contraction (K = 1) with a narrow result: the chip multiplies its operands as
        stored in their narrow types (rounded), the product in float32, rounded where it is stored."""
        (lc, _), _ = canonical(eqn.params["dimension_numbers"], *(v.aval for v in eqn.invars))
        k = math.prod(eqn.invars[0].aval.shape[d] for d in lc)
        if k != 1 or not narrow(getattr(out, "dtype", None)) or "one-term-narrow" in without:
            return None
        vals = [lax.convert_element_type(materialize(x), F32) if isinstance(x, Shadow) else value(x) for x in ins]
        dims = canonical(eqn.params["dimension_numbers"], *(v.aval for v in eqn.invars))
        res = original(*vals, dimension_numbers=dims, precision=jax.lax.Precision.HIGHEST, preferred_element_type=F32)
        return Shadow(res, out.dtype, False)

    def dot(eqn, ins):
        lhs, rhs = ins
        la, ra = (v.aval for v in eqn.invars)
        out = eqn.outvars[0].aval
        refuse(eqn)
        integers = all(jnp.issubdtype(a.dtype, jnp.integer) for a in (la, ra))
        if integers and jnp.issubdtype(out.dtype, jnp.floating) and "integer-dots" not in without:
            # integer operands: the MXU accumulates in int32 whatever the output type (exact sums;
            # XLA:CPU does too from JAX 0.12.1, not in 0.12.0.1: tests/test_golden_casts.py)
            params = dict(eqn.params, preferred_element_type=jnp.int32)
            (res,) = bind(eqn, [value(x) for x in ins], params)
            res = lax.convert_element_type(res, F32)
            return Shadow(res, out.dtype, False) if narrow(getattr(out, "dtype", None)) else res.astype(out.dtype)
        if not all(jnp.issubdtype(a.dtype, jnp.floating) for a in (la, ra)) or jnp.dtype(out.dtype) == jnp.float64:
            return as_written(eqn, ins)[0]
        dims = canonical(eqn.params["dimension_numbers"], la, ra)
        term = None if on_mxu(eqn) else one_term(eqn, ins, out)
        if term is not None:
            return term
        if not on_mxu(eqn) and algorithm(eqn) is None and "matrix-vector" not in without:
            # off the MXU: float32, what the registers hold (an explicit algorithm is kept: below)
            res = original(
                value(lhs),
                value(rhs),
                dimension_numbers=dims,
                precision=jax.lax.Precision.HIGHEST,
                preferred_element_type=F32,
            )
            return (
                rounded(Shadow(res, out.dtype, False)) if narrow(getattr(out, "dtype", None)) else res.astype(out.dtype)
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
            if source.exact and source.dtype == BF16:
                return source.f32
            if "bf16-stores" not in without:
                return as_bf16(source.f32, barrier=False)  # rounded to bf16 in float32; the dot ends the fusion
            return lax.convert_element_type(materialize(Shadow(source.f32, BF16, False)), F32)

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

    return on_mxu, dot
