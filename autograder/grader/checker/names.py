"""Which names the checker binds to the student's process: the lesson's exercises, never the
student's word. The student's process runs the student's code, so its ready message (what it says
it defined) is a claim to check, not a list to bind: anything beyond the exercises is forged (an
attack on record), and an exercise is never bound where a test expects its own name (a builtin,
a name the lesson's setup or definitions made)."""

from __future__ import annotations

import builtins

from ..core.settings import READY_NAMES
from ...common.textsafe import printable


def contract_names(defined, contract: list[str]) -> tuple[list[str], list[str]]:
    """(the exercises a ready message says the student's process defined, what else it named).

    The student's process runs the student's code: its ready message is the student's word. Only
    the lesson's exercises (``contract``, from the instructor's plan) are ever taken from it; any
    other entry (a builtin, a setup name such as ``Path``, a duplicate, a non-string, a list that
    is no list) is forged: the checker binds nothing for it and the notebook is graded tampered."""
    if not isinstance(defined, list):
        return [], [f"a ready message whose names are a {type(defined).__name__}"]
    names, forged = [], []
    for entry in defined[:READY_NAMES]:
        if type(entry) is str and entry in contract and entry not in names:
            names.append(entry)
        else:
            forged.append(repr(entry)[:60] if type(entry) is not str else entry[:60])
    if len(defined) > READY_NAMES:
        forged.append(f"{len(defined) - READY_NAMES} names more")
    return names, forged


def shadowed(contract: list[str], namespace: dict) -> str:
    """The first exercise name that is a builtin or a name the lesson's setup and definitions bound
    (``namespace``), or "": a stand-in is bound only under a name of its own, so a test's code
    never reaches the student's process through ``abs``, ``print`` or ``Path``."""
    for name in contract:
        if hasattr(builtins, name) or name in namespace or name.startswith("__"):
            return name
    return ""


def record_forged(attacks: list[str], names: list[str]) -> None:
    """A ready message that named more than the lesson's exercises: code aimed at the grader, put
    on record in ``attacks`` (the plan's: status tampered, no points) once. The checker bound none."""
    if names:
        shown = ", ".join(printable(n, 60) for n in names[:5])
        attack = f"the student's process named functions that are no exercise of this lesson: {shown}"
        if attack not in attacks:
            attacks.append(attack)


def record_tampered(attacks: list[str], why: str) -> None:
    """The emulation's probe failed in the student's process (checker/integrity.py): on record in
    ``attacks`` (status tampered, no points), once."""
    if why:
        attack = printable(why, 300)
        first = attack.split(" (probed")[0]  # the first probe that found it is enough
        if not any(a.split(" (probed")[0] == first for a in attacks):
            attacks.append(attack)
