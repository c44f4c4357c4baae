"""Hostile but legal Python for an answer cell (issue 57): what the grader's trusted side must read,
plan and write back as code without ever failing as the grader. Shared by tests/test_hostile_code.py
and benchmarks/bench_reading.py.

``CRAFTED`` names one cell per trap seen or suspected: integer literals past Python's int-to-str
limit in every base and every place a literal may stand (a 4 KB hexadecimal literal in an answer cell
made the plan crash, ``ast.unparse`` -> ``repr(int)`` -> ValueError, and the whole class exit 2),
deep nesting just under the grader's cap, odd Unicode identifiers (NFKC-folded ones among them),
nested f-strings (PEP 701), every statement kind, tricky assignment targets, IPython magics.
``random_cell(rng)`` composes such pieces from a small grammar, seeded.
"""

from __future__ import annotations

import random

HEX = "0x" + "f" * 4000  # issue 57's literal: 4 KB, 4,817 decimal digits
CEILING = 95  # nesting levels of an expression: with the statements around it, just under MAX_CODE_DEPTH (100)


def _huge(rng: random.Random) -> str:
    base, digits = rng.choice([("0x", "f"), ("0X", "A"), ("0o", "7"), ("0b", "1"), ("0x", "9")])
    n = rng.choice([3, 1200, 3800, 4000, 20_000])
    body = digits * n
    if rng.random() < 0.3:  # underscores between digit groups
        body = "_".join(body[i : i + 4] for i in range(0, len(body), 4))
    return base + body


