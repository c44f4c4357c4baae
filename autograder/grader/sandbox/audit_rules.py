"""The student's process's audit hook (issue 65): no code runs there that no reading of it saw.

student_side.py installs it after the lesson's setup cell and before the first line of the
student's code; a hook cannot be removed (``sys.addaudithook``). From then on the process refuses:
- compiling source at run time (``exec`` or ``eval`` of a string, a string annotation that
  ``typing`` evaluates) that names a way to run more code or reach the process's state (``exec``,
  ``eval``, ``getattr``, ``open``..., a name starting with "_", or an attribute the checker
  refuses in the answers' code, such as ``config`` or ``interpreters``), or compiling a syntax
  tree; the grader's own cells and probe, the sources the standard library generates for honest
  code (a dataclass's methods, a namedtuple's ``__new__``) and an import of a file without
  bytecode pass, as do the type expressions libraries
  evaluate (``"Callable | None"``, and protobuf's ``"RepeatedCompositeFieldContainer[_T]"``: a
  private TypeVar's name in a call-free expression, TYPE_EXPRESSION) and the literals
  ``ast.literal_eval`` reads (``np.load``'s header);
- unpickling (``pickle.find_class``: a pickle calls any function it names). A code object's own
  parts are out of reach of the answers' code (``__code__`` is refused in code and in ``getattr``).
A hostile review (2026-12-07) undid the TPU emulation through ``np.load(..., allow_pickle=True)``
and through a string annotation that ``functools.singledispatch`` had ``typing`` evaluate: each
ran code that the static reading of the answer (notebook/answer_rules.py) never saw. A third
wrote that annotation's names in full-width letters (Python reads ``ｅｘｅｃ`` as ``exec``) and a
private module's name with a string escape: run-time source is now ASCII only, its strings' escapes
are decoded before its names are read, and the static reading's refused paths and builtins are
refused here too (``findings``). Imports
still run (their code comes from files); the static reading decides what may be imported.
Standalone: it is copied beside student_side.py into the sandbox.
"""

import re
import sys

# What the standard library compiles at run time for honest code (dataclasses' _create_fn,
# collections.namedtuple's __new__): their names are checked identifiers, their text the library's.
LIBRARY_SOURCES = ("def __create_fn__(", "lambda _cls, ")
REFUSED = {"pickle.find_class": "unpickling"}  # (code objects are made by libraries: JAX's import makes some)
# Names that source compiled at run time may not hold (besides those the checker refuses in code,
# and any name starting with "_"): the ways to run more code or reach the process's state.
NAMES = {"exec", "eval", "compile", "getattr", "setattr", "delattr", "globals", "locals", "vars", "open"}
NAMES |= {"breakpoint", "input", "memoryview", "classmethod", "staticmethod", "property", "type", "object"}
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A type expression as libraries write them in string annotations, which ``typing`` compiles when a
# module is imported (protobuf's ``"RepeatedCompositeFieldContainer[_T]"``, reached by importing
# xprof's converter): names, dotted names, subscripts, commas and ``|``; no call, no operator, no
# quote, nothing but names to evaluate. In one, a single-underscore name that is no attribute (a
# module's TypeVar ``_T``) may be read; dunders and ``._x`` never.
TYPE_EXPRESSION = re.compile(r"[A-Za-z0-9_.\[\], |]*")
PRIVATE_ATTRIBUTE = re.compile(r"\.\s*_")
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)+")


def _text(source) -> str:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source).decode("utf-8", "replace")
    return source if isinstance(source, str) else ""


def _private(name: str, typed: bool) -> bool:
    """A name compiled source may not hold: any "_" name, but a single-underscore one in a type
    expression (TYPE_EXPRESSION)."""
    return name.startswith("_") and not (typed and not name.startswith("__"))


def _decoded(text: str) -> str:
    """The text with its string escapes decoded (``"\\x5fsrc"`` is ``"_src"``), for the names in it."""
    try:
        return text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except (UnicodeError, ValueError):
        return text


def _module_file(filename) -> bool:
    """An import of a file without bytecode (an absolute .py path that exists). Reading the file to
    compare its bytes cost about 5 s a grading (measured on lesson 02's solution): no library an
    answer may import compiles other text under such a name, and ``compile`` is refused in answers."""
    import os

    return (
        isinstance(filename, str) and filename.endswith(".py") and os.path.isabs(filename) and os.path.isfile(filename)
    )


def findings(text: str, names, paths=()) -> list[str]:
    """What compiled text may not hold (the hook's rule, pure): a non-ASCII character (Python reads
    full-width letters as ASCII names: ``ｅｘｅｃ`` is ``exec``), a refused name, a name starting
    with "_" (but a private TypeVar in a type expression), a refused dotted path (``jax.core``),
    in the text or in its strings with their escapes decoded."""
    if not text.isascii():
        return ["a character outside ASCII"]
    typed = TYPE_EXPRESSION.fullmatch(text) is not None and not PRIVATE_ATTRIBUTE.search(text)
    found = []
    for reading in dict.fromkeys((text, _decoded(text))):
        found += [n for n in IDENTIFIER.findall(reading) if n in names or _private(n, typed)]
        for dotted in DOTTED.findall(reading):
            path = re.sub(r"\s+", "", dotted)
            found += [path for p in paths if path == p or path.startswith(p + ".")]
    return found


def install(refused=(), paths=()):
    """The hook, installed; returns ``run(code, label, namespace)``: the grader's own compile and
    exec of a cell or a probe, the one way to run source the hook would refuse. ``refused``: the
    names the checker refuses in the answers' code (checker/integrity.py's attributes, the static
    reading's builtins), refused in source compiled at run time too; ``paths``: the dotted paths
    the static reading refuses (checker/integrity.py: REFUSED_PATHS)."""
    state = {"gate": False}
    names = NAMES | {str(r) for r in refused}
    paths = tuple(str(p) for p in paths)

    def hook(event, args):
        if event == "compile" and not state["gate"]:
            source, filename = args[0] if args else None, args[1] if len(args) > 1 else None
            text = _text(source)
            if text.startswith(LIBRARY_SOURCES) or _module_file(filename):
                return  # a library's own source, an import of a file without bytecode
            found = findings(text, names, paths)
            if found or not isinstance(source, (str, bytes, bytearray)):
                raise RuntimeError(
                    f"compiling code that names {found[0] if found else 'a syntax tree'} at run time is refused"
                    " when grading: no answer needs it"
                )
        elif event in REFUSED:
            raise RuntimeError(f"{REFUSED[event]} is refused when grading: no answer needs it")

    sys.addaudithook(hook)

    def run(code: str, label: str, namespace: dict) -> None:
        state["gate"] = True
        try:
            compiled = compile(code, f"<{label}>", "exec")
        finally:
            state["gate"] = False
        exec(compiled, namespace)

    return run
