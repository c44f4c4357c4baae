"""Project hygiene: one pinned dependency list mirrored for conda, the two README commands, CI."""

import re
import subprocess
import sys
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


# The grader's layers, lowest first: a module imports only its own layer and those before it.
LAYERS = ("core", "sandbox", "checker", "diagnosis", "notebook", "classroom")


def _map_of(index: str) -> dict[str, set[str]]:
    """The map in grader/__init__.py: {layer folder: the modules listed under it}."""
    found, layer = {}, None
    for line in index.splitlines():
        if m := re.match(r"^([a-z_]+)/\s", line):
            layer = m.group(1)
            found[layer] = set()
        elif (m := re.match(r"^  ([a-z_]+\.py)\s", line)) and layer:
            found[layer].add(m.group(1))
    return found


def test_every_grader_module_is_one_small_room_in_its_layers_folder():
    """The grader stays a package a newcomer reads in ten minutes: every module below
    autograder/grader/ (every sub-folder walked) has a docstring saying what it owns, is at most 350
    lines (formatted by ruff), lives in one of the layers' folders, and is listed under that folder
    in the package's map (its __init__.py), which lists nothing else."""
    package = ROOT / "autograder" / "grader"
    found = {}
    for module in sorted(package.rglob("*.py")):
        text = module.read_text()
        where = module.relative_to(package)
        assert text.startswith('"""'), f"{where}: no docstring saying what it owns"
        assert len(text.splitlines()) <= 350, f"{where}: {len(text.splitlines())} lines; split it by job"
        if module.name != "__init__.py":
            assert len(where.parts) == 2 and where.parts[0] in LAYERS, f"{where}: not in a layer's folder"
            found.setdefault(where.parts[0], set()).add(module.name)
    assert sorted(p.name for p in package.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(LAYERS)
    assert _map_of((package / "__init__.py").read_text()) == found


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[2]) if parts[:2] == ["autograder", "grader"] and len(parts) > 2 else None


def _against_the_layers(edges) -> list[str]:
    """Each import of the grader against the layers' direction: module to module, and package to
    package (a layer's sub-package reaching one above it, through any of its modules)."""
    wrong = [
        f"{a} -> {b}"
        for a in sorted(edges)
        for b in sorted(edges[a])
        if _layer(a) is not None and _layer(b) is not None and _layer(b) > _layer(a)
    ]
    packages = {}
    for a in edges:
        for b in edges[a]:
            if _layer(a) is not None and _layer(b) is not None and _layer(a) != _layer(b):
                packages.setdefault(LAYERS[_layer(a)], set()).add(LAYERS[_layer(b)])
    wrong += [f"{p} -> {q}" for p in sorted(packages) for q in sorted(packages[p]) if LAYERS.index(q) > LAYERS.index(p)]
    return wrong


def test_the_grader_imports_only_down_its_layers():
    """Issue 44 (1): core <- sandbox <- checker <- diagnosis <- notebook <- classroom, every import
    statement (function-level ones too) of every module below autograder/grader/. The one reach
    upward is core/observer.py's, by name (importlib), to the diagnosis plug-in."""
    edges, _ = _import_graph()
    grader = {m for m in edges if _layer(m) is not None}
    assert len(grader) > 30, "the graph was built"
    assert _against_the_layers(edges) == []
    dynamic = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "autograder" / "grader").rglob("*.py")
        if p.name != "__init__.py" and "import_module(" in p.read_text()
    )
    assert dynamic == [
        "autograder/grader/checker/spawn.py",
        "autograder/grader/core/observer.py",
    ]  # WARM's, the plug-in's