CRAFTED = {
    "hex literal (issue 57)": f"BIG = {HEX}\n\ndef bf16_round(x):\n    return x\n",
    "octal literal": "B = 0o" + "7" * 5000 + "\n",
    "binary literal": "B = 0b" + "1" * 20_000 + "\n",
    "underscored hex": "B = 0x" + "_".join(["ffff"] * 1200) + "\n",
    "negative hex": f"B = -{HEX}\n",
    "hex in a default": f"def bf16_round(x, y={HEX}):\n    return x\n",
    "hex in a body": f"def bf16_round(x):\n    big = {HEX}\n    return x * (big > 0)\n",
    "hex in a class": f"class A:\n    X = {HEX}\n    def f(self, y={HEX}):\n        return y\n",
    "hex in an annotation": f"x: {HEX} = 1\n",
    "hex in a target": f"import numpy as np\nnp.a[{HEX}].b = 1\n",
    "hex in a decorator": f"@staticmethod({HEX})\ndef f():\n    pass\n",
    "hex in a match pattern": f"def f(x):\n    match x:\n        case {HEX} | 0b1:\n            return 1\n",
    "hex in an f-string": f"def f():\n    return f'{{{HEX}:>{{3}}}}'\n",
    "hex in a try": f"try:\n    X = {HEX}\nexcept ImportError:\n    X = {HEX}\nfinally:\n    Y = {HEX}\n",
    "hex in a lambda": f"f = lambda x={HEX}: x\ng = [{HEX}, ({HEX},), {{{HEX}: {HEX}}}]\n",
    "decimal at the limit": "X = 1" + "0" * 4299 + "\n",
    "decimal past the limit": "X = 1" + "0" * 4400 + "\n",  # does not parse: a reason, no crash
    "infinite float and complex": "C = 1e400j\nD = 1e999\nE = -1e999\nF = 0e0\n",
    "nested f-strings": 'def f(x):\n    return f"{f\'{f"{x}"}\'}"\n',
    "f-string backslash": "def f(a):\n    return f\"{'\\n'.join(a)}\"\n",
    "f-string nested specs": "def f(x, y, z):\n    return f'{x:{y:{z}}}'\n",
    "f-string self-documenting": "def f(x):\n    return f'{x=!r:>10}'\n",
    "f-string with a comment": 'def f(x):\n    return f"""{x # hi\n}"""\n',
    "f-string reused quotes": "def f(x):\n    return f'{x['a']}' + f'{\"'\"}'\n",
    "unicode identifiers": "𝐱 = 1\nﬁ = 2\nℌ = 3\nשלום = 4\n変数 = 5\ndef λ(α, β=𝐱):\n    return α\n",
    "NFKC-folded builtin": "ｐｒｉｎｔ = 1\nｌｅｎ = lambda x: 0\n",
    "deep unary": "def f(x):\n    return " + "-" * CEILING + "x\n",
    "deep parentheses": "def f(x):\n    return " + "(" * 190 + "x" + ")" * 190 + "\n",
    "deep lists": "X = " + "[" * CEILING + "]" * CEILING + "\n",
    "deep ifs": "def f(x):\n" + "".join(" " * (i + 1) + "if x:\n" for i in range(90)) + " " * 92 + "pass\n",
    "every statement kind": (
        "import numpy as np\nfrom os import path as _p\n"
        "type Alias = list[int]\n"
        "def g[T](x: T, /, y=1, *a, k: int = 2, **kw) -> T:\n"
        "    global G\n    nonlocal_ok = 1\n"
        "    def h():\n        nonlocal nonlocal_ok\n        nonlocal_ok += 1\n"
        "    for i in range(3):\n        if i: continue\n        else: break\n    else:\n        pass\n"
        "    while False:\n        pass\n    with open(__file__) as f, open(__file__):\n        pass\n"
        "    try:\n        pass\n    except* ValueError:\n        pass\n"
        "    match x:\n        case [1, *rest] | (2, *rest):\n            pass\n"
        "        case {'a': v, **others} if v:\n            pass\n"
        "        case np.ndarray(shape=s) as arr:\n            pass\n        case _:\n            pass\n"
        "    del y\n    assert x is not None, 'x'\n    lam = lambda *a, **k: (yield)\n"
        "    return (z := x)\n"
        "async def a(x):\n    async with x as y:\n        async for z in y:\n            await z\n"
        "    return [w async for w in x]\n"
        "class C[T](object, metaclass=type):\n    '''doc'''\n    x: int\n    y: int = 2\n    def m(self): return self\n"
        "try:\n    import jax\nexcept* ImportError:\n    pass\n"
        "if True:\n    X = 1\nelse:\n    X = 2\n"
        "for Q in []:\n    pass\nwhile False:\n    pass\nwith open(__file__):\n    pass\n"
        "raise SystemExit(0)\nreturn 5\nawait a(1)\nyield 2\n"
        "del X\nassert False\nglobal G\nX += 1\nprint(X)\n"
    ),
    "tricky targets": (
        "import numpy as np\nimport jax\n"
        "a, *b = 1, 2, 3\n[c, d] = 1, 2\ne = f = g = 0\n(h) = 1\ni: int\n"
        "np.x = 1\nnp.a.b.c = 2\njax.config.x[0] = 3\nnp.y[::-1] = 4\n"
        "(np.z, k) = 5, 6\nfor np.w in []:\n    pass\nwith open(__file__) as np.v:\n    pass\n"
        "del np.u\nnp.t += 1\nnp.s: int = 1\n"
    ),
    "magics": "%time x = 1\n!ls\nx = %env\ndef bf16_round(x):\n    return x\nbf16_round?\n",
    "null byte": "def f():\n    return '\x00'\n",
    "only a comment": "# nothing here\n",
    "empty": "",
}

IDENTIFIERS = ["x", "y", "_", "__dunder__", "𝐱", "ﬁ", "ℌ", "α", "שלום", "変数", "bf16_round", "np", "jax", "ｐｒｉｎｔ"]
TARGET_ROOTS = ["np", "jax", "jnp", "x", "𝐱"]


