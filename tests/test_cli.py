"""The command line speaks to people (issue 31): every subcommand is listed and its --help explains
every option; counts agree with their nouns; sizes are in GiB or MiB; the start-up line names a CPU
cap only where one is set. Nothing here grades."""

import contextlib
import dataclasses
import io
import re

import pytest

from autograder.__main__ import main, parser
from autograder.grader.sandbox import cgroup, launch as sandbox
from autograder.grader.core.settings import Limits
from autograder.common.words import human_bytes, plural

COMMANDS = ("report", "release", "grade", "override", "check", "run", "lab", "publish")


def help_of(*argv) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return out.getvalue()


def test_the_top_help_lists_every_subcommand_with_what_it_does():
    text = help_of()
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s+\S", text, re.M), f"{command} is not listed with a line of help"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommands_help_explains_each_option(command):
    text = help_of(command)
    assert text.startswith(f"usage: python -m autograder {command}"), text[:200]
    subs = next(a for a in parser()._actions if a.dest == "command").choices
    for action in subs[command]._actions:  # report and publish: their own parsers, below
        assert action.help, f"{command} {action.option_strings or action.dest}: no help"
    if command in ("report", "publish"):
        assert "--roster" in text if command == "report" else "--upstream-is-public" in text


def test_lab_is_what_make_lab_runs(monkeypatch):
    from autograder.course import lab

    seen = []
    monkeypatch.setattr(lab, "main", lambda argv=None: seen.append(argv) or 0)
    assert main(["lab", "--port=8899", "--no-browser"]) == 0 and seen == [["--port=8899", "--no-browser"]]
    assert "-m autograder lab $(LAB_ARGS)" in open("Makefile").read()


def test_counts_agree_with_their_nouns():
    assert plural(1, "student") == "1 student" and plural(2, "student") == "2 students"
    assert plural(0, "lesson") == "0 lessons" and plural(1.5, "core") == "1.5 cores"
    from autograder.report import ClassData, Row, render

    one = ClassData(__import__("pathlib").Path("."), [Row("ada", "01_number_formats", 3, 13, "missing")], None, [])
    page = render(one)
    assert "1 student," in page and "1 lesson<" in page and "1 notebook needs a human look" in page
    assert not re.search(r"\b1 (students|lessons|notebooks)\b", page)


def test_sizes_are_in_human_units():
    assert human_bytes(4 * 2**30) == "4 GiB" and human_bytes(256 * 2**20) == "256 MiB"
    assert human_bytes(1536) == "1.5 KiB" and human_bytes(1) == "1 byte"
    line = sandbox.describe(Limits())
    assert "4 GiB address space" in line and "256 MiB" in line
    assert not re.search(r"\d{6,}", line.replace("20,000", "")), line
    from autograder.report.html import provenance
    from autograder.report import ClassData

    run = {"limits": {"memory_bytes": 4 * 2**30, "tmpfs_bytes": 256 * 2**20, "processes": 256}}
    shown = dict(provenance(ClassData(__import__("pathlib").Path("."), [], run, [])))["limits"]
    assert shown == {"memory_bytes": "4 GiB", "tmpfs_bytes": "256 MiB", "processes": 256}


@pytest.mark.parametrize("cpus, said", [(0.0, "no CPU cap"), (2.0, "CPU (2 cores together)")])
def test_the_start_up_line_claims_a_cpu_cap_only_where_one_is_set(monkeypatch, cpus, said):
    roots = {c: cgroup.V2 / "grader" for c in cgroup.CONTROLLERS}
    monkeypatch.setattr(cgroup, "cgroup_roots", lambda: roots)
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: "")
    line = sandbox.describe(dataclasses.replace(Limits(), cpus=cpus))
    assert said in line and "memory together (4 GiB, no swap)" in line and "processes and threads (256)" in line
    if not cpus:
        assert "CPU (" not in line and not re.search(r"caps[^;]*\bCPU\b", line), line


def test_a_students_budget_is_said_in_mib(tmp_path, monkeypatch):
    import zipfile

    from autograder.grader.classroom import intake

    monkeypatch.setattr(intake, "MAX_STUDENT_BYTES", 2**20)  # two 1 MiB notebooks of ada's: the second is past it
    with zipfile.ZipFile(tmp_path / "class.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for name in ("ada/a.ipynb", "ada/b.ipynb"):
            zf.writestr(name, b"0" * 2**20)
    taken = intake.take(tmp_path / "class.zip", {})
    assert "ada/b.ipynb: not graded: past 1 MiB of notebooks from one student: not read" in taken.notes
