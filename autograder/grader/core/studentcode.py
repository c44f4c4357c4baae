"""The student's code, read as text by the trusted side: what of it runs, and what it attacks.

- ``definitions_only``: a cell reduced, with ``ast``, to imports, ``def``/``class`` statements and
  simple constants (the exercises are functions; demo computations do not run when grading);
  with ``calls=False`` (the instructor's demo cells) not even a constant may call anything.
- ``Protected``: names the student may not rebind (builtins, the notebook's own names).
- ``parse_cell``: a cell's syntax tree, made once (IPython's syntax turned into Python first), or
  why it does not parse; ``parse_error`` is the reason alone.

Every cell is parsed within bounds (settings.py states them): its source is at most
MAX_CELL_SOURCE_CHARS (submissions.py refuses a larger one before this module sees it); IPython's
transformer reads only small cells (IPYTHON_CELL_CHARS, IPYTHON_LINE_CHARS, IPYTHON_ESCAPES); a
tree nested deeper than MAX_CODE_DEPTH, and whatever makes Python's parser give up (a SyntaxError,
a null byte, its own RecursionError or MemoryError on deeply nested code), is a cell that does not
parse, with a reason, never an exception out of here.

Every cell is also written back as text within bounds (``unparse``): an integer literal whose
decimal form is past Python's int-to-str limit (``sys.get_int_max_str_digits``, 4,300 digits; a
hexadecimal, octal or binary literal of any length parses) is written in hexadecimal, the same
value, in time linear in its length; whatever else ``ast.unparse`` cannot write, or writes past
MAX_KEPT_CODE_BYTES as the wire carries it, is ``UnreadableCode`` with a reason, which the plan
makes that cell's problem (the student's row), never the grader's fault (tests/test_hostile_code.py).
A cell whose string constants Python reads as more than MAX_CONSTANT_GROWTH times its source (nested
self-documenting f-strings repeat their text once per level) does not parse, with that reason,
before anything writes it back.
"""

from __future__ import annotations

import ast
import builtins
import copy
import json
import re
import sys

from .settings import IPYTHON_CELL_CHARS, IPYTHON_ESCAPES, IPYTHON_LINE_CHARS
from .settings import MAX_CODE_DEPTH, MAX_CONSTANT_GROWTH, MAX_KEPT_CODE_BYTES

SAFE_CALLS = {
    "int",
    "float",
    "complex",
    "bool",
    "str",
    "tuple",
    "list",
    "dict",
    "set",
    "frozenset",
    "range",
    "bytes",
    "abs",
    "min",
    "max",
    "len",
    "round",
    "pow",
    "sorted",
    "reversed",
    "zip",
    "enumerate",
}


# a line IPython's transformer may change: an escape first (%magic, !command, ?help, /call, ;quote,
# ,quote), an assignment of a magic or a command (x = %time f(), x = !ls), or help last (f?)
_IPYTHON_LINE = re.compile(r"^[ \t]*[%!?/;,]|=[ \t]*[%!]|\?[ \t]*$", re.M)


def cell_python(source: str) -> str:
    """A cell's source as plain Python: IPython magics become get_ipython() calls, where IPython's
    transformer is bounded (settings.py: IPYTHON_CELL_CHARS, IPYTHON_LINE_CHARS, IPYTHON_ESCAPES);
    any other cell is returned as it is."""
    if (
        len(source) > IPYTHON_CELL_CHARS
        or max(map(len, source.splitlines()), default=0) > IPYTHON_LINE_CHARS
        or len(_IPYTHON_LINE.findall(source)) > IPYTHON_ESCAPES
    ):
        return source
    try:  # no IPython (the student's selfcheck.py run from a bare Python): the cell as it is
        from IPython.core.inputtransformer2 import TransformerManager

        return TransformerManager().transform_cell(source)
    except Exception:
        return source


class UnreadableCode(ValueError):
    """A student's code that parses but that the trusted side cannot write back as text."""


class _HexInt(int):
    """An integer constant written (by ``repr``, so by ``ast.unparse``) in hexadecimal: a literal
    past the int-to-str limit stays the same literal in the code the student's process runs, in
    every place a literal may stand (a default, a match pattern, an f-string)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return hex(self)


def _past_str_limit(value: int) -> bool:
    """Whether ``repr(value)`` could exceed Python's int-to-str limit (0: no limit): log10(2) digits a bit."""
    limit = sys.get_int_max_str_digits()
    return bool(limit) and value.bit_length() * 0.30103 > limit - 8


def wire_size(text: str) -> int:
    """Bytes of ``text`` as the wire carries it (JSON with \\u escapes, wire.py)"""
    return len(json.dumps(text))


