"""What an answer may name: only what a static reading resolves (issue 65).

The TPU emulation runs in the student's process (its code is compiled there), so code in that
process that could reach JAX's internals could undo it: a review did, with names decoded from bytes
at run time, and took full marks for answers the chip fails. Here, on the trusted side (the worker,
from the syntax tree ``studentcode.parse_cell`` made; nothing of the student's runs), the code of
every answer cell that runs (the statements the plan keeps) is read for what it names, and a cell
that breaks a rule makes the notebook ``tampered`` (no points), each finding naming its line and
rule:

- imports: only modules of ``ALLOWED_MODULES`` (what the lessons' answers and setups use, and a few
  that reach nothing but files, bytes and the sandboxed network), never a private one (``_x``) nor
  one of ``REFUSED_PATHS``; no star import, no relative import;
- no attribute or module whose name starts with "_" (private, dunders; but the strings that describe
  an object, ``__name__``, ``__version__``..., and ``os._exit``: ``integrity.PUBLIC_UNDERSCORED``), no name of
  ``integrity.REFUSED_ATTRIBUTES`` (frames, code objects, the import system, JAX's compiler and
  configuration, raw memory, programs started without the emulation), no path of ``REFUSED_PATHS``
  (``jax.lib``, ``jax.export``...) written through a module's name;
- no name starting with "__" but ``__name__``, no reflective builtin (``REFUSED_NAMES``: setattr,
  vars, globals, eval, exec, compile, __import__, id...), and no name the lesson's setup binds to a
  module no answer may import (``sys``, ``importlib``, ``subprocess``);
- no assignment to or deletion of an attribute but ``self``'s and ``cls``'s (``jax.numpy.dot = f``,
  ``del jax.lax.dot``), no ``global`` of a name the setup binds or a builtin;
- no method named ``__x__`` but the data model's plain ones (``ALLOWED_DUNDER_METHODS``);
- no string or bytes constant holding "__" or a word of JAX's internals, no f-string whose constant
  parts do, no keyword that reads pickles, raw memory or XLA's options (``REFUSED_KEYWORDS``).

``getattr`` stays (lesson 06's ``getattr(ml_dtypes, elem)``): the student's process refuses, at run
time, the names refused here and a module as its result (student_side.guarded_builtins), so a name
built at run time meets the rule a written one does. The run-time probe (checker/integrity.py)
is the second layer. tests/test_answer_rules.py holds every correct and known wrong answer of the
course to these rules (none is flagged).
"""

from __future__ import annotations

import ast
import builtins
import re

from ..checker.integrity import PUBLIC_UNDERSCORED, REFUSED_ATTRIBUTES, REFUSED_NAMES, REFUSED_PATHS
from ..core.settings import RULE_FINDINGS
from ..core.studentcode import Protected, kept_statement, root_name
from ...common.textsafe import printable

ALLOWED_MODULES = frozenset(
    {
        # the lessons' answers and setups (every solution, alternative, independent and known wrong answer)
        "numpy", "jax", "ml_dtypes", "math", "cmath", "functools", "itertools", "operator", "collections",
        "heapq", "bisect", "statistics", "re", "glob", "os", "pathlib", "time", "json", "gzip", "zlib",
        "xprof", "contextlib", "dataclasses", "typing", "tempfile", "warnings", "matplotlib", "fractions",
        "decimal", "numbers", "random", "struct", "array", "copy", "enum", "abc", "textwrap", "csv",
        # nothing but files, bytes and the network, which the sandbox confines
        "shutil", "socket", "errno", "stat", "io", "linecache", "hashlib", "base64", "binascii", "uuid",
        "datetime",
    }
)  # fmt: skip
ALLOWED_DUNDERS = frozenset({"__name__"})
ALLOWED_DUNDER_METHODS = frozenset(
    {"__init__", "__post_init__", "__call__", "__repr__", "__str__", "__len__", "__iter__", "__next__", "__getitem__",
     "__contains__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__", "__enter__",
     "__exit__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__neg__",
     "__abs__", "__float__", "__int__", "__index__", "__array__"}
)  # fmt: skip
REFUSED_KEYWORDS = frozenset({"allow_pickle", "buffer", "strides", "compiler_options"})
JAX_WORDS = ("_src", "interpreters", "lower_jaxpr", "cell_contents", "/proc/")  # /proc/self/mem: raw memory
DUNDER_TEXT = re.compile(r"__[A-Za-z]")  # "__closure__", "__clo" + ...: a dunder written as text


