"""Start-up work every grading process did that it need not: nbgrader's gradebook schema version
read here instead of by an ``alembic heads`` subprocess (autograder/common/gradebookschema.py), and
jsonschema's IRI grammar left out of the processes that read notebooks (autograder/__init__.py).
Both must change nothing that is computed: the same schema version, the same validation."""

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.common import gradebookschema
from conftest import ROOT


def test_the_head_read_here_is_the_one_alembic_prints():
    from nbgrader.dbutil import _temp_alembic_ini

    with _temp_alembic_ini("sqlite:////tmp/unused-gradebook.db") as ini:
        printed = subprocess.check_output([str(Path(sys.executable).parent / "alembic"), "-c", ini, "heads"], text=True)
    assert printed.split()[0] == gradebookschema.alembic_head()


def test_a_new_gradebook_is_stamped_without_a_subprocess(tmp_path, monkeypatch):
    from nbgrader.api import Gradebook

    gradebookschema.install()

    def no_subprocess(*args, **kwargs):
        raise AssertionError(f"a subprocess was started: {args}")

    monkeypatch.setattr(subprocess.Popen, "__init__", no_subprocess)
    db = tmp_path / "gradebook.db"
    with Gradebook(f"sqlite:///{db}"):
        pass
    stamped = sqlite3.connect(db).execute("SELECT version_num FROM alembic_version").fetchall()
    assert stamped == [(gradebookschema.alembic_head(),)]


CHECK = r"""
import sys
import autograder, nbformat
from nbformat.validator import ValidationError
assert sys.modules["rfc3987_syntax"] is None, "the IRI grammar was not built"
good = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
nbformat.validate(good)
bad = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
bad.cells[0]["outputs"] = [{}]
try:
    nbformat.validate(bad)
except ValidationError:
    print("refused")
"""


def test_notebooks_are_validated_as_before_without_the_iri_grammar():
    pytest.importorskip("rfc3987_syntax")  # installed with JupyterLab: what is left out
    run = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["refused"]
