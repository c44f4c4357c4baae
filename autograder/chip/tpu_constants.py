"""A part of the precision emulation (autograder/chip/emulation.py joins the parts): what tpu_compiler.py
needs beside its rules for narrow floats: one rule of the chip's compiler that is not about them
(chains of constants), and the test of whether a program has anything the rules change (a program
that has not is lowered as it is: the rewrite costs a trace, about a third of a small program's
compile). Defines two functions; startup.py deletes them.
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


def _course_untouched(jaxpr, core, narrow):
    """Whether the chip's rules leave ``jaxpr`` (and every program inside it) as it is: no dot, no
    reduce_precision, no narrow float anywhere, no chain of two operations with constants."""

    def untouched(jaxpr):
        j = getattr(jaxpr, "jaxpr", jaxpr)
        if any(narrow(getattr(v.aval, "dtype", None)) for v in (*j.invars, *j.constvars, *j.outvars)):
            return False
        with_constant = set()
        for eqn in j.eqns:
            if eqn.primitive.name in ("dot_general", "reduce_precision"):
                return False
            variables = [v for v in eqn.invars if not isinstance(v, core.Literal)]
            if any(narrow(getattr(v.aval, "dtype", None)) for v in (*variables, *eqn.outvars)):
                return False
            if eqn.primitive.name in ("add", "sub", "mul") and len(variables) < len(eqn.invars):
                if any(v in with_constant for v in variables):
                    return False
                with_constant.update(eqn.outvars)
            for param in eqn.params.values():
                for sub in param if isinstance(param, (tuple, list)) else (param,):
                    program = hasattr(sub, "eqns") or hasattr(getattr(sub, "jaxpr", None), "eqns")  # (closed) jaxpr
                    if program and not untouched(sub):
                        return False
        return True

    return untouched(jaxpr)
