"""tests/test_notebooks.py's tests for lesson 05: a file of its own, so that `--dist loadfile`
spreads the lessons' gradings over the workers (each file keeps its own graded candidates and TPU
runs, computed once per lesson; lessons 05 and 06, the costliest, have a file each)."""

import pytest

from test_notebooks import *  # noqa: F401,F403  (its tests and fixtures, collected here with this file's lessons)

pytestmark = pytest.mark.slow
SECOND_HALF = ["05_precision_policy"]


@pytest.fixture(params=SECOND_HALF)
def lesson(request):
    return request.param