def test_the_layering_check_can_fail(tmp_path, monkeypatch):
    """A planted import against the direction (core reaching the classroom, inside a function) is
    found at module and at package level."""
    import shutil
    import sys

    shutil.copytree(ROOT / "autograder", tmp_path / "autograder", ignore=shutil.ignore_patterns("__pycache__"))
    wire = tmp_path / "autograder" / "grader" / "core" / "wire.py"
    wire.write_text(wire.read_text() + "\n\ndef planted():\n    from ..classroom import outputs\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    edges, _ = _import_graph()
    assert _against_the_layers(edges) == [
        "autograder.grader.core.wire -> autograder.grader.classroom.outputs",
        "core -> classroom",
    ]


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


def _import_graph():
    """{module: {modules of autograder/ it imports}} and the private names imported across modules,
    from every import statement of the package's source (function-level imports included), by ast."""
    import ast

    modules = {}
    for path in (ROOT / "autograder").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    edges, private = {}, []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [(a.name, None) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                module = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
                targets = [
                    (f"{module}.{a.name}", None) if f"{module}.{a.name}" in modules else (module, a.name)
                    for a in node.names
                ]
            else:
                continue
            for target, imported in targets:
                if target in modules and target != name:
                    edges.setdefault(name, set()).add(target)
                    if imported and imported.startswith("_") and not imported.startswith("__"):
                        private.append(f"{name} imports {target}.{imported}")
    return edges, private


def _cycles(edges):
    """Each edge a -> b of the graph that lies on a cycle (b reaches a again)."""

    def reaches(start, goal):
        seen, stack = set(), [start]
        while stack:
            for nxt in edges.get(stack.pop(), ()):
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return False

    return sorted(f"{a} -> {b}" for a in edges for b in edges[a] if reaches(b, a))


def test_the_packages_imports_have_no_cycle_and_no_private_name_crosses_a_module():
    """A newcomer can read the grader bottom-up: the import graph of autograder/ (every import,
    function-level ones too) has no cycle, and no module imports another's private name."""
    edges, private = _import_graph()
    assert len(edges) > 20, "the graph was built"
    assert private == []
    assert _cycles(edges) == []


# The top-level packages, in the order they may import one another (autograder/__init__.py): each
# imports only itself and those before it; the command line (autograder/__main__.py) composes them.
PACKAGES = ("common", "chip", "grader", "report", "gradescope", "course")


def _package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in PACKAGES else None


def against_the_package_order(edges) -> list[str]:
    """Each import from one top-level package into a later one (a module, then its package pair)."""
    wrong, pairs = [], set()
    for a in sorted(edges):
        for b in sorted(edges[a]):
            pa, pb = _package_of(a), _package_of(b)
            if pa and pb and PACKAGES.index(pb) > PACKAGES.index(pa):
                wrong.append(f"{a} -> {b}")
                pairs.add(f"{pa} -> {pb}")
    return wrong + sorted(pairs)


def test_the_top_level_packages_import_in_one_direction():
    """Issue 53 (2): common <- chip <- grader <- report <- gradescope <- course, every import of
    every module (function-level ones too); the grader never imports the report: the command line
    composes "grade, then report". No module lies loose at the top but the command line."""
    edges, _ = _import_graph()
    assert {_package_of(m) for m in edges} >= set(PACKAGES), "the graph was built"
    assert against_the_package_order(edges) == []
    loose = sorted(p.name for p in (ROOT / "autograder").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]


def test_the_package_order_check_can_fail():
    """A planted import of the report from the grader, and of the grader from common, are found."""
    edges, _ = _import_graph()
    planted = {**edges, "autograder.grader.classroom.outputs": {"autograder.report.html"}}
    assert against_the_package_order(planted) == [
        "autograder.grader.classroom.outputs -> autograder.report.html",
        "grader -> report",
    ]
    planted = {**edges, "autograder.common.textsafe": {"autograder.grader.core.wire"}}
    assert against_the_package_order(planted) == [
        "autograder.common.textsafe -> autograder.grader.core.wire",
        "common -> grader",
    ]


def test_the_import_graph_check_sees_function_level_imports_and_cycles(tmp_path, monkeypatch):
    """The check above can fail: a function-level import of a private name that closes a cycle is
    found (in a copy of the package with one planted)."""
    import shutil
    import sys

    shutil.copytree(ROOT / "autograder", tmp_path / "autograder", ignore=shutil.ignore_patterns("__pycache__"))
    wire = tmp_path / "autograder" / "grader" / "core" / "wire.py"
    wire.write_text(wire.read_text() + "\n\ndef _planted():\n    from ..classroom.classrun import _private\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    edges, private = _import_graph()
    assert private == ["autograder.grader.core.wire imports autograder.grader.classroom.classrun._private"]
    assert "autograder.grader.core.wire -> autograder.grader.classroom.classrun" in _cycles(edges)


# Numbers that are facts of the operating system, not limits the grader chooses
OS_CONSTANTS = {
    "cgroup.py": {"PERIOD_US"},  # the cpu controller's period (cpu.max's second field)
    "landlock.py": {"_PR_SET_NO_NEW_PRIVS"},  # prctl's option number
    # clone's, prctl's and capset's numbers; sysexits.h's EX_SOFTWARE for a launch refused
    "launcher.py": {"_CLONE_NEWNS", "_PR_CAP_AMBIENT_CLEAR_ALL", "_CAP_VERSION_3", "REFUSED"},
    "reaper.py": {"_PR_SET_CHILD_SUBREAPER"},
    "workfs.py": {"_MNT_DETACH"},  # umount2's flag
}
SANDBOXED = {"wire.py", "student_side.py"}  # run alone in the student's sandbox: their caps live there


def _numeric_constants(path):
    """Module-level NAME = <a number, or arithmetic of numbers> in ``path``."""
    import ast

    def numeric(node):
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
        if isinstance(node, ast.BinOp):
            return numeric(node.left) and numeric(node.right)
        return isinstance(node, ast.UnaryOp) and numeric(node.operand)

    found = set()
    for node in ast.parse(path.read_text()).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if getattr(node, "value", None) is not None and numeric(node.value):
            found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return found


def test_every_limit_of_the_grader_is_declared_in_settings(tmp_path):
    """Issue 30: the grader's limits, intervals and caps are declared once, in settings.py (its
    options in Settings/Limits, its internal ones in one commented block); no other module of
    autograder/grader/ declares a number of its own, except the OS's constants and the caps of the
    two files that run alone inside the sandbox. A planted GRACE = 30.0 is found."""
    package = ROOT / "autograder" / "grader"
    stray = {
        m.name: sorted(_numeric_constants(m) - OS_CONSTANTS.get(m.name, set()))
        for m in package.rglob("*.py")
        if m.name not in SANDBOXED | {"settings.py"}
    }
    assert {k: v for k, v in stray.items() if v} == {}
    assert len(stray) > 35, "every sub-folder walked"
    assert {"CHECKER_GRACE", "WATCH_SECONDS", "MAX_NOTEBOOK_BYTES"} <= _numeric_constants(
        package / "core" / "settings.py"
    )
    planted = tmp_path / "run.py"
    planted.write_text('"""x"""\n\nGRACE = 30.0\nLIMIT = 2 * 2**20\nNAME = "x"\n')
    assert _numeric_constants(planted) == {"GRACE", "LIMIT"}


def test_every_package_of_the_tooling_is_installed():
    """pyproject.toml lists every package below autograder/ (a normal install ships only those)."""
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "autograder").rglob("__init__.py")}
    assert sorted(listed) == sorted(found)


def test_no_module_of_the_tooling_is_over_350_lines():
    """Issue 30: every module of autograder/ (grader, report, lessoncheck and the rest) does one job
    a newcomer reads in minutes: at most 350 lines, with a docstring."""
    big = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "autograder").rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 350
    }
    assert big == {}
    assert [p for p in (ROOT / "autograder").rglob("*.py") if not p.read_text().startswith('"""')] == []


