"""The answers written apart from the library, as ``outcomes`` candidates: the developers' held-out
wrong answers (solutions/NN/heldout.py, ``HELDOUT``), the answers written outside the course
(solutions/NN/independent/train.py and heldout.py, ``ANSWERS``, each meant ``correct`` or ``wrong``)
and answers that meet a choice the chip's compiler makes either way (solutions/NN/choices.py,
``ANSWERS``: loops that cast their input; the chip alone says which are right, grader/core/readings.py).

    python -m autograder.chip.hardware outcomes --sets heldout,independent,choices --record   # on a TPU

The chip's verdicts on them are each lesson's chip/answers.json (the library's are chip/outcomes.json):
whether the chip accepts every answer meant correct, which the grader must then accept on a CPU too
(tests/test_chip_verdicts.py), and which wrong answers' visible checks fail there. Course files, not
submissions: they are imported as the lesson's own code is.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from ..common import lessonfolder
from ..common.notebooks import ROOT

LIBRARY = "library"  # solutions/NN/mistakes.py and alternatives.py (outcomes.candidates)
SETS = {
    "heldout": ((lessonfolder.HELDOUT_FILE,), "HELDOUT"),
    "independent": ((f"{lessonfolder.INDEPENDENT}/train.py", f"{lessonfolder.INDEPENDENT}/heldout.py"), "ANSWERS"),
    "choices": ((lessonfolder.CHOICES_FILE,), "ANSWERS"),
}
CHIP_ANSWERS = "chip/answers.json"


def source_sha(source: str) -> str:
    """The digest of an answer's code (its text stripped of surrounding blank lines)."""
    return hashlib.sha256(source.strip().encode()).hexdigest()


def answers(lesson: str, name: str, root: Path = ROOT) -> list[dict]:
    """The set's answers to the lesson's exercises, each {kind, key, function, source}: kind is
    ``heldout`` or ``independent-correct`` / ``independent-wrong``; the key names the set and the
    digest of the code, so that a verdict stays with the code it was measured on."""
    files, variable = SETS[name]
    found = []
    for file in files:
        path = lessonfolder.companion(lesson, file, root)
        if not path.is_file():
            continue
        spec = importlib.util.spec_from_file_location(f"answers_{lesson}_{name}_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for answer in getattr(module, variable):
            kind = name if name == "heldout" else f"{name}-{answer.get('intent', 'wrong')}"
            key = f"{lesson}:{answer['function']}:{name}-{source_sha(answer['source'])[:10]}"
            if any(a["key"] == key for a in found):  # the same code written twice: measured once
                continue
            found.append({"kind": kind, "key": key, "function": answer["function"], "source": answer["source"]})
    return found


def answer_record(lesson: str, root: Path = ROOT) -> dict | None:
    """The chip's verdicts on the lesson's held-out and independent answers, None where not recorded."""
    import json

    path = lessonfolder.companion(lesson, CHIP_ANSWERS, root)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
