"""The course runs on the JAX its students have (issue 19): a declared floor, checked by every
lesson's setup cell with one clear sentence, and `make compat`, which runs every notebook on
Python 3.12 with the newest JAX and with the floor (each in its own venv)."""

import re
import types

import pytest

from autograder.common import setupcell
from conftest import LESSONS, ROOT, source_nb

FLOOR_CHECK = re.compile(r"^# The oldest JAX these lessons are tested on.*?then Run all\.\"\)$", re.S | re.M)


def declared_floor() -> str:
    found = re.findall(r"^JAX_FLOOR := (\S+)$", (ROOT / "Makefile").read_text(), re.M)
    assert len(found) == 1, "the Makefile declares JAX_FLOOR once"
    assert setupcell.declared_floor(ROOT) == found[0]
    return found[0]


def floor_check(lesson: str) -> str:
    setup = next(c for c in source_nb(lesson).cells if c.cell_type == "code")
    found = FLOOR_CHECK.findall(setup.source)
    assert len(found) == 1, f"{lesson}: the setup cell checks the JAX floor once"
    assert setup.source.index(found[0]) < setup.source.index("jax.devices()"), "before any device use"
    return found[0]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_setup_cell_checks_the_declared_floor(lesson):
    block = floor_check(lesson)
    assert f'JAX_FLOOR = "{declared_floor()}"' in block
    assert block == setupcell.floor_check(declared_floor()), "the same check in every lesson (setupcell.py's)"


@pytest.mark.parametrize(
    "version, backend, stops",
    [
        ("0.7.2", "tpu", True),
        ("0.4.38", "gpu", True),
        ("0.6.2", "cpu", True),
        ("0.5.0rc1", "cpu", True),
        (None, "cpu", False),
        ("0.12.0.1", "tpu", False),
        ("0.10.0.dev20260101", "cpu", False),
        ("1.0", "gpu", False),
    ],
)
def test_the_floor_check_stops_an_older_jax_with_one_sentence(version, backend, stops):
    floor = declared_floor()
    fake = types.SimpleNamespace(__version__=version or floor, default_backend=lambda: backend)
    block = floor_check(LESSONS[0])
    if not stops:
        exec(block, {"re": re, "jax": fake})
        return
    with pytest.raises(RuntimeError) as stopped:
        exec(block, {"re": re, "jax": fake})
    sentence = str(stopped.value)
    print(sentence)
    pip = {"tpu": '"jax[tpu]"', "gpu": '"jax[cuda12]"'}.get(backend, "jax")
    assert f"has JAX {version}" in sentence and f"needs JAX {floor} or newer" in sentence
    assert f"!pip install -U {pip} " in sentence and "Restart session" in sentence
    assert sentence.count(". ") == 0 and sentence.endswith(".")


def test_make_compat_runs_both_stacks_and_the_readme_says_what_was_tested():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^compat: compat-tests compat-newest compat-floor$", makefile, re.M)
    assert "jax==$(JAX_FLOOR) jaxlib==$(JAX_FLOOR)" in makefile and "--upgrade jax jaxlib" in makefile
    assert "RELEASE_TEST := test_student_release_runs_with_only_stub_errors" in makefile  # every lesson's:
    # tests/test_project.py collects what make compat's command line selects
    readme = (ROOT / "README.md").read_text()
    assert "make compat" in readme
    tested = readme[readme.index("## Tested on") :]
    tested = tested[: tested.index("\n## ", 1)]
    assert f"JAX {declared_floor()}" in tested, "the README names the floor"
    assert re.search(r"newest.*JAX \d+\.\d+", tested, re.S) and re.search(r"\d{4}-\d{2}-\d{2}", tested)
