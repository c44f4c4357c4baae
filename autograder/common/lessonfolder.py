"""A lesson is one folder: everything that belongs to one lesson lives in ``solutions/<NN_name>/``.

    solutions/NN_name/
      NN_name.ipynb        the lesson, its solutions and hidden tests: the one source of its student
                           version (python -m autograder release)
      lesson.toml          what the course says of the lesson outside its notebook: the student README's
                           line, the exercise functions docs/COURSE.md fixes, notes on the chip's record
      mistakes.py          the library of known wrong answers (MISTAKES; common/mistakes.py)
      alternatives.py      other people's correct answers (ALTERNATIVES): each must get full marks
      heldout.py           wrong answers the developers wrote apart from the library (HELDOUT)
      claims.py            claims that run, backing the mistakes' explanations (CLAIMS)
      independent/         answers written outside the course (ANSWERS): train.py, heldout.py
      chip/outcomes.json   the chip's verdict on every known answer (hardware outcomes --record, on a TPU);
                           a lesson without it is "not yet recorded on a TPU": graded under the emulation
      any other file       a file the notebook opens by name: released with it

Every lesson is found from these folders (notebooks.lessons: a folder holding a notebook of its own
name); nothing else names a lesson or counts them. All but the notebook (and the files it opens)
are instructor-only (config.INSTRUCTOR_ONLY): never released, never published. docs/AUTHORING.md
says how to make one; ``python -m autograder.course.lessoncheck check NN_name`` checks one.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .config import INSTRUCTOR_ONLY, SOURCE_DIR
from .notebooks import ROOT

NAME = re.compile(r"\d\d_[a-z0-9_]+")
SETTINGS_FILE = "lesson.toml"
ALTERNATIVES_FILE = "alternatives.py"
HELDOUT_FILE = "heldout.py"
CHOICES_FILE = "choices.py"  # answers meeting a choice the chip makes either way (grader/core/readings.py)
CLAIMS_FILE = "claims.py"
INDEPENDENT = "independent"  # train.py, heldout.py
CHIP_RECORD = "chip/outcomes.json"
IGNORED = (".ipynb_checkpoints", "__pycache__")


def folder(lesson: str, root: Path = ROOT) -> Path:
    return Path(root) / SOURCE_DIR / lesson


def notebook_path(lesson: str, root: Path = ROOT) -> Path:
    return folder(lesson, root) / f"{lesson}.ipynb"


def companion(lesson: str, name: str, root: Path = ROOT) -> Path:
    """A companion of the lesson (``alternatives.py``, ``independent/heldout.py``, ``chip/outcomes.json``...)."""
    return folder(lesson, root) / name


@dataclass(frozen=True)
class LessonSettings:
    """lesson.toml: what the course says of a lesson outside its notebook (every key optional)."""

    short_title: str = ""  # the student README's "What you will learn": **NN short_title**: learn
    learn: str = ""
    contract: tuple[str, ...] = ()  # exercise functions docs/COURSE.md fixes: never renamed
    # the chip's record (chip/outcomes.json): known answers whose verdict the chip differs on, with why
    not_caught_on_the_chip: dict[str, str] = field(default_factory=dict)  # function:id -> why
    trace_differs: tuple[str, ...] = ()  # function:id of visible checks that read a device trace
    changed_since_recorded: tuple[str, ...] = ()  # test cells changed after the chip measured them
    # mistakes whose hidden check fails on the chip and whose visible check passes there (no surprise
    # at grading: tests/test_chip_verdicts.py): function:id -> the hidden input that shows it (named
    # in the exercise's text), or, under surprises, why the visible check does not catch it yet
    hidden_only: dict[str, str] = field(default_factory=dict)
    surprises: dict[str, str] = field(default_factory=dict)
    # answers written apart from the library (chip/answers.json) whose verdict on a CPU under the
    # emulation is not the chip's: function:set-digest -> why
    answers_differ: dict[str, str] = field(default_factory=dict)


KEYS = {"short_title", "learn", "contract", "chip"}
CHIP_KEYS = {"not_caught", "trace_differs", "changed_since_recorded", "hidden_only", "surprises", "answers_differ"}


def settings(lesson: str, root: Path = ROOT) -> LessonSettings:
    """The lesson's lesson.toml (every value its default where the file or a key is missing);
    ValueError names what is malformed."""
    path = companion(lesson, SETTINGS_FILE, root)
    if not path.is_file():
        return LessonSettings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: {exc}") from None
    chip = data.get("chip", {})
    unknown = sorted(set(data) - KEYS) + sorted(f"chip.{k}" for k in set(chip) - CHIP_KEYS)
    if unknown:
        raise ValueError(f"{path}: unknown keys {unknown} (docs/AUTHORING.md, 'A lesson is one folder')")
    words = [data.get("short_title", ""), data.get("learn", "")]
    lists = [data.get("contract", []), chip.get("trace_differs", []), chip.get("changed_since_recorded", [])]
    tables = ("not_caught", "hidden_only", "surprises", "answers_differ")
    caught, only, surprises, differ = (chip.get(k, {}) for k in tables)
    if not all(isinstance(w, str) for w in words) or not all(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in lists
    ):
        raise ValueError(f"{path}: short_title and learn are strings; contract and the chip's lists, lists of strings")
    for key, table in zip(tables, (caught, only, surprises, differ)):
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            raise ValueError(f"{path}: chip.{key} maps 'function:id' to a reason")
    return LessonSettings(
        *words,
        tuple(lists[0]),
        dict(caught),
        tuple(lists[1]),
        tuple(lists[2]),
        dict(only),
        dict(surprises),
        dict(differ),
    )


def chip_record(lesson: str, root: Path = ROOT) -> dict | None:
    """The chip's record of the lesson (chip/outcomes.json), None where it is not yet recorded on a TPU."""
    path = companion(lesson, CHIP_RECORD, root)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def chip_status(lessons: list[str], root: Path = ROOT) -> dict[str, str]:
    """{lesson: the date its known answers were recorded on a TPU, or "" where not yet}."""
    return {n: (chip_record(n, root) or {}).get("date", "") for n in lessons}


def files(lesson: str, root: Path = ROOT) -> list[str]:
    """The folder's files, relative to it (caches left out)."""
    base = folder(lesson, root)
    return sorted(
        p.relative_to(base).as_posix()
        for p in base.rglob("*")
        if p.is_file() and not set(p.relative_to(base).parts) & set(IGNORED)
    )


def released_files(lesson: str, root: Path = ROOT) -> list[str]:
    """The files the release takes with the notebook: all but the instructor-only companions."""
    return [f for f in files(lesson, root) if not set(f.split("/")) & set(INSTRUCTOR_ONLY)]


def stray_files(lesson: str, root: Path = ROOT) -> list[str]:
    """Files the release would hand students that the lesson does not ask for: neither the notebook
    nor a file its cells name (a scratch script, an authoring helper's script, a note)."""
    import nbformat

    path = notebook_path(lesson, root)
    if not path.is_file():
        return []
    text = "\n".join(c.source for c in nbformat.read(str(path), as_version=4).cells)
    return [f for f in released_files(lesson, root) if f != path.name and Path(f).name not in text]
