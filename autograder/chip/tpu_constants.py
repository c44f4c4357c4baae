"""A part of the precision emulation (autograder/chip/emulation.py joins the parts): one rule of the
chip's compiler that is not about narrow floats, kept apart from tpu_compiler.py, which calls it for
every operation of a program it rewrites. Defines one function; startup.py deletes it.
"""


def _course_fold_constants(eqn, folded, core, lax, jnp, without):
    """XLA's algebraic simplifier on the chip (not on a CPU) folds a chain of constants:
    (a + c1) + c2 is a + (c1 + c2), (a - c1) + c2 is a + (c2 - c1), (c1 - a) + c2 is (c1 + c2) - a,
    (a * c1) * c2 is a * (c1 * c2), the constants combined in the operation's type
    (tests/data/tpu/fuzz/: (x - 3) + 3 returned x, (x * 0.1) * 0.1 returned x * 0.0100000007,
    (0.1 - x) + 0.2 returned 0.3 - x). ``folded`` maps an operation's result to (family, operand,
    constant, sign): the value is sign * operand + constant, or operand * constant."""
    name = eqn.primitive.name
    if name not in ("add", "sub", "mul") or "constant-folding" in without:
        return eqn
    lits = [isinstance(v, core.Literal) for v in eqn.invars]
    if lits.count(True) != 1:
        return eqn
    var, lit = (eqn.invars[1], eqn.invars[0]) if lits[0] else (eqn.invars[0], eqn.invars[1])
    dtype = jnp.dtype(eqn.outvars[0].aval.dtype)
    if not jnp.issubdtype(dtype, jnp.floating) or getattr(lit.aval, "shape", ()) != ():
        return eqn
    import numpy as np

    family = "mul" if name == "mul" else "add"
    c = np.asarray(lit.val, dtype)[()]
    sign = -1 if name == "sub" and lits[0] else 1  # c - a
    c = -c if name == "sub" and not lits[0] else c  # a - c
    if var in folded and folded[var][0] == family and sign == 1:
        _, base, c1, sign = folded[var]
        c = np.asarray(c1 * c if family == "mul" else c1 + c, dtype)[()]
        new = core.Literal(c, core.ShapedArray((), dtype, weak_type=lit.aval.weak_type))
        if family == "mul":
            eqn = eqn.replace(primitive=lax.mul_p, invars=[base, new])
        elif sign == 1:
            eqn = eqn.replace(primitive=lax.add_p, invars=[base, new])
        else:
            eqn = eqn.replace(primitive=lax.sub_p, invars=[new, base])
        var = base
    folded[eqn.outvars[0]] = (family, var, c, sign)
    return eqn