class Grammar:
    """Random statements and expressions, legal in the main (a few are not: they must be refused
    with a reason, never crash the grader)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def name(self) -> str:
        return self.rng.choice(IDENTIFIERS)

    def literal(self) -> str:
        r = self.rng
        return r.choice(
            [
                _huge(r),
                str(r.randrange(-(10**6), 10**6)),
                "1e999",
                "-0.0",
                "3j",
                repr("s\u200b\u202e" + r.choice(["'", '"', "\\", "{", "}"])),
                "b'\\xff'",
                "...",
                "None",
            ]
        )

    def fstring(self, depth: int) -> str:
        inner = self.expr(depth + 1)
        spec = self.rng.choice(["", ":>10", ":{3}", "!r", "=", "!s:^{2}"])
        quote = self.rng.choice(["'", '"'])
        return f"f{quote}{{{inner}{spec}}}{quote}"

    def expr(self, depth: int = 0) -> str:
        r = self.rng
        if depth > 4:
            return r.choice([self.literal(), self.name()])
        e = lambda: self.expr(depth + 1)  # noqa: E731
        forms = [
            self.literal,
            self.name,
            lambda: f"({e()} {r.choice(['+', '-', '*', '**', '//', '@', '<<', 'and', 'or', '<', 'is not'])} {e()})",
            lambda: f"{r.choice(['-', 'not ', '~'])}{e()}",
            lambda: f"{self.name()}({e()}, *{e()}, k={e()}, **{{}})",
            lambda: f"{self.name()}.{r.choice(['real', 'shape', 'T', 'dtype'])}",
            lambda: f"{self.name()}[{e()}:{e()}:{e()}, ...]",
            lambda: f"[{e()}, ({e()},), {{{e()}: {e()}}}, {{{e()}}}]",
            lambda: f"[{e()} for {self.name()} in {e()} if {e()}]",
            lambda: f"(lambda a={e()}, *b, c={e()}: {e()})",
            lambda: f"({e()} if {e()} else {e()})",
            lambda: self.fstring(depth),
            lambda: f"({self.name()} := {e()})",
            lambda: "-" * r.randrange(1, CEILING) + self.name(),
            lambda: "(" * 150 + e() + ")" * 150,
        ]
        return r.choice(forms)()

    def target(self) -> str:
        r = self.rng
        return r.choice(
            [
                self.name(),
                f"{self.name()}, *{self.name()}",
                f"[{self.name()}, {self.name()}]",
                f"{r.choice(TARGET_ROOTS)}.{self.name()}",
                f"{r.choice(TARGET_ROOTS)}[{self.expr(3)}].a",
                f"{r.choice(TARGET_ROOTS)}.a.b[{_huge(r)}]",
                f"{self.name()} = {self.name()}",
            ]
        )

    def statement(self, indent: str = "", depth: int = 0) -> str:
        r = self.rng
        pad = indent + "    "
        block = lambda: self.block(pad, depth + 1)  # noqa: E731
        forms = [
            lambda: f"{indent}{self.target()} = {self.expr()}\n",
            lambda: f"{indent}{self.name()} {r.choice(['+=', '@=', '**='])} {self.expr()}\n",
            lambda: f"{indent}{self.name()}: {self.expr(3)} = {self.expr()}\n",
            lambda: (
                f"{indent}@{self.name()}({self.expr(3)})\n{indent}def {self.name()}"
                f"(a={self.expr(3)}, /, *, b: {self.expr(3)} = {self.expr(3)}) -> {self.expr(3)}:\n{block()}"
            ),
            lambda: f"{indent}class {self.name()}({self.name()}, metaclass={self.name()}):\n{block()}",
            lambda: f"{indent}if {self.expr()}:\n{block()}{indent}else:\n{block()}",
            lambda: f"{indent}for {self.name()} in {self.expr()}:\n{block()}",
            lambda: f"{indent}try:\n{block()}{indent}except {self.name()} as e:\n{block()}{indent}finally:\n{block()}",
            lambda: (
                f"{indent}match {self.expr()}:\n{pad}case {self.literal()} | [*_]:\n"
                f"{self.block(pad + '    ', depth + 1)}"
            ),
            lambda: f"{indent}import {r.choice(['numpy as np', 'jax', 'os', 'ml_dtypes'])}\n",
            lambda: f"{indent}from {r.choice(['numpy', 'jax.numpy', '.', 'os.path'])} import {self.name()}\n",
            lambda: f"{indent}type {self.name()} = {self.expr(3)}\n",
            lambda: f"{indent}{self.expr()}\n",
            lambda: f"{indent}%time {self.name()}\n",
            lambda: f"{indent}del {self.name()}\n",
            lambda: f"{indent}assert {self.expr()}, {self.fstring(2)}\n",
        ]
        if depth > 2:
            return f"{indent}{self.target()} = {self.expr()}\n"
        return r.choice(forms)()

    def block(self, indent: str, depth: int) -> str:
        return "".join(self.statement(indent, depth) for _ in range(self.rng.randrange(1, 3)))


def random_cell(rng: random.Random) -> str:
    """A cell of one to six statements, sometimes ending in the exercise's own ``def``."""
    g = Grammar(rng)
    cell = "".join(g.statement() for _ in range(rng.randrange(1, 7)))
    if rng.random() < 0.5:
        cell += f"\ndef bf16_round(x, big={_huge(rng)}):\n    return {g.expr(2)}\n"
    return cell
