"""The course's nbgrader configuration and settings, in one place.

``nbgrader_config.py`` at the repository root loads :func:`nbgrader_config` so that nbgrader's own
command line and JupyterLab's formgrader see the same settings as ``python -m autograder``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # traitlets only where nbgrader's configuration is made (autograder.chip.hardware runs without it)
    from traitlets.config import Config


ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIR = "solutions"
RELEASE_DIR = "notebooks"
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
CELL_TIMEOUT_S = 120  # per cell when grading; a whole lesson runs in well under a minute
BADGE_MARKER = "<!-- colab-badge -->"


def course_settings(root: Path = ROOT) -> dict:
    with open(root / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["course"]


def student_repository(root: Path = ROOT) -> str:
    """The public repository that `python -m autograder publish` fills and that the published
    badges open: ``[tool.course] student_repository``, or ``repository`` when it is not set."""
    s = course_settings(root)
    return s.get("student_repository") or s["repository"]


def colab_url(lesson: str, root: Path = ROOT, repository: str | None = None) -> str:
    """The lesson's Open-in-Colab URL in ``repository`` (default: ``[tool.course] repository``)."""
    s = course_settings(root)
    repo = (repository or s["repository"]).removeprefix("https://github.com/").strip("/")
    return f"https://colab.research.google.com/github/{repo}/blob/{s['branch']}/{RELEASE_DIR}/{lesson}/{lesson}.ipynb"


def emulation_url(root: Path = ROOT, repository: str | None = None) -> str:
    """Where a lesson's setup cell downloads the course's emulation (notebooks/tpu_emulation.py) when
    it is not beside the notebook (Colab): the raw file in ``repository`` (default: ``[tool.course]
    repository``), the branch the badges open."""
    s = course_settings(root)
    repo = (repository or s["repository"]).removeprefix("https://github.com/").strip("/")
    return f"https://raw.githubusercontent.com/{repo}/{s['branch']}/{RELEASE_DIR}/tpu_emulation.py"


def colab_badge(lesson: str, root: Path = ROOT, repository: str | None = None) -> str:
    return (
        f'<a href="{colab_url(lesson, root, repository)}" target="_parent">'
        '<img src="https://colab.research.google.com/assets/colab-badge.svg" '
        'alt="Open In Colab"/></a>'
    )


# A lesson is one folder, solutions/<NN_name>/ (common/lessonfolder.py, docs/AUTHORING.md): beside
# its notebook, the lesson's instructor-only companions, each a name of the folder. nbgrader's
# generate_assignment and the release skip them; publish carries only the release; a Gradescope zip
# carries the notebook and GRADING_COMPANIONS alone. The library of known mistakes stays first.
INSTRUCTOR_ONLY = (
    "mistakes.py",  # the library of known wrong answers (answers in disguise)
    "lesson.toml",  # what the course says of the lesson outside its notebook
    "alternatives.py",  # other people's correct answers (solutions in disguise)
    "heldout.py",  # the developers' held-out wrong answers
    "choices.py",  # answers that meet a choice the chip makes either way: the chip gives their verdicts
    "claims.py",  # the claims that back the mistakes' explanations
    "independent",  # answers written outside the course: train.py, heldout.py
    "chip",  # the chip's record of the lesson: outcomes.json
)
# What grading needs of a lesson's companions (the diagnosis names the library's mistakes)
GRADING_COMPANIONS = ("mistakes.py",)


def nbgrader_config(course_root: Path = ROOT, db_path: Path | None = None) -> Config:
    """nbgrader settings for a course directory laid out like this repository."""
    from traitlets.config import Config  # here, not at import: autograder.common.mistakes needs only paths

    c = Config()
    c.CourseDirectory.root = str(course_root)
    c.CourseDirectory.source_directory = SOURCE_DIR
    c.CourseDirectory.release_directory = RELEASE_DIR
    c.CourseDirectory.course_id = "tpu-precision-course"
    c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", *INSTRUCTOR_ONLY]
    if db_path is not None:
        c.CourseDirectory.db_url = f"sqlite:///{db_path}"
    c.ClearSolutions.code_stub = {"python": CODE_STUB}
    c.ClearSolutions.enforce_metadata = True
    c.ExecutePreprocessor.timeout = CELL_TIMEOUT_S
    c.Execute.timeout = CELL_TIMEOUT_S
    c.Execute.interrupt_on_timeout = True
    c.OverwriteCells.add_missing_cells = True
    c.IncludeHeaderFooter.header = ""
    c.Exchange.root = str(Path(course_root) / ".exchange")
    return c