def unparse(tree: ast.AST) -> str:
    """``ast.unparse`` of a student's (sub)tree from ``parse_cell``, or UnreadableCode saying why not
    (it cannot, or it writes more than MAX_KEPT_CODE_BYTES as the wire carries it)."""
    try:
        text = ast.unparse(tree)
    except (ValueError, RecursionError, MemoryError) as exc:  # none known (tests/test_hostile_code.py)
        raise UnreadableCode(f"cannot be written back as code ({type(exc).__name__})") from None
    if len(text) > MAX_KEPT_CODE_BYTES // 12 and wire_size(text) > MAX_KEPT_CODE_BYTES:
        raise UnreadableCode(f"written back as code it is over {MAX_KEPT_CODE_BYTES // 2**20} MiB")
    return text


def _constant_chars(tree: ast.AST) -> int:
    """Characters (bytes) of the string and bytes constants of ``tree``, as Python reads them."""
    return sum(len(n.value) for n in ast.walk(tree) if isinstance(getattr(n, "value", None), (str, bytes)))


def parse_cell(source: str) -> tuple[ast.Module | None, str | None]:
    """(the cell's syntax tree, None), or (None, why it does not parse: 'line N: message'). The one
    parse of a cell's source: every reader of a student's cell (its definitions, the attack scan,
    its feedback) takes the tree from here."""
    try:
        tree = ast.parse(cell_python(source))
    except SyntaxError as exc:  # a null byte has no line
        return None, f"line {exc.lineno}: {exc.msg}" if exc.lineno else exc.msg
    except ValueError as exc:  # a null byte, before Python 3.12
        return None, str(exc)[:100]
    except (RecursionError, MemoryError):  # Python's parser on deeply nested code
        return None, "nested too deeply for Python's parser"
    if _deeper_than(tree, MAX_CODE_DEPTH):
        return None, f"nested over {MAX_CODE_DEPTH} deep"
    if _constant_chars(tree) > MAX_CONSTANT_GROWTH * len(source) + 1024:
        return None, f"its strings, as Python reads them, are over {MAX_CONSTANT_GROWTH} times the cell's size"
    return tree, None


def _deeper_than(tree: ast.AST, limit: int) -> bool:
    """Whether ``tree`` nests deeper than ``limit`` (a walk without recursion). On the way, every
    integer constant past the int-to-str limit becomes a ``_HexInt`` (``unparse`` writes it)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, ast.Constant) and type(node.value) is int and _past_str_limit(node.value):
            node.value = _HexInt(node.value)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return False


def root_name(node) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _simple(node, calls: bool = True) -> bool:
    """An expression that runs no student code: constants, names, public attributes, containers,
    arithmetic, and (with ``calls``) calls of public library functions (np.float32(...)) or safe
    builtins."""
    if node is None:
        return True
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, ast.Attribute):
        return not node.attr.startswith("_") and _simple(node.value, calls)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_simple(e, calls) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(_simple(k, calls) and _simple(v, calls) for k, v in zip(node.keys, node.values))
    if isinstance(node, ast.UnaryOp):
        return _simple(node.operand, calls)
    if isinstance(node, ast.BinOp):
        return _simple(node.left, calls) and _simple(node.right, calls)
    if isinstance(node, ast.BoolOp):
        return all(_simple(v, calls) for v in node.values)
    if isinstance(node, ast.Compare):
        return _simple(node.left, calls) and all(_simple(c, calls) for c in node.comparators)
    if isinstance(node, ast.IfExp):
        return _simple(node.test, calls) and _simple(node.body, calls) and _simple(node.orelse, calls)
    if isinstance(node, ast.Subscript):
        return _simple(node.value, calls) and _simple(node.slice, calls)
    if isinstance(node, ast.Slice):
        return _simple(node.lower, calls) and _simple(node.upper, calls) and _simple(node.step, calls)
    if isinstance(node, ast.JoinedStr):
        return all(_simple(v, calls) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return _simple(node.value, calls)
    if isinstance(node, ast.Call):
        if not calls:
            return False
        func_ok = (isinstance(node.func, ast.Name) and node.func.id in SAFE_CALLS) or (
            isinstance(node.func, ast.Attribute) and _simple(node.func, calls) and isinstance(root_name(node.func), str)
        )
        return (
            func_ok
            and all(_simple(a, calls) for a in node.args)
            and all(_simple(k.value, calls) for k in node.keywords)
        )
    return False


def kept_statement(stmt, calls: bool = True) -> ast.stmt | None:
    """The statement if it only defines things, else None (it will not run when grading)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
        return stmt
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = stmt.args
        parts = stmt.decorator_list + a.defaults + [d for d in a.kw_defaults if d is not None]
        parts += [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs if x.annotation]
        parts += [stmt.returns] if stmt.returns else []
        return stmt if all(_simple(p, calls) for p in parts) else None
    if isinstance(stmt, ast.ClassDef):
        if not all(_simple(p, calls) for p in stmt.decorator_list + stmt.bases + [k.value for k in stmt.keywords]):
            return None
        stmt = copy.copy(stmt)
        stmt.body = [s for s in (kept_statement(s, calls) for s in stmt.body) if s is not None] or [ast.Pass()]
        return stmt
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        names_only = all(
            isinstance(t, ast.Name) or (isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts))
            for t in targets
        )
        return stmt if names_only and _simple(stmt.value, calls) else None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return stmt  # a docstring
    if isinstance(stmt, ast.Try):
        stmt = copy.copy(stmt)
        stmt.body = [s for s in (kept_statement(s, calls) for s in stmt.body) if s is not None] or [ast.Pass()]
        handlers = []
        for h in stmt.handlers:
            if not _simple(h.type, calls):
                return None
            h = copy.copy(h)
            h.body = [s for s in (kept_statement(s, calls) for s in h.body) if s is not None] or [ast.Pass()]
            handlers.append(h)
        stmt.handlers = handlers
        stmt.orelse = [s for s in (kept_statement(s, calls) for s in stmt.orelse) if s is not None]
        stmt.finalbody = [s for s in (kept_statement(s, calls) for s in stmt.finalbody) if s is not None]
        return stmt
    return None


