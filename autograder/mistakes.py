"""The course's library of known wrong answers: ``solutions/<NN_name>/mistakes.py``.

Each lesson's file holds ``MISTAKES``, a list of plain dicts (read with ``ast.literal_eval``: the
file is data, never imported or run here). One entry is one plausible mistake a student makes in
one exercise function: its code (``source``, the whole wrong function), a stable ``id`` (unique
within its function), a short student-facing ``name``, an ``explanation`` of the misconception (no
solution code), the lesson ``section`` to re-read (a heading of the lesson's notebook), the
author's technical note ``why``, and optional authoring flags: ``only_under`` (the wrong answer
shows only under that device's precision, e.g. "tpu") and ``visible_fails`` (its visible test must
catch it too).

They are course content for instructors: the grader diagnoses failed checks against them, the
test suite grades each one; the student release and ``publish`` carry none of them.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from .config import INSTRUCTOR_ONLY
from .notebooks import ROOT

FILE_NAME = INSTRUCTOR_ONLY[0]
REQUIRED = ("id", "function", "name", "explanation", "section", "why", "source")
OPTIONAL = ("only_under", "visible_fails")


@dataclass(frozen=True)
class Mistake:
    lesson: str
    id: str
    function: str
    name: str
    explanation: str
    section: str
    why: str
    source: str
    only_under: str = ""
    visible_fails: bool = False

    @property
    def key(self) -> str:
        """Unique across the course: ``<lesson>:<function>:<id>``."""
        return f"{self.lesson}:{self.function}:{self.id}"

    def as_candidate(self) -> dict:
        """The dict the authoring tools grade (lessoncheck's variants)."""
        d = {k: getattr(self, k) for k in REQUIRED}
        d.update({k: getattr(self, k) for k in OPTIONAL if getattr(self, k)})
        return d


def path_of(lesson: str, root: Path = ROOT) -> Path:
    return root / "solutions" / lesson / FILE_NAME


def parse(text: str, lesson: str) -> list[Mistake]:
    """The ``MISTAKES`` list of one file's text; ValueError names what is malformed."""
    tree = ast.parse(text)
    values = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["MISTAKES"]
    ]
    if len(values) != 1:
        raise ValueError(f"{lesson}: {FILE_NAME} must assign MISTAKES exactly once")
    entries = ast.literal_eval(values[0])
    out, seen = [], set()
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"{lesson}: mistake {i} is not a dict")
        unknown = set(entry) - set(REQUIRED) - set(OPTIONAL)
        missing = [k for k in REQUIRED if k not in entry]
        if unknown or missing:
            raise ValueError(f"{lesson}: mistake {i} ({entry.get('id')}): unknown {sorted(unknown)}, missing {missing}")
        m = Mistake(lesson=lesson, **entry)
        if (m.function, m.id) in seen:
            raise ValueError(f"{lesson}: two mistakes of {m.function} have the id {m.id!r}")
        seen.add((m.function, m.id))
        out.append(m)
    return out


def load(lesson: str, root: Path = ROOT) -> list[Mistake]:
    """A lesson's known wrong answers, in the file's order ([] where the lesson has none)."""
    path = path_of(lesson, root)
    return parse(path.read_text(encoding="utf-8"), lesson) if path.is_file() else []


@functools.lru_cache(maxsize=64)
def _library(lesson: str, root: Path) -> dict[str, Mistake]:
    return {m.key: m for m in load(lesson, root)}


def lookup(keys, root: Path = ROOT) -> list[Mistake]:
    """The library's entries for ``keys`` (``Mistake.key`` strings, as results name them), in their
    order; a key the library no longer holds (edited since grading) is left out."""
    found = []
    for key in keys:
        lesson = str(key).split(":", 1)[0]
        if lesson and "/" not in lesson and lesson not in (".", ".."):
            try:
                m = _library(lesson, Path(root)).get(key)
            except (OSError, ValueError, SyntaxError):  # a library being edited: no text, no crash
                m = None
            if m is not None:
                found.append(m)
    return found