def module_allowed(path: str) -> bool:
    parts = path.split(".")
    return path == "os._exit" or (  # the process ends and is restarted (integrity.PUBLIC_UNDERSCORED)
        parts[0] in ALLOWED_MODULES
        and not any(p.startswith("_") for p in parts)
        and not any(path == r or path.startswith(r + ".") for r in REFUSED_PATHS)
    )


def setup_modules(protected: Protected) -> dict[str, str]:
    """{name: the dotted path it stands for} of the names the lesson's own cells bind by import
    (``np`` -> numpy, ``jnp`` -> jax.numpy, ``Path`` -> pathlib.Path)."""
    found = {}
    for name, key in protected.imports:
        if key[0] == "import":
            found[name] = name if key[1].split(".")[0] == name else key[1]
        else:
            found[name] = f"{key[1]}.{key[2]}"
    return found


class Reading:
    """One cell's reading: ``findings`` in the order found, each 'line N: what (rule)'."""

    def __init__(self, protected: Protected):
        self.protected = protected
        self.modules = setup_modules(protected)  # names bound to modules: the setup's, then the cell's
        self.findings: list[str] = []

    def found(self, node: ast.AST, what: str) -> None:
        if len(self.findings) < RULE_FINDINGS:
            line = getattr(node, "lineno", 0)
            self.findings.append(f"line {line}: {printable(what, 100, keep='')}")

    def read(self, tree: ast.Module) -> list[str]:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self.imports(node)
        self.env_reads = {id(e) for e in environment_reads(tree)}
        for node in ast.walk(tree):  # a module's name kept in a variable: j = jax; j.extend is jax.extend
            if isinstance(node, (ast.Assign, ast.NamedExpr)) and (path := self.path_of(node.value)) is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                self.modules.update({t.id: path for t in targets if isinstance(t, ast.Name)})
        for node in ast.walk(tree):
            self.node(node)
        return self.findings

    def imports(self, node) -> None:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                self.found(node, "a relative import (imports: public modules only)")
                return
            base = node.module or ""
            for alias in node.names:
                if alias.name == "*":
                    self.found(node, f"from {base} import * (imports: name what you import)")
                    continue
                path = f"{base}.{alias.name}"
                self.check_module(node, path, base)
                self.modules[alias.asname or alias.name] = path
        else:
            for alias in node.names:
                self.check_module(node, alias.name, alias.name)
                top = alias.name.split(".")[0]
                self.modules[alias.asname or top] = alias.name if alias.asname else top

    def check_module(self, node, path: str, module: str) -> None:
        if not module_allowed(module):
            self.found(node, f"imports {module} (imports: only the public modules answers need)")
        elif not module_allowed(path) or path.rsplit(".", 1)[-1] in REFUSED_ATTRIBUTES:
            self.found(node, f"imports {path} (a name no answer may reach)")

    def path_of(self, node) -> str | None:
        """The dotted path an attribute chain stands for, where its root is a module's name."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        node = node.value if isinstance(node, ast.NamedExpr) else node  # (j := jax).extend
        if isinstance(node, ast.Name) and node.id in self.modules:
            return ".".join([self.modules[node.id]] + parts[::-1])
        return None

    def node(self, node: ast.AST) -> None:
        if isinstance(node, ast.Attribute):
            self.attribute(node)
        elif isinstance(node, ast.Name):
            self.name(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("__") and node.name not in ALLOWED_DUNDER_METHODS:
                self.found(node, f"defines {node.name} (special methods: only the data model's plain ones)")
        elif isinstance(node, ast.Global):
            for name in node.names:
                if name in self.protected.bound or hasattr(builtins, name):
                    self.found(node, f"global {name} (a name the lesson or Python binds)")
        elif isinstance(node, ast.keyword) and node.arg in REFUSED_KEYWORDS:
            self.found(node.value, f"passes {node.arg}= (pickles, raw memory and XLA's options: no answer needs them)")
        elif isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.MatchClass):
            for attr in node.kwd_attrs:
                self.attribute_name(node, attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            self.text(node, node.value)
        elif isinstance(node, ast.JoinedStr):
            # a formatted part stands for any name: f"__{x}__" is a dunder to be
            self.text(node, "".join(str(v.value) if isinstance(v, ast.Constant) else "x" for v in node.values))
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            verb = "deletes" if isinstance(node, ast.Delete) else "assigns"
            for target in targets:
                self.target(target, verb)

    def target(self, target, verb: str) -> None:
        """An assignment's or deletion's target: only a name, an item of a value that is no module's,
        or an attribute of ``self`` or ``cls``."""
        if isinstance(target, (ast.Tuple, ast.List)):
            for item in target.elts:
                self.target(item, verb)
        elif isinstance(target, ast.Starred):
            self.target(target.value, verb)
        elif isinstance(target, ast.Attribute):
            if not (isinstance(target.value, ast.Name) and target.value.id in ("self", "cls")):
                self.found(
                    target, f"{verb} .{target.attr} of {root_name(target) or 'an expression'} (only self's attributes)"
                )
        elif isinstance(target, ast.Subscript):
            path = self.path_of(target.value)
            if path is not None and path.split(".")[0] in ALLOWED_MODULES and "." in path:
                self.found(target, f"{verb} an item of {path} (a module's data: no answer changes it)")

    def call(self, node: ast.Call) -> None:
        """Calls whose arguments reach raw memory, pickles or XLA's options, however passed."""
        func, path = node.func, self.path_of(node.func)
        if path == "numpy.ndarray" and len(node.args) > 2:
            self.found(node, "np.ndarray(shape, dtype, buffer, ...) (raw memory: no answer needs it)")
        elif isinstance(func, ast.Name) and func.id == "id":
            self.found(node, "calls id() (addresses: no answer needs them)")
        elif isinstance(func, ast.Attribute) and func.attr == "load" and len(node.args) > 2:
            self.found(node, "passes allow_pickle by position (pickles: no answer needs them)")
        elif isinstance(func, ast.Attribute) and func.attr == "compile" and (node.args or node.keywords):
            if path != "re.compile":  # Lowered.compile(compiler_options): XLA's options
                self.found(node, "passes options to .compile() (XLA's options: no answer needs them)")

    def attribute(self, node: ast.Attribute) -> None:
        if node.attr == "environ" and id(node) in self.env_reads:
            return  # os.environ.get("TPU_TRACE_DIR"), os.environ["..."], "..." in os.environ: reading it
        owner = node.value
        own = isinstance(owner, ast.Name) and owner.id in ("self", "cls") and not node.attr.startswith("__")
        parent = (
            isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super"
        ) and node.attr in ALLOWED_DUNDER_METHODS
        if not (own or parent) and self.attribute_name(node, node.attr):  # self._cache: the answer's own;
            return  # super().__init__: the data model's
        path, above = self.path_of(node), self.path_of(owner)
        if path is not None and not module_allowed(path) and above is not None and module_allowed(above):
            self.found(node, f"reads {path} (a name no answer may reach)")  # the first refused step only

    def attribute_name(self, node, attr: str) -> bool:
        """Whether the name is refused (and said so)."""
        if attr.startswith("_") and attr not in PUBLIC_UNDERSCORED:
            self.found(node, f"reads .{attr} (private attributes and dunders: none)")
        elif attr in REFUSED_ATTRIBUTES:
            self.found(node, f"reads .{attr} (a name no answer may reach)")
        else:
            return False
        return True

    def name(self, node: ast.Name) -> None:
        name = node.id
        if name.startswith("__") and name not in ALLOWED_DUNDERS:
            self.found(node, f"uses {name} (dunders: none)")
        elif name in REFUSED_NAMES:
            self.found(node, f"uses {name} (reflection: no answer needs it)")
        elif name in self.modules and not module_allowed(self.modules[name].split(".")[0]):
            self.found(
                node, f"uses {name}, the module {self.modules[name]} (imports: only the public modules answers need)"
            )

    def text(self, node, value) -> None:
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        if DUNDER_TEXT.search(text) and text != "__main__":  # if __name__ == "__main__": a script's habit
            self.found(node, "a string naming a dunder (dunders: none, not even as text)")
        else:
            word = next((w for w in JAX_WORDS if w in text), None)
            if word:
                self.found(node, f"a string naming {word} (a name no answer may reach)")


def environment_reads(tree: ast.Module):
    """The ``.environ`` attributes a cell only reads from: ``X.environ.get(...)``, ``X.environ[...]``
    (loaded), ``... in X.environ`` (lesson 04's trace folder comes from TPU_TRACE_DIR)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "get" and isinstance(node.value, ast.Attribute):
            yield node.value
        elif (
            isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Attribute)
        ):
            yield node.value
        elif isinstance(node, ast.Compare) and all(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            yield from (c for c in node.comparators if isinstance(c, ast.Attribute))


def rule_breaks(tree: ast.Module, protected: Protected) -> list[str]:
    """The rules a parsed cell breaks, each 'line N: what (rule)' (empty when it breaks none), in
    the code that runs: the statements the plan keeps (studentcode's definitions; a top-level call
    is dropped, never run, and breaks nothing)."""
    kept = [k for k in (kept_statement(stmt) for stmt in tree.body) if k is not None]
    return Reading(protected).read(ast.Module(body=kept, type_ignores=[]))
