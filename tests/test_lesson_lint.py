"""A lesson's folder passes ruff as `make lint` runs it (issue 67: an author's lesson passed every
step of `lessoncheck check`, then `make test` failed on an E501 in its folder). `lessoncheck
check`'s folder step runs this test, so the author hears it at the first step."""

import subprocess
import sys

from autograder.common import lessonfolder
from conftest import ROOT


def ruff_problems(folder, root=ROOT) -> list[str]:
    """What `ruff check` and `ruff format --check` say of ``folder``, with the course's pyproject.toml
    (its line length and its exclusions: the library of mistakes, independent/, notebooks)."""
    found = []
    for args in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        cmd = [sys.executable, "-m", "ruff", *args, "--config", str(root / "pyproject.toml"), str(folder)]
        proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
        if proc.returncode != 0:
            found.append(f"ruff {args[0]}: {proc.stdout.strip()} {proc.stderr.strip()}")
    return found


def test_the_lesson_folder_passes_ruff(lesson):
    assert ruff_problems(lessonfolder.folder(lesson, ROOT)) == []


def test_ruff_problems_finds_a_long_line_and_an_unformatted_file(tmp_path):
    (tmp_path / "claims.py").write_text("CLAIMS = {'f:x': ['" + "1 == 1 and " * 12 + "True']}\n")
    found = ruff_problems(tmp_path)
    print(found)
    assert len(found) == 2 and "E501" in found[0] and found[1].startswith("ruff format")
    (tmp_path / "claims.py").write_text('CLAIMS = {"f:x": ["True"]}\n')
    assert ruff_problems(tmp_path) == []