# What a reader of the course outside this project's workshop cannot follow: paths outside the
# repository, and words of the project's own development history.
OUTSIDE = re.compile(r"\.\./shared|shared/COURSE\.md|\.library|/work/|\b[Ss]ession \d+\b|\b[Ss]top \d+\b")


def test_docs_lessons_and_tooling_name_nothing_outside_the_repository():
    """Issue 31: README, docs/, the lessons (solutions/ and the release), the tooling and its
    templates point at nothing outside the repository and at no session of its development (a
    planted line is found)."""
    files = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    files += [*(ROOT / "solutions").rglob("*.ipynb"), *(ROOT / "notebooks").rglob("*.ipynb")]
    files += [p for p in (ROOT / "autograder").rglob("*") if p.suffix in (".py", ".j2", ".md")]
    hits = [f"{p.relative_to(ROOT)}: {m.group()}" for p in files for m in OUTSIDE.finditer(p.read_text())]
    assert len(files) > 60 and hits == []
    assert OUTSIDE.search("see ../shared/COURSE.md, as Session 2's reviewers said")


def test_the_readme_is_an_adopters_five_minute_read_and_the_guide_covers_every_command():
    """Issue 31: the README's first screen says what the course is and how to run it; it keeps to
    what an adopter reads in five minutes (what it is, the two commands, the lessons, students,
    instructors, limits, where it was tested), with the detail in docs/; every `python -m autograder`
    subcommand is explained in the README or the instructor's guide, and every doc the README
    names exists."""
    import argparse

    from autograder.__main__ import parser

    readme = (ROOT / "README.md").read_text()
    first_screen = "\n".join(readme.splitlines()[:40])
    assert "make run" in first_screen and "make test" in first_screen and "lessons" in first_screen.lower()
    # the generated lesson table grows with the course (one row a lesson folder): the rest is held to
    # what 160 lines were with six lessons
    table = readme.split("<!-- lessons:start -->", 1)[1].split("<!-- lessons:end -->", 1)[0]
    assert len(readme.splitlines()) - len(table.splitlines()) <= 151, "the README grew past a five-minute read"
    heads = re.findall(r"^## (.+)$", readme, re.M)
    wanted = ["Two commands", "Lessons", "For students", "For instructors", "Limits, honestly", "Tested on"]
    assert [h for h in heads if h in wanted] == wanted, heads
    assert "nbgrader-format" in readme and "nbgrader autograde" in readme
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).is_file(), link
    guide = readme + (ROOT / "docs" / "INSTRUCTORS.md").read_text()
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name in commands:
        assert f"autograder {name}" in guide or f"make {name}" in guide, f"`{name}` is explained nowhere"


