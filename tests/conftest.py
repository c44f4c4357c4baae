import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.notebooks import lessons  # noqa: E402

LESSONS = lessons(ROOT)


def source_nb(lesson: str):
    return nbformat.read(str(ROOT / "solutions" / lesson / f"{lesson}.ipynb"), as_version=4)


def student_nb(lesson: str):
    return nbformat.read(str(ROOT / "notebooks" / lesson / f"{lesson}.ipynb"), as_version=4)


@pytest.fixture(params=LESSONS)
def lesson(request):
    return request.param
