"""Code aimed at the grader, named: IPython hooks, frames, builtins, process control.

``attacks_in`` reads a student's cell as a syntax tree (``studentcode.parse_cell``: the trusted side;
nothing of theirs runs); ``static_attacks`` does it for cells' sources.
It decides nothing a test could be fooled by (the checks run in another process): it tells an
instructor who tried, with status ``tampered``. The same reading holds the code that runs to what an
answer may name (answer_rules.py), which keeps the TPU emulation in the student's process whole.
"""

from __future__ import annotations

import ast

from .answer_rules import rule_breaks
from ..core.studentcode import Protected, UnreadableCode, parse_cell, root_name, unparse
from ...common.textsafe import printable

# Attribute names with no use in these exercises but every use in an attack on the grader.
SUSPICIOUS_ATTRS = {
    "input_transformers_cleanup",
    "input_transformers_post",
    "input_transformer_manager",
    "ast_transformers",
    "showtraceback",
    "_showtraceback",
    "showsyntaxerror",
    "excepthook",
    "displayhook",
    "settrace",
    "setprofile",
    "_getframe",
    "f_back",
    "f_globals",
    "f_locals",
    "f_code",
    "f_builtins",
    "co_consts",
    "tb_frame",
    "gi_frame",
    "cr_frame",
    "user_ns",
    "user_global_ns",
    "run_cell",
    "run_cell_async",
    "transform_cell",
    "run_ast_nodes",
    "run_code",
    "__code__",
    "__globals__",
    "__builtins__",
    "__dict__",
    "__closure__",
    "__subclasses__",
    "register_magic_function",
    "set_custom_exc",
    "audit",
    "addaudithook",
    "modules",
    "meta_path",
    "path_hooks",
    # JAX's internals, where the grader's TPU emulation sits in the student's process (autograder/chip/):
    # undoing it would give a cast inside jit the CPU's rounding, a grade the chip would not give
    "_src",
    "interpreters",
    "lower_jaxpr_to_module",
    "cell_contents",
}
# Words in a string (also one folded from constants, "__clo" "sure__" or "_s" + "rc") that name those
# internals: getattr(module, "...") and importlib reach them without an attribute in the syntax tree
SUSPICIOUS_WORDS = ("_src", "interpreters", "lower_jaxpr", "cell_contents", "__closure__", "__globals__")
# JAX's modules outside its public API, where the emulation's hook lives
JAX_INTERNALS = ("jax._src", "jax.interpreters", "jax.extend", "jax.lib", "jaxlib")
SUSPICIOUS_MODULES = {
    "builtins",
    "__builtin__",
    "ctypes",
    "gc",
    "inspect",
    "IPython",
    "ipykernel",
    "atexit",
    "signal",
    "importlib",
    "traceback",
    "sysconfig",
    "_thread",
    "threading",
    "multiprocessing",
    "subprocess",
    "pty",
    "code",
    "codeop",
    "unittest",
    "pytest",
    "numpy.testing",
    # the student's process's own code (sandbox.SANDBOX_FILES, run as __main__): its ready message
    # and namespace are no exercise's business (issue 42: a forged list of names)
    "__main__",
    "student_side",
    "wire",
    "landlock",
}
SUSPICIOUS_CALLS = {
    "globals",
    "vars",
    "setattr",
    "delattr",
    "exec",
    "eval",
    "compile",
    "__import__",
    "get_ipython",
    "breakpoint",
}


def static_attacks(student_sources: list[str], protected: Protected) -> list[str]:
    """Attacks on the checking machinery visible in the student's code (empty when none; a cell
    that does not parse shows none)."""
    found = []
    for src in student_sources:
        tree, _ = parse_cell(src)
        found += attacks_in(tree, protected) if tree is not None else []
    return sorted(set(found))


def attacks_in(tree: ast.Module, protected: Protected) -> list[str]:
    """The attacks of one parsed cell, in the order found (repeats included)."""
    module_names = protected.modules | {"sys", "os", "np", "jnp", "jax", "math", "numpy"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SUSPICIOUS_ATTRS:
            found.append(f"uses .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in ("__builtins__", "__import__"):
            found.append(f"uses {node.id}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SUSPICIOUS_CALLS:
            found.append(f"calls {node.func.id}()")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.module in ("numpy", "sys", "os", "jax"):
                mods += [f"{node.module}.{a.name}" for a in node.names]
            for m in mods:
                if m in SUSPICIOUS_MODULES or m.split(".")[0] in SUSPICIOUS_MODULES:
                    found.append(f"imports {printable(m, 100, keep='')}")
                elif any(m == j or m.startswith(j + ".") for j in JAX_INTERNALS):
                    found.append(f"imports {printable(m, 100, keep='')} (JAX's internals)")
        elif (text := folded_string(node)) is not None and any(w in text for w in SUSPICIOUS_WORDS):
            word = next(w for w in SUSPICIOUS_WORDS if w in text)
            found.append(f"names {word} in a string")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Attribute) and root_name(sub) in module_names:
                        found.append(f"assigns {target_text(sub)}")
    return found + rule_breaks(tree, protected)  # what an answer may name (issue 65)


def target_text(node: ast.AST) -> str:
    """An assignment target as the feedback names it: its code, at most 100 printable characters."""
    try:
        return printable(unparse(node), 100, keep="")
    except UnreadableCode:
        return f"{root_name(node)}. (a target too long to show)"


def folded_string(node: ast.AST) -> str | None:
    """The text of a string constant, of a concatenation of them ("a" + "b"), or of an f-string
    whose parts are all constants; None for anything else. Bounded by the node's own size."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = folded_string(node.left), folded_string(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values)
    return None
