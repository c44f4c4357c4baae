"""Project hygiene: one pinned dependency list mirrored for conda, the two README commands, CI."""

import re
import subprocess
import tomllib

from conftest import ROOT


def pinned():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return deps


def test_dependencies_are_pinned_and_mirrored_in_environment_yml():
    deps = pinned()
    assert deps and all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][A-Za-z0-9.]*", d) for d in deps), deps
    env = (ROOT / "environment.yml").read_text()
    mirrored = re.findall(r"^\s*-\s+([A-Za-z0-9_.\-]+==[^\s#]+)\s*$", env, re.M)
    assert sorted(mirrored) == sorted(deps), "environment.yml must mirror pyproject.toml"


def test_readme_has_the_two_commands_and_ci_calls_make_test():
    readme = (ROOT / "README.md").read_text()
    assert "make run" in readme and "make test" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "venv" in makefile and "pip install" in makefile


def test_no_generated_files_are_tracked():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    junk = [
        f
        for f in tracked
        if re.search(r"gradebook\.db|\.ipynb_checkpoints|__pycache__|(^|/)build/|\.xplane\.pb$|\.trace\.json\.gz$", f)
    ]
    assert junk == []


def test_every_grader_module_is_one_small_room():
    """The grader stays a package a newcomer reads in ten minutes: every module of
    autograder/grader/ has a docstring saying what it owns, is listed in the package's map
    (its __init__.py), and is at most ~300 lines (formatted by ruff)."""
    package = ROOT / "autograder" / "grader"
    index = (package / "__init__.py").read_text()
    for module in sorted(package.glob("*.py")):
        text = module.read_text()
        assert text.startswith('"""'), f"{module.name}: no docstring saying what it owns"
        assert len(text.splitlines()) <= 320, f"{module.name}: {len(text.splitlines())} lines; split it by job"
        if module.name != "__init__.py":
            assert re.search(rf"^{re.escape(module.name)}\s", index, re.M), f"{module.name} is not in the map"


def test_the_code_is_linted_and_formatted_by_make_test():
    """`make lint` (run first by `make test`) checks both ruff's rules and ruff's formatting."""
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert "ruff check" in lint and "ruff format --check" in lint
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]
    assert "format" in tool


def _python_older_than_312():
    """An interpreter of Python < 3.12 on this machine (pyenv's or PATH's), or None."""
    import glob
    import shutil

    candidates = [shutil.which(f"python3.{minor}") for minor in (10, 11)]
    candidates += sorted(glob.glob("/root/.pyenv/versions/3.1[01]*/bin/python3"))
    for path in filter(None, candidates):
        probe = subprocess.run([path, "-c", "import sys; print(sys.version_info < (3, 12))"], capture_output=True)
        if probe.stdout.strip() == b"True":
            return path
    return None


def test_the_toolchain_is_python_312_and_an_older_python_gets_one_sentence(tmp_path):
    """The grader runs on the Python students run (3.12+, Colab's): pyproject says so, ruff targets it,
    and `make` with an older interpreter stops before making a venv, saying what to install."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["requires-python"] == ">=3.12"
    assert project["tool"]["ruff"]["target-version"] == "py312"
    assert re.search(r"^\s*-\s+python=3\.12\s*$", (ROOT / "environment.yml").read_text(), re.M)
    old = _python_older_than_312()
    if old is None:
        import pytest

        pytest.skip("no Python older than 3.12 on this machine to try")
    for name in ("Makefile", "pyproject.toml"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    run = subprocess.run(
        ["make", "-s", ".venv/.installed-stamp", f"PYTHON={old}"], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode != 0 and not (tmp_path / ".venv").exists()
    assert "Python 3.12+ is needed" in run.stderr and "PYTHON=/path/to/python3.12" in run.stderr, run.stderr