def definitions_only(
    source: str, protected: "Protected | None" = None, calls: bool = True
) -> tuple[str, int, list[str]]:
    """(code keeping only imports, defs, classes and simple constants, number of statements
    dropped, names the student may not rebind). With ``protected``, statements rebinding a builtin
    or a name the instructor's cells define (helpers the tests use, ``_ref_`` references) are
    dropped too, unless they are the instructor's own import. Code that does not parse is returned
    as it is: it defines nothing and its SyntaxError is what the student should see."""
    tree, _ = parse_cell(source)
    return (source, 0, []) if tree is None else definitions_of(tree, protected, calls)


def definitions_of(
    tree: ast.Module, protected: "Protected | None" = None, calls: bool = True
) -> tuple[str, int, list[str]]:
    """``definitions_only`` of a cell already parsed (``parse_cell``)."""
    kept, refused = [], []
    for stmt in tree.body:
        stmt = kept_statement(stmt, calls)
        if stmt is None:
            continue
        if protected is not None:
            clash = [
                n
                for n, st in _bound_names(ast.Module(body=[stmt], type_ignores=[])).items()
                if protected.refuses(n, st)
            ]
            if clash:
                refused += clash
                continue
        kept.append(stmt)
    dropped = len(tree.body) - len(kept)
    return (unparse(ast.Module(body=kept, type_ignores=[])) if kept else ""), dropped, refused


class Protected:
    """Names the student's code may not rebind: builtins and whatever the instructor's cells
    bind (setup imports and helpers, demo helpers, test references), except by the same import."""

    def __init__(self, instructor_sources: list[str]):
        self.bound, self.imports = set(), set()
        for src in instructor_sources:
            tree, _ = parse_cell(src)
            for name, stmt in _bound_names(tree).items():
                self.bound.add(name)
                key = _import_key(stmt, name)
                if key:
                    self.imports.add((name, key))

    @property
    def modules(self) -> set[str]:
        return {n for n, _ in self.imports}

    def refuses(self, name: str, stmt) -> bool:
        if not (name in self.bound or hasattr(builtins, name) or name.startswith("_ref_")):
            return False
        key = _import_key(stmt, name)
        return key is None or (name, key) not in self.imports


def _bound_names(tree) -> dict[str, ast.stmt]:
    """Top-level names bound by a module (none for None: a cell that does not parse), with the
    statement binding each."""
    bound = {}
    for stmt in tree.body if tree is not None else []:
        names = []
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [stmt.name]
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in stmt.names]
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                names += [n.id for n in ast.walk(t) if isinstance(n, ast.Name)]
        for n in names:
            bound[n] = stmt
    return bound


def _import_key(stmt, name):
    if isinstance(stmt, ast.Import):
        return next((("import", a.name) for a in stmt.names if (a.asname or a.name).split(".")[0] == name), None)
    if isinstance(stmt, ast.ImportFrom):
        return next((("from", stmt.module, a.name) for a in stmt.names if (a.asname or a.name) == name), None)
    return None


def parse_error(source: str) -> str | None:
    """'line N: message' (or the parser's other reason) when a cell does not parse, else None."""
    return parse_cell(source)[1]
