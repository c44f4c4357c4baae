"""The differential fuzzer's programs (fuzz.py runs and compares them): a grammar of what students of
this course write, as Python text (``generate``), and the second round's targeted questions
(``targeted``). Only the standard library: the text is run elsewhere."""

from __future__ import annotations

import random

NARROW = ("bfloat16", "float16", "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn")
FLOATS = ("float32", *NARROW)
PRECISIONS = ("None", "jax.lax.Precision.DEFAULT", "jax.lax.Precision.HIGH", "jax.lax.Precision.HIGHEST")
PREFERRED = ("None", "jnp.float32", "jnp.bfloat16", "jnp.float16")
SHAPES = [(16, 32, 8), (8, 256, 16), (33, 130, 5), (2, 3, 4), (1, 64, 16), (16, 64, 1), (4, 1, 4), (4, 384, 8)]
SCALES = (1.0, 0.01, 30.0, 1.0 / 64)


class Program:
    """One program's text, written line by line: values are (name, shape, dtype)."""

    def __init__(self, rng: random.Random, shapes: tuple[int, int, int]):
        self.rng, self.lines, self.tags, self.n = rng, [], set(), 0
        self.m, self.k, self.nn = shapes

    def new(self, expr: str, indent: str = "    ") -> str:
        self.n += 1
        name = f"t{self.n}"
        self.lines.append(f"{indent}{name} = {expr}")
        return name

    # ---- one step on a value -------------------------------------------------------------------
    def step(self, v, indent="    ", keep_shape=False):
        """One random operation on value v = (name, shape, dtype): a new value (of v's shape with
        ``keep_shape``: a loop's carry, a cond's branches)."""
        r = self.rng
        name, shape, dtype = v
        choices = ["cast", "cast", "cast", "const", "unary", "reduce_precision"]
        if shape and not keep_shape:
            choices += ["reduce", "layout", "layout"]
        if dtype == "int8":
            choices = ["cast"]
        kind = r.choice(choices)
        if kind == "cast":
            to = r.choice(FLOATS + ("float32", "float32", "int8") if dtype != "int8" else ("float32", "bfloat16"))
            if to == "int8":
                self.tags.add("int8")
                expr = f"jnp.clip(jnp.round({name} * 16), -127, 127).astype(jnp.int8)"
            else:
                expr = f"{name}.astype(jnp.{to})"
            self.tags.add(f"cast:{to}" if to != "float32" else "cast:float32")
            return self.new(expr, indent), shape, to
        if kind == "const":
            op, c = r.choice(["*", "+", "-", "/"]), r.choice(["3.0", "0.1", "1e-3", "7", "1.5", "0.5", "448.0"])
            self.tags.add("divide-constant" if op == "/" else "arithmetic")
            return self.new(f"{name} {op} {c}", indent), shape, dtype
        if kind == "unary":
            f = r.choice(
                ["-{}", "jnp.abs({})", "jnp.round({})", "jnp.floor({})", "jnp.square({})", "jnp.maximum({}, 0)"]
            )
            self.tags.add("arithmetic")
            return self.new(f.format(name), indent), shape, dtype
        if kind == "reduce_precision":
            e, m = r.choice([(8, 7), (5, 10), (4, 3), (5, 2)])
            self.tags.add("reduce_precision")
            return (
                self.new(f"jax.lax.reduce_precision({name}, exponent_bits={e}, mantissa_bits={m})", indent),
                shape,
                dtype,
            )
        if kind == "reduce":
            axis = r.randrange(len(shape))
            out = shape[:axis] + shape[axis + 1 :]
            f = r.choice(["sum", "sum", "mean", "max", "cumsum", "sum32"])
            self.tags.add("reduce:" + ("sum" if f == "sum32" else f))
            if f == "cumsum":
                self.tags.add("cumsum")
                return self.new(f"jnp.cumsum({name}, axis={axis})", indent), shape, dtype
            if f == "sum32":
                self.tags.add("sum")
                return self.new(f"jnp.sum({name}, axis={axis}, dtype=jnp.float32)", indent), out, "float32"
            self.tags.add("sum" if f in ("sum", "mean") else "max")
            return self.new(f"jnp.{f}({name}, axis={axis})", indent), out, dtype
        # layout
        self.tags.add("layout")
        if len(shape) == 2 and r.random() < 0.3:
            return self.new(f"{name}.T", indent), (shape[1], shape[0]), dtype
        if shape and shape[0] > 2 and r.random() < 0.5:
            if r.random() < 0.5:
                self.tags.add("slice")
                return self.new(f"{name}[1:]", indent), (shape[0] - 1, *shape[1:]), dtype
            self.tags.add("strided-slice")
            return self.new(f"{name}[::2]", indent), ((shape[0] + 1) // 2, *shape[1:]), dtype
        if shape and r.random() < 0.5:
            self.tags.add("concatenate" if r.random() < 0.5 else "pad")
            if "pad" in self.tags and r.random() < 0.5:
                return self.new(f"jnp.pad({name}, 1)", indent), tuple(s + 2 for s in shape), dtype
            return self.new(f"jnp.concatenate([{name}, {name}], axis=0)", indent), (2 * shape[0], *shape[1:]), dtype
        self.tags.add("broadcast")
        return self.new(f"jnp.broadcast_to({name}[None], (2, *{name}.shape))", indent), (2, *shape), dtype

    def chain(self, v, steps: int, indent="    ", keep_shape=False):
        for _ in range(steps):
            v = self.step(v, indent, keep_shape)
        return v

    # ---- two values -------------------------------------------------------------------------------
    def binary(self, a, b, indent="    "):
        """a op b for two values of one shape."""
        op = self.rng.choice(["+", "*", "-", "jnp.maximum", "/"])
        self.tags.add("array-division" if op == "/" else "arithmetic")
        expr = f"jnp.maximum({a[0]}, {b[0]})" if op == "jnp.maximum" else f"{a[0]} {op} {b[0]}"
        dtype = a[2] if a[2] == b[2] else "float32" if "float32" in (a[2], b[2]) else a[2]
        return self.new(expr, indent), a[1], dtype

    def dot(self, a, b, indent="    "):
        """A dot of a (.., K) and b (K, ..), written one of five ways."""
        r = self.rng
        p, t = r.choice(PRECISIONS), r.choice(PREFERRED)
        kw = "".join(
            [f", precision={p}" if p != "None" else "", f", preferred_element_type={t}" if t != "None" else ""]
        )
        la, lb = len(a[1]), len(b[1])
        form = r.choice(["dot", "matmul", "at", "einsum", "dot_general"])
        self.tags |= {"dot", f"dot:{form}", f"precision:{p.rsplit('.', 1)[-1]}", f"preferred:{t.rsplit('.', 1)[-1]}"}
        shape = a[1][:-1] + b[1][1:]
        k = a[1][-1]
        cls = "vector-vector" if la == lb == 1 else "matrix-vector" if 1 in (la, lb) else "matrix-matrix"
        if cls == "matrix-matrix" and k == 1:
            cls = "one-term"
        elif cls == "matrix-matrix" and 1 in (a[1][0], b[1][-1]):
            cls = "matrix-vector (M or N = 1)"
        self.tags.add(f"dot-class:{cls}")
        if form == "at" and not kw:
            expr = f"{a[0]} @ {b[0]}"
        elif form == "einsum":
            sa, sb = ("mk"[-la:], "kn"[:lb])
            expr = f"jnp.einsum('{sa},{sb}->{(sa[:-1] + sb[1:])}', {a[0]}, {b[0]}{kw})"
        elif form == "dot_general":
            expr = f"jax.lax.dot_general({a[0]}, {b[0]}, ((({la - 1},), (0,)), ((), ())){kw})"
        elif form == "matmul":
            expr = f"jnp.matmul({a[0]}, {b[0]}{kw})"
        else:
            expr = f"jnp.dot({a[0]}, {b[0]}{kw})"
        dtypes = {a[2], b[2]}
        out = t.rsplit(".", 1)[-1] if t != "None" else ("float32" if "float32" in dtypes else a[2])
        if dtypes == {"int8"} and t == "None":
            out = "int8"
        return self.new(expr, indent), shape, out

    def batched(self, a, b, indent="    "):
        """A batched dot: a (B, M, K) and b (B, K, N) from stacked copies."""
        self.tags |= {"dot", "dot-class:batched"}
        p = self.rng.choice(PRECISIONS)
        kw = f", precision={p}" if p != "None" else ""
        sa = self.new(f"jnp.stack([{a[0]}, {a[0]} * 0.5])", indent)
        sb = self.new(f"jnp.stack([{b[0]}, -{b[0]}])", indent)
        expr = f"jnp.einsum('bmk,bkn->bmn', {sa}, {sb}{kw})"
        out = "float32" if "float32" in (a[2], b[2]) else a[2]
        return self.new(expr, indent), (2, *a[1][:-1], *b[1][1:]), out


def _structure(p: Program, r: random.Random, x, w, v) -> list[str]:
    """The program's body around its values: plain, or one of the structures; its outputs' names."""
    kind = r.choice(["plain", "plain", "dot", "dot", "dot", "scan", "fori_loop", "while_loop", "vmap", "cond"])
    kind = r.choice([kind, kind, "jit", "custom_jvp", "checkpoint", "grad"]) if r.random() < 0.3 else kind
    p.tags.add(f"structure:{kind}")
    if kind == "plain":
        a = p.chain(x, r.randrange(1, 5))
        if r.random() < 0.4:
            b = p.chain(x, r.randrange(1, 3))
            if b[1] == a[1]:
                a = p.binary(a, b)
        return [a[0]]
    if kind == "dot":
        a = p.chain(r.choice([x, x, v]), r.randrange(0, 3))
        b = p.chain(r.choice([w, w, v]), r.randrange(0, 3))
        if not (a[1] and b[1] and a[1][-1] == b[1][0]) or r.random() < 0.2:
            a, b = x, w
        both_matrices = len(a[1]) == 2 and len(b[1]) == 2
        out = p.batched(a, b) if both_matrices and r.random() < 0.15 else p.dot(a, b)
        return [p.chain(out, r.randrange(0, 3))[0]]
    steps = min(p.m, 3)
    if kind in ("scan", "fori_loop", "while_loop"):
        carry = r.choice(["float32", "bfloat16", "float16"])
        p.lines.append(f"    c0 = jnp.zeros(({p.k},), jnp.{carry})")
        p.lines.append("    def body_fn(c, row):")
        inner = p.chain(("row", (p.k,), "float32"), r.randrange(1, 4), indent="        ", keep_shape=True)
        p.lines.append(f"        c = (c + {inner[0]}.astype(c.dtype)).astype(jnp.{carry})")
        p.lines.append(f"        return c, {inner[0]}")
        if kind == "scan":
            p.lines.append("    c, ys = jax.lax.scan(body_fn, c0, x)")
            return ["c", "ys"]
        if kind == "fori_loop":
            p.lines.append(f"    c = jax.lax.fori_loop(0, {steps}, lambda i, c: body_fn(c, x[i])[0], c0)")
        else:
            p.lines.append(f"    def cond_fn(s):\n        return s[0] < {steps}")
            p.lines.append("    def step_fn(s):\n        return s[0] + 1, body_fn(s[1], x[s[0]])[0]")
            p.lines.append("    _, c = jax.lax.while_loop(cond_fn, step_fn, (0, c0))")
        return ["c"]
    if kind == "cond":
        for branch in ("left", "right"):
            p.lines.append(f"    def {branch}(u):")
            a = p.chain(("u", (p.k,), "float32"), r.randrange(1, 4), indent="        ", keep_shape=True)
            p.lines.append(f"        return {a[0]}.astype(jnp.float32)")
        pred = r.choice(["jnp.sum(v) > 0", "jnp.sum(v) <= 0"])
        p.lines.append(f"    out = jax.lax.cond({pred}, left, right, v)")
        return ["out"]
    # vmap, jit, custom_jvp, checkpoint, grad: a function g of one value (a row of x, or x)
    p.lines.append("    def g(u):")
    shape = (p.k,) if kind == "vmap" else x[1]
    inner = p.chain(("u", shape, "float32"), r.randrange(1, 4), indent="        ")
    p.lines.append(f"        return {inner[0]}")
    if kind == "vmap":
        p.lines.append("    out = jax.vmap(g)(x)")
    elif kind == "jit":
        p.lines.append("    out = jax.jit(g)(x)")
    elif kind == "checkpoint":
        p.lines.append("    out = jax.checkpoint(g)(x)")
    elif kind == "custom_jvp":
        p.lines.append("    h = jax.custom_jvp(g)")
        p.lines.append("    h.defjvp(lambda primals, tangents: (h(primals[0]), tangents[0]))")
        p.lines.append("    out = h(x)")
    else:
        p.lines.append("    out = jax.grad(lambda u: jnp.sum(g(u).astype(jnp.float32) ** 2))(x)")
    return ["out"]


def generate(seed: int, count: int) -> list[dict]:
    """``count`` programs from ``seed``: each {id, source, shapes, scale, special, tags}."""
    found = []
    for i in range(count):
        r = random.Random(f"{seed}:{i}")
        shapes = r.choice(SHAPES)
        m, k, n = shapes
        p = Program(r, shapes)
        x, w, v = ("x", (m, k), "float32"), ("w", (k, n), "float32"), ("v", (k,), "float32")
        outs = _structure(p, r, x, w, v)
        names = ", ".join(outs)
        source = "def program(x, w, v):\n" + "\n".join(p.lines) + f"\n    return ({names},)\n"
        found.append(
            {
                "id": f"p{seed}-{i:05d}",
                "source": source,
                "shapes": [m, k, n],
                "scale": r.choice(SCALES),
                "special": r.random() < 0.1,
                "tags": sorted(p.tags),
            }
        )
    return found


LOOP_SHAPES = [(2, 3, 4), (4, 8, 4), (16, 32, 8), (16, 64, 8), (8, 128, 8), (8, 256, 8), (33, 130, 5), (4, 384, 8)]


def targeted(seed: int = 0) -> list[dict]:
    """Programs that ask one question each of the chip (the second round, after the first round's
    mismatches): when a loop body's cast of its input is rounded (loop kind x carry type x the cast's
    form x shape); how a matrix-vector or one-term dot with a narrow result type is summed; which
    chains of constants the chip's compiler folds."""
    found = []

    def add(name, source, shapes, tags, scale=1.0):
        found.append(
            {
                "id": f"q{seed}-{len(found):04d}-{name}",
                "source": source,
                "shapes": list(shapes),
                "scale": scale,
                "special": False,
                "tags": sorted(tags),
            }
        )

    loops = {
        "scan": ("    c, ys = jax.lax.scan(body_fn, c0, x)", "c, ys"),
        "fori_loop": ("    c = jax.lax.fori_loop(0, {steps}, lambda i, c: body_fn(c, x[i])[0], c0)", "c"),
        "while_loop": (
            "    def cond_fn(s):\n        return s[0] < {steps}\n"
            "    def step_fn(s):\n        return s[0] + 1, body_fn(s[1], x[s[0]])[0]\n"
            "    _, c = jax.lax.while_loop(cond_fn, step_fn, (0, c0))",
            "c",
        ),
    }
    forms = {
        "direct": "row.astype(jnp.{carry})",
        "chain": "row.astype(jnp.{other}).astype(jnp.{carry})",
        "arith": "(row * 3.0).astype(jnp.{carry})",
        "ys-direct": "row.astype(jnp.{carry})",
    }
    for kind, (call, outs) in loops.items():
        for carry, other in (("bfloat16", "float16"), ("float16", "bfloat16")):
            for form, expr in forms.items():
                for m, k, n in LOOP_SHAPES:
                    steps = min(m, 3)
                    t = expr.format(carry=carry, other=other)
                    ys = "t" if form == "ys-direct" else "None"
                    source = (
                        f"def program(x, w, v):\n    c0 = jnp.zeros(({k},), jnp.{carry})\n"
                        f"    def body_fn(c, row):\n        t = {t}\n"
                        f"        return (c + t).astype(jnp.{carry}), {ys}\n"
                        + call.format(steps=steps)
                        + f"\n    return ({outs if form == 'ys-direct' and kind == 'scan' else 'c'},)\n"
                    )
                    add(f"loop-{kind}-{carry}-{form}-{m}x{k}", source, (m, k, n), {f"structure:{kind}", f"form:{form}"})
    for out in ("bfloat16", "float16", "float32"):
        for k in (2, 3, 8, 16, 64, 128, 129, 256, 384):
            for side in ("xv", "vw"):
                expr = "jnp.dot(x, v" if side == "xv" else "jnp.dot(v, w"
                source = f"def program(x, w, v):\n    return ({expr}, preferred_element_type=jnp.{out}),)\n"
                add(f"matvec-{side}-{out}-k{k}", source, (8, k, 8), {"dot", "dot-class:matrix-vector"})
        for m, n in ((4, 4), (8, 16), (1, 8)):
            source = f"def program(x, w, v):\n    return (jnp.dot(x, w, preferred_element_type=jnp.{out}),)\n"
            add(f"oneterm-{out}-{m}x{n}", source, (m, 1, n), {"dot", "dot-class:one-term"})
    # lesson 05's bf16 policy at K = 1 and its matrix-vector kin: bf16 operands (cast inside jit, or
    # passed in rounded), a float32 result
    operands = {
        "cast-cast": ("x.astype(jnp.bfloat16)", "w.astype(jnp.bfloat16)"),
        "cast-arg": ("x.astype(jnp.bfloat16)", "wb"),
        "arg-arg": ("xb", "wb"),
        "f32-cast": ("x", "w.astype(jnp.bfloat16)"),
    }
    for shape in ((8, 1, 8), (1, 64, 8), (8, 64, 1), (16, 64, 8)):
        for name, (a, b) in operands.items():
            for out in ("float32", "bfloat16"):
                source = (
                    "def program(x, w, v):\n    xb, wb = x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)\n"
                    "    f = jax.jit(lambda x, xb, wb: jnp.dot("
                    f"{a}, {b}, preferred_element_type=jnp.{out}))\n"
                    "    return (f(x, jax.lax.reduce_precision(x, 8, 7).astype(jnp.bfloat16), "
                    "jax.lax.reduce_precision(w, 8, 7).astype(jnp.bfloat16)),)\n"
                )
                m, k, n = shape
                add(f"bf16dot-{name}-{out}-{m}x{k}x{n}", source, shape, {"dot", "bf16-operands"})
    chains = [
        "(x * 3.0) / 7.0",
        "(x / 7.0) * 3.0",
        "(x + 0.1) * 3.0",
        "x * 0.1 + 0.2",
        "(0.1 - x) + 0.2",
        "(x * 0.1) * 0.1",
        "(x - 3.0) - 3.0",
        "x / 3.0 / 7.0",
        "0.1 * (x * 0.1)",
        "(x.astype(jnp.bfloat16) * 0.1) * 0.1",
        "(x.astype(jnp.bfloat16) + 0.1) + 0.2",
        "(x.astype(jnp.float16) * 0.1) * 3.0",
    ]
    for i, expr in enumerate(chains):
        add(f"constants-{i}", f"def program(x, w, v):\n    return ({expr},)\n", (16, 64, 8), {"arithmetic"})
    return found
