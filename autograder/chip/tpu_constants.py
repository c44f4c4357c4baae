"""A part of the precision emulation (autograder/chip/emulation.py joins the parts): one rule of the
chip's compiler that is not about narrow floats, kept apart from tpu_compiler.py, which calls it for
every operation of a program it rewrites. Defines one function; startup.py deletes it.
"""


def _course_fold_constants(eqn, folded, core, lax, jnp, without):
    """XLA's algebraic simplifier on the chip (not on a CPU) folds a chain of constants:
    (a + c1) + c2 is a + (c1 + c2), (a - c1) + c2 is a + (c2 - c1), (a * c1) * c2 is
    a * (c1 * c2), the constants combined in the operation's type (tests/data/tpu/tpu_fuzz.json:
    (x - 3) + 3 returned x, (x * 0.1) * 0.1 returned x * 0.0100000007). ``folded`` maps an
    operation's result to (family, operand, constant) for the next one."""
    name = eqn.primitive.name
    if name not in ("add", "sub", "mul") or "constant-folding" in without:
        return eqn
    lits = [isinstance(v, core.Literal) for v in eqn.invars]
    if lits.count(True) != 1 or (name == "sub" and lits[0]):
        return eqn
    var, lit = (eqn.invars[1], eqn.invars[0]) if lits[0] else (eqn.invars[0], eqn.invars[1])
    dtype = jnp.dtype(eqn.outvars[0].aval.dtype)
    if not jnp.issubdtype(dtype, jnp.floating) or getattr(lit.aval, "shape", ()) != ():
        return eqn
    import numpy as np

    family = "mul" if name == "mul" else "add"
    c = np.asarray(lit.val, dtype)[()]
    c = -c if name == "sub" else c
    if var in folded and folded[var][0] == family and folded[var][1] is not None:
        _, base, c1 = folded[var]
        c = np.asarray(c1 * c if family == "mul" else c1 + c, dtype)[()]
        new = core.Literal(c, core.ShapedArray((), dtype, weak_type=lit.aval.weak_type))
        eqn = eqn.replace(primitive=lax.mul_p if family == "mul" else lax.add_p, invars=[base, new])
        var = base
    folded[eqn.outvars[0]] = (family, var, c)
    return eqn