def test_make_compat_runs_every_solution_and_every_lesson_s_student_release():
    """`make compat` (CI, the newest JAX and the floor) runs each solution with nbmake and each
    lesson's student-release test: the selection its command line makes is collected here and must
    hold one of each for every lesson folder."""
    import os
    import sys

    from conftest import LESSONS

    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}  # under make test
    cmd = subprocess.run(
        ["make", "-n", "--no-print-directory", "--always-make", "compat-newest", "COMPAT_PYTHON=python3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    line = " ".join(cmd.replace("\\\n", " ").splitlines())
    pytest_args = line.split(" -m pytest ", 1)[1].split(" && ")[0]
    args = [a.strip("'") for a in re.findall(r"'[^']*'|\S+", pytest_args)]
    args = [a for a in args if a not in ("-n", "2") and not a.startswith("--dist") and a != "loadfile"]
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    items = [line for line in collected.splitlines() if "::" in line]
    for lesson in LESSONS:
        assert f"solutions/{lesson}/{lesson}.ipynb::{lesson}.ipynb" in items, (lesson, items)
        assert any(f"test_student_release_runs_with_only_stub_errors[{lesson}]" in i for i in items), (lesson, items)
    assert len(items) == 2 * len(LESSONS), items


def _compat_tests() -> set[str]:
    """file::function of each test marked `compat` (pyproject.toml): on itself or by its module."""
    import ast

    def marked(decorators) -> bool:
        return any("pytest.mark.compat" in ast.unparse(d) for d in decorators)

    found = set()
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text())
        module = any(
            isinstance(n, ast.Assign)
            and any(getattr(t, "id", "") == "pytestmark" for t in n.targets)
            and "pytest.mark.compat" in ast.unparse(n.value)
            for n in tree.body
        )
        for node in tree.body:
            if (
                isinstance(node, ast.FunctionDef)
                and node.name.startswith("test_")
                and (module or marked(node.decorator_list))
            ):
                found.add(f"{path.name}::{node.name}")
    return found


def test_the_second_tier_is_make_compat_s_and_written_down():
    """`make test` leaves out the tests marked `compat`; `make compat` (which CI runs after it) runs
    exactly those first; docs/TESTING.md names each, so nothing moves out of `make test` unseen."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}

    def recipe(target):
        return subprocess.run(
            ["make", "-n", "--no-print-directory", "--always-make", target, "COMPAT_PYTHON=python3"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
        ).stdout

    test = [line for line in recipe("test").splitlines() if " -m pytest " in line]
    assert len(test) == 1 and '-m "not compat" tests' in test[0], test
    compat = [line for line in recipe("compat").splitlines() if " -m pytest " in line]
    assert compat and compat[0].rstrip().endswith("-m compat tests"), compat
    assert (ROOT / ".ci" / "run").read_text().split().count("make") >= 2 and "make compat" in (
        ROOT / ".ci" / "run"
    ).read_text()
    second = _compat_tests()
    assert len(second) >= 10, second
    listed = (ROOT / "docs" / "TESTING.md").read_text()
    missing = sorted(t for t in second if t.split("::")[1] not in listed)
    assert not missing, f"docs/TESTING.md does not name these tests of make compat: {missing}"


def test_the_notebook_tests_are_handed_out_lesson_by_lesson():
    """`--dist loadfile` gives the workers tests/test_notebooks.py one lesson at a time
    (tests/conftest.py's scheduler): every lesson's tests there are one work unit, holding that
    lesson alone, so a new lesson is one more unit and no split of the lessons over files needs
    keeping in step; every other file stays one unit."""
    import argparse

    from conftest import LESSONS, pytest_xdist_make_scheduler, work_unit

    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:nbmake", "--collect-only", "-q", "tests/test_notebooks.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    ids = [line for line in collected.splitlines() if "::" in line]
    units: dict[str, set] = {}
    for nodeid in ids:
        units.setdefault(work_unit(nodeid), set()).update(n for n in LESSONS if f"[{n}" in nodeid)
    assert sorted(units) == sorted(f"tests/test_notebooks.py[{n}]" for n in LESSONS), sorted(units)
    assert all(lessons == {unit.split("[")[1].rstrip("]")} for unit, lessons in units.items())
    assert work_unit("tests/test_release.py::test_x[01_number_formats]") == "tests/test_release.py"

    class Config:
        option = argparse.Namespace(loadscopereorder=True)

        def __init__(self, dist):
            self.dist = dist

        def getvalue(self, name):
            return self.dist

    assert pytest_xdist_make_scheduler(Config("load"), None) is None
    scheduler = pytest_xdist_make_scheduler(Config("loadfile"), None)
    assert scheduler._split_scope(ids[0]) == work_unit(ids[0]) != ids[0].split("::")[0]
