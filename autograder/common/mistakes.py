"""The course's library of known wrong answers: ``solutions/<NN_name>/mistakes.py``.

Each lesson's file holds ``MISTAKES``, a list of plain dicts (read with ``ast.literal_eval``: the
file is data, never imported or run here). One entry is one plausible mistake a student makes in
one exercise function: its code (``source``, the whole wrong function), a stable ``id`` (unique
within its function), a short student-facing ``name``, an ``explanation`` of the misconception (no
solution code), the lesson ``section`` to re-read (a heading of the lesson's notebook), the
author's technical note ``why``, and optional authoring flags: ``only_under`` ("tpu": the wrong
answer shows only on a TPU, real or emulated, and plain CPU misses it, such as a DEFAULT-precision
"exact" reference or a cast inside jit whose rounding the chip drops; "cpu": it shows only on a
plain CPU, while a TPU, real or emulated, computes it right, such as int8 products accumulated in
float32, which the chip's matrix unit sums in int32) and ``visible_fails`` (its visible test must
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

# Each lesson's file may also hold five plain dicts keyed by the lesson's function names (read with
# ast.literal_eval, like MISTAKES; ``lesson_constants``), which live with the lesson they describe:
# - NOT_DIAGNOSED: functions whose failed checks are never diagnosed (grader/diagnosis/diagnose.py
#   replays a check's calls on each mistake in the checker): their results are not a function of
#   their arguments, so a replay is not the same call and a match would be made up (the reason);
# - TIMINGS: functions whose results hold timings beside data: these dict keys' values are compared
#   by kind only (a float is a float), the rest of the result as any other;
# - TIMERS: exercises that only time other code: in a replay the diagnosis answers them with this
#   result instead of timing, so that replaying a timed table does not time anything per mistake;
# - NUMBERS_BY_VALUE: functions whose numbers are compared by value, whatever type carries them (a
#   Python float, a NumPy scalar, a 0-d array): their hidden tests accept each, and no mistake of
#   theirs is a type alone (the reason);
# - PHRASES: functions whose result holds free-text labels: those dict keys' text is compared by
#   which of these phrases it contains, lowercased, as the hidden test reads a label.
# Below, the course's: the same dicts keyed "<lesson>:<function>", from every lesson's file.
CONSTANTS = ("NOT_DIAGNOSED", "TIMINGS", "TIMERS", "NUMBERS_BY_VALUE", "PHRASES")


def lesson_constants(text: str, lesson: str) -> dict[str, dict]:
    """A lesson file's CONSTANTS ({} where it has none); ValueError names
    what is malformed."""
    found = {name: {} for name in CONSTANTS}
    for node in ast.parse(text).body:
        names = [getattr(t, "id", None) for t in node.targets] if isinstance(node, ast.Assign) else []
        if len(names) == 1 and names[0] in CONSTANTS:
            value = ast.literal_eval(node.value)
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                raise ValueError(f"{lesson}: {names[0]} must be a dict keyed by function names")
            found[names[0]] = value
    return found


def course_constants(root: Path) -> dict[str, dict]:
    """Every lesson's constants, keyed "<lesson>:<function>" (every lesson folder, whatever
    COURSE_LESSONS says: a function's nature does not depend on which lessons a command grades)."""
    merged = {name: {} for name in CONSTANTS}
    for path in sorted((root / "solutions").glob(f"*/{INSTRUCTOR_ONLY[0]}")):
        for name, by_function in lesson_constants(path.read_text(encoding="utf-8"), path.parent.name).items():
            merged[name].update({f"{path.parent.name}:{function}": v for function, v in by_function.items()})
    return merged


_COURSE = course_constants(ROOT)
NOT_DIAGNOSED: dict[str, str] = _COURSE["NOT_DIAGNOSED"]
TIMINGS: dict[str, list[str]] = _COURSE["TIMINGS"]
TIMERS: dict[str, dict] = _COURSE["TIMERS"]
NUMBERS_BY_VALUE: dict[str, str] = _COURSE["NUMBERS_BY_VALUE"]
PHRASES: dict[str, dict[str, list[str]]] = _COURSE["PHRASES"]
REQUIRED = ("id", "function", "name", "explanation", "section", "why", "source")
OPTIONAL = ("only_under", "visible_fails")
ONLY_UNDER = ("", "tpu", "cpu")  # only_under's values: "" where every backend shows the mistake


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
        if m.only_under not in ONLY_UNDER:
            raise ValueError(f"{lesson}: mistake {m.id}: only_under is one of {ONLY_UNDER[1:]}, not {m.only_under!r}")
        if (m.function, m.id) in seen:
            raise ValueError(f"{lesson}: two mistakes of {m.function} have the id {m.id!r}")
        seen.add((m.function, m.id))
        out.append(m)
    return out


def for_diagnosis(mistakes: list[Mistake]) -> list[dict]:
    """What the grader's checker replays (key, function, source; timings: dict keys compared by
    kind only; numbers: compared by value; phrases: labels compared by phrase; timers: the
    lesson's TIMERS by function), in the library's order, less the functions of ``NOT_DIAGNOSED``."""
    lessons = {m.lesson for m in mistakes}
    timers = {key.split(":")[1]: result for key, result in TIMERS.items() if key.split(":")[0] in lessons}
    return [
        {
            "key": m.key,
            "timers": timers,
            "function": m.function,
            "source": m.source,
            "timings": TIMINGS.get(f"{m.lesson}:{m.function}", []),
            "numbers": f"{m.lesson}:{m.function}" in NUMBERS_BY_VALUE,
            "phrases": PHRASES.get(f"{m.lesson}:{m.function}", {}),
        }
        for m in mistakes
        if f"{m.lesson}:{m.function}" not in NOT_DIAGNOSED
    ]


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


def sentence(keys: list[str], root: Path = ROOT) -> list[str]:
    """What a student reads under a failed check whose ``TestResult.mistakes`` are ``keys``: per
    function, "Your `fn` behaves like a known mistake: <name>. <explanation> (re-read: <section>)",
    several joined by "or". Only the library's own text: no input, expected value or test code."""
    library: dict[str, Mistake] = {}
    for lesson in dict.fromkeys(k.split(":", 1)[0] for k in keys):
        library.update({m.key: m for m in load(lesson, root)})
    by_function: dict[str, list[Mistake]] = {}
    for key in keys:
        if key in library:
            by_function.setdefault(library[key].function, []).append(library[key])
    lines = []
    for function, found in by_function.items():
        parts = []
        for m in found:
            text = m.name.rstrip(".") + "."
            text += f" {m.explanation.strip()}" if m.explanation.strip() else ""
            text += f" (re-read: {m.section})" if m.section.strip() else ""
            parts.append(text)
        lines.append(f"Your `{function}` behaves like a known mistake: " + " or ".join(parts))
    return lines
