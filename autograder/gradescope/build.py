"""``python -m autograder gradescope OUT``: one Gradescope autograder zip per lesson.

Each ``OUT/<NN_name>-autograder.zip`` holds, at its root (Gradescope's "Autograder
Specifications": setup.sh and run_autograder at the root, the rest unpacked into
/autograder/source):
- ``setup.sh`` and ``run_autograder`` (templates/ beside this file);
- ``requirements.txt``: the course's pins that grading needs (pyproject.toml, less the tools that
  only test, lint or run a cluster);
- ``gradescope.json``: the lesson, the grading settings, the seed the hidden tests' inputs are
  mixed from, and when hidden checks are shown;
- the course it grades with: ``autograder/`` (less lessoncheck/, the authors' tool), of the lesson's
  folder ``solutions/<NN_name>/`` the notebook (the reference solution and its HIDDEN TESTS) and
  what grading needs (config.GRADING_COMPANIONS: the library of known mistakes, which the diagnosis
  names), ``notebooks/<NN_name>/`` (the release students downloaded), ``pyproject.toml`` and
  ``LICENSE``; and INSTRUCTOR_ONLY.txt.
Never tests/, alternatives, held-out answers, claims, the chip's record, examples or other lessons.
The zip is instructor-only: anyone holding it holds the hidden tests.
"""

from __future__ import annotations

import json
import secrets
import stat
import tomllib
import zipfile
from dataclasses import replace
from pathlib import Path

from ..common.config import GRADING_COMPANIONS, INSTRUCTOR_ONLY, RELEASE_DIR, ROOT, SOURCE_DIR
from ..grader.core.settings import Settings
from .results import VISIBILITIES
from .run import CONFIG

TEMPLATES = Path(__file__).resolve().parent / "templates"
SCRIPTS = ("setup.sh", "run_autograder")
# pins of pyproject.toml that grading does not need: tests, lint, the browser test, Dask clusters
NOT_FOR_GRADING = frozenset({"nbmake", "pytest", "pytest-xdist", "ruff", "playwright", "dask", "distributed"})
SKIP_PARTS = frozenset({"__pycache__", ".ipynb_checkpoints", "lessoncheck"})
WARNING = """INSTRUCTOR ONLY. This zip holds the lesson's reference solution and its HIDDEN TESTS
(solutions/). Upload it to Gradescope as an assignment's autograder and to nowhere else: never
share it with students, never commit it to a public repository. Written by
`python -m autograder gradescope`; the README's "Grading on Gradescope" says how to use it.
"""


def grading_requirements(root: Path = ROOT) -> list[str]:
    """The pinned dependencies of pyproject.toml that grading needs, as ``name==version`` lines."""
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    return [d for d in deps if d.split("==")[0].lower() not in NOT_FOR_GRADING]


def course_files(lesson: str, root: Path = ROOT) -> list[Path]:
    """The repository's files the lesson's autograder needs, relative to ``root``."""
    files = []
    # of the lesson's instructor-only companions, only what grading needs
    left_out = set(INSTRUCTOR_ONLY) - set(GRADING_COMPANIONS)
    for folder in ("autograder", f"{SOURCE_DIR}/{lesson}", f"{RELEASE_DIR}/{lesson}"):
        for path in sorted((root / folder).rglob("*")):
            rel = path.relative_to(root)
            lesson_part = rel.parts[2:] if rel.parts[0] == SOURCE_DIR else ()
            if left_out & set(lesson_part):
                continue
            if path.is_file() and not path.is_symlink() and not SKIP_PARTS & set(rel.parts) and path.suffix != ".pyc":
                files.append(rel)
    return files + [Path(name) for name in ("pyproject.toml", "LICENSE") if (root / name).is_file()]


def write_zip(out: Path, lesson: str, settings: Settings, hidden_visibility: str, root: Path = ROOT) -> Path:
    """``out/<lesson>-autograder.zip``; ``settings.seed`` (None: a new secret one) goes in it."""
    if hidden_visibility not in VISIBILITIES:
        raise ValueError(f"--hidden-visibility {hidden_visibility!r}: one of {', '.join(VISIBILITIES)}")
    seed = settings.seed if settings.seed is not None else secrets.randbelow(2**31)
    config = {
        "lesson": lesson,
        "hidden_visibility": hidden_visibility,
        "settings": replace(settings, seed=seed, jobs=1).to_dict(),
    }
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{lesson}-autograder.zip"
    tmp = target.with_suffix(".zip.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name in SCRIPTS:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | 0o755) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, (TEMPLATES / name).read_text())
        z.writestr("requirements.txt", "\n".join(grading_requirements(root)) + "\n")
        z.writestr(CONFIG, json.dumps(config, indent=1) + "\n")
        z.writestr("INSTRUCTOR_ONLY.txt", WARNING)
        for rel in course_files(lesson, root):
            z.write(root / rel, rel.as_posix())
    tmp.replace(target)
    return target


def write_zips(
    out: Path, lessons: list[str], settings: Settings, hidden_visibility: str, root: Path = ROOT
) -> list[Path]:
    """One zip per lesson, all with one seed (given, or drawn once; each lesson mixes in its name)."""
    if settings.seed is None:
        from dataclasses import replace

        settings = replace(settings, seed=secrets.randbelow(2**31))
    return [write_zip(out, lesson, settings, hidden_visibility, root) for lesson in lessons]
