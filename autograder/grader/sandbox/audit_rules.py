"""The student's process's audit hook (issue 65): no code runs there that no reading of it saw.

student_side.py installs it after the lesson's setup cell and before the first line of the
student's code; a hook cannot be removed (``sys.addaudithook``). From then on the process refuses:
- compiling source at run time (``compile``, ``exec`` or ``eval`` of a string, a string annotation
  that ``typing`` evaluates), but the grader's own cells and probe, and the two sources the
  standard library generates for an honest answer: a dataclass's methods and a namedtuple's
  ``__new__`` (built from field names the library checks are identifiers);
- running a code object that was not read from a module's file, nor compiled by those (a code
  object of the student's own function passed to ``exec``);
- unpickling (``pickle.find_class``: a pickle calls any function it names), making code objects
  (``code.__new__``) and functions from them (``function.__new__``).
A hostile review (2026-12-07) undid the TPU emulation through ``np.load(..., allow_pickle=True)``
and through a string annotation that ``functools.singledispatch`` had ``typing`` evaluate: each
ran code that the static reading of the answer (notebook/answer_rules.py) never saw. Imports
still run (their code comes from files); the static reading decides what may be imported.
Standalone: it is copied beside student_side.py into the sandbox.
"""

import sys

# What the standard library compiles at run time for honest code (dataclasses' _create_fn,
# collections.namedtuple's __new__): their names are checked identifiers, their text the library's.
LIBRARY_SOURCES = ("def __create_fn__(", "lambda _cls, ")
REFUSED = {"pickle.find_class": "unpickling", "code.__new__": "making a code object"}
REFUSED["function.__new__"] = "making a function from a code object"
# ast.parse's file name: it compiles to a syntax tree only (np.load reads its header with ast.literal_eval);
# a code object compiled under that name cannot run (exec and function.__new__ are refused for it)
SYNTAX_TREES = "<unknown>"


def _text(source) -> str:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source[:64]).decode("utf-8", "replace")
    return source[:64] if isinstance(source, str) else ""


def _module_file(filename) -> bool:
    import os

    return (
        isinstance(filename, str) and filename.endswith(".py") and os.path.isabs(filename) and os.path.isfile(filename)
    )


def install():
    """The hook, installed; returns ``run(code, label, namespace)``: the grader's own compile and
    exec of a cell or a probe, the one way to run source past the hook."""
    state = {"gate": False, "library": 0, "allowed": []}

    def hook(event, args):
        if event == "compile":
            if state["gate"]:
                return
            if _text(args[0] if args else "").startswith(LIBRARY_SOURCES):
                state["library"] += 1
                return
            if len(args) > 1 and args[1] == SYNTAX_TREES:
                return
            if _module_file(args[1] if len(args) > 1 else None):
                return  # an import of a module that has no cached bytecode compiles its file
            raise RuntimeError("compiling code at run time is refused when grading: no answer needs it")
        if event == "exec":
            code = args[0] if args else None
            for i, allowed in enumerate(state["allowed"]):
                if allowed is code:
                    del state["allowed"][i]
                    return
            if not str(getattr(code, "co_filename", "<")).startswith("<"):
                return  # a module's code, read from its file by an import
            if state["library"]:
                state["library"] -= 1
                return
            raise RuntimeError("running code that was not read from a file is refused when grading")
        if event in REFUSED:
            raise RuntimeError(f"{REFUSED[event]} is refused when grading: no answer needs it")

    sys.addaudithook(hook)

    def run(code: str, label: str, namespace: dict) -> None:
        state["gate"] = True
        try:
            compiled = compile(code, f"<{label}>", "exec")
        finally:
            state["gate"] = False
        state["allowed"].append(compiled)
        exec(compiled, namespace)

    return run
